#!/usr/bin/env python3
"""Independent decoder for tests: composites every frame of a GIF with
Pillow, as a viewer shows it, and prints JSON with the frame count, loop,
per-frame durations (ms) and, per frame, the SHA-256 of its RGBA bytes
(transparent pixels normalised to 0,0,0,0). With --dump DIR, also writes
each composited frame as raw RGBA (frame_NNNN.rgba)."""
import hashlib, json, sys, os

import apng_pillow

apng_pillow.use_for(sys.argv[1:])  # an APNG: the pinned Pillow (apng_pillow.py)
from PIL import Image, ImageSequence

def main():
    path = sys.argv[1]
    dump = sys.argv[sys.argv.index("--dump") + 1] if "--dump" in sys.argv else None
    im = Image.open(path)
    out = {"width": im.width, "height": im.height, "frames": [], "loop": im.info.get("loop")}
    for i, frame in enumerate(ImageSequence.Iterator(im)):
        rgba = bytearray(frame.convert("RGBA").tobytes())
        for p in range(0, len(rgba), 4):
            if rgba[p + 3] == 0:
                rgba[p:p + 3] = b"\0\0\0"
        out["frames"].append({"duration": frame.info.get("duration"),
                              "sha256": hashlib.sha256(rgba).hexdigest()})
        if dump:
            with open(os.path.join(dump, "frame_%04d.rgba" % i), "wb") as f:
                f.write(rgba)
    json.dump(out, sys.stdout)

main()
