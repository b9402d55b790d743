"""`--max-bytes` at a peer's file size (issue #40), and the screen
recordings as lossy corpora, for Benchmarks/lossy.py.

For each corpus, a representative peer file of each family:

- ffmpeg with a palette per frame (`palettegen=stats_mode=single`,
  `paletteuse=new=1`), made here;
- ffmpeg with one palette (`palettegen` + `paletteuse`, 256 colors);
- `gifsicle -O3 --lossy=80` and `--lossy=200` on throbber's default output;
- the gifski recipe: pngquant `--quality 0-90` per frame, assembled by
  `gifsicle -O3 --lossy=80`;

the last four are the files lossy.py already made. For each, throbber
encodes with `--max-bytes` at that file's size; both files are scored by the
same function (Benchmarks/gifmetrics.py). A row WINs when our PSNR and SSIM
are both at least the peer's, and LOSEs otherwise (or when the budget is
refused). Time: each round encodes the default once and then every budget
once, so the ratio to the default's median comes from interleaved runs.
"""

import re
import statistics
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import bench
import gifmetrics
import screencast

SINGLE_GRAPH = "split[a][b];[a]palettegen=stats_mode=single[p];[b][p]paletteuse=new=1"
# The peer files of lossy.py measured at their size: (family, colors, lossy
# level, pngquant quality) as lossy.py records them.
AT_PEER = [("ffmpeg", 256, 0, None), ("gifsicle", 256, 80, None), ("gifsicle", 256, 200, None),
           ("pngquant+gifsicle", 256, 80, 90)]


@dataclass
class Screencast:
    """A screen recording of Benchmarks/screencast.py as a lossy corpus: its
    name (the speed suite's), what it is, its frame count, how its frames are
    made (a function of the corpora folder) and their ffmpeg file pattern."""
    name: str
    spec: str
    frames: int
    make: object
    pattern: str = "f%03d.png"


SCREENCASTS = [
    Screencast("screencast-text-640x400", "the GPL-3 text scrolled 4 px a frame (headless Chromium)",
               screencast.FRAMES, lambda base: screencast.make_text_corpus(base / "screencast-text-640x400")),
    Screencast("screencast-color-640x400", "a colored page scrolled 6 px a frame, > 2000 colors each "
               "(headless Chromium)", screencast.FRAMES,
               lambda base: screencast.make_color_corpus(base / "screencast-color-640x400")),
]


def make_frames(c, corpora):
    """The frame folder of corpus c (a bench.Corpus or a Screencast), made once in corpora."""
    return c.make(corpora) if isinstance(c, Screencast) else bench.make_corpus(c, corpora)


def pattern(c):
    """The ffmpeg file pattern of corpus c's frames."""
    return getattr(c, "pattern", "%04d.png")


def score_one(job):
    """(path, PSNR, SSIM) of the GIF at path against the frames in the folder."""
    path, frames_dir = job
    sources = [gifmetrics.load_rgb(f) for f in bench.frame_files(Path(frames_dir))]
    s = gifmetrics.score(path, sources, bench.FPS)
    return path, s["psnr"], s["ssim"]


def ffmpeg_single(frames, out, c):
    """ffmpeg's palette per frame: the peer record of its file (not yet scored)."""
    path = out / "ffmpeg-single.gif"
    subprocess.run([bench.FFMPEG, "-v", "error", "-y", "-framerate", str(bench.FPS), "-i",
                    str(Path(frames) / pattern(c)), "-vf", SINGLE_GRAPH, "-loop", "0", str(path)], check=True)
    return {"family": "ffmpeg-single", "colors": 256, "lossy": 0, "path": str(path), "bytes": path.stat().st_size,
            "label": "ffmpeg palettegen=stats_mode=single, paletteuse=new=1"}


def chosen(peers):
    """The peer records named by AT_PEER, in its order."""
    picked = []
    for family, colors, level, quality in AT_PEER:
        picked += [p for p in peers if (p["family"], p["colors"], p["lossy"], p.get("quality")) ==
                   (family, colors, level, quality)][:1]
    return picked


def choice(err, fits):
    """What a --max-bytes run chose, from its stderr: "--max-bytes N: quality
    Q, lossy L, C colors" (the end of the "wrote" line), or why nothing fit."""
    if not fits:
        return "does not fit: " + err.strip().replace("throbber: error: ", "")
    m = re.search(r"--max-bytes \d+: .*", err)
    return m[0] if m else ""


def measure(argv):
    """(wall s, user+system CPU s, stderr) of one run of argv; exit 0 or 65 (refused)."""
    with tempfile.TemporaryFile("w+") as err:
        rc, wall, _, cpu = bench.run_measured(argv, stderr=err)
        err.seek(0)
        text = err.read()
    if rc not in (0, 65):
        raise SystemExit(f"lossy bench: {' '.join(map(str, argv))} failed ({rc}): {text}")
    return wall, cpu, text


def at_peer_sizes(c, frames, out, throbber, peers, repeat, pool):
    """Every AT_PEER file (and ffmpeg's per-frame palettes, scored here)
    against `--max-bytes` at its size: one row a peer."""
    single = ffmpeg_single(frames, out, c)
    _, single["psnr"], single["ssim"] = score_one((single["path"], str(frames)))
    targets = [single] + chosen(peers)
    enc = [throbber, "encode", str(frames), "--fps", str(bench.FPS)]
    default_walls, runs = [], {id(p): [] for p in targets}
    for _ in range(repeat):
        default_walls.append(measure(enc + ["-q", "-o", out / "at-peer-default.gif"])[0])
        for k, p in enumerate(targets):
            path = out / f"at-peer-{k}.gif"
            path.unlink(missing_ok=True)
            runs[id(p)].append(measure(enc + ["-o", path, "--max-bytes", str(p["bytes"])]))
    default_wall = statistics.median(default_walls)
    rows = []
    for k, p in enumerate(targets):
        path = out / f"at-peer-{k}.gif"
        err = runs[id(p)][-1][2]
        fits = path.exists()
        rows.append({"peer": p["label"], "peer_path": p["path"], "peer_bytes": p["bytes"], "peer_psnr": p["psnr"],
                     "peer_ssim": p["ssim"], "path": str(path) if fits else None,
                     "bytes": path.stat().st_size if fits else None,
                     "chose": choice(err, fits),
                     "wall": statistics.median(r[0] for r in runs[id(p)]),
                     "cpu": statistics.median(r[1] for r in runs[id(p)]), "default_wall": default_wall})
    scores = {s[0]: s[1:] for s in pool.map(score_one, [(r["path"], str(frames)) for r in rows if r["path"]])}
    for r in rows:
        r["psnr"], r["ssim"] = scores.get(r["path"], (float("nan"), float("nan")))
        r["win"] = bool(r["path"]) and r["psnr"] >= r["peer_psnr"] and r["ssim"] >= r["peer_ssim"]
    return rows


def markdown(results, fmt):
    """The at-a-peer's-size table of lossy-results.md (fmt formats PSNR/SSIM)."""
    lines = ["", "### At a peer's file size", "",
             "| corpus | peer | peer bytes | peer PSNR | peer SSIM | throbber bytes | PSNR | SSIM | chose | wall s | "
             "× default | verdict |", "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        for a in r.get("at_peer", []):
            chose = re.sub(r"^--max-bytes \d+: ", "", a["chose"])
            lines.append(f"| {r['name']} | {a['peer']} | {a['peer_bytes']:,} | {fmt(a['peer_psnr'])} | "
                         f"{fmt(a['peer_ssim'], 5)} | {a['bytes'] or 0:,} | {fmt(a['psnr'])} | {fmt(a['ssim'], 5)} | "
                         f"{chose} | {a['wall']:.2f} | {a['wall'] / a['default_wall']:.2f} | "
                         f"{'WIN' if a['win'] else 'LOSE'} |")
    return lines
