#!/usr/bin/python3
"""Writes small files that claim huge decoded sizes, for Throbber's
decompression-bomb tests (struct + zlib only).

Usage: apng_make_bombs.py KIND OUT [SIDE]

KIND:
  apng-canvas   IHDR SIDExSIDE RGBA (default 65535), acTL 1 frame, a few
                bytes of IDAT.
  apng-frames   IHDR 4096x4096 RGBA, acTL 60 frames: frame 0 is the whole
                canvas (zeros, deflated to ~65 KB), frames 1..59 are 1x1.
                Composited, that is 60 x 64 MiB = 3.75 GiB.
  gif-frames    GIF 4096x4096, 60 frames of 1x1 pixel (about 1.4 KB);
                composited, 60 x 64 MiB.
"""
import struct
import sys
import zlib


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def fctl(seq, w, h):
    return chunk(b"fcTL", struct.pack(">IIIIIHHBB", seq, w, h, 0, 0, 1, 10, 0, 0))


def main():
    kind, out = sys.argv[1], sys.argv[2]
    sig = b"\x89PNG\r\n\x1a\n"
    if kind == "apng-canvas":
        side = int(sys.argv[3]) if len(sys.argv) > 3 else 65535
        data = sig + chunk(b"IHDR", struct.pack(">IIBBBBB", side, side, 8, 6, 0, 0, 0))
        data += chunk(b"acTL", struct.pack(">II", 1, 0)) + fctl(0, side, side)
        data += chunk(b"IDAT", zlib.compress(b"\0" * 1000)) + chunk(b"IEND", b"")
    elif kind == "apng-frames":
        side, frames = 4096, 60
        data = sig + chunk(b"IHDR", struct.pack(">IIBBBBB", side, side, 8, 6, 0, 0, 0))
        data += chunk(b"acTL", struct.pack(">II", frames, 0)) + fctl(0, side, side)
        data += chunk(b"IDAT", zlib.compress(b"\0" * ((side * 4 + 1) * side), 9))
        seq = 1
        for _ in range(1, frames):
            data += fctl(seq, 1, 1)
            data += chunk(b"fdAT", struct.pack(">I", seq + 1) + zlib.compress(b"\0" * 5))
            seq += 2
        data += chunk(b"IEND", b"")
    elif kind == "gif-frames":
        side, frames = 4096, 60
        data = b"GIF89a" + struct.pack("<HHBBB", side, side, 0x80, 0, 0) + bytes([0, 0, 0, 255, 255, 255])
        for i in range(frames):
            data += b"\x21\xf9\x04\x00\x0a\x00\x00\x00"
            data += b"," + struct.pack("<HHHHB", i % 16, 0, 1, 1, 0) + bytes([2, 2, 0x44, 0x01, 0])
        data += b";"
    else:
        raise SystemExit("unknown kind " + kind)
    with open(out, "wb") as f:
        f.write(data)


main()
