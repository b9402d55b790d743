"""Throbber's Lottie input against the converters people use (issue #13).
Run it via Benchmarks/run-lottie.

For every loader in ../shared/fixtures/lottie-android (or LOTTIE_DIR), a GIF
is made by:

- throbber: `throbber encode F.json -o out.gif -q --matte white`, and `--quality 100…40`
  for the curve (in-between qualities where two curve points straddle a
  peer's size); for files over 50 fps also `--fps 50` (GIF's fastest rate,
  what rlottie-python uses) with the same curve;
- rlottie-python (PyPI `rlottie-python`, its bundled rlottie and Pillow's GIF
  writer): `LottieAnimation.from_file(F).save_animation(out.gif)`;
- python-lottie (PyPI `lottie` with `cairosvg`): `lottie_convert.py F out.gif`
  (its own SVG renderer through cairo);
- pyrlottie (PyPI `pyrlottie`: rlottie's `lottie2gif` example, bundled):
  `convSingleLottie(LottieFile(F), {out.gif}, backgroundColour="ffffff")`
  (it has no transparent output; white is the page the others are scored on).

Files larger than MAX_SIDE (256 px) on a side are converted at that size by
every tool (loaders are shown small; each tool's own size option).

The peers live in a virtual environment made on first use under
$BENCH_DIR/venv with pinned versions (PEERS below). Every GIF is decoded with
Pillow, composited on white (the page a transparent GIF sits on), lined up
on the file's own frame grid (a viewer shows at the middle of Lottie frame k,
time (k + 0.5)/fr, whatever frame the GIF has then) and scored against
rlottie's own frames (Debian's librlottie through Tests/tools/rlottie_render.py,
ctypes, no Throbber code) composited on white: mean PSNR over RGB and mean
luma SSIM (gifmetrics.py). Times are medians of --repeat interleaved runs
under /usr/bin/time, as bench.py does (its helpers are imported).

Targets (issue #13): at each peer's output size some throbber setting is no
larger with PSNR and SSIM no lower, and throbber's default is faster than
every peer. Results go to $BENCH_DIR (default /tmp/throbber-lottie-bench):
out/, logs/, results.md and results.json.
"""

import argparse
import json
import math
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
from PIL import Image

import bench
import gifmetrics
from bench import Run, fmt_psnr, log, loadavg, median

sys.path.insert(0, str(bench.ROOT / "Tests" / "tools"))
import rlottie_render  # noqa: E402

QUALITIES = [100, 90, 80, 70, 60, 50, 40]
# The page every GIF is scored on is white, so throbber is told so, as a
# user putting a loader on a white page would: soft edges are blended onto
# white (the GIF stays transparent where the animation is). pyrlottie is
# given the same white as its background.
MATTE = ["--matte", "white"]
# Loaders are shown small: a file larger than this on a side is converted
# by every tool at a size no larger, with the file's exact aspect ratio
# (output_size).
MAX_SIDE = 256
PEERS = ["rlottie-python==1.3.8", "lottie==0.7.2", "cairosvg==2.9.1", "pyrlottie==2024.0.1"]
PEER_NAMES = ("rlottie-python", "python-lottie", "pyrlottie")
WHITE = np.array([255, 255, 255], dtype=np.float64)


def venv(base):
    """The peers' Python, made on first use (pip from PyPI)."""
    d = base / "venv"
    py = d / "bin" / "python"
    stamp = d / ".peers"
    if py.exists() and stamp.exists() and stamp.read_text() == " ".join(PEERS):
        return py
    log(f"lottie: making {d} with {' '.join(PEERS)}")
    subprocess.run(["/usr/bin/python3", "-m", "venv", "--clear", str(d)], check=True)
    subprocess.run([str(py), "-m", "pip", "install", "-q", *PEERS], check=True)
    # pyrlottie's wheel ships its lottie2gif without the execute bit.
    for exe in d.glob("lib/python*/site-packages/pyrlottie/linux_*/*"):
        exe.chmod(0o755)
    stamp.write_text(" ".join(PEERS))
    return py


def on_white(rgba):
    """Straight RGBA (HxWx4 uint8) over white, rounded, as RGB uint8."""
    a = rgba[..., 3:4].astype(np.float64) / 255.0
    return np.rint(rgba[..., :3] * a + WHITE * (1 - a)).astype(np.uint8)


def references(path, w, h):
    """rlottie's frames of `path` at its own size, on white, and its frame rate."""
    anim = rlottie_render.load(str(path))
    total = int(rlottie_render.LIB.lottie_animation_get_totalframe(anim))
    fr = float(rlottie_render.LIB.lottie_animation_get_framerate(anim))
    rlottie_render.LIB.lottie_animation_destroy(anim)
    frames = []
    for k in range(total):
        a = rlottie_render.load(str(path))  # a fresh object per frame, as the tool explains
        frames.append(on_white(np.asarray(rlottie_render.render(a, k, w, h))))
        rlottie_render.LIB.lottie_animation_destroy(a)
    return frames, fr


def decode_on_white(path):
    """A GIF's frames as a viewer shows them on a white page, with start times (ms)."""
    frames, starts, t = [], [], 0
    with Image.open(path) as im:
        for i in range(im.n_frames):
            im.seek(i)
            frames.append(on_white(np.asarray(im.convert("RGBA"))))
            starts.append(t)
            d = im.info.get("duration", 0) or 0
            t += d if d >= 20 else 100  # browsers show delays under 2 cs as 10 cs
    return frames, starts, t


def score(path, refs, fr):
    frames, starts, total = decode_on_white(path)
    shown = gifmetrics.align(starts, total, len(refs), fr)
    psnrs, ssims = [], []
    for k, ref in enumerate(refs):
        out = frames[shown[k]]
        if out.shape != ref.shape:
            return {"frames": len(frames), "duration_ms": total, "psnr": float("nan"), "ssim": float("nan"),
                    "size_mismatch": True}
        psnrs.append(gifmetrics.psnr(out, ref))
        ssims.append(1.0 if np.array_equal(out, ref) else gifmetrics.ssim(out, ref))
    return {"frames": len(frames), "duration_ms": total, "psnr": float(np.mean(psnrs)),
            "ssim": float(np.mean(ssims)), "size_mismatch": False}


def output_size(w, h):
    """(W, H, scale) every tool renders at: the file's size, or at most
    MAX_SIDE on the longer side with exactly the file's aspect ratio (the
    largest whole multiple of its reduced w:h), so that no tool pads or
    stretches. pyrlottie computes each side as int(side * scale): the scale
    is nudged up by 1e-9 so that float rounding cannot lose a pixel."""
    if max(w, h) <= MAX_SIDE:
        return w, h, 1
    g = math.gcd(w, h)
    k = max(1, MAX_SIDE // (max(w, h) // g))
    W, H = k * (w // g), k * (h // g)
    return W, H, W / w + 1e-9


def runs_for(path, out, py, size, fr):
    f = str(path)
    W, H, scale = size
    sized = [] if scale == 1 else ["--width", W, "--height", H]

    def throbber(dest, *extra):
        return [bench.THROBBER, "encode", f, "-o", dest, "-q", *MATTE, *sized, *extra]

    runs = [Run("throbber", throbber(out / "throbber.gif"), out / "throbber.gif", "throbber")]
    for q in QUALITIES:
        p = out / f"throbber-q{q}.gif"
        runs.append(Run(f"throbber --quality {q}", throbber(p, "--quality", q), p, "curve", quality=q))
    if fr > 50:
        # GIF's fastest rate, as rlottie-python uses: more frames shown than
        # the default exact sub-rate (60 → 30 fps), at the cost of uneven
        # steps (a setting a user can choose; scored like the rest).
        for q in [None, *QUALITIES]:
            p = out / f"throbber-fps50{'' if q is None else f'-q{q}'}.gif"
            extra = ["--fps", 50] + ([] if q is None else ["--quality", q])
            runs.append(Run("throbber --fps 50" + ("" if q is None else f" --quality {q}"), throbber(p, *extra), p,
                            "alt", quality=q))
    p = out / "rlottie-python.gif"
    runs.append(Run("rlottie-python", [py, "-c", "import sys; from rlottie_python import LottieAnimation; "
                                       "LottieAnimation.from_file(sys.argv[1]).save_animation(sys.argv[2]"
                                       + ("" if scale == 1 else f", width={W}, height={H}") + ")", f, p],
                    p, "peer"))
    p = out / "python-lottie.gif"
    runs.append(Run("python-lottie", [py, Path(py).parent / "lottie_convert.py", f, p,
                                      *([] if scale == 1 else ["--width", W, "--height", H])], p, "peer"))
    p = out / "pyrlottie.gif"
    runs.append(Run("pyrlottie", [py, "-c", "import asyncio, sys, pyrlottie; asyncio.run(pyrlottie.convSingleLottie("
                                  "pyrlottie.LottieFile(sys.argv[1]), {sys.argv[2]}, backgroundColour='ffffff', "
                                  f"scale={scale!r}))", f, p], p, "peer"))
    return runs


def bench_file(path, base, repeat, py):
    name = path.stem
    out = base / "out" / name
    out.mkdir(parents=True, exist_ok=True)
    log_path = base / "logs" / f"{name}.log"
    log_path.write_text("")
    meta = json.loads(path.read_bytes())
    size = output_size(int(meta["w"]), int(meta["h"]))
    refs, fr = references(path, size[0], size[1])
    runs, failed = [], {}
    for r in runs_for(path, out, py, size, fr):
        # One untimed run first (it also warms the caches): a peer that
        # cannot convert this file is reported, not timed.
        with open(log_path, "a") as lg:
            lg.write("$ " + " ".join(map(str, r.argv)) + "\n")
            lg.flush()
            done = subprocess.run(list(map(str, r.argv)), stdout=lg, stderr=subprocess.PIPE,
                                  stdin=subprocess.DEVNULL, text=True, errors="replace")
            lg.write(done.stderr)
        if done.returncode == 0 and r.output.exists():
            runs.append(r)
        elif r.kind == "peer":
            lines = [x for x in done.stderr.strip().splitlines() if x.strip()]
            failed[r.name] = f"exit {done.returncode}: {lines[-1].strip() if lines else 'no output'}"
            log(f"lottie: {name}: {r.name} fails ({failed[r.name]})")
        else:
            raise SystemExit(f"lottie: {' '.join(map(str, r.argv))} failed (exit {done.returncode}), see {log_path}")
    bench.time_runs(runs, repeat, log_path, f"lottie: {name}")
    for r in runs:
        r.metrics = {**score(r.output, refs, fr), "bytes": r.output.stat().st_size}
    rows = bench.corpus_rows(runs)

    def argv_for(q, p):
        return [bench.THROBBER, "encode", str(path), "-o", p, "-q", *MATTE,
                *([] if size[2] == 1 else ["--width", size[0], "--height", size[1]]), "--quality", q]

    rows = refine(rows, argv_for, out, log_path, refs, fr)
    return {"name": name, "size": f"{meta['w']}x{meta['h']}" + ("" if size[2] == 1 else f" → {size[0]}x{size[1]}"), "fr": fr, "frames": len(refs), "rows": rows, "failed": failed}


def refine(rows, argv_for, out, log_path, refs, fr):
    """bench.refine_rows' search, scored against rlottie's frames on white."""
    def score_runs(runs):
        for r in runs:
            r.metrics = {**score(r.output, refs, fr), "bytes": r.output.stat().st_size}
    return bench.refine_rows(rows, argv_for, out, log_path, None, 1, "lottie", score=score_runs)


fits = bench._fits  # no larger, PSNR and SSIM no lower


def checks_for(result):
    rows = result["rows"]
    ours = next(r for r in rows if r["kind"] == "throbber")
    mine = [r for r in rows if r["kind"] in ("throbber", "curve", "refine", "alt")]
    out = []
    for p in [r for r in rows if r["kind"] == "peer"]:
        match = [r for r in mine if fits(r, p)]
        best = max(match, key=lambda r: (r["psnr"], -r["bytes"])) if match else None
        text = (f"{result['name']} vs {p['name']} ({p['bytes']:,} B, {fmt_psnr(p['psnr'])} dB, SSIM {p['ssim']:.5f}): "
                + (f"{best['name']} gives {best['bytes']:,} B, {fmt_psnr(best['psnr'])} dB, SSIM {best['ssim']:.5f}"
                   if best else "no throbber setting is as small and as good"))
        out.append(("quality", bool(best), text))
        out.append(("time", ours["time"] < p["time"],
                    f"{result['name']}: throbber {ours['time']:.2f} s vs {p['name']} {p['time']:.2f} s "
                    f"({ours['time'] / p['time']:.2f}x)"))
    return out


def table(result):
    L = [f"### {result['name']} ({result['size']}, {result['frames']} frames at {result['fr']:g} fps)", "",
         "| tool | frames | bytes | × throbber | PSNR dB | SSIM | wall s (median) | CPU s | peak RSS MB |",
         "|---|--:|--:|--:|--:|--:|--:|--:|--:|"]
    rows = result["rows"]
    ours = next(r for r in rows if r["kind"] == "throbber")
    order = {"throbber": 0, "peer": 1, "curve": 2, "refine": 2, "alt": 3}
    for r in sorted(rows, key=lambda r: (order[r["kind"]], -(r["quality"] or 101))):
        L.append(f"| {r['name']} | {r['frames']} | {r['bytes']:,} | {r['bytes'] / ours['bytes']:.2f} | "
                 f"{fmt_psnr(r['psnr'])} | {r['ssim']:.5f} | {r['time']:.2f} | {r['cpu']:.2f} | {r['rss_mb']:.0f} |")
    for peer, why in result["failed"].items():
        L.append(f"| {peer} | cannot convert this file ({why}) | | | | | | | |")
    return L + [""]


def main():
    ap = argparse.ArgumentParser(description="Throbber's Lottie input against rlottie-python, python-lottie "
                                             "and pyrlottie (issue #13; see docs/benchmarks.md).")
    ap.add_argument("--repeat", type=int, default=int(os.environ.get("BENCH_REPEAT", 3)))
    ap.add_argument("--retries", type=int, default=bench.RETRIES)
    ap.add_argument("--quiet-wait", type=float, default=bench.QUIET_WAIT,
                    help=f"seconds to wait for an idle machine before each timed run (default {bench.QUIET_WAIT})")
    ap.add_argument("--strict", action="store_true", help="exit 1 if any target fails")
    ap.add_argument("files", nargs="*", help="Lottie files (default: every .json in LOTTIE_DIR)")
    args = ap.parse_args()
    bench.RETRIES = args.retries
    bench.QUIET_WAIT = args.quiet_wait
    bench.THROBBER = Path(os.environ.get("THROBBER") or bench.ROOT / ".build/release/throbber").absolute()
    bench.TIME = "/usr/bin/time"
    base = bench.safe_work_dir(os.environ.get("BENCH_DIR", "/tmp/throbber-lottie-bench"))
    for sub in ("out", "logs"):
        (base / sub).mkdir(parents=True, exist_ok=True)
    src = Path(os.environ.get("LOTTIE_DIR") or bench.ROOT.parent / "shared" / "fixtures" / "lottie-android")
    files = [Path(f) for f in args.files] or sorted(src.glob("*.json"))
    if not files:
        raise SystemExit(f"lottie: no Lottie files in {src} (set LOTTIE_DIR)")
    py = venv(base)
    load_start = loadavg()
    results = [bench_file(f, base, args.repeat, py) for f in files]
    checks = [c for r in results for c in checks_for(r)]
    versions = subprocess.run([py, "-m", "pip", "freeze"], capture_output=True, text=True).stdout.split()
    L = ["# Throbber Lottie benchmark results (issue #13)", "",
         f"- throbber: {bench.first_line([bench.THROBBER, '--version'])} ({bench.THROBBER})",
         f"- rlottie (reference and throbber): {bench.dpkg_version('librlottie0-1')}",
         f"- peers: {', '.join(v for v in versions if v.split('==')[0].lower() in ('rlottie-python', 'lottie', 'cairosvg', 'pyrlottie', 'pillow'))}",
         f"- timing: median of {args.repeat} interleaved runs; {bench.NOISE['disturbed']} of {bench.NOISE['runs']} "
         f"runs disturbed and repeated; load {' '.join(load_start)} at start, {' '.join(loadavg())} at end", ""]
    for r in results:
        L += table(r)
    L += ["### Targets", ""]
    L += [f"- {'PASS' if ok else 'FAIL'} [{kind}] {text}" for kind, ok, text in checks]
    report = "\n".join(L) + "\n"
    (base / "results.md").write_text(report)
    (base / "results.json").write_text(json.dumps({"results": results, "checks": checks}, indent=1, default=str))
    print(report)
    failed = [c for c in checks if not c[1]]
    sys.exit(1 if failed and args.strict else 0)


if __name__ == "__main__":
    main()
