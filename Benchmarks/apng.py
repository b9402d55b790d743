#!/usr/bin/env python3
"""APNG benchmark (issues #4 and #16): lossless APNG from throbber
(--compression fast, best and max) against ffmpeg's apng muxer and apngasm,
and palette APNG against pngquant + apngasm, on the frame folders of the GIF
benchmark (Benchmarks/run makes them in $BENCH_DIR/corpora) and life with
colored cells (made here with ffmpeg when missing). Reports bytes, wall time and peak RSS (median of
--repeat runs, /usr/bin/time), and for palette APNGs the mean PSNR against
the source frames. Writes a markdown report to stdout and the same numbers
to $BENCH_DIR/apng-results.json.

  THROBBER=.build/release/throbber BENCH_DIR=/tmp/throbber-bench Benchmarks/apng.py [--repeat 3] [--corpus NAME]... [--no-max NAME]...

--compression max (zopfli) takes minutes a corpus; --no-max NAME skips it there.
"""
import argparse, functools, glob, json, os, shutil, statistics, subprocess, sys, tempfile
import numpy as np

# Decoding the APNGs: Debian's Pillow 9.4 composites blend-OVER frames of
# RGB APNGs without their tRNS color key (fixed in Pillow 9.5), as
# both Throbber's and apngasm's files use; the "exact" column uses the
# Pillow that scripts/install-deps pins for the tests (Tests/tools/apng_pillow.py).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "tools"))
import apng_pillow  # noqa: E402

if not os.path.isfile(os.path.join(apng_pillow.PIN, ".throbber-pillow-" + apng_pillow.VERSION)):
    sys.exit("Benchmarks/apng.py: run scripts/install-deps first (it pins Pillow %s for decoding APNG)" % apng_pillow.VERSION)
sys.path.insert(0, apng_pillow.PIN)
from PIL import Image, ImageSequence  # noqa: E402

print = functools.partial(print, flush=True)  # progress shows as it goes

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

def png_type(path):
    """IHDR color type and bit depth, as `throbber info` names them."""
    with open(path, "rb") as f:
        head = f.read(26)
    depth, ctype = head[24], head[25]
    return "%s %d-bit" % ({0: "gray", 2: "RGB", 3: "palette", 4: "gray+alpha", 6: "RGBA"}[ctype], depth)

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

# Corpora this script makes itself (ffmpeg lavfi source, frame count).
EXTRA = {
    "life-colored-320x240": ("life=size=320x240:rate=25:seed=42:life_color=#ffcc00:death_color=#202060"
                             ":mold=1:mold_color=#c03030", 100),
}

def make_extra(name, folder):
    source, frames = EXTRA[name]
    os.makedirs(folder, exist_ok=True)
    subprocess.run(["ffmpeg", "-v", "error", "-nostdin", "-f", "lavfi", "-i", source, "-frames:v", str(frames),
                    os.path.join(folder, "%04d.png")], check=True)

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--corpus", action="append")
    ap.add_argument("--no-max", action="append", default=[])
    ap.add_argument("--no-palette", action="store_true", help="skip the palette APNG comparison (issue #4)")
    args = ap.parse_args()
    throbber = os.path.abspath(os.environ.get("THROBBER", ".build/release/throbber"))
    bench = os.environ.get("BENCH_DIR", "/tmp/throbber-bench")
    encode_corpora = ["mandelbrot-320x240", "testsrc2-320x240", "life-320x240", "testsrc2-1280x720"]
    corpora = args.corpus or encode_corpora + list(EXTRA)
    work = tempfile.mkdtemp(prefix="throbber-apng-bench-")
    print("# APNG benchmark\n")
    for tool in (["ffmpeg", "-version"], ["apngasm"], ["pngquant", "--version"]):
        r = subprocess.run(tool, capture_output=True, text=True)
        lines = [l.strip() for l in (r.stdout + r.stderr).splitlines() if l.strip()]
        print("- %s: %s" % (tool[0], lines[0] if lines else "?"))
    print("- timing: median of %d runs, `/usr/bin/time -f \"%%e %%M\"`\n" % args.repeat)
    summary = []
    wins = 0
    results = []
    for name in corpora:
        src_dir = os.path.join(bench, "corpora", name)
        if name in EXTRA and not glob.glob(os.path.join(src_dir, "*.png")):
            make_extra(name, src_dir)
        files = sorted(glob.glob(os.path.join(src_dir, "*.png")))
        if not files:
            sys.exit("no frames in %s: run Benchmarks/run first" % src_dir)
        sources = [np.asarray(Image.open(f).convert("RGBA")) for f in files]
        d = os.path.join(work, name)
        os.makedirs(d)
        rows = [
            measure("throbber (lossless, --compression best)", [throbber, "encode", src_dir, "-o", d + "/t.png", "--fps", "25", "--quiet"], d + "/t.png", args.repeat),
            measure("throbber (lossless, --compression fast)", [throbber, "encode", src_dir, "-o", d + "/tf.png", "--fps", "25", "--quiet", "--compression", "fast"], d + "/tf.png", args.repeat),
            None if name in args.no_max else measure("throbber (lossless, --compression max)", [throbber, "encode", src_dir, "-o", d + "/tm.png", "--fps", "25", "--quiet", "--compression", "max"], d + "/tm.png", 1),
            measure("ffmpeg -f apng", ["ffmpeg", "-loglevel", "error", "-y", "-framerate", "25", "-i", src_dir + "/%04d.png", "-plays", "0", "-f", "apng", d + "/f.png"], d + "/f.png", args.repeat),
            measure("apngasm (default: 7zip, 15 iterations)", ["apngasm", d + "/a.png"] + files + ["1", "25"], d + "/a.png", 1),
        ]
        # Palette: throbber --colors 256 vs pngquant each frame then apngasm.
        if not args.no_palette:
            q = os.path.join(d, "q")
            os.makedirs(q)
            for f in files:
                shutil.copy(f, q)
            pq = measure("pngquant 256 + apngasm", ["sh", "-c", "pngquant --force --ext .png 256 %s/*.png && apngasm %s/pq.png %s/*.png 1 25 >/dev/null" % (q, d, q)], d + "/pq.png", 1)
            pal = measure("throbber --colors 256", [throbber, "encode", src_dir, "-o", d + "/tp.png", "--fps", "25", "--colors", "256", "--quiet"], d + "/tp.png", args.repeat)
        print("## %s: %d frames\n" % (name, len(files)))
        print("| encoder | bytes | × throbber | wall s | peak RSS MB | exact | PNG type |")
        print("|---|--:|--:|--:|--:|--:|--|")
        base = rows[0]["bytes"]
        for r in rows:
            if r is None:
                continue
            exact = all(np.array_equal(a, b) for a, b in zip(frames_of(r["file"]), sources))
            print("| %s | %s | %.3f | %.2f | %.0f | %s | %s |" % (r["label"], format(r["bytes"], ","), r["bytes"] / base, r["wall"], r["rss"], "yes" if exact else "no", png_type(r["file"])))
            r.update(exact=exact, png_type=png_type(r["file"]))
        if not args.no_palette:
            print("\n| palette APNG | bytes | PSNR dB | wall s |")
            print("|---|--:|--:|--:|")
            for r in (pal, pq):
                r["psnr"] = psnr(r["file"], sources)
                print("| %s | %s | %.2f | %.2f |" % (r["label"], format(r["bytes"], ","), r["psnr"], r["wall"]))
        print()
        t, tf, tm, f, a = rows
        results.append({"name": name, "frames": len(files), "rows": [r for r in rows if r is not None],
                        "palette": [] if args.no_palette else [pal, pq]})
        if name in encode_corpora:
            wins += t["bytes"] <= a["bytes"]
        summary.append(
            "- %s: best %s B vs ffmpeg %s B (%s), %.4f× apngasm's size, %.1f× faster than apngasm (%s); "
            "max %s; fast %.2f s vs ffmpeg %.2f s (%s)" % (
                name, format(t["bytes"], ","), format(f["bytes"], ","), "PASS" if t["bytes"] <= f["bytes"] else "FAIL",
                t["bytes"] / a["bytes"], a["wall"] / t["wall"], "PASS" if a["wall"] >= 5 * t["wall"] else "FAIL",
                "not measured" if tm is None else "%.4f× apngasm's size (%s)" % (
                    tm["bytes"] / a["bytes"], "PASS" if tm["bytes"] <= a["bytes"] else "FAIL"),
                tf["wall"], f["wall"], "PASS" if tf["wall"] <= f["wall"] else "FAIL"))
    print("## Targets\n")
    print("\n".join(summary))
    print("- best no larger than apngasm on %d of the %d encode corpora (target: at least 3)" % (
        wins, len([c for c in corpora if c in encode_corpora])))
    versions = {}
    for tool in (["ffmpeg", "-version"], ["apngasm"], ["pngquant", "--version"], [throbber, "--version"]):
        r = subprocess.run(tool, capture_output=True, text=True)
        lines = [l.strip() for l in (r.stdout + r.stderr).splitlines() if l.strip()]
        versions[os.path.basename(tool[0])] = lines[0] if lines else "?"
    with open(os.path.join(bench, "apng-results.json"), "w") as f:
        json.dump({"environment": dict(versions, repeat=args.repeat, pillow=apng_pillow.VERSION),
                   "corpora": results, "targets": summary}, f, indent=1)
    shutil.rmtree(work)

main()
