#!/usr/bin/python3
"""Independent decoders of animated PNG and GIF, for Throbber's tests.

Usage: anim_reference.py MODE FILE OUTDIR
       anim_reference.py stills OUTDIR FILE...   (still images via Pillow)

Writes every composited frame (the whole canvas as a viewer shows it while
that frame is displayed) as OUTDIR/frame_NNNN.rgba (8-bit straight RGBA,
rows top to bottom; fully transparent pixels normalised to 0,0,0,0) and
prints one JSON object: width, height, count, loop, durations, and a few
per-mode details.

MODE:
  spec     APNG, decoded here from the bytes (struct, zlib, numpy; no image
           library): PNG filters, Adam7, every bit depth and color type,
           tRNS; 16-bit samples scaled to 8 bits as round(v * 255 / 65535)
           (what libpng's png_set_scale_16 computes). Compositing follows
           the APNG 1.0 spec: the canvas starts fully transparent black;
           blend SOURCE replaces the region; blend OVER is Porter-Duff
           "over" computed exactly and rounded to nearest; after display,
           dispose NONE keeps, BACKGROUND clears the region to transparent
           black, PREVIOUS restores the region (PREVIOUS on the first frame
           acts as BACKGROUND). A default image without its own fcTL is not
           a frame. Errors found before the animation starts make the file
           show its default image, as one frame (a still PNG), as the spec
           recommends ("A decoder which detects an error before the
           animation has started should display the default image"): no
           acTL before IDAT, more than one acTL, num_frames 0 or >= 2^31,
           num_frames different from the number of fcTL ("should be
           treated as an error"); "error" says which. Frame data that
           stops early decodes the rows present, the rest as zero bytes
           (transparent); data beyond the frame is ignored.
           durations: [[delay_num, delay_den]] with delay_den 0 read as 100.
           loop: acTL num_plays.
  pillow   APNG or GIF through Pillow's ImageSequence and convert("RGBA")
           (an APNG with the Pillow apng_pillow.py pins: Debian's 9.4
           composites RGB blend-OVER frames without their tRNS key).
           For an APNG whose IDAT is a hidden default image, Pillow reports
           it as frame 0; it is dropped here ("default_image_dropped").
           durations: Pillow's info["duration"] in ms (may be null).
           loop: Pillow's info["loop"] (raw NETSCAPE value for GIF).
  ffmpeg   APNG through ffmpeg (-fps_mode passthrough, rgba) and ffprobe
           (durations in seconds as floats, frame count).
  gifspec  GIF, decoded here (own LZW decoder, no image library) and
           composited as browsers do: the canvas starts transparent; a
           frame draws its pixels through its local (else global) color
           table, skipping its transparent index and anything outside the
           canvas; after display, disposal 2 clears its rectangle to
           transparent, 3 restores the canvas from before the frame, others
           keep it. A frame with no color table at all uses a gray ramp
           (index i -> i,i,i; Pillow does the same). Indices beyond the
           table are reported in "out_of_range" and drawn opaque black.
           A byte that starts no known block ends the file, as if it were
           the trailer (what Firefox and Chromium do with junk between
           blocks; "stopped_at_unknown_block" gives its offset). Image data
           that ends early leaves the missing pixels undrawn ("short").
           durations: GCE delay in centiseconds (0 without a GCE).
           loop: raw NETSCAPE2.0 repeat count (the last such block), null
           without one.
"""
import json
import os
import struct
import subprocess
import sys
import zlib

import numpy as np

SIGNATURE = b"\x89PNG\r\n\x1a\n"
CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}
ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4),
         (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]  # x0, y0, dx, dy


def normalise(rgba):
    out = rgba.astype(np.uint8).copy()
    out[out[:, :, 3] == 0] = 0
    return out


def write_frames(outdir, frames):
    for i, f in enumerate(frames):
        with open(os.path.join(outdir, "frame_%04d.rgba" % i), "wb") as fh:
            fh.write(normalise(f).tobytes())


# ---------------------------------------------------------------- PNG / APNG

def png_chunks(data):
    if data[:8] != SIGNATURE:
        raise ValueError("not a PNG")
    p, out = 8, []
    while p + 12 <= len(data):
        (length,) = struct.unpack(">I", data[p:p + 4])
        kind = data[p + 4:p + 8].decode("latin-1")
        out.append((kind, data[p + 8:p + 8 + length]))
        p += 12 + length
        if kind == "IEND":
            break
    return out


def unfilter(raw, offset, stride, height, bpp):
    """Rows of one (sub)image with the PNG filters undone, and the next offset."""
    rows = []
    prev = bytearray(stride)
    for _ in range(height):
        kind = raw[offset]
        row = bytearray(raw[offset + 1:offset + 1 + stride])
        if len(row) != stride:
            raise ValueError("image data too short")
        offset += 1 + stride
        if kind == 0:
            pass
        elif kind == 1:
            for x in range(bpp, stride):
                row[x] = (row[x] + row[x - bpp]) & 0xFF
        elif kind == 2:
            row = bytearray((np.frombuffer(bytes(row), np.uint8) + np.frombuffer(bytes(prev), np.uint8)).tobytes())
        elif kind == 3:
            for x in range(stride):
                a = row[x - bpp] if x >= bpp else 0
                row[x] = (row[x] + ((a + prev[x]) >> 1)) & 0xFF
        elif kind == 4:
            for x in range(stride):
                a = row[x - bpp] if x >= bpp else 0
                b = prev[x]
                c = prev[x - bpp] if x >= bpp else 0
                pp = a + b - c
                pa, pb, pc = abs(pp - a), abs(pp - b), abs(pp - c)
                row[x] = (row[x] + (a if pa <= pb and pa <= pc else (b if pb <= pc else c))) & 0xFF
        else:
            raise ValueError("bad filter type %d" % kind)
        rows.append(bytes(row))
        prev = row
    return rows, offset


def samples(rows, width, depth, channels):
    """Unpacks rows of packed samples into an int array (h, w, channels)."""
    buf = np.frombuffer(b"".join(rows), np.uint8).reshape(len(rows), -1)
    if depth == 8:
        s = buf[:, :width * channels].astype(np.int64)
    elif depth == 16:
        s = buf[:, :width * channels * 2].astype(np.int64)
        s = s[:, 0::2] * 256 + s[:, 1::2]
    else:
        bits = np.unpackbits(buf, axis=1)[:, :width * channels * depth]
        bits = bits.reshape(len(rows), width * channels, depth).astype(np.int64)
        s = np.zeros((len(rows), width * channels), np.int64)
        for k in range(depth):
            s = s * 2 + bits[:, :, k]
    return s.reshape(len(rows), width, channels)


def decode_png_image(width, height, depth, color, interlace, plte, trns, zdata):
    """One image (frame region) -> RGBA uint8 array (h, w, 4)."""
    d = zlib.decompressobj()
    raw = d.decompress(zdata)
    ch = CHANNELS[color]
    if interlace == 0:
        # Image data that stops early: the rows that are there, the rest
        # zero bytes (transparent or black); data beyond the image ignored.
        need = height * (1 + (width * ch * depth + 7) // 8)
        raw = raw[:need] + bytes(max(0, need - len(raw)))
    bpp = max(1, ch * depth // 8)
    s = np.zeros((height, width, ch), np.int64)
    if interlace == 0:
        stride = (width * ch * depth + 7) // 8
        rows, _ = unfilter(raw, 0, stride, height, bpp)
        s[:, :, :] = samples(rows, width, depth, ch)
    else:
        offset = 0
        for x0, y0, dx, dy in ADAM7:
            pw = (width - x0 + dx - 1) // dx if width > x0 else 0
            ph = (height - y0 + dy - 1) // dy if height > y0 else 0
            if pw == 0 or ph == 0:
                continue
            stride = (pw * ch * depth + 7) // 8
            rows, offset = unfilter(raw, offset, stride, ph, bpp)
            s[y0::dy, x0::dx, :] = samples(rows, pw, depth, ch)

    out = np.zeros((height, width, 4), np.int64)
    maxv = (1 << depth) - 1

    def scale(v):
        if depth == 16:
            return (v * 255 + 32767) // 65535
        return v * 255 // maxv

    if color == 3:
        pal = np.frombuffer(plte, np.uint8).reshape(-1, 3).astype(np.int64)
        alpha = np.full(256, 255, np.int64)
        if trns:
            alpha[:len(trns)] = np.frombuffer(trns, np.uint8)
        table = np.zeros((256, 4), np.int64)
        table[:len(pal), :3] = pal
        table[:, 3] = alpha
        idx = s[:, :, 0]
        if idx.max() >= len(pal):
            raise ValueError("palette index out of range")
        out = table[idx]
    elif color == 0:
        g = scale(s[:, :, 0])
        out[:, :, 0] = out[:, :, 1] = out[:, :, 2] = g
        out[:, :, 3] = 255
        if trns and len(trns) >= 2:
            key = struct.unpack(">H", trns[:2])[0]
            out[s[:, :, 0] == key, 3] = 0
    elif color == 2:
        out[:, :, :3] = scale(s)
        out[:, :, 3] = 255
        if trns and len(trns) >= 6:
            key = struct.unpack(">HHH", trns[:6])
            hit = (s[:, :, 0] == key[0]) & (s[:, :, 1] == key[1]) & (s[:, :, 2] == key[2])
            out[hit, 3] = 0
    elif color == 4:
        g = scale(s[:, :, 0])
        out[:, :, 0] = out[:, :, 1] = out[:, :, 2] = g
        out[:, :, 3] = scale(s[:, :, 1])
    else:
        out[:, :, :] = scale(s)
    return out


def blend_over(dst, src):
    """Porter-Duff src over dst, exact, rounded to nearest (half up)."""
    sa = src[:, :, 3:4]
    da = dst[:, :, 3:4]
    oa = sa * 255 + da * (255 - sa)                      # alpha * 255 * 255
    num = src[:, :, :3] * sa * 255 + dst[:, :, :3] * da * (255 - sa)
    safe = np.where(oa == 0, 1, oa)
    color = (2 * num + safe) // (2 * safe)
    alpha = (2 * oa + 255) // 510
    mixed = np.concatenate([color, alpha], axis=2)
    out = np.where(sa == 255, src, np.where(sa == 0, dst, mixed))
    return out


def apng_spec(path):
    data = open(path, "rb").read()
    chunks = png_chunks(data)
    ihdr = chunks[0][1]
    width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", ihdr[:13])
    plte = trns = None
    actl = None
    saw_idat = False
    idat = b""
    frames = []      # [fctl tuple, data]
    default_in_animation = False
    actl_count = 0
    for kind, body in chunks[1:]:
        if kind == "acTL" and not saw_idat:
            actl_count += 1
            if actl is None:
                actl = struct.unpack(">II", body)
        elif kind == "PLTE" and not saw_idat:
            plte = body
        elif kind == "tRNS" and not saw_idat:
            trns = body
        elif kind == "fcTL":
            f = struct.unpack(">IIIIIHHBB", body)
            if not saw_idat and not frames:
                default_in_animation = True
            frames.append([f, b""])
        elif kind == "IDAT":
            saw_idat = True
            idat += body
            if default_in_animation and len(frames) == 1:
                frames[0][1] += body
        elif kind == "fdAT":
            frames[-1][1] += body[4:]
    info = {"width": width, "height": height, "default_in_animation": default_in_animation}
    # The spec's errors found before the animation starts: show the default
    # image ("A decoder which detects an error before the animation has
    # started should display the default image").
    error = None
    if actl is None:
        error = "no acTL before IDAT"
    elif actl_count > 1:
        error = "more than one acTL"
    elif actl[0] == 0 or actl[0] >= 2 ** 31:
        error = "num_frames %d out of range" % actl[0]
    elif actl[0] != len(frames):
        error = "num_frames %d but %d fcTL" % (actl[0], len(frames))
    if error:
        info["error"] = error
        still = decode_png_image(width, height, depth, color, interlace, plte, trns, idat)
        info.update({"count": 1, "loop": None, "durations": [None], "still": True})
        return info, [still]
    canvas = np.zeros((height, width, 4), np.int64)
    out, durations, ops = [], [], []
    for i, (f, zdata) in enumerate(frames):
        _, w, h, x, y, num, den, dispose, blend = f
        image = decode_png_image(w, h, depth, color, interlace, plte, trns, zdata)
        if i == 0 and dispose == 2:
            dispose = 1
        saved = canvas[y:y + h, x:x + w].copy()
        if blend == 0:
            canvas[y:y + h, x:x + w] = image
        else:
            canvas[y:y + h, x:x + w] = blend_over(canvas[y:y + h, x:x + w], image)
        out.append(canvas.copy())
        durations.append([num, den if den else 100])
        ops.append({"rect": [x, y, w, h], "dispose": f[7], "blend": blend})
        if dispose == 1:
            canvas[y:y + h, x:x + w] = 0
        elif dispose == 2:
            canvas[y:y + h, x:x + w] = saved
    info.update({"count": len(out), "loop": actl[1], "durations": durations, "ops": ops, "still": False})
    return info, out


# ---------------------------------------------------------------- Pillow

def pillow(path):
    import apng_pillow
    apng_pillow.use_for([path])
    from PIL import Image, ImageSequence
    im = Image.open(path)
    default = bool(im.info.get("default_image"))
    frames, durations = [], []
    for i, frame in enumerate(ImageSequence.Iterator(im)):
        if i == 0 and default:
            continue
        rgba = np.array(frame.convert("RGBA"), dtype=np.int64)
        frames.append(rgba)
        durations.append(frame.info.get("duration"))
    info = {"width": im.width, "height": im.height, "count": len(frames), "loop": im.info.get("loop"),
            "durations": durations, "default_image_dropped": default, "mode": im.mode}
    return info, frames


# ---------------------------------------------------------------- ffmpeg

def ffmpeg(path):
    probe = json.loads(subprocess.run(
        ["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_frames", "-show_streams",
         "-of", "json", path], check=True, capture_output=True).stdout)
    stream = probe["streams"][0]
    width, height = stream["width"], stream["height"]
    raw = subprocess.run(["ffmpeg", "-v", "error", "-i", path, "-fps_mode", "passthrough",
                          "-f", "rawvideo", "-pix_fmt", "rgba", "-"], check=True, capture_output=True).stdout
    size = width * height * 4
    frames = [np.frombuffer(raw[i:i + size], np.uint8).reshape(height, width, 4).astype(np.int64)
              for i in range(0, len(raw), size)]
    durations = []
    for f in probe.get("frames", []):
        d = f.get("duration_time", f.get("pkt_duration_time"))
        durations.append(float(d) if d is not None else None)
    info = {"width": width, "height": height, "count": len(frames), "durations": durations,
            "loop": None}
    return info, frames


# ---------------------------------------------------------------- GIF

def lzw_decode(data, min_size, count):
    """GIF LZW: `count` indices (fewer if the data ends early)."""
    clear = 1 << min_size
    end = clear + 1
    size = min_size + 1
    table = [bytes([i & 0xFF]) for i in range(clear)] + [b"", b""]
    out = bytearray()
    prev = None
    acc = nbits = 0
    pos = 0
    n = len(data)
    while len(out) < count:
        while nbits < size:
            if pos >= n:
                return bytes(out), True
            acc |= data[pos] << nbits
            pos += 1
            nbits += 8
        code = acc & ((1 << size) - 1)
        acc >>= size
        nbits -= size
        if code == clear:
            table = table[:clear + 2]
            size = min_size + 1
            prev = None
            continue
        if code == end:
            break
        if prev is None:
            if code >= len(table):
                return bytes(out), True
            entry = table[code]
        elif code < len(table):
            entry = table[code]
            if len(table) < 4096:
                table.append(prev + entry[:1])
        elif code == len(table):
            entry = prev + prev[:1]
            if len(table) < 4096:
                table.append(entry)
        else:
            return bytes(out), True
        out += entry
        prev = entry
        if len(table) == (1 << size) and size < 12:
            size += 1
    return bytes(out[:count]), len(out) < count


def gif_spec(path):
    data = open(path, "rb").read()
    if data[:6] not in (b"GIF87a", b"GIF89a"):
        raise ValueError("not a GIF")
    width, height, packed, bg, _ = struct.unpack("<HHBBB", data[6:13])
    p = 13
    gct = None
    if packed & 0x80:
        n = 2 << (packed & 7)
        gct = np.frombuffer(data[p:p + 3 * n], np.uint8).reshape(-1, 3).astype(np.int64)
        p += 3 * n
    canvas = np.zeros((height, width, 4), np.int64)
    frames, durations, meta = [], [], []
    loop = None
    gce = None
    out_of_range = 0
    short = []
    stopped_at = None

    def sub_blocks(p):
        parts = []
        while True:
            k = data[p]
            p += 1
            if k == 0:
                return b"".join(parts), p
            parts.append(data[p:p + k])
            p += k

    while p < len(data):
        b = data[p]
        p += 1
        if b == 0x3B:
            break
        if b == 0x21:
            label = data[p]
            p += 1
            if label == 0xF9:
                body, p = sub_blocks(p)
                flags = body[0]
                gce = {"disposal": (flags >> 2) & 7, "transparent": body[3] if flags & 1 else None,
                       "delay": body[1] | body[2] << 8}
            elif label == 0xFF:
                k = data[p]
                ident = data[p + 1:p + 1 + k]
                p += 1 + k
                body, p = sub_blocks(p)
                if ident == b"NETSCAPE2.0" and len(body) >= 3 and body[0] == 1:
                    loop = body[1] | body[2] << 8
            else:
                _, p = sub_blocks(p)
            continue
        if b != 0x2C:
            # Firefox and Chromium: extraneous data between blocks ends the
            # file as if a trailer were there.
            stopped_at = p - 1
            break
        left, top, w, h, packed = struct.unpack("<HHHHB", data[p:p + 9])
        p += 9
        table = gct
        if packed & 0x80:
            n = 2 << (packed & 7)
            table = np.frombuffer(data[p:p + 3 * n], np.uint8).reshape(-1, 3).astype(np.int64)
            p += 3 * n
        if table is None:
            table = np.stack([np.arange(256)] * 3, axis=1).astype(np.int64)
        min_size = data[p]
        p += 1
        lzw, p = sub_blocks(p)
        indices, was_short = lzw_decode(lzw, min_size, w * h)
        if was_short:
            short.append(len(frames))
        idx = np.zeros(w * h, np.int64)
        drawn = np.zeros(w * h, bool)
        got = np.frombuffer(indices, np.uint8).astype(np.int64)
        idx[:len(got)] = got
        drawn[:len(got)] = True
        idx = idx.reshape(h, w)
        drawn = drawn.reshape(h, w)
        if packed & 0x40:   # interlaced: rows stored in pass order
            order = list(range(0, h, 8)) + list(range(4, h, 8)) + list(range(2, h, 4)) + list(range(1, h, 2))
            real = np.zeros_like(idx)
            real_drawn = np.zeros_like(drawn)
            for stored, row in enumerate(order):
                real[row] = idx[stored]
                real_drawn[row] = drawn[stored]
            idx, drawn = real, real_drawn
        g = gce or {"disposal": 0, "transparent": None, "delay": 0}
        before = canvas.copy()
        if g["transparent"] is not None:
            drawn &= idx != g["transparent"]
        colors = np.zeros((h, w, 4), np.int64)
        inside = idx < len(table)
        out_of_range += int((~inside & drawn).sum())
        colors[inside, :3] = table[idx[inside]]
        colors[:, :, 3] = 255
        vw, vh = max(0, min(w, width - left)), max(0, min(h, height - top))
        region = canvas[top:top + vh, left:left + vw]
        mask = drawn[:vh, :vw]
        region[mask] = colors[:vh, :vw][mask]
        frames.append(canvas.copy())
        durations.append(g["delay"])
        meta.append({"rect": [left, top, w, h], "disposal": g["disposal"], "transparent": g["transparent"],
                     "local_table": bool(packed & 0x80), "lzw_min": min_size})
        if g["disposal"] == 2:
            canvas[top:top + vh, left:left + vw] = 0
        elif g["disposal"] == 3:
            canvas = before
        gce = None
    info = {"width": width, "height": height, "count": len(frames), "loop": loop, "durations": durations,
            "frames": meta, "background_index": bg, "out_of_range": out_of_range, "short": short,
            "stopped_at_unknown_block": stopped_at}
    return info, frames


def stills(outdir, paths):
    """Each still image through Pillow's convert("RGBA"), in order."""
    from PIL import Image
    frames, sizes = [], []
    for path in paths:
        im = Image.open(path)
        frames.append(np.array(im.convert("RGBA"), dtype=np.int64))
        sizes.append([im.width, im.height])
    write_frames(outdir, frames)
    json.dump({"width": sizes[0][0] if sizes else 0, "height": sizes[0][1] if sizes else 0, "count": len(frames),
               "sizes": sizes, "durations": [None] * len(frames), "loop": None}, sys.stdout)


def main():
    if sys.argv[1] == "stills":
        stills(sys.argv[2], sys.argv[3:])
        return
    mode, path, outdir = sys.argv[1:4]
    decoder = {"spec": apng_spec, "pillow": pillow, "ffmpeg": ffmpeg, "gifspec": gif_spec}[mode]
    info, frames = decoder(path)
    write_frames(outdir, frames)
    json.dump(info, sys.stdout)


if __name__ == "__main__":
    main()
