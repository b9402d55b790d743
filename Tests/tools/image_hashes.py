#!/usr/bin/env python3
"""Prints a JSON list with, for each image file given, the SHA-256 of its
RGBA bytes as decoded by Pillow, with fully transparent pixels normalised to
0,0,0,0: the same digest decode_gif.py prints for a GIF frame, so an input
frame shown losslessly has the same digest as the GIF frame showing it."""
import hashlib, json, sys
from PIL import Image

def digest(path):
    rgba = bytearray(Image.open(path).convert("RGBA").tobytes())
    for p in range(0, len(rgba), 4):
        if rgba[p + 3] == 0:
            rgba[p:p + 3] = b"\0\0\0"
    return hashlib.sha256(rgba).hexdigest()

json.dump([digest(p) for p in sys.argv[1:]], sys.stdout)
