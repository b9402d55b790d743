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
and wall time (median of --repeat runs). Usage:
  THROBBER=.build/release/throbber BENCH_DIR=/tmp/throbber-screencast \
    /usr/bin/python3 Benchmarks/screencast.py [--repeat N]
"""

import argparse
import html
import os
import statistics
import subprocess
import sys
from pathlib import Path

import bench
import gifmetrics

WIDTH, HEIGHT, FRAMES, STEP, FPS = 640, 400, 60, 4, 25
TEXT = Path("/usr/share/common-licenses/GPL-3")


def make_corpus(base):
    """The frames as PNG files in base/frames (made once)."""
    frames = base / "frames"
    if len(list(frames.glob("f*.png"))) == FRAMES:
        return frames
    frames.mkdir(parents=True, exist_ok=True)
    paragraphs = [p.strip() for p in TEXT.read_text().split("\n\n") if p.strip()]
    body = "".join(f"<p>{html.escape(' '.join(p.split()))}</p>" for p in paragraphs[:60])
    for k in range(FRAMES):
        page = base / f"page{k:03d}.html"
        page.write_text(
            "<!doctype html><meta charset=utf-8><style>html,body{margin:0;background:#fff}"
            "body{font:15px/1.45 'DejaVu Sans',sans-serif;color:#222;overflow:hidden}"
            f"div{{padding:12px 18px;margin-top:-{k * STEP}px}}</style><div>{body}</div>")
        subprocess.run(
            ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
             f"--window-size={WIDTH},{HEIGHT}", f"--screenshot={frames / f'f{k:03d}.png'}", page.as_uri()],
            check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return frames


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
