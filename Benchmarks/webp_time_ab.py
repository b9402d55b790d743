#!/usr/bin/python3
"""The WebP default's time against `img2webp -lossless` at its defaults
(-m 4 -q 75), and two throbber binaries against each other: interleaved
rounds (before, after, img2webp on a corpus, then the next corpus), medians
of wall time, output bytes, and whether before and after wrote the same
bytes.

usage: Benchmarks/webp_time_ab.py [ROUNDS]   (default 5; BEFORE and AFTER name
the two binaries; ONLY=photo keeps the corpora whose name holds that text)

Corpora, made in /tmp/throbber-webp-ab with ffmpeg if missing, 25 fps:
testsrc2 and life (seed 42) at 320x240 (100 frames) and 640x480 (60), and a
photographic pan: three frames of ../shared/fixtures/photo-seq-dlib-bobot side
by side, tinted sepia, with static color noise of strength 5 (a camera's
grain; at 640x480 scaled 2x first), a 320x240 or 640x480 window moving 22 or
44 pixels a frame, 30 frames.
"""
import os, statistics, subprocess, sys, time

ROUNDS = int(sys.argv[1]) if len(sys.argv) > 1 else 5
ROOT = "/tmp/throbber-webp-ab"
HERE = os.path.dirname(os.path.abspath(__file__))
PHOTOS = os.path.join(HERE, "..", "..", "shared", "fixtures", "photo-seq-dlib-bobot")
BINS = {"before": os.environ.get("BEFORE", "/tmp/throbber-main"),
        "after": os.environ.get("AFTER", ".build/release/throbber")}
FFMPEG = ["ffmpeg", "-v", "error", "-y"]


def lavfi(name, source, frames):
    d = os.path.join(ROOT, name)
    if not os.path.isdir(d):
        os.makedirs(d)
        subprocess.run(FFMPEG + ["-f", "lavfi", "-i", source, "-frames:v", str(frames), "-pix_fmt", "rgb24",
                                 d + "/%04d.png"], check=True)
    return d


def pan(name, width, height, step):
    d = os.path.join(ROOT, name)
    if not os.path.isdir(d):
        os.makedirs(d)
        still = d + ".png"
        inputs = []
        for n in (100, 130, 159):
            inputs += ["-i", os.path.join(PHOTOS, "frame_%06d.jpg" % n)]
        scale = "" if height == 240 else ",scale=%d:%d:flags=lanczos" % (width * 3, height)
        subprocess.run(FFMPEG + inputs + [
            "-filter_complex", "[0][1][2]hstack=3" + scale + ",format=rgb24,"
            "colorchannelmixer=rr=1.0:gg=0.85:bb=0.65:rb=0.1,format=gbrp,noise=c0s=5:c1s=5:c2s=5:all_seed=7,"
            "format=rgb24", still], check=True)
        subprocess.run(FFMPEG + ["-loop", "1", "-i", still, "-vf",
                                 "crop=%d:%d:x='min(%d,n*%d)':y=0" % (width, height, 2 * width, step),
                                 "-frames:v", "30", "-pix_fmt", "rgb24", d + "/%04d.png"], check=True)
    return d


os.makedirs(ROOT, exist_ok=True)
corpora = [
    ("photo-320x240", pan("photo-320x240", 320, 240, 22)),
    ("life-320x240", lavfi("life-320x240", "life=size=320x240:rate=25:seed=42", 100)),
    ("testsrc2-320x240", lavfi("testsrc2-320x240", "testsrc2=size=320x240:rate=25", 100)),
    ("photo-640x480", pan("photo-640x480", 640, 480, 44)),
    ("life-640x480", lavfi("life-640x480", "life=size=640x480:rate=25:seed=42", 60)),
    ("testsrc2-640x480", lavfi("testsrc2-640x480", "testsrc2=size=640x480:rate=25", 60)),
]
corpora = [c for c in corpora if os.environ.get("ONLY", "") in c[0]]


def commands(name, d):
    out = os.path.join(ROOT, "out-" + name)
    files = sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith(".png"))
    cmds = {k: [b, "encode", d, "-o", "%s-%s.webp" % (out, k), "--fps", "25", "--quiet"] for k, b in BINS.items()}
    cmds["img2webp"] = ["img2webp", "-loop", "0", "-d", "40", "-lossless"] + files + ["-o", out + "-img2webp.webp"]
    return {k: (c, "%s-%s.webp" % (out, k)) for k, c in cmds.items()}


runs = {name: {k: [] for k in ("before", "after", "img2webp")} for name, _ in corpora}
for r in range(ROUNDS):
    for name, d in corpora:
        for key, (cmd, _) in commands(name, d).items():
            t = time.perf_counter()
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
            runs[name][key].append(time.perf_counter() - t)
    print("round %d of %d done" % (r + 1, ROUNDS), file=sys.stderr)

print("| corpus | bytes before | bytes after | same | bytes img2webp | before s | after s | img2webp s "
      "| after / before | after / img2webp |")
print("|---|--:|--:|---|--:|--:|--:|--:|--:|--:|")
for name, d in corpora:
    outs = {k: o for k, (_, o) in commands(name, d).items()}
    size = {k: os.path.getsize(o) for k, o in outs.items()}
    same = open(outs["before"], "rb").read() == open(outs["after"], "rb").read()
    med = {k: statistics.median(v) for k, v in runs[name].items()}
    print("| %s | %s | %s | %s | %s | %.2f | %.2f | %.2f | %.2f | %.2f |" % (
        name, format(size["before"], ","), format(size["after"], ","), "yes" if same else "NO",
        format(size["img2webp"], ","), med["before"], med["after"], med["img2webp"],
        med["after"] / med["before"], med["after"] / med["img2webp"]))
