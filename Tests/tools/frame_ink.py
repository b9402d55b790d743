#!/usr/bin/python3
"""Ink in every frame of an animation, as Pillow shows it.

Usage: frame_ink.py FILE...

For each GIF or APNG prints {"ink": [pixels per frame], "canvas": w*h}: a
pixel is ink when its alpha is at least 128 and it is not the background:
at least 32 levels away, in some channel, from the background color. The
background is the top-left pixel of the first frame when that is opaque
(a filled canvas), else white (a transparent canvas: GIF output blends soft
edges onto white, so near-white opaque pixels are background too).
"""
import json
import sys

import numpy as np
from PIL import Image, ImageSequence

out = []
for path in sys.argv[1:]:
    im = Image.open(path)
    frames = [np.asarray(f.convert("RGBA")).astype(int) for f in ImageSequence.Iterator(im)]
    corner = frames[0][0, 0]
    background = corner[:3] if corner[3] >= 128 else np.array([255, 255, 255])
    ink = []
    for a in frames:
        far = np.abs(a[..., :3] - background).max(axis=-1) >= 32
        ink.append(int(((a[..., 3] >= 128) & far).sum()))
    out.append({"ink": ink, "canvas": int(frames[0].shape[0] * frames[0].shape[1])})
print(json.dumps(out))
