#!/usr/bin/python3
"""Counts the LZW codes of every image in a GIF, with struct only.

Usage: gif_lzw_codes.py FILE.gif

Walks the GIF block structure (header, color tables, extensions, images)
and, for each image, reads its LZW data sub-blocks and decodes the codes
with the GIF rules (codes LSB first; width starts at minimum code size + 1
and grows when the next free code reaches 2^width, up to 12 bits; a clear
code resets the table). Prints one JSON object: {"images": [{"codes": N,
"bytes": B, "pixels": P, "clears": C, "full_codes": F, "blocks": [K, ...]},
...]} where N
counts every code read up to and including the end code, B the LZW image
data bytes (code size byte, sub-block length bytes, data, terminator), P
the decoded pixel count, C the clear codes, F the codes read while the
table was full (a deferred clear), and each K the codes read after a clear
before the next clear or the end code (those two not counted).
"""
import json
import struct
import sys


def read_subblocks(data, pos):
    out = bytearray()
    raw = 0
    while True:
        n = data[pos]
        pos += 1
        raw += 1
        if n == 0:
            return bytes(out), pos, raw
        out += data[pos:pos + n]
        pos += n
        raw += n


def decode(min_size, payload):
    clear = 1 << min_size
    end = clear + 1
    width = min_size + 1
    next_code = end + 1
    lengths = {}  # code -> string length (enough to count pixels)
    prev = None
    codes = 0
    pixels = 0
    clears = 0
    full_codes = 0
    blocks = []
    bitpos = 0
    total_bits = len(payload) * 8
    while bitpos + width <= total_bits:
        code = 0
        for b in range(width):
            bit = (payload[(bitpos + b) >> 3] >> ((bitpos + b) & 7)) & 1
            code |= bit << b
        bitpos += width
        codes += 1
        if code == clear:
            clears += 1
            blocks.append(0)
            width = min_size + 1
            next_code = end + 1
            lengths = {}
            prev = None
            continue
        if code == end:
            break
        if blocks:
            blocks[-1] += 1
        if code < clear:
            length = 1
        elif code in lengths:
            length = lengths[code]
        elif code == next_code and prev is not None:
            length = (lengths[prev] if prev >= clear else 1) + 1
        else:
            raise SystemExit(f"bad code {code} (next {next_code})")
        pixels += length
        if next_code == 4096:
            full_codes += 1
        if prev is not None and next_code < 4096:
            lengths[next_code] = (lengths[prev] if prev >= clear else 1) + 1
            next_code += 1
        if next_code == (1 << width) and width < 12:
            width += 1
        prev = code
    return codes, pixels, clears, full_codes, blocks


def main():
    data = open(sys.argv[1], "rb").read()
    if data[:3] != b"GIF":
        raise SystemExit("not a GIF")
    flags = data[10]
    pos = 13
    if flags & 0x80:
        pos += 3 * (2 << (flags & 7))
    images = []
    while pos < len(data):
        kind = data[pos]
        pos += 1
        if kind == 0x3B:
            break
        if kind == 0x21:
            pos += 1
            _, pos, _ = read_subblocks(data, pos)
        elif kind == 0x2C:
            _, _, w, h, f = struct.unpack("<HHHHB", data[pos:pos + 9])
            pos += 9
            if f & 0x80:
                pos += 3 * (2 << (f & 7))
            min_size = data[pos]
            payload, pos, raw = read_subblocks(data, pos + 1)
            codes, pixels, clears, full_codes, blocks = decode(min_size, payload)
            images.append({"codes": codes, "bytes": raw + 1, "pixels": pixels, "area": w * h,
                           "clears": clears, "full_codes": full_codes, "blocks": blocks})
        else:
            raise SystemExit(f"unknown block 0x{kind:02x}")
    print(json.dumps({"images": images}))


if __name__ == "__main__":
    main()
