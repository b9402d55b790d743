"""Generated cases for scripts/mutate-run: small file sets built from a
seeded random number generator, each aimed at one class of hostile input
that byte and JSON mutations of the seeds rarely reach.

Classes (CLASSES):
  lottie-nest  Lottie work bombs: nested repeaters, nested (also cyclic)
               precompositions, many layers, extreme w/h/ip/op/fr.
  embedded     Lottie image assets inlined as data: URIs (also in .lottie
               archives): PNGs of few bytes and huge dimensions, wrong
               declared sizes, truncated base64, data that is not a PNG.
  external     Lottie image assets naming files: ../ and absolute paths,
               FIFOs, devices, folders, a folder named " " in the case
               folder, dotLottie archives with such names.
  jpeg-bomb    JPEGs (baseline and progressive) whose frame header claims
               up to 65535x65535, truncated or with a zeroed range.
  manifest     `check` manifests with hostile args, outputs (dangling links
               out of the folder, FIFOs, shared), inputs (`-`, FIFOs,
               ../ and absolute paths) and --junit at the manifest.
  video-claims Videos made with ffmpeg that claim huge sizes, times or
               frame counts (scripts/mutate_video_claims.py).
  video-refs   Playlists, manifests, concat lists and SDP files in disguise,
               names that read as URLs, many streams, frames that outgrow
               their header, clips starting before 0, --from/--to drawn
               at random (scripts/mutate_video_refs.py).
  vector-groups, vector-steps, vector-picture, vector-numbers
               Configs whose vector export multiplies: nested repeated
               groups, huge steps(n), one picture shown many times,
               extreme numbers in every numeric key; each rendered to
               SVG, Lottie and GIF (scripts/mutate_vector.py).

Each case runs in its own folder (the working directory) with a sentinel
folder and a TMPDIR beside it; `run_case` applies the rules of
docs/reliability.md ("Mutated inputs") to every run.
"""
import base64, gzip, io, json, os, shutil, stat, struct, tempfile, threading, zipfile, zlib

CLASSES = ["lottie-nest", "embedded", "external", "jpeg-bomb", "manifest", "video-claims", "video-refs",
           "vector-groups", "vector-steps", "vector-picture", "vector-numbers"]
# Exit statuses a run may end with: check adds 1 (a mismatch or an entry
# that cannot be made), 2 (entries with no hash recorded yet) and 73 (an
# expected file that cannot be written).
ALLOWED = {0, 64, 65, 66, 74}
ALLOWED_CHECK = ALLOWED | {1, 2, 73}


# ---------------------------------------------------------------- PNG, JPEG


def png_chunk(kind, data):
    """One PNG chunk with its CRC."""
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def write_png(f, width, height, depth=8, color=6, level=9, palette=b"\x20\x80\xe0"):
    """Writes a PNG of one color (all bytes zero) to the open file f, row by
    row: a 60000x60000 image is never held whole in memory."""
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[color]
    row = b"\0" + bytes((width * channels * depth + 7) // 8)
    f.write(b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, depth, color, 0, 0, 0)))
    if color == 3:
        f.write(png_chunk(b"PLTE", palette))
    z = zlib.compressobj(level)
    pending, size = [], 0
    for _ in range(height):
        out = z.compress(row)
        if out:
            pending.append(out)
            size += len(out)
        if size > 1 << 20:
            f.write(png_chunk(b"IDAT", b"".join(pending)))
            pending, size = [], 0
    pending.append(z.flush())
    f.write(png_chunk(b"IDAT", b"".join(pending)) + png_chunk(b"IEND", b""))


def small_png(width=8, height=8):
    """A small valid PNG, as bytes."""
    buf = io.BytesIO()
    write_png(buf, width, height)
    return buf.getvalue()


# Few-byte PNGs of huge dimensions: (name, width, height, depth, color).
BOMBS = [
    ("gray1-16000", 16000, 16000, 1, 0),
    ("gray1-60000", 60000, 60000, 1, 0),
    ("rgba-8000", 8000, 8000, 8, 6),
    ("palette1-30000x3000", 30000, 3000, 1, 3),
    ("gray1-wide", 1000000, 4, 1, 0),
    ("gray1-tall", 1, 3000000, 1, 0),
]


class Assets:
    """Files every generated case may use, made once (on first use) in
    `folder` and shared by all threads."""

    def __init__(self, folder):
        self.folder = folder
        # Reentrant: an asset may be made from another (a video of a bomb PNG).
        self.lock = threading.RLock()
        self.made = {}

    def once(self, key, make):
        """What make() returns, called once for key by the first thread that
        asks."""
        with self.lock:
            if key not in self.made:
                self.made[key] = make()
            return self.made[key]

    def bomb(self, name):
        """Path of the bomb PNG `name` (one of BOMBS)."""
        def make():
            _, w, h, depth, color = next(b for b in BOMBS if b[0] == name)
            path = os.path.join(self.folder, "bomb-%s.png" % name)
            with open(path, "wb") as f:
                write_png(f, w, h, depth, color)
            return path
        return self.once(("bomb", name), make)

    def jpegs(self):
        """{"baseline": bytes, "progressive": bytes}: small real JPEGs
        (Pillow), 64x48, 4:2:0 and 4:4:4."""
        def make():
            try:
                from PIL import Image
            except ImportError:
                raise SystemExit("mutate-run: the jpeg-bomb class needs Pillow (python3-pil, scripts/install-deps)")
            img = Image.new("RGB", (64, 48))
            img.putdata([((x * 4) & 255, (y * 5) & 255, (x * y) & 255) for y in range(48) for x in range(64)])
            out = {}
            for name, opts in (("baseline", {}), ("progressive", {"progressive": True}),
                               ("baseline-444", {"subsampling": 0}), ("progressive-444", {"progressive": True,
                                                                                         "subsampling": 0})):
                buf = io.BytesIO()
                img.save(buf, "JPEG", quality=80, **opts)
                out[name] = buf.getvalue()
            return out
        return self.once("jpegs", make)


def patch_sof(data, width, height):
    """`data` with every SOFn frame header's width and height set."""
    data = bytearray(data)
    i = 2
    while i + 4 <= len(data):
        if data[i] != 0xFF:
            break
        marker = data[i + 1]
        length = struct.unpack(">H", data[i + 2:i + 4])[0]
        if marker in (0xC0, 0xC1, 0xC2, 0xC3) and i + 9 <= len(data):
            data[i + 5:i + 9] = struct.pack(">HH", height, width)
        if marker == 0xDA:
            break
        i += 2 + length
    return bytes(data)


# ---------------------------------------------------------------- Lottie


class Raw:
    """A number written as this exact JSON text (1e999, 2**63 ...)."""

    def __init__(self, text):
        self.text = text


def dump(doc):
    """JSON text of doc, Raw values written as their text."""
    raws = []

    def default(o):
        raws.append(o.text)
        return "\x00RAW%d\x00" % (len(raws) - 1)
    text = json.dumps(doc, default=default, separators=(",", ":"))
    for i, r in enumerate(raws):
        text = text.replace('"\\u0000RAW%d\\u0000"' % i, r)
    return text.encode()


def static(v):
    """A property that does not change."""
    return {"a": 0, "k": v}


def layer_ks(x=0, y=0, scale=100):
    """A layer's transform: at (x, y), scaled in percent."""
    return {"o": static(100), "r": static(0), "p": static([x, y, 0]), "a": static([0, 0, 0]),
            "s": static([scale, scale, 100])}


def group_tr(x=0, y=0):
    """A shape group's transform."""
    return {"ty": "tr", "p": static([x, y]), "a": static([0, 0]), "s": static([100, 100]), "r": static(0),
            "o": static(100)}


def dot(frames, size=10):
    """A moving red dot: an ellipse and a fill."""
    return [{"ty": "el", "p": {"a": 1, "k": [{"t": 0, "s": [0, 0], "e": [size * 3, 0],
                                             "i": {"x": [0.5], "y": [0.5]}, "o": {"x": [0.5], "y": [0.5]}},
                                            {"t": max(1, frames)}]},
             "s": static([size, size])},
            {"ty": "fl", "c": static([1, 0, 0, 1]), "o": static(100), "r": 1}]


def repeater(copies, shift=4):
    """A repeater of `copies` copies, each shifted and turned from the last."""
    return {"ty": "rp", "c": static(copies), "o": static(0), "m": 1,
            "tr": {"ty": "tr", "p": static([shift, 0]), "a": static([0, 0]), "s": static([100, 100]),
                   "r": static(7), "so": static(100), "eo": static(100)}}


def shape_layer(ind, shapes, ip, op, x=0, y=0):
    """A shape layer (ty 4) at (x, y)."""
    return {"ddd": 0, "ind": ind, "ty": 4, "nm": "s%d" % ind, "sr": 1, "ks": layer_ks(x, y), "ao": 0,
            "shapes": shapes, "ip": ip, "op": op, "st": 0, "bm": 0}


def precomp_layer(ind, ref, w, h, ip, op):
    """A precomposition layer (ty 0) showing asset `ref`."""
    return {"ddd": 0, "ind": ind, "ty": 0, "nm": "p%d" % ind, "refId": ref, "sr": 1, "ks": layer_ks(), "ao": 0,
            "w": w, "h": h, "ip": ip, "op": op, "st": 0, "bm": 0}


def image_layer(ind, ref, ip, op):
    """An image layer (ty 2) showing image asset `ref`."""
    return {"ddd": 0, "ind": ind, "ty": 2, "nm": "i%d" % ind, "refId": ref, "sr": 1, "ks": layer_ks(), "ao": 0,
            "ip": ip, "op": op, "st": 0, "bm": 0}


def animation(w, h, frames, layers, assets=(), fr=30, ip=0, op=None):
    """A Lottie document."""
    return {"v": "5.7.4", "fr": fr, "ip": ip, "op": frames if op is None else op, "w": w, "h": h, "nm": "g",
            "ddd": 0, "assets": list(assets), "layers": layers}


# Drawn pixels (width x height x frames) a plain case stays under, so that a
# case over the timeout is the input's fault, not the machine's.
PLAIN_PIXELS = 3e7
SIZES = [1, 8, 64, 240, 512, 1000, 2000, 3000]
FRAMES = [1, 2, 10, 30, 60, 120]
HUGE = [Raw("1e19"), Raw("1e308"), 100.5, -1, 2 ** 31, 2 ** 31 - 1, 0, Raw("2e9"), Raw("1e999"), Raw("-0"),
        65536, "100", None]
TIMES = [Raw("1e308"), Raw("-1e308"), 2 ** 31, 2 ** 63, Raw("1e19"), -1, 0, 0.5, Raw("1e-300"), 1e9]


def canvas(rng):
    """(w, h, frames, encode options) within PLAIN_PIXELS as drawn: a canvas
    over it is drawn narrower with --width."""
    w, h, frames = rng.choice(SIZES), rng.choice(SIZES), rng.choice(FRAMES)
    opts = []
    if w * h * frames > PLAIN_PIXELS or rng.random() < 0.3:
        width = rng.choice([16, 64, 240])
        opts = ["--width", str(width)]
        if width * (h * width / w) * frames > PLAIN_PIXELS:
            frames = max(1, int(PLAIN_PIXELS / (width * max(1, h * width / w))))
    return w, h, frames, opts


def extremes(rng, doc):
    """Sets one to three of w, h, fr, ip, op (or a layer's) to an extreme."""
    note = []
    for _ in range(rng.randint(1, 3)):
        key = rng.choice(["w", "h", "w", "h", "fr", "ip", "op", "layer-ip", "layer-op", "layer-st"])
        value = rng.choice(HUGE if key in ("w", "h") else TIMES)
        if key.startswith("layer-") and doc["layers"]:
            rng.choice(doc["layers"])[key[6:]] = value
        else:
            doc[key.replace("layer-", "")] = value
        note.append("%s=%s" % (key, value.text if isinstance(value, Raw) else value))
    return note


def gen_lottie_nest(rng, ctx):
    """A Lottie file whose drawing multiplies: nested repeaters, nested or
    cyclic precompositions, many layers; at times extreme sizes and times."""
    w, h, frames, opts = canvas(rng)
    kind = rng.choice(["repeaters", "repeaters", "precomps", "precomps", "cycle", "layers"])
    if kind == "repeaters":
        levels = rng.randint(2, 4)
        copies = [rng.choice([2, 3, 10, 50, 100, 500, 1000]) for _ in range(levels)]
        items = dot(frames)
        for c in copies:
            items = [{"ty": "gr", "it": items + [repeater(c), group_tr()]}]
        doc = animation(w, h, frames, [shape_layer(1, items, 0, frames, w / 2, h / 2)])
        note = "repeaters %s" % "x".join(map(str, copies))
    elif kind in ("precomps", "cycle"):
        depth, fan = rng.randint(2, 10), rng.randint(2, 20)
        comps = []
        for d in range(depth):
            if d < depth - 1:
                layers = [precomp_layer(i + 1, "c%d" % (d + 1), w, h, 0, frames) for i in range(fan)]
            elif kind == "cycle":
                layers = [precomp_layer(1, rng.choice(["c0", "c%d" % d]), w, h, 0, frames)]
            else:
                layers = [shape_layer(1, dot(frames), 0, frames, w / 2, h / 2)]
            comps.append({"id": "c%d" % d, "w": w, "h": h, "layers": layers})
        root = [precomp_layer(i + 1, "c0", w, h, 0, frames) for i in range(fan)]
        doc = animation(w, h, frames, root, comps)
        note = "%s depth %d fan-out %d" % ("cyclic precomps" if kind == "cycle" else "precomps", depth, fan)
    else:
        n = rng.choice([100, 1000, 3000, 10000])
        # Many layers are work in proportion: 10,000 layers of 120 frames
        # take 12 s, as they should, so they get fewer frames.
        frames = min(frames, max(1, 300000 // n))
        doc = animation(w, h, frames, [shape_layer(i + 1, dot(frames, 4), 0, frames, (i * 7) % max(1, w),
                                                   (i * 13) % max(1, h)) for i in range(n)])
        note = "%d layers" % n
    if rng.random() < 0.3:
        note += ", " + ", ".join(extremes(rng, doc))
    note += ", %sx%s %s frames" % (doc["w"] if not isinstance(doc["w"], Raw) else doc["w"].text,
                                   doc["h"] if not isinstance(doc["h"], Raw) else doc["h"].text, frames)
    return lottie_case(rng, dump(doc), opts, note)


def lottie_case(rng, text, opts, note, files=None):
    """A case encoding the Lottie text as in.json (or, at times, .tgs)."""
    files = dict(files or {})
    if rng.random() < 0.15:
        files["in.tgs"] = gzip.compress(text, mtime=0)
        inp = "in.tgs"
    else:
        files["in.json"] = text
        inp = "in.json"
    return Case(files, [Run(["encode", inp, "-o", "out/o.gif"] + opts, output="out/o.gif")], note)


def data_uri(data, mime="image/png"):
    """`data` as a base64 data: URI."""
    return "data:%s;base64,%s" % (mime, base64.b64encode(data).decode())


def image_asset(id_, w, h, u, p, e):
    """An image asset; `e` None leaves the key out."""
    a = {"id": id_, "w": w, "h": h, "u": u, "p": p}
    if e is not None:
        a["e"] = e
    return a


def image_doc(rng, refs):
    """A small animation showing the image assets `refs` [(asset, ...)]."""
    frames = rng.choice([1, 2, 10])
    w, h = rng.choice([(64, 64), (240, 160), (512, 512)])
    layers = [image_layer(i + 1, a["id"], 0, frames) for i, a in enumerate(refs)]
    return animation(w, h, frames, layers, refs)


def gen_embedded(rng, ctx):
    """A Lottie file showing inlined images: bombs, wrong sizes, bad data."""
    name, bw, bh, _, _ = rng.choice(BOMBS)
    kind = rng.choice(["bomb", "bomb", "bomb", "wrong-size", "truncated", "not-png", "lottie-archive"])
    declared = (bw, bh)
    if kind == "wrong-size":
        declared = rng.choice([(1, 1), (bw * 2, bh * 2), (Raw("1e19"), 1), (-1, -1), (0, 0), (100.5, 2 ** 31)])
    with open(ctx.assets.bomb(name), "rb") as f:
        png = f.read()
    note = "%s %s (%dx%d, %d bytes), declared %s" % (kind, name, bw, bh, len(png),
                                                     "x".join(v.text if isinstance(v, Raw) else str(v)
                                                              for v in declared))
    files = {}
    if kind == "truncated":
        uri = data_uri(png)
        uri = uri[:rng.randint(30, len(uri) - 1)]
        if rng.random() < 0.5:
            uri = uri.rstrip("=") + rng.choice(["", "=", "!!", "\u00e9", "%00"])
        note = "truncated base64 of %s at %d chars" % (name, len(uri))
    elif kind == "not-png":
        choice = rng.choice(["jpeg-bomb", "random", "empty", "gif", "text", "svg"])
        if choice == "jpeg-bomb":
            jpeg = ctx.assets.jpegs()[rng.choice(["baseline", "progressive"])]
            data, mime = patch_sof(jpeg, rng.choice([16384, 8192, 65535]), rng.choice([16000, 8192])), "image/jpeg"
        elif choice == "random":
            data, mime = bytes(rng.randrange(256) for _ in range(rng.randint(1, 2000))), "image/png"
        elif choice == "gif":
            data, mime = b"GIF89a\xff\xff\xff\xff\x00\x00\x00,\x00\x00\x00\x00\xff\xff\xff\xff\x00\x02\x02D\x01\x00;", \
                "image/gif"
        elif choice == "svg":
            data, mime = b"<svg xmlns='http://www.w3.org/2000/svg' width='100000' height='100000'/>", "image/svg+xml"
        elif choice == "text":
            data, mime = b"not an image", rng.choice(["image/png", "text/plain", ""])
        else:
            data, mime = b"", "image/png"
        uri = data_uri(data, mime)
        note = "not a PNG: %s (%d bytes) as %r" % (choice, len(data), mime)
    else:
        uri = data_uri(png)
    if kind == "lottie-archive":
        asset = image_asset("img", bw, bh, "images/", "img.png", 0)
        doc = image_doc(rng, [asset])
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
            z.writestr("manifest.json", json.dumps({"version": "1", "animations": [{"id": "a"}]}))
            z.writestr("animations/a.json", dump(doc))
            z.writestr("images/img.png", png)
        files["in.lottie"] = buf.getvalue()
        return Case(files, [Run(["encode", "in.lottie", "-o", "out/o.gif"], output="out/o.gif")],
                    "dotLottie holding %s (%dx%d)" % (name, bw, bh))
    refs = [image_asset("img%d" % i, declared[0], declared[1], "", uri, rng.choice([1, 1, 0, None]))
            for i in range(rng.choice([1, 1, 2, 5]))]
    return lottie_case(rng, dump(image_doc(rng, refs)), [], note, files)


def gen_external(rng, ctx):
    """Image assets naming files outside, through, or beside the case
    folder. The image beside it (ctx.outside, green) must never be drawn."""
    inside = palette_png(INSIDE)
    files = {" /images/x.png": inside, "images/x.png": inside, "x.png": inside, "fifo": FIFO, " /fifo": FIFO}
    # rlottie joins its resource path (" " when none is given), u and p:
    # a folder named " " in the working directory is where that leads.
    links = {" /out": "../../outside", "images/up": "../..", "outlink": "../outside"}
    choices = [
        ("/../../../../../../../../etc/", "passwd"), ("/../../outside/", "x.png"), ("/../outside/", "x.png"),
        ("../outside/", "x.png"), ("images/", "../../outside/x.png"), ("images/", "../x.png"),
        ("", ctx.outside + "/x.png"), ("/", ctx.outside[1:] + "/x.png"), (ctx.outside + "/", "x.png"),
        ("", "/etc/passwd"), ("", "/dev/zero"), ("", "/dev/urandom"), ("/", "dev/zero"), ("", "/proc/self/mem"),
        ("", "fifo"), ("/", "fifo"), ("images/", "x.png"), ("", "images/x.png"), ("", "x.png"), ("", "images"),
        ("/", ""), ("", ""), ("images/up/", "outside/x.png"), ("/out/", "x.png"), ("outlink/", "x.png"),
        ("", "bomb.png"), ("", " "), ("images/", "x.png\u0000.txt"), ("", "http://127.0.0.1:9/x.png"),
        ("", "file://" + ctx.outside + "/x.png"), ("", "data:"),
    ]
    if rng.random() < 0.3:
        name = rng.choice(BOMBS[:3])[0]
        with open(ctx.assets.bomb(name), "rb") as f:
            files["bomb.png"] = files[" /bomb.png"] = f.read()
    picks = [rng.choice(choices) for _ in range(rng.choice([1, 1, 2, 3]))]
    refs = [image_asset("img%d" % i, rng.choice([8, 100, 16000]), 8, u, p, rng.choice([0, 0, None, 1]))
            for i, (u, p) in enumerate(picks)]
    doc = image_doc(rng, refs)
    note = "assets " + ", ".join("u=%r p=%r e=%s" % (r["u"], r["p"], r.get("e")) for r in refs)
    if rng.random() < 0.25:
        # The same names inside a dotLottie archive, with entries whose
        # names climb out of it.
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
            z.writestr("manifest.json", json.dumps({"version": "1", "animations": [{"id": "a"}]}))
            z.writestr("animations/a.json", dump(doc))
            z.writestr("images/x.png", inside)
            z.writestr("../../sentinel/x.png", inside)
            z.writestr("/abs.png", inside)
        files["in.lottie"] = buf.getvalue()
        return Case(files, [Run(["encode", "in.lottie", "-o", "out/o.gif"], output="out/o.gif")],
                    "dotLottie, " + note, links=links, marker=True)
    c = lottie_case(rng, dump(doc), [], note, files)
    c.links, c.marker = links, True
    return c


def gen_jpeg_bomb(rng, ctx):
    """A small JPEG whose frame header claims a huge size, cut or damaged."""
    kind = rng.choice(["baseline", "progressive", "baseline-444", "progressive-444"])
    data = ctx.assets.jpegs()[kind]
    # Mostly within the 16384 pixels a side decoders accept: the area is
    # the bomb.
    sides = [65535, 65500, 16385, 16384, 16384, 16384, 16000, 12000, 8192, 4096, 1, 0]
    w, h = rng.choice(sides), rng.choice(sides)
    data = bytearray(patch_sof(data, w, h))
    how = rng.choice(["truncated", "truncated", "zeroed", "whole"])
    sos = data.find(b"\xff\xda")
    if how == "truncated":
        data = data[:rng.randint(max(2, sos - 10), max(sos + 20, min(len(data), 900)))]
    elif how == "zeroed":
        i = rng.randrange(max(1, sos), len(data))
        n = rng.randint(1, 400)
        data[i:i + n] = bytes(len(data[i:i + n]))
    data = bytes(data)
    note = "%s SOF %dx%d, %s (%d bytes)" % (kind, w, h, how, len(data))
    # Each way a JPEG is read: a frame (alone, or in a folder after a
    # plain one), a config's image layer, a preset's image, a Lottie image
    # asset (decoded by rlottie).
    way = rng.choice(["frame", "frame", "folder", "config", "preset", "lottie"])
    out = ["-o", "out/o.gif"]
    files = {"in.jpg": data}
    if way == "frame":
        runs = [Run(["encode", "in.jpg"] + out + rng.choice([[], [], ["--width", "64"], ["--crop", "16x16+0+0"]]),
                    output="out/o.gif"),
                Run(["info", "in.jpg", "--json"], budget=False)]
    elif way == "folder":
        files = {"frames/a.jpg": ctx.assets.jpegs()["baseline"], "frames/b.jpg": data}
        runs = [Run(["encode", "frames"] + out, output="out/o.gif")]
    elif way == "config":
        files["cfg.json"] = json.dumps({"version": 1, "canvas": {"width": 32, "height": 32}, "timing": {"fps": 10},
                                        "layers": [{"image": "in.jpg"}]}).encode()
        runs = [Run(["render", "cfg.json"] + out, output="out/o.gif")]
    elif way == "preset":
        runs = [Run(["preset", "ease", rng.choice(["--ring", "--icon"]), "in.jpg"] + out, output="out/o.gif")]
    else:
        files = {}
        doc = image_doc(rng, [image_asset("img", rng.choice([64, w]), rng.choice([64, h]), "",
                                          data_uri(data, "image/jpeg"), 1)])
        return lottie_case(rng, dump(doc), [], note + ", as a Lottie image asset", files)
    return Case(files, runs, note + ", as a " + way)


def gen_manifest(rng, ctx):
    """A `check` manifest whose entries name hostile paths and arguments."""
    sentinel = os.path.join("..", "sentinel")
    files = {"frame.png": small_png(), "sub/frame.png": small_png(8, 8), "fifo": FIFO, "sub/fifo": FIFO,
             "cfg.json": CONFIG}
    links = {"dangling.gif": os.path.join("..", "sentinel", "made.gif"), "outlink": sentinel}
    hostile_args = [
        ["-o", ctx.sentinel + "/o.gif"], ["--output", "../sentinel/o.gif"], ["-o", "-"], ["--"], ["-"],
        ["--", "-o", "x.gif"],
        ["../sentinel/in.png"], [ctx.sentinel + "/in.png"], ["/etc/passwd"], ["-o"], ["--output=../sentinel/eq.gif"],
        ["--ring", "../sentinel/r.png"], ["--ring", "fifo"], ["--icon", "-"], ["--icon", "/dev/zero"],
        ["--print-config"], ["--help"], ["--sha256"], ["-q", "-q"],
        ["--max-memory", "1"], ["--jobs", "0"], ["--format", "webp"],
    ]
    hostile_outputs = ["dangling.gif", "fifo", "outlink/o.gif", "../sentinel/o.gif",
               "sub/../../sentinel/o.gif", "sub/", ".", "manifest.json", "frame.png", "-", "cfg.json"]
    entries = []
    benign_inputs = {"preset": ["spinner", "dots", "ring"], "encode": ["frame.png", "sub/frame.png", "sub"],
                     "render": ["cfg.json"]}
    hostile_inputs = {"preset": ["../sentinel/x", "-", "--help", ""],
                      "encode": ["-", "fifo", "../sentinel/in.png", ctx.sentinel + "/in.png", "/etc/passwd",
                                 "outlink/in.png",
                                 "--", "-o", "/dev/zero", "sub/fifo", ""],
                      "render": ["fifo", "-", "../sentinel/c.json", "/etc/passwd", "sub", "/dev/zero"]}
    # Each part of each entry is hostile one time in four, and at least
    # one part of the manifest is: the others let check go on to run it.
    while not entries or not any([e.pop("hostile") for e in entries]):
        entries = []
        for i in range(rng.randint(1, 4)):
            job = rng.choice(["preset", "preset", "encode", "encode", "render"])
            bad = [rng.random() < 0.25 for _ in range(3)]
            inputs = hostile_inputs[job] if bad[0] else benign_inputs[job]
            e = {job: [rng.choice(inputs) for _ in range(rng.choice([1, 1, 2]))] if job == "encode"
                 else rng.choice(inputs)}
            e["args"] = list(rng.choice(hostile_args if bad[1] else [[], ["--fps", "5"]]))
            if job == "preset" and "--size" not in e["args"]:
                e["args"] += ["--size", "16"]
            e["output"] = rng.choice(hostile_outputs) if bad[2] else rng.choice(["e%d.gif", "sub/e%d.png",
                                                                                   "new/e%d.webp"]) % i
            if entries and rng.random() < 0.2:
                e["output"] = entries[-1]["output"]  # shared by two entries
                bad[2] = True
            if rng.random() < 0.3:
                e["sha256"] = "0" * 64
            e["hostile"] = any(bad)
            entries.append(e)
    manifest = {"entries": entries}
    where = rng.choice(["manifest.json", "manifest.json", "sub/manifest.json"])
    text = json.dumps(manifest).encode()
    files[where] = text
    cmd = ["check", where, "--jobs", "1"]
    if rng.random() < 0.5:
        cmd.append("--update")
        if rng.random() < 0.3:
            cmd.append("--hashes-only")
    junit = None
    if rng.random() < 0.4:
        junit = rng.choice([where, where, "report.xml", "sub", "frame.png"])
        cmd += ["--junit", junit]
    if rng.random() < 0.2:
        cmd += ["--diff-dir", rng.choice(["diffs", "sub", "fifo"])]
    note = "%s; %s" % (" ".join(cmd), json.dumps(entries))
    # What check may write in the case folder: the outputs (--update), the
    # manifest (--update), the junit report and the diff folder.
    base = os.path.dirname(where)
    writable = {os.path.normpath(os.path.join(base, e["output"])) for e in entries}
    writable |= {where, "diffs"} | ({junit} if junit else set())
    return Case(files, [Run(cmd, stdin="pipe", allowed=ALLOWED_CHECK, budget=False)], note, links=links,
                manifest=(where, text, "--update" in cmd), writable=writable)


# A small loader config: a turning arc, 16 pixels, as `render` reads it.
CONFIG = json.dumps({
    "version": 1, "canvas": {"width": 16, "height": 16}, "timing": {"fps": 10},
    "layers": [{"arc": {"radius": 6, "start": 0, "end": 90, "width": 2}, "stroke": "#555555",
                "animate": [{"kind": "keyframes", "property": "rotate", "period": 0.5,
                             "keys": [{"at": 0, "value": 0}, {"at": 0.5, "value": 360}]}]}]}).encode()


def gen_video_claims(rng, ctx):
    """A video that claims huge sizes, times or frame counts
    (scripts/mutate_video_claims.py, beside this file; it uses Case and Run
    from here, so it is imported when the first such case is made)."""
    import mutate_video_claims
    return mutate_video_claims.gen_video_claims(rng, ctx)

def gen_video_refs(rng, ctx):
    """Files that try to make FFmpeg read anything but themselves
    (scripts/mutate_video_refs.py, beside this file)."""
    import mutate_video_refs
    return mutate_video_refs.gen_video_refs(rng, ctx)


def gen_vector(name):
    """The generator of vector class `name` (scripts/mutate_vector.py,
    beside this file; imported when the first such case is made)."""
    def generate(rng, ctx):
        import mutate_vector
        return mutate_vector.GENERATORS[name](rng, ctx)
    return generate


GENERATORS = {"lottie-nest": gen_lottie_nest, "embedded": gen_embedded, "external": gen_external,
              "jpeg-bomb": gen_jpeg_bomb, "manifest": gen_manifest, "video-claims": gen_video_claims,
              "video-refs": gen_video_refs}
GENERATORS.update({name: gen_vector(name) for name in CLASSES if name.startswith("vector-")})


# ---------------------------------------------------------------- running

FIFO = object()  # a file-set value: make a FIFO there


class Run:
    """One command (throbber's arguments after the binary), run in the case
    folder. `output` is the file it writes on success (relative);
    `stdin` "null" or "pipe" (a pipe that stays open: a run that reads it
    hangs); `budget` adds --max-memory, -q and --jobs 1; `names`: a file
    the message of an exit 65 or 66 must name; `check(status, stderr,
    seconds, output path)` returns more problems of the run."""

    def __init__(self, argv, output=None, stdin="null", allowed=ALLOWED, budget=True, names=None, check=None):
        self.argv, self.output, self.stdin, self.allowed, self.budget = argv, output, stdin, allowed, budget
        self.names, self.check = names, check


class Case:
    """A generated case: files (relative path -> bytes or FIFO) to make in
    the case folder, links (relative path -> target), the runs, a note for
    the report; for manifest cases the manifest (path, document, updated)
    and the relative paths check may write; marker: the output must not
    show the image outside the case folder."""

    def __init__(self, files, runs, note, links=None, manifest=None, writable=None, marker=False):
        self.files, self.runs, self.note, self.marker = files, runs, note, marker
        self.links = links or {}
        self.manifest, self.writable = manifest, writable


def make_files(case_dir, case):
    """Makes the case's files, FIFOs and links in case_dir."""
    for rel, data in case.files.items():
        path = os.path.join(case_dir, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        if data is FIFO:
            os.mkfifo(path)
        elif data is not None:
            with open(path, "wb") as f:
                f.write(data)
    for rel, target in case.links.items():
        path = os.path.join(case_dir, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        os.symlink(target, path)


def snapshot(folder):
    """{relative path: (type, size, mtime, inode)} of everything under
    folder ((type,) for folders), links not followed."""
    out = {}
    for base, dirs, names in os.walk(folder):
        for n in dirs + names:
            path = os.path.join(base, n)
            try:
                st = os.lstat(path)
            except FileNotFoundError:
                continue
            kind = stat.S_IFMT(st.st_mode)
            # A folder counts by being there: its times change with the
            # temporary files made and removed in it.
            out[os.path.relpath(path, folder)] = (kind,) if kind == stat.S_IFDIR else (
                kind, st.st_size, st.st_mtime_ns, st.st_ino)
    return out


def under(rel, allowed):
    """Whether rel is one of allowed or inside one of them, or a folder
    leading to one."""
    return any(rel == a or rel.startswith(a.rstrip("/") + "/") or a.startswith(rel + "/") for a in allowed)


class Context:
    """What a generator may use: the shared assets and the absolute paths
    of the case folder and of the folders beside it (sentinel: must stay
    empty; outside: holds MARKER_PNG, which must never be drawn)."""

    def __init__(self, assets, work):
        self.assets = assets
        self.case, self.sentinel, self.outside, self.tmp = (
            os.path.join(work, n) for n in ("case", "sentinel", "outside", "tmp"))


# Colors of the images outside the case folder (green) and inside (blue).
MARKER = (0, 255, 0)
INSIDE = (0, 0, 255)


def palette_png(color, width=8, height=8):
    """A PNG of one color, as bytes."""
    buf = io.BytesIO()
    write_png(buf, width, height, 1, 3, palette=bytes(color))
    return buf.getvalue()


def shows_marker(path):
    """Whether the animation at path has a visible pixel of MARKER's color
    (Pillow; None when it cannot be read)."""
    try:
        from PIL import Image, ImageSequence
        with Image.open(path) as im:
            for frame in ImageSequence.Iterator(im):
                colors = frame.convert("RGBA").getcolors(1 << 24) or []
                if any(a > 0 and g > 200 and r < 80 and b < 80 for _, (r, g, b, a) in colors):
                    return True
        return False
    except Exception:
        return None


def run_case(args, number, cls, rng, assets, run_measured):
    """Makes and runs one generated case of class cls; returns (problems,
    peak RSS, statuses, note)."""
    work = tempfile.mkdtemp(prefix="gen%05d-" % number, dir=args.work)
    ctx = Context(assets, work)
    for d in (ctx.case, ctx.sentinel, ctx.outside, ctx.tmp, os.path.join(ctx.case, "out")):
        os.makedirs(d)
    with open(os.path.join(ctx.outside, "x.png"), "wb") as f:
        f.write(palette_png(MARKER))
    problems, statuses, peak, pristine = [], [], 0, None
    case_dir = ctx.case
    try:
        case = GENERATORS[cls](rng, ctx)
        make_files(case_dir, case)
        if args.keep:
            # The case as made: the runs may change it.
            pristine = work + ".made"
            shutil.copytree(work, pristine, symlinks=True, copy_function=copy_plain)
        outside = snapshot(ctx.outside)
        env = dict(os.environ, TMPDIR=ctx.tmp)
        # A memory budget below the run's (where it is larger), so that
        # images and frames of a few hundred megabytes must be refused.
        budget = rng.choice([(args.max_memory, args.limit)] + [b for b in ((("512M", 512e6), ("256M", 256e6)))
                                                                if b[1] < args.limit])
        for run in case.runs:
            before = snapshot(case_dir)
            cmd = [args.throbber] + run.argv
            limit = args.limit
            if run.budget:
                cmd += ["-q", "--jobs", "1", "--max-memory", budget[0]]
                limit = budget[1]
            status, err, hung, seconds, rss = run_measured(cmd, case_dir, args.timeout, run.stdin, env)
            peak = max(peak, rss)
            what = run.argv[0]
            statuses.append("%s %d" % (what, status))
            message = err.strip().replace("\n", " | ")[-300:]
            if hung:
                problems.append("%s hung (> %g s)" % (what, args.timeout))
            elif status < 0:
                problems.append("%s killed by signal %d: %s" % (what, -status, message))
            elif status not in run.allowed:
                problems.append("%s exit %d: %s" % (what, status, message))
            elif run.names and status in (65, 66) and run.names not in err:
                problems.append("%s exit %d without naming %s: %s" % (what, status, run.names, message))
            if rss > limit:
                problems.append("%s peaked at %.0f MB, over the %s budget" % (what, rss / 1e6,
                                                                          budget[0] if run.budget else args.max_memory))
            if sorted(os.listdir(work)) != ["case", "outside", "sentinel", "tmp"]:
                problems.append("%s made %s beside the case folder" % (what, sorted(os.listdir(work))))
            for name, folder in (("the sentinel folder beside the case", ctx.sentinel), ("TMPDIR", ctx.tmp)):
                left = sorted(snapshot(folder))
                if left:
                    problems.append("%s exit %d left %s in %s" % (what, status, left[:5], name))
            if snapshot(ctx.outside) != outside:
                problems.append("%s exit %d changed the folder beside the case" % (what, status))
            after = snapshot(case_dir)
            changed = sorted(p for p in set(before) | set(after) if before.get(p) != after.get(p))
            if case.writable is not None:
                allowed = case.writable
            else:
                allowed = {run.output} if run.output and status == 0 else set()
            stray = [p for p in changed if not under(p, allowed)]
            if stray:
                problems.append("%s exit %d made or changed %s in the case folder" % (what, status, stray[:5]))
            made = os.path.join(case_dir, run.output) if run.output else None
            if run.check and not hung:
                problems += ["%s exit %d: %s" % (what, status, p) for p in run.check(status, err, seconds, made)]
            if made and status != 0 and os.path.lexists(made):
                problems.append("%s exit %d left a partial %s" % (what, status, run.output))
            if made and status == 0 and case.marker and shows_marker(made):
                problems.append("%s drew an image from outside the case folder" % what)
            if case.manifest:
                where, text, updated = case.manifest
                with open(os.path.join(case_dir, where), "rb") as f:
                    now = f.read()
                if not updated and now != text:
                    problems.append("check changed the manifest without --update: %r" % now[:80])
                elif updated:
                    try:
                        if "entries" not in json.loads(now):
                            raise ValueError
                    except ValueError:
                        problems.append("check --update left a manifest that is not one: %r" % now[:80])
        return problems, peak, statuses, case.note
    finally:
        if pristine and problems:
            shutil.move(pristine, os.path.join(args.keep, "gen%05d-%s" % (number, cls)))
        elif pristine:
            remove(pristine)
        remove(work)


def copy_plain(src, dst):
    """Copies a regular file; FIFOs are made anew, never opened."""
    if stat.S_ISFIFO(os.lstat(src).st_mode):
        os.mkfifo(dst)
    else:
        shutil.copy2(src, dst)


def remove(folder):
    """Removes folder, also when a run left it unwritable."""
    for base, dirs, _ in os.walk(folder):
        for d in dirs:
            if not os.path.islink(os.path.join(base, d)):
                try:
                    os.chmod(os.path.join(base, d), 0o755)
                except OSError:
                    pass
    shutil.rmtree(folder, ignore_errors=True)
