"""Lossy LZW and byte budgets (issue #12): `Benchmarks/run-lossy`.

For each corpus (ffmpeg lavfi frames, as Benchmarks/run makes them, and
the two screen recordings of Benchmarks/screencast.py, as the speed suite
names them):

- time: throbber's default encode against `--lossy 80` and against
  `--max-bytes` at 50 %, 25 % and 10 % of the default size (median of
  --repeat runs, wall and user+system CPU; runs alternate);
- rate-distortion: our curve, throbber `--quality Q --lossy N` (the
  default quality and 80/60/40/20/10, lossy 0 … 200; and 10/5/3/2 with
  `--dither 0`, lossy 0 and 200), against three peers:
  `gifsicle -O3 --lossy=20…200` (× `--colors 256/128/64`) applied to
  throbber's own default output (the palette stays, gifsicle only redoes
  LZW and optimisation); the gifski recipe, each frame quantized by
  pngquant (`--quality 0-90` and `0-70`) and the frames assembled by
  `gifsicle -O3 --lossy=N`; and ffmpeg's `palettegen` (`max_colors` 256 …
  32) with `paletteuse`. Sizes with PSNR and SSIM from
  Benchmarks/gifmetrics.py; a peer file is *dominated* when one of ours is
  no larger with PSNR and SSIM no lower (the issue's R-D target);
- budgets: for 50/25/10 % of the default size, `--max-bytes` against the
  best file (highest PSNR) that any peer above wrote under the same budget;
- at a peer's size: `--max-bytes` at the size of one file of each peer
  family against that file (Benchmarks/lossy_peer.py);
- a plot per corpus (matplotlib): bytes against PSNR and against SSIM, our
  curves and every peer's points, written to --plots (docs/plots for
  docs/benchmarks.md).

Writes BENCH_DIR/lossy-results.md and lossy-results.json. Usage:
  THROBBER=.build/release/throbber BENCH_DIR=/tmp/throbber-lossy-bench \
    Benchmarks/run-lossy [--repeat N] [--corpus NAME] [--jobs N] [--plots DIR] [--small]
"""

import argparse
import json
import multiprocessing
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import bench
import gifmetrics
import lossy_peer

# Level 10 and 30: at 16 x level (since 43f54a8) the curve's first steps
# are long (mandelbrot: 4.54 MB at 0, 2.70 MB at 20).
# 50 and 70: the light levels are where gifsicle's --lossy on our output
# comes closest (testsrc2).
LOSSY = [0, 10, 20, 30, 40, 50, 60, 70, 80, 120, 160, 200]
# The other qualities of our curve, each at fewer lossy levels; 20 and 10
# reach the sizes of the peers' 128- and 64-color files.
QUALITIES = [80, 60, 40, 20, 10]
QUALITY_LOSSY = [0, 40, 80, 120, 200]
# Few colors without dithering (as the --max-bytes ladder uses them from 64
# colors down): dither noise costs more bytes than it gains PSNR there, and
# these reach below the peers' 64-color files.
UNDITHERED_QUALITIES = [10, 5, 3, 2]
UNDITHERED_LOSSY = [0, 200]
PEER_LOSSY = [20, 40, 60, 80, 100, 120, 140, 160, 180, 200]
PEER_COLORS = [256, 128, 64]
# The gifski recipe: pngquant per frame at these quality ceilings, then
# gifsicle -O3 at these lossy levels.
PNGQUANT_QUALITIES = [90, 70]
PNGQUANT_LOSSY = [0, 40, 80, 120, 200]
FFMPEG_COLORS = [256, 128, 64, 32]
BUDGETS = [0.5, 0.25, 0.1]
CORPORA = [c for c in bench.CORPORA if c.name.endswith("320x240")] + lossy_peer.SCREENCASTS
# --small (`make bench QUICK=1`): a sparser curve and peer grid with the same
# end points, so a run takes minutes instead of a quarter of an hour.
SMALL = {"LOSSY": [0, 80, 200], "QUALITIES": [20], "QUALITY_LOSSY": [0, 200],
         "UNDITHERED_QUALITIES": [5], "PEER_LOSSY": [80, 200], "PEER_COLORS": [256, 64],
         "PNGQUANT_QUALITIES": [90], "PNGQUANT_LOSSY": [0, 80], "FFMPEG_COLORS": [256, 64]}


def timed(argv, allow=(0,)):
    """(wall s, user+system CPU s, stderr) of one run; exit statuses other
    than `allow` stop the benchmark."""
    with tempfile.TemporaryFile("w+") as err:
        rc, wall, _, cpu = bench.run_measured(argv, stderr=err)
        err.seek(0)
        text = err.read()
    if rc not in allow:
        raise SystemExit(f"lossy bench: {' '.join(map(str, argv))} failed ({rc}): {text}")
    return wall, cpu, text


def run_corpus(c, base, throbber, repeat, jobs):
    frames = lossy_peer.make_frames(c, base / "corpora")
    out = base / "out" / c.name
    out.mkdir(parents=True, exist_ok=True)
    enc = [throbber, "encode", str(frames), "--fps", str(bench.FPS), "-q", "-o"]
    default = out / "default.gif"
    rows = {"name": c.name, "spec": c.spec, "frames": c.frames}

    # Time: default and --lossy 80, alternating.
    times = {"default": [], "lossy80": []}
    for _ in range(repeat):
        times["default"].append(timed(enc + [default]))
        times["lossy80"].append(timed(enc + [out / "lossy-80.gif", "--lossy", "80"]))
    size0 = default.stat().st_size

    # Budgets: --max-bytes at fractions of the default size.
    budgets = []
    for frac in BUDGETS:
        b = int(size0 * frac)
        path = out / f"budget-{int(frac * 100)}.gif"
        runs = []
        for _ in range(repeat):
            path.unlink(missing_ok=True)
            wall, cpu, err = timed([throbber, "encode", str(frames), "--fps", str(bench.FPS), "-o", path,
                                    "--max-bytes", str(b)], allow=(0, 65))
            runs.append((wall, cpu))
        fits = path.exists()
        budgets.append({"fraction": frac, "budget": b, "path": str(path) if fits else None,
                        "bytes": path.stat().st_size if fits else None,
                        "chose": lossy_peer.choice(err, fits), "wall": statistics.median(r[0] for r in runs),
                        "cpu": statistics.median(r[1] for r in runs)})

    # Our curve.
    ours = []
    for level in LOSSY:
        path = out / f"lossy-{level}.gif"
        if level == 0:
            path = default
        elif level != 80:
            subprocess.run(enc + [path, "--lossy", str(level)], check=True)
        ours.append({"lossy": level, "path": str(path), "bytes": path.stat().st_size})

    for q in QUALITIES:
        for level in QUALITY_LOSSY:
            path = out / f"q{q}-lossy-{level}.gif"
            subprocess.run(enc + [path, "--quality", str(q), "--lossy", str(level)], check=True)
            ours.append({"quality": q, "lossy": level, "path": str(path), "bytes": path.stat().st_size})

    for q in UNDITHERED_QUALITIES:
        for level in UNDITHERED_LOSSY:
            path = out / f"q{q}-dither0-lossy-{level}.gif"
            subprocess.run(enc + [path, "--quality", str(q), "--dither", "0", "--lossy", str(level)], check=True)
            ours.append({"quality": q, "dither": 0, "lossy": level, "path": str(path),
                         "bytes": path.stat().st_size})

    # Peers: gifsicle -O3 on our default output.
    peers = []
    for colors in PEER_COLORS:
        for level in PEER_LOSSY:
            path = out / f"gifsicle-{colors}-{level}.gif"
            argv = [bench.GIFSICLE, "-O3", f"--lossy={level}"] + (["--colors", str(colors)] if colors < 256 else [])
            subprocess.run(argv + [str(default), "-o", str(path)], check=True)
            peers.append({"family": "gifsicle", "colors": colors, "lossy": level, "path": str(path),
                          "bytes": path.stat().st_size,
                          "label": f"gifsicle -O3 --lossy={level}" + (f" --colors {colors}" if colors < 256 else "")})
    peers += gifski_recipe(frames, out)
    peers += ffmpeg_palettegen(frames, out, lossy_peer.pattern(c))

    paths = [r["path"] for r in ours + peers + budgets if r["path"]]
    with multiprocessing.Pool(jobs) as pool:
        scores = {p: (ps, ss) for p, ps, ss in pool.map(lossy_peer.score_one, [(p, str(frames)) for p in paths])}
        for r in ours + peers + budgets:
            r["psnr"], r["ssim"] = scores.get(r["path"], (float("nan"), float("nan")))
        rows["at_peer"] = lossy_peer.at_peer_sizes(c, frames, out, throbber, peers, repeat, pool)
    for b in budgets:
        under = [p for p in peers if p["bytes"] <= b["budget"]]
        b["peer"] = max(under, key=lambda p: (p["psnr"], p["ssim"])) if under else None
    for p in peers:
        d = dominated(p, ours)
        p["dominated_by"] = our_label(d) if d else None

    def med(key, i):
        return statistics.median(t[i] for t in times[key])

    rows.update(default_bytes=size0, default_wall=med("default", 0), default_cpu=med("default", 1),
                lossy80_wall=med("lossy80", 0), lossy80_cpu=med("lossy80", 1), ours=ours, peers=peers,
                budgets=budgets)
    return rows


def gifski_recipe(frames, out):
    """Each frame quantized alone by pngquant (libimagequant, as gifski),
    written as a GIF with that palette by Pillow, assembled by gifsicle."""
    from PIL import Image
    peers = []
    delay = str(round(100 / bench.FPS))
    for q in PNGQUANT_QUALITIES:
        d = out / f"pngquant-{q}"
        d.mkdir(exist_ok=True)
        gifs = []
        for f in bench.frame_files(Path(frames)):
            png = d / Path(f).name
            subprocess.run(["pngquant", "--force", "--quality", f"0-{q}", "--output", str(png), f], check=True)
            gif = png.with_suffix(".gif")
            with Image.open(png) as im:
                im.save(gif, optimize=False)
            gifs.append(str(gif))
        for level in PNGQUANT_LOSSY:
            path = out / f"pngquant-{q}-gifsicle-{level}.gif"
            subprocess.run([bench.GIFSICLE, "-O3", f"--lossy={level}", "--delay", delay, "--loopcount=forever",
                            *gifs, "-o", str(path)], check=True)
            peers.append({"family": "pngquant+gifsicle", "colors": 256, "lossy": level, "quality": q,
                          "path": str(path), "bytes": path.stat().st_size,
                          "label": f"pngquant --quality 0-{q} + gifsicle -O3 --lossy={level}"})
    return peers


def ffmpeg_palettegen(frames, out, pattern):
    """ffmpeg's two-pass palette: one palette for the clip, dithered."""
    peers = []
    for colors in FFMPEG_COLORS:
        path = out / f"ffmpeg-{colors}.gif"
        graph = f"split[a][b];[a]palettegen=max_colors={colors}[p];[b][p]paletteuse"
        subprocess.run([bench.FFMPEG, "-v", "error", "-y", "-framerate", str(bench.FPS), "-i",
                        str(Path(frames) / pattern), "-vf", graph, "-loop", "0", str(path)], check=True)
        peers.append({"family": "ffmpeg", "colors": colors, "lossy": 0, "path": str(path),
                      "bytes": path.stat().st_size, "label": f"ffmpeg palettegen max_colors={colors}"})
    return peers


def dominated(peer, ours):
    """One of ours no larger, with PSNR and SSIM no lower, or None."""
    fits = [o for o in ours if o["bytes"] <= peer["bytes"] and o["psnr"] >= peer["psnr"] and o["ssim"] >= peer["ssim"]]
    return min(fits, key=lambda o: o["bytes"]) if fits else None


def our_label(o):
    return ("throbber" + (f" --quality {o['quality']}" if o.get("quality") else "")
            + (" --dither 0" if o.get("dither") == 0 else "") + f" --lossy {o['lossy']}")


def plot(r, directory):
    """bytes against PSNR and SSIM: our curves, every peer's points."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.8), dpi=100)
    cap = gifmetrics.PSNR_CAP
    for ax, key, name in ((axes[0], "psnr", "PSNR dB"), (axes[1], "ssim", "SSIM")):
        for q in [None] + QUALITIES:
            pts = sorted((o["bytes"] / 1e3, min(o[key], cap)) for o in r["ours"]
                         if o.get("quality") == q and o.get("dither") is None)
            ax.plot(*zip(*pts), "-o", ms=4, lw=1.5, label=f"throbber --quality {q or 'default'} --lossy 0…200")
        pts = sorted((o["bytes"] / 1e3, min(o[key], cap)) for o in r["ours"] if o.get("dither") == 0)
        if pts:
            ax.plot(*zip(*pts), "-o", ms=4, lw=1.5,
                    label=f"throbber --quality {'/'.join(map(str, UNDITHERED_QUALITIES))} --dither 0 --lossy 0, 200")
        styles = {("gifsicle", 256): ("s", "tab:red"), ("gifsicle", 128): ("s", "tab:orange"),
                  ("gifsicle", 64): ("s", "tab:brown"), ("pngquant+gifsicle", 90): ("^", "tab:purple"),
                  ("pngquant+gifsicle", 70): ("^", "tab:pink"), ("ffmpeg", None): ("D", "tab:gray")}
        names = {("gifsicle", 256): "gifsicle -O3 --lossy on ours", ("gifsicle", 128): "… --colors 128",
                 ("gifsicle", 64): "… --colors 64", ("pngquant+gifsicle", 90): "pngquant 0-90 + gifsicle --lossy",
                 ("pngquant+gifsicle", 70): "pngquant 0-70 + gifsicle --lossy",
                 ("ffmpeg", None): "ffmpeg palettegen 256…32"}
        for (family, sub), (marker, color) in styles.items():
            pts = [(p["bytes"] / 1e3, min(p[key], cap)) for p in r["peers"] if p["family"] == family and
                   (sub is None or p.get("quality", p["colors"]) == sub)]
            if pts:
                ax.scatter(*zip(*pts), marker=marker, s=28, color=color, alpha=0.8, label=names[(family, sub)])
        fits = [(b["bytes"] / 1e3, min(b[key], cap)) for b in r["budgets"] if b["bytes"]]
        if fits:
            ax.scatter(*zip(*fits), marker="*", s=140, color="black", label="throbber --max-bytes 50/25/10 %")
        ax.set_xlabel("kB (10³ bytes)")
        ax.set_ylabel(name)
        ax.grid(alpha=0.3)
    axes[0].legend(fontsize=7, loc="lower right")
    fig.suptitle(f"{r['name']}, {r['frames']} frames: bytes against quality (up and left is better)")
    fig.tight_layout()
    path = Path(directory) / f"lossy-{r['name']}.png"
    fig.savefig(path)
    plt.close(fig)
    return path


def fmt(x, digits=2):
    return "n/a" if x != x else ("∞" if x >= gifmetrics.PSNR_CAP else f"{x:.{digits}f}")


def markdown(results, env):
    lines = [f"Measured {env['date']} with `{env['throbber']}` ({env['commit']}), gifsicle {env['gifsicle']}, "
             f"pngquant {env['pngquant']}, ffmpeg {env['ffmpeg']}, "
             f"{env['cpus']} cores, load average at start {env['load']}.", ""]
    lines += ["| corpus | default | `--lossy 80` | ratio (wall / CPU) | `--max-bytes` 50 % | 25 % | 10 % | "
              "worst ratio (wall / CPU) |", "|---|---|---|---|---|---|---|---|"]
    for r in results:
        b = r["budgets"]
        worst_wall = max(x["wall"] for x in b) / r["default_wall"]
        worst_cpu = max(x["cpu"] for x in b) / r["default_cpu"]
        lines.append(
            f"| {r['name']} | {r['default_wall']:.2f} s ({r['default_cpu']:.2f} CPU s) | "
            f"{r['lossy80_wall']:.2f} s ({r['lossy80_cpu']:.2f}) | "
            f"{r['lossy80_wall'] / r['default_wall']:.2f}× / {r['lossy80_cpu'] / r['default_cpu']:.2f}× | "
            + " | ".join(f"{x['wall']:.2f} s ({x['cpu']:.2f})" for x in b)
            + f" | {worst_wall:.2f}× / {worst_cpu:.2f}× |")
    for r in results:
        lines += ["", f"#### {r['name']}: {r['frames']} frames, `{r['spec']}`", "",
                  "Our curve (`--quality Q --lossy N`) and the peers' files:", "",
                  "| setting | bytes | % of default | PSNR dB | SSIM |", "|---|---|---|---|---|"]
        for o in r["ours"]:
            if o.get("quality"):
                continue
            lines.append(f"| throbber --lossy {o['lossy']} | {o['bytes']:,} | {100 * o['bytes'] / r['default_bytes']:.1f} | "
                         f"{fmt(o['psnr'])} | {fmt(o['ssim'], 5)} |")
        for o in r["ours"]:
            if o.get("quality"):
                lines.append(f"| {our_label(o)} | {o['bytes']:,} | {100 * o['bytes'] / r['default_bytes']:.1f} | "
                             f"{fmt(o['psnr'])} | {fmt(o['ssim'], 5)} |")
        for p in r["peers"]:
            if p["family"] != "gifsicle" or p["colors"] == 256:
                lines.append(f"| {p['label']} | {p['bytes']:,} | "
                             f"{100 * p['bytes'] / r['default_bytes']:.1f} | {fmt(p['psnr'])} | {fmt(p['ssim'], 5)} |")
        beaten = [p for p in r["peers"] if p["dominated_by"]]
        lines += ["", f"R-D: **{len(beaten)} of {len(r['peers'])}** peer files are dominated (one of ours no "
                  "larger, PSNR and SSIM no lower). Not dominated:" if len(beaten) < len(r["peers"]) else
                  f"R-D: **all {len(r['peers'])}** peer files are dominated (one of ours no larger, PSNR and SSIM "
                  "no lower)."]
        for p in r["peers"]:
            if not p["dominated_by"]:
                lines.append(f"- {p['label']}: {p['bytes']:,} B, {fmt(p['psnr'])} dB, SSIM {fmt(p['ssim'], 5)}")
        if r.get("plot"):
            lines += ["", f"![{r['name']}: bytes against PSNR and SSIM]({r['plot']})"]
        lines += ["", "Budgets (`--max-bytes` against the best peer file above, of any family, under the same "
                  "budget):", "",
                  "| budget | throbber bytes | % of budget | PSNR | SSIM | chose | best peer | peer bytes | peer PSNR | "
                  "peer SSIM |", "|---|---|---|---|---|---|---|---|---|---|"]
        for b in r["budgets"]:
            p = b["peer"]
            peer = (f"{p['label']} | {p['bytes']:,} | {fmt(p['psnr'])} | "
                    f"{fmt(p['ssim'], 5)}") if p else "none fits | | |"
            chose = re.sub(r"^--max-bytes \d+: ", "", b["chose"])
            size = f"{b['bytes']:,} | {100 * b['bytes'] / b['budget']:.1f}" if b["bytes"] else "none | "
            lines.append(f"| {int(b['fraction'] * 100)} % = {b['budget']:,} | {size} | {fmt(b['psnr'])} | {fmt(b['ssim'], 5)} | {chose} | "
                         f"{peer} |")
    lines += lossy_peer.markdown(results, fmt)
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--corpus", action="append", choices=[c.name for c in CORPORA])
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--plots", help="folder for the plots (default BENCH_DIR; docs/plots for docs/benchmarks.md)")
    ap.add_argument("--small", action="store_true", help="a sparser curve and peer grid (make bench QUICK=1)")
    args = ap.parse_args()
    if args.small:
        globals().update(SMALL)
    bench.FFMPEG = bench.tool_path("FFMPEG", "ffmpeg")
    bench.GIFSICLE = bench.tool_path("GIFSICLE", "gifsicle")
    repo = Path(__file__).resolve().parent.parent
    throbber = os.environ.get("THROBBER", str(repo / ".build/release/throbber"))
    base = bench.safe_work_dir(os.environ.get("BENCH_DIR", "/tmp/throbber-lossy-bench"))
    commit = subprocess.run(["git", "-C", str(repo), "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    env = {"date": subprocess.run(["date", "-u", "+%Y-%m-%d %H:%M UTC"], capture_output=True, text=True).stdout.strip(),
           "throbber": throbber, "commit": commit, "cpus": os.cpu_count(), "load": " ".join(bench.loadavg()),
           "gifsicle": bench.first_line([bench.GIFSICLE, "--version"]).split()[-1],
           "pngquant": bench.first_line(["pngquant", "--version"]).split()[0],
           "ffmpeg": bench.first_line([bench.FFMPEG, "-version"]).split()[2]}
    results = []
    for c in CORPORA:
        if args.corpus and c.name not in args.corpus:
            continue
        print(f"lossy bench: {c.name}", file=sys.stderr)
        r = run_corpus(c, base, throbber, args.repeat, args.jobs)
        plots = Path(args.plots or base)
        plots.mkdir(parents=True, exist_ok=True)
        path = plot(r, plots)
        r["plot"] = os.path.relpath(path, repo / "docs") if args.plots else str(path)
        results.append(r)
    md = markdown(results, env)
    (base / "lossy-results.md").write_text(md)
    (base / "lossy-results.json").write_text(json.dumps({"env": env, "corpora": results}, indent=1))
    print(md)


if __name__ == "__main__":
    main()
