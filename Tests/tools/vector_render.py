#!/usr/bin/python3
"""Renders vector loaders (animated SVG, Lottie) with renderers Throbber did
not write, and compares the frames with a reference animation.

usage:
  vector_render.py svg FILE.svg WIDTH HEIGHT SCALE TIMES OUTDIR [--timeout S]
      Headless Chromium opens FILE.svg itself (file:// URL) in a WIDTH x HEIGHT
      CSS-pixel viewport (rounded up; WIDTH and HEIGHT may be fractions of a pixel) at device scale factor SCALE on a transparent page.
      TIMES is JSON [t, ...], each t seconds as a number or [num, den]. For
      each t every animation is paused and set to t: CSS animations through
      the Web Animations API (the list document.getAnimations() gives once,
      right after load; currentTime = t * 1000), SMIL through the root's
      pauseAnimations() and setCurrentTime(t); after two animation frames the
      SVG's box is captured, at SCALE, as OUTDIR/frame_NNNN.png (straight
      RGBA, WIDTH*SCALE x HEIGHT*SCALE); the first t is captured again last,
      seeked to from another time. The box must be (0, 0, WIDTH, HEIGHT).
      Prints JSON {"frames", "width", "height" (pixels), "animations" (CSS +
      SMIL), "css", "smil", "seconds"}. Gives up after S seconds (default 120).
  vector_render.py lottie-rlottie FILE.json FRAMES W H OUTDIR
      rlottie's frames (Debian librlottie through rlottie_render.py), FRAMES
      JSON [n, ...] counted from the file's ip, each drawn by a fresh rlottie
      object at W x H pixels, as OUTDIR/frame_NNNN.png (straight RGBA).
      Prints JSON {"frames", "totalframe", "framerate"}.
  vector_render.py lottie-python FILE.json FRAMES W H OUTDIR
      python-lottie 0.7.2 (.build/pylib, else the system) loads the file and
      draws each frame (counted from its ip) as SVG, which cairosvg rasterizes
      at W x H: what its cairo exporter does, at a chosen size. Every
      warning it emits while loading or drawing (Python warnings and its
      logging) is listed as "load: ..." or "render: ...". Prints JSON
      {"available", "why" (when not available), "warnings", "dropped" (JSON
      paths of keys the file has that python-lottie's model leaves out when
      written back: what it silently ignores), "frames"}.
      How its renderer compares with rlottie, found by experiment (python-lottie
      0.7.2, cairosvg 2.9.1; a 24x8 pt rect at 2x, frames 0 and 5; "differ":
      pixels off by more than 32 in a channel):
        - hold keyframes (h: 1): NOT supported, interpolated as if linear;
        - trim paths (tm): drawn, but not where rlottie draws them (on a
          stroked rect with e 40 %: 362 of about 200 inked pixels differ);
        - image assets (ty 2, embedded data: URI): drawn in the same place,
          320 of 1600 pixels differ;
        - parenting (parent, a ty 3 null): agrees up to edges (10 differ);
        - precompositions (ty 0 and an asset with layers): identical;
        - it loads a layer without "ddd" as 2D; rlottie 0.1 then ignores the
          layer's rotation (write "ddd": 0).
  vector_render.py compare REF.png|REF.gif PNGDIR [--on R,G,B] [--loop-frames N]
      REF is decoded by anim_reference.py's own APNG or GIF decoder; its
      frame i is compared with PNGDIR/frame_NNNN.png i. With --loop-frames N
      the reference is first laid out as N equal frames of its loop (frame k
      is the stored frame shown at k/N of the loop, by the exact fcTL
      delays), as an encoder that merges equal neighbours stored them;
      both are composited on
      the opaque color (default white, 255,255,255) and rounded: PSNR over RGB
      (99 when identical) and "bad_pixels", pixels differing by more than 32
      in any channel. Frames present in both (from 0 on) are compared. Prints
      JSON {"entries": [{"frame", "psnr", "bad_pixels"}], "min_psnr",
      "ref_frames", "png_frames", "width", "height"}.
  vector_render.py frames ANIM.png N OUTDIR
      ANIM's loop as N equal frames (as compare --loop-frames lays them out),
      written as OUTDIR/frame_NNNN.png: an animation made another way, ready
      to be compared with compare. Prints JSON {"frames"}.
Every error (a missing file, bad arguments, Chromium failing or timing out,
an unreadable Lottie) exits 2 with one line on stderr; Chromium's temporary
profile is removed on every exit.
"""
import gzip, io, json, logging, math, os, signal, sys, warnings
from fractions import Fraction

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import numpy as np  # noqa: E402
from PIL import Image  # noqa: E402


class Failure(Exception):
    """An error the user is told about on stderr, exit status 2."""


def need_file(path):
    if not os.path.isfile(path):
        raise Failure(f"{path}: no such file")


def parse_json(text, what):
    try:
        return json.loads(text)
    except ValueError as e:
        raise Failure(f"{what}: not JSON ({e})")


def parse_times(text):
    """Seconds as Fractions, from JSON numbers or [num, den] pairs."""
    out = []
    for t in parse_json(text, "TIMES"):
        if isinstance(t, list) and len(t) == 2 and all(isinstance(x, int) for x in t) and t[1] > 0:
            out.append(Fraction(t[0], t[1]))
        elif isinstance(t, (int, float)) and not isinstance(t, bool) and math.isfinite(t):
            out.append(Fraction(t))
        else:
            raise Failure(f"TIMES: {t!r} is not seconds (a number or [num, den])")
    return out


def frame_path(outdir, i):
    return os.path.join(outdir, "frame_%04d.png" % i)


# ---------------------------------------------------------------- SVG in Chromium

# The animations are collected once, right after load, and paused at once:
# a finished or not-yet-started animation may leave document.getAnimations()
# after a seek, so the list is kept rather than asked for again.
SETUP_JS = r"""
(async () => {
  const root = document.documentElement;
  if (!(root instanceof SVGSVGElement) || document.querySelector('parsererror'))
    return {error: 'not an SVG document: ' + (root.textContent || root.tagName).slice(0, 300)};
  window.__vr = document.getAnimations();
  for (const a of window.__vr) a.pause();
  // A pause is pending until the next frame and then fixes the time it
  // resolved at, over any seek made before: wait for it before seeking.
  await Promise.all(window.__vr.map(a => a.ready));
  root.pauseAnimations();
  const box = root.getBoundingClientRect();
  const smil = document.querySelectorAll('animate, animateTransform, animateMotion, animateColor, set').length;
  return {css: window.__vr.length, smil, box: [box.x, box.y, box.width, box.height]};
})()
"""

SEEK_JS = r"""
(async (ms, s) => {
  for (const a of window.__vr) { a.pause(); a.currentTime = ms; }
  document.documentElement.setCurrentTime(s);
  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  return true;
})
"""


# Most screenshots taken of one frame time while waiting for two that agree.
STABLE_SHOTS = 6
# Seconds one screenshot may take (measured: under 0.1 s for 80x80).
SHOT_SECONDS = 30
# The browser window, in CSS pixels, whatever the emulated viewport: in a
# window as small as the SVG (40x40) headless Chromium 156 holds one
# screenshot in four for 20 s or more.
WINDOW = (800, 600)


def on_alarm(signum, frame):
    raise Failure("Chromium did not finish within the time limit")


def on_term(signum, frame):
    raise SystemExit(2)


def svg(args):
    import chromium_cdp, base64, time
    path, width, height, scale, times, outdir = args[:6]
    limit = float(args[args.index("--timeout") + 1]) if "--timeout" in args else 120
    need_file(path)
    width, height, scale, times = float(width), float(height), float(scale), parse_times(times)
    want = (round(width * scale), round(height * scale))
    os.makedirs(outdir, exist_ok=True)
    started = time.time()
    signal.signal(signal.SIGALRM, on_alarm)
    signal.signal(signal.SIGTERM, on_term)
    signal.alarm(max(1, math.ceil(limit)))
    try:
        with chromium_cdp.Chromium(*WINDOW) as browser:
            page = browser.open("file://" + os.path.abspath(path), timeout=limit)
            page.send("Emulation.setDeviceMetricsOverride",
                      {"width": math.ceil(width), "height": math.ceil(height), "deviceScaleFactor": scale,
                       "mobile": False})
            page.send("Emulation.setDefaultBackgroundColorOverride", {"color": {"r": 0, "g": 0, "b": 0, "a": 0}})
            info = page.evaluate(SETUP_JS)
            if "error" in info:
                raise Failure(f"{path}: Chromium shows {info['error']!r}")
            x, y, w, h = info["box"]
            if max(abs(x), abs(y), abs(w - width), abs(h - height)) > 0.01:
                raise Failure(f"{path}: the SVG's box is {w}x{h} at ({x}, {y}), not {width}x{height} at (0, 0)")
            def shoot(t):
                page.evaluate(SEEK_JS + "(%r, %r)" % (float(t * 1000), float(t)), timeout=limit)
                # A busy machine can hand over a frame drawn before the seek:
                # shoot until two shots in a row agree.
                previous = None
                for _ in range(STABLE_SHOTS):
                    shot = page.send("Page.captureScreenshot", {
                        "format": "png", "clip": {"x": 0, "y": 0, "width": width, "height": height, "scale": 1}},
                                     timeout=SHOT_SECONDS)["data"]
                    if shot == previous:
                        break
                    previous = shot
                    page.evaluate(SEEK_JS + "(%r, %r)" % (float(t * 1000), float(t)), timeout=limit)
                im = Image.open(io.BytesIO(base64.b64decode(shot))).convert("RGBA")
                if im.size != want:
                    raise Failure(f"Chromium's screenshot is {im.size[0]}x{im.size[1]}, expected {want[0]}x{want[1]}")
                return im
            for i, t in enumerate(times):
                shoot(t).save(frame_path(outdir, i))
            # A shot soon after load can be the page as first drawn, before
            # any seek reached the compositor, and two such shots agree
            # (pacman, pulse and heart at 20–32 dB now and then on a loaded
            # machine, even after a seek and shot away first): the first
            # time is shot once more, last, seeked to from another time,
            # when the page has long left its load state.
            if len(times) == 1:
                shoot(times[0] + 0.5)
            if times:
                shoot(times[0]).save(frame_path(outdir, 0))
    except chromium_cdp.ChromiumError as e:
        raise Failure(f"chromium: {e}")
    finally:
        signal.alarm(0)
    return {"frames": len(times), "width": want[0], "height": want[1], "animations": info["css"] + info["smil"],
            "css": info["css"], "smil": info["smil"], "seconds": round(time.time() - started, 3)}


# ---------------------------------------------------------------- Lottie

def parse_frames(text):
    frames = parse_json(text, "FRAMES")
    if not isinstance(frames, list) or not all(isinstance(f, int) and f >= 0 for f in frames):
        raise Failure(f"FRAMES: expected a JSON list of frame numbers, got {text}")
    return frames


def lottie_rlottie(args):
    path, frames, w, h, outdir = args[:5]
    need_file(path)
    frames, w, h = parse_frames(frames), int(w), int(h)
    try:
        import rlottie_render
    except OSError as e:
        raise Failure(f"librlottie cannot be loaded: {e}")
    os.makedirs(outdir, exist_ok=True)
    info = None
    for i, n in enumerate(frames):
        try:
            anim = rlottie_render.load(path)
        except SystemExit as e:
            raise Failure(str(e.code))
        lib = rlottie_render.LIB
        info = info or {"totalframe": lib.lottie_animation_get_totalframe(anim),
                        "framerate": lib.lottie_animation_get_framerate(anim)}
        rlottie_render.render(anim, n, w, h).save(frame_path(outdir, i))
        lib.lottie_animation_destroy(anim)
    return dict({"frames": len(frames)}, **(info or {}))


def lottie_python(args):
    path, frames, w, h, outdir = args[:5]
    need_file(path)
    frames, w, h = parse_frames(frames), int(w), int(h)
    os.makedirs(outdir, exist_ok=True)
    records = []
    handler = logging.Handler(logging.WARNING)
    handler.emit = records.append
    try:
        sys.path.insert(0, os.path.join(HERE, "..", "..", ".build", "pylib"))
        from lottie.objects import Animation
        from lottie.exporters.svg import export_svg
        import cairosvg
    except (ImportError, OSError) as e:
        return {"available": False, "why": f"{type(e).__name__}: {e}", "warnings": [], "frames": 0}
    logging.getLogger().addHandler(handler)
    said = []

    def collect(stage, caught):
        said.extend(f"{stage}: {w.category.__name__}: {w.message}" for w in caught)
        said.extend(f"{stage}: {r.name}: {r.getMessage()}" for r in records)
        del records[:]

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with open(path, "rb") as f:
            data = f.read()
        try:
            source = json.loads(gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data)
            animation = Animation.load(source)
        except Exception as e:
            raise Failure(f"python-lottie cannot load {path}: {type(e).__name__}: {e}")
        collect("load", caught)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for i, n in enumerate(frames):
            svg_text = io.BytesIO()
            export_svg(animation, svg_text, animation.in_point + n, pretty=False)
            cairosvg.svg2png(bytestring=svg_text.getvalue(), write_to=frame_path(outdir, i),
                             output_width=w, output_height=h)
        collect("render", caught)
    logging.getLogger().removeHandler(handler)
    return {"available": True, "warnings": said, "dropped": dropped(source, animation.to_dict()),
            "frames": len(frames)}


def dropped(source, kept, where="$"):
    """JSON paths of keys in `source` with no counterpart in `kept`."""
    out = []
    if isinstance(source, dict) and isinstance(kept, dict):
        for key, value in source.items():
            if key not in kept:
                out.append(f"{where}.{key}")
            else:
                out += dropped(value, kept[key], f"{where}.{key}")
    elif isinstance(source, list) and isinstance(kept, list):
        for i, (a, b) in enumerate(zip(source, kept)):
            out += dropped(a, b, f"{where}[{i}]")
    return out


# ---------------------------------------------------------------- compare

def on_color(rgba, color):
    """Straight RGBA over an opaque color, rounded to 8 bits."""
    a = rgba[:, :, 3:4].astype(np.float64) / 255
    out = rgba[:, :, :3].astype(np.float64) * a + np.array(color, dtype=np.float64) * (1 - a)
    return np.floor(out + 0.5)


def loop_frames(info, frames, n):
    """The stored frames as n equal frames of the loop: frame k is the one
    shown at k/n of it, by the exact delays."""
    durations = [Fraction(num, den) for num, den in info["durations"]]
    total = sum(durations)
    out, start, i = [], Fraction(0), 0
    for k in range(n):
        t = total * k / n
        while i + 1 < len(frames) and start + durations[i] <= t:
            start += durations[i]
            i += 1
        out.append(frames[i])
    return out


def compare(args):
    import anim_reference
    ref, pngdir = args[0], args[1]
    color = [int(c) for c in args[args.index("--on") + 1].split(",")] if "--on" in args else [255, 255, 255]
    if len(color) != 3 or not all(0 <= c <= 255 for c in color):
        raise Failure("--on: expected R,G,B with each 0...255")
    need_file(ref)
    if not os.path.isdir(pngdir):
        raise Failure(f"{pngdir}: no such folder")
    with open(ref, "rb") as f:
        gif = f.read(6) in (b"GIF87a", b"GIF89a")
    try:
        info, frames = (anim_reference.gif_spec if gif else anim_reference.apng_spec)(ref)
    except Exception as e:
        raise Failure(f"{ref}: cannot decode it: {e}")
    if "--loop-frames" in args:
        frames = loop_frames(info, frames, int(args[args.index("--loop-frames") + 1]))
    count = 0
    while os.path.isfile(frame_path(pngdir, count)):
        count += 1
    if count == 0:
        raise Failure(f"{pngdir}: no frame_0000.png")
    entries = []
    for i in range(min(count, len(frames))):
        got = np.asarray(Image.open(frame_path(pngdir, i)).convert("RGBA"))
        want = np.asarray(frames[i])
        if got.shape != want.shape:
            raise Failure(f"{frame_path(pngdir, i)} is {got.shape[1]}x{got.shape[0]}, "
                          f"{ref} is {want.shape[1]}x{want.shape[0]}")
        d = on_color(got, color) - on_color(want, color)
        mse = float(np.mean(d ** 2))
        psnr = 99.0 if mse == 0 else min(99.0, 10 * math.log10(255 * 255 / mse))
        entries.append({"frame": i, "psnr": round(psnr, 3), "bad_pixels": int(np.count_nonzero(np.abs(d).max(axis=2) > 32))})
    return {"entries": entries, "min_psnr": min(e["psnr"] for e in entries), "ref_frames": len(frames),
            "png_frames": count, "width": info["width"], "height": info["height"]}


def frames(args):
    import anim_reference
    anim, n, outdir = args[0], int(args[1]), args[2]
    need_file(anim)
    info, stored = anim_reference.apng_spec(anim)
    os.makedirs(outdir, exist_ok=True)
    for i, f in enumerate(loop_frames(info, stored, n)):
        Image.fromarray(np.asarray(f).astype(np.uint8), "RGBA").save(frame_path(outdir, i))
    return {"frames": n}


COMMANDS = {"svg": (svg, 6), "lottie-rlottie": (lottie_rlottie, 5), "lottie-python": (lottie_python, 5),
            "compare": (compare, 2), "frames": (frames, 3)}


def main():
    if len(sys.argv) < 2 or sys.argv[1] not in COMMANDS or len(sys.argv) - 2 < COMMANDS[sys.argv[1]][1]:
        sys.stderr.write(__doc__)
        sys.exit(2)
    command, _ = COMMANDS[sys.argv[1]]
    try:
        result = command(sys.argv[2:])
    except (Failure, ValueError) as e:
        sys.stderr.write(f"vector_render.py {sys.argv[1]}: {e}\n")
        sys.exit(2)
    json.dump(result, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
