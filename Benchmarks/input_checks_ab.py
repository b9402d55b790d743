#!/usr/bin/python3
"""A/B of two throbber binaries on inputs whose reading the hostile-input
checks touch (JPEG, GIF, animated WebP with and without --frames, Lottie):
five interleaved rounds, medians, and the output sizes of both.

usage: Benchmarks/input_checks_ab.py  (BEFORE and AFTER name the two binaries; the
WebP input is made first: throbber encode ../shared/fixtures/photo-seq-dlib-bobot
-o /tmp/ab-in.webp -q --fps 10)
"""
import subprocess, time, statistics, os
F=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "fixtures")
cases=[("JPEG folder -> GIF",[F+"/photo-seq-dlib-bobot","-o","OUT.gif"]),
       ("GIF -> GIF (muybridge)",[F+"/gif-image-gif/gifplayer-muybridge.gif","-o","OUT.gif"]),
       ("WebP 61 frames -> GIF",["/tmp/ab-in.webp","-o","OUT.gif"]),
       ("WebP --frames 1-10 -> GIF",["/tmp/ab-in.webp","-o","OUT.gif","--frames","1-10"]),
       ("Lottie soda_loader -> GIF",[F+"/lottie-android/soda_loader.json","-o","OUT.gif"]),
       ("Lottie iphone_x -> GIF --width 240",[F+"/lottie-android/iphone_x_loading.json","-o","OUT.gif","--width","240"])]
bins={"main b915929": os.environ.get("BEFORE", "/tmp/throbber-main"), "HEAD": os.environ.get("AFTER", ".build/release/throbber")}
t={}
for r in range(5):
    for name,args in cases:
        for b,p in bins.items():
            out="/tmp/ab-%s.gif"%b.split()[0]
            a=[x.replace("OUT.gif",out) for x in args]
            s=time.perf_counter(); subprocess.run([p,"encode"]+a+["-q"],check=True); t.setdefault((name,b),[]).append(time.perf_counter()-s)
        sizes={b:os.path.getsize("/tmp/ab-%s.gif"%b.split()[0]) for b in bins}
        t[(name,"sizes")]=sizes
print("| input | main b915929 | HEAD | ratio | bytes main / HEAD |")
print("|---|--:|--:|--:|---|")
for name,_ in cases:
    m=statistics.median(t[(name,"main b915929")]); h=statistics.median(t[(name,"HEAD")]); s=t[(name,"sizes")]
    print("| %s | %.3f s | %.3f s | %.2f | %d / %d |"%(name,m,h,h/m,s["main b915929"],s["HEAD"]))
