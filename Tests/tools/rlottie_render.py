#!/usr/bin/python3
"""rlottie's own frames, drawn through Debian's librlottie.so with ctypes
(no Throbber code), and a comparison of an encoded animation with them.

usage:
  rlottie_render.py info LOTTIE
      JSON {"width", "height", "totalframe", "framerate"} as rlottie reads them.
  rlottie_render.py render LOTTIE FRAME W H OUT.png
      rlottie's frame FRAME (0 = the file's ip) at WxH as a straight-RGBA PNG.
  rlottie_render.py compare ANIM LOTTIE W H ENTRIES [--white]
      ENTRIES is JSON [[frame, start_num, start_den], ..., [null, end_num, end_den]]:
      the rlottie frame each shown frame should hold, and exact start times in
      seconds, the last element giving the end of the loop. ANIM (GIF or APNG)
      is decoded with Pillow. Prints JSON:
        width, height, decoded (frame count in the file),
        starts_ok: every decoded frame starts at an expected start and the
          loop ends at the expected end (GIF: starts rounded half up to
          centiseconds; APNG: exact fractions from the fcTL chunks, read here),
        entries: per expected entry, the decoded frame covering its start and
          "diff" (pixels whose straight RGBA differs from rlottie's; pixels
          transparent in both count as equal) and "psnr" (dB over RGB after
          compositing both on white; 99 when identical).
  rlottie_render.py layer ANIM LOTTIE SPEC
      A config's Lottie layer. SPEC is JSON {"x", "y", "w", "h", "background",
      "frames": [[decoded, lottie_frame], ...]}: rlottie's frame lottie_frame
      drawn at w x h should sit with its top-left corner at (x, y) in the
      decoded frame `decoded` of ANIM (Pillow). background null: compared as
      straight RGBA (pixels transparent in both are equal); [r, g, b]: the
      reference is composited on that opaque color (Pillow alpha_composite)
      and RGB compared. Prints JSON {"decoded", "width", "height", "entries":
      [{"decoded", "frame", "diff" (pixels differing), "maxdiff" (largest
      channel difference)}]}.
A .tgs (gzip) file is inflated before rlottie reads it. Every frame is drawn
by a fresh rlottie object: an object's drawing depends on the frames it drew
before (simple_loader frame 7 after frame 2 differs from a fresh frame 7).
"""
import ctypes, gzip, json, math, struct, sys
from fractions import Fraction
import numpy as np
from PIL import Image, ImageSequence

LIB = ctypes.CDLL("librlottie.so.0-1")
VP = ctypes.c_void_p
LIB.lottie_animation_from_data.restype = VP
LIB.lottie_animation_from_data.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p]
LIB.lottie_animation_destroy.argtypes = [VP]
LIB.lottie_animation_get_size.argtypes = [VP, ctypes.POINTER(ctypes.c_size_t), ctypes.POINTER(ctypes.c_size_t)]
LIB.lottie_animation_get_totalframe.restype = ctypes.c_size_t
LIB.lottie_animation_get_totalframe.argtypes = [VP]
LIB.lottie_animation_get_framerate.restype = ctypes.c_double
LIB.lottie_animation_get_framerate.argtypes = [VP]
LIB.lottie_animation_render.argtypes = [VP, ctypes.c_size_t, VP, ctypes.c_size_t, ctypes.c_size_t, ctypes.c_size_t]


def load(path):
    data = open(path, "rb").read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    anim = LIB.lottie_animation_from_data(data, b"", b"")
    if not anim:
        sys.exit("rlottie_render.py: rlottie cannot read %s" % path)
    return anim


def render(anim, frame, w, h):
    """Straight RGBA of rlottie's ARGB32 premultiplied frame: each channel
    c of alpha a > 0 becomes floor((c*255 + a//2) / a), at most 255."""
    buf = (ctypes.c_uint32 * (w * h))()
    LIB.lottie_animation_render(anim, frame, buf, w, h, w * 4)
    p = np.frombuffer(buf, dtype=np.uint32).astype(np.int64)
    a = p >> 24
    out = np.zeros((w * h, 4), dtype=np.uint8)
    safe = np.maximum(a, 1)
    for j, shift in enumerate((16, 8, 0)):
        c = (p >> shift) & 255
        out[:, j] = np.where(a > 0, np.minimum(255, (c * 255 + a // 2) // safe), 0)
    out[:, 3] = a
    return Image.frombytes("RGBA", (w, h), out.tobytes())


def apng_delays(path):
    """Exact delays from the fcTL chunks (a zero denominator means 100)."""
    data = open(path, "rb").read()
    pos, delays = 8, []
    while pos + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        if kind == b"fcTL":
            num, den = struct.unpack(">HH", data[pos + 8 + 20:pos + 8 + 24])
            delays.append(Fraction(num, den or 100))
        pos += 12 + length
    return delays


def on_white(im):
    return Image.alpha_composite(Image.new("RGBA", im.size, (255, 255, 255, 255)), im).convert("RGB")


def psnr(a, b):
    x = np.asarray(on_white(a), dtype=np.float64)
    y = np.asarray(on_white(b), dtype=np.float64)
    mse = float(np.mean((x - y) ** 2))
    return 99.0 if mse == 0 else min(99.0, 10 * math.log10(255 * 255 / mse))


def diff_pixels(a, b):
    x = np.asarray(a).reshape(-1, 4)
    y = np.asarray(b).reshape(-1, 4)
    differ = np.any(x != y, axis=1) & ~((x[:, 3] == 0) & (y[:, 3] == 0))
    return int(np.count_nonzero(differ))


def compare(anim_path, lottie, w, h, entries):
    im = Image.open(anim_path)
    is_gif = im.format == "GIF"
    frames = [f.convert("RGBA") for f in ImageSequence.Iterator(im)]
    if is_gif:
        im.seek(0)
        delays = []
        for f in ImageSequence.Iterator(im):
            delays.append(Fraction(round(f.info["duration"] / 10), 100))
    else:
        delays = apng_delays(anim_path)
    starts = [sum(delays[:i], Fraction(0)) for i in range(len(delays) + 1)]
    times = [Fraction(n, d) for _, n, d in entries]
    if is_gif:
        times = [Fraction(math.floor(t * 100 + Fraction(1, 2)), 100) for t in times]
    starts_ok = set(starts[:-1]) <= set(times[:-1]) and starts[-1] == times[-1] and starts[0] == 0
    out = []
    for (frame, _, _), t in zip(entries[:-1], times[:-1]):
        k = max(i for i in range(len(frames)) if starts[i] <= t)
        anim = load(lottie)
        ref = render(anim, frame, w, h)
        LIB.lottie_animation_destroy(anim)
        got = frames[k]
        if got.size != ref.size:
            out.append({"frame": frame, "decoded": k, "diff": -1, "psnr": 0.0})
            continue
        out.append({"frame": frame, "decoded": k, "diff": diff_pixels(got, ref), "psnr": psnr(got, ref)})
    return {"width": im.width, "height": im.height, "decoded": len(frames), "starts_ok": starts_ok,
            "total": str(starts[-1]), "entries": out}


def layer(anim_path, lottie, spec):
    im = Image.open(anim_path)
    frames = [f.convert("RGBA") for f in ImageSequence.Iterator(im)]
    x, y, w, h = spec["x"], spec["y"], spec["w"], spec["h"]
    out = []
    for k, frame in spec["frames"]:
        anim = load(lottie)
        ref = render(anim, frame, w, h)
        LIB.lottie_animation_destroy(anim)
        got = frames[k].crop((x, y, x + w, y + h))
        if spec["background"] is None:
            g = np.asarray(got, dtype=np.int64).reshape(-1, 4)
            r = np.asarray(ref, dtype=np.int64).reshape(-1, 4)
            both_clear = (g[:, 3] == 0) & (r[:, 3] == 0)
            d = np.where(both_clear[:, None], 0, np.abs(g - r))
        else:
            bg = Image.new("RGBA", (w, h), tuple(spec["background"]) + (255,))
            r = np.asarray(Image.alpha_composite(bg, ref).convert("RGB"), dtype=np.int64).reshape(-1, 3)
            g = np.asarray(got.convert("RGB"), dtype=np.int64).reshape(-1, 3)
            d = np.abs(g - r)
        out.append({"decoded": k, "frame": frame, "diff": int(np.count_nonzero(d.max(axis=1))),
                    "maxdiff": int(d.max())})
    return {"decoded": len(frames), "width": im.width, "height": im.height, "entries": out}


def main():
    cmd = sys.argv[1]
    if cmd == "info":
        anim = load(sys.argv[2])
        w, h = ctypes.c_size_t(), ctypes.c_size_t()
        LIB.lottie_animation_get_size(anim, ctypes.byref(w), ctypes.byref(h))
        json.dump({"width": w.value, "height": h.value, "totalframe": LIB.lottie_animation_get_totalframe(anim),
                   "framerate": LIB.lottie_animation_get_framerate(anim)}, sys.stdout)
    elif cmd == "render":
        anim = load(sys.argv[2])
        render(anim, int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])).save(sys.argv[6])
    elif cmd == "compare":
        json.dump(compare(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), json.loads(sys.argv[6])),
                  sys.stdout)
    elif cmd == "layer":
        json.dump(layer(sys.argv[2], sys.argv[3], json.loads(sys.argv[4])), sys.stdout)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
