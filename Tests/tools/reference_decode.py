#!/usr/bin/python3
"""Independent reference decoder for ThrobberKit's image tests.

Usage: reference_decode.py OUTDIR FILE...

For every FILE, writes OUTDIR/<basename>.rgba (8-bit straight RGBA, rows top
to bottom) and prints one JSON object mapping each basename to
{"width", "height", "via"}.

- 16-bit PNGs ("via": "raw16"): decoded by the small pure-Python reader
  below (zlib + PNG filters + Adam7 + tRNS, nothing else; chunks and
  filters come from anim_reference.py's PNG reader), then every sample
  is scaled to 8 bits as round(v * 255 / 65535), which is what libpng's
  png_set_scale_16 computes (checked for all 65536 values). Pillow cannot be
  the reference here because it keeps only the high byte (truncation), and
  ImageMagick cannot because it gamma-converts files with a gAMA chunk.
- Other PNGs and JPEGs ("via": "pillow"): Pillow's Image.convert("RGBA").
  Pillow has its own PNG decoder (zlib, not libpng); for JPEG it uses
  libjpeg-turbo with the default ISLOW DCT. One Pillow bug is worked around:
  for 1/2/4-bit gray with tRNS (PngSuite tbbn0g04), Pillow scales the
  samples to 8 bits but compares them with the unscaled tRNS value, so the
  key is scaled the same way here (15 of 4-bit gray is 255).

No gamma, sBIT or colour-space change is applied anywhere: samples are kept
as stored in the file.
"""
import json
import os
import struct
import sys
import zlib

from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from anim_reference import ADAM7, png_chunks, unfilter  # noqa: E402  (its PNG reader: chunks, filters)

CHANNELS = {0: 1, 2: 3, 4: 2, 6: 4}


def decode_png16(data):
    """16-bit gray/RGB/gray+alpha/RGBA PNG -> (width, height, RGBA8 bytes)."""
    ihdr, idat, trns = None, b"", None
    for kind, body in png_chunks(data):
        if kind == "IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif kind == "IDAT":
            idat += body
        elif kind == "tRNS":
            trns = body
    width, height, depth, color, _, _, interlace = ihdr
    assert depth == 16 and color in CHANNELS
    n = CHANNELS[color]
    bpp = 2 * n
    raw = zlib.decompress(idat)
    samples = [[None] * width for _ in range(height)]  # per pixel: tuple of n ints
    passes = ADAM7 if interlace else [(0, 0, 1, 1)]
    offset = 0
    for x0, y0, dx, dy in passes:
        w = (width - x0 + dx - 1) // dx if width > x0 else 0
        h = (height - y0 + dy - 1) // dy if height > y0 else 0
        if w == 0 or h == 0:
            continue
        rows, offset = unfilter(raw, offset, w * bpp, h, bpp)
        for j, row in enumerate(rows):
            for i in range(w):
                px = struct.unpack(">%dH" % n, bytes(row[i * bpp:(i + 1) * bpp]))
                samples[y0 + j * dy][x0 + i * dx] = px
    key = struct.unpack(">%dH" % (len(trns) // 2), trns) if trns else None
    out, high = bytearray(), bytearray()
    scale = lambda v: (v * 255 + 32767) // 65535  # round half up of v*255/65535
    for y in range(height):
        for px in samples[y]:
            if color == 0:
                rgb, a = (px[0],) * 3, 0 if key == px else 65535
            elif color == 2:
                rgb, a = px, 0 if key == px else 65535
            elif color == 4:
                rgb, a = (px[0],) * 3, px[1]
            else:
                rgb, a = px[:3], px[3]
            out += bytes(scale(v) for v in rgb) + bytes([scale(a)])
            high += bytes(v >> 8 for v in rgb) + bytes([a >> 8])
    return width, height, bytes(out), bytes(high)


def pillow_agrees(path, high):
    """Cross-check of the reader above: Pillow keeps the high byte of each
    16-bit sample, so its RGBA must equal ours before rounding. (Pillow opens
    16-bit gray as mode I, whose RGBA conversion clips instead; compare its
    16-bit values' high bytes there.)"""
    im = Image.open(path)
    if im.mode in ("I", "I;16", "I;16B"):
        pixels = im.getdata()
        return bytes(v >> 8 for v in pixels) == high[0::4]
    return im.convert("RGBA").tobytes() == high


def main():
    outdir, files = sys.argv[1], sys.argv[2:]
    manifest = {}
    for path in files:
        name = os.path.basename(path)
        with open(path, "rb") as f:
            data = f.read()
        if data[:8] == b"\x89PNG\r\n\x1a\n" and data[24] == 16:
            width, height, rgba, high = decode_png16(data)
            via = "raw16" if pillow_agrees(path, high) else "raw16-disagrees-with-pillow"
        else:
            im = Image.open(path)
            if data[:8] == b"\x89PNG\r\n\x1a\n" and data[25] == 0 and data[24] < 8 \
                    and "transparency" in im.info:
                im.info["transparency"] *= 255 // (2 ** data[24] - 1)
            rgba = im.convert("RGBA").tobytes()
            width, height, via = im.width, im.height, "pillow"
        with open(os.path.join(outdir, name + ".rgba"), "wb") as f:
            f.write(rgba)
        manifest[name] = {"width": width, "height": height, "via": via}
    json.dump(manifest, sys.stdout)


main()
