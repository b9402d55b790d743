#!/usr/bin/env python3
"""What an animated WebP shows, read by Pillow, and how it is stored, read
from its RIFF chunks here (never by the code under test).

usage: webp_frames.py FILE [REF ...]
Prints one JSON object:
  width, height, frames, durations (ms, Pillow), loop (Pillow),
  chunks: {"loop": ANIM loop count, "coding": ["VP8L"|"VP8 "...] per ANMF,
           "durations": per ANMF, "rects": [[x, y, w, h], ...]},
  and with reference images (every frame of each, in order, as Pillow
  composites it: an APNG gives all its frames):
  exact (every frame equal to its reference once fully transparent pixels
  are normalised to 0,0,0,0), min_psnr (RGBA, dB; 99 when equal);
  new_colors (per frame: distinct colors among the pixels that differ from
  the frame before; the first frame: all of its colors) and moved_still
  (pixels that changed from one frame to the next where the references
  did not), for palette files.
"""
import json, math, struct, sys
import numpy as np
from PIL import Image, ImageSequence


def norm(a):
    a = a.copy()
    a[a[..., 3] == 0] = 0
    return a


def chunks(data):
    if data[:4] != b"RIFF" or data[8:12] != b"WEBP":
        raise SystemExit("not a WebP")
    out = {"loop": None, "coding": [], "durations": [], "rects": []}
    p = 12
    while p + 8 <= len(data):
        kind, size = data[p:p + 4], struct.unpack("<I", data[p + 4:p + 8])[0]
        body = data[p + 8:p + 8 + size]
        if kind == b"ANIM":
            out["loop"] = struct.unpack("<H", body[4:6])[0]
        elif kind == b"ANMF":
            x, y = 2 * int.from_bytes(body[0:3], "little"), 2 * int.from_bytes(body[3:6], "little")
            w, h = 1 + int.from_bytes(body[6:9], "little"), 1 + int.from_bytes(body[9:12], "little")
            out["rects"].append([x, y, w, h])
            out["durations"].append(int.from_bytes(body[12:15], "little"))
            q = 16
            coding = None
            while q + 8 <= len(body):
                sub, n = body[q:q + 4], struct.unpack("<I", body[q + 4:q + 8])[0]
                if sub in (b"VP8 ", b"VP8L"):
                    coding = sub.decode()
                q += 8 + n + (n & 1)
            out["coding"].append(coding)
        p += 8 + size + (size & 1)
    return out


def main():
    path, refs = sys.argv[1], sys.argv[2:]
    with open(path, "rb") as f:
        data = f.read()
    im = Image.open(path)
    frames, durations = [], []
    for frame in ImageSequence.Iterator(im):
        frames.append(norm(np.asarray(frame.convert("RGBA"), dtype=np.uint8)))
        durations.append(frame.info.get("duration"))
    report = {"width": im.width, "height": im.height, "frames": len(frames), "durations": durations,
              "loop": im.info.get("loop"), "chunks": chunks(data)}
    if refs:
        want = [norm(np.asarray(f.convert("RGBA"), dtype=np.uint8))
                for r in refs for f in ImageSequence.Iterator(Image.open(r))]
        exact, worst = len(want) == len(frames), 99.0
        for a, b in zip(frames, want):
            if a.shape != b.shape:
                exact, worst = False, 0.0
                continue
            mse = float(np.mean((a.astype(np.float64) - b.astype(np.float64)) ** 2))
            if mse > 0:
                exact = False
                worst = min(worst, 10 * math.log10(255 * 255 / mse))
        report["exact"] = exact
        report["min_psnr"] = worst
        new_colors, moved = [], 0
        for k, a in enumerate(frames):
            changed = np.ones(a.shape[:2], bool) if k == 0 else (a != frames[k - 1]).any(axis=2)
            packed = a.reshape(-1, 4).view(np.uint32).reshape(a.shape[:2])
            new_colors.append(int(len(np.unique(packed[changed]))))
            if 0 < k < len(want) and want[k].shape == want[k - 1].shape == a.shape:
                moved += int((changed & ~(want[k] != want[k - 1]).any(axis=2)).sum())
        report["new_colors"] = new_colors
        report["moved_still"] = moved
    print(json.dumps(report))


main()
