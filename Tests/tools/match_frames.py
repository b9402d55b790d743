#!/usr/bin/env python3
"""Compares the frames of a GIF (composited by Pillow, as a viewer shows
them) with reference images, for tests of lossy output.

usage: match_frames.py GIF REF... [--same-index] [--refs]
Prints JSON: {"frames": [{"duration": ms, "psnr": [dB per ref]}],
              "refs": [[dB ref i vs ref j]]  (only with --refs)}
PSNR is over RGB after compositing onto magenta, counting only pixels whose
reference alpha is clearly opaque (>= 250) or clearly transparent (<= 5), so
the encoder's choice for half-transparent edges does not blur the match.
99.0 means identical. --same-index compares GIF frame i with REF i only
(the list then has one value)."""
import json, math, sys

import apng_pillow

apng_pillow.use_for(sys.argv[1:])  # an APNG: the pinned Pillow (apng_pillow.py)
from PIL import Image, ImageChops, ImageSequence, ImageStat

BACKGROUND = (255, 0, 255, 255)

def prepare(im):
    im = im.convert("RGBA")
    flat = Image.alpha_composite(Image.new("RGBA", im.size, BACKGROUND), im).convert("RGB")
    mask = im.getchannel("A").point(lambda v: 255 if v <= 5 or v >= 250 else 0)
    return flat, mask

def psnr(frame, ref):
    if frame[0].size != ref[0].size:
        return 0.0
    stat = ImageStat.Stat(ImageChops.difference(frame[0], ref[0]), ref[1])
    count = stat.count[0]
    if count == 0:
        return 0.0
    mse = sum(stat.sum2) / (3 * count)
    return 99.0 if mse == 0 else min(99.0, 10 * math.log10(255 * 255 / mse))

def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    same_index = "--same-index" in sys.argv
    gif, refs = args[0], [prepare(Image.open(p)) for p in args[1:]]
    frames = []
    for i, frame in enumerate(ImageSequence.Iterator(Image.open(gif))):
        f = prepare(frame)
        scores = ([psnr(f, refs[i]) if i < len(refs) else 0.0]) if same_index else [psnr(f, r) for r in refs]
        frames.append({"duration": frame.info.get("duration"), "psnr": scores})
    out = {"frames": frames}
    if "--refs" in sys.argv:
        out["refs"] = [[psnr(a, b) for b in refs] for a in refs]
    json.dump(out, sys.stdout)

main()
