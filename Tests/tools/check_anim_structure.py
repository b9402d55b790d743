#!/usr/bin/env python3
"""Independent structure reader for `throbber info` tests.

Reads GIF and APNG files with nothing but `struct` (no image library), and
prints, for each file named on the command line, what the file states:

    {"format": "gif"|"apng", "width", "height", "loop", "frames": [
        {"x", "y", "width", "height", "delay_num", "delay_den",
         "dispose", "blend", "colors", "transparent"}]}

as one JSON object keyed by path (or {"error": "..."} for a file it cannot
read). Conventions follow the man page, not Throbber's code:

* loop: 0 = forever, N = plays N times. GIF: no NETSCAPE2.0 block = 1; a
  repeat count r gives r + 1 plays (r = 0 is forever). APNG: num_plays.
* GIF delays are centiseconds (den 100). APNG delays are delay_num /
  delay_den with a zero denominator read as 100 (the APNG spec).
* dispose: GIF 0-3 = unspecified, none, background, previous; APNG 0-2 =
  none, background, previous. blend: GIF always "over"; APNG 0 = source,
  1 = over.
* colors: GIF: entries of the local table, else of the global table, else
  null. APNG: PLTE entries for color type 3 (indexed), else null.
* transparent: GIF: the graphic control block's index when its flag is
  set, else null. APNG: always null.
"""
import json
import struct
import sys

GIF_DISPOSE = {0: "unspecified", 1: "none", 2: "background", 3: "previous"}
APNG_DISPOSE = {0: "none", 1: "background", 2: "previous"}


class Bad(Exception):
    pass


def read_sub_blocks(b, p):
    blocks = []
    while True:
        if p >= len(b):
            raise Bad("truncated sub-blocks")
        n = b[p]
        p += 1
        if n == 0:
            return blocks, p
        blocks.append(b[p:p + n])
        p += n


def gif(b):
    if len(b) < 13 or b[:3] != b"GIF":
        raise Bad("not a GIF")
    width, height, packed, _bg, _aspect = struct.unpack("<HHBBB", b[6:13])
    p = 13
    global_size = None
    if packed & 0x80:
        global_size = 2 << (packed & 7)
        p += 3 * global_size
    loop = 1
    frames = []
    gce = None   # (disposal, delay, transparent or None) for the next image
    while True:
        if p >= len(b):
            break   # no trailer: the frames read so far
        intro = b[p]
        p += 1
        if intro == 0x3B:
            break
        if intro == 0x21:
            label = b[p]
            p += 1
            blocks, p = read_sub_blocks(b, p)
            if label == 0xF9 and blocks and len(blocks[0]) >= 4:
                pk, delay, tindex = struct.unpack("<BHB", blocks[0][:4])
                gce = ((pk >> 2) & 7, delay, tindex if pk & 1 else None)
            elif label == 0xFF and blocks and blocks[0] == b"NETSCAPE2.0":
                for sub in blocks[1:]:
                    if len(sub) >= 3 and sub[0] == 1:
                        r = struct.unpack("<H", sub[1:3])[0]
                        loop = 0 if r == 0 else r + 1
            continue
        if intro == 0x2C:
            if p + 9 > len(b):
                raise Bad("truncated image descriptor")
            x, y, w, h, ip = struct.unpack("<HHHHB", b[p:p + 9])
            p += 9
            local_size = None
            if ip & 0x80:
                local_size = 2 << (ip & 7)
                p += 3 * local_size
            p += 1   # LZW minimum code size
            _, p = read_sub_blocks(b, p)
            disposal, delay, transparent = gce if gce else (0, 0, None)
            frames.append({
                "x": x, "y": y, "width": w, "height": h,
                "delay_num": delay, "delay_den": 100,
                "dispose": GIF_DISPOSE.get(disposal, "reserved-%d" % disposal),
                "blend": "over",
                "colors": local_size if local_size is not None else global_size,
                "transparent": transparent,
            })
            gce = None
            continue
        if frames:
            break   # garbage after whole frames (a missing trailer): keep them, as viewers do
        raise Bad("unknown block 0x%02x at offset %d" % (intro, p - 1))
    if not frames:
        raise Bad("no frames")
    return {"format": "gif", "width": width, "height": height, "loop": loop, "frames": frames}


def apng(b):
    if b[:8] != b"\x89PNG\r\n\x1a\n":
        raise Bad("not a PNG")
    p = 8
    width = height = color_type = None
    actl = None
    plte = None
    fctls = []
    seen_idat = False
    while p + 8 <= len(b):
        length, ctype = struct.unpack(">I4s", b[p:p + 8])
        data = b[p + 8:p + 8 + length]
        p += 12 + length
        if ctype == b"IHDR":
            width, height, _depth, color_type = struct.unpack(">IIBB", data[:10])
        elif ctype == b"acTL" and not seen_idat and actl is None:
            actl = struct.unpack(">II", data[:8])
        elif ctype == b"PLTE" and not seen_idat:
            plte = length // 3
        elif ctype == b"IDAT":
            seen_idat = True
        elif ctype == b"fcTL":
            (_seq, w, h, x, y, num, den, dispose, blend) = struct.unpack(">IIIIIHHBB", data[:26])
            fctls.append({
                "x": x, "y": y, "width": w, "height": h,
                "delay_num": num, "delay_den": den if den != 0 else 100,
                "dispose": APNG_DISPOSE.get(dispose, "reserved-%d" % dispose),
                "blend": {0: "source", 1: "over"}.get(blend, "reserved-%d" % blend),
                "colors": plte if color_type == 3 else None,
                "transparent": None,
            })
        elif ctype == b"IEND":
            break
    if actl is None or actl[0] == 0:
        raise Bad("not an animated PNG")
    frames = fctls[:actl[0]]
    return {"format": "apng", "width": width, "height": height, "loop": actl[1], "frames": frames}


def read(path):
    with open(path, "rb") as f:
        b = f.read()
    try:
        if b[:3] == b"GIF":
            return gif(b)
        if b[:8] == b"\x89PNG\r\n\x1a\n":
            return apng(b)
        raise Bad("neither GIF nor PNG")
    except (Bad, struct.error, IndexError) as e:
        return {"error": str(e)}


def main():
    json.dump({path: read(path) for path in sys.argv[1:]}, sys.stdout)


main()
