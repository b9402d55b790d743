#!/usr/bin/python3
"""Writes small color JPEGs for ThrobberKit's decoder tests with Pillow:
usage: make_jpeg.py OUTDIR. The picture is a deterministic 61x47 pattern
(odd sizes, so the chroma planes have partial blocks):
  color-420.jpg          baseline, 4:2:0 chroma subsampling
  color-444.jpg          baseline, no subsampling
  color-progressive.jpg  progressive, 4:2:0"""
import os
import sys

from PIL import Image

W, H = 61, 47
im = Image.new("RGB", (W, H))
im.putdata([((x * 255) // (W - 1), (y * 255) // (H - 1), ((x * y) * 7) % 256) for y in range(H) for x in range(W)])
out = sys.argv[1]
im.save(os.path.join(out, "color-420.jpg"), quality=90, subsampling=2)
im.save(os.path.join(out, "color-444.jpg"), quality=90, subsampling=0)
im.save(os.path.join(out, "color-progressive.jpg"), quality=90, subsampling=2, progressive=True)
