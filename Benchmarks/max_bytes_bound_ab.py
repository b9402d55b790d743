#!/usr/bin/python3
"""A/B of two throbber binaries on --max-bytes budgets that cannot be met and
budgets that can, GIF and WebP: wall time (interleaved rounds, median), exit
status, and for the budgets met whether both wrote the same bytes.

usage: Benchmarks/max_bytes_bound_ab.py [ROUNDS]   (default 3; BEFORE and AFTER
name the two binaries; ONLY=WebP keeps the cases whose name holds that text;
the corpora of Benchmarks/run, 100 frames at 320x240, are made in
/tmp/throbber-bound-ab with ffmpeg if missing)
"""
import hashlib, os, statistics, subprocess, sys, time

ROUNDS = int(sys.argv[1]) if len(sys.argv) > 1 else 3
ROOT = "/tmp/throbber-bound-ab"
BINS = {"before": os.environ.get("BEFORE", "/tmp/throbber-main"),
        "after": os.environ.get("AFTER", ".build/release/throbber")}


def corpus(name, source):
    d = os.path.join(ROOT, name)
    if not os.path.isdir(d):
        os.makedirs(d)
        subprocess.run(["ffmpeg", "-v", "error", "-f", "lavfi", "-i", source, "-frames:v", "100",
                        "-pix_fmt", "rgb24", d + "/%04d.png"], check=True)
    return d


def run(binary, args, out):
    start = time.perf_counter()
    r = subprocess.run([binary, "encode"] + args + ["-o", out, "-q"], stderr=subprocess.PIPE)
    seconds = time.perf_counter() - start
    digest = hashlib.sha256(open(out, "rb").read()).hexdigest()[:12] if r.returncode == 0 else "-"
    if r.returncode == 0:
        os.remove(out)
    return seconds, r.returncode, digest


mandelbrot = corpus("mandelbrot", "mandelbrot=size=320x240:rate=25")
testsrc2 = corpus("testsrc2", "testsrc2=size=320x240:rate=25")
# A GIF as the input, as in the report of a slow refusal on a GIF.
gif_input = os.path.join(ROOT, "testsrc2.gif")
if not os.path.exists(gif_input):
    subprocess.run([BINS["before"], "encode", testsrc2, "-o", gif_input, "-q"], check=True)


def default_size(d, ext="gif"):
    out = os.path.join(ROOT, "default." + ext)
    subprocess.run([BINS["before"], "encode", d, "-o", out, "-q"], check=True)
    return os.path.getsize(out)


m, t = default_size(mandelbrot), default_size(testsrc2)
w = default_size(testsrc2, "webp")
cases = [
    ("mandelbrot, 10 % (cannot fit)", "gif", [mandelbrot, "--max-bytes", str(m // 10)]),
    ("mandelbrot, 25 % (fits)", "gif", [mandelbrot, "--max-bytes", str(m // 4)]),
    ("testsrc2 GIF input, 5 % (cannot fit)", "gif", [gif_input, "--max-bytes", str(t // 20)]),
    ("mandelbrot, 50 % (fits)", "gif", [mandelbrot, "--max-bytes", str(m // 2)]),
    ("testsrc2, 50 % (fits)", "gif", [testsrc2, "--max-bytes", str(t // 2)]),
    ("testsrc2, 90 % (fits)", "gif", [testsrc2, "--max-bytes", str(t * 9 // 10)]),
    ("testsrc2 WebP, 2 % (cannot fit)", "webp", [testsrc2, "--max-bytes", str(w // 50)]),
    ("testsrc2 WebP, 30 % (cannot fit, just under quality 1's file)", "webp", [testsrc2, "--max-bytes", str(w * 3 // 10)]),
    ("testsrc2 WebP, 40 % (fits)", "webp", [testsrc2, "--max-bytes", str(w * 4 // 10)]),
    ("testsrc2 WebP, 75 % (fits)", "webp", [testsrc2, "--max-bytes", str(w * 3 // 4)]),
]
if os.environ.get("ONLY"):
    cases = [c for c in cases if os.environ["ONLY"] in c[0]]
times, results = {}, {}
for _ in range(ROUNDS):
    for name, ext, args in cases:
        for b, path in BINS.items():
            s, status, digest = run(path, args, os.path.join(ROOT, "out-%s.%s" % (b, ext)))
            times.setdefault((name, b), []).append(s)
            results[(name, b)] = (status, digest)
print("| case | before | after | after / before | exit before / after | same bytes |")
print("|---|--:|--:|--:|---|---|")
for name, _, _ in cases:
    before, after = statistics.median(times[(name, "before")]), statistics.median(times[(name, "after")])
    (sb, db), (sa, da) = results[(name, "before")], results[(name, "after")]
    same = "yes" if db == da and db != "-" else ("-" if db == da else "NO")
    print("| %s | %.2f s | %.2f s | %.2f | %d / %d | %s |" % (name, before, after, after / before, sb, sa, same))
