#!/usr/bin/env python3
"""APNG benchmark (issue #4): lossless APNG from throbber against ffmpeg's
apng muxer and apngasm, and palette APNG against pngquant + apngasm, on the
frame folders of the GIF benchmark (Benchmarks/run makes them in
$BENCH_DIR/corpora). Reports bytes, wall time and peak RSS (median of
--repeat runs, /usr/bin/time), and for palette APNGs the mean PSNR against
the source frames. Writes a markdown report to stdout.

  THROBBER=.build/release/throbber BENCH_DIR=/tmp/throbber-bench Benchmarks/apng.py [--repeat 3] [--corpus NAME]...
"""
import argparse, glob, os, shutil, statistics, subprocess, sys, tempfile
import numpy as np
from PIL import Image, ImageSequence

def timed(cmd, cwd=None):
    """(wall seconds, peak RSS MB) of one run."""
    r = subprocess.run(["/usr/bin/time", "-f", "%e %M"] + cmd, cwd=cwd, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        raise RuntimeError("%s failed: %s" % (" ".join(cmd), r.stderr[-500:]))
    wall, rss = r.stderr.strip().splitlines()[-1].split()
    return float(wall), int(rss) / 1000.0

def measure(label, cmd, out, repeat, cwd=None):
    runs = [timed(cmd, cwd) for _ in range(repeat)]
    return {"label": label, "bytes": os.path.getsize(out), "wall": statistics.median(r[0] for r in runs),
            "rss": statistics.median(r[1] for r in runs), "file": out}

def frames_of(path):
    return [np.asarray(f.convert("RGBA")) for f in ImageSequence.Iterator(Image.open(path))]

def psnr(path, sources):
    out = frames_of(path)
    if len(out) != len(sources):
        return float("nan")
    values = []
    for a, b in zip(out, sources):
        mse = np.mean((a[..., :3].astype(float) - b[..., :3].astype(float)) ** 2)
        values.append(99.0 if mse == 0 else 10 * np.log10(255 ** 2 / mse))
    return float(np.mean(values))

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--corpus", action="append")
    args = ap.parse_args()
    throbber = os.path.abspath(os.environ.get("THROBBER", ".build/release/throbber"))
    bench = os.environ.get("BENCH_DIR", "/tmp/throbber-bench")
    corpora = args.corpus or ["mandelbrot-320x240", "testsrc2-320x240", "life-320x240", "testsrc2-1280x720"]
    work = tempfile.mkdtemp(prefix="throbber-apng-bench-")
    print("# APNG benchmark\n")
    for tool in (["ffmpeg", "-version"], ["apngasm"], ["pngquant", "--version"]):
        r = subprocess.run(tool, capture_output=True, text=True)
        print("- %s: %s" % (tool[0], (r.stdout + r.stderr).strip().splitlines()[0 if tool[0] != "apngasm" else 1].strip()))
    print("- timing: median of %d runs, `/usr/bin/time -f \"%%e %%M\"`\n" % args.repeat)
    summary = []
    for name in corpora:
        src_dir = os.path.join(bench, "corpora", name)
        files = sorted(glob.glob(os.path.join(src_dir, "*.png")))
        if not files:
            sys.exit("no frames in %s: run Benchmarks/run first" % src_dir)
        sources = [np.asarray(Image.open(f).convert("RGBA")) for f in files]
        d = os.path.join(work, name)
        os.makedirs(d)
        rows = [
            measure("throbber (lossless, --compression best)", [throbber, "encode", src_dir, "-o", d + "/t.png", "--fps", "25", "--quiet"], d + "/t.png", args.repeat),
            measure("throbber (lossless, --compression fast)", [throbber, "encode", src_dir, "-o", d + "/tf.png", "--fps", "25", "--quiet", "--compression", "fast"], d + "/tf.png", args.repeat),
            measure("ffmpeg -f apng", ["ffmpeg", "-loglevel", "error", "-y", "-framerate", "25", "-i", src_dir + "/%04d.png", "-plays", "0", "-f", "apng", d + "/f.png"], d + "/f.png", args.repeat),
            measure("apngasm (default: 7zip, 15 iterations)", ["apngasm", d + "/a.png"] + files + ["1", "25"], d + "/a.png", 1),
        ]
        # Palette: throbber --colors 256 vs pngquant each frame then apngasm.
        q = os.path.join(d, "q")
        os.makedirs(q)
        for f in files:
            shutil.copy(f, q)
        pq = measure("pngquant 256 + apngasm", ["sh", "-c", "pngquant --force --ext .png 256 %s/*.png && apngasm %s/pq.png %s/*.png 1 25 >/dev/null" % (q, d, q)], d + "/pq.png", 1)
        pal = measure("throbber --colors 256", [throbber, "encode", src_dir, "-o", d + "/tp.png", "--fps", "25", "--colors", "256", "--quiet"], d + "/tp.png", args.repeat)
        print("## %s: %d frames\n" % (name, len(files)))
        print("| encoder | bytes | × throbber | wall s | peak RSS MB | exact |")
        print("|---|--:|--:|--:|--:|--:|")
        base = rows[0]["bytes"]
        for r in rows:
            exact = all(np.array_equal(a, b) for a, b in zip(frames_of(r["file"]), sources))
            print("| %s | %s | %.2f | %.2f | %.0f | %s |" % (r["label"], format(r["bytes"], ","), r["bytes"] / base, r["wall"], r["rss"], "yes" if exact else "no"))
        print("\n| palette APNG | bytes | PSNR dB | wall s |")
        print("|---|--:|--:|--:|")
        for r in (pal, pq):
            print("| %s | %s | %.2f | %.2f |" % (r["label"], format(r["bytes"], ","), psnr(r["file"], sources), r["wall"]))
        print()
        t, f, a = rows[0], rows[2], rows[3]
        summary.append("- %s: throbber %s B vs ffmpeg %s B (%s); %.1f× faster than apngasm, %.2f× apngasm's size" % (
            name, format(t["bytes"], ","), format(f["bytes"], ","), "PASS no larger" if t["bytes"] <= f["bytes"] else "FAIL larger",
            a["wall"] / t["wall"], t["bytes"] / a["bytes"]))
    print("## Targets\n")
    print("\n".join(summary))
    shutil.rmtree(work)

main()
