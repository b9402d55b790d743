#!/usr/bin/python3
"""Independent structural check of an APNG, for Throbber's APNG tests.

Usage: apng_chunks.py FILE

Parses the file with struct + zlib only (no image library) and prints one
JSON object:

  signature_ok, chunks [{type, length, crc_ok}], ihdr {...}, actl {...},
  fctl [{seq, width, height, x, y, delay_num, delay_den, dispose, blend}],
  fdat [{seq, length}], plte_entries, trns (list of alpha bytes or null),
  sequence (every sequence number in file order), frames (per frame: the
  inflated size, the expected size, the filter bytes used), trailing_bytes,
  problems (list of strings; empty when the file follows the APNG spec as
  far as checked here).

Checked against the APNG 1.0 specification and PNG (ISO 15948):
  - 8-byte signature; every chunk's CRC-32 over type + data;
  - IHDR first (13 bytes), IEND last with nothing after it;
  - acTL before the first IDAT, exactly one; num_frames == number of fcTL;
  - the first fcTL comes before IDAT (so the default image is the first
    frame), covers the whole canvas at 0,0;
  - one sequence-number run 0, 1, 2 ... over fcTL and fdAT together;
  - every frame region lies inside the canvas, width and height > 0;
  - dispose_op <= 2, blend_op <= 1;
  - each frame has data (IDAT for frame 0, fdAT for the others) in
    consecutive chunks, and its zlib stream inflates to exactly
    height * (1 + row bytes) with filter bytes 0..4;
  - PLTE present for color type 3 (1..256 entries) and only before IDAT;
    tRNS no longer than the palette.
"""
import json
import struct
import sys
import zlib

SIGNATURE = b"\x89PNG\r\n\x1a\n"
CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}


def row_bytes(width, depth, color):
    return (width * CHANNELS[color] * depth + 7) // 8


def main():
    data = open(sys.argv[1], "rb").read()
    out = {"signature_ok": data[:8] == SIGNATURE, "chunks": [], "ihdr": None, "actl": None,
           "fctl": [], "fdat": [], "plte_entries": None, "trns": None, "sequence": [],
           "frames": [], "trailing_bytes": 0, "problems": []}
    problems = out["problems"]
    if not out["signature_ok"]:
        problems.append("bad signature")
    p = 8
    chunks = []
    while p < len(data):
        if p + 12 > len(data):
            problems.append("truncated chunk header at byte %d" % p)
            break
        (length,) = struct.unpack(">I", data[p:p + 4])
        kind = data[p + 4:p + 8]
        if p + 12 + length > len(data):
            problems.append("chunk %r at byte %d runs past the end" % (kind, p))
            break
        body = data[p + 8:p + 8 + length]
        (crc,) = struct.unpack(">I", data[p + 8 + length:p + 12 + length])
        crc_ok = (zlib.crc32(kind + body) & 0xFFFFFFFF) == crc
        name = kind.decode("latin-1")
        out["chunks"].append({"type": name, "length": length, "crc_ok": crc_ok})
        if not crc_ok:
            problems.append("bad CRC on chunk %d (%s)" % (len(chunks), name))
        chunks.append((name, body))
        p += 12 + length
        if kind == b"IEND":
            break
    out["trailing_bytes"] = len(data) - p
    if out["trailing_bytes"]:
        problems.append("%d bytes after IEND" % out["trailing_bytes"])
    types = [c[0] for c in chunks]
    if not types or types[0] != "IHDR":
        problems.append("IHDR is not the first chunk")
        print(json.dumps(out))
        return
    if types[-1] != "IEND":
        problems.append("IEND is not the last chunk")
    if types.count("IHDR") != 1 or types.count("IEND") != 1:
        problems.append("IHDR or IEND repeated")

    ihdr = chunks[0][1]
    if len(ihdr) != 13:
        problems.append("IHDR has length %d" % len(ihdr))
    width, height, depth, color, comp, filt, interlace = struct.unpack(">IIBBBBB", ihdr[:13])
    out["ihdr"] = {"width": width, "height": height, "depth": depth, "color": color,
                   "compression": comp, "filter": filt, "interlace": interlace}
    if color not in CHANNELS:
        problems.append("bad color type %d" % color)
        print(json.dumps(out))
        return

    first_idat = types.index("IDAT") if "IDAT" in types else None
    if first_idat is None:
        problems.append("no IDAT")
    idat_positions = [i for i, t in enumerate(types) if t == "IDAT"]
    if idat_positions and idat_positions != list(range(idat_positions[0], idat_positions[-1] + 1)):
        problems.append("IDAT chunks are not consecutive")

    actl_positions = [i for i, t in enumerate(types) if t == "acTL"]
    if len(actl_positions) != 1:
        problems.append("%d acTL chunks" % len(actl_positions))
    elif first_idat is not None and actl_positions[0] > first_idat:
        problems.append("acTL after IDAT")
    if actl_positions:
        body = chunks[actl_positions[0]][1]
        if len(body) != 8:
            problems.append("acTL has length %d" % len(body))
        else:
            num_frames, num_plays = struct.unpack(">II", body)
            out["actl"] = {"num_frames": num_frames, "num_plays": num_plays}

    for i, (t, body) in enumerate(chunks):
        if t == "PLTE":
            if first_idat is not None and i > first_idat:
                problems.append("PLTE after IDAT")
            if len(body) % 3 or not 1 <= len(body) // 3 <= 256:
                problems.append("PLTE has length %d" % len(body))
            out["plte_entries"] = len(body) // 3
        elif t == "tRNS":
            if first_idat is not None and i > first_idat:
                problems.append("tRNS after IDAT")
            out["trns"] = list(body)
    if color == 3 and out["plte_entries"] is None:
        problems.append("palette image without PLTE")
    if color == 3 and out["trns"] is not None and out["plte_entries"] is not None \
            and len(out["trns"]) > out["plte_entries"]:
        problems.append("tRNS longer than PLTE")
    if color in (4, 6) and out["trns"] is not None:
        problems.append("tRNS with an alpha channel")

    # Frames: each fcTL and the data chunks after it.
    frames = []   # [fctl dict, [data bytes], [chunk types]]
    for i, (t, body) in enumerate(chunks):
        if t == "fcTL":
            if len(body) != 26:
                problems.append("fcTL %d has length %d" % (len(frames), len(body)))
                continue
            f = dict(zip(["seq", "width", "height", "x", "y", "delay_num", "delay_den", "dispose", "blend"],
                         struct.unpack(">IIIIIHHBB", body)))
            out["fctl"].append(f)
            out["sequence"].append(f["seq"])
            frames.append([f, [], [], i])
        elif t == "fdAT":
            if len(body) < 4:
                problems.append("fdAT shorter than 4 bytes")
                continue
            (seq,) = struct.unpack(">I", body[:4])
            out["fdat"].append({"seq": seq, "length": len(body) - 4})
            out["sequence"].append(seq)
            if not frames:
                problems.append("fdAT before any fcTL")
                continue
            frames[-1][1].append(body[4:])
            frames[-1][2].append((i, "fdAT"))
        elif t == "IDAT":
            if frames and len(frames) == 1:
                frames[0][1].append(body)
                frames[0][2].append((i, "IDAT"))
    if out["sequence"] != list(range(len(out["sequence"]))):
        problems.append("sequence numbers are not one run from 0: %s" % out["sequence"][:20])
    if out["actl"] and out["actl"]["num_frames"] != len(out["fctl"]):
        problems.append("acTL num_frames %d but %d fcTL" % (out["actl"]["num_frames"], len(out["fctl"])))
    if frames and first_idat is not None and frames[0][3] > first_idat:
        problems.append("first fcTL after IDAT: the default image is not the first frame")

    for n, (f, parts, where, _) in enumerate(frames):
        kinds = set(k for _, k in where)
        want = {"IDAT"} if n == 0 else {"fdAT"}
        if kinds != want:
            problems.append("frame %d data is in %s, expected %s" % (n, sorted(kinds), sorted(want)))
        idx = [i for i, _ in where]
        if idx and idx != list(range(idx[0], idx[-1] + 1)):
            problems.append("frame %d data chunks are not consecutive" % n)
        if f["width"] == 0 or f["height"] == 0 or f["x"] + f["width"] > width or f["y"] + f["height"] > height:
            problems.append("frame %d region %dx%d+%d+%d outside %dx%d" % (
                n, f["width"], f["height"], f["x"], f["y"], width, height))
        if n == 0 and (f["x"], f["y"], f["width"], f["height"]) != (0, 0, width, height):
            problems.append("frame 0 does not cover the canvas")
        if f["dispose"] > 2 or f["blend"] > 1:
            problems.append("frame %d dispose %d blend %d" % (n, f["dispose"], f["blend"]))
        info = {"inflated": None, "expected": None, "filters": []}
        if interlace == 0:
            info["expected"] = f["height"] * (1 + row_bytes(f["width"], depth, color))
        try:
            d = zlib.decompressobj()
            raw = d.decompress(b"".join(parts))
            if not d.eof:
                problems.append("frame %d zlib stream does not end" % n)
            if d.unused_data:
                problems.append("frame %d has %d bytes after its zlib stream" % (n, len(d.unused_data)))
            info["inflated"] = len(raw)
            if interlace == 0:
                stride = 1 + row_bytes(f["width"], depth, color)
                info["filters"] = sorted(set(raw[r * stride] for r in range(min(f["height"], len(raw) // stride))))
                if len(raw) != info["expected"]:
                    problems.append("frame %d inflates to %d bytes, expected %d" % (n, len(raw), info["expected"]))
                if any(x > 4 for x in info["filters"]):
                    problems.append("frame %d uses filter types %s" % (n, info["filters"]))
        except zlib.error as e:
            problems.append("frame %d zlib error: %s" % (n, e))
        out["frames"].append(info)
    print(json.dumps(out))


main()
