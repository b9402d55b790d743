#!/usr/bin/python3
"""An independent renderer for Lottie files: python-lottie (PyPI `lottie`,
which writes SVG and rasterizes it with cairosvg), compared with an
animation on coverage: the set of pixels with alpha >= 128.

usage: lottie_coverage.py ANIM LOTTIE FRAMES
  ANIM is a GIF or APNG (decoded with Pillow) whose frame i should show the
  Lottie file's frame i (counted from its ip), at the file's w x h. FRAMES
  is JSON [i, ...]. python-lottie and cairosvg are imported from
  .build/pylib (where scripts/install-deps puts them) or the system.
Prints JSON {"available": false, "why"} when they cannot be imported, else
{"available": true, "width", "height", "entries": [{"frame", "ours" (pixels
covered in ANIM), "theirs" (covered in python-lottie's frame), "xor"
(covered in one only), "near" (of those, pixels within 1 pixel of a pixel
covered in the other: edge disagreements)}]}.
"""
import io, json, os, sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", ".build", "pylib"))
import numpy as np
from PIL import Image, ImageSequence


def dilate(m):
    out = m.copy()
    out[1:, :] |= m[:-1, :]
    out[:-1, :] |= m[1:, :]
    out[:, 1:] |= m[:, :-1]
    out[:, :-1] |= m[:, 1:]
    return out


def main():
    anim_path, lottie_path, frames = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
    try:
        from lottie.parsers.tgs import parse_tgs
        from lottie.exporters.cairo import export_png, has_cairo
        if not has_cairo:
            raise ImportError("cairosvg cannot load libcairo")
    except (ImportError, OSError) as e:
        json.dump({"available": False, "why": str(e)}, sys.stdout)
        return
    animation = parse_tgs(lottie_path)
    ours = [f.convert("RGBA") for f in ImageSequence.Iterator(Image.open(anim_path))]
    entries = []
    for i in frames:
        buf = io.BytesIO()
        export_png(animation, buf, animation.in_point + i)
        theirs = Image.open(io.BytesIO(buf.getvalue())).convert("RGBA")
        a = np.asarray(ours[i])[:, :, 3] >= 128
        b = np.asarray(theirs)[:, :, 3] >= 128
        if a.shape != b.shape:
            sys.exit("lottie_coverage.py: python-lottie drew %s, the animation is %s" % (theirs.size, ours[i].size))
        x = a ^ b
        near = x & ((a & dilate(b)) | (b & dilate(a)))
        entries.append({"frame": i, "ours": int(a.sum()), "theirs": int(b.sum()), "xor": int(x.sum()),
                        "near": int(near.sum())})
    json.dump({"available": True, "width": ours[0].width, "height": ours[0].height, "entries": entries},
              sys.stdout)


main()
