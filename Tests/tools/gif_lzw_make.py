#!/usr/bin/python3
"""Writes GIFs whose images use an LZW minimum code size of 9, 10 or 11
(legal, and read by browsers and Pillow, but refused by giflib), byte by
byte: struct and an LZW encoder written here (Pillow only reads them back). ThrobberKit
reads such files with its own fallback decoder (GIFLZWFallback.swift); the
tests compare what it shows with Pillow and with anim_reference.py's GIF
decoder.

usage: gif_lzw_make.py OUTDIR

Each file's first image is read back with Pillow, which must give exactly
the indices encoded (so the encoder here is right; exit 1 otherwise).
Writes these files and prints JSON {name: {"codeSizes": [...], "frames": n,
"clears": [...], "deferredClear": bool}}:
  random9.gif      one 97x61 image, code size 9, 256 random colors; the
                   code table fills up and the encoder sends a clear code
  anim10.gif       code size 10, 48x32: 4 frames with disposal 1, 2, 3 and
                   none, a transparent index, a local palette, an offset
                   sub-rectangle, delays 7, 13, 20, 4 cs, NETSCAPE loop 3
  interlaced11.gif code size 11, 21x19, interlaced rows, a global palette
                   of 8 colors
  runs9.gif        code size 9, 160x120 of long runs of one index (the
                   KwKwK case: a code defined by the code being read) and
                   noise; when the table is full the encoder keeps going
                   with 12-bit codes and no new entries ("deferred clear")
  mixed8-9.gif     two frames: the first with code size 8 (giflib's range),
                   the second with code size 9, so the whole file takes the
                   fallback
"""
import json, os, random, struct, sys
from PIL import Image


class BitWriter:
    def __init__(self):
        self.out, self.buffer, self.bits = bytearray(), 0, 0

    def put(self, code, size):
        self.buffer |= code << self.bits
        self.bits += size
        while self.bits >= 8:
            self.out.append(self.buffer & 0xFF)
            self.buffer >>= 8
            self.bits -= 8

    def done(self):
        if self.bits:
            self.out.append(self.buffer & 0xFF)
        return bytes(self.out)


def lzw(indices, minimum, clear_when_full=True):
    """GIF LZW. Returns (data, number of clear codes sent after the first,
    whether codes were sent with a full table and no clear)."""
    clear, end = 1 << minimum, (1 << minimum) + 1
    w = BitWriter()
    table, size, nxt = {}, minimum + 1, end + 1
    clears, deferred = 0, False
    w.put(clear, size)
    prefix = indices[0]
    for k in indices[1:]:
        key = (prefix, k)
        if key in table:
            prefix = table[key]
            continue
        w.put(prefix, size)
        if nxt < 4096:
            table[key] = nxt
            nxt += 1
            # The decoder adds this entry one code later, so it widens its
            # codes after the entry that makes the table reach 2^size + 1.
            if nxt > (1 << size) and size < 12:
                size += 1
        elif clear_when_full:
            w.put(clear, size)
            table, size, nxt = {}, minimum + 1, end + 1
            clears += 1
        else:
            deferred = True
        prefix = k
    w.put(prefix, size)
    w.put(end, size)
    return w.done(), clears, deferred


def sub_blocks(data):
    out = bytearray()
    for i in range(0, len(data), 255):
        part = data[i:i + 255]
        out += bytes([len(part)]) + part
    return bytes(out + b"\0")


def palette_bytes(colors):
    size = 2
    while size < len(colors):
        size *= 2
    flat = b"".join(bytes(c) for c in colors) + b"\0\0\0" * (size - len(colors))
    return flat, size.bit_length() - 2


def gce(disposal=0, delay=0, transparent=None):
    flags = (disposal << 2) | (1 if transparent is not None else 0)
    return b"\x21\xf9\x04" + struct.pack("<BHB", flags, delay, transparent or 0) + b"\0"


def image(rect, indices, minimum, local=None, interlaced=False, clear_when_full=True):
    x, y, w, h = rect
    rows = [indices[r * w:(r + 1) * w] for r in range(h)]
    if interlaced:
        order = list(range(0, h, 8)) + list(range(4, h, 8)) + list(range(2, h, 4)) + list(range(1, h, 2))
        rows = [rows[r] for r in order]
    flat = [i for row in rows for i in row]
    flags = (0x40 if interlaced else 0)
    table = b""
    if local:
        table, bits = palette_bytes(local)
        flags |= 0x80 | bits
    data, clears, deferred = lzw(flat, minimum, clear_when_full)
    block = b"," + struct.pack("<HHHHB", x, y, w, h, flags) + table + bytes([minimum]) + sub_blocks(data)
    return block, clears, deferred


def gif(width, height, colors, parts, loop=None):
    flags, table = 0, b""
    if colors:
        table, bits = palette_bytes(colors)
        flags = 0x80 | 0x70 | bits
    out = b"GIF89a" + struct.pack("<HHBBB", width, height, flags, 0, 0) + table
    if loop is not None:
        out += b"\x21\xff\x0bNETSCAPE2.0\x03\x01" + struct.pack("<H", loop) + b"\0"
    return out + b"".join(parts) + b";"


def main():
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    rnd = random.Random(2811)
    report = {}

    def save(name, data, sizes, frames, clears, deferred, first):
        path = os.path.join(outdir, name)
        with open(path, "wb") as f:
            f.write(data)
        with Image.open(path) as im:
            if list(im.getdata()) != first:
                raise SystemExit(f"{name}: Pillow does not read back the encoded indices")
        report[name] = {"codeSizes": sizes, "frames": frames, "clears": clears, "deferredClear": deferred}

    # random9.gif
    colors = [(rnd.randrange(256), rnd.randrange(256), rnd.randrange(256)) for _ in range(256)]
    px = [rnd.randrange(256) for _ in range(97 * 61)]
    block, clears, deferred = image((0, 0, 97, 61), px, 9)
    save("random9.gif", gif(97, 61, colors, [block]), [9], 1, [clears], deferred, px)

    # anim10.gif
    glob = [(255, 255, 255), (200, 30, 30), (30, 200, 30), (30, 30, 200), (240, 200, 0), (0, 0, 0)]
    local = [(10 * i, 255 - 10 * i, (37 * i) % 256) for i in range(20)]
    parts, sizes, allclears = [], [], []
    first = [(x // 6 + y // 4) % 5 for y in range(32) for x in range(48)]
    frames = [
        ((0, 0, 48, 32), first, None, 1, 7, None),
        ((8, 4, 20, 12), [5 if (x + y) % 3 == 0 else 1 + (x * y) % 4 for y in range(12) for x in range(20)], None, 2, 13, 5),
        ((20, 10, 24, 18), [(x + 2 * y) % 20 for y in range(18) for x in range(24)], local, 3, 20, 0),
        ((2, 20, 40, 10), [4 if x % 7 else 3 for y in range(10) for x in range(40)], None, 0, 4, None),
    ]
    for rect, px, loc, disposal, delay, transparent in frames:
        block, clears, _ = image(rect, px, 10, local=loc)
        parts += [gce(disposal, delay, transparent), block]
        sizes.append(10)
        allclears.append(clears)
    save("anim10.gif", gif(48, 32, glob, parts, loop=3), sizes, 4, allclears, False, first)

    # interlaced11.gif
    pal = [(0, 0, 0), (255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 0), (0, 255, 255), (255, 0, 255), (255, 255, 255)]
    px = [(y * 3 + (x // 5)) % 8 for y in range(19) for x in range(21)]
    block, clears, deferred = image((0, 0, 21, 19), px, 11, interlaced=True)
    save("interlaced11.gif", gif(21, 19, pal, [block]), [11], 1, [clears], deferred, px)

    # runs9.gif
    pal = [(i, (i * 7) % 256, 255 - i) for i in range(256)]
    px = []
    while len(px) < 160 * 120:
        if rnd.random() < 0.5:
            px += [rnd.randrange(256)] * rnd.randrange(1, 90)
        else:
            px += [rnd.randrange(256) for _ in range(rnd.randrange(1, 40))]
    px = px[:160 * 120]
    block, clears, deferred = image((0, 0, 160, 120), px, 9, clear_when_full=False)
    save("runs9.gif", gif(160, 120, pal, [gce(0, 10), block], loop=0), [9], 1, [clears], deferred, px)

    # mixed8-9.gif
    pal = [(i, 255 - i, (3 * i) % 256) for i in range(256)]
    px = [(x * y) % 256 for y in range(20) for x in range(30)]
    a, ca, _ = image((0, 0, 30, 20), px, 8)
    b, cb, _ = image((5, 5, 20, 10), [(x + 40 * y) % 256 for y in range(10) for x in range(20)], 9)
    save("mixed8-9.gif", gif(30, 20, pal, [gce(1, 30), a, gce(1, 50), b], loop=0), [8, 9], 2, [ca, cb], False, px)

    json.dump(report, sys.stdout)


if __name__ == "__main__":
    main()
