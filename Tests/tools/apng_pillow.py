"""Which Pillow decodes animated PNG in these tools.

Pillow before 9.5 (Debian 12 has 9.4) composites a blend-OVER frame of an
RGB APNG without its tRNS color key: the key pixels are pasted
instead of leaving what is under them (Pillow pull request 7018, released
in 9.5.0; gray keys are still ignored in 13.0). Throbber's lossless RGB
APNGs use such a key, as apngasm's do, and every other decoder we test
(ffmpeg, Chromium, our spec decoder in anim_reference.py) shows them right. So a tool that decodes an
APNG with Pillow calls use_for(paths) before it imports PIL: when one of
the paths is an animated PNG, the Pillow that scripts/install-deps pins in
.build/pylib-pillow is put first on sys.path. Stills, GIF and WebP keep
Debian's Pillow, whose quirks the tools are written for.
"""
import os
import struct
import sys

PIN = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".build", "pylib-pillow"))
VERSION = "11.3.0"


def is_apng(path):
    """A PNG with an acTL chunk before its first IDAT."""
    try:
        with open(path, "rb") as f:
            if f.read(8) != b"\x89PNG\r\n\x1a\n":
                return False
            while True:
                head = f.read(8)
                if len(head) < 8:
                    return False
                length, kind = struct.unpack(">I4s", head)
                if kind == b"acTL":
                    return True
                if kind in (b"IDAT", b"IEND"):
                    return False
                f.seek(length + 4, os.SEEK_CUR)
    except OSError:
        return False


def use_for(paths):
    """Puts the pinned Pillow first when any of `paths` is an APNG; exits
    with the fix when it is not installed. Call before importing PIL."""
    if "PIL" in sys.modules:
        raise RuntimeError("apng_pillow.use_for must run before PIL is imported")
    if not any(is_apng(p) for p in paths if isinstance(p, str)):
        return
    if not os.path.isfile(os.path.join(PIN, ".throbber-pillow-" + VERSION)):
        sys.exit(f"Pillow {VERSION} is not in {PIN}: run scripts/install-deps (Debian's Pillow 9.4 "
                 "composites blend-OVER frames of RGB APNGs without their tRNS key)")
    sys.path.insert(0, PIN)
