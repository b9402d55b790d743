"""The `video` kind of scripts/mutate-run: seed clips made with the ffmpeg
command, and the mutations and runs of a video case.

A case mutates one seed with the byte mutations every kind gets (flips,
extreme values, inserted, deleted and repeated ranges, truncation) or
with one to three structure-aware edits (STRUCTURE): cuts at a box or
element boundary (moov or the first cluster missing, mdat cut short), sizes
patched to huge values (sample entry, tkhd, Matroska PixelWidth, AVI
headers), sample counts, durations and time scales patched (stsz, stts,
mdhd, DefaultDuration, dwTotalFrames ...), a box or element dropped or
repeated (enclosing sizes kept right), and the codec swapped for another.
"""
import struct, subprocess

import mutate_containers as containers

# The seeds: (file name, ffmpeg arguments after the input). Each is made
# from testsrc2 at 96x64 and 10 fps, 1 s (ProRes and the alpha clips: less,
# to stay small), one thread so the bytes are the same on every run.
SOURCE = "testsrc2=size=96x64:rate=10:duration=1"
# An alpha ramp from clear at the left to opaque at the right.
ALPHA = "format=%s,geq=lum='lum(X,Y)':cb='cb(X,Y)':cr='cr(X,Y)':a='X*%d/W'"
SEEDS = [
    ("h264-moov-last.mp4", SOURCE, ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-colorspace", "bt709",
                                    "-color_primaries", "bt709", "-color_trc", "bt709"]),
    ("h264-moov-first.mp4", SOURCE, ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-movflags", "+faststart"]),
    ("hevc.mp4", SOURCE, ["-c:v", "libx265", "-pix_fmt", "yuv420p", "-tag:v", "hvc1",
                          "-x265-params", "log-level=error:pools=1:frame-threads=1"]),
    ("vp9-alpha.webm", "testsrc2=size=96x64:rate=10:duration=0.5," + ALPHA % ("yuva420p", 255),
     ["-c:v", "libvpx-vp9", "-pix_fmt", "yuva420p", "-deadline", "realtime", "-cpu-used", "8"]),
    ("prores4444-alpha.mov", "testsrc2=size=64x48:rate=10:duration=0.5," + ALPHA % ("yuva444p10le", 1023),
     ["-c:v", "prores_ks", "-profile:v", "4444", "-pix_fmt", "yuva444p10le"]),
    ("mpeg4.avi", SOURCE, ["-c:v", "mpeg4"]),
    ("ffv1.mkv", SOURCE, ["-c:v", "ffv1"]),
    ("av1.mkv", SOURCE, ["-c:v", "libaom-av1", "-cpu-used", "8"]),
    # Frames at 0, 0.01, 0.04, 0.09 ... 0.81 s, every delay different, in
    # a millisecond time base so that no time is rounded to the 10 fps grid.
    ("vfr.mp4", SOURCE + ",settb=1/1000,setpts='N*N/100/TB'", ["-fps_mode", "passthrough", "-c:v", "libx264",
                                                              "-pix_fmt", "yuv420p"]),
]


def seeds(work):
    """(kind, name, bytes) for every seed clip, made with ffmpeg in work."""
    out = []
    for name, source, codec in SEEDS:
        path = "%s/seed-%s" % (work, name)
        subprocess.run(["ffmpeg", "-v", "error", "-nostdin", "-y", "-f", "lavfi", "-i", source, "-threads", "1"]
                       + codec + ["-fflags", "+bitexact", path], check=True)
        with open(path, "rb") as f:
            out.append(("video", name, f.read()))
    return out


# Values a patched field takes: sizes, counts and durations, time scales.
SIZES = [65535, 100000, 0, 1, 32768, 16385, 0xFFFFFFFF, 0x7FFFFFFF]
COUNTS = [10 ** 9, 0xFFFFFFFF, 0x7FFFFFFF, 0, 1, 65536]
SCALES = [0, 1, 10 ** 9, 0xFFFFFFFF]
FLOATS = [1e300, -1.0, float("nan"), float("inf"), 0.0, 1e9]

# Fields the structure-aware mutations patch: node name -> [(what, offset
# in the payload (negative: from its end), bytes, format, values)]. Format
# ">" and "<" are big and little endian integers; "ebml" an EBML unsigned
# integer (the whole payload, made longer when the value needs it); "f" an
# EBML float.
FIELDS = {
    # ISO BMFF (version 0 boxes; version 1 ones are patched at the same
    # offsets, which is damage of another kind).
    "tkhd": [("tkhd width", -8, 4, ">", [v << 16 & 0xFFFFFFFF for v in SIZES] + [0xFFFFFFFF]),
             ("tkhd height", -4, 4, ">", [v << 16 & 0xFFFFFFFF for v in SIZES]),
             ("tkhd matrix", -44, 4, ">", [0, 0x7FFFFFFF, 0xFFFF0000]),
             ("tkhd duration", 20, 4, ">", COUNTS)],
    "mvhd": [("mvhd timescale", 12, 4, ">", SCALES), ("mvhd duration", 16, 4, ">", COUNTS)],
    "mdhd": [("mdhd timescale", 12, 4, ">", SCALES), ("mdhd duration", 16, 4, ">", COUNTS)],
    "stsz": [("stsz sample size", 4, 4, ">", COUNTS), ("stsz sample count", 8, 4, ">", COUNTS)],
    "stts": [("stts entry count", 4, 4, ">", COUNTS), ("stts sample count", 8, 4, ">", COUNTS),
             ("stts delta", 12, 4, ">", COUNTS)],
    "ctts": [("ctts entry count", 4, 4, ">", COUNTS), ("ctts offset", 12, 4, ">", COUNTS)],
    "stsc": [("stsc entry count", 4, 4, ">", COUNTS), ("stsc samples per chunk", 12, 4, ">", COUNTS)],
    "stco": [("stco entry count", 4, 4, ">", COUNTS), ("stco offset", 8, 4, ">", COUNTS)],
    "stss": [("stss entry count", 4, 4, ">", COUNTS)],
    "elst": [("elst duration", 8, 4, ">", COUNTS), ("elst media time", 12, 4, ">", COUNTS)],
    "pasp": [("pasp h", 0, 4, ">", SIZES), ("pasp v", 4, 4, ">", SIZES)],
    # Matroska, by element ID.
    "B0": [("PixelWidth", 0, 0, "ebml", SIZES)],
    "BA": [("PixelHeight", 0, 0, "ebml", SIZES)],
    "54B0": [("DisplayWidth", 0, 0, "ebml", SIZES)],
    "54BA": [("DisplayHeight", 0, 0, "ebml", SIZES)],
    "23E383": [("DefaultDuration", 0, 0, "ebml", COUNTS + [2 ** 63])],
    "2AD7B1": [("TimestampScale", 0, 0, "ebml", SCALES + [2 ** 63])],
    "E7": [("Cluster Timestamp", 0, 0, "ebml", COUNTS + [2 ** 63, 2 ** 64 - 1])],
    "9B": [("BlockDuration", 0, 0, "ebml", COUNTS)],
    "83": [("TrackType", 0, 0, "ebml", [2, 0, 255])],
    "53C0": [("AlphaMode", 0, 0, "ebml", [0, 2, 255])],
    "4489": [("Duration", 0, 0, "f", FLOATS)],
    "A3": [("SimpleBlock timecode", 1, 2, ">", [0x7FFF, 0x8000, 0xFFFF])],
    # AVI.
    "avih": [("avih frames", 16, 4, "<", COUNTS), ("avih width", 32, 4, "<", SIZES),
             ("avih height", 36, 4, "<", SIZES), ("avih usec per frame", 0, 4, "<", COUNTS),
             ("avih streams", 24, 4, "<", COUNTS)],
    "strh": [("strh scale", 20, 4, "<", SCALES), ("strh rate", 24, 4, "<", SCALES),
             ("strh length", 32, 4, "<", COUNTS), ("strh start", 28, 4, "<", COUNTS)],
    "strf": [("strf width", 4, 4, "<", SIZES), ("strf height", 8, 4, "<", SIZES + [0x80000000]),
             ("strf bit count", 14, 2, "<", [0, 1, 0xFFFF])],
}
# Sample entries whose width and height sit 24 bytes into the payload.
VISUAL = {"avc1", "hvc1", "hev1", "mp4v", "ap4h", "apch", "av01", "vp09", "FFV1"}
# Codec names a swap puts in place of the stream's own.
FOURCCS = [b"avc1", b"hvc1", b"av01", b"vp09", b"mp4v", b"ap4h", b"mjpg"]
CODEC_IDS = [b"V_MPEG4/ISO/AVC", b"V_MPEGH/ISO/HEVC", b"V_VP9", b"V_AV1", b"V_FFV1", b"V_UNKNOWN", b"A_OPUS"]
AVI_CODECS = [b"H264", b"FMP4", b"XVID", b"FFV1", b"MJPG", b"\0\0\0\0"]


def patch(rng, data, nodes):
    """data with one field of FIELDS (or a sample entry's size) patched,
    and a note; None when the file has no such field."""
    fields = [(n, f) for n in nodes for f in FIELDS.get(n.name, [])]
    fields += [(n, ("%s %s" % (n.name, side), off, 2, ">", SIZES)) for n in nodes if n.name in VISUAL
               for side, off in (("width", 24), ("height", 26))]
    if not fields:
        return None
    node, (what, off, size, kind, values) = rng.choice(fields)
    value = rng.choice(values)
    if kind == "ebml":
        # In place, with leading zeros, when the value fits the payload: the
        # positions in SeekHead and Cues then stay right.
        length = max(1, (value.bit_length() + 7) // 8, node.end - node.data)
        if length == node.end - node.data:
            return data[:node.data] + value.to_bytes(length, "big") + data[node.end:], "%s = %d" % (what, value)
        return containers.splice(data, node, node.data, node.end, value.to_bytes(length, "big")), \
            "%s = %d" % (what, value)
    if kind == "f":
        return containers.splice(data, node, node.data, node.end, struct.pack(">d", value)), "%s = %r" % (what, value)
    at = (node.end if off < 0 else node.data) + off
    if at < node.data or at + size > node.end:
        return None
    raw = struct.pack(kind + {2: "H", 4: "I"}[size], value & (1 << (8 * size)) - 1)
    return data[:at] + raw + data[at + size:], "%s = %d" % (what, value)


def structure(rng, ext, data):
    """One structure-aware edit of data (ext: its extension) and a note;
    None when the file has nothing the drawn edit needs."""
    nodes = containers.parse(ext, data)
    if not nodes:
        return None
    op = rng.choice(["cut", "cut", "patch", "patch", "patch", "patch", "drop", "repeat", "swap"])
    if op == "cut":
        # At a node's start (what follows missing: moov, a cluster, idx1)
        # or inside the media data (mdat, movi, a cluster cut short).
        node = rng.choice(nodes)
        media = [n for n in nodes if n.name in ("mdat", "movi", "1F43B675")]
        if media and rng.random() < 0.4:
            node = rng.choice(media)
            at = rng.randrange(node.data, max(node.data + 1, node.end))
            return data[:at], "cut inside %s at %d of %d" % (node.path, at, len(data))
        return data[:node.start], "cut before %s at %d of %d" % (node.path, node.start, len(data))
    if op == "patch":
        return patch(rng, data, nodes)
    node = rng.choice([n for n in nodes if n.parents] or nodes)
    whole = data[node.start:node.end]
    if op == "drop":
        return containers.splice(data, node, node.start, node.end, b""), "dropped " + node.path
    if op == "repeat":
        return containers.splice(data, node, node.start, node.end, whole * rng.choice([2, 3])), \
            "repeated " + node.path
    entries = [n for n in nodes if n.name in VISUAL or n.name in ("86", "strh", "strf")]
    if not entries:
        return None
    node = rng.choice(entries)
    if node.name == "86":
        new = rng.choice(CODEC_IDS)
        return containers.splice(data, node, node.data, node.end, new), "CodecID = %s" % new.decode()
    new = rng.choice(AVI_CODECS if ext == "avi" else FOURCCS)
    at = node.start + 4 if node.name in VISUAL else node.data + (4 if node.name == "strh" else 16)
    return data[:at] + new + data[at + 4:], "%s codec = %r" % (node.path, new)


def mutate(rng, name, data, mutate_bytes):
    """(mutated bytes, note): half the time one to three structure-aware
    edits, else mutate_bytes(rng, data) (the mutations every kind gets)."""
    ext = name.rsplit(".", 1)[-1]
    if rng.random() < 0.5:
        return mutate_bytes(rng, data), "bytes"
    notes = []
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        edited = structure(rng, ext, data)
        if edited and edited[0] is not None:
            data, note = edited
            notes.append(note)
    return data, "; ".join(notes) or "unchanged"


# What else an encode of a video case is run with: trims, a smaller size
# and frame rate, or nothing.
OPTIONS = [[], [], [], ["--from", "0.3", "--to", "0.7"], ["--from", "00:00.500"], ["--to", "0.2"],
           ["--width", "32", "--fps", "5"], ["--from", "0.1", "--width", "32", "--fps", "5"]]


def runs(rng, throbber, inp, out, budget):
    """The runs of a video case: encode (with OPTIONS drawn) and, in half
    the cases, info."""
    opts = rng.choice(OPTIONS)
    cmds = [([throbber, "encode", inp, "-o", out, "-q", "--jobs", "1"] + opts + budget, None)]
    if rng.random() < 0.5:
        cmds.append(([throbber, "info", inp, "--json"], None))
    return cmds
