#!/usr/bin/env python3
"""An animated-WebP decoder of our own, for conformance.py: the container
is parsed and composited here, only each frame's still bitstream is left to
a still decoder, so the result does not depend on libwebp's animation code
(WebPDemux / WebPAnimDecoder, which Pillow and Chromium both build on).

usage: webp_compose.py FILE.webp [--decoder dwebp|ffmpeg] [--out DIR]
Prints a JSON summary (canvas, loop count, each frame's rectangle, blend,
dispose, duration and the SHA-256 of the composited RGBA canvas); --out
also writes the canvases as DIR/0000.png, … (Pillow).

Why it exists: ffmpeg 5.1 (Debian 12) cannot decode an animated WebP (its
webp decoder stops at ANIM/ANMF: "skipping unsupported chunk: ANIM",
"image data not found"), and dwebp decodes still images only. Both decode
a single frame's bitstream, so each ANMF payload is made into a still WebP
file here and handed to one of them:
- "dwebp": `dwebp -pam` (libwebp's still decoder, RGBA, fancy upsampling
  for lossy frames);
- "ffmpeg": `ffmpeg -i still.webp -f rawvideo -pix_fmt rgba` (FFmpeg's own
  VP8/VP8L decoder; lossy frames go through swscale's YUV conversion).

Container (https://developers.google.com/speed/webp/docs/riff_container):
RIFF size, 'WEBP', VP8X (flags; canvas width-1 and height-1, 24-bit LE),
ANIM (background BGRA, loop count 16-bit), then one ANMF per frame: X/2,
Y/2, width-1, height-1, duration in ms (24-bit LE each) and a flags byte
(bit 1: 1 = do not blend, 0 = alpha-blend OVER; bit 0: 1 = dispose to
background after display), followed by the frame's chunks: ALPH + 'VP8 '
(lossy, lossless alpha) or VP8L (lossless). A still file (one VP8/VP8L
chunk, or VP8X without the animation flag) is one frame with no duration.

Compositing, as the spec says: the canvas starts transparent black (the
ANIM background color is a hint viewers ignore, as libwebp's and Blink's
decoders do); a no-blend frame replaces its rectangle; a blended frame is
drawn OVER the canvas; a dispose-to-background frame's rectangle is cleared
to transparent once it has been shown. OVER on straight alpha is
  blend_a = src_a + dst_a·(1 − src_a/255)
  blend_c = (src_c·src_a + dst_c·dst_a·(1 − src_a/255)) / blend_a,
which needs rounding. It is rounded here as libwebp's anim_decode.c (and
Blink's WEBPImageDecoder, the same arithmetic) rounds it, so that a file
using partial-alpha OVER decodes bit-identically to those decoders:
  dst_factor = ⌊dst_a·(256 − src_a) / 256⌋, blend_a = src_a + dst_factor,
  scale = ⌊2^24 / blend_a⌋, blend_c = ⌊(src_c·src_a + dst_c·dst_factor)·scale / 2^24⌋;
a source pixel with alpha 255 is copied and one with alpha 0 keeps the
canvas (the formula would give 254 for 255 and lose the canvas). Those
decoders also copy instead of blending where the canvas is known to be
clear: inside the previous frame's rectangle when it was disposed, and in
a "key frame" (the first; a full-canvas frame without alpha or without
blending; one after a disposed frame that was full-canvas or itself a key
frame), whose canvas is cleared first. Both are modelled here; they only
matter for a partially transparent source pixel over a clear canvas, where
the formula would round a channel down by one. WebPAnimEncoder (which
Throbber uses) blends only where the source pixel is fully opaque or fully
transparent, so none of this rounding arises in its files.
"""
import hashlib, json, os, struct, subprocess, sys, tempfile

import numpy as np


class WebPError(Exception):
    pass


def _u24(b):
    return b[0] | b[1] << 8 | b[2] << 16


def _chunks(data, start, end, where):
    """[(fourcc, payload, offset)] of the chunks in data[start:end]."""
    out, pos = [], start
    while pos < end:
        if pos + 8 > end:
            raise WebPError(f"{where}: {end - pos} stray bytes at {pos}")
        kind, size = data[pos:pos + 4], struct.unpack("<I", data[pos + 4:pos + 8])[0]
        if pos + 8 + size > end:
            raise WebPError(f"{where}: chunk {kind!r} at {pos} runs past the end ({size} bytes)")
        out.append((kind.decode("latin-1"), data[pos + 8:pos + 8 + size], pos))
        pos += 8 + size + (size & 1)
    if pos != end:
        raise WebPError(f"{where}: the last chunk's padding runs past the end")
    return out


def _chunk(kind, payload):
    return kind.encode("latin-1") + struct.pack("<I", len(payload)) + payload + (b"\0" if len(payload) & 1 else b"")


def _bitstream_info(chunks, where):
    """(lossy, has_alpha, width, height) of a frame's ALPH/VP8/VP8L chunks."""
    kinds = [k for k, _, _ in chunks]
    if "VP8L" in kinds:
        body = chunks[kinds.index("VP8L")][1]
        if len(body) < 5 or body[0] != 0x2F:
            raise WebPError(f"{where}: VP8L without its signature byte")
        bits = struct.unpack("<I", body[1:5])[0]
        if "ALPH" in kinds:
            raise WebPError(f"{where}: ALPH with a VP8L bitstream")
        return False, bool(bits >> 28 & 1), (bits & 0x3FFF) + 1, (bits >> 14 & 0x3FFF) + 1
    if "VP8 " in kinds:
        body = chunks[kinds.index("VP8 ")][1]
        if len(body) < 10 or body[3:6] != b"\x9d\x01\x2a":
            raise WebPError(f"{where}: VP8 without its start code")
        if "ALPH" in kinds and kinds.index("ALPH") > kinds.index("VP8 "):
            raise WebPError(f"{where}: ALPH after VP8")
        w, h = struct.unpack("<HH", body[6:10])
        return True, "ALPH" in kinds, w & 0x3FFF, h & 0x3FFF
    raise WebPError(f"{where}: no VP8 or VP8L bitstream")


def parse(path):
    """The container: canvas, loop count, background, and each frame's
    rectangle, duration, blend/dispose flags and a still WebP of its own."""
    data = open(path, "rb").read()
    if len(data) < 12 or data[:4] != b"RIFF" or data[8:12] != b"WEBP":
        raise WebPError("not a RIFF WEBP file")
    size = struct.unpack("<I", data[4:8])[0]
    if size + 8 != len(data):
        raise WebPError(f"RIFF size {size} + 8 is not the file's {len(data)} bytes")
    chunks = _chunks(data, 12, len(data), "RIFF")
    kinds = [k for k, _, _ in chunks]
    info = {"animated": False, "loop": None, "background": None, "frames": []}
    if kinds[0] != "VP8X":
        # A simple file: one bitstream chunk.
        lossy, alpha, w, h = _bitstream_info(chunks, "still")
        info.update(width=w, height=h)
        info["frames"].append({"x": 0, "y": 0, "w": w, "h": h, "duration": None, "blend": False,
                               "dispose": False, "lossy": lossy, "alpha": alpha,
                               "still": data[:12] + b"".join(_chunk(k, p) for k, p, _ in chunks)})
        return info
    vp8x = chunks[0][1]
    if len(vp8x) != 10:
        raise WebPError(f"VP8X of {len(vp8x)} bytes")
    flags = vp8x[0]
    w, h = _u24(vp8x[4:7]) + 1, _u24(vp8x[7:10]) + 1
    info.update(width=w, height=h, vp8x_flags=flags)
    if not flags & 0x02:
        lossy, alpha, fw, fh = _bitstream_info(chunks[1:], "still")
        if (fw, fh) != (w, h):
            raise WebPError(f"still bitstream {fw}x{fh} in a {w}x{h} canvas")
        body = b"".join(_chunk(k, p) for k, p, _ in chunks)
        info["frames"].append({"x": 0, "y": 0, "w": w, "h": h, "duration": None, "blend": False, "dispose": False,
                               "lossy": lossy, "alpha": alpha,
                               "still": b"RIFF" + struct.pack("<I", 4 + len(body)) + b"WEBP" + body})
        return info
    info["animated"] = True
    if "ANIM" not in kinds or kinds.index("ANIM") > min((i for i, k in enumerate(kinds) if k == "ANMF"), default=1 << 30):
        raise WebPError("animation flag set but no ANIM chunk before the frames")
    anim = chunks[kinds.index("ANIM")][1]
    if len(anim) != 6:
        raise WebPError(f"ANIM of {len(anim)} bytes")
    b, g, r, a = anim[:4]
    info["background"] = [r, g, b, a]
    info["loop"] = struct.unpack("<H", anim[4:6])[0]
    any_alpha = False
    for k, payload, offset in chunks:
        if k != "ANMF":
            continue
        n = len(info["frames"])
        if len(payload) < 16:
            raise WebPError(f"frame {n}: ANMF of {len(payload)} bytes")
        fx, fy = 2 * _u24(payload[0:3]), 2 * _u24(payload[3:6])
        fw, fh = _u24(payload[6:9]) + 1, _u24(payload[9:12]) + 1
        duration, fflags = _u24(payload[12:15]), payload[15]
        if fflags & 0xFC:
            raise WebPError(f"frame {n}: reserved ANMF flag bits set ({fflags:#04x})")
        if fx + fw > w or fy + fh > h:
            raise WebPError(f"frame {n}: {fw}x{fh}+{fx}+{fy} outside the {w}x{h} canvas")
        sub = _chunks(payload, 16, len(payload), f"frame {n}")
        sub = [(sk, sp, so) for sk, sp, so in sub if sk in ("ALPH", "VP8 ", "VP8L")]  # unknown chunks: ignored
        lossy, alpha, bw, bh = _bitstream_info(sub, f"frame {n}")
        if (bw, bh) != (fw, fh):
            raise WebPError(f"frame {n}: bitstream {bw}x{bh} in a {fw}x{fh} ANMF")
        any_alpha |= alpha
        # A still file of the frame: VP8L alone is a simple file; ALPH + VP8
        # needs VP8X (alpha flag, canvas = the frame).
        if "ALPH" in [sk for sk, _, _ in sub]:
            head = _chunk("VP8X", bytes([0x10, 0, 0, 0]) + struct.pack("<I", fw - 1)[:3] + struct.pack("<I", fh - 1)[:3])
        else:
            head = b""
        body = head + b"".join(_chunk(sk, sp) for sk, sp, _ in sub)
        info["frames"].append({"x": fx, "y": fy, "w": fw, "h": fh, "duration": duration,
                               "blend": not fflags & 0x02, "dispose": bool(fflags & 0x01),
                               "lossy": lossy, "alpha": alpha,
                               "still": b"RIFF" + struct.pack("<I", 4 + len(body)) + b"WEBP" + body})
    if not info["frames"]:
        raise WebPError("an animation without ANMF frames")
    if any_alpha and not flags & 0x10:
        info["warning"] = "a frame has alpha but VP8X's alpha flag is clear"
    return info


# ---------------------------------------------------------------- still decoders


def _run(cmd, data=None):
    r = subprocess.run(cmd, input=data, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if r.returncode != 0:
        raise WebPError(f"{' '.join(cmd)} failed ({r.returncode}): {r.stderr.decode(errors='replace')[-1000:]}")
    return r.stdout


def decode_dwebp(still, w, h):
    with tempfile.TemporaryDirectory() as tmp:
        src, out = os.path.join(tmp, "f.webp"), os.path.join(tmp, "f.pam")
        open(src, "wb").write(still)
        _run(["dwebp", "-quiet", "-pam", src, "-o", out])
        raw = open(out, "rb").read()
    end = raw.index(b"ENDHDR\n") + len(b"ENDHDR\n")
    header = dict(line.split(" ", 1) for line in raw[:end].decode().splitlines()[1:-1])
    if (int(header["WIDTH"]), int(header["HEIGHT"]), header["DEPTH"], header["MAXVAL"]) != (w, h, "4", "255"):
        raise WebPError(f"dwebp gave a PAM with header {header} for a {w}x{h} frame")
    return np.frombuffer(raw[end:], np.uint8).reshape(h, w, 4)


def decode_ffmpeg(still, w, h):
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "f.webp")
        open(src, "wb").write(still)
        raw = _run(["ffmpeg", "-v", "error", "-nostdin", "-f", "webp_pipe", "-i", src, "-frames:v", "1",
                    "-f", "rawvideo", "-pix_fmt", "rgba", "-"])
    if len(raw) != w * h * 4:
        raise WebPError(f"ffmpeg gave {len(raw)} bytes for a {w}x{h} frame")
    return np.frombuffer(raw, np.uint8).reshape(h, w, 4)


DECODERS = {"dwebp": decode_dwebp, "ffmpeg": decode_ffmpeg}


# ---------------------------------------------------------------- compositing


def blend_over(src, dst):
    """src OVER dst, straight alpha, rounded as described in the docstring."""
    s, d = src.astype(np.int64), dst.astype(np.int64)
    sa, da = s[..., 3:4], d[..., 3:4]
    factor = (da * (256 - sa)) >> 8
    ba = sa + factor
    scale = (1 << 24) // np.maximum(ba, 1)
    out = np.empty_like(s)
    out[..., :3] = ((s[..., :3] * sa + d[..., :3] * factor) * scale) >> 24
    out[..., 3:4] = ba
    out = np.where(sa == 255, s, np.where(sa == 0, d, out))
    return out.astype(np.uint8)


def compose(info, decode):
    """[(canvas RGBA array, duration ms or None)] as shown, one per frame."""
    W, H = info["width"], info["height"]
    canvas = np.zeros((H, W, 4), np.uint8)
    out, prev = [], None
    for f in info["frames"]:
        full = (f["x"], f["y"], f["w"], f["h"]) == (0, 0, W, H)
        if prev is None:
            key = True
        elif full and (not f["alpha"] or not f["blend"]):
            key = True
        else:
            key = prev["dispose"] and (prev["full"] or prev["key"])
        cleared = np.zeros((H, W), bool)  # known clear: copied, not blended
        if key:
            canvas[:] = 0
            cleared[:] = True
        elif prev["dispose"]:
            px, py, pw, ph = prev["rect"]
            canvas[py:py + ph, px:px + pw] = 0
            cleared[py:py + ph, px:px + pw] = True
        src = decode(f["still"], f["w"], f["h"])
        region = canvas[f["y"]:f["y"] + f["h"], f["x"]:f["x"] + f["w"]]
        if f["blend"]:
            keep = cleared[f["y"]:f["y"] + f["h"], f["x"]:f["x"] + f["w"]][..., None]
            region[:] = np.where(keep, src, blend_over(src, region))
        else:
            region[:] = src
        out.append((canvas.copy(), f["duration"]))
        prev = {"rect": (f["x"], f["y"], f["w"], f["h"]), "dispose": f["dispose"], "full": full, "key": key}
    return out


def decode(path, decoder="dwebp"):
    """(info, [(canvas, duration ms)]) with the named still decoder."""
    info = parse(path)
    return info, compose(info, DECODERS[decoder])


def main():
    import argparse
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("file")
    ap.add_argument("--decoder", choices=sorted(DECODERS), default="dwebp")
    ap.add_argument("--out", help="write the composited frames as PNGs here")
    a = ap.parse_args()
    info, frames = decode(a.file, a.decoder)
    if a.out:
        from PIL import Image
        os.makedirs(a.out, exist_ok=True)
        for i, (img, _) in enumerate(frames):
            Image.fromarray(img, "RGBA").save(os.path.join(a.out, f"{i:04d}.png"))
    summary = {k: v for k, v in info.items() if k != "frames"}
    summary["frames"] = [{**{k: v for k, v in f.items() if k != "still"},
                          "sha256": hashlib.sha256(img.tobytes()).hexdigest()}
                         for f, (img, _) in zip(info["frames"], frames)]
    json.dump(summary, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
