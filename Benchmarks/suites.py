"""Every benchmark suite in one run, then the report: `make bench`
(`make bench QUICK=1` for the short run), or directly

  THROBBER=path/to/throbber BENCH_DIR=/tmp/throbber-bench Benchmarks/run-all [--quick] [--only NAME]... [--no-report]

Each suite runs with the same THROBBER and BENCH_DIR (the frame corpora in
$BENCH_DIR/corpora are made once and shared); its machine-readable results
are copied to $BENCH_DIR/report/NAME.json (or .md for the suites that print
a table), its output to $BENCH_DIR/report/NAME.log, and the run itself
(suites, their commands, durations and throbber binary, tool versions) to
$BENCH_DIR/report/run.json (with --only, merged into the one there). Then
Benchmarks/report.py writes docs/benchmarks.md from them and prints the
headline ratios against their bounds. A suite that fails is reported as
such; the others still run.
"""

import argparse
import hashlib
import json
import os
import platform
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
LOTTIE_DIR = Path(os.environ.get("LOTTIE_DIR") or ROOT.parent / "shared" / "fixtures" / "lottie-android")


@dataclass
class Suite:
    """One harness: how the user runs it (`shown`, a command in Benchmarks/),
    the arguments of a full and of a QUICK run, and the file it leaves in
    BENCH_DIR (None: its standard output is the result)."""
    name: str
    shown: str
    full: list
    quick: list
    result: str | None = None
    quick_too: bool = True
    env: dict = field(default_factory=dict)


SUITES = [
    Suite("gif", "Benchmarks/run", ["--repeat", "3"],
          ["--repeat", "1", "--corpus", "testsrc2-320x240", "--no-refine", "--small", "--retries", "0"],
          "results.json"),
    Suite("lossy", "Benchmarks/run-lossy", ["--repeat", "3", "--plots", "docs/plots"],
          ["--repeat", "1", "--corpus", "testsrc2-320x240", "--small", "--plots", "docs/plots"],
          "lossy-results.json"),
    Suite("webp", "Benchmarks/run-webp", ["--repeat", "3", "--no-slow", "mandelbrot-320x240"],
          ["--repeat", "1", "--corpus", "testsrc2-320x240", "--no-presets", "--time-only"],
          "webp-results.json"),
    Suite("apng", "Benchmarks/apng.py", ["--repeat", "3"],
          ["--repeat", "1", "--corpus", "testsrc2-320x240", "--no-max", "testsrc2-320x240", "--no-palette"],
          "apng-results.json"),
    Suite("resize", "Benchmarks/run-resize", ["--repeat", "3"],
          ["--repeat", "1", "--no-refine", "--small", "--retries", "0"], "results.json"),
    Suite("lottie", "Benchmarks/run-lottie", ["--repeat", "3"],
          ["--repeat", "1", "--retries", "0", "--quiet-wait", "1", str(LOTTIE_DIR / "soda_loader.json"),
           str(LOTTIE_DIR / "trail_loading.json")], "results.json"),
    Suite("video", "Benchmarks/run-video", ["--repeat", "3", "--long"],
          ["--repeat", "1", "--retries", "0", "--quiet-wait", "1", "--clip", "natural-320x240"], "results.json"),
    Suite("screencast", "Benchmarks/run-screencast", ["--repeat", "3"], [], quick_too=False),
    Suite("reencode", "Benchmarks/run-reencode", [], []),
    Suite("vector", "Benchmarks/vector_sizes.py", [], []),
    Suite("startup", "Benchmarks/startup.py", ["--runs", "40"], ["--runs", "15"], "startup-results.json"),
    Suite("speed", "Benchmarks/run-speed", ["--repeat", "5"],
          ["--repeat", "3", "--corpus", "testsrc2-320x240", "--corpus", "soda_loader"], "speed-results.json"),
]


def first_line(argv):
    try:
        r = subprocess.run(argv, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return "not installed"
    lines = [line.strip() for line in (r.stdout + r.stderr).splitlines() if line.strip()]
    return lines[0] if lines else "?"


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def dpkg(package):
    r = subprocess.run(["dpkg-query", "-W", "-f", "${Version}", package], capture_output=True, text=True)
    return r.stdout.strip() or "not installed"


def versions(throbber, bench_dir):
    """The tools every table names, as this machine has them."""
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip() or "?"
    dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--", "Sources", "Package.swift"],
                           capture_output=True, text=True).stdout.strip()
    own = throbber == (ROOT / ".build/release/throbber").absolute()
    v = {
        "throbber": f"{first_line([throbber, '--version'])} " + (
            f"built at {commit}{' with Sources modified' if dirty else ''}" if own else
            f"(THROBBER={throbber}, sha256 {sha256(throbber)[:12]}; this repository at {commit})"),
        "ffmpeg": " ".join(first_line(["ffmpeg", "-version"]).split()[:3]),
        "ImageMagick": " ".join(first_line(["/usr/bin/convert", "-version"]).split()[1:4]),
        "gifsicle": first_line(["gifsicle", "--version"]).replace("LCDF ", ""),
        "pngquant": "pngquant " + first_line(["pngquant", "--version"]).split()[0],
        "img2webp": "img2webp (libwebp " + first_line(["img2webp", "-version"]).split()[-1] + ")",
        "gif2webp": "gif2webp (libwebp " + first_line(["gif2webp", "-version"]).split()[-1] + ")",
        "apngasm": first_line(["apngasm"]),
        "libimagequant": "libimagequant " + dpkg("libimagequant0"),
        "libwebp": "libwebp " + dpkg("libwebp7"),
        "rlottie": "rlottie " + dpkg("librlottie0-1"),
        "hyperfine": first_line(["hyperfine", "--version"]),
        "chromium": first_line(["chromium", "--version"]),
    }
    try:
        import numpy
        import PIL
        v["Pillow"] = f"Pillow {PIL.__version__} (numpy {numpy.__version__}, Python {platform.python_version()})"
    except ImportError:
        v["Pillow"] = "not installed"
    freeze = bench_dir / "venv" / "bin" / "python"
    if freeze.exists():
        pins = subprocess.run([str(freeze), "-m", "pip", "freeze"], capture_output=True, text=True).stdout.split()
        for pin in pins:
            name, _, ver = pin.partition("==")
            if name.lower() in ("rlottie-python", "lottie", "pyrlottie", "cairosvg"):
                v[name.lower()] = f"{name} {ver}"
    return v


def machine():
    cpu = "?"
    try:
        cpu = next(l for l in open("/proc/cpuinfo") if l.startswith("model name")).split(":", 1)[1].strip()
        kib = int(next(l for l in open("/proc/meminfo") if l.startswith("MemTotal")).split()[1])
        mem = f"{kib / 1024 / 1024:.1f} GiB"
    except (OSError, StopIteration):
        mem = "?"
    debian = Path("/etc/debian_version").read_text().strip() if Path("/etc/debian_version").exists() else "?"
    return f"{cpu}, {os.cpu_count()} cores, {mem} RAM, Debian {debian}"


def run_suite(s, args, bench_dir, out):
    """Runs one suite; returns its record for run.json."""
    extra = s.quick if args.quick else s.full
    script = HERE / Path(s.shown).name
    argv = ([sys.executable] if script.suffix == ".py" else []) + [str(script)] + extra
    shown = " ".join([s.shown] + [a.replace(str(LOTTIE_DIR), "$LOTTIE_DIR") for a in extra])
    result = bench_dir / s.result if s.result else None
    if result:
        result.unlink(missing_ok=True)
    env = dict(os.environ, **s.env)
    if args.quick:
        env.setdefault("BENCH_QUIET_WAIT", "1")
    print(f"run-all: {s.name}: {shown}", file=sys.stderr, flush=True)
    start = time.monotonic()
    with open(out / f"{s.name}.log", "w") as log:
        r = subprocess.run(argv, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=log, text=True)
        log.write(r.stdout)
    seconds = time.monotonic() - start
    ok = r.returncode == 0
    if result and result.exists():
        shutil.copy(result, out / f"{s.name}.json")
    elif result:
        ok = False
    else:
        (out / f"{s.name}.md").write_text(r.stdout)
    print(f"run-all: {s.name}: {'done' if ok else f'FAILED (exit {r.returncode})'} in {seconds:.0f} s",
          file=sys.stderr, flush=True)
    return {"name": s.name, "command": shown, "seconds": round(seconds, 1), "ok": ok, "exit": r.returncode}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="fewer repeats, one or two corpora a suite, smaller curves")
    ap.add_argument("--only", action="append", choices=[s.name for s in SUITES], help="only this suite (repeatable)")
    ap.add_argument("--no-report", action="store_true", help="run the suites, do not write docs/benchmarks.md")
    args = ap.parse_args()
    throbber = Path(os.environ.get("THROBBER") or ROOT / ".build/release/throbber").absolute()
    if not os.access(throbber, os.X_OK):
        sys.exit(f"run-all: no throbber at {throbber} (set THROBBER or run `make build`)")
    os.environ["THROBBER"] = str(throbber)
    bench_dir = Path(os.environ.get("BENCH_DIR", "/tmp/throbber-bench")).absolute()
    os.environ["BENCH_DIR"] = str(bench_dir)
    out = bench_dir / "report"
    out.mkdir(parents=True, exist_ok=True)
    start = time.monotonic()
    date = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    load = open("/proc/loadavg").read().split()[:3]
    runs = []
    for s in SUITES:
        if (args.only and s.name not in args.only) or (args.quick and not s.quick_too):
            continue
        runs.append(run_suite(s, args, bench_dir, out))
    tools = versions(throbber, bench_dir)
    for r in runs:
        r["date"], r["quick"], r["throbber"] = date, args.quick, tools["throbber"]
    record = {"quick": args.quick, "date": date, "machine": machine(), "load_start": load,
              "load_end": open("/proc/loadavg").read().split()[:3], "seconds": round(time.monotonic() - start, 1),
              "command": (f"Benchmarks/run-all {'--quick ' if args.quick else ''}--only {' --only '.join(args.only)}"
                          if args.only else "make bench QUICK=1" if args.quick else "make bench"), "suites": runs,
              "full_only": [s.name for s in SUITES if not s.quick_too],
              "versions": tools}
    if args.only and (out / "run.json").exists():
        # One suite again: its record replaces the one of the run before.
        before = json.loads((out / "run.json").read_text())
        names = {r["name"] for r in runs}
        kept = [r for r in before["suites"] if r["name"] not in names]
        for r in kept:
            r.setdefault("date", before["date"])
            r.setdefault("quick", before["quick"])
            r.setdefault("throbber", before["versions"]["throbber"])
        record["suites"] = kept + runs
        record["quick"] = before["quick"] and args.quick
    (out / "run.json").write_text(json.dumps(record, indent=1))
    print(f"run-all: suites took {record['seconds']:.0f} s", file=sys.stderr, flush=True)
    if args.no_report:
        return
    r = subprocess.run([sys.executable, str(HERE / "report.py"), str(out)], cwd=ROOT)
    print(f"run-all: {time.monotonic() - start:.0f} s in all", file=sys.stderr)
    sys.exit(r.returncode)


if __name__ == "__main__":
    main()
