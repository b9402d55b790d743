#!/usr/bin/python3
"""Wall time of --max-bytes against a default encode, two throbber binaries in
one interleaved run: per corpus, the default encode of MAIN, and budgets of
50 % and 25 % of its file with MAIN and with NEW (medians of ROUNDS, default
5); bytes of both and whether they are the same.

usage: MAIN=/tmp/throbber-main NEW=.build/release/throbber \\
         Benchmarks/max_bytes_time_ab.py [ROUNDS]
(CORPORA: directories of frames, space-separated; by default the 320x240 and
640x480 testsrc2 corpora of /tmp/bench-h and a 30-frame mandelbrot cut,
made in /tmp/throbber-budget-mandel with ffmpeg if missing)
"""
import os, statistics, subprocess, sys, time, hashlib
ROUNDS = int(sys.argv[1]) if len(sys.argv) > 1 else 5
MAIN = os.environ.get("MAIN", "/tmp/throbber-main")
NEW = os.environ.get("NEW", ".build/release/throbber")
MANDELBROT = "/tmp/throbber-budget-mandel"
CORPORA = os.environ.get("CORPORA", "/tmp/bench-h/corpora/testsrc2-320x240 /tmp/bench-h/corpora/testsrc2-640x480 "
                         + MANDELBROT).split()
if MANDELBROT in CORPORA and not os.path.isdir(MANDELBROT):
    os.makedirs(MANDELBROT)
    subprocess.run(["ffmpeg", "-v", "error", "-f", "lavfi", "-i", "mandelbrot=size=320x240:rate=25", "-frames:v", "30",
                    MANDELBROT + "/%03d.png"], check=True)
OUT = "/tmp/throbber-budget-ab"
os.makedirs(OUT, exist_ok=True)
def run(binary, args, out):
    t = time.perf_counter()
    r = subprocess.run([binary, "encode"] + args + ["-o", out, "-q", "--fps", "25"], stderr=subprocess.PIPE)
    s = time.perf_counter() - t
    data = open(out, "rb").read() if r.returncode == 0 else b""
    if os.path.exists(out): os.remove(out)
    return s, r.returncode, len(data), hashlib.sha256(data).hexdigest()[:10]
sizes = {}
for c in CORPORA:
    _, _, sizes[c], _ = run(MAIN, [c], OUT + "/d.gif")
jobs = []
for c in CORPORA:
    jobs.append((c, "default", MAIN, [c]))
    for f in (2, 4):
        b = str(sizes[c] // f)
        jobs.append((c, "%d%% main" % (100 // f), MAIN, [c, "--max-bytes", b]))
        jobs.append((c, "%d%% new" % (100 // f), NEW, [c, "--max-bytes", b]))
times, res = {}, {}
for _ in range(ROUNDS):
    for c, name, binary, args in jobs:
        s, rc, n, h = run(binary, args, OUT + "/x.gif")
        times.setdefault((c, name), []).append(s)
        res[(c, name)] = (rc, n, h)
print("| corpus | budget | bytes main | bytes new | same | default main | budget main | budget new | new/default | main/default |")
print("|---|---|--:|--:|---|--:|--:|--:|--:|--:|")
for c in CORPORA:
    d = statistics.median(times[(c, "default")])
    for f in (50, 25):
        m, n = statistics.median(times[(c, "%d%% main" % f)]), statistics.median(times[(c, "%d%% new" % f)])
        (rm, bm, hm), (rn, bn, hn) = res[(c, "%d%% main" % f)], res[(c, "%d%% new" % f)]
        print("| %s | %d %% | %s | %s | %s | %.2f s | %.2f s | %.2f s | %.2f | %.2f |" % (
            os.path.basename(c), f, bm if rm == 0 else "exit %d" % rm, bn if rn == 0 else "exit %d" % rn,
            "yes" if hm == hn else "NO", d, m, n, n / d, m / d))
