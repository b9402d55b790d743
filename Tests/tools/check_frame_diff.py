#!/usr/bin/env python3
"""Independent pixel comparison for `throbber check` tests, with Pillow.

  check_frame_diff.py diff EXPECTED ACTUAL
      Composites every frame of two GIF/APNG files as a viewer shows them
      (Pillow), and prints JSON: frame counts, durations (ms), and the first
      frame whose pixels differ (0-based, as Pillow counts) with its number
      of differing pixels, the largest difference of any RGBA channel and
      the box [x, y, width, height] that holds them ({"first": null} when
      all frames are equal).

  check_frame_diff.py frame FILE N
      The SHA-256 of frame N's RGBA bytes, composited, plus its size.

  check_frame_diff.py still FILE.png
      For a still PNG: its size, the SHA-256 of its RGBA bytes, and the
      statistics a difference image is judged by: how many pixels are not
      black, the largest channel value, whether every pixel is gray
      (R = G = B) and opaque.

RGBA bytes are normalised as in decode_gif.py: a fully transparent pixel is
0,0,0,0 whatever its color.
"""
import hashlib
import json
import sys

import apng_pillow

apng_pillow.use_for(sys.argv[1:])  # an APNG: the pinned Pillow (apng_pillow.py)
from PIL import Image, ImageSequence


def normalised(im):
    rgba = bytearray(im.convert("RGBA").tobytes())
    for p in range(0, len(rgba), 4):
        if rgba[p + 3] == 0:
            rgba[p:p + 3] = b"\0\0\0"
    return bytes(rgba)


def frames(path):
    im = Image.open(path)
    out = []
    for frame in ImageSequence.Iterator(im):
        out.append((normalised(frame), frame.info.get("duration")))
    # An APNG whose default image is not part of the animation: Pillow
    # lists it first; Throbber (and viewers) do not show it.
    if im.format == "PNG" and im.info.get("default_image"):
        out = out[1:]
    return im.size, out


def diff(a_path, b_path):
    (size_a, a), (size_b, b) = frames(a_path), frames(b_path)
    result = {"size_expected": list(size_a), "size_actual": list(size_b),
              "frames_expected": len(a), "frames_actual": len(b),
              "durations_expected": [d for _, d in a], "durations_actual": [d for _, d in b],
              "first": None}
    if size_a != size_b:
        return result
    for i, ((pa, _), (pb, _)) in enumerate(zip(a, b)):
        if pa == pb:
            continue
        count = largest = 0
        xs, ys = [], []
        for p in range(0, len(pa), 4):
            d = max(abs(pa[p + c] - pb[p + c]) for c in range(4))
            if d:
                count += 1
                largest = max(largest, d)
                xs.append((p // 4) % size_a[0])
                ys.append((p // 4) // size_a[0])
        box = [min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1]
        result.update(first=i, pixels=count, largest=largest, box=box)
        break
    return result


def frame(path, n):
    size, fs = frames(path)
    return {"width": size[0], "height": size[1], "sha256": hashlib.sha256(fs[n][0]).hexdigest()}


def still(path):
    im = Image.open(path)
    rgba = normalised(im)
    nonblack = largest = 0
    gray = opaque = True
    for p in range(0, len(rgba), 4):
        r, g, b, a = rgba[p:p + 4]
        if r or g or b:
            nonblack += 1
        largest = max(largest, r, g, b)
        gray = gray and r == g == b
        opaque = opaque and a == 255
    return {"width": im.width, "height": im.height, "sha256": hashlib.sha256(rgba).hexdigest(),
            "nonblack": nonblack, "largest": largest, "gray": gray, "opaque": opaque,
            "animated": bool(getattr(im, "is_animated", False))}


def main():
    cmd = sys.argv[1]
    if cmd == "diff":
        out = diff(sys.argv[2], sys.argv[3])
    elif cmd == "frame":
        out = frame(sys.argv[2], int(sys.argv[3]))
    elif cmd == "still":
        out = still(sys.argv[2])
    else:
        sys.exit("unknown command " + cmd)
    json.dump(out, sys.stdout)


main()
