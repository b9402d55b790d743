"""Throbber against the usual GIF encoders (issue #2). Run it via Benchmarks/run.

For every corpus (PNG frame folders made with ffmpeg's test sources) it runs
throbber (default, and --quality 100…30), ImageMagick (convert, and convert
followed by gifsicle -O3), ffmpeg (palettegen/paletteuse, global and
stats_mode=single/new=1) and Pillow (save_all); times every run with
/usr/bin/time (wall time, peak RSS, CPU time; median of --repeat runs,
interleaved so that slow spells hit every tool alike, and each run repeated
when other processes kept the machine busy during it); scores every GIF
against the source frames (gifmetrics.py: mean PSNR, mean luma SSIM); prints
a markdown table per corpus; checks the issue's four targets (trying
in-between qualities where the 100…30 curve misses a peer); and measures
throbber's peak RSS on 150 and 600 frames of 640x360.

Everything is written under $BENCH_DIR (default /tmp/throbber-bench):
corpora/ (frame folders, kept between runs), out/ (GIFs), logs/,
results.md and results.json.
"""

import argparse
import datetime
import hashlib
import json
import multiprocessing
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import PIL

import gifmetrics

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

FPS = 25
QUALITIES = [100, 90, 80, 70, 60, 50, 40, 30]
# --small (`make bench QUICK=1`): every other point of the curve, and the
# memory test on life alone (the lossless path, a quarter of the time).
SMALL_QUALITIES = [100, 90, 70, 50, 30]
# Targets from the issue.
PSNR_SLACK_DB = 0.5
SSIM_SLACK = 0.001
TIME_RATIO = 1.5
RSS_LIMIT_MB = 150.0
# "150 frames need about the same": the 600-frame peak RSS may exceed the
# 150-frame one by at most this fraction.
RSS_GROWTH = 0.10
# A timed run during which other processes averaged more than this many cores
# is repeated (at most RETRIES times; see timed()).
NOISE_CORES = 0.25
RETRIES = 3
# Before each timed run, wait up to this many seconds for an idle machine
# (BENCH_QUIET_WAIT overrides it: `make bench QUICK=1` waits less).
QUIET_WAIT = float(os.environ.get("BENCH_QUIET_WAIT", 60))


@dataclass
class Corpus:
    name: str
    lavfi: str     # ffmpeg lavfi source, without size and rate
    size: str      # WxH
    frames: int

    @property
    def spec(self):
        return f"{self.lavfi.split(':')[0]}=size={self.size}:rate={FPS}" + \
            "".join(":" + o for o in self.lavfi.split(":")[1:])


# The quality corpora of the issue. life's random start is seeded so that
# every run (and every machine) encodes the same frames.
CORPORA = [
    Corpus("mandelbrot-320x240", "mandelbrot", "320x240", 100),
    Corpus("testsrc2-320x240", "testsrc2", "320x240", 100),
    Corpus("life-320x240", "life:seed=42", "320x240", 100),
    Corpus("testsrc2-1280x720", "testsrc2", "1280x720", 60),
]
# The memory test: a quantized source (testsrc2, thousands of colors a frame)
# and a lossless one (life, 2 colors), each at 150 and 600 frames.
MEMORY = [
    Corpus("mem-testsrc2-640x360-150", "testsrc2", "640x360", 150),
    Corpus("mem-testsrc2-640x360-600", "testsrc2", "640x360", 600),
    Corpus("mem-life-640x360-150", "life:seed=42", "640x360", 150),
    Corpus("mem-life-640x360-600", "life:seed=42", "640x360", 600),
]


@dataclass
class Run:
    """One encoder invocation, timed `repeat` times."""
    name: str
    argv: list
    output: Path
    kind: str                  # "throbber", "curve", "peer" or "step"
    quality: int = None        # for the curve
    adds_to: str = None        # a "step" whose time is added to this run's row
    times: list = field(default_factory=list)
    cpu: list = field(default_factory=list)
    rss_kb: list = field(default_factory=list)
    hashes: list = field(default_factory=list)
    metrics: dict = None


# ---------------------------------------------------------------- helpers

def log(msg):
    print(msg, file=sys.stderr, flush=True)


def tool_path(env, default):
    return os.environ.get(env) or shutil.which(default) or default


def first_line(argv):
    try:
        out = subprocess.run(argv, capture_output=True, text=True, timeout=60)
        text = (out.stdout or out.stderr).strip()
        return text.splitlines()[0] if text else "?"
    except (OSError, subprocess.TimeoutExpired):
        return "not found"


def dpkg_version(pkg):
    out = subprocess.run(["dpkg-query", "-W", "-f=${Version}", pkg], capture_output=True, text=True)
    return out.stdout.strip() or "?"


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def busy_cpu_seconds():
    """CPU seconds the whole machine has spent busy since boot (/proc/stat)."""
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    # user nice system idle iowait irq softirq steal: all but idle and iowait.
    busy = sum(fields[:8]) - fields[3] - fields[4]
    return busy / os.sysconf("SC_CLK_TCK")


# Runs measured while other processes kept the machine busy, and repeated;
# seconds spent waiting for the machine to be idle.
NOISE = {"disturbed": 0, "runs": 0, "waited_s": 0.0}


def wait_quiet(max_wait=None):
    """Waits (at most max_wait s, default QUIET_WAIT, read when called) until
    the machine has been idle, less than NOISE_CORES cores busy, for a short
    window."""
    max_wait = QUIET_WAIT if max_wait is None else max_wait
    start = time.monotonic()
    while time.monotonic() - start < max_wait:
        before = busy_cpu_seconds()
        time.sleep(0.3)
        if busy_cpu_seconds() - before <= NOISE_CORES * 0.3:
            break
    NOISE["waited_s"] += max(0.0, time.monotonic() - start - 0.3)


def run_measured(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=None):
    """Runs argv; returns (exit status, wall s, peak RSS KiB, user+system CPU s).

    Wall time from a monotonic clock around the child, CPU time and peak
    RSS from wait4(2), all to the microsecond: /usr/bin/time's %e has
    10 ms steps, too coarse for runs of 10-50 ms (a 0.01 s peer against a
    0.02 s run reads as 2x whatever the truth).

    Peak RSS is /usr/bin/time's %M of its own child: a child forked from
    this process has this process's resident pages until it execs, and
    wait4's ru_maxrss counts them (the WebP benchmark, which holds the
    frames in numpy, read 211-288 MB for every encoder)."""
    with tempfile.NamedTemporaryFile("r", prefix="bench-rss-") as rss_file:
        wrapped = ["/usr/bin/time", "-f", "%M", "-o", rss_file.name] + [str(a) for a in argv]
        start = time.perf_counter()
        child = subprocess.Popen(wrapped, stdout=stdout, stderr=stderr, stdin=subprocess.DEVNULL, cwd=cwd)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        lines = [l for l in rss_file.read().split("\n") if l.strip()]
    rss = int(lines[-1]) if lines and lines[-1].strip().isdigit() else 0
    return child.returncode, wall, rss, usage.ru_utime + usage.ru_stime


def timed(argv, log_path, retries=None, quiet=True):
    """Runs argv (run_measured); returns (wall s, peak RSS KiB, user+system CPU s).

    The machine may be shared: CPU time that other processes used during the
    run (the machine's busy time less the command's own) is measured too, and
    a run during which they averaged more than NOISE_CORES cores is done
    again, up to `retries` times. Each attempt first waits for an idle machine
    (unless `quiet` is false: for runs whose time is not compared). CPU time
    is reported as a second opinion: unlike wall time it barely moves under
    contention."""
    retries = RETRIES if retries is None else retries
    for attempt in range(retries + 1):
        if quiet:
            wait_quiet()
        with open(log_path, "a") as lg:
            lg.write("$ " + " ".join(map(str, argv)) + "\n")
            lg.flush()
            before = busy_cpu_seconds()
            rc, wall, rss, cpu = run_measured(argv, stdout=lg, stderr=lg)
            busy = busy_cpu_seconds() - before
            if rc != 0:
                raise SystemExit(f"bench: command failed (exit {rc}), see {log_path}:\n  " +
                                 " ".join(map(str, argv)))
        others = busy - cpu
        NOISE["runs"] += 1
        if others <= NOISE_CORES * max(wall, 0.1):
            break
        NOISE["disturbed"] += 1
        note = f"other processes used {others:.2f} CPU s during this {wall:.2f} s run"
        with open(log_path, "a") as lg:
            lg.write(f"# {note}{'; again' if attempt < retries else '; kept'}\n")
        if attempt < retries:
            log(f"bench: {note}; again ({Path(str(argv[0])).name})")
    return wall, rss, cpu


def mb(kib):
    """KiB (as /usr/bin/time reports) to MB (10^6 bytes), the issue's unit."""
    return kib * 1024 / 1e6


def median(xs):
    return statistics.median(xs) if xs else float("nan")


def loadavg():
    try:
        with open("/proc/loadavg") as f:
            return f.read().split()[:3]
    except OSError:
        return ["?"] * 3


def fmt_psnr(x):
    if x != x:
        return "n/a"
    return "∞ (lossless)" if x >= gifmetrics.PSNR_CAP else f"{x:.2f}"


# ---------------------------------------------------------------- corpora

def make_corpus(c, base):
    """Frame folder for `c` (0001.png…), reused while its recipe is unchanged."""
    d = base / c.name
    argv = [FFMPEG, "-v", "error", "-y", "-f", "lavfi", "-i", c.spec, "-frames:v", str(c.frames),
            "-pix_fmt", "rgb24", str(d / "%04d.png")]
    recipe = " ".join(argv[1:]) + "\n" + first_line([FFMPEG, "-version"]) + "\n"
    stamp = d / ".recipe"
    if stamp.exists() and stamp.read_text() == recipe and len(list(d.glob("*.png"))) == c.frames:
        return d
    log(f"bench: generating {c.name} ({c.frames} frames, {c.spec})")
    shutil.rmtree(d, ignore_errors=True)
    d.mkdir(parents=True)
    subprocess.run(argv, check=True, stdin=subprocess.DEVNULL)
    stamp.write_text(recipe)
    return d


def frame_files(d):
    return sorted(str(p) for p in d.glob("*.png"))


# ---------------------------------------------------------------- encoders

def runs_for(c, frames_dir, out):
    """Every encoder invocation for one corpus, in the order they run."""
    files = frame_files(frames_dir)
    delay_cs = 100 // FPS

    def throbber(path, *extra):
        return [THROBBER, "encode", frames_dir, "-o", path, "--fps", FPS, "--loop", 0, "-q", *extra]

    def ffmpeg(path, graph):
        return [FFMPEG, "-v", "error", "-y", "-framerate", FPS, "-i", frames_dir / "%04d.png",
                "-vf", graph, path]

    runs = [Run("throbber", throbber(out / "throbber.gif"), out / "throbber.gif", "throbber")]
    for q in QUALITIES:
        p = out / f"throbber-q{q}.gif"
        runs.append(Run(f"throbber --quality {q}", throbber(p, "--quality", q), p, "curve", quality=q))
    runs += [
        Run("ImageMagick convert", [CONVERT, "-delay", delay_cs, "-loop", 0, *files, out / "convert.gif"],
            out / "convert.gif", "peer"),
        Run("ImageMagick + gifsicle -O3", [GIFSICLE, "-O3", out / "convert.gif", "-o", out / "convert-O3.gif"],
            out / "convert-O3.gif", "step", adds_to="ImageMagick convert"),
        Run("ffmpeg palettegen (global)",
            ffmpeg(out / "ffmpeg-global.gif", "split[a][b];[a]palettegen[p];[b][p]paletteuse"),
            out / "ffmpeg-global.gif", "peer"),
        Run("ffmpeg stats_mode=single",
            ffmpeg(out / "ffmpeg-single.gif",
                   "split[a][b];[a]palettegen=stats_mode=single[p];[b][p]paletteuse=new=1"),
            out / "ffmpeg-single.gif", "peer"),
        Run("Pillow save_all", [sys.executable, HERE / "pillow_encode.py", out / "pillow.gif",
                                1000 // FPS, *files], out / "pillow.gif", "peer"),
    ]
    return runs


def row_times(run, by_name):
    """Per-repeat wall times, peak RSS and CPU times of a row; a step adds
    its base run (times summed, the larger peak RSS)."""
    if run.kind != "step":
        return run.times, run.rss_kb, run.cpu
    base = by_name[run.adds_to]
    return ([a + b for a, b in zip(base.times, run.times)],
            [max(a, b) for a, b in zip(base.rss_kb, run.rss_kb)],
            [a + b for a, b in zip(base.cpu, run.cpu)])


# ---------------------------------------------------------------- scoring

_SOURCES = None  # source frames of the corpus being scored (inherited by the pool's forks)


def _score(path):
    return gifmetrics.score(path, _SOURCES, FPS)


def score_all(runs, frames_dir, jobs):
    global _SOURCES
    _SOURCES = [gifmetrics.load_rgb(f) for f in frame_files(frames_dir)]
    paths = [str(r.output) for r in runs]
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(jobs) as pool:
        results = pool.map(_score, paths)
    for r, m in zip(runs, results):
        m["bytes"] = r.output.stat().st_size
        r.metrics = m
    _SOURCES = None


# ---------------------------------------------------------------- one corpus

def bench_corpus(c, base, repeat, jobs):
    frames_dir = make_corpus(c, base / "corpora")
    out = base / "out" / c.name
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    log_path = base / "logs" / f"{c.name}.log"
    log_path.write_text("")
    runs = runs_for(c, frames_dir, out)
    time_runs(runs, repeat, log_path, f"bench: {c.name}")
    log(f"bench: {c.name}: scoring {len(runs)} GIFs")
    score_all(runs, frames_dir, jobs)
    return runs


def time_runs(runs, repeat, log_path, label):
    """Times every run `repeat` times, interleaved (each round runs every
    command once, so slow spells hit all alike), hashing throbber's outputs
    to check they do not change between rounds."""
    for rep in range(repeat):
        log(f"{label}: run {rep + 1}/{repeat} (load {' '.join(loadavg())})")
        for r in runs:
            wall, rss, cpu = timed(r.argv, log_path)
            r.times.append(wall)
            r.rss_kb.append(rss)
            r.cpu.append(cpu)
            if r.kind in ("throbber", "curve"):
                r.hashes.append(sha256(r.output))


def corpus_rows(runs):
    """The rows of a corpus table: throbber, its curve and the peers."""
    by_name = {r.name: r for r in runs}
    rows = []
    for r in runs:
        t, m, cpu = row_times(r, by_name)
        rows.append({
            "name": r.name, "kind": "peer" if r.kind == "step" else r.kind, "quality": r.quality,
            "argv": " ".join(map(str, r.argv)), "times": t, "rss_kb": m, "cpu_times": cpu,
            "time": median(t), "cpu": median(cpu), "rss_mb": mb(median(m)),
            "deterministic": len(set(r.hashes)) <= 1, "output": str(r.output), **r.metrics,
        })
    return rows


# ---------------------------------------------------------------- refinement

def _fits(ours, peer):
    return ours["bytes"] <= peer["bytes"] and ours["psnr"] >= peer["psnr"] and ours["ssim"] >= peer["ssim"]


def refine(c, rows, base, jobs):
    """Target 1 asks whether *some* --quality matches each peer at its size;
    the 100…30 curve samples only every 10th. For a peer that no sampled point
    matches, try every quality strictly between two neighbouring curve points
    where the file size crosses the peer's (one run each, scored like the
    rest). Adds rows of kind "refine"."""
    frames_dir = base / "corpora" / c.name
    return refine_rows(
        rows, lambda q, path: [THROBBER, "encode", frames_dir, "-o", path, "--fps", FPS, "--loop", 0, "-q",
                               "--quality", q],
        base / "out" / c.name, base / "logs" / f"{c.name}.log", frames_dir, jobs, f"bench: {c.name}")


def refine_rows(rows, argv_for, out, log_path, score_dir, jobs, label, score=None):
    """refine()'s search, for any throbber command: `argv_for(q, path)`
    encodes at --quality q to path; the new rows are scored against the
    frames in `score_dir`, or by `score(runs)` when given (it sets each
    run's metrics)."""
    curve = sorted([r for r in rows if r["kind"] == "curve"], key=lambda r: r["quality"])
    peers = [r for r in rows if r["kind"] == "peer"]
    tried = {r["quality"] for r in curve}
    for p in peers:
        if any(_fits(r, p) for r in rows if r["kind"] in ("throbber", "curve", "refine", "alt")):
            continue
        todo = []
        for lo, hi in zip(curve, curve[1:]):
            if (lo["bytes"] <= p["bytes"]) != (hi["bytes"] <= p["bytes"]):
                todo += [q for q in range(lo["quality"] + 1, hi["quality"]) if q not in tried]
        runs = []
        for q in todo:
            tried.add(q)
            path = out / f"throbber-q{q}.gif"
            argv = argv_for(q, path)
            wall, rss, cpu = timed(argv, log_path, retries=0, quiet=False)  # its time is informative only
            runs.append(Run(f"throbber --quality {q}", argv, path, "refine", quality=q,
                            times=[wall], rss_kb=[rss], cpu=[cpu]))
        if runs:
            log(f"{label}: refining around {p['name']}: --quality {', '.join(str(r.quality) for r in runs)}")
            if score is None:
                score_all(runs, score_dir, jobs)
            else:
                score(runs)
            rows += corpus_rows(runs)
    return rows


# ---------------------------------------------------------------- targets

def check_targets(name, rows, frames):
    """The first three targets on one corpus: list of (target, ok, text)."""
    ours = next(r for r in rows if r.get("kind") == "throbber")
    curve = [r for r in rows if r["kind"] == "curve"]
    peers = [r for r in rows if r["kind"] == "peer"]
    checks = []

    # 1. At every peer's size at least as good.
    candidates = [ours] + curve + [r for r in rows if r["kind"] == "refine"]
    for p in peers:
        fits = [c for c in candidates if _fits(c, p)]
        if fits:
            best = min(fits, key=lambda c: c["bytes"])
            text = (f"vs {p['name']} ({p['bytes']:,} B, {fmt_psnr(p['psnr'])} dB, SSIM {p['ssim']:.4f}): "
                    f"{best['name']} gives {best['bytes']:,} B, {fmt_psnr(best['psnr'])} dB, SSIM {best['ssim']:.4f}")
            checks.append((1, True, text))
        else:
            smaller = [c for c in candidates if c["bytes"] <= p["bytes"]]
            if smaller:
                near = max(smaller, key=lambda c: c["bytes"])
                why = (f"largest of ours that fits, {near['name']}: {near['bytes']:,} B, "
                       f"{fmt_psnr(near['psnr'])} dB ({near['psnr'] - p['psnr']:+.2f}), "
                       f"SSIM {near['ssim']:.4f} ({near['ssim'] - p['ssim']:+.4f})")
            else:
                small = min(candidates, key=lambda c: c["bytes"])
                why = f"even our smallest, {small['name']}, is {small['bytes']:,} B"
            checks.append((1, False, f"vs {p['name']} ({p['bytes']:,} B, {fmt_psnr(p['psnr'])} dB, "
                                      f"SSIM {p['ssim']:.4f}): no --quality of ours is as small and as good; {why}"))

    # 2. By default the best quality of the field.
    best_psnr = max(peers, key=lambda p: p["psnr"])
    best_ssim = max(peers, key=lambda p: p["ssim"])
    lossless_peers = [p["name"] for p in peers if p["exact"] == frames]
    ok_psnr = ours["psnr"] >= best_psnr["psnr"] - PSNR_SLACK_DB
    ok_ssim = ours["ssim"] >= best_ssim["ssim"] - SSIM_SLACK
    ok_lossless = not lossless_peers or ours["exact"] == frames
    text = (f"default {fmt_psnr(ours['psnr'])} dB / SSIM {ours['ssim']:.4f}; best peer PSNR "
            f"{fmt_psnr(best_psnr['psnr'])} ({best_psnr['name']}, {ours['psnr'] - best_psnr['psnr']:+.2f} dB), "
            f"best SSIM {best_ssim['ssim']:.4f} ({best_ssim['name']}, {ours['ssim'] - best_ssim['ssim']:+.5f}); "
            f"limits -{PSNR_SLACK_DB} dB, -{SSIM_SLACK}")
    if lossless_peers:
        text += f"; lossless peers: {', '.join(lossless_peers)}; ours exact on {ours['exact']}/{frames} frames"
    checks.append((2, ok_psnr and ok_ssim and ok_lossless, text))

    # 3. Default wall time within 1.5x of ffmpeg stats_mode=single.
    single = next(r for r in rows if r["name"] == "ffmpeg stats_mode=single")
    ratio = ours["time"] / single["time"] if single["time"] > 0 else float("inf")
    checks.append((3, ratio <= TIME_RATIO,
                   f"default {ours['time']:.2f} s vs ffmpeg stats_mode=single {single['time']:.2f} s: "
                   f"{ratio:.2f}x (limit {TIME_RATIO}x)"))

    # Not a target, but a promise of ARCHITECTURE.md worth watching.
    nondet = [r["name"] for r in rows if r["kind"] in ("throbber", "curve") and not r["deterministic"]]
    if nondet:
        checks.append(("det", False, "output bytes differed between repeats: " + ", ".join(nondet)))
    return checks


def bench_memory(base, repeat):
    """Peak RSS of throbber (default settings) on the memory corpora."""
    results = []
    log_path = base / "logs" / "memory.log"
    log_path.write_text("")
    out = base / "out" / "memory"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    dirs = {c.name: make_corpus(c, base / "corpora") for c in MEMORY}
    rec = {c.name: {"times": [], "rss_kb": []} for c in MEMORY}
    for rep in range(repeat):
        log(f"bench: memory: run {rep + 1}/{repeat} (load {' '.join(loadavg())})")
        for c in MEMORY:
            gif = out / f"{c.name}.gif"
            # Peak RSS does not depend on other processes: no waiting, no repeats.
            wall, rss, _ = timed([THROBBER, "encode", dirs[c.name], "-o", gif, "--fps", FPS, "--loop", 0, "-q"],
                                 log_path, retries=0, quiet=False)
            rec[c.name]["times"].append(wall)
            rec[c.name]["rss_kb"].append(rss)
    for c in MEMORY:
        r = rec[c.name]
        results.append({"name": c.name, "source": c.lavfi.split(":")[0], "size": c.size, "frames": c.frames,
                        "bytes": (out / f"{c.name}.gif").stat().st_size,
                        "time": median(r["times"]), "rss_mb": mb(median(r["rss_kb"])),
                        "rss_max_mb": mb(max(r["rss_kb"])), "times": r["times"], "rss_kb": r["rss_kb"]})
    return results


def memory_checks(mem):
    checks = []
    by = {(m["source"], m["frames"]): m for m in mem}
    for source in sorted({m["source"] for m in mem}):
        small, big = by[(source, 150)], by[(source, 600)]
        ok_limit = big["rss_max_mb"] < RSS_LIMIT_MB
        growth = big["rss_mb"] / small["rss_mb"] - 1
        ok_flat = growth <= RSS_GROWTH
        checks.append((4, ok_limit and ok_flat,
                       f"{source} 640x360: 600 frames peak {big['rss_max_mb']:.1f} MB (limit {RSS_LIMIT_MB:.0f}), "
                       f"150 frames {small['rss_mb']:.1f} MB, growth {growth:+.0%} (limit +{RSS_GROWTH:.0%})"))
    return checks


# ---------------------------------------------------------------- report

TARGET_NAMES = {
    1: "at every peer's size at least as good",
    2: "default quality is the best of the field",
    3: f"default wall time ≤ {TIME_RATIO}x ffmpeg stats_mode=single",
    4: f"600 frames of 640x360 under {RSS_LIMIT_MB:.0f} MB, flat in frame count",
    "det": "deterministic output",
}


def environment(args):
    cpu = "?"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
        mem = next(l for l in open("/proc/meminfo") if l.startswith("MemTotal")).split()[1]
        mem = f"{int(mem) / 1024 / 1024:.1f} GiB"
    except (OSError, StopIteration):
        mem = "?"
    git = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                         capture_output=True, text=True).stdout.strip() or "?"
    dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--", "Sources", "Package.swift"],
                           capture_output=True, text=True).stdout.strip()
    debian = Path("/etc/debian_version").read_text().strip() if Path("/etc/debian_version").exists() else "?"
    return {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": f"{cpu}, {os.cpu_count()} cores, {mem} RAM; Linux {platform.release()}, Debian {debian}",
        "throbber": f"{first_line([THROBBER, '--version'])} ({THROBBER}, sha256 {sha256(THROBBER)[:12]}; "
                    f"repository at {git}{' with Sources modified' if dirty else ''} when the benchmark ran)",
        "libimagequant": dpkg_version("libimagequant0"),
        "giflib": dpkg_version("libgif7"),
        "ffmpeg": first_line([FFMPEG, "-version"]),
        "ImageMagick": first_line([CONVERT, "-version"]),
        "gifsicle": first_line([GIFSICLE, "--version"]),
        "Pillow": f"Pillow {PIL.__version__} (Python {platform.python_version()}, numpy {np.__version__})",
        "repeat": args.repeat,
    }


def table_corpus(c, rows):
    ours = next(r for r in rows if r["kind"] == "throbber")
    single = next(r for r in rows if r["name"] == "ffmpeg stats_mode=single")
    lines = [f"### {c.name}: {c.frames} frames, `{c.spec}`", "",
             "| encoder | frames | bytes | × throbber | PSNR dB | SSIM | exact frames | wall s | × ffmpeg single | CPU s | peak RSS MB |",
             "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|"]
    notes = []
    for r in [ours] + [r for r in rows if r["kind"] == "peer"]:
        lines.append(f"| {r['name']} | {r['frames']} | {r['bytes']:,} | {r['bytes'] / ours['bytes']:.2f} | "
                     f"{fmt_psnr(r['psnr'])} | {r['ssim']:.4f} | {r['exact']}/{c.frames} | {r['time']:.2f} | "
                     f"{r['time'] / single['time']:.2f} | {r['cpu']:.2f} | {r['rss_mb']:.0f} |")
        if r["duration_ms"] != c.frames * 1000 // FPS:
            notes.append(f"{r['name']}: loop lasts {r['duration_ms']} ms, not {c.frames * 1000 // FPS} ms")
        if r["transparent_pixels"]:
            notes.append(f"{r['name']}: {r['transparent_pixels']:,} composited pixels are not opaque")
        if r["size_mismatch"]:
            notes.append(f"{r['name']}: frame size differs from the source")
    lines += ["", f"throbber's `--quality` curve on {c.name}:", "",
              "| --quality | bytes | × default | PSNR dB | SSIM | exact frames | wall s | CPU s | peak RSS MB |",
              "|--:|--:|--:|--:|--:|--:|--:|--:|--:|"]
    for r in sorted([r for r in rows if r["kind"] in ("curve", "refine")], key=lambda r: -r["quality"]):
        mark = "*" if r["kind"] == "refine" else ""
        lines.append(f"| {r['quality']}{mark} | {r['bytes']:,} | {r['bytes'] / ours['bytes']:.2f} | {fmt_psnr(r['psnr'])} | "
                     f"{r['ssim']:.4f} | {r['exact']}/{c.frames} | {r['time']:.2f} | {r['cpu']:.2f} | {r['rss_mb']:.0f} |")
        if r["transparent_pixels"] or r["size_mismatch"] or r["duration_ms"] != c.frames * 1000 // FPS:
            notes.append(f"{r['name']}: {r['transparent_pixels']:,} non-opaque pixels, loop {r['duration_ms']} ms, "
                         f"size mismatch {r['size_mismatch']}")
    if any(r["kind"] == "refine" for r in rows):
        lines += ["", "\\* a refinement point (one run), tried because no point of the 100…30 curve "
                  "matched some peer at its size (target 1)."]
    if notes:
        lines += ["", "Notes: " + "; ".join(notes) + "."]
    return lines


def render(env, corpora, mem, checks):
    L = ["# Throbber benchmark results", "",
         f"- date: {env['date']}", f"- machine: {env['machine']}",
         f"- timing: median of {env['repeat']} interleaved runs, `/usr/bin/time -f \"%e %M %U %S\"` "
         "(wall s, peak RSS, user+system CPU s; MB = 10^6 bytes); "
         f"{env['noise']['disturbed']} of {env['noise']['runs']} runs were disturbed by other processes "
         f"(> {NOISE_CORES} cores busy besides the command), those of the speed comparison then "
         f"repeated up to {RETRIES} times; "
         f"{env['noise']['waited_s']:.0f} s spent waiting for an idle machine"]
    for k in ("throbber", "libimagequant", "giflib", "ffmpeg", "ImageMagick", "gifsicle", "Pillow"):
        L.append(f"- {k}: {env[k]}")
    L.append("")
    for c, rows in corpora:
        L += table_corpus(c, rows) + [""]
    if mem:
        L += ["### Memory: throbber default on 640x360 frames", "",
              "| corpus | frames | bytes | wall s | peak RSS MB (median) | peak RSS MB (max) |",
              "|---|--:|--:|--:|--:|--:|"]
        for m in mem:
            L.append(f"| {m['source']} {m['size']} | {m['frames']} | {m['bytes']:,} | {m['time']:.2f} | "
                     f"{m['rss_mb']:.1f} | {m['rss_max_mb']:.1f} |")
        L.append("")
    L += ["### Targets", ""]
    for where, target, ok, text in checks:
        L.append(f"- {'PASS' if ok else 'FAIL'} [{target}: {TARGET_NAMES[target]}] {where}: {text}")
    L.append("")
    # Summary grid: corpus x target.
    names = [c.name for c, _ in corpora]
    L += ["| target | " + " | ".join(names) + " |", "|---|" + "--:|" * len(names)]
    for t in (1, 2, 3):
        cells = []
        for n in names:
            mine = [ok for where, target, ok, _ in checks if where == n and target == t]
            cells.append(("PASS" if all(mine) else f"FAIL ({mine.count(False)}/{len(mine)})") if mine else "–")
        L.append(f"| {t}. {TARGET_NAMES[t]} | " + " | ".join(cells) + " |")
    mem_checks = [ok for _, t, ok, _ in checks if t == 4]
    if mem_checks:
        L.append(f"| 4. {TARGET_NAMES[4]} | " + ("PASS" if all(mem_checks) else "FAIL") +
                 " (memory corpora) |" + " |" * (len(names) - 1))
    return "\n".join(L) + "\n"


# ---------------------------------------------------------------- main

def safe_work_dir(path):
    """The work dir, refusing places inside the repository or ../shared."""
    p = Path(path).resolve()
    for forbidden in (ROOT, ROOT.parent / "shared"):
        f = forbidden.resolve()
        if p == f or f in p.parents:
            raise SystemExit(f"bench: BENCH_DIR {p} is inside {f}; use a directory outside the repository")
    return p


def main():
    global THROBBER, FFMPEG, CONVERT, GIFSICLE, RETRIES
    ap = argparse.ArgumentParser(description="Throbber against peer GIF encoders (see docs/benchmarks.md).")
    ap.add_argument("--repeat", type=int, default=int(os.environ.get("BENCH_REPEAT", 3)),
                    help="timed runs per command; the median is reported (default 3)")
    ap.add_argument("--corpus", action="append", choices=[c.name for c in CORPORA],
                    help="only this corpus (repeatable); default all")
    ap.add_argument("--no-memory", action="store_true", help="skip the 600/150-frame memory test")
    ap.add_argument("--retries", type=int, default=RETRIES,
                    help=f"times a run disturbed by other processes (> {NOISE_CORES} cores) is repeated (default {RETRIES})")
    ap.add_argument("--no-refine", action="store_true",
                    help="check target 1 on the 100…30 curve only (no in-between qualities)")
    ap.add_argument("--strict", action="store_true", help="exit 1 if any target fails")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes for scoring")
    ap.add_argument("--small", action="store_true",
                    help="a --quality curve of 5 points instead of 8, the memory test on life alone")
    args = ap.parse_args()

    RETRIES = args.retries
    if args.small:
        QUALITIES[:] = SMALL_QUALITIES
        MEMORY[:] = [c for c in MEMORY if c.lavfi.startswith("life")]
    THROBBER = Path(os.environ.get("THROBBER") or ROOT / ".build/release/throbber").absolute()
    FFMPEG = tool_path("FFMPEG", "ffmpeg")
    # Debian's ImageMagick 6 binary, not a wrapper that may shadow it on PATH.
    CONVERT = os.environ.get("CONVERT") or ("/usr/bin/convert" if os.path.exists("/usr/bin/convert")
                                            else tool_path("CONVERT", "convert"))
    GIFSICLE = tool_path("GIFSICLE", "gifsicle")
    for name, path in (("throbber (set THROBBER or run `make build`)", THROBBER), ("ffmpeg", FFMPEG),
                       ("ImageMagick convert", CONVERT), ("gifsicle", GIFSICLE)):
        if not (os.path.isfile(path) and os.access(path, os.X_OK)) and not shutil.which(str(path)):
            raise SystemExit(f"bench: {name} not found at {path}; `scripts/install-deps --bench` installs the peers")

    base = safe_work_dir(os.environ.get("BENCH_DIR", "/tmp/throbber-bench"))
    for sub in ("corpora", "out", "logs"):
        (base / sub).mkdir(parents=True, exist_ok=True)
    env = environment(args)
    env["load_start"] = loadavg()
    log(f"bench: work dir {base}; throbber {THROBBER}")

    chosen = [c for c in CORPORA if not args.corpus or c.name in args.corpus]
    corpora, checks = [], []
    for c in chosen:
        rows = corpus_rows(bench_corpus(c, base, args.repeat, args.jobs))
        if not args.no_refine:
            rows = refine(c, rows, base, args.jobs)
        corpora.append((c, rows))
        checks += [(c.name, t, ok, text) for t, ok, text in check_targets(c.name, rows, c.frames)]
        # Partial results as we go, so a long run can be watched.
        print("\n".join(table_corpus(c, rows)) + "\n", flush=True)
    mem = []
    if not args.no_memory:
        mem = bench_memory(base, args.repeat)
        checks += [("memory", t, ok, text) for t, ok, text in memory_checks(mem)]
    env["load_end"] = loadavg()
    env["noise"] = dict(NOISE)

    report = render(env, corpora, mem, checks)
    (base / "results.md").write_text(report)
    (base / "results.json").write_text(json.dumps(
        {"environment": env, "corpora": {c.name: rows for c, rows in corpora}, "memory": mem,
         "checks": [{"where": w, "target": t, "pass": ok, "text": x} for w, t, ok, x in checks]},
        indent=1, default=str))
    print(report)
    log(f"bench: results in {base / 'results.md'} and results.json; load {' '.join(env['load_start'])} at start, "
        f"{' '.join(env['load_end'])} at end")
    failed = [c for c in checks if not c[2]]
    if failed:
        log(f"bench: {len(failed)} target check(s) failed")
    sys.exit(1 if failed and args.strict else 0)


if __name__ == "__main__":
    main()
