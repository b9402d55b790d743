#!/usr/bin/env python3
"""Ink profiles of every frame of a GIF, as a viewer shows it (Pillow),
for tests that measure shapes: areas, extents, positions.

usage: scene_profiles.py GIF [--ink-below-white N]

A pixel is ink when its alpha is at least 128 (and, with
--ink-below-white N, when its darkest RGB channel is at most 255 - N: for
shapes drawn on an opaque white canvas). For every frame prints
  duration  ms
  columns   ink pixels in each column (length = width)
  rows      ink pixels in each row (length = height)
  colors    the three most common colors of ink pixels, [[r, g, b, a, count]]
as JSON: {"width", "height", "frames": [...]}."""
import json, sys
import numpy as np
from PIL import Image, ImageSequence

def main():
    path = sys.argv[1]
    below = int(sys.argv[sys.argv.index("--ink-below-white") + 1]) if "--ink-below-white" in sys.argv else None
    gif = Image.open(path)
    out = {"width": gif.width, "height": gif.height, "frames": []}
    for frame in ImageSequence.Iterator(gif):
        rgba = np.asarray(frame.convert("RGBA"))
        ink = rgba[..., 3] >= 128
        if below is not None:
            ink &= rgba[..., :3].min(axis=2) <= 255 - below
        values, counts = np.unique(rgba[ink].reshape(-1, 4), axis=0, return_counts=True) if ink.any() else ([], [])
        order = np.argsort(-np.asarray(counts))[:3] if len(counts) else []
        out["frames"].append({
            "duration": frame.info.get("duration"),
            "columns": ink.sum(axis=0).tolist(),
            "rows": ink.sum(axis=1).tolist(),
            "colors": [[int(c) for c in values[i]] + [int(counts[i])] for i in order],
        })
    json.dump(out, sys.stdout)

main()
