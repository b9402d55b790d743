"""The corpora of the lossy peer-size benchmark (Benchmarks/lossy_sizes.py),
each a folder of PNG frames (what every encoder is given, and what every
file is scored against), made once under a base folder and kept while its
recipe is unchanged:

- text-1440x900: a screen recording of a page of text on white, 1440x900 at
  15 fps, 10 s (150 frames): the GPL-3 text in a 760 px column (wide white
  margins), held, scrolled in three eased bursts of 540 px, held between;
  one tall headless-Chromium screenshot cut into windows.
- text-1440x900-h264: the same frames through H.264 (libx264 CRF 20, 4:2:0,
  BT.709 limited, as screen recorders write them) and back to RGB: text
  whose edges and margins carry the codec's noise.
- pan-480x270: a camera-like pan, 200 frames at 25 fps: a wide picture made
  of photo-seq-dlib-bobot frames (a hand-held camera's grayscale JPEGs,
  scaled 1.5x, lightened, tinted in three colors, with grain) crossed by a 480x270
  window that drifts up and down as a hand-held camera does.
- natural-320x240: the 60 photo-seq-dlib-bobot frames themselves (real
  camera motion).
- Re-encoded dithered GIFs, the frames as a viewer shows them (what
  throbber and gifsicle are given is the GIF itself; the frames are what
  both are scored against): pan-480x270 through ffmpeg `palettegen` and
  `paletteuse=dither=floyd_steinberg` (dither-fs) and `dither=bayer`
  (dither-bayer), and through ImageMagick `convert -dither FloydSteinberg
  -colors 256` (dither-im, a palette per frame), each a GIF file next to
  its frames.
"""

import hashlib
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
from PIL import Image

import bench
import gifmetrics

PHOTOS = bench.ROOT.parent / "shared" / "fixtures" / "photo-seq-dlib-bobot"
TEXT = Path("/usr/share/common-licenses/GPL-3")
FFMPEG = bench.tool_path("FFMPEG", "ffmpeg")
FF = [FFMPEG, "-v", "error", "-y"]

# The text recording: size, rate, frames; its scroll (frames held, frames
# scrolling, pixels each burst).
TW, TH, TFPS, TFRAMES = 1440, 900, 15, 150
HOLD, BURST, TRAVEL = 15, 25, 540
PAN_W, PAN_H, PAN_FRAMES, PAN_FPS = 480, 270, 200, 25
DITHERED = {
    "dither-fs": "split[a][b];[a]palettegen[p];[b][p]paletteuse=dither=floyd_steinberg",
    "dither-bayer": "split[a][b];[a]palettegen[p];[b][p]paletteuse=dither=bayer:bayer_scale=3",
}


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def cached(dest, recipe, make):
    """Runs make(dest) unless dest holds frames of the same recipe."""
    recipe = recipe + "\n" + bench.first_line([FFMPEG, "-version"]) + "\n"
    stamp = dest / ".recipe"
    if stamp.exists() and stamp.read_text() == recipe and bench.frame_files(dest):
        return dest
    log(f"lossy corpora: making {dest}")
    shutil.rmtree(dest, ignore_errors=True)
    dest.mkdir(parents=True)
    make(dest)
    stamp.write_text(recipe)
    return dest


def text_html():
    paragraphs = [" ".join(p.split()) for p in TEXT.read_text().split("\n\n") if p.strip()]
    body = "".join(f"<p>{p}</p>" for p in paragraphs[:90]).replace("&", "&amp;").replace("<<", "&lt;")
    return ("<!doctype html><meta charset=utf-8><style>html,body{margin:0;background:#fff}"
            "body{font:16px/1.5 'DejaVu Sans',sans-serif;color:#24292f;overflow:hidden}"
            "div{width:760px;margin:0 auto;padding:24px 0}</style><div>" + body + "</div>")


def scroll(k):
    """Pixels scrolled at frame k: held, then bursts of TRAVEL px eased over
    BURST frames, each followed by a hold."""
    y, t = 0, k
    for _ in range(3):
        if t < HOLD:
            return y
        t -= HOLD
        if t < BURST:
            s = t / (BURST - 1)
            return y + round(TRAVEL * s * s * (3 - 2 * s))
        t -= BURST
        y += TRAVEL
    return y


def make_text(dest):
    with tempfile.TemporaryDirectory(prefix="throbber-lossy-text-") as work:
        page = Path(work) / "page.html"
        page.write_text(text_html())
        tall = Path(work) / "page.png"
        subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                        f"--window-size={TW},{TH + 3 * TRAVEL}", f"--screenshot={tall}", page.as_uri()],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
        full = np.asarray(Image.open(tall).convert("RGB"))
    for k in range(TFRAMES):
        y = scroll(k)
        Image.fromarray(full[y:y + TH]).save(dest / f"{k:04d}.png")


def make_text_h264(dest, text):
    with tempfile.TemporaryDirectory(prefix="throbber-lossy-h264-") as work:
        clip = Path(work) / "clip.mp4"
        subprocess.run(FF + ["-framerate", str(TFPS), "-i", str(text / "%04d.png"), "-vf",
                             "scale=out_color_matrix=bt709:out_range=tv,format=yuv420p", "-c:v", "libx264",
                             "-preset", "medium", "-crf", "20", "-threads", "1", "-colorspace", "bt709",
                             "-color_range", "tv", str(clip)], check=True)
        subprocess.run(FF + ["-i", str(clip), "-vf", "scale=in_color_matrix=bt709:in_range=tv:out_range=pc:"
                             "flags=bicubic+accurate_rnd+full_chroma_int+full_chroma_inp",
                             "-pix_fmt", "rgb24", str(dest / "%04d.png")], check=True)


def make_pan(dest):
    with tempfile.TemporaryDirectory(prefix="throbber-lossy-pan-") as work:
        wide = Path(work) / "wide.png"
        inputs = [x for n in (100, 125, 150) for x in ("-i", str(PHOTOS / f"frame_{n:06d}.jpg"))]
        tints = ["rr=1.0:gg=0.85:bb=0.65:rb=0.1", "rr=0.75:gg=0.95:bb=1.0:br=0.1", "rr=0.9:gg=1.0:bb=0.7:gr=0.1"]
        graph = ";".join(f"[{i}]scale=480:360,eq=gamma=1.4,format=rgb24,colorchannelmixer={t}[t{i}]" for i, t in enumerate(tints))
        graph += ";[t0][t1][t2]hstack=3,format=gbrp,noise=c0s=4:c1s=4:c2s=4:all_seed=11,format=rgb24"
        subprocess.run(FF + inputs + ["-filter_complex", graph, str(wide)], check=True)
        full = np.asarray(Image.open(wide).convert("RGB"))
    travel = full.shape[1] - PAN_W
    for k in range(PAN_FRAMES):
        x = round(travel * k / (PAN_FRAMES - 1))
        y = round((full.shape[0] - PAN_H) / 2 * (1 + np.sin(k / 17.0) * 0.9))
        Image.fromarray(full[y:y + PAN_H, x:x + PAN_W]).save(dest / f"{k:04d}.png")


def make_natural(dest):
    subprocess.run(FF + ["-start_number", "100", "-i", str(PHOTOS / "frame_%06d.jpg"), "-frames:v", "60",
                         "-pix_fmt", "rgb24", str(dest / "%04d.png")], check=True)


def gif_frames(gif, dest):
    """The frames of `gif` as a viewer shows them, into dest."""
    frames, _, _, _ = gifmetrics.decode_gif(gif)
    for k, f in enumerate(frames):
        Image.fromarray(f).save(dest / f"{k:04d}.png")


def make_dithered(dest, name, pan):
    gif = dest / "input.gif"
    if name == "dither-im":
        files = [str(f) for f in bench.frame_files(pan)]
        subprocess.run(["convert", "-delay", "4", *files, "-dither", "FloydSteinberg", "-colors", "256",
                        "-loop", "0", str(gif)], check=True)
    else:
        subprocess.run(FF + ["-framerate", str(PAN_FPS), "-i", str(pan / "%04d.png"), "-vf", DITHERED[name],
                             "-loop", "0", str(gif)], check=True)
    gif_frames(gif, dest)


def input_of(dest):
    """What encoders are given for corpus folder dest: its GIF if it has one."""
    gif = dest / "input.gif"
    return gif if gif.exists() else dest


def make(name, base):
    """The frame folder of corpus `name` under base, and its frame rate."""
    base = Path(base)
    if name == "text-1440x900":
        return cached(base / name, text_html() + f"\n{scroll(TFRAMES - 1)} {TW} {TH}\n"
                      + bench.first_line(["chromium", "--version"]), make_text), TFPS
    if name == "text-1440x900-h264":
        text, _ = make("text-1440x900", base)
        digest = hashlib.sha256((text / ".recipe").read_bytes()).hexdigest()[:16]
        return cached(base / name, "h264 crf 20 of " + digest, lambda d: make_text_h264(d, text)), TFPS
    if name == "pan-480x270":
        return cached(base / name, f"pan v2 {PAN_W}x{PAN_H} {PAN_FRAMES}", make_pan), PAN_FPS
    if name == "natural-320x240":
        return cached(base / name, "bobot 60", make_natural), 25
    if name in DITHERED or name == "dither-im":
        pan, _ = make("pan-480x270", base)
        digest = hashlib.sha256((pan / ".recipe").read_bytes()).hexdigest()[:16]
        recipe = f"{name} of {digest}: {DITHERED.get(name, 'convert -dither FloydSteinberg -colors 256')}\n" + \
            bench.first_line(["convert", "-version"])
        return cached(base / name, recipe, lambda d: make_dithered(d, name, pan)), PAN_FPS
    raise SystemExit(f"lossy corpora: no corpus {name}")


NAMES = ["dither-fs", "dither-bayer", "dither-im", "text-1440x900", "text-1440x900-h264", "pan-480x270",
         "natural-320x240"]

if __name__ == "__main__":
    for n in sys.argv[1:] or NAMES:
        print(make(n, "/tmp/throbber-lossy-sizes/corpora")[0])
