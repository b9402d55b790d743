#!/usr/bin/env python3
"""Decoder conformance for Throbber's GIF, APNG and WebP output, for tests.

usage: conformance.py SPEC_JSON
SPEC_JSON (a JSON object, or a path to a file holding one):
  {"gif": "x.gif" | null, "apng": "x.png" | null, "webp": "x.webp" | null,
   "reference": {"config": "examples/dots.json"}              # a config
              | {"dir": D, "glob": "*.png", "fps": "25",        # a folder as
                 "duplicate": 1, "matte": null},               #   `encode` reads it
   "psnr_floor": 35,
   "lossy": false,        # true: the GIF was written with --lossy, so it is
                          #   held to psnr_floor even when the source has
                          #   few colors (transparency stays exact)
   "webp_lossy": false}   # true: the WebP was written with --quality (VP8
                          #   with lossless alpha) or --colors (a palette
                          #   a frame), so it is held to psnr_floor; also
                          #   assumed when any frame is VP8

Every GIF and APNG is decoded, composited as a viewer shows it, by Pillow,
by ffmpeg (its own GIF/APNG decoders, rawvideo rgba), by ImageMagick 6
(`-coalesce`, rgba:-) and by Chromium (WebCodecs ImageDecoder over the
DevTools pipe, see chromium_cdp.py). A WebP is decoded by Pillow (libwebp's
WebPAnimDecoder), by Chromium (image/webp) and twice by webp_compose.py,
our own container parser and compositor, with each frame's still bitstream
decoded by dwebp ("dwebp") or by FFmpeg's WebP decoder ("ffmpeg": ffmpeg
5.1 cannot read ANIM/ANMF itself). Fully transparent pixels are
normalised to 0,0,0,0 everywhere, nothing else is changed.

What we meant ("the reference"): a list of slots (image, exact duration).
- A folder: each file once per --duplicate, 1/fps each, Pillow's decode.
- A frames config: the same, from its "frames" and "timing".
- A layers config: the cycle D is the least common multiple of the
  animations' periods (the config format's timing in man throbber, computed here from the config),
  N = round(D·fps) slots of D/N. The renderer's frames are not available
  independently of an encoder, so the slot images are the lossless APNG's
  frames, used only after every APNG decoder agreed on them exactly and each
  APNG delay was a whole number of slots; the GIF is then checked against
  them, which makes the GIF and APNG paths check each other.

APNG: lossless, so every decoder must give exactly the reference frames,
identical neighbours merged, with the exact summed durations.
GIF: the reference after GIF's alpha policy (matte: composite partial alpha
onto it, rounded; else alpha >= 128 opaque, the rest clear), identical
neighbours merged, delays = differences of floor(100·t + 1/2) cs. Exact when
every frame has at most 256 colors; otherwise every decoder must give the
same frames and each must be within psnr_floor dB (RGBA) of the reference.
WebP: lossless (VP8L, the default) keeps every visible pixel, so every
decoder must give exactly the reference frames, identical neighbours
merged; delays = differences of floor(1000·t + 1/2) ms, the ANMF durations
exactly. Lossy (VP8 + ALPH) or a palette WebP (--colors: quantized
frames coded VP8L): every decoder's frames within psnr_floor dB of the
reference and the fully transparent pixels exactly the reference's (a
palette, which quantizes alpha too, may also clear a nearly clear pixel); VP8L
files must still decode identically in every decoder, while VP8 decoders
need not agree with each other (FFmpeg converts YUV to RGB with other
rounding than libwebp): how far they are apart is reported.
`webpmux -info` must read the file, a loop count of 0 and as many frames.

Durations are compared per decoder, allowing only the unit it reports in:
Pillow (GIF: whole ms; APNG: float ms; WebP: whole ms), ffprobe (GIF:
1/100 s; APNG: 1/100000 s, each delay rounded), ImageMagick %T (GIF: cs),
webp_compose (ms, as the ANMF says), Chromium (µs; APNG and WebP delays
are kept as whole milliseconds by Blink).

Decoder quirks handled here (Debian 12: Pillow 9.4, ffmpeg 5.1, IM 6.9.11,
Chromium 156):
- ImageMagick 6 has no APNG reader of its own: `APNG:` goes through its
  ffmpeg delegate (so it is not independent of ffmpeg), which gives no
  delays (%T = 0), resamples to ffmpeg's guessed constant frame rate
  (repeated frames are merged back here), and hands over finished frames
  without disposal, so `-coalesce` would paint each over the previous one
  (handled with `-set dispose Background`). For a one-frame APNG the guessed
  rate is 100000 fps: 0.4 s becomes a 2.3 GB temporary file, so IM is not
  run there. IM's own PNG coder reads the default image (frame 0), which is
  checked. Chromium is the third independent APNG decoder.
- Chromium's ImageDecoder: copyTo() with a format conversion rounds (±1),
  so frames are copied as decoded (BGRA/BGRX/RGBA/RGBX) and swizzled here;
  a one-frame APNG is a still image with no duration.
- WebP: Pillow, Chromium and webp_compose round partial-alpha OVER the
  same way (libwebp's integer arithmetic, see webp_compose.py); Throbber's
  files only blend fully opaque or fully clear source pixels, so the
  lossless check is exact with no tolerance.
Prints a JSON report; "problems" lists every failed check (empty = pass),
"notes" what a decoder could not do here.
"""
import glob as globmod, hashlib, json, math, os, re, struct, subprocess, sys, tempfile, zlib
from fractions import Fraction

import numpy as np
from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import chromium_cdp  # noqa: E402
import webp_compose  # noqa: E402

MAX_LISTED = 8  # problems of one kind listed before "… and N more"


class Report:
    def __init__(self):
        self.problems, self.notes, self.data = [], [], {}

    def problem(self, text):
        self.problems.append(text)

    def many(self, prefix, items):
        """One problem listing up to MAX_LISTED items."""
        if items:
            more = f" … and {len(items) - MAX_LISTED} more" if len(items) > MAX_LISTED else ""
            self.problem(prefix + "; ".join(items[:MAX_LISTED]) + more)


def run(cmd, **kw):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({r.returncode}): {r.stderr.decode(errors='replace')[-2000:]}")
    return r.stdout


def norm(a):
    a = np.array(a, dtype=np.uint8, copy=True)
    a[a[..., 3] == 0] = 0
    return a


def digest(a):
    return hashlib.sha256(np.ascontiguousarray(a).tobytes()).hexdigest()


def diff_text(a, b):
    """None when equal, else how they differ."""
    if a.shape != b.shape:
        return f"size {a.shape[1]}x{a.shape[0]} vs {b.shape[1]}x{b.shape[0]}"
    d = np.abs(a.astype(np.int16) - b.astype(np.int16))
    bad = d.max(axis=2) > 0
    n = int(bad.sum())
    if n == 0:
        return None
    y, x = [int(v) for v in np.argwhere(bad)[0]]
    return f"{n} pixels differ (max {int(d.max())}), first at ({x},{y}): {a[y, x].tolist()} vs {b[y, x].tolist()}"


def psnr(a, b):
    mse = float(np.mean((a.astype(np.float64) - b.astype(np.float64)) ** 2))
    return 99.0 if mse == 0 else min(99.0, 10 * math.log10(255 * 255 / mse))


def colors(a):
    return len(np.unique(a.reshape(-1, 4).view(np.uint32)))


def cs(t):
    """floor(100·t + 1/2) for an exact time t in seconds."""
    return math.floor(t * 100 + Fraction(1, 2))


def ms(t):
    """floor(1000·t + 1/2) for an exact time t in seconds."""
    return math.floor(t * 1000 + Fraction(1, 2))


def timeline(expected, unit):
    """Frame starts (and the end) and delays in a file's unit, for frames
    (image, exact duration, …): each start is the exact start rounded by
    unit (cs or ms), so rounding never adds up along the animation."""
    starts, t = [], Fraction(0)
    for e in expected:
        starts.append(unit(t))
        t += e[1]
    starts.append(unit(t))
    return starts, [b - a for a, b in zip(starts, starts[1:])]


def clear_differs(a, b):
    """Where one RGBA image is fully clear and the other is not."""
    return (a[..., 3] == 0) != (b[..., 3] == 0)


def fr(x):
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


# ---------------------------------------------------------------- APNG file


def read_apng(path, report):
    """Parses the chunks, checks the APNG structure (pngcheck 3.0.3 skips
    acTL/fcTL/fdAT as unknown chunks) and returns the frames' fcTL fields."""
    data = open(path, "rb").read()
    bad = []
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        report.problem(f"APNG structure: {path} has no PNG signature")
        return None
    pos, chunks = 8, []
    while pos + 12 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        crc = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])[0]
        if zlib.crc32(kind + body) != crc:
            bad.append(f"bad CRC in {kind.decode(errors='replace')} at {pos}")
        chunks.append((kind.decode("latin-1"), body))
        pos += 12 + length
    if pos != len(data):
        bad.append(f"{len(data) - pos} stray bytes after the last chunk")
    names = [c[0] for c in chunks]
    if not names or names[0] != "IHDR":
        report.problem("APNG structure: IHDR is not the first chunk")
        return None
    if names[-1] != "IEND":
        bad.append("IEND is not the last chunk")
    w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", chunks[0][1])
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}.get(ctype)
    if channels is None:
        report.problem(f"APNG structure: color type {ctype}")
        return None
    if "acTL" not in names:
        report.problem("APNG structure: no acTL chunk (not animated)")
        return None
    first_idat = names.index("IDAT") if "IDAT" in names else len(names)
    if names.index("acTL") > first_idat:
        bad.append("acTL after IDAT")
    if names.count("acTL") != 1:
        bad.append(f"{names.count('acTL')} acTL chunks")
    num_frames, num_plays = struct.unpack(">II", chunks[names.index("acTL")][1])
    frames, seq, current, seen_fdat = [], 0, None, False
    for i, (kind, body) in enumerate(chunks):
        if kind == "fcTL":
            if len(body) != 26:
                bad.append(f"fcTL of {len(body)} bytes")
                continue
            s, fw, fh, fx, fy, dn, dd, dispose, blend = struct.unpack(">IIIIIHHBB", body)
            if s != seq:
                bad.append(f"fcTL sequence number {s}, expected {seq}")
            seq = s + 1
            current = {"x": fx, "y": fy, "w": fw, "h": fh, "delay": Fraction(dn, dd or 100),
                       "delay_raw": [dn, dd], "dispose": dispose, "blend": blend, "data": b"",
                       "default_image": i < first_idat}
            frames.append(current)
            if fw == 0 or fh == 0 or fx + fw > w or fy + fh > h:
                bad.append(f"frame {len(frames) - 1}: region {fw}x{fh}+{fx}+{fy} outside the {w}x{h} canvas")
            if dispose > 2 or blend > 1:
                bad.append(f"frame {len(frames) - 1}: dispose_op {dispose}, blend_op {blend}")
        elif kind == "IDAT":
            if seen_fdat:
                bad.append("IDAT after fdAT")
            if current is not None and current["default_image"]:
                current["data"] += body
        elif kind == "fdAT":
            seen_fdat = True
            s = struct.unpack(">I", body[:4])[0]
            if s != seq:
                bad.append(f"fdAT sequence number {s}, expected {seq}")
            seq = s + 1
            if current is None or current["default_image"]:
                bad.append("fdAT without its fcTL")
            else:
                current["data"] += body[4:]
    if len(frames) != num_frames:
        bad.append(f"acTL says {num_frames} frames, the file has {len(frames)} fcTL")
    if not frames or not frames[0]["default_image"]:
        bad.append("the first frame is not the default image (fcTL before IDAT)")
    elif (frames[0]["x"], frames[0]["y"], frames[0]["w"], frames[0]["h"]) != (0, 0, w, h):
        bad.append("the first fcTL does not cover the canvas")
    if interlace != 0:
        bad.append("interlaced (not expected from Throbber)")
    for k, f in enumerate(frames):
        row = (f["w"] * channels * depth + 7) // 8
        try:
            raw = zlib.decompress(f["data"])
        except zlib.error as e:
            bad.append(f"frame {k}: zlib: {e}")
            continue
        if len(raw) != f["h"] * (1 + row):
            bad.append(f"frame {k}: {len(raw)} bytes of rows, expected {f['h'] * (1 + row)}")
        elif any(raw[y * (1 + row)] > 4 for y in range(f["h"])):
            bad.append(f"frame {k}: a row has a filter type above 4")
        del f["data"]
    report.many("APNG structure: ", bad)
    return {"width": w, "height": h, "color_type": ctype, "bit_depth": depth,
            "num_plays": num_plays, "frames": frames}


# ---------------------------------------------------------------- decoders


def decode_pillow(path):
    if is_png(path):
        return decode_pillow_apng(path)
    im = Image.open(path)
    frames, durations = [], []
    for i in range(getattr(im, "n_frames", 1)):
        im.seek(i)
        frames.append(norm(np.asarray(im.convert("RGBA"))))
        durations.append(im.info.get("duration"))
    return {"frames": frames, "durations": durations, "loop": im.info.get("loop")}


def is_png(path):
    with open(path, "rb") as f:
        return f.read(8) == b"\x89PNG\r\n\x1a\n"


def decode_pillow_apng(path):
    """Pillow's APNG frames, from anim_reference.py's pillow mode in a
    process of its own: the pinned Pillow (apng_pillow.py), where GIF and
    WebP here keep Debian's."""
    with tempfile.TemporaryDirectory() as d:
        info = json.loads(run([sys.executable, os.path.join(HERE, "anim_reference.py"), "pillow", path, d]))
        w, h = info["width"], info["height"]
        frames = [norm(np.fromfile(os.path.join(d, "frame_%04d.rgba" % i), np.uint8).reshape(h, w, 4))
                  for i in range(info["count"])]
    return {"frames": frames, "durations": info["durations"], "loop": info["loop"]}


def decode_ffmpeg(path, w, h):
    raw = run(["ffmpeg", "-v", "error", "-nostdin", "-i", path, "-map", "0:v:0", "-f", "rawvideo",
               "-pix_fmt", "rgba", "-fps_mode", "passthrough", "-"])
    size = w * h * 4
    if len(raw) % size:
        raise RuntimeError(f"ffmpeg gave {len(raw)} bytes, not a whole number of {w}x{h} frames")
    arr = np.frombuffer(raw, np.uint8).reshape(-1, h, w, 4)
    probe = json.loads(run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries",
                            "stream=time_base,r_frame_rate:frame=pkt_duration,duration", "-of", "json", path]))
    tb = Fraction(probe["streams"][0]["time_base"])
    durations = []
    for f in probe["frames"]:
        units = f.get("pkt_duration", f.get("duration"))
        durations.append(None if units in (None, "N/A") else int(units) * tb)
    return {"frames": [norm(a) for a in arr], "durations": durations, "time_base": tb,
            "frame_rate": Fraction(probe["streams"][0]["r_frame_rate"])}


def decode_imagemagick(path, prefix, w, h):
    # IM 6 reads APNG through its ffmpeg "video" delegate, which hands over
    # finished frames with no disposal: -coalesce would then paint each over
    # the previous one (partial alpha accumulates), so each is set to be
    # cleared first. GIFs go through IM's own GIF coder and plain -coalesce.
    pre = ["-set", "dispose", "Background"] if prefix == "APNG:" else []
    # One decode: the frame list goes to a file ("info:"), the pixels to stdout.
    with tempfile.TemporaryDirectory() as tmp:
        listing = os.path.join(tmp, "frames.txt")
        raw = run(["convert", prefix + path] + pre + ["-coalesce", "-format", "%T %W %H\n",
                                                     "-write", "info:" + listing, "-depth", "8", "rgba:-"])
        with open(listing) as f:
            info = f.read().split()
    rows = [info[i:i + 3] for i in range(0, len(info), 3)]
    if any((int(r[1]), int(r[2])) != (w, h) for r in rows):
        raise RuntimeError(f"ImageMagick canvas sizes {sorted(set((r[1], r[2]) for r in rows))}, expected {w}x{h}")
    size = w * h * 4
    if len(raw) % size:
        raise RuntimeError(f"ImageMagick gave {len(raw)} bytes, not a whole number of {w}x{h} frames")
    arr = np.frombuffer(raw, np.uint8).reshape(-1, h, w, 4)
    frames, durations = [norm(a) for a in arr], [int(r[0]) for r in rows]
    if prefix == "APNG:":
        # The delegate's ffmpeg writes a constant frame rate, repeating a
        # frame that lasts several frame periods: merge identical neighbours.
        # (Throbber's APNG has none, its frames are merged already.)
        kept = [0] + [i for i in range(1, len(frames)) if not np.array_equal(frames[i], frames[i - 1])]
        frames, durations = [frames[i] for i in kept], [durations[i] for i in kept]
    return {"frames": frames, "durations": durations}


def imagemagick_png_default_image(path, w, h):
    """IM's own PNG coder (libpng, no APNG support) reads the default image."""
    raw = run(["convert", "PNG:" + path, "-depth", "8", "rgba:-"])
    if len(raw) != w * h * 4:
        raise RuntimeError(f"ImageMagick's PNG coder gave {len(raw)} bytes for a {w}x{h} image")
    return norm(np.frombuffer(raw, np.uint8).reshape(h, w, 4))


def decode_all(path, fmt, chromium, report, label):
    """{decoder: {"frames": [...], "durations": [...]}}; a decoder that fails
    is a problem (it is expected to read these files)."""
    im = Image.open(path)
    w, h = im.size
    out = {}
    if fmt == "webp":
        decoders = [("pillow", lambda: decode_pillow(path)),
                    ("dwebp", lambda: decode_webp_compose(path, "dwebp")),
                    ("ffmpeg", lambda: decode_webp_compose(path, "ffmpeg"))]
    else:
        decoders = [("pillow", lambda: decode_pillow(path)),
                    ("ffmpeg", lambda: decode_ffmpeg(path, w, h)),
                    ("imagemagick", lambda: decode_imagemagick(path, "APNG:" if fmt == "apng" else "GIF:", w, h))]
    for name, fn in decoders:
        if name == "imagemagick" and fmt == "apng" and "ffmpeg" in out:
            # IM's delegate runs ffmpeg at a constant frame rate: ffmpeg's
            # guess for the stream (r_frame_rate), 100000 fps (its APNG time
            # base) for a one-frame APNG, so 0.4 s makes 40000 frames (2.3 GB).
            ff = out["ffmpeg"]
            total = sum(d for d in ff["durations"] if d is not None)
            if len(ff["frames"]) < 2 or total * ff["frame_rate"] > 5000:
                report.notes.append(f"{label}: ImageMagick not run: its ffmpeg delegate would write "
                                    f"{fr(total * ff['frame_rate'])} frames ({fr(ff['frame_rate'])} fps for {fr(total)} s)")
                continue
        try:
            out[name] = fn()
        except Exception as e:  # noqa: BLE001 - reported, not hidden
            report.problem(f"{label}: {name} could not decode it: {e}")
    if chromium is not None and path in chromium:
        frames = chromium[path]
        if any((fw, fh) != (w, h) for fw, fh, _, _ in frames):
            report.problem(f"{label}: chromium frame sizes differ from {w}x{h}")
        else:
            out["chromium"] = {"frames": [norm(np.frombuffer(px, np.uint8).reshape(h, w, 4)) for _, _, _, px in frames],
                               "durations": [d for _, _, d, _ in frames]}
    return w, h, out


def decode_webp_compose(path, still_decoder):
    """webp_compose.py: our compositing, frames decoded by dwebp or ffmpeg."""
    _, frames = webp_compose.decode(path, still_decoder)
    return {"frames": [norm(a) for a, _ in frames], "durations": [d for _, d in frames]}


def check_agreement(decoded, report, label, exact=True, spread=None):
    """Every decoder gives Pillow's frames exactly. Not exact (lossy WebP):
    only the frame counts must match; spread gets each decoder's worst
    PSNR against Pillow."""
    if "pillow" not in decoded:
        return None
    ref = decoded["pillow"]["frames"]
    for name, d in decoded.items():
        if name == "pillow":
            continue
        if len(d["frames"]) != len(ref):
            report.problem(f"{label}: {name} decodes {len(d['frames'])} frames, pillow {len(ref)}")
            continue
        if not exact:
            if spread is not None:
                spread[name] = round(min(psnr(a, b) for a, b in zip(d["frames"], ref)), 2)
            continue
        report.many(f"{label}: {name} and pillow disagree: ",
                    [f"frame {i}: {t}" for i, (a, b) in enumerate(zip(d["frames"], ref)) if (t := diff_text(a, b))])
    return ref


# ---------------------------------------------------------------- reference


def natural_key(name):
    return [(0, int(t), len(t)) if t.isdigit() else (1, t, 0) for t in re.split(r"(\d+)", name) if t]


def read_folder(folder, pattern, fps, duplicate):
    files = sorted((p for p in globmod.glob(os.path.join(folder, pattern)) if os.path.isfile(p)),
                   key=lambda p: natural_key(os.path.basename(p)))
    if not files:
        raise RuntimeError(f"no frames match {pattern} in {folder}")
    slot = 1 / Fraction(fps)
    slots = []
    for p in files:
        img = norm(np.asarray(Image.open(p).convert("RGBA")))
        slots += [(img, slot)] * duplicate
    return slots, files


def number(v):
    return Fraction(v) if isinstance(v, str) else Fraction(str(v))


def lcm(a, b):
    return Fraction(math.lcm(a.numerator, b.numerator), math.gcd(a.denominator, b.denominator))


def config_cycle(config):
    """(cycle D, fps) from a layers config, by the config format's rules."""
    timing = config.get("timing", {})
    fps = number(timing.get("fps", 25))
    step = number(timing.get("step", "1/4"))
    if "duration" in timing:
        return number(timing["duration"]), fps
    periods = []

    def walk(layers):
        for layer in layers:
            for a in layer.get("animate", []):
                if a["kind"] == "keyframes":
                    periods.append(number(a["period"]))
                elif a["kind"] == "step":
                    by = number(a["by"])
                    if "bounce" in a:
                        lo, hi = (number(v) for v in a["bounce"])
                        steps = 2 * (hi - lo) / abs(by)
                    elif a["property"] == "rotate":
                        steps = Fraction((by / 360).denominator)
                    else:
                        raise RuntimeError(f"no period rule for a step animation of {a['property']} without bounce")
                    if steps.denominator != 1:
                        raise RuntimeError(f"step animation {a} has no whole number of steps per period")
                    periods.append(steps * step)
                else:
                    raise RuntimeError(f"unknown animation kind {a['kind']}")
            if "group" in layer:
                walk(layer["group"])

    walk(config.get("layers", []))
    if not periods:
        raise RuntimeError("a layers config without animations")
    cycle = periods[0]
    for p in periods[1:]:
        cycle = lcm(cycle, p)
    return cycle, fps


def matte_of(text):
    if text is None:
        return None
    names = {"white": "#ffffff", "black": "#000000"}
    text = names.get(text, text)
    if not re.fullmatch(r"#[0-9a-fA-F]{6}", text):
        raise RuntimeError(f"matte {text!r}: only #RRGGBB, white and black are handled here")
    return [int(text[i:i + 2], 16) for i in (1, 3, 5)]


def gif_alpha(a, matte):
    """GIF's alpha policy (README "Alpha", the config's `encode` block in man throbber)."""
    x = a.astype(np.int32)
    alpha = x[..., 3]
    out = x.copy()
    partial = (alpha > 0) & (alpha < 255)
    if matte is not None:
        m = np.array(matte, np.int32)
        al = alpha[partial][:, None]
        out[partial, :3] = (x[partial, :3] * al + m * (255 - al) + 127) // 255
        out[partial, 3] = 255
    else:
        out[(alpha >= 128), 3] = 255
        out[alpha < 128] = 0
    out[alpha == 0] = 0
    return out.astype(np.uint8)


def merge(slots):
    """Identical neighbours merged: [(image, duration, first slot index)]."""
    out = []
    for i, (img, d) in enumerate(slots):
        if out and np.array_equal(out[-1][0], img):
            out[-1] = (out[-1][0], out[-1][1] + d, out[-1][2])
        else:
            out.append((img, d, i))
    return out


# ---------------------------------------------------------------- checks


def check_durations(fmt, decoded, expected, report, label):
    """expected: exact seconds per frame (APNG), centiseconds (GIF) or
    milliseconds (WebP)."""
    units = {}
    for name, d in decoded.items():
        got = d["durations"]
        if len(got) != len(expected):
            continue  # frame count already reported
        bad = []
        for i, (g, e) in enumerate(zip(got, expected)):
            if fmt == "gif":
                want = {"pillow": e * 10, "ffmpeg": Fraction(e, 100), "imagemagick": e, "chromium": e * 10000}[name]
                if g != want:
                    bad.append(f"frame {i}: {g}, expected {want}")
            elif fmt == "webp":
                if g is None and len(got) == 1:
                    report.notes.append(f"{label}: {name} reports no duration for a one-frame WebP (a still image)")
                    continue
                want = e * 1000 if name == "chromium" else e  # Chromium: µs; the others: ms
                if g != want:
                    bad.append(f"frame {i}: {g}, expected {want}")
            else:
                if name == "imagemagick":
                    continue
                if name == "pillow":   # float milliseconds
                    ok = g is not None and abs(Fraction(g) / 1000 - e) <= Fraction(1, 10**9)
                    shown = g
                elif name == "ffmpeg":  # rounded to the demuxer's time base (1/100000 s)
                    tb = d["time_base"]
                    ok = g is not None and abs(g - e) <= tb / 2
                    shown = f"{fr(g)} s" if g is not None else None
                else:                   # chromium: Blink keeps whole milliseconds (µs reported)
                    if g is None and len(got) == 1:
                        report.notes.append(f"{label}: Chromium reports no duration for a one-frame APNG (a still image)")
                        continue
                    ok = g is not None and abs(Fraction(g, 10**6) - e) < Fraction(1, 1000)
                    shown = f"{g} µs"
                if not ok:
                    bad.append(f"frame {i}: {shown}, expected {fr(e)} s")
        report.many(f"{label}: {name} durations: ", bad)
        units[name] = len(got)
    if fmt == "apng" and "imagemagick" in decoded:
        ims = decoded["imagemagick"]["durations"]
        if all(t == 0 for t in ims):
            report.notes.append(f"{label}: ImageMagick 6 reads APNG only through its ffmpeg delegate, which passes no "
                                f"frame delays (%T = 0 for every frame): its APNG durations are not checked")
        else:
            report.problem(f"{label}: ImageMagick now reports APNG delays {ims[:5]}…: check them (the test assumes it cannot)")


def check_apng(path, slots_or_none, config_slot, chromium, report):
    label = "APNG"
    info = read_apng(path, report)
    try:
        pc = subprocess.run(["pngcheck", path], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        report.data["pngcheck"] = pc.stdout.decode(errors="replace").strip()
        if pc.returncode != 0:
            report.problem(f"pngcheck failed ({pc.returncode}): {report.data['pngcheck']}")
    except FileNotFoundError:
        report.problem("pngcheck is not installed")
    w, h, decoded = decode_all(path, "apng", chromium, report, label)
    ref = check_agreement(decoded, report, label)
    summary = {"width": w, "height": h, "decoders": sorted(decoded)}
    report.data["apng"] = summary
    if info is None or ref is None:
        return None
    summary.update(frames=len(info["frames"]), color_type=info["color_type"], bit_depth=info["bit_depth"],
                   num_plays=info["num_plays"],
                   delays=[fr(f["delay"]) for f in info["frames"]],
                   blend_over=sum(f["blend"] == 1 for f in info["frames"]),
                   partial_frames=sum((f["w"], f["h"]) != (w, h) for f in info["frames"]))
    if info["num_plays"] != 0:
        report.problem(f"APNG: acTL num_plays {info['num_plays']}, expected 0 (forever)")
    try:
        default = imagemagick_png_default_image(path, w, h)
        if (t := diff_text(default, ref[0])):
            report.problem(f"APNG: ImageMagick's PNG coder (default image) and frame 0 differ: {t}")
        summary["decoders"].append("imagemagick-png-default-image")
    except Exception as e:  # noqa: BLE001
        report.problem(f"APNG: ImageMagick's PNG coder could not read the default image: {e}")
    if len(info["frames"]) != len(ref):
        report.problem(f"APNG: {len(info['frames'])} fcTL but pillow decodes {len(ref)} frames")
        return None
    if slots_or_none is None:
        # Layers config: the slots come from the agreed decode and the fcTL delays.
        slot = config_slot["slot"]
        slots, bad = [], []
        for i, (img, f) in enumerate(zip(ref, info["frames"])):
            m = f["delay"] / slot
            if m.denominator != 1 or m < 1:
                bad.append(f"frame {i} lasts {fr(f['delay'])} s, not a whole number of {fr(slot)} s slots")
            slots += [(img, slot)] * max(1, math.floor(m))
        report.many("APNG timing: ", bad)
        if len(slots) != config_slot["count"]:
            report.problem(f"APNG timing: the frames fill {len(slots)} slots of {fr(slot)} s, "
                           f"the cycle has {config_slot['count']} ({fr(config_slot['cycle'])} s at {fr(config_slot['fps'])} fps)")
        if bad:
            return None
    else:
        slots = slots_or_none
    expected = merge(slots)
    summary["reference_frames"] = len(expected)
    if len(ref) != len(expected):
        report.problem(f"APNG: {len(ref)} frames, the reference has {len(expected)} after merging identical neighbours "
                       f"(reference frame starts at slots {[e[2] for e in expected][:40]})")
    else:
        report.many("APNG vs the source frames: ",
                    [f"frame {i} (slot {e[2]}): {t}" for i, (a, e) in enumerate(zip(ref, expected)) if (t := diff_text(a, e[0]))])
        bad = [f"frame {i}: fcTL {fr(f['delay'])} s, expected {fr(e[1])} s"
               for i, (f, e) in enumerate(zip(info["frames"], expected)) if f["delay"] != e[1]]
        report.many("APNG fcTL delays: ", bad)
    check_durations("apng", decoded, [e[1] for e in expected], report, label)
    if decoded.get("pillow", {}).get("loop") not in (0, None):
        report.problem(f"APNG: Pillow reads loop {decoded['pillow']['loop']}, expected 0")
    return slots


def check_gif(path, slots, matte, psnr_floor, chromium, report, lossy=False):
    label = "GIF"
    w, h, decoded = decode_all(path, "gif", chromium, report, label)
    ref = check_agreement(decoded, report, label)
    summary = {"width": w, "height": h, "decoders": sorted(decoded)}
    report.data["gif"] = summary
    if ref is None or slots is None:
        if slots is None:
            report.problem("GIF: no reference (the APNG checks above failed)")
        return
    expected = merge([(gif_alpha(img, matte), d) for img, d in slots])
    lossless = not lossy and all(colors(e[0]) <= 256 for e in expected)
    summary.update(frames=len(ref), reference_frames=len(expected), lossless=lossless,
                   most_colors=max(colors(e[0]) for e in expected))
    if len(ref) != len(expected):
        report.problem(f"GIF: {len(ref)} frames, the reference has {len(expected)} after the alpha cut and merging "
                       f"identical neighbours")
        return
    if lossless:
        report.many("GIF vs the source frames (few colors: must be exact): ",
                    [f"frame {i} (slot {e[2]}): {t}" for i, (a, e) in enumerate(zip(ref, expected)) if (t := diff_text(a, e[0]))])
    else:
        values = [psnr(a, e[0]) for a, e in zip(ref, expected)]
        summary["min_psnr"] = round(min(values), 2)
        summary["mean_psnr"] = round(sum(values) / len(values), 2)
        report.many(f"GIF (quantized) below the {psnr_floor} dB floor: ",
                    [f"frame {i}: {v:.2f} dB" for i, v in enumerate(values) if v < psnr_floor])
        # Transparency is not quantized: the alpha cut must survive exactly.
        report.many("GIF (quantized) transparency differs from the source's: ",
                    [f"frame {i}: {int(o.sum())} pixels"
                     for i, (a, e) in enumerate(zip(ref, expected)) if (o := clear_differs(a, e[0])).any()])
    _, delays = timeline(expected, cs)
    summary["delays_cs"] = delays
    check_durations("gif", decoded, delays, report, label)
    if decoded.get("pillow", {}).get("loop") != 0:
        report.problem(f"GIF: Pillow reads loop {decoded.get('pillow', {}).get('loop')}, expected 0 (forever)")


def check_webp(path, slots, psnr_floor, chromium, report, lossy=False):
    label = "WebP"
    try:
        info = webp_compose.parse(path)
    except webp_compose.WebPError as e:
        report.problem(f"WebP structure: {e}")
        info = None
    try:
        wm = subprocess.run(["webpmux", "-info", path], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        text = wm.stdout.decode(errors="replace").strip()
        report.data["webpmux"] = "\n".join(text.splitlines()[:4])
        if wm.returncode != 0:
            report.problem(f"webpmux -info failed ({wm.returncode}): {text[-2000:]}")
        elif info is not None and info["animated"]:
            loop = re.search(r"Loop Count\s*:\s*(\d+)", text)
            count = re.search(r"Number of frames:\s*(\d+)", text)
            if not loop or int(loop.group(1)) != 0:
                report.problem(f"webpmux -info: loop count {loop and loop.group(1)}, expected 0 (forever)")
            if not count or int(count.group(1)) != len(info["frames"]):
                report.problem(f"webpmux -info: {count and count.group(1)} frames, the ANMF chunks are {len(info['frames'])}")
    except FileNotFoundError:
        report.problem("webpmux is not installed (Debian package 'webp')")
    vp8 = info is not None and any(f["lossy"] for f in info["frames"])
    lossy = lossy or vp8
    w, h, decoded = decode_all(path, "webp", chromium, report, label)
    spread = {}
    # VP8L frames (lossless coding, also of a palette WebP's quantized
    # frames) decode to the same pixels everywhere; VP8's YUV does not.
    ref = check_agreement(decoded, report, label, exact=not vp8, spread=spread)
    summary = {"width": w, "height": h, "decoders": sorted(decoded), "lossless": not lossy}
    report.data["webp"] = summary
    if info is not None:
        frames = info["frames"]
        summary.update(animated=info["animated"], loop_count=info["loop"],
                       lossy_frames=sum(f["lossy"] for f in frames),
                       blend_over=sum(f["blend"] for f in frames),
                       dispose_background=sum(f["dispose"] for f in frames),
                       partial_frames=sum((f["w"], f["h"]) != (w, h) for f in frames))
        if (info["width"], info["height"]) != (w, h):
            report.problem(f"WebP: canvas {info['width']}x{info['height']}, Pillow reads {w}x{h}")
        if info["animated"] and info["loop"] != 0:
            report.problem(f"WebP: ANIM loop count {info['loop']}, expected 0 (forever)")
        if "warning" in info:
            report.problem(f"WebP structure: {info['warning']}")
    if lossy:
        summary["decoder_psnr_vs_pillow"] = spread
    if ref is None or slots is None:
        if slots is None:
            report.problem("WebP: no reference (the APNG checks above failed)")
        return
    expected = merge(slots)
    starts, delays = timeline(expected, ms)
    summary.update(frames=len(ref), reference_frames=len(expected), delays_ms=delays)
    # shown[j]: the file's frame on screen when reference frame j starts.
    shown = list(range(len(expected)))
    if lossy and info is not None and info["animated"] and len(ref) < len(expected):
        # Lossy WebPAnimEncoder also merges neighbours that differ by less
        # than its lossy tolerance: each frame must then start where a
        # reference frame starts, and the total time is kept.
        got = [0]
        for f in info["frames"]:
            got.append(got[-1] + f["duration"])
        if got[-1] != starts[-1] or not set(got) <= set(starts):
            report.problem(f"WebP (lossy): {len(ref)} frames starting at {got[:40]} ms, not a merge of the "
                           f"reference's {len(expected)} starting at {starts[:40]} ms")
            return
        shown = [sum(g <= s for g in got[:-1]) - 1 for s in starts[:-1]]
        delays = [b - a for a, b in zip(got, got[1:])]
        summary["merged_similar"] = len(expected) - len(ref)
    elif len(ref) != len(expected):
        report.problem(f"WebP: {len(ref)} frames, the reference has {len(expected)} after merging identical neighbours "
                       f"(reference frame starts at slots {[e[2] for e in expected][:40]})")
        return
    if not lossy:
        report.many("WebP vs the source frames (lossless: must be exact): ",
                    [f"frame {i} (slot {e[2]}): {t}" for i, (a, e) in enumerate(zip(ref, expected)) if (t := diff_text(a, e[0]))])
    else:
        worst = []
        for name, d in sorted(decoded.items()):
            if len(d["frames"]) != len(ref):
                continue
            values = [psnr(d["frames"][k], e[0]) for k, e in zip(shown, expected)]
            worst.append(min(values))
            if name == "pillow":
                summary["mean_psnr"] = round(sum(values) / len(values), 2)
            report.many(f"WebP (lossy) {name} below the {psnr_floor} dB floor: ",
                        [f"frame {i}: {v:.2f} dB" for i, v in enumerate(values) if v < psnr_floor])
            # VP8 keeps alpha lossless: clear exactly where the source is. A
            # palette quantizes alpha too (alpha 2 may become 0), so there
            # only what the source clears must stay clear.
            off = [(d["frames"][k][..., 3] != 0) & (e[0][..., 3] == 0) if not vp8 else
                   clear_differs(d["frames"][k], e[0]) for k, e in zip(shown, expected)]
            report.many(f"WebP (lossy) {name}: transparency differs from the source's: ",
                        [f"reference frame {j}: {int(o.sum())} pixels" for j, o in enumerate(off) if o.any()])
        summary["min_psnr"] = round(min(worst), 2)
    if info is not None and not info["animated"]:
        # WebPAnimEncoder writes a one-frame animation as a still image.
        report.notes.append(f"{label}: a still WebP (no ANIM/ANMF) has no duration: the one frame's "
                            f"{sum(delays)} ms are not stored and no decoder's duration is checked")
        return
    if info is not None:
        report.many("WebP ANMF durations: ", [f"frame {i}: {f['duration']} ms, expected {e} ms"
                                              for i, (f, e) in enumerate(zip(info["frames"], delays)) if f["duration"] != e])
    check_durations("webp", decoded, delays, report, label)
    if info is not None and info["animated"] and decoded.get("pillow", {}).get("loop") != 0:
        report.problem(f"WebP: Pillow reads loop {decoded.get('pillow', {}).get('loop')}, expected 0 (forever)")


def main():
    arg = sys.argv[1]
    spec = json.load(open(arg)) if os.path.isfile(arg) else json.loads(arg)
    report = Report()
    ref = spec["reference"]
    slots, config_slot, matte = None, None, matte_of(ref.get("matte"))
    if "config" in ref:
        path = ref["config"]
        config = json.load(open(path))
        matte = matte_of(config.get("encode", {}).get("matte"))
        if "frames" in config:
            fcfg = config["frames"]
            unknown = set(fcfg) - {"dir", "glob", "sort"} | set(config) - {"version", "frames", "timing", "duplicate", "encode", "output"}
            if unknown or fcfg.get("sort", "natural") != "natural" or set(config.get("timing", {})) - {"fps"}:
                raise RuntimeError(f"frames config keys this checker does not model: {sorted(unknown)}")
            slots, files = read_folder(os.path.join(os.path.dirname(path), fcfg["dir"]), fcfg.get("glob", "*"),
                                       config.get("timing", {}).get("fps", 25), config.get("duplicate", 1))
            report.data["sources"] = len(files)
        else:
            cycle, fps = config_cycle(config)
            count = math.floor(cycle * fps + Fraction(1, 2))
            config_slot = {"cycle": cycle, "fps": fps, "count": count, "slot": cycle / count}
            report.data["timeline"] = {"cycle": fr(cycle), "fps": fr(fps), "slots": count, "slot": fr(cycle / count)}
    else:
        slots, files = read_folder(ref["dir"], ref.get("glob", "*.png"), ref.get("fps", "25"), ref.get("duplicate", 1))
        report.data["sources"] = len(files)
        report.data["source_colors"] = max(colors(s[0]) for s in slots)
    chromium = None
    files = [p for p in (spec.get("apng"), spec.get("gif"), spec.get("webp")) if p]
    try:
        chromium = chromium_cdp.decode_images(files)
    except Exception as e:  # noqa: BLE001
        report.problem(f"chromium could not decode the files: {e}")
    if spec.get("apng"):
        apng_slots = check_apng(spec["apng"], slots, config_slot, chromium, report)
        if slots is None:
            slots = apng_slots
    elif slots is None:
        raise RuntimeError("a layers config needs its APNG as the reference for the GIF and WebP")
    if spec.get("gif"):
        check_gif(spec["gif"], slots, matte, spec.get("psnr_floor", 35), chromium, report,
                  lossy=bool(spec.get("lossy")))
    if spec.get("webp"):
        check_webp(spec["webp"], slots, spec.get("psnr_floor", 35), chromium, report,
                   lossy=bool(spec.get("webp_lossy")))
    json.dump({"problems": report.problems, "notes": report.notes, **report.data}, sys.stdout)


main()
