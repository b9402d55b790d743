#!/usr/bin/env python3
"""Writes hand-built GIF and APNG files for `throbber info` tests, byte by
byte (struct, zlib and a small LZW encoder; no image library writes them),
and prints what each file states as JSON, keyed by file name:

    {"gif_mixed.gif": {"format", "width", "height", "loop", "frames": [
        {"x", "y", "width", "height", "delay_num", "delay_den", "dispose",
         "blend", "colors", "transparent"}]}, ...}

The conventions are the ones check_anim_structure.py documents. Every file
is then opened with Pillow and all its frames are loaded, so a mistake in
this writer shows up here and not as a Throbber bug.

Usage: check_make_anim.py OUT_DIR
"""
import json
import os
import struct
import sys
import zlib

# ---------------------------------------------------------------- GIF


def lzw(indices, min_code_size):
    """GIF LZW: variable-width codes, LSB first, packed in sub-blocks."""
    clear, eoi = 1 << min_code_size, (1 << min_code_size) + 1
    size = min_code_size + 1
    table = {bytes([i]): i for i in range(clear)}
    next_code = eoi + 1
    bits = nbits = 0
    out = bytearray()

    def emit(code):
        nonlocal bits, nbits
        bits |= code << nbits
        nbits += size
        while nbits >= 8:
            out.append(bits & 0xFF)
            bits >>= 8
            nbits -= 8

    emit(clear)
    w = b""
    for k in indices:
        wk = w + bytes([k])
        if wk in table:
            w = wk
            continue
        emit(table[w])
        assert next_code < 4000, "image too large for this small encoder"
        table[wk] = next_code
        next_code += 1
        if next_code > (1 << size) and size < 12:
            size += 1
        w = bytes([k])
    if w:
        emit(table[w])
    emit(eoi)
    if nbits:
        out.append(bits & 0xFF)
    blocks = bytearray([min_code_size])
    for i in range(0, len(out), 255):
        chunk = out[i:i + 255]
        blocks += bytes([len(chunk)]) + chunk
    return bytes(blocks + b"\0")


def table_bits(n):
    """The GIF size field for a table of n = 2..256 entries (a power of two)."""
    b = 0
    while (2 << b) < n:
        b += 1
    assert 2 << b == n
    return b


def color_table(n, seed):
    return bytes(((i * 37 + seed * 11) % 256, (i * 91 + seed) % 256, (i * 53 + 7 * seed) % 256)[c]
                 for i in range(n) for c in range(3))


def gif_file(width, height, frames, global_colors=None, loop=None, version=b"GIF89a"):
    """frames: dicts with x, y, w, h, optional local (table size), gce
    (disposal, delay, transparent or None) or None, interlace, comment."""
    out = bytearray(version)
    packed = 0
    if global_colors:
        packed = 0x80 | (7 << 4) | table_bits(global_colors)
    out += struct.pack("<HHBBB", width, height, packed, 0, 0)
    if global_colors:
        out += color_table(global_colors, 1)
    if loop is not None:
        out += b"\x21\xff\x0bNETSCAPE2.0\x03\x01" + struct.pack("<H", loop) + b"\0"
    for i, f in enumerate(frames):
        if f.get("gce") is not None:
            disposal, delay, transparent = f["gce"]
            pk = (disposal << 2) | (1 if transparent is not None else 0)
            out += b"\x21\xf9\x04" + struct.pack("<BHB", pk, delay, transparent or 0) + b"\0"
        if f.get("comment"):
            text = f["comment"].encode()
            out += b"\x21\xfe" + bytes([len(text)]) + text + b"\0"
        n = f.get("local") or global_colors or 256
        ip = 0
        if f.get("local"):
            ip = 0x80 | table_bits(f["local"])
        if f.get("interlace"):
            ip |= 0x40
        out += b"\x2c" + struct.pack("<HHHHB", f["x"], f["y"], f["w"], f["h"], ip)
        if f.get("local"):
            out += color_table(f["local"], i + 2)
        pixels = [(x * 3 + y * 5 + i) % n for y in range(f["h"]) for x in range(f["w"])]
        out += lzw(pixels, max(2, table_bits(n) + 1))
    out += b"\x3b"
    return bytes(out)


def gif_spec(width, height, frames, global_colors=None, loop=None):
    names = {0: "unspecified", 1: "none", 2: "background", 3: "previous"}
    spec = []
    for f in frames:
        disposal, delay, transparent = f.get("gce") or (0, 0, None)
        spec.append({"x": f["x"], "y": f["y"], "width": f["w"], "height": f["h"],
                     "delay_num": delay, "delay_den": 100, "dispose": names[disposal], "blend": "over",
                     "colors": f.get("local") or global_colors, "transparent": transparent})
    plays = 1 if loop is None else (0 if loop == 0 else loop + 1)
    return {"format": "gif", "width": width, "height": height, "loop": plays, "frames": spec}


# ---------------------------------------------------------------- APNG


def chunk(ctype, data):
    return struct.pack(">I", len(data)) + ctype + data + struct.pack(">I", zlib.crc32(ctype + data) & 0xFFFFFFFF)


CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}


def image_data(w, h, color_type, seed, palette_size=None):
    rows = bytearray()
    for y in range(h):
        rows.append(0)
        for x in range(w):
            if color_type == 3:
                rows.append((x + y + seed) % palette_size)
            else:
                for c in range(CHANNELS[color_type]):
                    rows.append((x * 40 + y * 70 + c * 90 + seed * 30) % 256 if c < 3 else 255 - 20 * seed)
    return zlib.compress(bytes(rows), 9)


def apng_file(width, height, frames, plays, color_type=6, palette=None, trns=False, hidden_default=False, declared=None):
    """frames: dicts with x, y, w, h, num, den, dispose, blend."""
    out = bytearray(b"\x89PNG\r\n\x1a\n")
    out += chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, color_type, 0, 0, 0))
    out += chunk(b"acTL", struct.pack(">II", len(frames) if declared is None else declared, plays))
    if palette:
        out += chunk(b"PLTE", bytes((i * 50 % 256, i * 90 % 256, 255 - i * 30 % 256)[c] for i in range(palette) for c in range(3)))
        if trns and color_type == 3:
            out += chunk(b"tRNS", bytes([0] + [255] * (palette - 1)))
    seq = 0
    if hidden_default:
        out += chunk(b"IDAT", image_data(width, height, color_type, 9, palette))
    for i, f in enumerate(frames):
        out += chunk(b"fcTL", struct.pack(">IIIIIHHBB", seq, f["w"], f["h"], f["x"], f["y"], f["num"], f["den"],
                                          f["dispose"], f["blend"]))
        seq += 1
        data = image_data(f["w"], f["h"], color_type, i, palette)
        if i == 0 and not hidden_default:
            out += chunk(b"IDAT", data)
        else:
            out += chunk(b"fdAT", struct.pack(">I", seq) + data)
            seq += 1
    out += chunk(b"IEND", b"")
    return bytes(out)


def apng_spec(width, height, frames, plays, color_type=6, palette=None):
    spec = [{"x": f["x"], "y": f["y"], "width": f["w"], "height": f["h"],
             "delay_num": f["num"], "delay_den": f["den"] or 100,
             "dispose": ["none", "background", "previous"][f["dispose"]],
             "blend": ["source", "over"][f["blend"]],
             "colors": palette if color_type == 3 else None, "transparent": None} for f in frames]
    # What `throbber info` calls the IHDR color type (every file here is 8-bit).
    kind = {0: "gray", 2: "RGB", 3: "palette", 4: "gray+alpha", 6: "RGBA"}[color_type]
    return {"format": "apng", "width": width, "height": height, "loop": plays, "frames": spec,
            "pixel_type": kind + " 8-bit"}


def fr(x, y, w, h, num, den, dispose, blend):
    return {"x": x, "y": y, "w": w, "h": h, "num": num, "den": den, "dispose": dispose, "blend": blend}


# ---------------------------------------------------------------- cases


def cases():
    gifs = {
        # Every disposal, transparency on and off, local and global tables,
        # interlacing, a comment between the control block and the image,
        # the largest delay, and 3 plays (NETSCAPE repeat count 2).
        "gif_mixed.gif": dict(width=16, height=12, global_colors=4, loop=2, frames=[
            {"x": 0, "y": 0, "w": 16, "h": 12, "gce": (1, 7, None)},
            {"x": 3, "y": 2, "w": 5, "h": 4, "gce": (2, 123, 3), "local": 8, "interlace": True},
            {"x": 10, "y": 6, "w": 6, "h": 6, "gce": (3, 0, 0), "comment": "between GCE and image"},
            {"x": 1, "y": 1, "w": 2, "h": 2},
            {"x": 0, "y": 0, "w": 16, "h": 12, "gce": (0, 65535, 255), "local": 256},
        ]),
        "gif_forever.gif": dict(width=9, height=7, global_colors=2, loop=0, frames=[
            {"x": 0, "y": 0, "w": 9, "h": 7, "gce": (1, 10, None)},
            {"x": 4, "y": 3, "w": 5, "h": 4, "gce": (2, 20, 1)},
        ]),
        "gif_once.gif": dict(width=5, height=5, global_colors=16, loop=None, frames=[
            {"x": 0, "y": 0, "w": 5, "h": 5, "gce": (1, 10, None)},
            {"x": 1, "y": 1, "w": 3, "h": 3, "gce": (1, 10, 15)},
        ]),
        "gif_max_loop.gif": dict(width=4, height=4, global_colors=4, loop=65535, frames=[
            {"x": 0, "y": 0, "w": 4, "h": 4, "gce": (1, 2, None)},
            {"x": 0, "y": 0, "w": 4, "h": 4, "gce": (1, 3, None)},
        ]),
        "gif_local_only.gif": dict(width=8, height=8, global_colors=None, loop=0, frames=[
            {"x": 0, "y": 0, "w": 8, "h": 8, "gce": (1, 5, None), "local": 2},
            {"x": 2, "y": 2, "w": 4, "h": 4, "gce": (2, 5, 7), "local": 16},
            {"x": 0, "y": 0, "w": 8, "h": 8, "gce": (1, 5, 63), "local": 64},
        ]),
    }
    apngs = {
        # Exact fractions (1/3 s), a zero denominator (read as 1/100), 7 ms,
        # 65535/65535, every dispose and blend op, sub-rectangles, 3 plays.
        "apng_rgba.png": dict(width=8, height=6, plays=3, frames=[
            fr(0, 0, 8, 6, 1, 3, 0, 0), fr(4, 1, 3, 2, 0, 0, 1, 1),
            fr(0, 4, 2, 2, 7, 1000, 2, 1), fr(0, 0, 8, 6, 65535, 65535, 0, 0)]),
        # The default image (IDAT) is not part of the animation.
        "apng_hidden_default.png": dict(width=6, height=6, plays=0, hidden_default=True, frames=[
            fr(0, 0, 6, 6, 1, 20, 0, 0), fr(1, 1, 4, 4, 3, 20, 1, 1)]),
        "apng_palette.png": dict(width=7, height=5, plays=1, color_type=3, palette=5, trns=True, frames=[
            fr(0, 0, 7, 5, 10, 100, 0, 0), fr(2, 1, 3, 3, 25, 100, 2, 1), fr(0, 0, 7, 5, 1, 7, 1, 0)]),
        "apng_gray.png": dict(width=4, height=4, plays=2, color_type=0, frames=[
            fr(0, 0, 4, 4, 1, 1, 0, 0), fr(1, 1, 2, 2, 1, 2, 0, 1)]),
        # A truecolor APNG with a suggested palette (PLTE is allowed for
        # color types 2 and 6): its frames are truecolor all the same.
        "apng_rgb_suggested_plte.png": dict(width=5, height=4, plays=0, color_type=2, palette=7, frames=[
            fr(0, 0, 5, 4, 1, 10, 0, 0), fr(1, 1, 2, 2, 1, 10, 0, 0)]),
        # More plays than 65535 (num_plays is 32 bits).
        "apng_many_plays.png": dict(width=3, height=3, plays=100000, frames=[
            fr(0, 0, 3, 3, 1, 10, 0, 0), fr(0, 0, 3, 3, 1, 10, 0, 0)]),
    }
    return gifs, apngs


def main():
    out_dir = sys.argv[1]
    os.makedirs(out_dir, exist_ok=True)
    gifs, apngs = cases()
    spec = {}
    for name, c in gifs.items():
        with open(os.path.join(out_dir, name), "wb") as f:
            f.write(gif_file(c["width"], c["height"], c["frames"], c["global_colors"], c["loop"]))
        spec[name] = gif_spec(c["width"], c["height"], c["frames"], c["global_colors"], c["loop"])
    for name, c in apngs.items():
        kw = {k: c[k] for k in ("color_type", "palette", "trns", "hidden_default") if k in c}
        with open(os.path.join(out_dir, name), "wb") as f:
            f.write(apng_file(c["width"], c["height"], c["frames"], c["plays"], **kw))
        spec[name] = apng_spec(c["width"], c["height"], c["frames"], c["plays"],
                               c.get("color_type", 6), c.get("palette"))
    # Every file must load completely in Pillow, frame by frame.
    from PIL import Image, ImageSequence
    for name, s in spec.items():
        im = Image.open(os.path.join(out_dir, name))
        n = 0
        for frame in ImageSequence.Iterator(im):
            frame.load()
            n += 1
        # Pillow also counts a default image that is not part of the animation.
        expected = len(s["frames"]) + (1 if apngs.get(name, {}).get("hidden_default") else 0)
        if n != expected:
            sys.exit("%s: Pillow sees %d frames, the writer wrote %d" % (name, n, expected))
    json.dump(spec, sys.stdout)


main()
