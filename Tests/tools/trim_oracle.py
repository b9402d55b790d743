#!/usr/bin/python3
"""The independent side of `--trim` and layered stills, through Pillow.

  trim_oracle.py dots DIR                 write 6 frames of a moving 12x12 dot on a
                                          transparent 200x200 canvas (dot-1.png …)
  trim_oracle.py gif DIR/in.gif           the same frames as a looping GIF (Pillow; its
                                          own decoder leaves disposed dots on screen)
  trim_oracle.py layered OUT.gif          a 64x64 still of 960 colors as 4 GIF frames
                                          of one 32x32 tile each, delay 0, no loop
                                          extension (plays once); writes OUT.gif.png,
                                          the picture it builds
  trim_oracle.py bbox FILE...             the union of Pillow's getbbox over every
                                          composited frame of every file: of the alpha
                                          channel, or when all four corners of every
                                          frame are one opaque color, of the difference
                                          from it; prints WxH+X+Y
  trim_oracle.py frames FILE              prints JSON: width, height, and per frame
                                          its RGBA bytes as hex (composited by Pillow)
  trim_oracle.py same OUT BOX FILE...     checks that each frame of OUT equals the
                                          BOX (WxH+X+Y) crop of the matching input
                                          frame (fully transparent pixels compare
                                          equal whatever their color); prints the
                                          number of differing pixels per frame as JSON
"""
import json
import sys

import apng_pillow

apng_pillow.use_for(sys.argv[2:])  # an APNG: the pinned Pillow (apng_pillow.py)

from PIL import Image, ImageChops, ImageSequence  # noqa: E402


def frames_of(path):
    """Every frame as a viewer shows it, in RGBA."""
    im = Image.open(path)
    out = []
    for f in ImageSequence.Iterator(im):
        out.append(f.convert("RGBA").copy())
    return out


def dot_frame(i):
    im = Image.new("RGBA", (200, 200), (0, 0, 0, 0))
    x, y = 40 + 15 * i, 60 + 7 * i
    im.paste((220, 40, 30, 255), (x, y, x + 12, y + 12))
    return im


def bbox(paths):
    frames = [f for p in paths for f in frames_of(p)]
    w, h = frames[0].size
    corners = [f.getpixel(c) for f in frames for c in [(0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1)]]
    union = None
    for f in frames:
        if all(c == corners[0] for c in corners) and corners[0][3] != 0:
            box = ImageChops.difference(f, Image.new("RGBA", f.size, corners[0])).convert("RGB").getbbox()
        else:
            box = f.getchannel("A").getbbox()
        if box is None:
            continue
        union = box if union is None else (
            min(union[0], box[0]), min(union[1], box[1]), max(union[2], box[2]), max(union[3], box[3]))
    if union is None:
        return "1x1+0+0"
    return "%dx%d+%d+%d" % (union[2] - union[0], union[3] - union[1], union[0], union[1])


def parse_box(text):
    size, x, y = text.split("+")
    w, h = size.split("x")
    return int(w), int(h), int(x), int(y)


def same(out, box, inputs):
    w, h, x, y = parse_box(box)
    got = frames_of(out)
    want = [f for p in inputs for f in frames_of(p)]
    counts = []
    for g, f in zip(got, want):
        c = f.crop((x, y, x + w, y + h))
        if g.size != c.size:
            counts.append(-1)
            continue
        n = 0
        for a, b in zip(g.getdata(), c.getdata()):
            if a != b and not (a[3] == 0 and b[3] == 0):
                n += 1
        counts.append(n)
    return {"frames": len(got), "inputs": len(want), "size": list(got[0].size), "differing": counts}


def layered(out):
    # 240 colors a tile, none shared between tiles: 960 in all, each frame
    # within its own palette (index 0 transparent).
    def color(t, k):
        return (t * 60 + k % 60, 40 + (k // 60) * 50, 200 - t * 40)

    full = Image.new("RGB", (64, 64))
    frames = []
    for t in range(4):
        ox, oy = (t % 2) * 32, (t // 2) * 32
        layer = Image.new("P", (64, 64), 0)
        palette = [0, 0, 0] + [c for k in range(240) for c in color(t, k)]
        layer.putpalette(palette + [0] * (768 - len(palette)))
        for j in range(32):
            for i in range(32):
                k = (j * 32 + i) % 240
                layer.putpixel((ox + i, oy + j), k + 1)
                full.putpixel((ox + i, oy + j), color(t, k))
        frames.append(layer)
    full.save(out + ".png")
    # No loop= means no NETSCAPE extension: the GIF plays once.
    frames[0].save(out, save_all=True, append_images=frames[1:], duration=0, disposal=1, transparency=0,
                   optimize=False)


def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "dots":
        for i in range(6):
            dot_frame(i).save("%s/dot-%d.png" % (args[0], i + 1))
    elif cmd == "gif":
        fs = [dot_frame(i) for i in range(6)]
        fs[0].save(args[0], save_all=True, append_images=fs[1:], duration=100, loop=0, disposal=2)
    elif cmd == "layered":
        layered(args[0])
    elif cmd == "bbox":
        print(bbox(args))
    elif cmd == "same":
        print(json.dumps(same(args[0], args[1], args[2:])))
    else:
        sys.exit("unknown command " + cmd)


if __name__ == "__main__":
    main()
