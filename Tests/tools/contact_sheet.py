#!/usr/bin/env python3
"""Lays out every composited frame of a GIF (as Pillow shows it) on a
checkerboard, with its delay, so a person can look at an animation at once.
usage: contact_sheet.py IN.gif OUT.png [--scale N] [--columns N]"""
import sys

import apng_pillow

apng_pillow.use_for(sys.argv[1:])  # an APNG: the pinned Pillow (apng_pillow.py)
from PIL import Image, ImageDraw, ImageSequence

def main():
    src, dst = sys.argv[1], sys.argv[2]
    scale = int(sys.argv[sys.argv.index("--scale") + 1]) if "--scale" in sys.argv else 2
    cols = int(sys.argv[sys.argv.index("--columns") + 1]) if "--columns" in sys.argv else 10
    im = Image.open(src)
    frames = [(f.convert("RGBA"), f.info.get("duration", 0)) for f in ImageSequence.Iterator(im)]
    w, h = im.width * scale, im.height * scale
    rows = (len(frames) + cols - 1) // cols
    sheet = Image.new("RGBA", (cols * (w + 4), rows * (h + 16)), (255, 255, 255, 255))
    draw = ImageDraw.Draw(sheet)
    for i, (f, d) in enumerate(frames):
        x, y = (i % cols) * (w + 4), (i // cols) * (h + 16)
        checker = Image.new("RGBA", (w, h))
        cd = ImageDraw.Draw(checker)
        for cy in range(0, h, 8):
            for cx in range(0, w, 8):
                cd.rectangle([cx, cy, cx + 7, cy + 7], fill=(204, 204, 204, 255) if (cx + cy) // 8 % 2 else (255, 255, 255, 255))
        checker.alpha_composite(f.resize((w, h), Image.NEAREST))
        sheet.paste(checker, (x, y))
        draw.text((x + 2, y + h + 2), "%d: %dms" % (i, d), fill=(0, 0, 0, 255))
    sheet.save(dst)

main()
