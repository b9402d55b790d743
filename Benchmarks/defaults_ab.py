#!/usr/bin/python3
"""A/B of two throbber binaries on the everyday commands, with their default
options: encode (frames to GIF, APNG and WebP, a GIF input, a Lottie file),
render and preset. Interleaved rounds, medians of wall time, output bytes of
both, and whether the bytes are the same.

usage: Benchmarks/defaults_ab.py [ROUNDS]   (default 5; BEFORE and AFTER name the
two binaries; ONLY=Lottie keeps the cases whose name holds that text; the
100-frame 320x240 corpora of Benchmarks/run are made in
/tmp/throbber-defaults-ab with ffmpeg if missing; fixtures from ../shared)
"""
import hashlib, os, statistics, subprocess, sys, time

ROUNDS = int(sys.argv[1]) if len(sys.argv) > 1 else 5
ROOT = "/tmp/throbber-defaults-ab"
HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..", "..", "shared", "fixtures")
EXAMPLES = os.path.join(HERE, "..", "examples")
BINS = {"before": os.environ.get("BEFORE", "/tmp/throbber-main"),
        "after": os.environ.get("AFTER", ".build/release/throbber")}


def corpus(name, source):
    d = os.path.join(ROOT, name)
    if not os.path.isdir(d):
        os.makedirs(d)
        subprocess.run(["ffmpeg", "-v", "error", "-f", "lavfi", "-i", source, "-frames:v", "100",
                        "-pix_fmt", "rgb24", d + "/%04d.png"], check=True)
    return d


os.makedirs(ROOT, exist_ok=True)
testsrc2 = corpus("testsrc2", "testsrc2=size=320x240:rate=25")
mandelbrot = corpus("mandelbrot", "mandelbrot=size=320x240:rate=25")
cases = [
    ("testsrc2 -> GIF", "gif", ["encode", testsrc2]),
    ("mandelbrot -> GIF", "gif", ["encode", mandelbrot]),
    ("testsrc2 -> APNG", "png", ["encode", testsrc2]),
    ("testsrc2 -> WebP", "webp", ["encode", testsrc2]),
    ("GIF input (muybridge) -> GIF", "gif", ["encode", FIXTURES + "/gif-image-gif/gifplayer-muybridge.gif"]),
    ("Lottie soda_loader -> GIF", "gif", ["encode", FIXTURES + "/lottie-android/soda_loader.json"]),
    ("render examples/dots.json", "gif", ["render", EXAMPLES + "/dots.json"]),
    ("preset spinner", "gif", ["preset", "spinner"]),
]

if os.environ.get("ONLY"):
    cases = [c for c in cases if os.environ["ONLY"] in c[0]]


def run(binary, args, out):
    start = time.perf_counter()
    subprocess.run([binary] + args + ["-o", out, "-q"], check=True)
    seconds = time.perf_counter() - start
    data = open(out, "rb").read()
    os.remove(out)
    return seconds, len(data), hashlib.sha256(data).hexdigest()


times, outputs = {}, {}
for _ in range(ROUNDS):
    for name, ext, args in cases:
        for b, path in BINS.items():
            s, size, digest = run(path, args, os.path.join(ROOT, "out-%s.%s" % (b, ext)))
            times.setdefault((name, b), []).append(s)
            outputs[(name, b)] = (size, digest)
print("| case | before | after | after / before | bytes before / after | same bytes |")
print("|---|--:|--:|--:|---|---|")
for name, _, _ in cases:
    before, after = statistics.median(times[(name, "before")]), statistics.median(times[(name, "after")])
    (sb, db), (sa, da) = outputs[(name, "before")], outputs[(name, "after")]
    print("| %s | %.3f s | %.3f s | %.2f | %d / %d | %s |" % (
        name, before, after, after / before, sb, sa, "yes" if db == da else "NO"))
