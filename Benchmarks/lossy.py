"""Lossy LZW and byte budgets (issue #12): `Benchmarks/run-lossy`.

For each corpus (ffmpeg lavfi frames, as Benchmarks/run makes them):

- time: throbber's default encode against `--lossy 80` and against
  `--max-bytes` at 50 %, 25 % and 10 % of the default size (median of
  --repeat runs, wall and user+system CPU; runs alternate);
- rate-distortion: throbber `--lossy 0 … 200` against `gifsicle -O3
  --lossy=20…200` applied to throbber's own default output (the palette
  stays, gifsicle only redoes LZW and optimisation), sizes with PSNR and
  SSIM from Benchmarks/gifmetrics.py;
- budgets: for 50/25/10 % of the default size, `--max-bytes` against the
  best file (highest PSNR) of a peer grid under the same budget: gifsicle
  -O3 --lossy 20…200 × --colors 256/128/64 on the default output.

Writes BENCH_DIR/lossy-results.md and lossy-results.json. Usage:
  THROBBER=.build/release/throbber BENCH_DIR=/tmp/throbber-lossy-bench \
    Benchmarks/run-lossy [--repeat N] [--corpus NAME] [--jobs N]
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

LOSSY = [0, 20, 40, 60, 80, 120, 160, 200]
PEER_LOSSY = [20, 40, 60, 80, 100, 120, 140, 160, 180, 200]
PEER_COLORS = [256, 128, 64]
BUDGETS = [0.5, 0.25, 0.1]
CORPORA = [c for c in bench.CORPORA if c.name.endswith("320x240")]


def timed(argv, allow=(0,)):
    """(wall s, user+system CPU s, stderr) of one run; exit statuses other
    than `allow` stop the benchmark."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as t:
        r = subprocess.run(["/usr/bin/time", "-f", "%e %U %S", "-o", t.name, *map(str, argv)],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if r.returncode not in allow:
            raise SystemExit(f"lossy bench: {' '.join(map(str, argv))} failed ({r.returncode}): {r.stderr}")
        wall, user, system = t.read().split()[-3:]
    return float(wall), float(user) + float(system), r.stderr


def score_one(job):
    path, frames_dir = job
    sources = [gifmetrics.load_rgb(f) for f in bench.frame_files(Path(frames_dir))]
    s = gifmetrics.score(path, sources, bench.FPS)
    return path, s["psnr"], s["ssim"]


def run_corpus(c, base, throbber, repeat, jobs):
    frames = bench.make_corpus(c, base / "corpora")
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
        chose = next((line for line in err.splitlines() if line.startswith("--max-bytes")), "") if fits else \
            "does not fit: " + err.strip().replace("throbber: error: ", "")
        budgets.append({"fraction": frac, "budget": b, "path": str(path) if fits else None,
                        "bytes": path.stat().st_size if fits else None,
                        "chose": chose, "wall": statistics.median(r[0] for r in runs),
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

    # Peers: gifsicle -O3 on our default output.
    peers = []
    for colors in PEER_COLORS:
        for level in PEER_LOSSY:
            path = out / f"gifsicle-{colors}-{level}.gif"
            argv = [bench.GIFSICLE, "-O3", f"--lossy={level}"] + (["--colors", str(colors)] if colors < 256 else [])
            subprocess.run(argv + [str(default), "-o", str(path)], check=True)
            peers.append({"colors": colors, "lossy": level, "path": str(path), "bytes": path.stat().st_size})

    paths = [r["path"] for r in ours + peers + budgets if r["path"]]
    with multiprocessing.Pool(jobs) as pool:
        scores = {p: (ps, ss) for p, ps, ss in pool.map(score_one, [(p, str(frames)) for p in paths])}
    for r in ours + peers + budgets:
        r["psnr"], r["ssim"] = scores.get(r["path"], (float("nan"), float("nan")))
    for b in budgets:
        under = [p for p in peers if p["bytes"] <= b["budget"]]
        b["peer"] = max(under, key=lambda p: (p["psnr"], p["ssim"])) if under else None

    def med(key, i):
        return statistics.median(t[i] for t in times[key])

    rows.update(default_bytes=size0, default_wall=med("default", 0), default_cpu=med("default", 1),
                lossy80_wall=med("lossy80", 0), lossy80_cpu=med("lossy80", 1), ours=ours, peers=peers,
                budgets=budgets)
    return rows


def fmt(x, digits=2):
    return "n/a" if x != x else ("∞" if x >= gifmetrics.PSNR_CAP else f"{x:.{digits}f}")


def markdown(results, env):
    lines = [f"Measured {env['date']} with `{env['throbber']}` ({env['commit']}), gifsicle {env['gifsicle']}, "
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
                  "Our curve (`--lossy N`, default palette) and gifsicle -O3 `--lossy=N` on our default output:", "",
                  "| setting | bytes | % of default | PSNR dB | SSIM |", "|---|---|---|---|---|"]
        for o in r["ours"]:
            lines.append(f"| throbber --lossy {o['lossy']} | {o['bytes']:,} | {100 * o['bytes'] / r['default_bytes']:.1f} | "
                         f"{fmt(o['psnr'])} | {fmt(o['ssim'], 5)} |")
        for p in r["peers"]:
            if p["colors"] == 256:
                lines.append(f"| gifsicle -O3 --lossy={p['lossy']} | {p['bytes']:,} | "
                             f"{100 * p['bytes'] / r['default_bytes']:.1f} | {fmt(p['psnr'])} | {fmt(p['ssim'], 5)} |")
        lines += ["", "Budgets (`--max-bytes` against the best gifsicle -O3 --lossy 20…200 × --colors 256/128/64 "
                  "file under the same budget):", "",
                  "| budget | throbber bytes | % of budget | PSNR | SSIM | chose | best peer | peer bytes | peer PSNR | "
                  "peer SSIM |", "|---|---|---|---|---|---|---|---|---|---|"]
        for b in r["budgets"]:
            p = b["peer"]
            peer = (f"gifsicle --lossy={p['lossy']} --colors {p['colors']} | {p['bytes']:,} | {fmt(p['psnr'])} | "
                    f"{fmt(p['ssim'], 5)}") if p else "none fits | | |"
            chose = re.sub(r"^--max-bytes \d+: ", "", b["chose"])
            size = f"{b['bytes']:,} | {100 * b['bytes'] / b['budget']:.1f}" if b["bytes"] else "none | "
            lines.append(f"| {int(b['fraction'] * 100)} % = {b['budget']:,} | {size} | {fmt(b['psnr'])} | {fmt(b['ssim'], 5)} | {chose} | "
                         f"{peer} |")
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--corpus", action="append", choices=[c.name for c in CORPORA])
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args()
    bench.FFMPEG = bench.tool_path("FFMPEG", "ffmpeg")
    bench.GIFSICLE = bench.tool_path("GIFSICLE", "gifsicle")
    repo = Path(__file__).resolve().parent.parent
    throbber = os.environ.get("THROBBER", str(repo / ".build/release/throbber"))
    base = bench.safe_work_dir(os.environ.get("BENCH_DIR", "/tmp/throbber-lossy-bench"))
    commit = subprocess.run(["git", "-C", str(repo), "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    env = {"date": subprocess.run(["date", "-u", "+%Y-%m-%d %H:%M UTC"], capture_output=True, text=True).stdout.strip(),
           "throbber": throbber, "commit": commit, "cpus": os.cpu_count(), "load": " ".join(bench.loadavg()),
           "gifsicle": bench.first_line([bench.GIFSICLE, "--version"]).split()[-1]}
    results = []
    for c in CORPORA:
        if args.corpus and c.name not in args.corpus:
            continue
        print(f"lossy bench: {c.name}", file=sys.stderr)
        results.append(run_corpus(c, base, throbber, args.repeat, args.jobs))
    md = markdown(results, env)
    (base / "lossy-results.md").write_text(md)
    (base / "lossy-results.json").write_text(json.dumps({"env": env, "corpora": results}, indent=1))
    print(md)


if __name__ == "__main__":
    main()
