#!/usr/bin/env python3
"""Animated WebP benchmark: throbber (libwebp's WebPAnimEncoder) against
img2webp, gif2webp, ffmpeg's libwebp_anim and Pillow, on the frame folders of
the GIF benchmark (25 fps; made in $BENCH_DIR/corpora the way Benchmarks/run
makes them when missing) and on the built-in presets (throbber encodes the
preset's lossless APNG, which gives the same bytes as `throbber preset NAME
-o x.webp`; the peers get its frames, extracted with Pillow, each repeated
for the 1/fps slots it lasts, at the preset's fps).

Lossless: throbber default (--compression best), fast and max against
img2webp -lossless at its defaults (-m 4 -q 75), img2webp's smallest over a
small -m/-q grid (run once, not timed), ffmpeg -lossless 1 and Pillow
lossless=True. Lossy: throbber --quality Q over a sweep, --quality 75
--compression max (libwebp method 6, as the method-6 peers), and throbber
--colors 256 and 64 (a palette a frame, coded lossless), against img2webp
-lossy -q 75 (-m 4 and -m 6), gif2webp on throbber's GIF (-lossy -q 75, and
its lossless default), ffmpeg -lossless 0 -q:v 75 and Pillow quality=75
(method 4 and 6). Every output is decoded with Pillow (frames composited as a
viewer shows them, over white, and where the source has transparency also
over black, the worse of the two counting), lined up with the source frames
on the source's time grid and scored with gifmetrics.py (mean PSNR, mean luma
SSIM).

Reports bytes, wall time, CPU time and peak RSS (median of --repeat runs,
/usr/bin/time; after each command's first run, the others go in rounds, one
run of every command of the subject a round, so that load drifting on a shared
machine meets throbber and its peers alike) as markdown on stdout, then PASS/FAIL for the targets (and all of it as
$BENCH_DIR/webp-results.json):
  lossless  throbber default ≤ img2webp default, and ≤ 1.02 × img2webp's best grid setting;
  lossy     at each lossy peer's size some throbber --quality or --colors file is no larger, with PSNR and SSIM no lower;
  time      throbber ≤ 1.5 × the fastest peer (img2webp, ffmpeg, Pillow) at the same libwebp settings:
            --compression fast against method 1 effort 25, the default (methods 3 and 5 raced on two
            threads) against method 5 effort 90 (where it also races method 4 at effort 100, against
            the slower of that and method 5 effort 90), --quality 75 against mixed lossy method 4 quality 75.

  THROBBER=.build/release/throbber BENCH_DIR=/tmp/throbber-bench python3 Benchmarks/webp.py \\
      [--repeat 3] [--corpus NAME]... [--preset NAME]... [--no-presets] [--no-slow [NAME]]... [--time-only]

--no-slow [NAME] skips throbber --compression max (4 minutes on mandelbrot),
everywhere or on NAME; img2webp's grid always runs in full (-m 6 -q 100 takes
about as long there).
"""
import argparse, functools, glob, json, os, shutil, statistics, subprocess, sys, tempfile
from bisect import bisect_right
from pathlib import Path

import numpy as np
from PIL import Image

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import bench  # noqa: E402
import gifmetrics  # noqa: E402

print = functools.partial(print, flush=True)  # progress shows as it goes

FPS = 25
SWEEP = [50, 60, 70, 75, 80, 85, 90, 95]
PALETTES = [256, 64, 32, 16, 8]  # throbber --colors N: a palette a frame, coded lossless
GRID = [(4, 75), (4, 100), (5, 75), (5, 100), (6, 75), (6, 100)]  # img2webp -m, -q (lossless)
SIZE_SLACK = 1.02
TIME_RATIO = 1.5
ENCODE_CORPORA = ["testsrc2-320x240", "mandelbrot-320x240", "life-320x240"]

PILLOW_SCRIPT = r"""
import json, sys
from PIL import Image
out, ms, opts = sys.argv[1], int(sys.argv[2]), json.loads(sys.argv[3])
frames = [Image.open(p).convert("RGBA") for p in sys.argv[4:]]
frames[0].save(out, save_all=True, append_images=frames[1:], duration=ms, loop=0, **opts)
"""


def log(msg):
    print(msg, file=sys.stderr)


def timed(cmd):
    """(wall s, peak RSS MB, user+sys CPU s) of one run, to the microsecond (bench.run_measured)."""
    with tempfile.TemporaryFile("w+") as err:
        rc, wall, rss, cpu = bench.run_measured(cmd, stderr=err)
        if rc != 0:
            err.seek(0)
            raise RuntimeError("%s failed: %s" % (" ".join(cmd), err.read()[-800:]))
    return wall, rss * 1024 / 1e6, cpu


def measure(label, cmd, out, repeat, group):
    """One timed run now (the output, and any failure, at once); the other
    repeat - 1 in rounds across the subject's commands (time_rounds)."""
    row = {"label": label, "group": group, "file": out, "cmd": cmd, "repeat": repeat, "runs": [timed(cmd)]}
    row["bytes"] = os.path.getsize(out)
    summarize(row)
    return row


def summarize(row):
    runs = row["runs"]
    row.update(wall=statistics.median(r[0] for r in runs), rss=statistics.median(r[1] for r in runs),
               cpu=statistics.median(r[2] for r in runs))


def time_rounds(rows):
    """The remaining runs of every row, one of each command per round: the
    machine's load drifts over seconds (a shared VM), and a peer timed a
    minute after throbber would see a different machine. Rounds put every
    command's k-th run within the same few seconds."""
    todo = [r for r in rows if len(r["runs"]) < r["repeat"]]
    while todo:
        for r in todo:
            r["runs"].append(timed(r["cmd"]))
        todo = [r for r in todo if len(r["runs"]) < r["repeat"]]
    for r in rows:
        summarize(r)


def decode(path):
    """Frames of an animation as a viewer shows them, over white: (RGB frames, RGBA frames, starts ms, total ms)."""
    rgb, rgba, starts, t = [], [], [], 0
    with Image.open(path) as im:
        for i in range(getattr(im, "n_frames", 1)):
            im.seek(i)
            a = np.asarray(im.convert("RGBA"))
            rgba.append(a)
            rgb.append(over_white(a))
            starts.append(t)
            t += im.info.get("duration", 0) or 0
    return rgb, rgba, starts, t


def over(a, background):
    alpha = a[:, :, 3:4].astype(np.float64) / 255.0
    return np.clip(a[:, :, :3] * alpha + background * (1 - alpha) + 0.5, 0, 255).astype(np.uint8)


def over_white(a):
    return over(a, 255.0)


def visible_equal(a, b):
    """Same alpha, and the same color wherever a pixel is not fully transparent."""
    if a.shape != b.shape or not np.array_equal(a[:, :, 3], b[:, :, 3]):
        return False
    m = a[:, :, 3] > 0
    return np.array_equal(a[:, :, :3][m], b[:, :, :3][m])


def score(path, subject):
    """PSNR, SSIM, exact (every visible pixel), frames in the file.

    Scored over white; where the source has transparency (the presets),
    also over black, and the worse of the two counts: a loader is shown on
    pages of any color, and a file that has its edges blended onto white
    (a GIF made for white pages, or gif2webp's conversion of one) shows a
    white fringe on a dark page that a score over white alone never sees.
    """
    rgb, rgba, starts, total = decode(path)
    white = score_frames(rgb, rgba, starts, total, subject["rgb"], subject)
    if not subject.setdefault("alpha", any(bool((a[:, :, 3] < 255).any()) for a in subject["rgba"])):
        return white
    if "rgb_over_black" not in subject:
        subject["rgb_over_black"] = [over(a, 0.0) for a in subject["rgba"]]
    black = score_frames([over(a, 0.0) for a in rgba], rgba, starts, total, subject["rgb_over_black"], subject)
    return dict(white, psnr=min(white["psnr"], black["psnr"]), ssim=min(white["ssim"], black["ssim"]),
                psnr_white=white["psnr"], ssim_white=white["ssim"])


def score_frames(rgb, rgba, starts, total, sources, subject):
    """Decoded frames (`rgb` composited over one background) against `sources` over the same one."""
    fps = subject["fps"]
    shown = []
    for k in range(len(sources)):
        t = (k + 0.5) * 1000.0 / fps
        if total > 0:
            t %= total
        shown.append(max(0, bisect_right(starts, t) - 1))
    psnrs, ssims, exact = [], [], True
    for k, (src, src_rgba) in enumerate(zip(sources, subject["rgba"])):
        out = rgb[shown[k]]
        if out.shape != src.shape:
            return {"psnr": float("nan"), "ssim": float("nan"), "exact": False, "frames": len(rgb)}
        exact = exact and visible_equal(rgba[shown[k]], src_rgba)
        if np.array_equal(out, src):
            psnrs.append(gifmetrics.PSNR_CAP)
            ssims.append(1.0)
        else:
            psnrs.append(gifmetrics.psnr(out, src))
            ssims.append(gifmetrics.ssim(out, src))
    return {"psnr": float(np.mean(psnrs)), "ssim": float(np.mean(ssims)), "exact": exact, "frames": len(rgb)}


def fmt_psnr(x):
    return "n/a" if x != x else ("∞" if x >= gifmetrics.PSNR_CAP else "%.2f" % x)


def first_line(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    lines = [l.strip() for l in (r.stdout + r.stderr).splitlines() if l.strip()]
    return lines[0] if lines else "?"


# ------------------------------------------------------------ subjects

def corpus_subject(name, bench_dir):
    d = Path(bench_dir) / "corpora" / name
    if not glob.glob(str(d / "*.png")):
        import bench  # the GIF benchmark's corpus recipes
        bench.FFMPEG = shutil.which("ffmpeg") or "ffmpeg"
        c = next((c for c in bench.CORPORA if c.name == name), None)
        if c is None:
            sys.exit("webp: no corpus %s in %s, and Benchmarks/bench.py has no recipe for it" % (name, d.parent))
        d.parent.mkdir(parents=True, exist_ok=True)
        bench.make_corpus(c, d.parent)
    files = sorted(glob.glob(str(d / "*.png")))
    rgba = [np.asarray(Image.open(f).convert("RGBA")) for f in files]
    return {"name": name, "kind": "corpus", "dir": str(d), "files": files, "fps": FPS,
            "rgba": rgba, "rgb": [over_white(a) for a in rgba], "throbber_in": [str(d), "--fps", str(FPS)]}


def preset_subject(name, throbber, work):
    import json
    d = Path(work) / ("preset-" + name)
    d.mkdir(parents=True)
    cfg = json.loads(subprocess.run([throbber, "preset", name, "--print-config"], check=True,
                                    capture_output=True, text=True).stdout)
    fps = float(cfg.get("timing", {}).get("fps", 25))
    apng = str(d / "src.png")
    subprocess.run([throbber, "preset", name, "-o", apng, "--quiet"], check=True)
    # The APNG merges identical neighbours into longer frames: each is
    # written again for every 1/fps slot it lasts, so the peers and the
    # scoring see the preset's own timing on a constant frame rate.
    files, rgba = [], []
    with Image.open(apng) as im:
        for i in range(im.n_frames):
            im.seek(i)
            a = np.asarray(im.convert("RGBA"))
            slots = max(1, round(im.info.get("duration", 1000.0 / fps) * fps / 1000.0))
            for _ in range(slots):
                f = str(d / ("%04d.png" % (len(files) + 1)))
                Image.fromarray(a, "RGBA").save(f)
                files.append(f)
                rgba.append(a)
    return {"name": name, "kind": "preset", "dir": str(d), "files": files, "fps": fps,
            "rgba": rgba, "rgb": [over_white(a) for a in rgba], "throbber_in": [apng]}


# ------------------------------------------------------------ encoders

def bench_subject(s, throbber, args, work):
    d = os.path.join(work, "out-" + s["kind"] + "-" + s["name"])
    os.makedirs(d)
    rep = args.repeat
    fps = s["fps"]
    ms = int(round(1000.0 / fps))
    files = s["files"]
    pattern = os.path.join(s["dir"], "%04d.png")
    slow = args.no_slow is not None and ("*" in args.no_slow or s["name"] in args.no_slow)

    def thr(label, extra, out, group, repeat=rep):
        return measure(label, [throbber, "encode"] + s["throbber_in"] + ["--quiet", "-o", out] + extra, out, repeat, group)

    def img2webp(label, opts, out, group, repeat=rep):
        return measure(label, ["img2webp", "-loop", "0", "-d", str(ms)] + opts + files + ["-o", out], out, repeat, group)

    def ffmpeg(label, opts, out, group):
        return measure(label, ["ffmpeg", "-v", "error", "-nostdin", "-y", "-framerate", "%g" % fps, "-i", pattern,
                               "-c:v", "libwebp_anim"] + opts + ["-loop", "0", out], out, rep, group)

    def pillow(label, opts, out, group):
        import json
        return measure(label, [sys.executable, "-c", PILLOW_SCRIPT, out, str(ms), json.dumps(opts)] + files, out, rep, group)

    rows = []
    log("webp: %s lossless" % s["name"])
    rows.append(thr("throbber (default: lossless, --compression best)", [], d + "/t.webp", "lossless"))
    rows.append(thr("throbber --compression fast", ["--compression", "fast"], d + "/tf.webp", "lossless"))
    if not slow and not args.time_only:
        rows.append(thr("throbber --compression max", ["--compression", "max"], d + "/tm.webp", "lossless", 1))
    rows.append(img2webp("img2webp -lossless (default -m 4 -q 75)", ["-lossless"], d + "/i.webp", "lossless"))
    grid = []
    for m, q in ([] if args.time_only else GRID):
        if (m, q) == (4, 75):
            continue
        grid.append(img2webp("img2webp -lossless -m %d -q %d" % (m, q), ["-lossless", "-m", str(m), "-q", str(q)],
                             d + "/i%d-%d.webp" % (m, q), "grid", 1))
    rows += grid
    rows.append(ffmpeg("ffmpeg libwebp_anim -lossless 1", ["-lossless", "1"], d + "/f.webp", "lossless"))
    # Pillow's own default is method 0: given here as img2webp's defaults, for the same settings.
    rows.append(pillow("Pillow lossless=True, method=4, quality=75", {"lossless": True, "method": 4, "quality": 75},
                       d + "/p.webp", "lossless"))
    rows.append(pillow("Pillow lossless=True (its default: method 0)", {"lossless": True}, d + "/p0.webp", "other"))
    # For the time target, the peers at throbber's own libwebp settings:
    # --compression fast is method 1, effort 25; the default races methods
    # 3 and 5 (efforts 50 and 90) on two threads, so it is held to one
    # method 5, effort 90 run; --quality 75 is lossy method 4.
    # Lossy is mixed (libwebp may code a frame lossless), key frames every
    # 3 to 5 frames, as throbber's; ffmpeg has no mixed mode.
    for group, m, q, lossless in (("time-fast", 1, 25, True), ("time-best", 5, 90, True),
                                  ("time-lossy", 4, 75, False)):
        mode = ["-lossless"] if lossless else ["-mixed", "-kmin", "3", "-kmax", "5"]
        rows.append(img2webp("img2webp %s -m %d -q %d" % (" ".join(mode), m, q), mode + ["-m", str(m), "-q", str(q)],
                             d + "/t-i-%s.webp" % group, group))
        if lossless:
            rows.append(ffmpeg("ffmpeg libwebp_anim -lossless 1 -compression_level %d -quality %d" % (m, q),
                               ["-lossless", "1", "-compression_level", str(m), "-quality", str(q)],
                               d + "/t-f-%s.webp" % group, group))
        opts = {"lossless": True} if lossless else {"allow_mixed": True, "kmin": 3, "kmax": 5}
        rows.append(pillow("Pillow %s, method=%d, quality=%d" % (", ".join("%s=%s" % kv for kv in opts.items()), m, q),
                           dict(opts, method=m, quality=q), d + "/t-p-%s.webp" % group, group))

    # Where throbber's default also races method 4 at effort 100 (more than
    # 256 Ki pixels in all, frames of more than 128 8x8 tiles;
    # WebPEncoder.racesFullEffort), the peers at that setting too: on two
    # threads it runs alone beside methods 3 and 5, so the default is held
    # to the slower of the two bars (time_checks).
    h, w = s["rgba"][0].shape[:2]
    if len(files) * w * h > 256 * 1024 and ((w + 7) // 8) * ((h + 7) // 8) > 128:
        rows.append(img2webp("img2webp -lossless -m 4 -q 100", ["-lossless", "-m", "4", "-q", "100"],
                             d + "/t-i-full.webp", "time-full"))
        rows.append(ffmpeg("ffmpeg libwebp_anim -lossless 1 -compression_level 4 -quality 100",
                           ["-lossless", "1", "-compression_level", "4", "-quality", "100"],
                           d + "/t-f-full.webp", "time-full"))
        rows.append(pillow("Pillow lossless=True, method=4, quality=100", {"lossless": True, "method": 4, "quality": 100},
                           d + "/t-p-full.webp", "time-full"))

    # Where throbber's default may race libwebp's exhaustive setting
    # (method 6, effort 100; at most 256 Ki pixels in all), img2webp at
    # that setting too: where the default kept the exhaustive coder's file,
    # it is timed against this (time_checks).
    if len(files) * w * h <= 256 * 1024:
        rows.append(img2webp("img2webp -lossless -m 6 -q 100", ["-lossless", "-m", "6", "-q", "100"],
                             d + "/t-i-exhaustive.webp", "time-exhaustive"))

    log("webp: %s lossy" % s["name"])
    sweep = []
    for q in ([75] if args.time_only else SWEEP):
        sweep.append(thr("throbber --quality %d" % q, ["--quality", str(q)], d + "/tq%d.webp" % q, "sweep"))
    rows += sweep
    if not args.time_only:
        # libwebp's slowest lossy setting (method 6), which Pillow's
        # method=6 peer uses: held to throbber at its own slowest.
        rows.append(thr("throbber --quality 75 --compression max", ["--quality", "75", "--compression", "max"],
                        d + "/tq75max.webp", "max", 1))
    for colors in ([] if args.time_only else PALETTES):
        rows.append(thr("throbber --colors %d" % colors, ["--colors", str(colors)], d + "/tc%d.webp" % colors, "palette"))
    gif = d + "/t.gif"
    # A preset's own GIF (soft edges blended onto white, as it ships), else throbber's default GIF.
    subprocess.run([throbber, "encode"] + s["throbber_in"] + ["--quiet", "-o", gif] if s["kind"] == "corpus" else
                   [throbber, "preset", s["name"], "--quiet", "-o", gif], check=True)
    rows += [
        img2webp("img2webp -lossy -q 75 (-m 4)", ["-lossy", "-q", "75"], d + "/il.webp", "lossy"),
        ffmpeg("ffmpeg libwebp_anim -lossless 0 -q:v 75", ["-lossless", "0", "-q:v", "75"], d + "/fl.webp", "lossy"),
        pillow("Pillow quality=75 (method 4)", {"quality": 75, "method": 4}, d + "/pl.webp", "lossy"),
    ]
    time_rounds(rows)
    if args.time_only:
        for r in rows:
            r.update(score(r["file"], s))
        return rows
    rows += [
        img2webp("img2webp -lossy -q 75 -m 6", ["-lossy", "-q", "75", "-m", "6"], d + "/il6.webp", "lossy"),
        measure("gif2webp -lossy -q 75 (throbber's GIF)", ["gif2webp", "-lossy", "-q", "75", gif, "-o", d + "/g.webp"],
                d + "/g.webp", rep, "lossy-gif"),
        measure("gif2webp (lossless, throbber's GIF)", ["gif2webp", gif, "-o", d + "/gl.webp"], d + "/gl.webp", rep,
                "lossy-gif"),
        pillow("Pillow quality=75, method=6", {"quality": 75, "method": 6}, d + "/pl6.webp", "lossy"),
    ]
    time_rounds(rows)
    log("webp: %s scoring" % s["name"])
    for r in rows:
        r.update(score(r["file"], s))
    # Where the sweep misses a peer, try the qualities in between.
    if not args.no_refine:
        extra = refine(s, rows, sweep, thr, d)
        rows += extra
        for r in extra:
            r.update(score(r["file"], s))
    return rows


def dominates(t, p):
    return t["bytes"] <= p["bytes"] and t["psnr"] >= p["psnr"] and t["ssim"] >= p["ssim"]


def refine(s, rows, sweep, thr, d):
    """throbber --quality at the integers between the sweep points bracketing
    each lossy peer's size, when no sweep point beats that peer."""
    done = {int(r["label"].split()[-1]) for r in sweep}
    tried = []
    palette = [r for r in rows if r["group"] == "palette"]
    for p in [r for r in rows if r["group"] in ("lossy", "lossy-gif")]:
        curve = sorted(sweep + tried, key=lambda r: int(r["label"].split()[-1]))
        if any(dominates(t, p) for t in curve + palette):
            continue
        below = [int(t["label"].split()[-1]) for t in curve if t["bytes"] <= p["bytes"]]
        above = [int(t["label"].split()[-1]) for t in curve if t["bytes"] > p["bytes"]]
        if not below or not above:
            continue
        lo, hi = max(below), min([q for q in above if q > max(below)] or [max(below)])
        for q in range(lo + 1, hi):
            if q in done:
                continue
            done.add(q)
            r = thr("throbber --quality %d" % q, ["--quality", str(q)], d + "/tq%d.webp" % q, "refine", 1)
            r.update(score(r["file"], s))
            tried.append(r)
            if dominates(r, p):
                break
    return tried


# ------------------------------------------------------------ report

def table(s, rows):
    print("### %s: %d frames at %g fps%s\n" % (s["name"], len(s["files"]), s["fps"],
                                              "" if s["kind"] == "corpus" else " (preset, 64 px default size)"))
    print("| encoder | bytes | × img2webp default | PSNR dB | SSIM | exact | wall s | CPU s | peak RSS MB |")
    print("|---|--:|--:|--:|--:|--:|--:|--:|--:|")
    base = next(r for r in rows if r["label"].startswith("img2webp -lossless (default"))["bytes"]
    for r in rows:
        timed_once = r["group"] in ("grid", "refine") or r["label"] == "throbber --compression max"
        print("| %s%s | %s | %.3f | %s | %.4f | %s | %.3f | %.3f | %.0f |" % (
            r["label"], " (1 run)" if timed_once else "", format(r["bytes"], ","), r["bytes"] / base,
            fmt_psnr(r["psnr"]), r["ssim"], "yes" if r["exact"] else "no", r["wall"], r["cpu"], r["rss"]))
    print()


def checks(s, rows, time_only=False):
    out = []
    by = {r["label"]: r for r in rows}
    t = by["throbber (default: lossless, --compression best)"]
    tf = by["throbber --compression fast"]
    tm = by.get("throbber --compression max")
    i = by["img2webp -lossless (default -m 4 -q 75)"]
    grid = [r for r in rows if r["group"] == "grid"] + [i]
    best = min(grid, key=lambda r: r["bytes"])
    n = s["name"]
    if time_only:
        return time_checks(n, rows, by, t, tf)
    out.append(("lossless", t["bytes"] <= i["bytes"] and t["exact"],
                "%s: default %s B vs img2webp default %s B (%.4f×)%s" % (
                    n, format(t["bytes"], ","), format(i["bytes"], ","), t["bytes"] / i["bytes"],
                    "" if t["exact"] else "; NOT EXACT")))
    out.append(("lossless", t["bytes"] <= SIZE_SLACK * best["bytes"],
                "%s: default %s B vs img2webp's best (%s) %s B: %.4f× (limit %.2f×)%s" % (
                    n, format(t["bytes"], ","), best["label"].replace("img2webp -lossless ", ""),
                    format(best["bytes"], ","), t["bytes"] / best["bytes"], SIZE_SLACK,
                    "" if tm is None else "; max %s B, %.4f×" % (format(tm["bytes"], ","), tm["bytes"] / best["bytes"]))))
    # Every throbber file counts, the lossless ones too: where the default
    # is smaller than a lossy peer, the user gets exact pixels for fewer bytes.
    curve = [r for r in rows if r["group"] in ("sweep", "refine", "palette", "max")] + [t, tf]
    for p in [r for r in rows if r["group"] in ("lossy", "lossy-gif")]:
        wins = [c for c in curve if dominates(c, p)]
        if wins:
            w = min(wins, key=lambda r: r["bytes"])
            text = "%s: %s (%s B, %s dB, %.4f) beaten by %s (%s B, %s dB, %.4f)" % (
                n, p["label"], format(p["bytes"], ","), fmt_psnr(p["psnr"]), p["ssim"], w["label"].replace("throbber ", ""),
                format(w["bytes"], ","), fmt_psnr(w["psnr"]), w["ssim"])
        else:
            under = [c for c in curve if c["bytes"] <= p["bytes"]]
            c = max(under, key=lambda r: r["bytes"]) if under else min(curve, key=lambda r: r["bytes"])
            # The smallest throbber setting as good as the peer, if any.
            good = [c2 for c2 in curve if c2["psnr"] >= p["psnr"] and c2["ssim"] >= p["ssim"]]
            g = min(good, key=lambda r: r["bytes"]) if good else None
            text = "%s: %s (%s B, %s dB, %.4f): nearest throbber no larger %s (%s B, %s dB, %.4f)%s" % (
                n, p["label"], format(p["bytes"], ","), fmt_psnr(p["psnr"]), p["ssim"], c["label"].replace("throbber ", ""),
                format(c["bytes"], ","), fmt_psnr(c["psnr"]), c["ssim"],
                "; as good first at %s, %s B (%.3f× the peer)" % (g["label"].replace("throbber ", ""),
                                                                     format(g["bytes"], ","), g["bytes"] / p["bytes"]) if g else
                "; no throbber setting as good")
        out.append(("lossy", bool(wins), text))
    return out + time_checks(n, rows, by, t, tf)


def time_checks(n, rows, by, t, tf):
    out = []
    # The default kept the exhaustive coder's file when it has exactly its
    # bytes and they are fewer than img2webp's at method 5, effort 90 (the
    # other settings it races would not have reached them).
    exhaustive = [p for p in rows if p["group"] == "time-exhaustive"]
    method5 = [p for p in rows if p["group"] == "time-best" and p["label"].startswith("img2webp")]
    kept = exhaustive and method5 and t["bytes"] == exhaustive[0]["bytes"] < method5[0]["bytes"]
    best = "time-exhaustive" if kept else "time-best"
    for label, r, group in (("lossless default", t, best), ("--compression fast", tf, "time-fast"),
                            ("--quality 75", by["throbber --quality 75"], "time-lossy")):
        peers = [p for p in rows if p["group"] == group]
        if not peers:
            continue
        fast = min(peers, key=lambda p: p["wall"])
        full = [p for p in rows if p["group"] == "time-full"]
        if group == "time-best" and full:
            # Racing method 4 at effort 100 beside methods 3 and 5: the
            # slower setting's fastest peer is the bar.
            fast = max(fast, min(full, key=lambda p: p["wall"]), key=lambda p: p["wall"])
        out.append(("time", r["wall"] <= TIME_RATIO * fast["wall"],
                    "%s: %s %.3f s vs the fastest peer at its libwebp settings (%s) %.3f s: %.2f× (CPU %.3f s vs %.3f s)" % (
                        n, label, r["wall"], fast["label"], fast["wall"], r["wall"] / max(fast["wall"], 1e-3),
                        r["cpu"], fast["cpu"])))
    return out


def main():
    ap = argparse.ArgumentParser(description="throbber's animated WebP against img2webp, gif2webp, ffmpeg and Pillow")
    ap.add_argument("--repeat", type=int, default=3, help="timed runs per command; the median is reported")
    ap.add_argument("--corpus", action="append", help="frame-folder corpus in $BENCH_DIR/corpora (repeatable)")
    ap.add_argument("--preset", action="append", help="only this preset (repeatable); default all")
    ap.add_argument("--no-presets", action="store_true")
    ap.add_argument("--no-corpora", action="store_true")
    ap.add_argument("--no-slow", action="append", nargs="?", const="*", metavar="NAME",
                    help="skip throbber --compression max (minutes on mandelbrot): everywhere, or on NAME (repeatable)")
    ap.add_argument("--no-refine", action="store_true", help="only the --quality sweep, no in-between qualities")
    ap.add_argument("--time-only", action="store_true",
                    help="only what the time target needs: throbber default, fast and --quality 75 and the peers at "
                         "the same libwebp settings (no grid, sweep, palettes or gif2webp)")
    args = ap.parse_args()
    throbber = os.path.abspath(os.environ.get("THROBBER", ".build/release/throbber"))
    bench_dir = os.environ.get("BENCH_DIR", "/tmp/throbber-bench")
    for tool in ("img2webp", "gif2webp", "ffmpeg", "/usr/bin/time"):
        if not shutil.which(tool):
            sys.exit("webp: %s not found; `scripts/install-deps --bench` installs the peers" % tool)
    work = tempfile.mkdtemp(prefix="throbber-webp-bench-")
    subjects = []
    if not args.no_corpora:
        subjects += [corpus_subject(n, bench_dir) for n in (args.corpus or ENCODE_CORPORA)]
    if not args.no_presets:
        names = args.preset or [l.split()[0] for l in subprocess.run(
            [throbber, "presets"], check=True, capture_output=True, text=True).stdout.splitlines() if l.strip()]
        subjects += [preset_subject(n, throbber, work) for n in names]

    print("## WebP benchmark\n")
    import PIL.features
    print("- throbber: %s (%s)" % (first_line([throbber, "--version"]), throbber))
    print("- img2webp / gif2webp: libwebp %s" % first_line(["img2webp", "-version"]).split()[-1])
    print("- ffmpeg: %s" % first_line(["ffmpeg", "-version"]))
    print("- Pillow %s (libwebp %s), numpy %s" % (PIL.__version__, PIL.features.version("webp"), np.__version__))
    print("- timing: median of %d runs, wall clock and wait4(2) CPU and peak RSS, to the microsecond; load average at start %s" % (
        args.repeat, open("/proc/loadavg").read().split()[:3]))
    print("- scoring: frames decoded with Pillow (composited over white, and for sources with transparency "
          "also over black, the worse of the two), mean PSNR and luma SSIM "
          "(gifmetrics.py) against the source frames on their own time grid\n")
    allchecks = []
    results = []
    for s in subjects:
        rows = bench_subject(s, throbber, args, work)
        table(s, rows)
        allchecks += checks(s, rows, args.time_only)
        results.append({"name": s["name"], "kind": s["kind"], "frames": len(s["files"]), "fps": s["fps"],
                        "rows": [{k: v for k, v in r.items() if k not in ("cmd", "runs", "file")} for r in rows]})
    print("### Targets\n")
    for kind in ("lossless", "lossy", "time"):
        for k, ok, text in allchecks:
            if k == kind:
                print("- %s %s: %s" % ("PASS" if ok else "**FAIL**", kind, text))
    n_fail = sum(1 for c in allchecks if not c[1])
    env = {"throbber": first_line([throbber, "--version"]),
           "img2webp": "libwebp " + first_line(["img2webp", "-version"]).split()[-1],
           "ffmpeg": first_line(["ffmpeg", "-version"]),
           "Pillow": "Pillow %s (libwebp %s)" % (PIL.__version__, PIL.features.version("webp")),
           "repeat": args.repeat}
    with open(os.path.join(bench_dir, "webp-results.json"), "w") as f:
        json.dump({"environment": env, "subjects": results,
                   "checks": [{"target": k, "pass": ok, "text": text} for k, ok, text in allchecks]},
                  f, indent=1, default=str)
    print("\n%d of %d checks pass; load average at end %s" % (
        len(allchecks) - n_fail, len(allchecks), open("/proc/loadavg").read().split()[:3]))
    shutil.rmtree(work)


if __name__ == "__main__":
    main()
