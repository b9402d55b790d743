#!/usr/bin/env python3
"""Measures an EaseLoadingView GIF (a ring image turning around an icon
whose opacity changes, drawn on an opaque white canvas) with Pillow and
numpy only, independently of Throbber.

usage: scene_ease_measure.py GIF RING.png ICON.png

Both images are centered on the canvas at their pixel size (the canvas is
as large as the ring). For every GIF frame, as a viewer shows it:

  angle   the ring's rotation in degrees, clockwise on screen, modulo 180
          (the ring is two opposite arcs, so it looks the same after half a
          turn). Found from the orientation of the principal axis of the dark
          pixels outside the icon, compared with the ring image's own axis.
  spread  how elongated those dark pixels are (ratio of the second moments'
          eigenvalues): near 1 would make the angle meaningless.
  alpha   the icon's opacity: on the pixels where the icon is opaque and dark
          and the ring cannot reach, observed = alpha*icon + (1-alpha)*white,
          solved by least squares over RGB.

Prints JSON: {"width", "height", "frames": [{"duration", "angle", "spread",
"alpha", "alphaPixels"}], "ringAxis"}."""
import json, math, sys
import numpy as np
from PIL import Image, ImageSequence

WHITE = 255.0

def orientation(weights, xs, ys):
    """Principal axis angle (degrees, y down so positive is clockwise on
    screen, in [0, 180)) and eigenvalue ratio of a weighted point cloud."""
    w = weights.sum()
    mx, my = (weights * xs).sum() / w, (weights * ys).sum() / w
    dx, dy = xs - mx, ys - my
    sxx, syy, sxy = (weights * dx * dx).sum() / w, (weights * dy * dy).sum() / w, (weights * dx * dy).sum() / w
    theta = 0.5 * math.degrees(math.atan2(2 * sxy, sxx - syy))
    root = math.sqrt(((sxx - syy) / 2) ** 2 + sxy ** 2)
    big, small = (sxx + syy) / 2 + root, (sxx + syy) / 2 - root
    return theta % 180.0, big / max(small, 1e-9)

def main():
    gif_path, ring_path, icon_path = sys.argv[1:4]
    gif = Image.open(gif_path)
    W, H = gif.size
    cx, cy = W / 2.0, H / 2.0
    ys, xs = np.mgrid[0:H, 0:W].astype(np.float64)
    xs += 0.5 - cx
    ys += 0.5 - cy
    radius = np.hypot(xs, ys)

    ring = np.asarray(Image.open(ring_path).convert("RGBA"), dtype=np.float64)
    icon = np.asarray(Image.open(icon_path).convert("RGBA"), dtype=np.float64)

    # Where the ring can ever be: its nonzero alpha, at any rotation.
    rh, rw = ring.shape[:2]
    rys, rxs = np.mgrid[0:rh, 0:rw].astype(np.float64)
    ring_r = np.hypot(rxs + 0.5 - rw / 2.0, rys + 0.5 - rh / 2.0)
    ring_min = ring_r[ring[..., 3] > 0].min()
    ring_axis, _ = orientation(ring[..., 3] / 255.0, rxs + 0.5 - rw / 2.0, rys + 0.5 - rh / 2.0)

    # The icon placed on the canvas, and how far out it ever reaches.
    ih, iw = icon.shape[:2]
    ox, oy = (W - iw) // 2, (H - ih) // 2
    placed = np.zeros((H, W, 4))
    placed[oy:oy + ih, ox:ox + iw] = icon
    icon_max = radius[placed[..., 3] > 0].max()

    # Icon pixels to read opacity from: opaque, clearly darker than white,
    # well inside the ring.
    gray = placed[..., :3].mean(axis=2)
    use = (placed[..., 3] == 255) & (WHITE - gray >= 100) & (radius < ring_min - 2)
    icon_rgb = placed[..., :3][use]
    depth = WHITE - icon_rgb                       # per channel, how far from white
    ring_zone = radius > icon_max + 1

    frames = []
    for frame in ImageSequence.Iterator(gif):
        rgba = np.asarray(frame.convert("RGBA"), dtype=np.float64)
        rgb = rgba[..., :3] * (rgba[..., 3:] / 255.0) + WHITE * (1 - rgba[..., 3:] / 255.0)
        dark = (WHITE - rgb.mean(axis=2)) / WHITE
        dark = np.where(ring_zone, np.clip(dark, 0, 1), 0)
        if dark.sum() > 0:
            angle, spread = orientation(dark, xs, ys)
            angle = (angle - ring_axis) % 180.0
        else:
            angle, spread = None, None
        seen = WHITE - rgb[use]
        alpha = float((seen * depth).sum() / (depth * depth).sum())
        frames.append({"duration": frame.info.get("duration"), "angle": angle, "spread": spread,
                       "alpha": alpha, "alphaPixels": int(use.sum())})
    json.dump({"width": W, "height": H, "ringAxis": ring_axis, "frames": frames}, sys.stdout)

main()
