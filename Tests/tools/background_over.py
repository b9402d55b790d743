#!/usr/bin/env python3
"""Translucent test frames and their composite over a color, in numpy
(never with the code under test), for `encode --background`.

usage: background_over.py frames DIR COUNT WIDTH HEIGHT
         writes COUNT RGBA PNGs 0001.png... : a color gradient under an
         alpha that runs 0..255 across (fully transparent and opaque
         columns included), a different picture in every frame.
       background_over.py over RRGGBB OUTDIR IN.png...
         writes each input drawn over an opaque RRGGBB canvas (source-over
         on straight alpha: c = s*a + b*(1 - a), rounded to nearest) as
         OUTDIR/0001.png..., opaque RGB."""
import os, sys
import numpy as np
from PIL import Image

def frames(folder, count, width, height):
    os.makedirs(folder, exist_ok=True)
    y, x = np.mgrid[0:height, 0:width]
    for i in range(count):
        rgba = np.empty((height, width, 4), np.uint8)
        rgba[..., 0] = (x * 255 // max(width - 1, 1) + 40 * i) % 256
        rgba[..., 1] = (y * 255 // max(height - 1, 1) + 70 * i) % 256
        rgba[..., 2] = ((x + y) * 3 + 90 * i) % 256
        rgba[..., 3] = np.round(x * 255.0 / max(width - 1, 1)).astype(np.uint8)
        Image.fromarray(rgba, "RGBA").save(os.path.join(folder, "%04d.png" % (i + 1)))

def over(color, folder, inputs):
    os.makedirs(folder, exist_ok=True)
    bg = np.array([int(color[k:k + 2], 16) for k in (0, 2, 4)], np.float64)
    for i, path in enumerate(inputs):
        src = np.asarray(Image.open(path).convert("RGBA"), np.float64)
        a = src[..., 3:4] / 255.0
        out = np.floor(src[..., :3] * a + bg * (1.0 - a) + 0.5).astype(np.uint8)
        Image.fromarray(out, "RGB").save(os.path.join(folder, "%04d.png" % (i + 1)))

def main():
    if sys.argv[1] == "frames":
        frames(sys.argv[2], *map(int, sys.argv[3:6]))
    elif sys.argv[1] == "over":
        over(sys.argv[2].lstrip("#"), sys.argv[3], sys.argv[4:])
    else:
        sys.exit(__doc__)

main()
