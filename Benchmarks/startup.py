#!/usr/bin/env python3
"""Start-up: how long throbber takes for runs that do almost nothing, next
to a C program's start, timed by hyperfine (no shell, 3 warm-up runs, then
--runs runs; the median is reported).

The commands: `throbber --version`; `throbber encode ring.png -o s.gif`
and `-o s.webp --compression fast`, where ring.png is the ring preset's
lossless APNG (64x64, 24 frames), a loader as small as they come; and
`img2webp -h` and `gifsicle --version` as the start of a C program.

Writes $BENCH_DIR/startup-results.json (and a table to stdout). Usage:
  THROBBER=.build/release/throbber BENCH_DIR=/tmp/throbber-bench Benchmarks/startup.py [--runs N]
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent


def hyperfine(argv, runs, work):
    """Median, mean and spread of `runs` runs of argv, in ms."""
    out = Path(work) / "hyperfine.json"
    subprocess.run(["hyperfine", "-N", "--warmup", "3", "--runs", str(runs), "--style", "none",
                    "--export-json", str(out), " ".join(argv)], cwd=work, check=True,
                   stdout=subprocess.DEVNULL)
    r = json.loads(out.read_text())["results"][0]
    return {k: r[k] * 1000 for k in ("median", "mean", "stddev", "min", "max")} | {"runs": len(r["times"])}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=40)
    args = ap.parse_args()
    if not shutil.which("hyperfine"):
        sys.exit("startup: hyperfine not found (apt-get install hyperfine)")
    throbber = os.path.abspath(os.environ.get("THROBBER") or HERE.parent / ".build/release/throbber")
    base = Path(os.environ.get("BENCH_DIR", "/tmp/throbber-bench"))
    base.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="throbber-startup-") as work:
        subprocess.run([throbber, "preset", "ring", "-o", "ring.png", "--quiet"], cwd=work, check=True)
        commands = [
            ("throbber --version", [throbber, "--version"]),
            ("throbber encode ring.png -o s.gif", [throbber, "encode", "ring.png", "-o", "s.gif", "--quiet"]),
            ("throbber encode ring.png -o s.webp --compression fast",
             [throbber, "encode", "ring.png", "-o", "s.webp", "--compression", "fast", "--quiet"]),
            ("img2webp -h (a C program's start)", ["img2webp", "-h"]),
            ("gifsicle --version (a C program's start)", ["gifsicle", "--version"]),
        ]
        rows = []
        for label, argv in commands:
            if shutil.which(argv[0]) or os.access(argv[0], os.X_OK):
                rows.append({"command": label, **hyperfine(argv, args.runs, work)})
    print("| command | median ms | mean ms | min ms |")
    print("|---|--:|--:|--:|")
    for r in rows:
        print(f"| `{r['command']}` | {r['median']:.2f} | {r['mean']:.2f} | {r['min']:.2f} |")
    version = subprocess.run(["hyperfine", "--version"], capture_output=True, text=True).stdout.strip()
    (base / "startup-results.json").write_text(json.dumps({"hyperfine": version, "runs": args.runs, "rows": rows},
                                                          indent=1))


if __name__ == "__main__":
    main()
