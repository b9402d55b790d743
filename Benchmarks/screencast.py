"""A screen recording of a scrolling text page, the most common thing people
turn into GIFs (issue #12): how much `gifsicle -O3` still takes off our
default GIF, and our GIF against ffmpeg's per-frame palettes.

The corpus: a page of plain text (Debian's copy of the GPL-3 licence,
/usr/share/common-licenses/GPL-3, so that every machine makes the same
page) in a 15 px sans-serif font, 640x400, scrolled 4 px a frame for 60
frames, each frame a screenshot of headless Chromium. Encoders (25 fps):

- throbber, default; and `gifsicle -O3` applied to its output;
- throbber `--quality 93`;
- ffmpeg, a palette per frame: `palettegen=stats_mode=single` with
  `paletteuse=new=1` (the setting the issue quotes).

Prints a markdown table of bytes, PSNR and SSIM (Benchmarks/gifmetrics.py)
and wall time (median of --repeat runs).

It also makes the colored recording the speed suite (Benchmarks/speed.py)
times: a page with links in two colors, syntax-colored code blocks, notes
and CSS-gradient "images" (nothing outside the page is loaded), 640x400,
scrolled 6 px a frame for 60 frames, each frame a headless Chromium
screenshot with more than 2000 distinct colors (make_color_corpus).
Usage:
  THROBBER=.build/release/throbber BENCH_DIR=/tmp/throbber-screencast \
    /usr/bin/python3 Benchmarks/screencast.py [--repeat N]
"""

import argparse
import hashlib
import html
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
from PIL import Image

import bench
import gifmetrics

WIDTH, HEIGHT, FRAMES, STEP, FPS = 640, 400, 60, 4, 25
TEXT = Path("/usr/share/common-licenses/GPL-3")
# The colored page (make_color_corpus) scrolls faster, as a reader skims.
COLOR_STEP = 6
# Every frame of the colored recording has more distinct colors than this
# (so that no single 256-color palette holds a frame); the maker checks it.
COLOR_MIN_COLORS = 2000
CHROMIUM = ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars"]


def text_page(k):
    """Frame k of the text recording: the GPL-3 paragraphs scrolled k * STEP px."""
    paragraphs = [p.strip() for p in TEXT.read_text().split("\n\n") if p.strip()]
    body = "".join(f"<p>{html.escape(' '.join(p.split()))}</p>" for p in paragraphs[:60])
    return ("<!doctype html><meta charset=utf-8><style>html,body{margin:0;background:#fff}"
            "body{font:15px/1.45 'DejaVu Sans',sans-serif;color:#222;overflow:hidden}"
            f"div{{padding:12px 18px;margin-top:-{k * STEP}px}}</style><div>{body}</div>")


# The colored page: links in two colors, red headings, syntax-colored code
# on a dark background, yellow notes and CSS gradients standing in for
# images (nothing outside the page is loaded).
COLOR_CSS = (
    "html,body{margin:0;background:#fafafa}"
    "body{font:15px/1.45 'DejaVu Sans',sans-serif;color:#222;overflow:hidden}"
    "a{color:#0b62c4}a.v{color:#7b2bb5}h2{color:#b3261e;font-size:20px}"
    "pre{background:#1e1f29;color:#e6e6e6;padding:10px;border-radius:6px;font:13px/1.4 'DejaVu Sans Mono',monospace}"
    ".k{color:#ff79c6}.s{color:#f1fa8c}.n{color:#bd93f9}.c{color:#6272a4}.f{color:#50fa7b}"
    ".img{height:150px;border-radius:8px;margin:8px 0}"
    ".note{background:#fff4d6;border-left:4px solid #f0a000;padding:6px 10px}")
GRADIENTS = [
    "linear-gradient(135deg,#ff6b6b,#f7d794 30%,#48dbfb 60%,#5f27cd)",
    "radial-gradient(circle at 30% 40%,#fffbe6,#ffb142 25%,#cc3e2b 55%,#2c2c54)",
    "conic-gradient(from 40deg at 60% 50%,#1dd1a1,#feca57,#ff6b6b,#5f27cd,#54a0ff,#1dd1a1)",
    "linear-gradient(180deg,#0f2027,#203a43 40%,#2c5364 70%,#f6d365)"]
CODE = ('<pre><span class=c># resize every frame, then encode</span>\n<span class=k>for</span> frame '
        '<span class=k>in</span> <span class=f>frames</span>(<span class=s>"in/"</span>):\n    '
        'out.<span class=f>append</span>(frame.<span class=f>resize</span>(<span class=n>320</span>, '
        '<span class=n>240</span>))\n<span class=f>save</span>(out, <span class=s>"out.gif"</span>, '
        'fps=<span class=n>25</span>)</pre>')


def color_body():
    """16 sections of the colored page, their words taken from the GPL-3 text."""
    words = TEXT.read_text().split()

    def text(start, count):
        return html.escape(" ".join(words[start:start + count]))

    body = []
    for k in range(16):
        body.append(f"<h2>Section {k + 1}: {text(k * 7, 4)}</h2>")
        body.append(f"<p>{text(k * 60, 60)} <a href=#>{text(k * 5, 3)}</a> and "
                    f"<a class=v href=#>{text(k * 3 + 90, 3)}</a>. {text((k + 40) * 30, 30)}</p>")
        if k % 2 == 0:
            body.append(CODE)
        body.append(f"<div class=img style='background:{GRADIENTS[k % 4]}'></div>")
        if k % 3 == 1:
            body.append(f"<p class=note>{text((k + 80) * 25, 25)}</p>")
    return "".join(body)


def color_page(k, body):
    """Frame k of the colored recording: the page scrolled k * COLOR_STEP px."""
    return (f"<!doctype html><meta charset=utf-8><style>{COLOR_CSS}"
            f"div.w{{padding:12px 18px;margin-top:-{k * COLOR_STEP}px}}</style><div class=w>{body}</div>")


def shoot(dest, pages):
    """Screenshots each page (HTML text) at WIDTH x HEIGHT with headless
    Chromium into dest/f000.png…, unless dest already holds the frames of
    the same pages and Chromium (a stamp file records both)."""
    recipe = (hashlib.sha256("\0".join(pages).encode()).hexdigest() + "\n"
              + bench.first_line(["chromium", "--version"]) + "\n")
    stamp = dest / ".recipe"
    if stamp.exists() and stamp.read_text() == recipe and len(list(dest.glob("f*.png"))) == len(pages):
        return dest
    print(f"screencast: making {dest} ({len(pages)} Chromium screenshots)", file=sys.stderr, flush=True)
    shutil.rmtree(dest, ignore_errors=True)
    dest.mkdir(parents=True)
    with tempfile.TemporaryDirectory(prefix="throbber-screencast-") as work:
        for k, text in enumerate(pages):
            page = Path(work) / f"page{k:03d}.html"
            page.write_text(text)
            subprocess.run([*CHROMIUM, f"--window-size={WIDTH},{HEIGHT}", f"--screenshot={dest / f'f{k:03d}.png'}",
                            page.as_uri()], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    stamp.write_text(recipe)
    return dest


def make_text_corpus(dest):
    """The text recording's frames in dest (f000.png…, made once)."""
    return shoot(dest, [text_page(k) for k in range(FRAMES)])


def make_color_corpus(dest):
    """The colored recording's frames in dest (f000.png…, made once):
    checks that every frame has more than COLOR_MIN_COLORS colors."""
    body = color_body()
    shoot(dest, [color_page(k, body) for k in range(FRAMES)])
    for f in sorted(dest.glob("f*.png")):
        rgb = np.asarray(Image.open(f).convert("RGB")).reshape(-1, 3).astype(np.uint32)
        colors = len(np.unique(rgb[:, 0] << 16 | rgb[:, 1] << 8 | rgb[:, 2]))
        if colors <= COLOR_MIN_COLORS:
            raise SystemExit(f"screencast: {f} has {colors} colors, not more than {COLOR_MIN_COLORS}")
    return dest


def make_corpus(base):
    """The text recording's frames in base/frames (made once)."""
    return make_text_corpus(base / "frames")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    repo = Path(__file__).resolve().parent.parent
    throbber = os.environ.get("THROBBER", str(repo / ".build/release/throbber"))
    base = bench.safe_work_dir(os.environ.get("BENCH_DIR", "/tmp/throbber-screencast"))
    frames = make_corpus(base)
    out = base / "out"
    out.mkdir(exist_ok=True)
    ours = out / "throbber.gif"
    runs = [
        ("throbber (default)", [throbber, "encode", str(frames), "--fps", str(FPS), "-o", str(ours), "--quiet"],
         ours),
        ("gifsicle -O3 of throbber's", ["gifsicle", "-O3", str(ours), "-o", str(out / "o3.gif")], out / "o3.gif"),
        ("throbber --quality 93", [throbber, "encode", str(frames), "--fps", str(FPS), "--quality", "93", "-o",
                                   str(out / "q93.gif"), "--quiet"], out / "q93.gif"),
        ("ffmpeg, a palette per frame",
         ["ffmpeg", "-v", "error", "-y", "-framerate", str(FPS), "-i", str(frames / "f%03d.png"), "-vf",
          "split[a][b];[a]palettegen=stats_mode=single[p];[b][p]paletteuse=new=1", str(out / "ffmpeg.gif")],
         out / "ffmpeg.gif"),
    ]
    sources = [gifmetrics.load_rgb(p) for p in sorted(frames.glob("f*.png"))]
    print(f"screencast: {FRAMES} frames {WIDTH}x{HEIGHT}, scrolled {STEP} px a frame", file=sys.stderr)
    print("| encoder | bytes | PSNR dB | SSIM | wall s |")
    print("|---|--:|--:|--:|--:|")
    for name, argv, path in runs:
        times = []
        for _ in range(args.repeat):
            status, wall, _, _ = bench.run_measured(argv)
            if status != 0:
                sys.exit(f"{name} failed: {' '.join(argv)}")
            times.append(wall)
        m = gifmetrics.score(str(path), sources, FPS)
        print(f"| {name} | {path.stat().st_size:,} | {bench.fmt_psnr(m['psnr'])} | {m['ssim']:.4f} | "
              f"{statistics.median(times):.2f} |")


if __name__ == "__main__":
    main()
