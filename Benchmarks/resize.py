"""Throbber's resize against peers that resize then quantize (issue #11).
Run it via Benchmarks/run-resize.

The issue asks for two things, and this measures both:

1. `throbber encode DIR -o out.gif --width 480` of the 1280x720 testsrc2
   corpus against ffmpeg (`scale=480:-1:flags=lanczos` then
   palettegen/paletteuse, global and stats_mode=single/new=1) and a
   gifski-style pipeline (ImageMagick `-filter Lanczos -resize 480x` per
   frame, pngquant per frame, each 8-bit PNG to GIF with ImageMagick, then
   `gifsicle -O3`), each timed as a whole pipeline. Every GIF is scored
   (gifmetrics: mean PSNR, mean luma SSIM) against the same reference frames,
   ImageMagick's `convert F -filter Lanczos -resize 480x270! R`. Targets:
   throbber's default wall time ≤ 1.5x ffmpeg's (palettegen/paletteuse), and
   for every peer some throbber setting (default or --quality 100…40) no
   larger and no worse in PSNR and SSIM.
2. Resampling quality before palettes: throbber's lossless APNG output with
   --width (1280x720 → 480x270, and 640x480 → 213x160) against ImageMagick's
   `-filter Lanczos -resize WxH!` and ffmpeg's `scale=W:H:flags=lanczos`
   frames; target ≥ 46 dB mean PSNR against both. ffmpeg against ImageMagick
   is reported alongside, as the scale of what two Lanczos implementations
   disagree by.

Diagnostics, not targets: throbber given the reference frames themselves
(already resized by ImageMagick, like the gifski-style pipeline's), timed
with the rest, shows the palette stages' time and quality alone; throbber's
GIF is also scored against its own resized frames (its APNG), and the
gifski-style pipeline's intermediate frames are checked against pngquant's
PNGs and the reference frames.

Timing, corpora, scoring and the work-dir rules are bench.py's (imported,
not copied): median of --repeat interleaved runs under /usr/bin/time, each
run repeated when other processes kept the machine busy, after waiting for a
quiet machine. Everything goes under $BENCH_DIR (default
/tmp/throbber-resize-bench): corpora/ (source frames), refs/ (reference
frames; both kept while their recipe is unchanged), out/, work/ (the
gifski-style pipeline's frames), logs/, results.md and results.json.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

import bench
import gifmetrics
from bench import FPS, Corpus, Run, fmt_psnr, frame_files, loadavg, log, make_corpus, mb, timed

# The issue's corpus and output width; 1280x720 * 480/1280 = 480x270 exactly.
MAIN = next(c for c in bench.CORPORA if c.name == "testsrc2-1280x720")
MAIN_W, MAIN_H = 480, 270
# A second downscale for the resampling check: a factor of 3.005 across and
# exactly 3 down (640/213, 480/160), so the kernel phases do not repeat
# every few pixels as they do at 8/3.
SMALL = Corpus("testsrc2-640x480", "testsrc2", "640x480", 60)
SMALL_W, SMALL_H = 213, 160

QUALITIES = [100, 90, 80, 70, 60, 50, 40]
# --small (`make bench QUICK=1`): a curve of 4 points.
SMALL_QUALITIES = [100, 80, 60, 40]
PRESCALED = "throbber on the reference frames (no --width)"
TIME_RATIO = 1.5
RESAMPLE_DB = 46.0

# gifski-style: resize, pngquant and convert to GIF, frame by frame, then one
# gifsicle -O3 over all of them; run by sh so /usr/bin/time measures the whole
# pipeline (wall time, CPU of every process, the largest peak RSS).
GIFSKI_STYLE = r"""set -eu
src=$1; work=$2; out=$3; convert=$4; pngquant=$5; gifsicle=$6; width=$7; delay=$8
rm -rf "$work"
mkdir -p "$work"
for f in "$src"/*.png; do
  b=$(basename "$f" .png)
  "$convert" "$f" -filter Lanczos -resize "${width}x" "$work/$b.png"
  "$pngquant" --force --output "$work/$b-q.png" -- "$work/$b.png"
  "$convert" "$work/$b-q.png" "$work/$b.gif"
done
"$gifsicle" -O3 --delay "$delay" --loopcount=forever "$work"/*.gif -o "$out"
"""


# ---------------------------------------------------------------- reference frames

def _run_quiet(argv):
    subprocess.run([str(a) for a in argv], check=True, stdin=subprocess.DEVNULL)


def make_refs(kind, src_dir, w, h, base, jobs):
    """Reference frames of `src_dir` resized to w x h, same names as the
    sources: ImageMagick (`kind` "im") or ffmpeg ("ffmpeg"). Kept while the
    recipe (command and tool version) is unchanged."""
    d = base / "refs" / f"{src_dir.name}-{kind}-{w}x{h}"
    files = frame_files(src_dir)
    if kind == "im":
        cmds = [[bench.CONVERT, f, "-filter", "Lanczos", "-resize", f"{w}x{h}!", f"PNG24:{d / Path(f).name}"]
                for f in files]
        version = first_line_of([bench.CONVERT, "-version"])
        recipe = f"{bench.CONVERT} F -filter Lanczos -resize {w}x{h}! PNG24:R\n"
    else:
        cmds = [[bench.FFMPEG, "-v", "error", "-y", "-framerate", FPS, "-i", src_dir / "%04d.png",
                 "-vf", f"scale={w}:{h}:flags=lanczos", "-pix_fmt", "rgb24", d / "%04d.png"]]
        version = first_line_of([bench.FFMPEG, "-version"])
        recipe = " ".join(map(str, cmds[0][1:])) + "\n"
    recipe += version + "\n" + (src_dir / ".recipe").read_text()
    stamp = d / ".recipe"
    if stamp.exists() and stamp.read_text() == recipe and len(frame_files(d)) == len(files):
        return d
    log(f"resize: writing {kind} reference frames {d.name}")
    shutil.rmtree(d, ignore_errors=True)
    d.mkdir(parents=True)
    with ThreadPoolExecutor(max(1, jobs)) as pool:
        list(pool.map(_run_quiet, cmds))
    if len(frame_files(d)) != len(files):
        raise SystemExit(f"resize: {d} has {len(frame_files(d))} frames, expected {len(files)}")
    stamp.write_text(recipe)
    return d


def first_line_of(argv):
    return bench.first_line([str(a) for a in argv])


def load_frames(d):
    return [gifmetrics.load_rgb(f) for f in frame_files(d)]


def load_shown(decoded, count):
    """The frames an animation (decode_apng's or gifmetrics.decode_gif's)
    shows at each of `count` source frame times, as gifmetrics lines them up."""
    frames, starts, total, _ = decoded
    return [frames[i] for i in gifmetrics.align(starts, total, count, FPS)]


# Decodes an APNG with the Pillow that scripts/install-deps pins (argv: its
# folder, the APNG, the .npz to write): Debian's Pillow 9.4 composites a
# blend-OVER frame without the RGB color key that throbber's APNGs use.
APNG_DECODE = """import sys
sys.path.insert(0, sys.argv[1])
import numpy as np
from PIL import Image
with Image.open(sys.argv[2]) as im:
    frames, durations = [], []
    for i in range(im.n_frames):
        im.seek(i)
        frames.append(np.asarray(im.convert("RGBA")))
        durations.append(im.info.get("duration", 0) or 0)
np.savez(sys.argv[3], frames=np.stack(frames), durations=np.array(durations))
"""


def decode_apng(path):
    """(frames, starts_ms, total_ms, transparent_pixels) of an APNG, as
    gifmetrics.decode_gif gives them for a GIF."""
    sys.path.insert(0, str(bench.ROOT / "Tests" / "tools"))
    import apng_pillow
    if not os.path.isfile(os.path.join(apng_pillow.PIN, ".throbber-pillow-" + apng_pillow.VERSION)):
        raise SystemExit(f"resize: run scripts/install-deps (it pins Pillow {apng_pillow.VERSION} for APNG)")
    npz = Path(f"{path}.npz")
    subprocess.run([sys.executable, "-c", APNG_DECODE, apng_pillow.PIN, str(path), str(npz)], check=True)
    data = np.load(npz)
    rgba, durations = data["frames"], [int(d) for d in data["durations"]]
    npz.unlink()
    starts = [sum(durations[:k]) for k in range(len(durations))]
    transparent = int(np.count_nonzero(rgba[..., 3] != 255))
    return [np.ascontiguousarray(f[..., :3]) for f in rgba], starts, sum(durations), transparent


# ---------------------------------------------------------------- the GIF runs

def gif_runs(frames_dir, ref_dir, out, work):
    def throbber(path, *extra):
        return [bench.THROBBER, "encode", frames_dir, "-o", path, "--width", MAIN_W, "--fps", FPS,
                "--loop", 0, "-q", *extra]

    def ffmpeg(path, graph):
        return [bench.FFMPEG, "-v", "error", "-y", "-framerate", FPS, "-i", frames_dir / "%04d.png",
                "-vf", f"scale={MAIN_W}:-1:flags=lanczos,{graph}", path]

    script = work / "gifski-style.sh"
    script.write_text(GIFSKI_STYLE)
    runs = [Run("throbber", throbber(out / "throbber.gif"), out / "throbber.gif", "throbber")]
    for q in QUALITIES:
        p = out / f"throbber-q{q}.gif"
        runs.append(Run(f"throbber --quality {q}", throbber(p, "--quality", q), p, "curve", quality=q))
    runs += [
        Run("ffmpeg palettegen (global)",
            ffmpeg(out / "ffmpeg-global.gif", "split[a][b];[a]palettegen[p];[b][p]paletteuse"),
            out / "ffmpeg-global.gif", "peer"),
        Run("ffmpeg stats_mode=single",
            ffmpeg(out / "ffmpeg-single.gif",
                   "split[a][b];[a]palettegen=stats_mode=single[p];[b][p]paletteuse=new=1"),
            out / "ffmpeg-single.gif", "peer"),
        Run("ImageMagick + pngquant + gifsicle -O3 (gifski-style)",
            ["sh", script, frames_dir, work / "frames", out / "gifski-style.gif", bench.CONVERT, PNGQUANT,
             bench.GIFSICLE, MAIN_W, 100 // FPS],
            out / "gifski-style.gif", "peer"),
        # Not a target: throbber given the reference frames themselves (already
        # resized by ImageMagick, as in the gifski-style pipeline), so its
        # time and quality show the palette stages alone.
        Run(PRESCALED, [bench.THROBBER, "encode", ref_dir, "-o", out / "throbber-prescaled.gif", "--fps", FPS,
                        "--loop", 0, "-q"], out / "throbber-prescaled.gif", "diag"),
    ]
    return runs


def gifski_pipeline_facts(work, ref_dir):
    """What the gifski-style pipeline's intermediate frames show: whether
    every intermediate GIF has exactly the pixels of pngquant's PNG
    (ImageMagick kept the palette), and whether its resized frames are the
    reference frames (same resampler: its only error is the palette's)."""
    d = work / "frames"
    kept = all(np.array_equal(gifmetrics.load_rgb(q), gifmetrics.load_rgb(d / (q.name[:-len("-q.png")] + ".gif")))
               for q in sorted(d.glob("*-q.png")))
    resized = sorted(d.glob("[0-9][0-9][0-9][0-9].png"))
    refs = frame_files(ref_dir)
    same = len(resized) == len(refs) and all(
        np.array_equal(gifmetrics.load_rgb(a), gifmetrics.load_rgb(b)) for a, b in zip(resized, refs))
    return {"palettes_kept": kept, "resized_is_reference": same}


def bench_gifs(frames_dir, ref_dir, base, repeat, jobs):
    out = base / "out" / "gif"
    work = base / "work"
    for d in (out, work):
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir(parents=True)
    log_path = base / "logs" / "gif.log"
    log_path.write_text("")
    runs = gif_runs(frames_dir, ref_dir, out, work)
    bench.time_runs(runs, repeat, log_path, "resize: GIF")
    log(f"resize: scoring {len(runs)} GIFs against {ref_dir.name}")
    bench.score_all(runs, ref_dir, jobs)
    return bench.corpus_rows(runs), gifski_pipeline_facts(work, ref_dir)


def rescore(rows, ref_dir, jobs, key):
    """Scores every GIF again against another reference (`ref_dir`), kept
    as row[key] = {"psnr", "ssim"}: a peer whose resizer made the main
    reference frames is judged against the other one (see gif_checks)."""
    runs = [Run(r["name"], [], Path(r["output"]), r["kind"]) for r in rows]
    bench.score_all(runs, ref_dir, jobs)
    for row, run in zip(rows, runs):
        row[key] = {"psnr": run.metrics["psnr"], "ssim": run.metrics["ssim"]}


def refine(rows, frames_dir, ref_dir, base, jobs):
    """bench.py's refinement (in-between qualities where the curve straddles
    a peer's size), with --width, scored against the reference frames."""
    return bench.refine_rows(
        rows, lambda q, path: [bench.THROBBER, "encode", frames_dir, "-o", path, "--width", MAIN_W, "--fps", FPS,
                               "--loop", 0, "-q", "--quality", q],
        base / "out" / "gif", base / "logs" / "gif.log", ref_dir, jobs, "resize")


# ---------------------------------------------------------------- resampling quality

def resample_check(c, w, h, base, jobs):
    """throbber's lossless APNG with --width w against both references."""
    src = make_corpus(c, base / "corpora")
    im = make_refs("im", src, w, h, base, jobs)
    ff = make_refs("ffmpeg", src, w, h, base, jobs)
    out = base / "out" / "apng"
    out.mkdir(parents=True, exist_ok=True)
    apng = out / f"{c.name}-w{w}.png"
    argv = [bench.THROBBER, "encode", src, "-o", apng, "--width", w, "--fps", FPS, "--loop", 0, "-q"]
    log_path = base / "logs" / "apng.log"
    wall, rss, cpu = timed(argv, log_path, retries=0, quiet=False)  # informative only
    im_frames, ff_frames = load_frames(im), load_frames(ff)
    decoded = decode_apng(apng)
    vs_im = gifmetrics.score_decoded(decoded, im_frames, FPS)
    vs_ff = gifmetrics.score_decoded(decoded, ff_frames, FPS)
    ff_im = [gifmetrics.psnr(a, b) for a, b in zip(ff_frames, im_frames)]
    # Per-frame minimum for throbber vs each reference.
    ours = load_shown(decoded, len(im_frames))
    ours_im = [gifmetrics.psnr(a, r) if a.shape == r.shape else float("nan") for a, r in zip(ours, im_frames)]
    ours_ff = [gifmetrics.psnr(a, r) if a.shape == r.shape else float("nan") for a, r in zip(ours, ff_frames)]
    return {
        "apng": str(apng), "corpus": c.name, "from": c.size, "to": f"{w}x{h}", "frames": c.frames,
        "argv": " ".join(map(str, argv)),
        "apng_frames": vs_im["frames"], "apng_bytes": apng.stat().st_size, "size_mismatch": vs_im["size_mismatch"],
        "wall": wall, "cpu": cpu, "rss_mb": mb(rss),
        "psnr_im": vs_im["psnr"], "ssim_im": vs_im["ssim"], "min_psnr_im": float(np.min(ours_im)),
        "psnr_ff": vs_ff["psnr"], "ssim_ff": vs_ff["ssim"], "min_psnr_ff": float(np.min(ours_ff)),
        "psnr_ff_im": float(np.mean(ff_im)), "min_psnr_ff_im": float(np.min(ff_im)),
    }


# ---------------------------------------------------------------- targets and report

def resample_checks(resample):
    out = []
    for r in resample:
        ok = r["psnr_im"] >= RESAMPLE_DB and r["psnr_ff"] >= RESAMPLE_DB and not r["size_mismatch"]
        out.append(("resample", ok,
                    f"{r['from']} → {r['to']}: {r['psnr_im']:.2f} dB vs ImageMagick, {r['psnr_ff']:.2f} dB vs "
                    f"ffmpeg (limit {RESAMPLE_DB:.0f}; ffmpeg vs ImageMagick {r['psnr_ff_im']:.2f} dB)"))
    return out


def gif_checks(rows, facts):
    ours = next(r for r in rows if r["kind"] == "throbber")
    peers = [r for r in rows if r["kind"] == "peer"]
    glob_ = next(r for r in rows if r["name"] == "ffmpeg palettegen (global)")
    single = next(r for r in rows if r["name"] == "ffmpeg stats_mode=single")
    diag = next(r for r in rows if r["kind"] == "diag")
    checks = []

    ratio = ours["time"] / glob_["time"] if glob_["time"] > 0 else float("inf")
    checks.append(("speed", ratio <= TIME_RATIO,
                   f"throbber default {ours['time']:.2f} s (CPU {ours['cpu']:.2f} s) vs ffmpeg palettegen/paletteuse "
                   f"{glob_['time']:.2f} s (CPU {glob_['cpu']:.2f} s): {ratio:.2f}x (limit {TIME_RATIO}x); "
                   f"vs ffmpeg stats_mode=single {single['time']:.2f} s: {ours['time'] / single['time']:.2f}x; "
                   f"{PRESCALED} {diag['time']:.2f} s: {diag['time'] / glob_['time']:.2f}x"))

    candidates = [r for r in rows if r["kind"] in ("throbber", "curve", "refine")]
    for p in peers:
        if p["name"].endswith("(gifski-style)") and facts.get("resized_is_reference") and "ffmpeg_ref" in p:
            # Its resized frames are the ImageMagick reference itself, so
            # against that reference it pays no resampling error at all:
            # judge it, like everyone else, against a reference it did not
            # make (ffmpeg's Lanczos), and show the other numbers beside.
            def other(r):
                return {**r, "psnr": r["ffmpeg_ref"]["psnr"], "ssim": r["ffmpeg_ref"]["ssim"]}
            im_note = (f" [against ImageMagick's reference, which is its own resize: {p['bytes']:,} B, "
                       f"{fmt_psnr(p['psnr'])} dB, SSIM {p['ssim']:.6f}; ours {ours['bytes']:,} B, "
                       f"{fmt_psnr(ours['psnr'])} dB, SSIM {ours['ssim']:.6f}]")
            p = other(p)
            pool = [other(c) for c in candidates]
            ref_note = " against ffmpeg's Lanczos reference"
        else:
            pool = candidates
            im_note = ""
            ref_note = ""
        fits = [c for c in pool if bench._fits(c, p)]
        head = f"vs {p['name']}{ref_note} ({p['bytes']:,} B, {fmt_psnr(p['psnr'])} dB, SSIM {p['ssim']:.6f})"
        if fits:
            best = min(fits, key=lambda c: c["bytes"])
            checks.append(("size", True, f"{head}: {best['name']} gives {best['bytes']:,} B, "
                                         f"{fmt_psnr(best['psnr'])} dB, SSIM {best['ssim']:.6f}{im_note}"))
            continue
        smaller = [c for c in pool if c["bytes"] <= p["bytes"]]
        if smaller:
            near = max(smaller, key=lambda c: c["bytes"])
            why = (f"largest of ours that fits, {near['name']}: {near['bytes']:,} B, {fmt_psnr(near['psnr'])} dB "
                   f"({near['psnr'] - p['psnr']:+.2f}), SSIM {near['ssim']:.6f} ({near['ssim'] - p['ssim']:+.6f})")
        else:
            small = min(pool, key=lambda c: c["bytes"])
            why = f"even our smallest, {small['name']}, is {small['bytes']:,} B"
        why += (f"; {PRESCALED}: {diag['bytes']:,} B, {fmt_psnr(diag['psnr'])} dB, SSIM {diag['ssim']:.6f} "
                f"({'would pass' if bench._fits(diag, p) else 'would fail too'})")
        checks.append(("size", False, f"{head}: no setting of ours is as small and as good; {why}{im_note}"))

    nondet = [r["name"] for r in rows if r["kind"] in ("throbber", "curve") and not r["deterministic"]]
    if nondet:
        checks.append(("det", False, "output bytes differed between repeats: " + ", ".join(nondet)))
    if not facts["palettes_kept"]:
        checks.append(("pipeline", False, "ImageMagick changed pixels converting pngquant's PNGs to GIF"))
    return checks


TARGETS = {
    "speed": f"default wall time ≤ {TIME_RATIO}x ffmpeg palettegen/paletteuse",
    "size": "at each peer's size at least as good (PSNR and SSIM vs a Lanczos reference the peer did not make)",
    "resample": f"resampling ≥ {RESAMPLE_DB:.0f} dB PSNR vs ImageMagick and ffmpeg Lanczos, before palettes",
    "det": "deterministic output",
    "pipeline": "gifski-style pipeline sound",
}


def gif_section(rows, ref_desc, facts):
    ours = next(r for r in rows if r["kind"] == "throbber")
    glob_ = next(r for r in rows if r["name"] == "ffmpeg palettegen (global)")
    frames = MAIN.frames
    L = [f"### GIF: {MAIN.name} ({frames} frames, `{MAIN.spec}`) → {MAIN_W}x{MAIN_H}", "",
         f"Scored against {ref_desc}, and against ffmpeg's `scale=W:H:flags=lanczos` of each source frame "
         "(the columns \"vs ffmpeg's\"). The gifski-style pipeline resizes with exactly the ImageMagick command "
         "that makes the first reference, so it is judged against ffmpeg's; the ffmpeg peers against "
         "ImageMagick's.", "",
         "| tool | frames | bytes | × throbber | PSNR dB | SSIM | PSNR dB vs ffmpeg's | SSIM vs ffmpeg's "
         "| wall s (median) | × ffmpeg | CPU s | peak RSS MB |",
         "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|"]
    notes = []
    for r in [ours] + [r for r in rows if r["kind"] == "peer"]:
        ff = r.get("ffmpeg_ref", {"psnr": float("nan"), "ssim": float("nan")})
        L.append(f"| {r['name']} | {r['frames']} | {r['bytes']:,} | {r['bytes'] / ours['bytes']:.2f} | "
                 f"{fmt_psnr(r['psnr'])} | {r['ssim']:.5f} | {fmt_psnr(ff['psnr'])} | {ff['ssim']:.5f} | "
                 f"{r['time']:.2f} | {r['time'] / glob_['time']:.2f} | {r['cpu']:.2f} | {r['rss_mb']:.0f} |")
    for r in rows:
        if r["size_mismatch"]:
            notes.append(f"{r['name']}: frame size differs from {MAIN_W}x{MAIN_H}")
        if r["transparent_pixels"]:
            notes.append(f"{r['name']}: {r['transparent_pixels']:,} composited pixels are not opaque")
        if r["duration_ms"] != frames * 1000 // FPS:
            notes.append(f"{r['name']}: loop lasts {r['duration_ms']} ms, not {frames * 1000 // FPS} ms")
    L += ["", "× ffmpeg: wall time over ffmpeg palettegen (global)'s.", "",
          f"throbber's `--quality` curve (with `--width {MAIN_W}`):", "",
          "| --quality | bytes | × default | PSNR dB | SSIM | wall s | CPU s | peak RSS MB |",
          "|--:|--:|--:|--:|--:|--:|--:|--:|"]
    for r in sorted([r for r in rows if r["kind"] in ("curve", "refine")], key=lambda r: -r["quality"]):
        mark = "*" if r["kind"] == "refine" else ""
        L.append(f"| {r['quality']}{mark} | {r['bytes']:,} | {r['bytes'] / ours['bytes']:.2f} | {fmt_psnr(r['psnr'])} | "
                 f"{r['ssim']:.4f} | {r['time']:.2f} | {r['cpu']:.2f} | {r['rss_mb']:.0f} |")
    if any(r["kind"] == "refine" for r in rows):
        L += ["", "\\* a refinement point (one run): no curve point matched some peer at its size."]
    diag = next(r for r in rows if r["kind"] == "diag")
    gifski = next(r for r in rows if "gifski" in r["name"])
    L += ["", "Diagnostics, not targets: the palette stages alone.", "",
          "| | bytes | PSNR dB | SSIM | wall s (median) | × ffmpeg | CPU s |", "|---|--:|--:|--:|--:|--:|--:|",
          f"| {PRESCALED}, against the reference | {diag['bytes']:,} | {fmt_psnr(diag['psnr'])} | {diag['ssim']:.6f} | "
          f"{diag['time']:.2f} | {diag['time'] / glob_['time']:.2f} | {diag['cpu']:.2f} |",
          f"| gifski-style, against the reference (= its own resized frames) | {gifski['bytes']:,} | "
          f"{fmt_psnr(gifski['psnr'])} | {gifski['ssim']:.6f} | | | |"]
    if "own_psnr" in facts:
        L.append(f"| throbber default, against its own resized frames (the APNG below) | {ours['bytes']:,} | "
                 f"{fmt_psnr(facts['own_psnr'])} | {facts['own_ssim']:.6f} | | | |")
    L += ["", "gifski-style pipeline: intermediate GIFs identical to pngquant's PNGs: "
          + ("yes" if facts["palettes_kept"] else "NO") + "; its resized frames identical to the reference frames: "
          + ("yes" if facts["resized_is_reference"] else "no")]
    if notes:
        L += ["", "Notes: " + "; ".join(notes) + "."]
    return L + [""]


def resample_section(resample):
    L = ["### Resampling before palettes: throbber's lossless APNG against Lanczos references", "",
         "| resize | throbber vs ImageMagick: PSNR dB (min frame) | SSIM | throbber vs ffmpeg: PSNR dB (min frame) "
         "| SSIM | ffmpeg vs ImageMagick: PSNR dB (min frame) | APNG wall s |",
         "|---|--:|--:|--:|--:|--:|--:|"]
    for r in resample:
        L.append(f"| {r['from']} → {r['to']} ({r['frames']} frames) | {r['psnr_im']:.2f} ({r['min_psnr_im']:.2f}) | "
                 f"{r['ssim_im']:.5f} | {r['psnr_ff']:.2f} ({r['min_psnr_ff']:.2f}) | {r['ssim_ff']:.5f} | "
                 f"{r['psnr_ff_im']:.2f} ({r['min_psnr_ff_im']:.2f}) | {r['wall']:.2f} |")
    L += ["", "References: ImageMagick `convert F -filter Lanczos -resize WxH! PNG24:R` per frame; ffmpeg "
          "`-vf scale=W:H:flags=lanczos -pix_fmt rgb24` to PNG. throbber: `encode DIR -o out.png --width W` "
          "(APNG, lossless), frames matched by time."]
    return L + [""]


def render(env, rows, resample, checks, ref_desc, facts):
    L = ["# Throbber resize benchmark results (issue #11)", "",
         f"- date: {env['date']}", f"- machine: {env['machine']}",
         f"- timing: median of {env['repeat']} interleaved runs, `/usr/bin/time -f \"%e %M %U %S\"` "
         "(wall s, peak RSS, user+system CPU s of the whole pipeline; MB = 10^6 bytes); "
         f"{env['noise']['disturbed']} of {env['noise']['runs']} runs were disturbed by other processes "
         f"(> {bench.NOISE_CORES} cores busy besides the command) and repeated up to {bench.RETRIES} times; "
         f"{env['noise']['waited_s']:.0f} s spent waiting for an idle machine; load {' '.join(env['load_start'])} "
         f"at start, {' '.join(env['load_end'])} at end"]
    for k in ("throbber", "libimagequant", "ffmpeg", "ImageMagick", "gifsicle", "pngquant", "pixman", "Pillow"):
        L.append(f"- {k}: {env[k]}")
    L.append("")
    if rows:
        L += gif_section(rows, ref_desc, facts)
    L += resample_section(resample)
    L += ["### Targets", ""]
    for target, ok, text in checks:
        L.append(f"- {'PASS' if ok else 'FAIL'} [{TARGETS[target]}] {text}")
    return "\n".join(L) + "\n"


def main():
    global PNGQUANT
    ap = argparse.ArgumentParser(description="Throbber's --width against ffmpeg and a gifski-style pipeline "
                                             "(issue #11; see docs/benchmarks.md).")
    ap.add_argument("--repeat", type=int, default=int(os.environ.get("BENCH_REPEAT", 3)),
                    help="timed runs per command; the median is reported (default 3)")
    ap.add_argument("--retries", type=int, default=bench.RETRIES,
                    help=f"times a run disturbed by other processes is repeated (default {bench.RETRIES})")
    ap.add_argument("--no-refine", action="store_true", help="check the 100…40 curve only (no in-between qualities)")
    ap.add_argument("--no-gif", action="store_true", help="only the resampling check")
    ap.add_argument("--strict", action="store_true", help="exit 1 if any target fails")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                    help="processes for scoring and for writing reference frames")
    ap.add_argument("--small", action="store_true", help="a --quality curve of 4 points instead of 7")
    args = ap.parse_args()
    if args.small:
        QUALITIES[:] = SMALL_QUALITIES

    # bench.py's helpers read its module globals; set them as its main() does.
    bench.RETRIES = args.retries
    bench.THROBBER = Path(os.environ.get("THROBBER") or bench.ROOT / ".build/release/throbber").absolute()
    bench.FFMPEG = bench.tool_path("FFMPEG", "ffmpeg")
    bench.CONVERT = os.environ.get("CONVERT") or ("/usr/bin/convert" if os.path.exists("/usr/bin/convert")
                                                  else bench.tool_path("CONVERT", "convert"))
    bench.GIFSICLE = bench.tool_path("GIFSICLE", "gifsicle")
    bench.TIME = "/usr/bin/time"
    PNGQUANT = bench.tool_path("PNGQUANT", "pngquant")
    for name, path in (("throbber (set THROBBER or run `make build`)", bench.THROBBER), ("ffmpeg", bench.FFMPEG),
                       ("ImageMagick convert", bench.CONVERT), ("gifsicle", bench.GIFSICLE),
                       ("pngquant", PNGQUANT), ("GNU time", bench.TIME)):
        if not (os.path.isfile(path) and os.access(path, os.X_OK)) and not shutil.which(str(path)):
            raise SystemExit(f"resize: {name} not found at {path}; `scripts/install-deps --bench` installs the peers")

    base = bench.safe_work_dir(os.environ.get("BENCH_DIR", "/tmp/throbber-resize-bench"))
    for sub in ("corpora", "refs", "out", "logs"):
        (base / sub).mkdir(parents=True, exist_ok=True)
    env = bench.environment(args)
    env["pngquant"] = "pngquant " + first_line_of([PNGQUANT, "--version"])
    env["pixman"] = bench.dpkg_version("libpixman-1-0")
    env["load_start"] = loadavg()
    log(f"resize: work dir {base}; throbber {bench.THROBBER}")

    src = make_corpus(MAIN, base / "corpora")
    ref = make_refs("im", src, MAIN_W, MAIN_H, base, args.jobs)
    ref_desc = f"ImageMagick's `convert F -filter Lanczos -resize {MAIN_W}x{MAIN_H}! R` of each source frame"

    rows, facts = [], {}
    if not args.no_gif:
        rows, facts = bench_gifs(src, ref, base, args.repeat, args.jobs)
        if not args.no_refine:
            rows = refine(rows, src, ref, base, args.jobs)
        log("resize: scoring the GIFs against ffmpeg's reference too")
        rescore(rows, make_refs("ffmpeg", src, MAIN_W, MAIN_H, base, args.jobs), args.jobs, "ffmpeg_ref")
    log("resize: resampling check (APNG)")
    resample = [resample_check(MAIN, MAIN_W, MAIN_H, base, args.jobs),
                resample_check(SMALL, SMALL_W, SMALL_H, base, args.jobs)]
    env["load_end"] = loadavg()
    env["noise"] = dict(bench.NOISE)

    if rows:
        # throbber's GIF against its own pre-palette frames: the palette's error alone.
        apng = load_shown(decode_apng(resample[0]["apng"]), MAIN.frames)
        own = gifmetrics.score(str(base / "out" / "gif" / "throbber.gif"), apng, FPS)
        facts.update(own_psnr=own["psnr"], own_ssim=own["ssim"])
    checks = (gif_checks(rows, facts) if rows else []) + resample_checks(resample)
    report = render(env, rows, resample, checks, ref_desc, facts)
    (base / "results.md").write_text(report)
    (base / "results.json").write_text(json.dumps(
        {"environment": env, "gif": rows, "resample": resample,
         "checks": [{"target": t, "pass": ok, "text": x} for t, ok, x in checks]}, indent=1, default=str))
    print(report)
    log(f"resize: results in {base / 'results.md'} and results.json")
    failed = [c for c in checks if not c[1]]
    if failed:
        log(f"resize: {len(failed)} target check(s) failed")
    sys.exit(1 if failed and args.strict else 0)


if __name__ == "__main__":
    main()
