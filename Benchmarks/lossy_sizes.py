#!/usr/bin/python3
"""throbber's lossy GIF against `gifsicle -O3 --lossy=N` at gifsicle's own
file sizes (issue #59), on the corpora of Benchmarks/lossy_corpora.py:
re-encoded dithered GIFs, screen recordings and camera footage.

For each corpus and N (40, 80, 200 by default), gifsicle's file is made
from what gifsicle is usually given: the dithered GIF itself, or for a
folder of frames ffmpeg's `palettegen` + `paletteuse` GIF of it (the
recipe users pair with gifsicle). throbber encodes the same input at a
ladder of `--lossy` levels (and, with --max-bytes, with `--max-bytes` at
gifsicle's size). Every file is scored against the corpus frames by
Benchmarks/gifmetrics.py: mean PSNR and SSIM, and per frame PSNR and the
share of "stale" pixels: pixels the file did not redraw since frame j
whose source moved by 8 levels or more since j, that are 8 levels or
more off and nearer the source of frame j than the source now (what an
earlier frame drew, left where the picture changed).

A row WINs when throbber's best file at no more than gifsicle's bytes has
both higher PSNR and higher SSIM.

usage: THROBBER=.build/release/throbber /usr/bin/python3 Benchmarks/lossy_sizes.py
         [--corpus NAME ...] [--levels 40 80 200] [--max-bytes] [--base DIR] [--json FILE]
"""

import argparse
import json
import multiprocessing
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

import bench
import gifmetrics
import lossy_corpora

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "tools"))
from lossy_ghosts import StaleCounter  # noqa: E402  (the same count LossyGhostTests asserts on)

LADDER = [20, 40, 60, 80, 120, 160, 200]
STALE = 8


def frames_of(d):
    return [gifmetrics.load_rgb(f) for f in bench.frame_files(Path(d))]


def per_frame(gif, sources, fps):
    """Per source frame: PSNR, SSIM and the share of stale pixels."""
    frames, starts, total, _ = gifmetrics.decode_gif(gif)
    shown = gifmetrics.align(starts, total, len(sources), fps)
    psnr, ssim, stale = [], [], []
    counter = StaleCounter(STALE)
    for k, src in enumerate(sources):
        out = frames[shown[k]]
        psnr.append(gifmetrics.psnr(out, src))
        ssim.append(1.0 if np.array_equal(out, src) else gifmetrics.ssim(out, src))
        stale.append(counter.add(out, src))
    return psnr, ssim, stale


def score_job(job):
    path, frames_dir, fps = job
    p, s, g = per_frame(path, frames_of(frames_dir), fps)
    return path, {"bytes": os.path.getsize(path), "psnr": float(np.mean(p)), "ssim": float(np.mean(s)),
                  "frame_psnr": p, "stale": g}


def run(argv):
    """(wall s, exit status, stderr) of argv; with REUSE=1 in the environment,
    an encode whose output file exists is not run again."""
    if os.environ.get("REUSE") == "1" and "-o" in argv and Path(argv[argv.index("-o") + 1]).exists():
        return 0.0, 0, ""
    t = time.perf_counter()
    r = subprocess.run([str(a) for a in argv], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    return time.perf_counter() - t, r.returncode, r.stderr


def peer_input(name, frames, fps, out):
    """What gifsicle is given: the corpus GIF, or ffmpeg's palettegen GIF of the frames."""
    gif = lossy_corpora.input_of(frames)
    if gif != frames:
        return gif
    made = out / f"{name}-palettegen.gif"
    if not made.exists():
        subprocess.run(lossy_corpora.FF + ["-framerate", str(fps), "-i", str(frames / "%04d.png"), "-vf",
                                           "split[a][b];[a]palettegen[p];[b][p]paletteuse", str(made)], check=True)
    return made


def corpus_files(name, base, levels, throbber, with_budget):
    """Every file of one corpus: gifsicle's at each N, ours at each ladder level (and budget)."""
    frames, fps = lossy_corpora.make(name, base / "corpora")
    out = base / "out" / name
    out.mkdir(parents=True, exist_ok=True)
    given = lossy_corpora.input_of(frames)
    peer_in = peer_input(name, frames, fps, out)
    files = []
    for n in levels:
        path = out / f"gifsicle-{n}.gif"
        wall, rc, err = run(["gifsicle", "-O3", f"--lossy={n}", peer_in, "-o", path])
        if rc != 0:
            raise SystemExit(f"gifsicle failed on {name}: {err}")
        files.append({"who": "gifsicle", "n": n, "path": str(path), "wall": wall})
    for level in LADDER:
        path = out / f"throbber-lossy{level}.gif"
        wall, rc, err = run([throbber, "encode", given, "--fps", fps, "--lossy", level, "-q", "-o", path])
        if rc != 0:
            raise SystemExit(f"throbber failed on {name}: {err}")
        files.append({"who": "throbber", "setting": f"--lossy {level}", "path": str(path), "wall": wall})
    return frames, fps, files


def budget_files(name, base, frames, fps, given, throbber, peers):
    files = []
    for p in peers:
        path = base / "out" / name / f"throbber-budget-{p['n']}.gif"
        path.unlink(missing_ok=True)
        wall, rc, err = run([throbber, "encode", given, "--fps", fps, "--max-bytes", p["bytes"], "-o", path])
        if rc == 0:
            files.append({"who": "throbber", "setting": f"--max-bytes {p['bytes']}", "path": str(path),
                          "wall": wall, "budget_for": p["n"]})
    return files


def verdicts(files):
    """Per gifsicle file: our best file by PSNR at no more bytes, and the verdict."""
    rows = []
    for p in (f for f in files if f["who"] == "gifsicle"):
        ours = [f for f in files if f["who"] == "throbber" and f["bytes"] <= p["bytes"]]
        best = max(ours, key=lambda f: (f["psnr"], f["ssim"]), default=None)
        wins = [f for f in ours if f["psnr"] > p["psnr"] and f["ssim"] > p["ssim"]]
        if wins:
            best = max(wins, key=lambda f: f["bytes"])
        budget = next((f for f in files if f.get("budget_for") == p["n"]), None)
        rows.append({"peer": p, "ours": best, "budget": budget, "win": bool(wins)})
    return rows


def fmt(f):
    if f is None:
        return "none at no more bytes | | | "
    return f"{f['setting']} | {f['bytes']:,} | {gifmetrics_fmt(f['psnr'])} | {f['ssim']:.4f}"


def gifmetrics_fmt(x):
    return "∞" if x >= gifmetrics.PSNR_CAP else f"{x:.2f}"


def frame_line(name, f):
    p = np.array(f["frame_psnr"])
    med = float(np.median(p))
    return (f"| {name} | {f.get('setting') or 'gifsicle -O3 --lossy=' + str(f['n'])} | {f['bytes']:,} | "
            f"{p[0]:.2f} | {med:.2f} | {p.min():.2f} (frame {int(p.argmin())}) | {p[0] - p.min():.2f} | "
            f"{med - p.min():.2f} | {100 * max(f['stale']):.3f} % | {100 * float(np.mean(f['stale'])):.3f} % |")


def report(results, with_budget):
    lines = ["| corpus | N | gifsicle bytes | PSNR | SSIM | throbber setting | bytes | PSNR | SSIM | verdict |",
             "|---|--:|--:|--:|--:|---|--:|--:|--:|---|"]
    for name, rows, _ in results:
        for r in rows:
            p = r["peer"]
            lines.append(f"| {name} | {p['n']} | {p['bytes']:,} | {gifmetrics_fmt(p['psnr'])} | {p['ssim']:.4f} | "
                         f"{fmt(r['ours'])} | {'WIN' if r['win'] else 'LOSE'} |")
    if with_budget:
        lines += ["", "| corpus | N | `--max-bytes` at gifsicle's bytes | bytes | PSNR | SSIM |",
                  "|---|--:|---|--:|--:|--:|"]
        for name, rows, _ in results:
            for r in rows:
                lines.append(f"| {name} | {r['peer']['n']} | {fmt(r['budget'])} |")
    lines += ["", "| corpus | file | bytes | first frame dB | median | lowest | first − lowest | median − lowest | "
              "stale pixels, worst frame | mean |", "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|"]
    for name, _, files in results:
        for f in files:
            if f["who"] == "gifsicle" or f.get("setting") in ("--lossy 40", "--lossy 80", "--lossy 200"):
                lines.append(frame_line(name, f))
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", action="append")
    ap.add_argument("--levels", type=int, nargs="+", default=[40, 80, 200])
    ap.add_argument("--max-bytes", action="store_true", help="also encode with --max-bytes at each gifsicle size")
    ap.add_argument("--base", default=os.environ.get("BENCH_DIR", "/tmp/throbber-lossy-sizes"))
    ap.add_argument("--json")
    args = ap.parse_args()
    throbber = os.environ.get("THROBBER", str(bench.ROOT / ".build/release/throbber"))
    base = Path(args.base)
    results = []
    with multiprocessing.Pool(2) as pool:
        for name in args.corpus or lossy_corpora.NAMES:
            frames, fps, files = corpus_files(name, base, args.levels, throbber, args.max_bytes)
            scores = dict(pool.map(score_job, [(f["path"], str(frames), fps) for f in files]))
            for f in files:
                f.update(scores[f["path"]])
            if args.max_bytes:
                extra = budget_files(name, base, frames, fps, lossy_corpora.input_of(frames), throbber,
                                     [f for f in files if f["who"] == "gifsicle"])
                scores = dict(pool.map(score_job, [(f["path"], str(frames), fps) for f in extra]))
                for f in extra:
                    f.update(scores[f["path"]])
                files += extra
            results.append((name, verdicts(files), files))
            print(f"lossy sizes: {name} done", file=sys.stderr, flush=True)
    print(report(results, args.max_bytes))
    if args.json:
        Path(args.json).write_text(json.dumps([{"corpus": n, "files": f} for n, _, f in results], indent=1))


if __name__ == "__main__":
    main()
