#!/usr/bin/env python3
"""Writes test input frames with Pillow (never with the code under test).

usage: make_frames.py DIR SPEC_JSON
SPEC_JSON is a list of frames:
  {"name": "f1.png", "size": [w, h], "color": [r, g, b, a],
   "marks": [[x, y, w, h, r, g, b, a], ...],   # optional filled rectangles
   "mode": "RGBA" | "RGB" | "L"}               # optional, default RGBA
The format follows the file extension (.png, .jpg/.jpeg)."""
import json, os, sys
from PIL import Image, ImageDraw

def main():
    folder, spec = sys.argv[1], json.loads(sys.argv[2])
    os.makedirs(folder, exist_ok=True)
    for frame in spec:
        w, h = frame["size"]
        im = Image.new("RGBA", (w, h), tuple(frame["color"]))
        draw = ImageDraw.Draw(im)
        for x, y, mw, mh, *rgba in frame.get("marks", []):
            draw.rectangle([x, y, x + mw - 1, y + mh - 1], fill=tuple(rgba))
        im = im.convert(frame.get("mode", "RGBA"))
        path = os.path.join(folder, frame["name"])
        if path.lower().endswith((".jpg", ".jpeg")):
            im.convert("RGB" if im.mode == "RGBA" else im.mode).save(path, "JPEG", quality=95)
        else:
            im.save(path, "PNG")

main()
