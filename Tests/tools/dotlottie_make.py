#!/usr/bin/env python3
"""Writes dotLottie (.lottie) archives with Python's own zipfile, for the
tests of `throbber encode X.lottie`.

  dotlottie_make.py pack OUT.lottie {deflate|stored} NAME=SOURCE ...
      one zip entry per NAME; SOURCE is a file path, or text:... for literal
      text. Entries are written in the order given.
  dotlottie_make.py image DIR
      writes DIR/pic.png (40x30: a translucent blue half, an opaque red
      half), DIR/image.lottie (an animation whose image asset names
      /images/pic.png, and that file) and DIR/embedded.json (the same
      animation with the image put in as a data: URI by this script).
  dotlottie_make.py damage IN OUT {crc|encrypted|truncate}
      copies IN with one known fault: the first entry's data changed by one
      byte (its CRC no longer matches), the first entry flagged encrypted in
      the central directory, or the last 30 bytes cut off.
"""
import base64
import io
import json
import struct
import sys
import zipfile
from pathlib import Path

from PIL import Image


def pack(out, method, specs):
    kind = {"deflate": zipfile.ZIP_DEFLATED, "stored": zipfile.ZIP_STORED}[method]
    with zipfile.ZipFile(out, "w", kind) as z:
        for spec in specs:
            name, source = spec.split("=", 1)
            data = source[5:].encode() if source.startswith("text:") else Path(source).read_bytes()
            z.writestr(name, data)


def animation(asset):
    transform = {"o": {"a": 0, "k": 100}, "r": {"a": 0, "k": 0}, "p": {"a": 0, "k": [32, 24, 0]},
                 "a": {"a": 0, "k": [20, 15, 0]}, "s": {"a": 0, "k": [100, 100, 100]}}
    return {"v": "5.5.2", "fr": 10, "ip": 0, "op": 5, "w": 64, "h": 48, "assets": [asset],
            "layers": [{"ddd": 0, "ind": 1, "ty": 2, "refId": "img_0", "ks": transform,
                        "ip": 0, "op": 5, "st": 0}]}


def image(folder):
    folder = Path(folder)
    im = Image.new("RGBA", (40, 30), (255, 0, 0, 255))
    im.paste((0, 0, 255, 200), (0, 0, 20, 30))
    buf = io.BytesIO()
    im.save(buf, "PNG")
    png = buf.getvalue()
    (folder / "pic.png").write_bytes(png)
    named = {"id": "img_0", "w": 40, "h": 30, "u": "/images/", "p": "pic.png", "e": 0}
    inline = {"id": "img_0", "w": 40, "h": 30, "u": "",
              "p": "data:image/png;base64," + base64.b64encode(png).decode(), "e": 1}
    with zipfile.ZipFile(folder / "image.lottie", "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("manifest.json", json.dumps({"version": "1", "animations": [{"id": "pic"}]}))
        z.writestr("animations/pic.json", json.dumps(animation(named)))
        z.writestr("images/pic.png", png)
    (folder / "embedded.json").write_text(json.dumps(animation(inline)))


def damage(src, out, how):
    b = bytearray(Path(src).read_bytes())
    if how == "crc":
        name_len, extra_len = struct.unpack_from("<HH", b, 26)
        b[30 + name_len + extra_len] ^= 0x01
    elif how == "encrypted":
        cd = b.rfind(b"PK\x01\x02")
        while b.rfind(b"PK\x01\x02", 0, cd) >= 0:
            cd = b.rfind(b"PK\x01\x02", 0, cd)
        b[cd + 8] |= 0x01
    elif how == "truncate":
        b = b[:-30]
    Path(out).write_bytes(bytes(b))


def main():
    cmd = sys.argv[1]
    if cmd == "pack":
        pack(sys.argv[2], sys.argv[3], sys.argv[4:])
    elif cmd == "image":
        image(sys.argv[2])
    elif cmd == "damage":
        damage(sys.argv[2], sys.argv[3], sys.argv[4])
    else:
        sys.exit(f"dotlottie_make.py: unknown command {cmd}")


if __name__ == "__main__":
    main()
