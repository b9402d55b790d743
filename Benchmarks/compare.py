"""Before/after comparison of two throbber binaries on the benchmark corpora.

Written for issue #10 (one encoder skeleton, modules, Swift 6), whose target
is "no slowdown over 3 % on any corpus, and memory stays flat"; usable for
any change that must not cost time or memory and must write the same bytes.

Usage (a python3 with Pillow and numpy, as for Benchmarks/run, because the
corpora come from bench.py):

    BENCH_DIR=/tmp/throbber-bench /usr/bin/python3 Benchmarks/compare.py \\
        BEFORE/.build/release/throbber AFTER/.build/release/throbber \\
        [--repeat N] [--corpus NAME]... [--format gif|png]... \\
        [--no-memory] [--memory-repeat N] [--memory-corpus NAME]... \\
        [--instructions] [--quiet-wait S] [--label NAME]

BEFORE and AFTER are two release binaries (e.g. one built in a worktree at
the old commit, one at the new). For every corpus of bench.py (made with the
same ffmpeg commands, in $BENCH_DIR/corpora, reused when they exist) and every
format it runs

    throbber encode DIR -o out.gif --fps 25 --loop 0 -q     (GIF, defaults)
    throbber encode DIR -o out.png --fps 25 --loop 0 -q     (APNG, defaults)

(the command line of the throbber row of Benchmarks/run) once per binary
untimed (warm-up: page cache, output check), then --repeat timed rounds. Each
round runs both binaries back to back, BEFORE first in odd rounds and AFTER
first in even ones, so that a slow spell of a shared machine hits both
alike. Each run is timed with os.wait4: wall seconds, user+system CPU
seconds (less sensitive to other load than wall time), peak RSS. The report
gives per cell the medians, the ratio of medians (after / before), the median
of the per-round ratios and in how many rounds AFTER used more CPU than
BEFORE, and the CPU time other processes used during the runs (from
/proc/stat), as a measure of the noise.

Every output of every run is hashed (sha256): the report says whether BEFORE
and AFTER wrote identical bytes, and whether each binary wrote the same bytes
in every run. Any difference is printed as "DIFFERENT" and makes the exit
status 2.

Memory (unless --no-memory): peak RSS under `/usr/bin/time -f %M`, as in
bench.py, of the GIF default on bench.py's memory corpora (testsrc2 and
life:seed=42, 150 and 600 frames of 640x360), --memory-repeat interleaved
rounds; median and highest, MB = 10^6 bytes.

--instructions also runs each binary once per cell under
`valgrind --tool=callgrind` and reports the instructions executed (all
threads; OMP_WAIT_POLICY=passive so that libimagequant's OpenMP threads do
not spin): repeatable to a fraction of a percent, so it tells a real change of
work from noise on a busy machine (about 50x slower than a normal run; meant
for the cells that look slower, with --corpus/--format).

Writes $BENCH_DIR/LABEL/results.md (markdown tables) and results.json,
every command and its output to LABEL/commands.log, outputs under LABEL/out/
(LABEL is --label, default "compare"). BENCH_DIR may not be inside the
repository or ../shared (as for bench.py).
"""

import argparse
import datetime
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import bench  # corpora, their recipes, sha256, /proc/stat reading

FORMATS = {"gif": ".gif", "png": ".png"}


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def encode_argv(binary, frames_dir, out):
    return [str(binary), "encode", str(frames_dir), "-o", str(out), "--fps", str(bench.FPS), "--loop", "0", "-q"]


def run_once(argv, log_path):
    """Runs argv; returns wall s, user+system CPU s, peak RSS KiB, CPU s used by other processes."""
    with open(log_path, "a") as lg:
        lg.write("$ " + " ".join(argv) + "\n")
        lg.flush()
        busy0 = bench.busy_cpu_seconds()
        t0 = time.perf_counter()
        p = subprocess.Popen(argv, stdout=lg, stderr=lg, stdin=subprocess.DEVNULL)
        _, status, ru = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t0
        busy = bench.busy_cpu_seconds() - busy0
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        raise SystemExit(f"compare: command failed (exit {p.returncode}), see {log_path}:\n  " + " ".join(argv))
    cpu = ru.ru_utime + ru.ru_stime
    return wall, cpu, ru.ru_maxrss, max(0.0, busy - cpu)


def gnu_time_rss(argv, log_path):
    """Peak RSS in KiB as `/usr/bin/time -f %M` reports it."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as t, open(log_path, "a") as lg:
        lg.write("$ " + " ".join(argv) + "\n")
        lg.flush()
        rc = subprocess.run([bench.TIME, "-f", "%M", "-o", t.name, *argv],
                            stdout=lg, stderr=lg, stdin=subprocess.DEVNULL).returncode
        if rc != 0:
            raise SystemExit(f"compare: command failed (exit {rc}), see {log_path}:\n  " + " ".join(argv))
        return int(t.read().split()[-1])


def callgrind_instructions(argv, work, log_path):
    """Instructions executed by argv and all its threads, counted by callgrind."""
    out = work / f"callgrind.out.{Path(argv[4]).stem}"
    with open(log_path, "a") as lg:
        lg.write("$ valgrind --tool=callgrind " + " ".join(argv) + "\n")
        lg.flush()
        # libimagequant's OpenMP threads spin while they wait; spinning is
        # counted as instructions and depends on scheduling. Passive waiting
        # makes the count repeatable (it does not change the work or output).
        env = dict(os.environ, OMP_WAIT_POLICY="passive")
        rc = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *argv],
                            stdout=lg, stderr=lg, stdin=subprocess.DEVNULL, env=env).returncode
    if rc != 0:
        raise SystemExit(f"compare: valgrind failed (exit {rc}), see {log_path}")
    text = out.read_text(errors="replace")
    m = re.search(r"^(?:summary|totals):\s+(\d+)", text, re.M)
    return int(m.group(1)) if m else None


def med(xs):
    return statistics.median(xs) if xs else float("nan")


def compare_cell(binaries, frames_dir, fmt, name, repeat, outdir, log_path, quiet_wait, instructions):
    """Interleaved rounds of both binaries on one corpus and format."""
    ext = FORMATS[fmt]
    rec = {side: {"wall": [], "cpu": [], "rss_kb": [], "others": [], "hashes": []} for side in binaries}
    outs = {side: outdir / f"{name}-{side}{ext}" for side in binaries}
    # Warm-up: page cache, first output (hashed with the rest).
    for side, binary in binaries.items():
        run_once(encode_argv(binary, frames_dir, outs[side]), log_path)
        rec[side]["hashes"].append(bench.sha256(outs[side]))
    for i in range(repeat):
        order = list(binaries) if i % 2 == 0 else list(reversed(binaries))
        for side in order:
            if quiet_wait > 0:
                bench.wait_quiet(quiet_wait)
            wall, cpu, rss, others = run_once(encode_argv(binaries[side], frames_dir, outs[side]), log_path)
            r = rec[side]
            r["wall"].append(wall)
            r["cpu"].append(cpu)
            r["rss_kb"].append(rss)
            r["others"].append(others)
            r["hashes"].append(bench.sha256(outs[side]))
        b, a = rec["before"], rec["after"]
        log(f"compare: {name} {fmt} round {i + 1}/{repeat}: wall {b['wall'][-1]:.3f} → {a['wall'][-1]:.3f} s, "
            f"CPU {b['cpu'][-1]:.3f} → {a['cpu'][-1]:.3f} s (others {b['others'][-1]:.2f}/{a['others'][-1]:.2f} CPU s)")
    cell = {"corpus": name, "format": fmt, "repeat": repeat, "runs": rec,
            "bytes": {side: outs[side].stat().st_size for side in binaries}}
    for side in binaries:
        r = rec[side]
        cell[side] = {"wall": med(r["wall"]), "cpu": med(r["cpu"]), "rss_mb": bench.mb(med(r["rss_kb"])),
                      "others": med(r["others"]), "stable": len(set(r["hashes"])) == 1, "sha256": r["hashes"][0]}
    b, a = rec["before"], rec["after"]
    cell["wall_ratio"] = cell["after"]["wall"] / cell["before"]["wall"]
    cell["cpu_ratio"] = cell["after"]["cpu"] / cell["before"]["cpu"]
    cell["paired_wall_ratio"] = med([y / x for x, y in zip(b["wall"], a["wall"])])
    cell["paired_cpu_ratio"] = med([y / x for x, y in zip(b["cpu"], a["cpu"])])
    cell["cpu_after_slower_rounds"] = sum(y > x for x, y in zip(b["cpu"], a["cpu"]))
    cell["identical"] = cell["before"]["stable"] and cell["after"]["stable"] and \
        cell["before"]["sha256"] == cell["after"]["sha256"]
    if instructions:
        cell["instructions"] = {}
        for side, binary in binaries.items():
            log(f"compare: {name} {fmt}: callgrind, {side}")
            cell["instructions"][side] = callgrind_instructions(
                encode_argv(binary, frames_dir, outdir / f"{name}-{side}-cg{ext}"), outdir, log_path)
        ib, ia = cell["instructions"]["before"], cell["instructions"]["after"]
        cell["instructions_ratio"] = ia / ib if ib and ia else None
    return cell


def compare_memory(binaries, dirs, repeat, outdir, log_path):
    rec = {(c, side): [] for c in dirs for side in binaries}
    for i in range(repeat):
        log(f"compare: memory round {i + 1}/{repeat}")
        order = list(binaries) if i % 2 == 0 else list(reversed(binaries))
        for c, d in dirs.items():
            for side in order:
                rec[(c, side)].append(gnu_time_rss(encode_argv(binaries[side], d, outdir / f"{c}-{side}.gif"),
                                                   log_path))
    rows = []
    for c in dirs:
        row = {"corpus": c}
        for side in binaries:
            kb = rec[(c, side)]
            row[side] = {"median_mb": bench.mb(med(kb)), "max_mb": bench.mb(max(kb)), "rss_kb": kb}
        row["identical"] = bench.sha256(outdir / f"{c}-before.gif") == bench.sha256(outdir / f"{c}-after.gif")
        rows.append(row)
    return rows


def count(n):
    return f"{n:,}" if n else "n/a"


def pct(r):
    return f"{(r - 1) * 100:+.1f} %"


def render(env, cells, mem):
    L = ["# throbber before/after (Benchmarks/compare.py)", ""]
    L += [f"- {k}: {v}" for k, v in env.items()]
    L += ["", "| corpus | format | rounds | wall s before | after | ratio | CPU s before | after | ratio |"
          " paired CPU ratio | rounds after > before (CPU) | others' CPU s (median b/a) | bytes | identical |",
          "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|"]
    for c in cells:
        b, a = c["before"], c["after"]
        same = "yes" if c["identical"] else "**DIFFERENT**"
        L.append(f"| {c['corpus']} | {c['format']} | {c['repeat']} | {b['wall']:.3f} | {a['wall']:.3f} | "
                 f"{c['wall_ratio']:.3f} ({pct(c['wall_ratio'])}) | {b['cpu']:.3f} | {a['cpu']:.3f} | "
                 f"{c['cpu_ratio']:.3f} ({pct(c['cpu_ratio'])}) | {c['paired_cpu_ratio']:.3f} | "
                 f"{c['cpu_after_slower_rounds']}/{c['repeat']} | {b['others']:.2f} / {a['others']:.2f} | "
                 f"{c['bytes']['before']:,} / {c['bytes']['after']:,} | {same} |")
    if any("instructions" in c for c in cells):
        L += ["", "| corpus | format | instructions before | after | ratio |", "|---|---|--:|--:|--:|"]
        for c in cells:
            if "instructions" in c:
                i, r = c["instructions"], c["instructions_ratio"]
                L.append(f"| {c['corpus']} | {c['format']} | {count(i['before'])} | {count(i['after'])} | "
                         + (f"{r:.4f} ({pct(r)}) |" if r else "n/a |"))
    if mem:
        L += ["", "| memory corpus (GIF default) | peak RSS MB before (median / max) | after (median / max) |"
              " ratio of medians | identical |", "|---|--:|--:|--:|---|"]
        for m in mem:
            b, a = m["before"], m["after"]
            L.append(f"| {m['corpus']} | {b['median_mb']:.1f} / {b['max_mb']:.1f} | {a['median_mb']:.1f} / "
                     f"{a['max_mb']:.1f} | {a['median_mb'] / b['median_mb']:.3f} | "
                     f"{'yes' if m['identical'] else '**DIFFERENT**'} |")
    return "\n".join(L) + "\n"


def main():
    ap = argparse.ArgumentParser(description="Interleaved before/after timing of two throbber binaries.")
    ap.add_argument("before", help="the old throbber binary")
    ap.add_argument("after", help="the new throbber binary")
    ap.add_argument("--repeat", type=int, default=9, help="timed rounds per cell (default 9)")
    ap.add_argument("--corpus", action="append", choices=[c.name for c in bench.CORPORA],
                    help="only this corpus (repeatable); default all four")
    ap.add_argument("--format", action="append", choices=list(FORMATS),
                    help="only this format (repeatable); default gif and png")
    ap.add_argument("--no-memory", action="store_true", help="skip the 150/600-frame peak RSS comparison")
    ap.add_argument("--memory-repeat", type=int, default=5, help="rounds of the memory comparison (default 5)")
    ap.add_argument("--memory-corpus", action="append", choices=[c.name for c in bench.MEMORY],
                    help="only this memory corpus (repeatable); default all four")
    ap.add_argument("--instructions", action="store_true",
                    help="also count instructions under valgrind --tool=callgrind (slow)")
    ap.add_argument("--label", default="compare",
                    help="results go to $BENCH_DIR/LABEL/ (default compare), so runs can be kept side by side")
    ap.add_argument("--quiet-wait", type=float, default=0.0,
                    help="before each timed run wait up to S seconds for an idle machine (default 0: rely on "
                         "interleaving)")
    args = ap.parse_args()

    binaries = {"before": Path(args.before).resolve(), "after": Path(args.after).resolve()}
    for side, b in binaries.items():
        if not os.access(b, os.X_OK):
            raise SystemExit(f"compare: {side} binary {b} is not executable")
    bench.FFMPEG = bench.tool_path("FFMPEG", "ffmpeg")
    bench.TIME = "/usr/bin/time"
    if not args.no_memory and not os.access(bench.TIME, os.X_OK):
        raise SystemExit("compare: the memory test needs GNU time at /usr/bin/time (scripts/install-deps --bench)")
    base = bench.safe_work_dir(os.environ.get("BENCH_DIR", "/tmp/throbber-bench"))
    work = base / args.label
    outdir = work / "out"
    shutil.rmtree(outdir, ignore_errors=True)
    outdir.mkdir(parents=True)
    log_path = work / "commands.log"
    log_path.write_text("")

    env = {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": f"{os.cpu_count()} cores, {platform.platform()}",
        "load average at start": " ".join(bench.loadavg()),
        "before": f"{binaries['before']} (sha256 {bench.sha256(binaries['before'])[:12]})",
        "after": f"{binaries['after']} (sha256 {bench.sha256(binaries['after'])[:12]})",
        "command": "throbber encode DIR -o out.{gif,png} --fps 25 --loop 0 -q",
        "method": f"{args.repeat} interleaved rounds per cell after one untimed warm-up run each, order alternating; "
                  "medians; wall and user+system CPU from os.wait4",
    }
    names = args.corpus or [c.name for c in bench.CORPORA]
    formats = args.format or list(FORMATS)
    cells = []
    for c in bench.CORPORA:
        if c.name not in names:
            continue
        d = bench.make_corpus(c, base / "corpora")
        for fmt in formats:
            cells.append(compare_cell(binaries, d, fmt, c.name, args.repeat, outdir, log_path, args.quiet_wait,
                                      args.instructions))
    mem = []
    if not args.no_memory:
        mnames = args.memory_corpus or [c.name for c in bench.MEMORY]
        dirs = {c.name: bench.make_corpus(c, base / "corpora") for c in bench.MEMORY if c.name in mnames}
        mem = compare_memory(binaries, dirs, args.memory_repeat, outdir, log_path)
    env["load average at end"] = " ".join(bench.loadavg())

    md = render(env, cells, mem)
    (work / "results.md").write_text(md)
    (work / "results.json").write_text(json.dumps({"environment": env, "cells": cells, "memory": mem}, indent=1))
    print(md)
    different = [f"{c['corpus']} {c['format']}" for c in cells if not c["identical"]] + \
        [m["corpus"] for m in mem if not m["identical"]]
    if different:
        log("compare: OUTPUT BYTES DIFFER between before and after (or between runs): " + ", ".join(different))
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
