#!/usr/bin/env python3
"""Composites images centered on a transparent canvas with Pillow, in order
(first = bottom), as a reference picture for tests.

usage: scene_composite.py OUT.png WIDTH HEIGHT IMAGE..."""
import sys
from PIL import Image

def main():
    out, w, h = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    canvas = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    for path in sys.argv[4:]:
        im = Image.open(path).convert("RGBA")
        layer = Image.new("RGBA", (w, h), (0, 0, 0, 0))
        layer.paste(im, ((w - im.width) // 2, (h - im.height) // 2))
        canvas = Image.alpha_composite(canvas, layer)
    canvas.save(out)

main()
