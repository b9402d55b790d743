#!/usr/bin/python3
"""Lossy GIF output of two throbber binaries in one interleaved run: per
corpus, `--lossy 80` and `--max-bytes` at 50 % and 25 % of MAIN's default
file, each written by MAIN and by NEW (the order alternating each round);
bytes, PSNR and SSIM against the source frames (Benchmarks/gifmetrics.py)
and the median wall time of ROUNDS (default 5).

usage: MAIN=/tmp/throbber-main NEW=.build/release/throbber \\
         Benchmarks/lossy_ab.py [ROUNDS]
(CORPORA: directories of PNG frames at 25 fps, space-separated; by default
those of /tmp/bench-h/corpora that `make bench` makes: testsrc2, mandelbrot,
the photographic pan and the camera frames at 320x240, and the two screen
recordings. Needs Pillow and numpy, as Benchmarks/run does.)
"""
import glob
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gifmetrics  # noqa: E402
import numpy as np  # noqa: E402
from PIL import Image  # noqa: E402

ROUNDS = int(sys.argv[1]) if len(sys.argv) > 1 else 5
MAIN = os.environ.get("MAIN", "/tmp/throbber-main")
NEW = os.environ.get("NEW", ".build/release/throbber")
NAMES = ["testsrc2-320x240", "mandelbrot-320x240", "photo-320x240", "natural-320x240",
         "screencast-text-640x400", "screencast-color-640x400"]
CORPORA = os.environ.get("CORPORA", " ".join("/tmp/bench-h/corpora/" + n for n in NAMES)).split()
OUT = "/tmp/throbber-lossy-ab"
os.makedirs(OUT, exist_ok=True)


def encode(binary, corpus, args, out):
    """Wall seconds and exit status of one encode."""
    t = time.perf_counter()
    r = subprocess.run([binary, "encode", corpus, "-o", out, "--fps", "25", "-q"] + args, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t, r.returncode


cases = []
for corpus in CORPORA:
    default = f"{OUT}/default.gif"
    encode(MAIN, corpus, [], default)
    size = os.path.getsize(default)
    cases.append((corpus, "--lossy 80", ["--lossy", "80"]))
    for share in (50, 25):
        cases.append((corpus, f"{share} % budget", ["--max-bytes", str(size * share // 100)]))

times = {}
for r in range(ROUNDS):
    for corpus, name, args in cases:
        order = [("main", MAIN), ("new", NEW)]
        for tag, binary in order if r % 2 == 0 else reversed(order):
            key = (corpus, name, tag)
            out = f"{OUT}/{os.path.basename(corpus)}-{name.replace(' ', '_')}-{tag}.gif"
            times.setdefault(key, []).append(encode(binary, corpus, args, out))

print("| corpus | case | main: bytes, dB, SSIM | new: bytes, dB, SSIM | wall main → new (s) | ratio |")
print("|---|---|---|---|---|--:|")
for corpus in CORPORA:
    sources = [np.asarray(Image.open(p).convert("RGB")) for p in sorted(glob.glob(corpus + "/*.png"))]
    for c, name, _ in cases:
        if c != corpus:
            continue
        cells, walls = [], []
        for tag in ("main", "new"):
            runs = times[(corpus, name, tag)]
            walls.append(statistics.median(t for t, _ in runs))
            out = f"{OUT}/{os.path.basename(corpus)}-{name.replace(' ', '_')}-{tag}.gif"
            if runs[-1][1] != 0:
                cells.append(f"exit {runs[-1][1]}")
                continue
            s = gifmetrics.score(out, sources, 25)
            cells.append(f"{os.path.getsize(out):,}, {s['psnr']:.2f}, {s['ssim']:.5f}")
        print(f"| {os.path.basename(corpus)} | {name} | {cells[0]} | {cells[1]} | "
              f"{walls[0]:.2f} → {walls[1]:.2f} | {walls[1] / walls[0]:.2f} |", flush=True)
