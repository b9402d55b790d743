#!/usr/bin/python3
"""Reference pictures of one line of text drawn from a given font file by
renderers Throbber did not write, for checking TextOutliner's glyph outlines
(HarfBuzz shaping and hb-draw outlines, filled by cairo) against them.

usage:
  text_reference.py render FONT PX TEXT W H X Y OUT.png [options]
      Writes an 8-bit grayscale PNG, W x H pixels, white, with TEXT in black
      at an em size of PX pixels, the first glyph's origin (the start of the
      baseline) at (X, Y) in pixels from the top left corner of the image
      (its edge, not a pixel center; X and Y may be fractional).
  text_reference.py compare FONT PX TEXT W H X Y MINE.png [options] [--out REF.png]
      Renders the same reference and prints JSON {"psnr" (dB, over 8-bit
      gray, 99 when identical), "maxdiff" (largest pixel difference),
      "renderer", "supersample"} for MINE.png (converted to gray) against it.
  text_reference.py psnr A.png B.png
      Prints the same JSON for two images of one size.
options:
  --renderer pango|magick   (default pango)
  --supersample S           (default 8)
  --variations AXES         pango only: OpenType variations such as wght=700

How the reference is made. Both renderers draw at S times the size (em
PX*S pixels, origin at (X*S, Y*S) rounded to whole pixels) and the picture is
then reduced by averaging each S x S block, so glyph positions, which both
round to whole pixels, are off by at most 1/(2S) pixel, and the averaging
approximates the exact coverage that cairo's and FreeType's anti-aliasing
compute.

pango (the default, and the one that agrees best: 39.7-51 dB against
TextOutliner's outlines filled by cairo, for "Loading", "Uploading 3 files"
and "AV Wa fi" in DejaVu Sans at 24, 48 and 96 px; ImageMagick 32-45 dB, as
it draws "fi" as two glyphs and kerns less; a 0.25 px shift costs ~15 dB):
  FONTCONFIG_FILE=<temp fonts.conf listing only a folder holding a link to
  FONT> pango-view -q --no-auto-dir --font "FAMILY, PXpx" --hinting=none
  --hint-metrics=off --subpixel-positions --antialias=gray --margin M --text=TEXT -o out.png
  (FAMILY from `fc-scan --format %{family[0]} FONT`, so pango can find no
  other font file, and no system configuration substitutes, emboldens or
  hints). pango shapes with HarfBuzz (kerning, ligatures) and cairo draws
  FreeType's outlines. Its baseline is found by drawing the same layout again
  with --annotate=baselines: the centroid of the rows where the two pictures
  differ, in columns blank in the plain one.
magick: ImageMagick 6 with FreeType's outlines and FreeType kerning ('kern'
  table) but no shaping (no ligatures, no GPOS kerning):
  convert -size WxH xc:white -font FONT -pointsize PX -density 72
  -fill black -annotate +X+Y TEXT out.png   (at S times the size)
  ImageMagick's pointsize at 72 dpi is pixels and +X+Y is the baseline origin.
Only single lines are drawn (TEXT with a newline is refused): the renderers'
line spacing is their own. Needs Debian's pango1.0-tools (pango-view),
fontconfig (fc-scan), imagemagick, python3-pil and python3-numpy.
"""
import json, os, subprocess, sys, tempfile
import numpy as np
from PIL import Image


def pango_render(font, px, text, margin, variations, workdir):
    """pango-view's picture of TEXT at PX pixels with MARGIN on every side,
    and the y of its baseline (pixel edges)."""
    fontdir = os.path.join(workdir, "fonts")
    os.makedirs(fontdir, exist_ok=True)
    link = os.path.join(fontdir, os.path.basename(font))
    if not os.path.exists(link):
        os.symlink(os.path.abspath(font), link)
    conf = os.path.join(workdir, "fonts.conf")
    with open(conf, "w") as f:
        f.write('<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n'
                f"<dir>{fontdir}</dir>\n<cachedir>{os.path.join(workdir, 'cache')}</cachedir>\n"
                "</fontconfig>\n")
    env = dict(os.environ, FONTCONFIG_FILE=conf, LC_ALL="C.UTF-8")
    env.pop("FONTCONFIG_PATH", None)
    family = subprocess.run(["fc-scan", "--format", "%{family[0]}", font], env=env, check=True,
                            capture_output=True, text=True).stdout.strip()
    if not family:
        raise SystemExit(f"fc-scan finds no font in {font}")
    # The comma ends the family list, so words such as "Light" stay in the name.
    description = f"{family}, {px}px" + (f" @{variations}" if variations else "")
    base = ["pango-view", "-q", "--no-auto-dir", f"--font={description}", "--hinting=none",
            "--hint-metrics=off", "--subpixel-positions", "--antialias=gray", f"--margin={margin}", f"--text={text}"]
    plain, marked = os.path.join(workdir, "plain.png"), os.path.join(workdir, "marked.png")
    subprocess.run(base + ["-o", plain], env=env, check=True)
    subprocess.run(base + ["--annotate=baselines", "-o", marked], env=env, check=True)
    a = np.asarray(Image.open(plain).convert("L"), dtype=np.float64)
    b = np.asarray(Image.open(marked).convert("L"), dtype=np.float64)
    d = np.abs(a - b)
    rows = np.nonzero(d.sum(axis=1))[0]
    if len(rows) == 0:
        raise SystemExit("pango drew no baseline annotation")
    lo, hi = max(0, rows.min() - 2), min(a.shape[0], rows.max() + 3)
    blank = (a[lo:hi] == 255).all(axis=0) & (d[lo:hi].sum(axis=0) > 0)
    weights = d[lo:hi][:, blank].sum(axis=1)
    if weights.sum() == 0:
        raise SystemExit("no blank columns to find pango's baseline in")
    baseline = float((weights * (np.arange(lo, hi) + 0.5)).sum() / weights.sum())
    return a, baseline


def magick_arg(text):
    """TEXT as ImageMagick reads it literally: no percent escapes, no @file."""
    text = text.replace("\\", "\\\\").replace("%", "%%")
    return "\\" + text if text.startswith("@") else text


def render(font, px, text, w, h, x, y, renderer="pango", s=8, variations=None):
    """The reference picture as a W x H uint8 gray array."""
    if "\n" in text or "\r" in text:
        raise SystemExit("text_reference.py draws one line only")
    if not os.path.isfile(font):
        raise SystemExit(f"no font file {font}")
    big_w, big_h = w * s, h * s
    canvas = np.full((big_h, big_w), 255.0)
    with tempfile.TemporaryDirectory() as workdir:
        if renderer == "pango":
            margin = int(np.ceil(px * s))  # room for ink outside the logical box
            picture, baseline = pango_render(font, px * s, text, margin, variations, workdir)
            ox, oy = int(round(x * s)) - margin, int(round(y * s - baseline))
            # Paste with clipping on every side.
            sy0, sx0 = max(0, -oy), max(0, -ox)
            dy0, dx0 = max(0, oy), max(0, ox)
            hh = min(picture.shape[0] - sy0, big_h - dy0)
            ww = min(picture.shape[1] - sx0, big_w - dx0)
            if hh > 0 and ww > 0:
                canvas[dy0:dy0 + hh, dx0:dx0 + ww] = picture[sy0:sy0 + hh, sx0:sx0 + ww]
        elif renderer == "magick":
            out = os.path.join(workdir, "magick.png")
            subprocess.run(["convert", "-size", f"{big_w}x{big_h}", "xc:white", "-font", font,
                            "-density", "72", "-pointsize", str(px * s), "-fill", "black", "-annotate",
                            "%+d%+d" % (int(round(x * s)), int(round(y * s))), magick_arg(text),
                            "-colorspace", "gray", out], check=True)
            canvas = np.asarray(Image.open(out).convert("L"), dtype=np.float64)
        else:
            raise SystemExit(f"unknown renderer {renderer}")
    small = canvas.reshape(h, s, w, s).mean(axis=(1, 3))
    return np.clip(np.rint(small), 0, 255).astype(np.uint8)


def psnr(a, b):
    """JSON-ready PSNR and largest difference of two gray arrays."""
    if a.shape != b.shape:
        raise SystemExit(f"sizes differ: {a.shape[::-1]} and {b.shape[::-1]}")
    diff = a.astype(np.float64) - b.astype(np.float64)
    mse = (diff ** 2).mean()
    value = 99.0 if mse == 0 else min(99.0, 10 * np.log10(255.0 ** 2 / mse))
    return {"psnr": round(float(value), 2), "maxdiff": int(np.abs(diff).max())}


def gray(path):
    return np.asarray(Image.open(path).convert("L"))


def main(argv):
    opts = {"renderer": "pango", "supersample": "8", "variations": None, "out": None}
    args = []
    i = 0
    while i < len(argv):
        if argv[i].startswith("--") and argv[i][2:] in opts:
            if i + 1 >= len(argv):
                raise SystemExit(f"{argv[i]} needs a value")
            opts[argv[i][2:]] = argv[i + 1]
            i += 2
        else:
            args.append(argv[i])
            i += 1
    if len(args) == 3 and args[0] == "psnr":
        print(json.dumps(psnr(gray(args[1]), gray(args[2]))))
        return
    if len(args) != 9 or args[0] not in ("render", "compare"):
        raise SystemExit(__doc__)
    font, px, text = args[1], float(args[2]), args[3]
    w, h, x, y = int(args[4]), int(args[5]), float(args[6]), float(args[7])
    px = int(px) if px == int(px) else px
    s = int(opts["supersample"])
    ref = render(font, px, text, w, h, x, y, opts["renderer"], s, opts["variations"])
    if args[0] == "render":
        Image.fromarray(ref, "L").save(args[8])
        return
    if opts["out"]:
        Image.fromarray(ref, "L").save(opts["out"])
    result = psnr(gray(args[8]), ref)
    result.update(renderer=opts["renderer"], supersample=s)
    print(json.dumps(result))


if __name__ == "__main__":
    main(sys.argv[1:])
