#!/usr/bin/env python3
"""Draws the images the examples use, so the repository ships its own
(the seed's real assets stay in ../shared/fixtures, which we may not copy):

  examples/loading_loop@2x.png     120x120 px: an open ring of two arcs (60 pt @2x)
  examples/loading_icon@2x.png     70x70 px: a round face icon (35 pt @2x)
  examples/dropdown_anim/dropdown_anim__0001@2x.png … __00060@2x.png
      60 frames, 100x100 px: a pull-to-refresh drop that fills and turns,
      named like MJRefresh's frames (0001…0009, 00010…00060), which plain
      name order gets wrong.

Anti-aliasing by drawing at 4x and downscaling with a box filter. Run from
the repository root; the output is deterministic."""
import math, os
from PIL import Image, ImageDraw

SS = 4
INK = (0x2E, 0x3A, 0x4B, 255)

def ring(path):
    size = 120 * SS
    im = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    w = 7 * SS
    box = [w, w, size - w, size - w]
    # PIL angles: 0 = 3 o'clock, clockwise. Two arcs with gaps at 12 and 6.
    d.arc(box, -65, 65, fill=INK, width=w)
    d.arc(box, 115, 245, fill=INK, width=w)
    im.resize((120, 120), Image.BOX).save(path)

def icon(path):
    size = 70 * SS
    im = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    def disc(cx, cy, r, fill):
        d.ellipse([(cx - r) * SS, (cy - r) * SS, (cx + r) * SS, (cy + r) * SS], fill=fill)
    disc(14, 22, 9, INK)
    disc(56, 22, 9, INK)
    disc(35, 38, 24, INK)
    disc(35, 44, 14, (0xF2, 0xE6, 0xD8, 255))
    disc(28, 34, 3, (255, 255, 255, 255))
    disc(42, 34, 3, (255, 255, 255, 255))
    im.resize((70, 70), Image.BOX).save(path)

def dropdown(folder, n=60):
    os.makedirs(folder, exist_ok=True)
    size = 100 * SS
    for k in range(1, n + 1):
        im = Image.new("RGBA", (size, size), (0, 0, 0, 0))
        d = ImageDraw.Draw(im)
        p = k / n
        c = size / 2
        r = size * (0.18 + 0.16 * min(1, p * 1.5))
        # the drop: a circle whose fill rises with progress
        d.ellipse([c - r, c - r, c + r, c + r], outline=(0x4A, 0x90, 0xE2, 255), width=3 * SS)
        level = c + r - 2 * r * p
        mask = Image.new("L", (size, size), 0)
        ImageDraw.Draw(mask).ellipse([c - r + 4 * SS, c - r + 4 * SS, c + r - 4 * SS, c + r - 4 * SS], fill=255)
        water = Image.new("RGBA", (size, size), (0x4A, 0x90, 0xE2, 180))
        clip = Image.new("L", (size, size), 0)
        ImageDraw.Draw(clip).rectangle([0, level, size, size], fill=255)
        from PIL import ImageChops
        im.paste(water, (0, 0), ImageChops.multiply(mask, clip))
        # a small arrow turning as it fills
        a = 2 * math.pi * p
        tip = (c + r * 1.25 * math.sin(a), c - r * 1.25 * math.cos(a))
        d.ellipse([tip[0] - 4 * SS, tip[1] - 4 * SS, tip[0] + 4 * SS, tip[1] + 4 * SS], fill=(0xF5, 0xA6, 0x23, 255))
        im.resize((100, 100), Image.BOX).save(os.path.join(folder, "dropdown_anim__000%d@2x.png" % k))

ring("examples/loading_loop@2x.png")
icon("examples/loading_icon@2x.png")
dropdown("examples/dropdown_anim")
