"""Speed against the peers (issue #40): each default encode's wall time
beside its peer's, in ONE interleaved run, against the bounds the project
holds itself to. Run it via Benchmarks/run-speed (or `make bench-speed`).

For round in 1..--repeat: for every (case, corpus): the case's commands run
back to back, in the opposite order every other round (so that neither side
always runs first, and a slow spell of the shared machine meets both alike).
Every run is timed with bench.run_measured (wall time to the microsecond,
user+system CPU time) and its output's bytes are kept; the CPU time other
processes used during the run (/proc/stat) is recorded beside it. Before
each (case, corpus) group the harness waits up to --quiet-wait seconds for
an idle machine. The commands are what a user types (DIR is the frame
folder, 25 fps):

  gif        throbber encode DIR -o x.gif --fps 25
             against ffmpeg -framerate 25 -i DIR/%04d.png -vf
             "split[a][b];[a]palettegen=stats_mode=single[p];[b][p]paletteuse=new=1" x.gif
             bound: ≤ 0.8× ffmpeg's wall time on the 320x240 corpora, ≤ 1.0× elsewhere
  apng       throbber encode DIR -o x.png --fps 25
             against apngasm x.png DIR/*.png 1 25 (bound: apngasm ≥ 5× our wall time)
             and ffmpeg -framerate 25 -i DIR/%04d.png -plays 0 -f apng x.png (bytes, one
             untimed run: bound ≤ 1.0× its size)
  max-bytes  throbber encode DIR -o x.gif --fps 25 --max-bytes B, B = 50 % and 25 % of the
             default GIF's bytes, against the default encode (bound: ≤ 2× its wall time)
  webp       throbber encode DIR -o x.webp --fps 25
             against img2webp -lossless -d 40 DIR/*.png -o x.webp (libwebp's default
             effort, -m 4 -q 75; bounds: ≤ 1.2× its wall time, ≤ 1.0× its size)
  lottie     throbber encode F.json -o x.gif --matte white [--width W --height H]
             against rlottie-python's LottieAnimation.from_file(F).save_animation("x.gif"
             [, width=W, height=H]), as Benchmarks/lottie.py runs both (white matte, files
             over 256 px converted at that size by both); bound: ≤ 1.0× its wall time

Corpora ($BENCH_DIR/corpora, made once): the GIF benchmark's testsrc2,
mandelbrot and life at 320x240 and testsrc2 at 1280x720 (Benchmarks/bench.py),
testsrc2 at 640x480, natural-320x240 (the 60 grayscale camera frames of
../shared/fixtures/photo-seq-dlib-bobot), photo-320x240 (a 30-frame sepia
pan with grain over three of those frames, Benchmarks/webp_time_ab.py's
recipe), and two
640x400 screen recordings by headless Chromium (Benchmarks/screencast.py):
the scrolling GPL-3 text, and a colored page whose frames have more than
2000 colors. Lottie: every .json in LOTTIE_DIR (../shared/fixtures/lottie-android);
rlottie-python lives in $BENCH_DIR/venv (made by Benchmarks/lottie.py on first use).

Prints a table a bound (corpus, our median, the peer's median, ratio, bound,
ok/OVER, bytes ours and the peer's) and writes it all to
$BENCH_DIR/speed-results.json. Usage:

  THROBBER=.build/release/throbber BENCH_DIR=/tmp/throbber-bench Benchmarks/run-speed \\
      [--repeat 5] [--only gif,apng,max-bytes,webp,lottie] [--corpus NAME]... [--quiet-wait S]

--corpus filters the frame corpora and the Lottie files (by name without
.json) alike; the same cases and corpora run in every round.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import bench
import lottie
import screencast
from bench import log, median

FPS = 25
CASES = ["gif", "apng", "max-bytes", "webp", "lottie"]
FFMPEG_SINGLE = "split[a][b];[a]palettegen=stats_mode=single[p];[b][p]paletteuse=new=1"
BUDGETS = [50, 25]
PHOTOS = bench.ROOT.parent / "shared" / "fixtures" / "photo-seq-dlib-bobot"
LOTTIE_DIR = Path(os.environ.get("LOTTIE_DIR") or bench.ROOT.parent / "shared" / "fixtures" / "lottie-android")

# The bounds of issue #40 on the ratios (the docstring says which ratio each limits).
GIF_BOUND_SMALL, GIF_BOUND = 0.8, 1.0
APNG_SPEEDUP = 5.0
BUDGET_TIME = 2.0
WEBP_TIME = 1.2
LOTTIE_TIME = 1.0


@dataclass
class Corpus:
    """A frame folder: its name, what it is, how it is made (a function of
    the corpora folder returning the frame folder) and its frames' file
    pattern for ffmpeg."""
    name: str
    what: str
    make: object
    pattern: str = "%04d.png"


def lavfi(name):
    """A corpus of Benchmarks/bench.py's recipes (its CORPORA, or testsrc2 at 640x480)."""
    known = {c.name: c for c in bench.CORPORA}
    known["testsrc2-640x480"] = bench.Corpus("testsrc2-640x480", "testsrc2", "640x480", 60)
    c = known[name]
    return Corpus(name, f"{c.frames} frames of `{c.spec}`", lambda base: bench.make_corpus(c, base))


def made(d, argvs, count):
    """Runs the ffmpeg commands argvs (which fill folder d with `count` PNG
    frames) unless d holds the frames of the same commands and ffmpeg."""
    recipe = "\n".join(" ".join(a[1:]) for a in argvs) + "\n" + bench.first_line([bench.FFMPEG, "-version"]) + "\n"
    stamp = d / ".recipe"
    if stamp.exists() and stamp.read_text() == recipe and len(list(d.glob("*.png"))) == count:
        return d
    log(f"speed: making {d}")
    shutil.rmtree(d, ignore_errors=True)
    d.mkdir(parents=True)
    for argv in argvs:
        subprocess.run(argv, check=True, stdin=subprocess.DEVNULL)
    stamp.write_text(recipe)
    return d


def make_natural(base):
    """photo-seq-dlib-bobot's 60 JPEG frames as RGB PNG frames."""
    d = base / "natural-320x240"
    return made(d, [[bench.FFMPEG, "-v", "error", "-y", "-start_number", "100", "-i",
                     str(PHOTOS / "frame_%06d.jpg"), "-frames:v", "60", "-pix_fmt", "rgb24", str(d / "%04d.png")]],
                60)


def make_photo_pan(base):
    """A photographic pan, the recipe of Benchmarks/webp_time_ab.py's
    photo-320x240: three photo-seq-dlib-bobot frames side by side, tinted
    sepia, with static color noise of strength 5 (a camera's grain), a
    320x240 window moving 22 px a frame, 30 frames."""
    d = base / "photo-320x240"
    still = base / "photo-320x240-still.png"
    inputs = [x for n in (100, 130, 159) for x in ("-i", str(PHOTOS / f"frame_{n:06d}.jpg"))]
    ff = [bench.FFMPEG, "-v", "error", "-y"]
    return made(d, [
        ff + inputs + ["-filter_complex", "[0][1][2]hstack=3,format=rgb24,colorchannelmixer=rr=1.0:gg=0.85:bb=0.65:"
                       "rb=0.1,format=gbrp,noise=c0s=5:c1s=5:c2s=5:all_seed=7,format=rgb24", str(still)],
        ff + ["-loop", "1", "-i", str(still), "-vf", "crop=320:240:x='min(640,n*22)':y=0", "-frames:v", "30",
              "-pix_fmt", "rgb24", str(d / "%04d.png")]], 30)


CORPORA = [
    lavfi("testsrc2-320x240"),
    lavfi("mandelbrot-320x240"),
    lavfi("life-320x240"),
    Corpus("natural-320x240", "60 grayscale frames of a hand-held camera (photo-seq-dlib-bobot)", make_natural),
    Corpus("photo-320x240", "30 frames of a sepia photographic pan with grain (photo-seq-dlib-bobot)",
           make_photo_pan),
    lavfi("testsrc2-640x480"),
    lavfi("testsrc2-1280x720"),
    Corpus("screencast-text-640x400", "60 frames of the GPL-3 text scrolled 4 px a frame (headless Chromium)",
           lambda base: screencast.make_text_corpus(base / "screencast-text-640x400"), "f%03d.png"),
    Corpus("screencast-color-640x400", "60 frames of a colored page scrolled 6 px a frame, > 2000 colors each "
           "(headless Chromium)", lambda base: screencast.make_color_corpus(base / "screencast-color-640x400"),
           "f%03d.png"),
]
# The corpora of each frame-folder case.
CASE_CORPORA = {
    "gif": [c.name for c in CORPORA],
    "apng": ["testsrc2-320x240", "mandelbrot-320x240", "life-320x240", "natural-320x240", "testsrc2-1280x720",
             "screencast-color-640x400"],
    "max-bytes": ["testsrc2-320x240", "mandelbrot-320x240", "natural-320x240", "screencast-color-640x400"],
    "webp": ["testsrc2-320x240", "mandelbrot-320x240", "life-320x240", "natural-320x240", "photo-320x240",
             "screencast-color-640x400"],
}


@dataclass
class Command:
    """One command of a job: `shown` is how a user types it, `argv` what
    runs (or a function of the job's budgets, for --max-bytes); `timed`
    false runs it once, for its bytes."""
    label: str
    shown: str
    argv: object
    output: Path
    timed: bool = True
    allow: tuple = (0,)
    times: list = field(default_factory=list)
    cpu: list = field(default_factory=list)
    others: list = field(default_factory=list)
    bytes: int = None


@dataclass
class Job:
    """A (case, corpus) pair: its commands and the bounds read from them
    (label of ours, label of the peer, "time" or "bytes", op, limit,
    ratio = ours/peer, or peer/ours for a speed-up)."""
    case: str
    corpus: str
    what: str
    commands: list
    bounds: list
    budgets: dict = field(default_factory=dict)
    seconds: list = field(default_factory=list)
    failed: str = None


def frame_jobs(case, c, d, out):
    """The job of a frame-folder case on corpus c (frames in d)."""
    files = sorted(str(p) for p in d.glob("*.png"))
    pattern = str(d / c.pattern)
    thr = [str(bench.THROBBER), "encode", str(d)]
    gif = out / "throbber.gif"
    default = Command("throbber", "throbber encode DIR -o x.gif --fps 25", thr + ["-o", str(gif), "--fps", str(FPS)],
                      gif)
    if case == "gif":
        ff = out / "ffmpeg.gif"
        peer = Command("ffmpeg stats_mode=single", f'ffmpeg -framerate 25 -i DIR/{c.pattern} -vf "{FFMPEG_SINGLE}" '
                       "x.gif", [bench.FFMPEG, "-framerate", str(FPS), "-i", pattern, "-vf", FFMPEG_SINGLE, str(ff)],
                       ff)
        limit = GIF_BOUND_SMALL if c.name.endswith("320x240") else GIF_BOUND
        return Job(case, c.name, c.what, [default, peer], [("throbber", "ffmpeg stats_mode=single", "time", "<=",
                                                             limit)])
    if case == "apng":
        png, asm, ff = out / "throbber.png", out / "apngasm.png", out / "ffmpeg.png"
        ours = Command("throbber", "throbber encode DIR -o x.png --fps 25", thr + ["-o", str(png), "--fps", str(FPS)],
                       png)
        peer = Command("apngasm", "apngasm x.png DIR/*.png 1 25", ["apngasm", str(asm), *files, "1", str(FPS)], asm)
        size = Command("ffmpeg apng", f"ffmpeg -framerate 25 -i DIR/{c.pattern} -plays 0 -f apng x.png",
                       [bench.FFMPEG, "-framerate", str(FPS), "-i", pattern, "-plays", "0", "-f", "apng", str(ff)], ff,
                       timed=False)
        return Job(case, c.name, c.what, [ours, peer, size],
                   [("throbber", "apngasm", "speedup", ">=", APNG_SPEEDUP), ("throbber", "ffmpeg apng", "bytes", "<=",
                                                                               1.0)])
    if case == "max-bytes":
        default.label = "default"
        job = Job(case, c.name, c.what, [default], [])
        for p in BUDGETS:
            path = out / f"budget-{p}.gif"
            job.commands.append(Command(
                f"--max-bytes {p} %", "throbber encode DIR -o x.gif --fps 25 --max-bytes B",
                lambda j, p=p, path=path: thr + ["-o", str(path), "--fps", str(FPS), "--max-bytes", str(j.budgets[p])],
                path, allow=(0, 65)))
            job.bounds.append((f"--max-bytes {p} %", "default", "time", "<=", BUDGET_TIME))
        return job
    webp, ref = out / "throbber.webp", out / "img2webp.webp"
    ours = Command("throbber", "throbber encode DIR -o x.webp --fps 25", thr + ["-o", str(webp), "--fps", str(FPS)],
                   webp)
    peer = Command("img2webp -lossless", "img2webp -lossless -d 40 DIR/*.png -o x.webp",
                   ["img2webp", "-lossless", "-d", str(1000 // FPS), *files, "-o", str(ref)], ref)
    return Job(case, c.name, c.what, [ours, peer], [("throbber", "img2webp -lossless", "time", "<=", WEBP_TIME),
                                                    ("throbber", "img2webp -lossless", "bytes", "<=", 1.0)])


def lottie_job(path, out, py):
    """The Lottie job of one file: our GIF against rlottie-python's, at
    Benchmarks/lottie.py's settings."""
    meta = json.loads(path.read_bytes())
    w, h, scale = lottie.output_size(int(meta["w"]), int(meta["h"]))
    sized = [] if scale == 1 else ["--width", str(w), "--height", str(h)]
    ours, peer = out / "throbber.gif", out / "rlottie-python.gif"
    script = ("import sys; from rlottie_python import LottieAnimation; LottieAnimation.from_file(sys.argv[1])"
              ".save_animation(sys.argv[2]" + ("" if scale == 1 else f", width={w}, height={h}") + ")")
    size, flags = (", width=W, height=H", " --width W --height H") if sized else ("", "")
    return Job("lottie", path.stem, f"{meta['w']}x{meta['h']}" + ("" if scale == 1 else f" → {w}x{h}"), [
        Command("throbber", f"throbber encode F.json -o x.gif --matte white{flags}",
                [str(bench.THROBBER), "encode", str(path), "-o", str(ours), "--matte", "white", *sized], ours),
        Command("rlottie-python", f'LottieAnimation.from_file(F).save_animation("x.gif"{size})',
                [str(py), "-c", script, str(path), str(peer)], peer),
    ], [("throbber", "rlottie-python", "time", "<=", LOTTIE_TIME)])


def run_once(job, cmd, log_path):
    """Runs one command of a job, timed; returns False when it failed."""
    argv = cmd.argv(job) if callable(cmd.argv) else cmd.argv
    cmd.output.unlink(missing_ok=True)
    with open(log_path, "a") as lg:
        lg.write("$ " + " ".join(argv) + "\n")
        lg.flush()
        before = bench.busy_cpu_seconds()
        rc, wall, _, cpu = bench.run_measured(argv, stdout=lg, stderr=lg)
        busy = bench.busy_cpu_seconds() - before
    if rc not in cmd.allow:
        job.failed = f"{cmd.label} exited {rc} (see {log_path})"
        log(f"speed: {job.case} {job.corpus}: {job.failed}")
        return False
    cmd.times.append(wall)
    cmd.cpu.append(cpu)
    cmd.others.append(max(0.0, busy - cpu))
    cmd.bytes = cmd.output.stat().st_size if cmd.output.exists() else None
    return True


def run_round(job, rnd, log_path, quiet_wait):
    """One round of a job: its timed commands back to back, reversed on
    every other round; the untimed ones in the first round only."""
    if job.failed:
        return
    if quiet_wait > 0:
        bench.wait_quiet(quiet_wait)
    start = time.monotonic()
    timed = [c for c in job.commands if c.timed]
    for cmd in (timed if rnd % 2 == 0 else timed[::-1]) + ([c for c in job.commands if not c.timed] if rnd == 0
                                                           else []):
        if not run_once(job, cmd, log_path):
            return
        if job.case == "max-bytes" and cmd.label == "default" and not job.budgets:
            job.budgets = {p: cmd.bytes * p // 100 for p in BUDGETS}
    job.seconds.append(time.monotonic() - start)


def bound_rows(job):
    """The job's bounds with their medians and verdicts."""
    by = {c.label: c for c in job.commands}
    rows = []
    for ours, peer, kind, op, limit in job.bounds:
        o, p = by[ours], by[peer]
        ot, pt = median(o.times), median(p.times) if p.timed else float("nan")
        if kind == "bytes":
            ratio = o.bytes / p.bytes if o.bytes and p.bytes else float("nan")
        elif kind == "speedup":
            ratio = pt / ot if ot > 0 else float("nan")
        else:
            ratio = ot / pt if pt > 0 else float("nan")
        ok = ratio == ratio and (ratio <= limit if op == "<=" else ratio >= limit)
        rows.append({"case": job.case, "corpus": job.corpus, "ours": ours, "peer": peer, "kind": kind,
                     "ours_s": ot, "peer_s": pt, "ratio": ratio, "op": op, "limit": limit, "ok": ok,
                     "ours_bytes": o.bytes, "peer_bytes": p.bytes, "refused": o.bytes is None, "runs": len(o.times)})
    return rows


BOUND_TITLES = {
    ("gif", "time"): "GIF default wall / ffmpeg stats_mode=single wall",
    ("apng", "speedup"): "APNG apngasm wall / default wall",
    ("apng", "bytes"): "APNG default bytes / ffmpeg APNG bytes",
    ("max-bytes", "time"): "--max-bytes wall / default wall",
    ("webp", "time"): "WebP default wall / img2webp -lossless wall",
    ("webp", "bytes"): "WebP default bytes / img2webp -lossless bytes",
    ("lottie", "time"): "Lottie wall / rlottie-python wall",
}


def tables(rows):
    """Markdown lines: a table a bound, rows in run order."""
    lines = []
    groups = {}
    for r in rows:
        key = (r["case"], r["kind"]) + ((r["ours"],) if r["case"] == "max-bytes" else ())
        groups.setdefault(key, []).append(r)
    for key, rs in groups.items():
        title = BOUND_TITLES[key[:2]] + (f" ({key[2]})" if len(key) > 2 else "")
        lines += [f"### {title}", "",
                  "| corpus | ours s | peer s | ratio | bound | verdict | bytes ours | bytes peer |",
                  "|---|--:|--:|--:|--:|---|--:|--:|"]
        for r in rs:
            lines.append(f"| {r['corpus']} | {seconds(r['ours_s'])} | {seconds(r['peer_s'])} | {r['ratio']:.3f} | "
                         f"{'≤' if r['op'] == '<=' else '≥'} {r['limit']:g} | {'ok' if r['ok'] else 'OVER'} | "
                         f"{'refused (exit 65)' if r['refused'] else format(r['ours_bytes'], ',')} | "
                         f"{r['peer_bytes']:,} |")
        lines.append("")
    return lines


def seconds(x):
    """A median in seconds, "–" for a command run once for its bytes."""
    return "–" if x != x else f"{x:.3f}"


def parse_only(values):
    chosen = [x.strip() for v in values or [] for x in v.split(",") if x.strip()]
    bad = [x for x in chosen if x not in CASES]
    if bad:
        raise SystemExit(f"speed: unknown case {', '.join(bad)} (cases: {', '.join(CASES)})")
    return [c for c in CASES if not chosen or c in chosen]


def make_jobs(cases, wanted, base):
    """Every (case, corpus) job, corpora made as needed."""
    jobs = []
    out = base / "out" / "speed"
    shutil.rmtree(out, ignore_errors=True)
    dirs = {}
    for case in cases:
        if case == "lottie":
            files = sorted(LOTTIE_DIR.glob("*.json"))
            files = [f for f in files if not wanted or f.stem in wanted]
            py = lottie.venv(base) if files else None
            for f in files:
                (out / case / f.stem).mkdir(parents=True)
                jobs.append(lottie_job(f, out / case / f.stem, py))
            continue
        for c in CORPORA:
            if c.name not in CASE_CORPORA[case] or (wanted and c.name not in wanted):
                continue
            if c.name not in dirs:
                dirs[c.name] = c.make(base / "corpora")
            (out / case / c.name).mkdir(parents=True)
            jobs.append(frame_jobs(case, c, dirs[c.name], out / case / c.name))
    return jobs


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=5, help="rounds; medians are reported (default 5)")
    ap.add_argument("--only", action="append", help=f"comma-separated cases of {','.join(CASES)} (default all)")
    ap.add_argument("--corpus", action="append", help="only this corpus or Lottie file (repeatable)")
    ap.add_argument("--quiet-wait", type=float, default=float(os.environ.get("BENCH_QUIET_WAIT", 10)),
                    help="seconds to wait for an idle machine before each case's commands (default 10)")
    args = ap.parse_args()
    cases = parse_only(args.only)
    bench.THROBBER = Path(os.environ.get("THROBBER") or bench.ROOT / ".build/release/throbber").absolute()
    bench.FFMPEG = bench.tool_path("FFMPEG", "ffmpeg")
    for tool in (str(bench.THROBBER), bench.FFMPEG, "apngasm", "img2webp", "chromium", "/usr/bin/time"):
        if not shutil.which(tool):
            raise SystemExit(f"speed: {tool} not found (`scripts/install-deps --bench` installs the peers)")
    base = bench.safe_work_dir(os.environ.get("BENCH_DIR", "/tmp/throbber-bench"))
    for sub in ("corpora", "logs"):
        (base / sub).mkdir(parents=True, exist_ok=True)
    known = {c.name for c in CORPORA} | {f.stem for f in LOTTIE_DIR.glob("*.json")}
    unknown = [n for n in args.corpus or [] if n not in known]
    if unknown:
        raise SystemExit(f"speed: unknown corpus {', '.join(unknown)} (known: {', '.join(sorted(known))})")
    jobs = make_jobs(cases, set(args.corpus or []), base)
    if not jobs:
        raise SystemExit("speed: nothing to run (no case has the corpora asked for)")
    log_path = base / "logs" / "speed.log"
    log_path.write_text("")
    load_start, start = bench.loadavg(), time.monotonic()
    log(f"speed: {len(jobs)} jobs, {args.repeat} rounds; throbber {bench.THROBBER}; work dir {base}")
    for rnd in range(args.repeat):
        log(f"speed: round {rnd + 1}/{args.repeat} (load {' '.join(bench.loadavg())})")
        for job in jobs:
            run_round(job, rnd, log_path, args.quiet_wait)
    rows = [r for j in jobs if not j.failed for r in bound_rows(j)]
    # A run is disturbed when other processes averaged more than
    # bench.NOISE_CORES cores during it (bench.timed's rule; not repeated here).
    runs = [(w, o) for j in jobs for c in j.commands for w, o in zip(c.times, c.others)]
    disturbed = sum(o > bench.NOISE_CORES * max(w, 0.1) for w, o in runs)
    result = {
        "repeat": args.repeat, "seconds": round(time.monotonic() - start, 1), "load_start": load_start,
        "load_end": bench.loadavg(), "throbber": f"{bench.first_line([bench.THROBBER, '--version'])} "
                                                 f"(sha256 {bench.sha256(bench.THROBBER)[:12]})",
        "command": " ".join(["Benchmarks/run-speed"] + sys.argv[1:]),
        "noise": {"runs": len(runs), "disturbed": disturbed},
        "jobs": [{"case": j.case, "corpus": j.corpus, "what": j.what, "failed": j.failed,
                  "round_seconds": [round(s, 2) for s in j.seconds],
                  "commands": [{"label": c.label, "shown": c.shown, "timed": c.timed, "times": c.times, "cpu": c.cpu,
                                "others_cpu": c.others, "median": median(c.times), "cpu_median": median(c.cpu),
                                "bytes": c.bytes} for c in j.commands]} for j in jobs],
        "bounds": rows,
    }
    (base / "speed-results.json").write_text(json.dumps(result, indent=1, default=str))
    per_case = {}
    for j in jobs:
        per_case[j.case] = per_case.get(j.case, 0.0) + median(j.seconds)
    print(f"# Speed against the peers: medians of {args.repeat} interleaved round{'s' * (args.repeat != 1)}\n")
    print("\n".join(tables(rows)))
    for j in jobs:
        if j.failed:
            print(f"- FAILED {j.case} {j.corpus}: {j.failed}")
    over = [r for r in rows if not r["ok"]]
    print(f"{len(rows) - len(over)} of {len(rows)} ratios within their bounds; {disturbed} of {len(runs)} runs had "
          f"other processes using more than {bench.NOISE_CORES} cores besides them")
    print("one round per case (median s): " + ", ".join(f"{k} {v:.1f}" for k, v in per_case.items())
          + f"; {result['seconds']:.0f} s in all")
    sys.exit(1 if any(j.failed for j in jobs) else 0)


if __name__ == "__main__":
    main()
