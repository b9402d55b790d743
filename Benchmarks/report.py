"""Writes docs/benchmarks.md from one run of the benchmark suites
(Benchmarks/run-all leaves them in $BENCH_DIR/report: run.json, and one
NAME.json or NAME.md a suite), and prints each headline ratio against its
bound (ok/OVER). The prose comes from Benchmarks/report/*.md, the numbers
only from the results. Where the speed suite timed a comparison on a corpus
that another suite times too, its ratio stands for both. Usage:

  Benchmarks/report.py [REPORT_DIR] [--out docs/benchmarks.md]

REPORT_DIR defaults to $BENCH_DIR/report. Exits 0 even when a ratio is
OVER: the table says so.
"""

import argparse
import json
import os
import sys
from pathlib import Path
from string import Template

import report_formats
import report_gif
import report_inputs
import report_speed
from report_common import Section, table

HERE = Path(__file__).resolve().parent
TEXT = HERE / "report"

# The tools each suite's tables depend on (keys of run.json's versions).
TOOLS = {
    "gif": ["throbber", "libimagequant", "ffmpeg", "ImageMagick", "gifsicle", "Pillow"],
    "reencode": ["throbber", "gifsicle"],
    "screencast": ["throbber", "gifsicle", "ffmpeg", "chromium"],
    "lossy": ["throbber", "gifsicle", "pngquant", "ffmpeg", "Pillow"],
    "apng": ["throbber", "ffmpeg", "apngasm", "pngquant"],
    "webp": ["throbber", "libwebp", "img2webp", "gif2webp", "ffmpeg", "Pillow"],
    "resize": ["throbber", "ffmpeg", "ImageMagick", "pngquant", "gifsicle"],
    "lottie": ["throbber", "rlottie", "rlottie-python", "lottie", "cairosvg", "pyrlottie"],
    "video": ["throbber", "ffmpeg"],
    "vector": ["throbber"],
    "startup": ["throbber", "hyperfine", "img2webp", "gifsicle"],
    "speed": ["throbber", "ffmpeg", "apngasm", "img2webp", "rlottie-python", "chromium"],
}
TARGETS = {"gif": "bench-gif", "reencode": "bench-reencode", "screencast": "bench-screencast",
           "lossy": "bench-lossy", "apng": "bench-apng", "webp": "bench-webp", "resize": "bench-resize",
           "lottie": "bench-lottie", "video": "bench-video", "vector": "bench-vector", "startup": "bench-startup",
           "speed": "bench-speed"}

# (heading, suite, prose fragment, renderer); a heading without a suite
# only opens a part.
SECTIONS = [
    ("## Speed against the peers", "speed", "speed.md", report_speed.speed),
    ("## GIF", None, None, None),
    ("### Default encode against the peers", "gif", "gif.md", report_gif.default_encode),
    ("### throbber's `--quality` curves", "gif", None, report_gif.curves),
    ("### Memory: default on 640x360 frames", "gif", "gif-memory.md", report_gif.memory),
    ("### Re-encoding GIFs", "reencode", "reencode.md", report_gif.reencode),
    ("### A screen recording", "screencast", "screencast.md", report_gif.screencast),
    ("## Lossy LZW and byte budgets", "lossy", "lossy.md", report_formats.lossy),
    ("## APNG", "apng", "apng.md", report_formats.apng),
    ("## Animated WebP", "webp", "webp.md", report_formats.webp),
    ("## Resize", "resize", "resize.md", report_inputs.resize),
    ("## Lottie", "lottie", "lottie.md", report_inputs.lottie),
    ("## Video input", "video", "video.md", report_inputs.video),
    ("## Vector export", "vector", "vector.md", report_inputs.vector),
    ("## Start-up", "startup", "startup.md", report_inputs.startup),
]


def load(report_dir):
    """run.json and every suite's results that exist."""
    run = json.loads((report_dir / "run.json").read_text())
    data = {}
    for name in TOOLS:
        if (report_dir / f"{name}.json").exists():
            data[name] = json.loads((report_dir / f"{name}.json").read_text())
        elif (report_dir / f"{name}.md").exists():
            data[name] = (report_dir / f"{name}.md").read_text()
    return run, data


def fragment(name, **values):
    return Template((TEXT / name).read_text()).safe_substitute(values).rstrip("\n").split("\n") + [""]


def source_line(run, suite, again=False):
    """The command that made a suite's tables and the tools they depend on
    (`again`: named in full above); the throbber binary is the one the
    suite's own run recorded, when it did."""
    rec = next((s for s in run["suites"] if s["name"] == suite), None)
    known = dict(run["versions"], **({"throbber": rec["throbber"]} if rec and rec.get("throbber") else {}))
    tools = "the tools above" if again else "; ".join(known[t] for t in TOOLS[suite] if t in known)
    return [f"*Measured by* `{rec['command'] if rec else '?'}` *with* {tools}.", ""]


def section(run, data, heading, suite, text, render, again=False):
    """The lines of one section, and what it adds to the Summary and bounds."""
    out = Section(lines=[heading, ""])
    if text:
        out.lines += fragment(text)
    rec = next((s for s in run["suites"] if s["name"] == suite), None)
    if rec is None:
        full_only = run["quick"] and suite in run.get("full_only", [])
        out.lines += ["*Not measured in this run" + (" (only a full `make bench` runs it)" if full_only else "")
                      + ".*", ""]
        return out
    if not rec["ok"] or suite not in data:
        out.lines += [f"*This suite failed in this run (exit {rec['exit']}; its output is in "
                      f"`$BENCH_DIR/report/{suite}.log`).*", ""]
        return out
    rendered = render(data[suite])
    if rendered.lines:
        out.lines += source_line(run, suite, again)
    out.add(rendered)
    out.summary = [(what, measured, f"`make {TARGETS[suite]}`") for what, measured in out.summary]
    return out


def bounds_table(bounds):
    return table(["headline ratio", "measured", "bound", "verdict"],
                 [[b.name, ratio_text(b), f"{'≤' if b.op == '<=' else '≥'} {b.limit:g}", "ok" if b.ok else "OVER"]
                  for b in bounds])


def ratio_text(b):
    """Two decimals, three where two would round onto the bound."""
    text = f"{b.ratio:.2f}"
    return f"{b.ratio:.3f}" if float(text) == b.limit else text


def provenance(run):
    """Which run the numbers come from: one, or (when suites were run again
    on their own, `run-all --only`) each suite's."""
    latest = (f"on {run['machine']}, on {run['date']} (the suites took {run['seconds'] / 60:.1f} minutes; load "
              f"average {' '.join(run['load_start'])} at the start, {' '.join(run['load_end'])} at the end)")
    runs = {}
    for r in run["suites"]:
        runs.setdefault((r.get("date", run["date"]), r.get("quick", run["quick"])), []).append(r["name"])
    if len(runs) < 2:
        return f"Every number below comes from one run of `{run['command']}` {latest}."
    parts = [f"{', '.join(names)} on {date}" + (" (`make bench QUICK=1`)" if quick else " (`make bench`)")
             for (date, quick), names in sorted(runs.items())]
    return (f"The numbers below come from more than one run, each section's with the binary and commands it "
            f"names: {'; '.join(parts)}. The latest, `{run['command']}`, ran {latest}.")


def render(run, data):
    """The whole document, and the bounds."""
    parts, summary, bounds, seen = [], [], [], set()
    for heading, suite, text, fn in SECTIONS:
        if suite is None:
            parts += [heading, ""]
            continue
        s = section(run, data, heading, suite, text, fn, suite in seen)
        seen.add(suite)
        parts += s.lines
        summary += s.summary
        bounds += [(suite, b) for b in s.bounds]
    # The speed suite's ratio stands for the same comparison on the same corpus timed elsewhere.
    bounds = report_speed.supersede(bounds)
    mixed = len({(r.get("date", run["date"]), r.get("quick", run["quick"])) for r in run["suites"]}) > 1
    kind = [] if mixed else fragment("quick.md" if run["quick"] else "full.md")
    lines = ["# Benchmarks", "", "<!-- Written by Benchmarks/report.py (make bench); edit Benchmarks/report/*.md "
             "or the harnesses instead. -->", ""]
    intro = fragment("intro.md", provenance=provenance(run), kind=" ".join(kind).strip())
    # Without a kind sentence its paragraph is empty: one blank line, not three.
    lines += [line for i, line in enumerate(intro) if line or i == 0 or intro[i - 1]]
    lines += ["## Summary", ""] + table(["comparison", "measured", "reproduce"], [list(r) for r in summary]) + [""]
    if bounds:
        lines += ["Headline ratios against the bounds the project holds itself to (wall time; "
                  "`make bench QUICK=1` prints this table at its end):", ""] + bounds_table(bounds) + [""]
    lines += ["## How to run", ""] + fragment("how-to-run.md") + ["## Method", ""] + fragment("method.md")
    return "\n".join(lines + parts).rstrip("\n") + "\n", bounds


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("report_dir", nargs="?",
                    default=str(Path(os.environ.get("BENCH_DIR", "/tmp/throbber-bench")) / "report"))
    ap.add_argument("--out", default=str(HERE.parent / "docs" / "benchmarks.md"))
    args = ap.parse_args()
    run, data = load(Path(args.report_dir))
    text, bounds = render(run, data)
    Path(args.out).write_text(text)
    print(f"report: wrote {args.out}" + (" (QUICK)" if run["quick"] else ""), file=sys.stderr)
    failed = [s["name"] for s in run["suites"] if not s["ok"]]
    if failed:
        print(f"report: suites that failed: {', '.join(failed)}", file=sys.stderr)
    print("\n".join(bounds_table(bounds)))
    over = [b for b in bounds if not b.ok]
    print(f"\n{len(bounds) - len(over)} of {len(bounds)} headline ratios within their bounds"
          + (f"; OVER: {', '.join(b.name for b in over)}" if over else ""))


if __name__ == "__main__":
    main()
