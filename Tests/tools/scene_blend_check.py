#!/usr/bin/env python3
"""Checks that a GIF only ever shows blends of one color over one opaque
background, as a one-color loader on a colored canvas must (Pillow, numpy).

usage: scene_blend_check.py GIF R,G,B R,G,B
(the first color is the ink, the second the background)

For every pixel of every frame, as a viewer shows it, finds the nearest
point on the segment background→ink and its distance (Euclidean, in 0-255
RGB levels); a transparent pixel counts as 255 away. Prints JSON:
{"frames", "worst": largest distance, "covered": mean fraction of pixels
at least half-way to the ink}."""
import json, sys
import numpy as np
from PIL import Image, ImageSequence

def main():
    gif = Image.open(sys.argv[1])
    ink = np.array([float(v) for v in sys.argv[2].split(",")])
    bg = np.array([float(v) for v in sys.argv[3].split(",")])
    d = ink - bg
    worst, covered, frames = 0.0, 0.0, 0
    for frame in ImageSequence.Iterator(gif):
        rgba = np.asarray(frame.convert("RGBA"), dtype=np.float64).reshape(-1, 4)
        rgb = rgba[:, :3]
        a = np.clip(((rgb - bg) @ d) / (d @ d), 0, 1)
        dist = np.linalg.norm(rgb - (bg + a[:, None] * d), axis=1)
        dist[rgba[:, 3] < 255] = 255.0
        worst = max(worst, float(dist.max()))
        covered += float((a >= 0.5).mean())
        frames += 1
    json.dump({"frames": frames, "worst": worst, "covered": covered / max(frames, 1)}, sys.stdout)

main()
