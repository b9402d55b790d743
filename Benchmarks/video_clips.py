"""The clips of the video benchmark (Benchmarks/video.py), made with the
ffmpeg command into $BENCH_DIR/clips and kept while their recipe (the
command and ffmpeg's version) is unchanged.

- screencast-1280x800: a screen recording of a scrolling web page with more
  than 256 colors a frame (colored links, syntax-colored code, gradients,
  tinted photos), 1280x800, 4 s at 30 fps: still, scrolled with easing,
  still; H.264 yuv420p tagged BT.709 limited range, as macOS or OBS record.
  The page is one tall headless-Chromium screenshot; each frame is a
  1280x800 window of it under a fixed header bar.
- natural-320x240: the 60 frames of ../shared/fixtures/photo-seq-dlib-bobot
  (a hand-held camera over a table, grayscale JPEG) at 30 fps, a phone's
  rate; H.264, BT.709 limited.
- testsrc2-1280x720: ffmpeg's testsrc2, 30 fps, 5 s; H.264, BT.709 limited.
- vp9-640x360: testsrc2 640x360, 30 fps, 4 s; VP9 (libvpx) in WebM, BT.709
  limited.
- long-600s and long-60s (--long only): testsrc2 1920x1080 at 30 fps, 10
  minutes and 1 minute, H.264 ultrafast CRF 30.

Encoders run single-threaded where that is what makes their output the same
on every machine (libx264 and libvpx otherwise split work by core count).
"""

import hashlib
import html
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image

import bench

FIXTURES = bench.ROOT.parent / "shared" / "fixtures"
PHOTOS = FIXTURES / "photo-seq-dlib-bobot"
TEXT = Path("/usr/share/common-licenses/GPL-3")

# The screen recording: size, rate, and the scroll (frames held still at
# each end, frames scrolling, pixels scrolled); HEADER px stay fixed on top.
SC_W, SC_H, SC_FPS = 1280, 800, 30
SC_HOLD, SC_SCROLL, SC_TRAVEL, SC_HEADER = 15, 90, 1500, 56
# The photo frames the page shows (tinted).
PHOTO_NUMBERS = (100, 120, 140)

# BT.709 limited range, converted and tagged, as HD recorders write it.
BT709 = ["-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", "-color_range", "tv"]
TO_709 = "scale=out_color_matrix=bt709:out_range=tv,format=yuv420p"
# libx264 at what a screen recorder or phone spends: CRF 20, preset medium.
X264 = ["-c:v", "libx264", "-preset", "medium", "-crf", "20", "-threads", "1"]


@dataclass
class Clip:
    """A clip, the size and rate it is turned into a GIF at, and how it is made."""

    name: str
    what: str  # one line for the table's heading
    file: str  # file name under clips/
    width: int  # target width W of the GIF
    fps: int  # target rate F of the GIF


CLIPS = [
    Clip("screencast-1280x800", "screen recording of a scrolled web page, H.264 BT.709 limited, 30 fps, 4 s",
         "screencast-1280x800.mp4", 480, 15),
    Clip("natural-320x240", "hand-held camera (photo-seq-dlib-bobot), H.264 BT.709 limited, 30 fps, 2 s",
         "natural-320x240.mp4", 240, 15),
    Clip("testsrc2-1280x720", "ffmpeg testsrc2, H.264 BT.709 limited, 30 fps, 5 s", "testsrc2-1280x720.mp4", 480,
         15),
    Clip("vp9-640x360", "ffmpeg testsrc2, VP9 (libvpx) WebM BT.709 limited, 30 fps, 4 s", "vp9-640x360.webm", 480,
         15),
]
LONG = {"long-600s": 600, "long-60s": 60}


def cached(path, argv, prepare=None, extra=""):
    """Runs argv (which writes `path`) unless `path` was made by the same
    recipe (argv, ffmpeg's version and `extra`); `prepare()` first makes what
    argv reads."""
    recipe = " ".join(map(str, argv[1:])) + "\n" + bench.first_line([bench.FFMPEG, "-version"]) + "\n" + extra
    stamp = path.with_name(path.name + ".recipe")
    if path.exists() and stamp.exists() and stamp.read_text() == recipe:
        return path
    bench.log(f"video: making {path.name}")
    if prepare:
        prepare()
    subprocess.run([str(a) for a in argv], check=True, stdin=subprocess.DEVNULL)
    stamp.write_text(recipe)
    return path


def page_html(photos):
    """The page: a header bar, headings, paragraphs of GPL text with links in
    several colors, syntax-colored code blocks, gradients and tinted photos."""
    paragraphs = [" ".join(p.split()) for p in TEXT.read_text().split("\n\n") if p.strip()]
    links = ["#0969da", "#8250df", "#1a7f37", "#cf222e", "#bf3989", "#9a6700"]
    code = ('<pre><span class=k>func</span> <span class=f>encode</span>(<span class=v>clip</span>: '
            '<span class=t>URL</span>) <span class=k>throws</span> -> <span class=t>Data</span> {\n'
            '    <span class=k>let</span> <span class=v>frames</span> = <span class=k>try</span> '
            '<span class=f>decode</span>(<span class=v>clip</span>, fps: <span class=n>15</span>)\n'
            '    <span class=c>// quantize, plan and write, one batch at a time</span>\n'
            '    <span class=k>return</span> <span class=k>try</span> <span class=f>gif</span>(<span class=v>frames'
            '</span>, width: <span class=n>480</span>, label: <span class=s>"demo"</span>)\n}</pre>')
    body = []
    for i, p in enumerate(paragraphs[:48]):
        words = html.escape(p).split(" ")
        for j in range(3, len(words), 11):
            words[j] = f'<a style="color:{links[(i + j) % len(links)]}" href="#">{words[j]}</a>'
        body.append(f"<p>{' '.join(words)}</p>")
        if i % 6 == 2:
            body.append(code)
        if i % 8 == 5:
            k = (i // 8) % len(photos)
            body.append(f'<div class=fig><img src="{photos[k].as_uri()}" style="filter:sepia(.8) '
                        f'hue-rotate({k * 70}deg) saturate(2.2)"><div class=pie></div></div>')
    return ("<!doctype html><meta charset=utf-8><style>html,body{margin:0;background:#fff}"
            "body{font:16px/1.5 'DejaVu Sans',sans-serif;color:#1f2328;overflow:hidden}"
            f".bar{{height:{SC_HEADER}px;background:linear-gradient(90deg,#0b3d91,#6a1b9a 60%,#e65100);"
            "color:#fff;font:bold 22px/56px 'DejaVu Sans',sans-serif;padding:0 24px}"
            ".main{padding:8px 64px}pre{background:#1e1e2e;color:#cdd6f4;padding:14px;border-radius:8px;"
            "font:14px/1.45 'DejaVu Sans Mono',monospace}.k{color:#cba6f7}.f{color:#89b4fa}.v{color:#f38ba8}"
            ".t{color:#f9e2af}.n{color:#fab387}.s{color:#a6e3a1}.c{color:#7f849c;font-style:italic}"
            ".fig{display:flex;gap:24px;align-items:center}.fig img{width:480px;border-radius:6px}"
            ".pie{width:220px;height:220px;border-radius:50%;background:conic-gradient(#e11d48,#f59e0b,"
            "#84cc16,#06b6d4,#6366f1,#d946ef,#e11d48)}h1{background:linear-gradient(90deg,#2563eb,#db2777);"
            "-webkit-background-clip:text;color:transparent;font-size:40px}</style>"
            "<div class=bar>throbber — video in</div><div class=main><h1>Screen recordings to GIF</h1>"
            + "".join(body) + "</div>")


def scroll_offset(k):
    """Pixels scrolled at frame k: held, smoothstep over SC_SCROLL frames, held."""
    t = min(1.0, max(0.0, (k - SC_HOLD) / (SC_SCROLL - 1)))
    return round(SC_TRAVEL * t * t * (3 - 2 * t))


def screencast_frames(work):
    """Frames f000.png… of the screen recording in `work`."""
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    photos = []
    for n in PHOTO_NUMBERS:
        photos.append(work / f"photo{n}.jpg")
        shutil.copy(PHOTOS / f"frame_000{n}.jpg", photos[-1])
    page = work / "page.html"
    page.write_text(page_html(photos))
    tall = work / "page.png"
    subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                    f"--window-size={SC_W},{SC_H + SC_TRAVEL}", f"--screenshot={tall}", page.as_uri()],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    with Image.open(tall) as im:
        full = np.asarray(im.convert("RGB"))
    header = full[:SC_HEADER]
    for k in range(2 * SC_HOLD + SC_SCROLL):
        y = scroll_offset(k)
        frame = full[y:y + SC_H].copy()
        frame[:SC_HEADER] = header
        Image.fromarray(frame).save(work / f"f{k:03d}.png")
    colors = len(np.unique(frame.reshape(-1, 3), axis=0))
    if colors <= 256:
        raise SystemExit(f"video: the screen recording's last frame has {colors} colors, not more than 256")


def make_clip(c, base):
    """The clip file of `c` under base/clips, made once."""
    d = base / "clips"
    d.mkdir(parents=True, exist_ok=True)
    path = d / c.file
    ff = [bench.FFMPEG, "-v", "error", "-y"]
    if c.name == "screencast-1280x800":
        work = d / "screencast-frames"
        argv = ff + ["-framerate", SC_FPS, "-i", work / "f%03d.png", "-vf", TO_709, *X264, *BT709, path]
        page = page_html([work / f"photo{n}.jpg" for n in PHOTO_NUMBERS]).encode()
        extra = (f"page sha256 {hashlib.sha256(page).hexdigest()[:16]}, scroll {SC_HOLD} {SC_SCROLL} {SC_TRAVEL}, "
                 f"{bench.first_line(['chromium', '--version'])}\n")
        return cached(path, argv, lambda: screencast_frames(work), extra)
    if c.name == "natural-320x240":
        argv = ff + ["-framerate", 30, "-start_number", 100, "-i", PHOTOS / "frame_%06d.jpg", "-vf", TO_709,
                     *X264, *BT709, path]
    elif c.name == "testsrc2-1280x720":
        argv = ff + ["-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=30", "-t", 5, "-vf", TO_709, *X264,
                     *BT709, path]
    else:
        argv = ff + ["-f", "lavfi", "-i", "testsrc2=size=640x360:rate=30", "-t", 4, "-vf", TO_709,
                     "-c:v", "libvpx-vp9", "-crf", 32, "-b:v", 0, "-deadline", "good", "-cpu-used", 4,
                     "-row-mt", 0, "-threads", 1, *BT709, path]
    return cached(path, argv)


def make_long(name, base):
    """The 1080p testsrc2 clip of LONG[name] seconds (the 10-minute one takes
    minutes to make, once)."""
    d = base / "clips"
    d.mkdir(parents=True, exist_ok=True)
    path = d / f"{name}.mp4"
    argv = [bench.FFMPEG, "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=30",
            "-t", LONG[name], "-c:v", "libx264", "-preset", "ultrafast", "-crf", 30, "-pix_fmt", "yuv420p", path]
    return cached(path, argv)


# How the reference decodes: every clip here is tagged BT.709 limited range,
# 4:2:0 with chroma sited left (H.264's and VP9's default); the scale filter
# is told so, since it reads the matrix from the stream but not the siting.
REF_CONVERT = ("scale=in_color_matrix=bt709:in_range=tv:out_range=pc:in_h_chr_pos=0:in_v_chr_pos=128"
               ":flags=bicubic+accurate_rnd+full_chroma_int+full_chroma_inp")


def make_refs(clip_path, width, fps, base, trim=None):
    """The reference every GIF is scored against: the clip's frames at `fps`
    as ffmpeg decodes them, converted to RGB at full size with the stream's
    tags given explicitly, then resized to `width` by a third party (Pillow's
    Lanczos, in RGB), so that neither encoder's own resizing is the yardstick
    (ffmpeg's scale filter resamples Y'CbCr planes before converting; throbber
    converts first and resamples RGB). `trim` (start, end) in seconds seeks in
    the input first. Kept while the recipe is unchanged."""
    tag = f"{clip_path.stem}-w{width}-f{fps}" + (f"-{trim[0]}-{trim[1]}" if trim else "")
    d = base / "refs" / tag
    seek = ["-ss", trim[0], "-to", trim[1]] if trim else []
    full = base / "refs" / (tag + "-full")
    argv = [bench.FFMPEG, "-v", "error", "-y", *seek, "-i", clip_path, "-vf", f"fps={fps},{REF_CONVERT}",
            "-pix_fmt", "rgb24", full / "%04d.png"]
    recipe = " ".join(map(str, argv[1:])) + f"\nPillow LANCZOS to width {width}\n" + bench.first_line(
        [bench.FFMPEG, "-version"]) + "\n"
    stamp = d / ".recipe"
    if not (stamp.exists() and stamp.read_text() == recipe and bench.frame_files(d)):
        shutil.rmtree(d, ignore_errors=True)
        shutil.rmtree(full, ignore_errors=True)
        d.mkdir(parents=True)
        full.mkdir(parents=True)
        subprocess.run([str(a) for a in argv], check=True, stdin=subprocess.DEVNULL)
        for f in bench.frame_files(full):
            im = Image.open(f).convert("RGB")
            height = max(1, round(im.height * int(width) / im.width))
            im.resize((int(width), height), Image.LANCZOS).save(d / Path(f).name)
        shutil.rmtree(full)
        stamp.write_text(recipe)
    return d, argv
