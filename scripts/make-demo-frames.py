#!/usr/bin/env python3
"""Draws the demo frame folders that `make demo` encodes: our own frames,
made here, so the demo needs nothing from outside the repository.

  spinner/  12 frames of an iOS-style spinner: 12 rounded spokes whose
            color fades to light gray behind the leading one (transparent
            background, anti-aliased edges).
  pulse/    20 frames of a gray dot breathing on white (few colors).

Frames are named frame_1.png … frame_12.png on purpose: plain name order
would put frame_10 before frame_2; throbber's natural order does not.
Anti-aliasing by drawing at 4x and downscaling with a box filter."""
import math, os, sys
from PIL import Image, ImageDraw

SS = 4  # supersampling factor

def spinner(out, size=64, n=12):
    for k in range(n):
        img = Image.new("RGBA", (size * SS, size * SS), (0, 0, 0, 0))
        draw = ImageDraw.Draw(img)
        c = size * SS / 2
        for i in range(n):
            # spoke i is (k - i) steps behind the leading spoke
            age = (k - i) % n
            gray = int(round(60 + 150 * age / (n - 1)))
            angle = 2 * math.pi * i / n
            r0, r1, w = size * SS * 0.22, size * SS * 0.44, size * SS * 0.07
            x0, y0 = c + r0 * math.sin(angle), c - r0 * math.cos(angle)
            x1, y1 = c + r1 * math.sin(angle), c - r1 * math.cos(angle)
            draw.line([(x0, y0), (x1, y1)], fill=(gray, gray, gray, 255), width=int(w))
            for (x, y) in ((x0, y0), (x1, y1)):
                draw.ellipse([x - w / 2, y - w / 2, x + w / 2, y + w / 2], fill=(gray, gray, gray, 255))
        img.resize((size, size), Image.BOX).save(os.path.join(out, "frame_%d.png" % (k + 1)))

def pulse(out, size=64, n=20):
    for k in range(n):
        img = Image.new("RGB", (size * SS, size * SS), (255, 255, 255))
        draw = ImageDraw.Draw(img)
        c = size * SS / 2
        r = size * SS * (0.2 + 0.1 * (1 - math.cos(2 * math.pi * k / n)) / 2)
        draw.ellipse([c - r, c - r, c + r, c + r], fill=(128, 128, 128))
        img.resize((size, size), Image.BOX).quantize(16).convert("RGB").save(
            os.path.join(out, "frame_%d.png" % (k + 1)))

def main(root):
    for name, fn in (("spinner", spinner), ("pulse", pulse)):
        d = os.path.join(root, name)
        os.makedirs(d, exist_ok=True)
        fn(d)

main(sys.argv[1] if len(sys.argv) > 1 else "demo-out/frames")
