"""Video input against ffmpeg's one-command GIF recipe. Run it via
Benchmarks/run-video.

For every clip of Benchmarks/video_clips.py, at the clip's target width W
and rate F:

- ffmpeg: `ffmpeg -i CLIP -vf "fps=F,scale=W:-1:flags=lanczos,split[a][b];
  [a]palettegen[p];[b][p]paletteuse" out.gif`;
- throbber: `throbber encode CLIP -o out.gif --width W --fps F`, the same
  with `--palette shared` (one palette for all frames, as ffmpeg's recipe),
  with `--palette shared --compression fast` (the quickest), and, when the
  default file is larger than ffmpeg's, the same with `--max-bytes`
  ffmpeg's bytes; when the fast one is, the fast one with `--colors 128`.

The reference frames are the clip's frames at F fps as ffmpeg decodes them,
converted to RGB at full size with the stream's tags given explicitly, then
resized to W by Pillow's Lanczos (video_clips.make_refs): a third party's
resize, so neither encoder's own is the yardstick. Every GIF is decoded as a viewer shows it and scored against
them (gifmetrics: mean PSNR over RGB, mean luma SSIM), frame k against
reference k when the frame counts agree; otherwise the table says so and
frames are lined up by time. Wall time is the median of --repeat runs,
interleaved (throbber, ffmpeg, throbber, ffmpeg …), with bench.py's timing
(waits for a quiet machine, repeats disturbed runs).

--long adds the memory and trim checks on 1080p testsrc2 clips of 10
minutes and 1 minute: peak RSS of `throbber encode CLIP --width 480 --fps 10
-o out.gif` on each (goal: 10 minutes within 1.1x of 1 minute), and the
wall time of `--from 0 --to 3` against `--from 597 --to 600` on the
10-minute clip (goal: about equal), each trim scored against ffmpeg's frames
of that span.

VIDEO_INPUT=pipe replaces throbber's video input with a stand-in: `ffmpeg -i
CLIP -vf fps=F -f yuv4mpegpipe - | throbber encode - [same options]` (on a
stream --fps re-times frames instead of resampling them, so ffmpeg picks
them; a trim becomes ffmpeg's input seek, `-ss T -to T`). The stream's
frames are spooled to $TMPDIR whole, so for the long clips ffmpeg also
scales before the pipe. The stream carries no matrix tag, so throbber reads
it as BT.601: pipe numbers are for the harness, not for throbber.

Everything goes under $BENCH_DIR (default /tmp/throbber-video-bench):
clips/ and refs/ (kept while their recipe is unchanged), out/, logs/,
results.md and results.json.
"""

import argparse
import datetime
import json
import multiprocessing
import os
import platform
import shlex
import shutil
import statistics
import subprocess
from pathlib import Path

import numpy as np
import PIL
from PIL import Image

import bench
import gifmetrics
import video_clips
from bench import log, mb, timed

MODES = ("direct", "pipe")
# The --long checks: output width and rate, the trims, the memory goal.
LONG_W, LONG_F = 480, 10
TRIMS = [(0, 3), (597, 600)]
RSS_RATIO = 1.1


def throbber_cmd(clip, out, opts, trim=None, prefilter=None):
    """argv of one throbber encode of `clip`, directly or through the pipe
    stand-in (VIDEO_INPUT=pipe). `prefilter` is the ffmpeg filter the pipe
    applies before the stream: at least `fps=F` of the --fps in `opts`, since
    --fps re-times a YUV4MPEG2 stream's frames where a video's are resampled
    by time. `trim` is (from, to) in seconds."""
    opts = [str(o) for o in opts]
    if MODE == "direct":
        t = ["--from", str(trim[0]), "--to", str(trim[1])] if trim else []
        return [str(bench.THROBBER), "encode", str(clip), *t, "-o", str(out), *opts, "-q"]
    seek = ["-ss", str(trim[0]), "-to", str(trim[1])] if trim else []
    prefilter = prefilter or f"fps={opts[opts.index('--fps') + 1]}"
    vf = ["-vf", prefilter]
    ff = [bench.FFMPEG, "-v", "error", *seek, "-i", str(clip), *vf, "-f", "yuv4mpegpipe", "-"]
    th = [str(bench.THROBBER), "encode", "-", "-o", str(out), *opts, "-q"]
    return ["bash", "-c", "set -o pipefail; " + shlex.join(ff) + " | " + shlex.join(th)]


def ffmpeg_cmd(clip, out, width, fps):
    graph = f"fps={fps},scale={width}:-1:flags=lanczos,split[a][b];[a]palettegen[p];[b][p]paletteuse"
    return [bench.FFMPEG, "-v", "error", "-y", "-i", str(clip), "-vf", graph, str(out)]


def score_gif(path, refs, fps):
    """Scores a GIF against reference frames (HxWx3 arrays): frame k against
    reference k when the counts agree, else lined up by time at `fps`."""
    frames, starts, total, transparent = gifmetrics.decode_gif(str(path))
    by_index = len(frames) == len(refs)
    shown = range(len(refs)) if by_index else gifmetrics.align(starts, total, len(refs), fps)
    psnrs, ssims = [], []
    for k, ref in zip(shown, refs):
        out = frames[k]
        if out.shape != ref.shape:
            return {"frames": len(frames), "duration_s": total / 1000, "psnr": float("nan"), "ssim": float("nan"),
                    "by_index": by_index, "transparent": transparent, "shape": out.shape[:2]}
        psnrs.append(gifmetrics.psnr(out, ref))
        ssims.append(gifmetrics.ssim(out, ref))
    return {"frames": len(frames), "duration_s": total / 1000, "psnr": float(np.mean(psnrs)),
            "ssim": float(np.mean(ssims)), "by_index": by_index, "transparent": transparent, "shape": None}


_REFS = None  # reference frames of the clip being scored (inherited by the pool's forks)


def _score(args):
    return score_gif(args[0], _REFS, args[1])


def score_all(paths, ref_dir, fps, jobs):
    global _REFS
    _REFS = [gifmetrics.load_rgb(f) for f in bench.frame_files(ref_dir)]
    with multiprocessing.get_context("fork").Pool(max(1, jobs)) as pool:
        results = pool.map(_score, [(str(p), fps) for p in paths])
    count = len(_REFS)
    _REFS = None
    return results, count


# Colors of the fast row added where `--palette shared --compression fast`
# comes out larger than ffmpeg's file: the one setting for that row.
FAST_COLORS = 128


def bench_clip(c, base, repeat, jobs):
    """Runs, times and scores one clip; returns its rows and facts."""
    clip = video_clips.make_clip(c, base)
    ref_dir, ref_argv = video_clips.make_refs(clip, c.width, c.fps, base)
    out = base / "out" / c.name
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    log_path = base / "logs" / f"{c.name}.log"
    log_path.write_text("")
    rows = [{"name": "throbber", "argv": throbber_cmd(clip, out / "throbber.gif", ["--width", c.width, "--fps",
                                                                                   c.fps]),
             "out": out / "throbber.gif"},
            {"name": "throbber --palette shared",
             "argv": throbber_cmd(clip, out / "throbber-shared.gif", ["--width", c.width, "--fps", c.fps,
                                                                      "--palette", "shared"]),
             "out": out / "throbber-shared.gif"},
            {"name": "throbber --palette shared --compression fast",
             "argv": throbber_cmd(clip, out / "throbber-fast.gif", ["--width", c.width, "--fps", c.fps,
                                                                    "--palette", "shared", "--compression", "fast"]),
             "out": out / "throbber-fast.gif"},
            {"name": "ffmpeg palettegen/paletteuse", "argv": ffmpeg_cmd(clip, out / "ffmpeg.gif", c.width, c.fps),
             "out": out / "ffmpeg.gif"}]
    # One untimed round: warms the page cache and gives ffmpeg's bytes.
    for r in rows:
        timed(r["argv"], log_path, retries=0, quiet=False)
    ff_bytes = rows[-1]["out"].stat().st_size
    if rows[0]["out"].stat().st_size > ff_bytes:
        p = out / "throbber-max-bytes.gif"
        rows.insert(1, {"name": f"throbber --max-bytes {ff_bytes}",
                        "argv": throbber_cmd(clip, p, ["--width", c.width, "--fps", c.fps, "--max-bytes", ff_bytes]),
                        "out": p})
    fast = next(r for r in rows if r["name"].endswith("--compression fast"))
    if fast["out"].stat().st_size > ff_bytes:
        p = out / "throbber-fast-colors.gif"
        rows.insert(rows.index(fast) + 1, {
            "name": f"throbber --palette shared --compression fast --colors {FAST_COLORS}",
            "argv": throbber_cmd(clip, p, ["--width", c.width, "--fps", c.fps, "--palette", "shared",
                                           "--compression", "fast", "--colors", FAST_COLORS]),
            "out": p})
    for r in rows:
        r.update(times=[], cpu=[], rss=[])
    for rep in range(repeat):
        log(f"video: {c.name}: run {rep + 1}/{repeat} (load {' '.join(bench.loadavg())})")
        for r in rows:
            wall, rss, cpu = timed(r["argv"], log_path)
            r["times"].append(wall)
            r["cpu"].append(cpu)
            r["rss"].append(rss)
    log(f"video: {c.name}: scoring {len(rows)} GIFs")
    scores, ref_count = score_all([r["out"] for r in rows], ref_dir, c.fps, jobs)
    for r, s in zip(rows, scores):
        r.update(s, bytes=r["out"].stat().st_size, time=statistics.median(r["times"]),
                 cpu_s=statistics.median(r["cpu"]), rss_mb=mb(statistics.median(r["rss"])))
    h, w = gifmetrics.load_rgb(bench.frame_files(ref_dir)[0]).shape[:2]
    return rows, {"ref_count": ref_count, "ref_argv": ref_argv, "size": f"{w}x{h}"}


def table_clip(c, rows, facts):
    ff = next(r for r in rows if r["name"].startswith("ffmpeg"))
    n = facts["ref_count"]
    L = [f"### {c.name}: {c.what} → {facts['size']} at {c.fps} fps", "",
         f"| tool | frames (reference {n}) | loop s (reference {n / c.fps:.2f}) | bytes | × ffmpeg | PSNR dB | SSIM "
         "| wall s | × ffmpeg | CPU s | peak RSS MB |",
         "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|"]
    notes = []
    for r in rows:
        L.append(f"| {r['name']} | {r['frames']} | {r['duration_s']:.2f} | {r['bytes']:,} | "
                 f"{r['bytes'] / ff['bytes']:.2f} | {bench.fmt_psnr(r['psnr'])} | {r['ssim']:.4f} | {r['time']:.2f} | "
                 f"{r['time'] / ff['time']:.2f} | {r['cpu_s']:.2f} | {r['rss_mb']:.0f} |")
        if not r["by_index"]:
            notes.append(f"{r['name']}: {r['frames']} frames, not {n}: scored by time")
        if r["shape"]:
            notes.append(f"{r['name']}: frames are {r['shape'][1]}x{r['shape'][0]}, not the reference's size")
        if r["transparent"]:
            notes.append(f"{r['name']}: {r['transparent']:,} composited pixels are not opaque")
    L += ["", "Commands (wall time: median of the interleaved runs; \"× ffmpeg\" is throbber/ffmpeg):", ""]
    L += [f"- {r['name']}: `{display(r['argv'])}`" for r in rows]
    L.append(f"- reference frames: `{display(facts['ref_argv'])}`")
    if notes:
        L += ["", "Notes: " + "; ".join(notes) + "."]
    return L


def display(argv):
    """A command as a person would type it: bash -c's script unwrapped."""
    argv = [str(a) for a in argv]
    if argv[:2] == ["bash", "-c"]:
        return argv[2].removeprefix("set -o pipefail; ")
    return shlex.join(argv)


# ---------------------------------------------------------------- --long

def long_cmd(clip, out, trim=None):
    """The long checks' encode; the pipe stand-in thins and scales in ffmpeg."""
    pre = f"fps={LONG_F}" + ("" if trim else f",scale={LONG_W}:-1:flags=lanczos")
    argv = throbber_cmd(clip, out, ["--width", LONG_W, "--fps", LONG_F], trim=trim, prefilter=pre)
    if MODE == "pipe" and not trim:
        # throbber's own peak RSS, not ffmpeg's: /usr/bin/time inside the pipe.
        script = argv[2].replace(" | ", f" | /usr/bin/time -f %M -o {shlex.quote(str(out))}.rss ")
        argv = ["bash", "-c", script]
    return argv


def gif_timing(path):
    """A GIF's frame count and loop length in ms, as gifmetrics.decode_gif
    times it, without holding its frames."""
    with Image.open(path) as im:
        delays = []
        for i in range(im.n_frames):
            im.seek(i)
            d = im.info.get("duration", 0) or 0
            delays.append(d if d >= 20 else 100)
    return len(delays), sum(delays)


def bench_long(base, repeat, jobs):
    """Peak RSS on the 10-minute and 1-minute clips, and the trim cost."""
    clips = {name: video_clips.make_long(name, base) for name in video_clips.LONG}
    out = base / "out" / "long"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    log_path = base / "logs" / "long.log"
    log_path.write_text("")
    mem = []
    for name, clip in clips.items():
        gif = out / f"{name}.gif"
        argv = long_cmd(clip, gif)
        log(f"video: memory: {name}")
        # Peak RSS does not depend on other processes: one run, no waiting.
        wall, rss, _ = timed(argv, log_path, retries=0, quiet=False)
        inner = Path(f"{gif}.rss")
        if inner.exists():
            rss = int(inner.read_text().split()[-1])
        frames, total = gif_timing(gif)
        mem.append({"name": name, "seconds": video_clips.LONG[name], "argv": argv, "wall": wall, "rss_mb": mb(rss),
                    "frames": frames, "loop_s": total / 1000, "bytes": gif.stat().st_size})
    trims = [{"trim": t, "argv": long_cmd(clips["long-600s"], out / f"trim-{t[0]}.gif", t),
              "out": out / f"trim-{t[0]}.gif", "times": []} for t in TRIMS]
    for rep in range(repeat):
        log(f"video: trims: run {rep + 1}/{repeat}")
        for r in trims:
            r["times"].append(timed(r["argv"], log_path)[0])
    for r in trims:
        ref_dir, r["ref_argv"] = video_clips.make_refs(clips["long-600s"], LONG_W, LONG_F, base, r["trim"])
        (s,), r["ref_count"] = score_all([r["out"]], ref_dir, LONG_F, jobs)
        r.update(s, time=statistics.median(r["times"]))
    return mem, trims


def table_long(mem, trims):
    short, long_ = sorted(mem, key=lambda m: m["seconds"])
    ratio = long_["rss_mb"] / short["rss_mb"]
    L = [f"### Memory: testsrc2 1920x1080 H.264 at --width {LONG_W} --fps {LONG_F}", "",
         "| clip | frames out | loop s | bytes | wall s | peak RSS MB |", "|---|--:|--:|--:|--:|--:|"]
    L += [f"| {m['seconds']} s | {m['frames']} | {m['loop_s']:.1f} | {m['bytes']:,} | {m['wall']:.1f} | "
          f"{m['rss_mb']:.1f} |" for m in mem]
    L += ["", f"10 minutes / 1 minute peak RSS: {ratio:.3f} ({'PASS' if ratio <= RSS_RATIO else 'FAIL'}, "
          f"goal ≤ {RSS_RATIO})", ""]
    L += [f"- {m['seconds']} s: `{display(m['argv'])}`" for m in mem]
    early, late = trims
    L += ["", "### Trim cost on the 10-minute clip", "",
          f"| trim | frames (reference {early['ref_count']}) | loop s | PSNR dB | SSIM | wall s |",
          "|---|--:|--:|--:|--:|--:|"]
    L += [f"| {r['trim'][0]}–{r['trim'][1]} s | {r['frames']} | {r['duration_s']:.2f} | "
          f"{bench.fmt_psnr(r['psnr'])} | {r['ssim']:.4f} | {r['time']:.2f} |" for r in trims]
    L += ["", f"late/early wall time: {late['time'] / early['time']:.2f} (goal: about 1)", ""]
    L += [f"- {r['trim'][0]}–{r['trim'][1]} s: `{display(r['argv'])}`; reference `{display(r['ref_argv'])}`"
          for r in trims]
    return L


# ---------------------------------------------------------------- main

def environment(args):
    git = subprocess.run(["git", "-C", str(bench.ROOT), "rev-parse", "--short", "HEAD"],
                         capture_output=True, text=True).stdout.strip() or "?"
    input_note = ("throbber's own video input" if MODE == "direct" else
                  "the pipe stand-in, `ffmpeg -i CLIP -vf fps=F -f yuv4mpegpipe - | throbber encode - …` "
                  "(VIDEO_INPUT=pipe)")
    return [
        f"- date: {datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')}",
        f"- machine: {os.cpu_count()} cores, Linux {platform.release()}; load {' '.join(bench.loadavg())} at the end",
        f"- throbber: {bench.first_line([str(bench.THROBBER), '--version'])} ({bench.THROBBER}, sha256 "
        f"{bench.sha256(bench.THROBBER)[:12]}; repository at {git})",
        f"- video input: {input_note}",
        f"- ffmpeg: {bench.first_line([bench.FFMPEG, '-version'])}; libx264 {bench.dpkg_version('libx264-164')}, "
        f"libvpx {bench.dpkg_version('libvpx7')}",
        f"- Pillow {PIL.__version__}, numpy {np.__version__}, Python {platform.python_version()}",
        f"- timing: median of {args.repeat} interleaved runs; {bench.NOISE['disturbed']} of {bench.NOISE['runs']} runs "
        f"disturbed by other processes (> {bench.NOISE_CORES} cores), repeated up to {bench.RETRIES} times",
    ]


def main():
    global MODE
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=int(os.environ.get("BENCH_REPEAT", 3)))
    ap.add_argument("--clip", action="append", choices=[c.name for c in video_clips.CLIPS],
                    help="only this clip (repeatable); default all")
    ap.add_argument("--long", action="store_true", help="also the 10-minute memory and trim checks (slow)")
    ap.add_argument("--no-clips", action="store_true", help="skip the clip comparison (with --long)")
    ap.add_argument("--retries", type=int, default=bench.RETRIES)
    ap.add_argument("--quiet-wait", type=float, default=bench.QUIET_WAIT,
                    help=f"seconds to wait for an idle machine before each timed run (default {bench.QUIET_WAIT})")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes for scoring")
    args = ap.parse_args()
    MODE = os.environ.get("VIDEO_INPUT", "direct")
    if MODE not in MODES:
        raise SystemExit(f"video: VIDEO_INPUT={MODE}: expected one of {', '.join(MODES)}")
    bench.RETRIES, bench.QUIET_WAIT = args.retries, args.quiet_wait
    bench.THROBBER = Path(os.environ.get("THROBBER") or bench.ROOT / ".build/release/throbber").absolute()
    bench.FFMPEG = bench.tool_path("FFMPEG", "ffmpeg")
    if not os.access(bench.THROBBER, os.X_OK):
        raise SystemExit(f"video: no throbber at {bench.THROBBER} (set THROBBER or build the release binary)")
    base = bench.safe_work_dir(os.environ.get("BENCH_DIR", "/tmp/throbber-video-bench"))
    for sub in ("clips", "refs", "out", "logs"):
        (base / sub).mkdir(parents=True, exist_ok=True)
    log(f"video: work dir {base}; throbber {bench.THROBBER}; video input {MODE}")
    report, clips, long = [], [], None
    for c in [] if args.no_clips else [c for c in video_clips.CLIPS if not args.clip or c.name in args.clip]:
        rows, facts = bench_clip(c, base, args.repeat, args.jobs)
        clips.append({"name": c.name, "what": c.what, "fps": c.fps, "rows": rows, "facts": facts})
        report += table_clip(c, rows, facts) + [""]
        print("\n".join(table_clip(c, rows, facts)) + "\n", flush=True)
    if args.long:
        long = bench_long(base, args.repeat, args.jobs)
        report += table_long(*long) + [""]
    text = "\n".join(["# Video input benchmark", ""] + environment(args) + [""] + report)
    (base / "results.md").write_text(text)
    (base / "results.json").write_text(json.dumps(
        {"environment": environment(args), "mode": MODE, "clips": clips,
         "long": None if long is None else {"memory": long[0], "trims": long[1]}}, indent=1, default=str))
    print(text)
    log(f"video: results in {base / 'results.md'}")


if __name__ == "__main__":
    main()
