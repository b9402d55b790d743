#!/usr/bin/python3
"""Inlines several SVG files into one HTML page in headless Chromium, as a
web developer pastes loaders into a page, and screenshots each one.

usage:
  svg_page.py PAGE.json OUTDIR [--timeout S]
      PAGE.json: {"svgs": [{"file": F, "width": W, "height": H,
                            "times": [t, ...]}, ...],
                  "scale": S, "seek": true,
                  "media": {"prefers-color-scheme": "dark", ...},
                  "css": "extra page CSS"}
      Each SVG's text is pasted into the page's body as it is (inline
      <svg>, not <img>), shown W x H CSS pixels large (its points times
      its pixel scale: drawn at its frames' size), one below the other
      with 8 CSS pixels between them, on a transparent page with the emulated media features given
      (Emulation.setEmulatedMedia). With "seek" (the default), for each
      time t of an SVG's own list the animations inside that SVG are
      paused and set to t (Web Animations API, the list taken once after
      load, as vector_render.py does); times are seconds as numbers or
      [num, den]. Without "seek", the page is left as it plays itself (a
      loader paused by its own CSS) and shot once after one second. Each
      SVG's box is captured at device scale S as
      OUTDIR/svg_I/frame_NNNN.png (straight RGBA).
      Prints JSON {"boxes": [[x, y, w, h], ...], "animations",
      "names": [the accessible name of every element of role image, in
      page order, from Chromium's accessibility tree], "paused": the
      animations whose play state is paused before any seek}.
Errors exit 2 with one line on stderr.
"""
import base64, io, json, math, os, signal, sys, time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import chromium_cdp  # noqa: E402
from PIL import Image  # noqa: E402
from vector_render import (Failure, STABLE_SHOTS, SHOT_SECONDS, WINDOW, frame_path, on_alarm,  # noqa: E402
                           on_term, parse_times)

GAP = 8

SETUP_JS = r"""
(async (seek) => {
  window.__vr = document.getAnimations();
  const cells = [...document.querySelectorAll('div.cell')];
  window.__cells = cells.map(c => window.__vr.filter(a => c.contains(a.effect.target)));
  const paused = window.__vr.filter(a => a.playState === 'paused').length;
  if (seek) {
    for (const a of window.__vr) a.pause();
    await Promise.all(window.__vr.map(a => a.ready));
  }
  const boxes = [...document.querySelectorAll('div.cell > svg')].map(s => {
    const b = s.getBoundingClientRect(); return [b.x, b.y, b.width, b.height]; });
  return {animations: window.__vr.length, paused, boxes};
})
"""

SEEK_JS = r"""
(async (cell, ms) => {
  for (const a of window.__cells[cell]) { a.pause(); a.currentTime = ms; }
  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  return true;
})
"""


def page_html(spec):
    cells, y = [], 0
    for s in spec["svgs"]:
        with open(s["file"], encoding="utf-8") as f:
            text = f.read()
        cells.append(f'<div class="cell" style="top:{y}px;width:{s["width"]}px;height:{s["height"]}px">{text}</div>')
        y += math.ceil(s["height"]) + GAP
    css = ("html,body{margin:0;background:transparent}div.cell{position:absolute;left:0;line-height:0}"
           "div.cell>svg{width:100%;height:100%}")
    return ("<!doctype html><html><head><meta charset=utf-8><style>" + css + spec.get("css", "")
            + "</style></head><body>" + "".join(cells) + "</body></html>"), y


def names(page):
    page.send("Accessibility.enable")
    out = []
    for node in page.send("Accessibility.getFullAXTree")["nodes"]:
        role = node.get("role", {}).get("value")
        if role in ("image", "img") and not node.get("ignored"):
            out.append(node.get("name", {}).get("value", ""))
    return out


def run(spec_path, outdir, limit):
    with open(spec_path) as f:
        spec = json.load(f)
    scale = float(spec.get("scale", 1))
    times = [parse_times(json.dumps(s.get("times", [0]))) for s in spec["svgs"]]
    seek = spec.get("seek", True)
    html, total = page_html(spec)
    work = os.path.join(outdir, "page.html")
    os.makedirs(outdir, exist_ok=True)
    with open(work, "w", encoding="utf-8") as f:
        f.write(html)
    width = max(math.ceil(s["width"]) for s in spec["svgs"])
    signal.signal(signal.SIGALRM, on_alarm)
    signal.signal(signal.SIGTERM, on_term)
    signal.alarm(max(1, math.ceil(limit)))
    try:
        with chromium_cdp.Chromium(*WINDOW) as browser:
            def setup(page):
                # Before the page loads: its animations start under these media features.
                page.send("Emulation.setDeviceMetricsOverride",
                          {"width": width, "height": total, "deviceScaleFactor": scale, "mobile": False})
                page.send("Emulation.setDefaultBackgroundColorOverride",
                          {"color": {"r": 0, "g": 0, "b": 0, "a": 0}})
                features = [{"name": k, "value": v} for k, v in spec.get("media", {}).items()]
                page.send("Emulation.setEmulatedMedia", {"features": features})

            page = browser.open("file://" + os.path.abspath(work), timeout=limit, setup=setup)
            info = page.evaluate(SETUP_JS + "(%s)" % ("true" if seek else "false"))
            if not seek:
                time.sleep(1)

            def seek_to(j, i):
                page.evaluate(SEEK_JS + "(%d, %r)" % (j, float(times[j][i] * 1000)), timeout=limit)

            def shoot(j, i):
                x, y, w, h = info["boxes"][j]
                clip = {"x": x, "y": y, "width": w, "height": h, "scale": 1}
                previous = None
                for _ in range(STABLE_SHOTS):
                    shot = page.send("Page.captureScreenshot", {"format": "png", "clip": clip},
                                     timeout=SHOT_SECONDS)["data"]
                    if shot == previous:
                        break
                    previous = shot
                    if seek:
                        seek_to(j, i)
                return Image.open(io.BytesIO(base64.b64decode(shot))).convert("RGBA")

            rounds = max(len(t) for t in times) if seek else 1
            # The first round is shot again last: a shot soon after load
            # can be the page as first drawn (vector_render.py, svg).
            for i in list(range(rounds)) + [0]:
                cells = [j for j in range(len(times)) if i < len(times[j])]
                if seek:
                    for j in cells:
                        seek_to(j, i)
                for j in cells:
                    d = os.path.join(outdir, "svg_%d" % j)
                    os.makedirs(d, exist_ok=True)
                    shoot(j, i).save(frame_path(d, i))
            accessible = names(page)
    except chromium_cdp.ChromiumError as e:
        raise Failure(f"chromium: {e}")
    finally:
        signal.alarm(0)
    return {"boxes": info["boxes"], "animations": info["animations"], "names": accessible, "paused": info["paused"]}


def main():
    args = sys.argv[1:]
    if len(args) < 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    limit = float(args[args.index("--timeout") + 1]) if "--timeout" in args else 300
    try:
        print(json.dumps(run(args[0], args[1], limit)))
    except (Failure, OSError, ValueError, KeyError) as e:
        print(f"svg_page.py: {e}", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
