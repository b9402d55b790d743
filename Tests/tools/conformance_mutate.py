#!/usr/bin/env python3
"""Damages a GIF, APNG or PNG frame in one known way, so tests can show
that conformance.py notices (a checker that cannot fail proves nothing).

usage:
  conformance_mutate.py apng-delay FILE FRAME NUM DEN   # fcTL delay of FRAME (CRC fixed)
  conformance_mutate.py apng-sequence FILE              # the last fdAT's sequence number +1 (CRC fixed)
  conformance_mutate.py gif-delay FILE FRAME CS         # Graphic Control Extension delay of FRAME
  conformance_mutate.py webp-delay FILE FRAME MS        # ANMF duration of FRAME (animated WebP)
  conformance_mutate.py pixel FILE X Y R G B A          # one pixel of a still image (Pillow)
  conformance_mutate.py text-after-ihdr FILE BYTES      # a tEXt chunk of BYTES bytes right after IHDR
"""
import struct, sys, zlib
from PIL import Image


def chunks(data):
    pos = 8
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        yield pos, length, kind
        pos += 12 + length


def rewrite(data, pos, length, body):
    kind = data[pos + 4:pos + 8]
    assert len(body) == length
    crc = struct.pack(">I", zlib.crc32(kind + body))
    return data[:pos + 8] + body + crc + data[pos + 12 + length:]


def apng_delay(path, frame, num, den):
    data = bytearray(open(path, "rb").read())
    fctl = [(p, n) for p, n, k in chunks(data) if k == b"fcTL"]
    pos, length = fctl[frame]
    body = bytearray(data[pos + 8:pos + 8 + length])
    body[20:24] = struct.pack(">HH", num, den)
    open(path, "wb").write(rewrite(bytes(data), pos, length, bytes(body)))


def apng_sequence(path):
    data = bytes(open(path, "rb").read())
    pos, length = [(p, n) for p, n, k in chunks(data) if k == b"fdAT"][-1]
    body = bytearray(data[pos + 8:pos + 8 + length])
    body[0:4] = struct.pack(">I", struct.unpack(">I", body[0:4])[0] + 1)
    open(path, "wb").write(rewrite(data, pos, length, bytes(body)))


def gif_delay(path, frame, cs):
    """Walks the GIF blocks and sets the delay of the FRAME-th GCE."""
    data = bytearray(open(path, "rb").read())
    flags = data[10]
    pos = 13 + (3 * (1 << ((flags & 7) + 1)) if flags & 0x80 else 0)
    seen = 0
    while pos < len(data):
        b = data[pos]
        if b == 0x21:
            label = data[pos + 1]
            if label == 0xF9:
                if seen == frame:
                    data[pos + 4:pos + 6] = struct.pack("<H", cs)
                    open(path, "wb").write(data)
                    return
                seen += 1
            pos += 2
            while data[pos]:
                pos += data[pos] + 1
            pos += 1
        elif b == 0x2C:
            f = data[pos + 9]
            pos += 10 + (3 * (1 << ((f & 7) + 1)) if f & 0x80 else 0)
            pos += 1  # LZW minimum code size
            while data[pos]:
                pos += data[pos] + 1
            pos += 1
        elif b == 0x3B:
            break
        else:
            raise SystemExit(f"unexpected GIF block 0x{b:02x} at {pos}")
    raise SystemExit(f"no Graphic Control Extension for frame {frame}")


def webp_delay(path, frame, ms):
    """Sets the duration (24-bit LE, 12 bytes into the payload) of the
    FRAME-th ANMF chunk; WebP has no checksum to fix."""
    data = bytearray(open(path, "rb").read())
    assert data[:4] == b"RIFF" and data[8:12] == b"WEBP", "not a WebP"
    pos, seen = 12, 0
    while pos + 8 <= len(data):
        kind, size = bytes(data[pos:pos + 4]), struct.unpack("<I", data[pos + 4:pos + 8])[0]
        if kind == b"ANMF":
            if seen == frame:
                data[pos + 20:pos + 23] = struct.pack("<I", ms)[:3]
                open(path, "wb").write(data)
                return
            seen += 1
        pos += 8 + size + (size & 1)
    raise SystemExit(f"no ANMF chunk for frame {frame}")


def text_after_ihdr(path, size):
    """Inserts a tEXt chunk ("Comment", then 'a' * size) after IHDR, so
    every other chunk (acTL included) comes that many bytes later."""
    data = bytes(open(path, "rb").read())
    pos, length, kind = next(chunks(data))
    assert kind == b"IHDR", kind
    body = b"Comment\0" + b"a" * size
    text = struct.pack(">I", len(body)) + b"tEXt" + body + struct.pack(">I", zlib.crc32(b"tEXt" + body))
    end = pos + 12 + length
    open(path, "wb").write(data[:end] + text + data[end:])


def pixel(path, x, y, rgba):
    im = Image.open(path).convert("RGBA")
    im.putpixel((x, y), tuple(rgba))
    im.save(path)


cmd, args = sys.argv[1], sys.argv[2:]
if cmd == "apng-delay":
    apng_delay(args[0], int(args[1]), int(args[2]), int(args[3]))
elif cmd == "apng-sequence":
    apng_sequence(args[0])
elif cmd == "gif-delay":
    gif_delay(args[0], int(args[1]), int(args[2]))
elif cmd == "webp-delay":
    webp_delay(args[0], int(args[1]), int(args[2]))
elif cmd == "text-after-ihdr":
    text_after_ihdr(args[0], int(args[1]))
elif cmd == "pixel":
    pixel(args[0], int(args[1]), int(args[2]), [int(v) for v in args[3:7]])
else:
    raise SystemExit(f"unknown command {cmd}")
