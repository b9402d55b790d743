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
  vector_render.py lottie-thorvg FILE.json FRAMES W H OUTDIR [--slots JSON]
      ThorVG's frames (PyPI thorvg-python 1.1.3 in .build/pylib, its bundled
      libthorvg 1.0.4, software canvas, no threads): the file loaded once
      as a picture sized W x H, each frame of FRAMES (counted from its ip)
      set and drawn in turn, as OUTDIR/frame_NNNN.png (straight RGBA,
      unpremultiplied as rlottie_render.py does). With --slots, the slot
      values JSON gives ({"ID": {"p": {"a": 0, "k": VALUE}}}) are set over
      the file's own before drawing, as a player applies a theme
      ("slots_applied" says whether ThorVG took them). Prints JSON {"available",
      "why" (when thorvg-python cannot be imported), "version", "frames",
      "totalframe", "slots_applied"}.
  vector_render.py lottie-qt FILE.json FRAMES W H OUTDIR
      Qt 6.4's LottieAnimation (Debian's Qt Lottie and PyQt6, through
      qt_lottie_render.py; see its docstring for what Qt reads). Prints its
      JSON {"frames", "width", "height", "status", "warnings" (Qt's
      warnings: "Unsupported layer type: 3", ...)} with "available": true,
      or {"available": false, "why"} when PyQt6 or the QML modules are missing.
  vector_render.py qt-timing FILE.json OUT.json
      FILE with every keyframed value rewritten so that a player reading the
      format as written shows, at each whole frame, what Qt 6.4 shows of FILE:
      keyframe times rounded to whole frames, each segment from its "s" to
      its "e" ending a frame before the next key and held there (Qt ends a
      segment at the frame before the next key, bmproperty_p.h), a
      one-frame segment its end value. Drawn by rlottie, it is a reference
      for Qt's frames that leaves out only Qt's timing. Prints JSON {"written"}.
  vector_render.py compare REF.png|REF.gif|REFDIR PNGDIR [--on R,G,B] [--loop-frames N]
      REF is decoded by anim_reference.py's own APNG or GIF decoder (a
      folder REFDIR: its frame_NNNN.png, without --loop-frames); its
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


def lottie_thorvg(args):
    path, frames, w, h, outdir = args[:5]
    need_file(path)
    frames, w, h = parse_frames(frames), int(w), int(h)
    try:
        sys.path.insert(0, os.path.join(HERE, "..", "..", ".build", "pylib"))
        import thorvg_python as tvg
    except (ImportError, OSError) as e:
        return {"available": False, "why": f"{type(e).__name__}: {e}", "frames": 0}
    with open(path, "rb") as f:
        data = f.read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    os.makedirs(outdir, exist_ok=True)
    engine = tvg.Engine(threads=0)
    _, major, minor, micro, _ = engine.version()
    animation = tvg.LottieAnimation(engine)
    picture = animation.get_picture()
    if picture.load_data(data, "lottie", None, True) != tvg.Result.SUCCESS:
        raise Failure(f"ThorVG cannot load {path}")
    picture.set_size(w, h)
    applied = None
    if "--slots" in args:
        # Slot values a player sets over the file's own (ThorVG's gen_slot/apply_slot).
        slots = args[args.index("--slots") + 1]
        sid = animation.gen_slot(slots)
        sid = sid[-1] if isinstance(sid, tuple) else sid
        applied = animation.apply_slot(sid) == tvg.Result.SUCCESS
    canvas = tvg.SwCanvas(engine)
    canvas.set_target(w, h, cs=tvg.Colorspace.ABGR8888)
    canvas.add(picture)
    _, total = animation.get_total_frame()
    for i, n in enumerate(frames):
        # A frame already shown is refused (INSUFFICIENT_CONDITION) and stays drawn.
        animation.set_frame(float(n))
        canvas.update()
        canvas.draw(True)
        canvas.sync()
        p = np.frombuffer(bytes(canvas.buffer_arr), dtype=np.uint32).astype(np.int64)
        Image.fromarray(unpremultiplied(p, (0, 8, 16)).reshape(h, w, 4), "RGBA").save(frame_path(outdir, i))
    canvas.destroy()
    engine.term()
    return {"available": True, "version": f"{major}.{minor}.{micro}", "frames": len(frames), "totalframe": total,
            "slots_applied": applied}


def lottie_qt(args):
    import subprocess
    path, frames, w, h, outdir = args[:5]
    need_file(path)
    parse_frames(frames)
    run = subprocess.run(["/usr/bin/python3", os.path.join(HERE, "qt_lottie_render.py"), path, frames, w, h, outdir],
                         capture_output=True, text=True, timeout=600)
    if run.returncode == 3:
        return {"available": False, "why": run.stderr.strip(), "frames": 0}
    if run.returncode != 0:
        raise Failure(run.stderr.strip() or f"qt_lottie_render.py exited {run.returncode}")
    return dict(json.loads(run.stdout), available=True)


def qround(t):
    """A keyframe time as Qt 6.4 reads it: QVariant's double to int, rounded half away from zero."""
    return int(t + 0.5) if t >= 0 else -int(-t + 0.5)


def qt_keys(keys):
    """Keyframes that a player reading them as the Lottie format says shows,
    at each whole frame, what Qt 6.4 shows of `keys`: each key's time
    rounded, each segment from its "s" to its "e" ending a frame before the
    next key (bmproperty_p.h: endFrame = next startFrame - 1) and held
    there, a one-frame segment its end value, "h" not read."""
    out = []
    for i, k in enumerate(keys):
        if "s" not in k:
            break
        a = qround(k["t"])
        if i + 1 == len(keys):
            out.append({"t": a, "s": k["s"], "h": 1})
            break
        b = qround(keys[i + 1]["t"])
        e = k.get("e", k["s"])
        if b <= a:
            continue
        if b - 1 == a:
            out.append({"t": a, "s": e, "h": 1})
            continue
        out.append({"t": a, "s": k["s"], "o": k.get("o", {"x": [0], "y": [0]}), "i": k.get("i", {"x": [0], "y": [0]})})
        out.append({"t": b - 1, "s": e, "h": 1})
    return out


def qt_timed(node):
    if isinstance(node, dict):
        if node.get("a") == 1 and isinstance(node.get("k"), list) and node["k"] and isinstance(node["k"][0], dict):
            return dict(node, k=qt_keys(node["k"]))
        return {key: qt_timed(value) for key, value in node.items()}
    if isinstance(node, list):
        return [qt_timed(x) for x in node]
    return node


def qt_timing(args):
    path, out = args[:2]
    need_file(path)
    with open(path, "rb") as f:
        source = parse_json(f.read(), path)
    with open(out, "w") as f:
        json.dump(qt_timed(source), f)
    return {"written": out}


def unpremultiplied(p, shifts):
    """Straight RGBA of premultiplied 32-bit pixels (alpha in the top byte,
    red, green and blue at `shifts`), as rlottie_render.py does it: each
    channel c of alpha a > 0 becomes floor((c*255 + a//2) / a), at most 255."""
    a = p >> 24
    out = np.zeros((len(p), 4), dtype=np.uint8)
    safe = np.maximum(a, 1)
    for j, shift in enumerate(shifts):
        c = (p >> shift) & 255
        out[:, j] = np.where(a > 0, np.minimum(255, (c * 255 + a // 2) // safe), 0)
    out[:, 3] = a
    return out


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
        # A position split into x and y ("s": true) is read into one
        # keyframed pair (PositionValue._load_split) and written back as "k".
        split = source.get("s") is True and "x" in source and "y" in source and "k" in kept
        for key, value in source.items():
            if split and key in ("s", "x", "y"):
                continue
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
    if not os.path.isdir(pngdir):
        raise Failure(f"{pngdir}: no such folder")
    if os.path.isdir(ref):
        frames = []
        while os.path.isfile(frame_path(ref, len(frames))):
            frames.append(np.asarray(Image.open(frame_path(ref, len(frames))).convert("RGBA")))
        if not frames:
            raise Failure(f"{ref}: no frame_0000.png")
        info = {"width": frames[0].shape[1], "height": frames[0].shape[0]}
    else:
        need_file(ref)
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
            "lottie-thorvg": (lottie_thorvg, 5), "lottie-qt": (lottie_qt, 5), "qt-timing": (qt_timing, 2),
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
