#!/usr/bin/env python3
"""Opens a `throbber gallery DIR` page in Debian's headless Chromium and
checks it as a person would see it.

usage: gallery_check.py DIR [--shots N] [--gap SECONDS] [--save-shots]

1. Every <img> of DIR/index.html (read with html.parser): after the page's
   load event and img.decode(), it is complete, its natural size is the size
   of its file (read by Pillow) and the width/height the page gives it.
2. Its place on the page (getBoundingClientRect) is cut out of N full-page
   screenshots taken GAP seconds apart. In each, that region must be one of
   the animation's frames (decoded by Pillow, composited onto the page color
   the <img> names in data-page, white when none, within 1 level per
   channel; 2 for WebP on a page that is not white), and it must hold ink (a pixel that is not the page color)
   whenever every frame of the animation has ink.
   An animation with blank frames must show ink in at least one of the N
   screenshots or of up to 4 more taken 0.17 s apart (a loaded machine
   can land every shot on the blank frames of a flip or a blink).
3. The animations run: between the first and the last screenshot some
   region shows a different frame.
4. An SVG <img> (drawn by Chromium, not Pillow): its natural size is the
   width and height of its root element (read with xml.etree), it is laid
   out at the width/height the page gives it, and its region holds ink in
   some screenshot. When a .png of the same name is beside it (the APNG of
   the same loader), "psnr" is the PSNR of each screenshot's region against
   the closest APNG frame, on the same page color.

Prints JSON: {"images": [{id, src, natural, attributes, file, rect,
"shown": [frame index per screenshot or null], "ink": [bool per screenshot],
"spare": [ink per spare screenshot, only when no screenshot had ink],
"blank_frames": n}], "changed": [ids], "problems": [...]}.
"""
import io, json, math, os, sys, time
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

import numpy as np
from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import chromium_cdp  # noqa: E402

TOLERANCE = 1
# Chromium draws a WebP's partial alpha premultiplied (its decoder's
# rounding): on a dark page that is up to 2 levels off the exact blend.
WEBP_ON_COLOR_TOLERANCE = 2
PAGE = (255, 255, 255)


class Images(HTMLParser):
    def __init__(self):
        super().__init__()
        self.images = []

    def handle_starttag(self, tag, attrs):
        if tag == "img":
            self.images.append(dict(attrs))


def page_color(tag):
    """The page color an <img> is shown on: its data-page (#rrggbb), else white."""
    text = tag.get("data-page", "")
    if len(text) == 7 and text.startswith("#"):
        return tuple(int(text[k:k + 2], 16) for k in (1, 3, 5))
    return PAGE


def frames_on_page(path, page=PAGE):
    """Every frame as the browser draws it on a page of color `page` (RGB uint8)."""
    im = Image.open(path)
    out = []
    for i in range(getattr(im, "n_frames", 1)):
        im.seek(i)
        a = np.asarray(im.convert("RGBA")).astype(np.float64)
        alpha = a[..., 3:4] / 255
        out.append(np.rint(a[..., :3] * alpha + np.array(page) * (1 - alpha)).astype(np.uint8))
    return out


def svg_size(path):
    """The width and height an SVG file's root element declares."""
    root = ET.parse(path).getroot()
    return [round(float(root.get("width"))), round(float(root.get("height")))]


def psnr(a, b):
    """PSNR in dB of two uint8 arrays (inf when equal)."""
    mse = float(np.mean((a.astype(np.float64) - b.astype(np.float64)) ** 2))
    return math.inf if mse == 0 else 10 * math.log10(255 ** 2 / mse)


def check_svg(entry, tag, path, d, pictures, spares, problems):
    """Checks an SVG <img> (see 4. above); fills `entry`. Returns whether
    its region differs between the first and the last screenshot."""
    ident = entry["id"]
    page = page_color(tag)
    declared = svg_size(path)
    entry["file"] = declared
    entry["kind"] = "svg"
    if d["natural"] != declared:
        problems.append(f"{ident}: natural size {d['natural']}, the SVG declares {declared}")
    rx, ry, w, h = d["rect"]
    if [w, h] != entry["attributes"]:
        problems.append(f"{ident}: laid out {w}x{h}, not its attributes {entry['attributes']}")
        return False
    x, y, w, h = round(rx), round(ry), int(w), int(h)
    regions = [shot[y:y + h, x:x + w] for shot in pictures]
    entry["ink"] = [bool((r != np.array(page)).any()) for r in regions]
    if not any(entry["ink"]):
        entry["spare"] = [bool((s[y:y + h, x:x + w] != np.array(page)).any()) for s in spares]
        if not any(entry["spare"]):
            problems.append(f"{ident}: no ink in any screenshot")
    reference = os.path.splitext(path)[0] + ".png"
    if os.path.exists(reference):
        frames = frames_on_page(reference, page)
        if frames[0].shape[:2] == (h, w):
            entry["psnr"] = [round(min(max(psnr(r, f) for f in frames), 99), 2) for r in regions]
    return not np.array_equal(regions[0], regions[-1])


def main():
    folder = os.path.abspath(sys.argv[1])
    shots = int(sys.argv[sys.argv.index("--shots") + 1]) if "--shots" in sys.argv else 2
    gap = float(sys.argv[sys.argv.index("--gap") + 1]) if "--gap" in sys.argv else 0.7
    problems = []
    parser = Images()
    parser.feed(open(os.path.join(folder, "index.html"), encoding="utf-8").read())
    declared = parser.images
    if not declared:
        problems.append("index.html has no <img>")

    with chromium_cdp.Chromium(1000, 800) as browser:
        page = browser.open("file://" + os.path.join(folder, "index.html"))
        # Show the whole page at once, at 1 CSS pixel per device pixel.
        size = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
        page.send("Emulation.setDeviceMetricsOverride",
                  {"width": max(size[0], 400), "height": size[1], "deviceScaleFactor": 1, "mobile": False})
        dom = page.evaluate("""(async () => {
            const imgs = [...document.images];
            const decoded = await Promise.all(imgs.map(i => i.decode().then(() => 'ok', e => String(e))));
            return imgs.map((i, k) => { const r = i.getBoundingClientRect();
                return {id: i.id, src: i.getAttribute('src'), complete: i.complete, decode: decoded[k],
                        natural: [i.naturalWidth, i.naturalHeight], rect: [r.x, r.y, r.width, r.height]}; });
        })()""")
        pictures = []
        for k in range(shots):
            if k:
                time.sleep(gap)
            pictures.append(np.asarray(Image.open(io.BytesIO(page.screenshot())).convert("RGB")))
        # Spare screenshots, only looked at for images none of whose
        # screenshots holds ink: 0.17 s is no multiple of a usual period.
        spares = []
        for _ in range(4):
            time.sleep(0.17)
            spares.append(np.asarray(Image.open(io.BytesIO(page.screenshot())).convert("RGB")))
        if "--save-shots" in sys.argv:
            for k, p in enumerate(pictures):
                Image.fromarray(p).save(os.path.join(folder, f"screenshot-{k}.png"))

    by_id = {d["id"]: d for d in dom}
    if [d.get("id") for d in declared] != [d["id"] for d in dom]:
        problems.append(f"the DOM's images {[d['id'] for d in dom]} are not index.html's {[d.get('id') for d in declared]}")
    results, changed = [], []
    for tag in declared:
        ident = tag.get("id")
        d = by_id.get(ident)
        if d is None:
            continue
        path = os.path.join(folder, tag["src"])
        entry = {"id": ident, "src": tag["src"], "natural": d["natural"], "rect": d["rect"],
                 "attributes": [int(tag.get("width", -1)), int(tag.get("height", -1))]}
        results.append(entry)
        if not d["complete"] or d["decode"] != "ok" or d["natural"][0] == 0:
            problems.append(f"{ident}: not loaded (complete {d['complete']}, decode(): {d['decode']}, natural {d['natural']})")
            continue
        if path.endswith(".svg"):
            if check_svg(entry, tag, path, d, pictures, spares, problems):
                changed.append(ident)
            continue
        try:
            page = page_color(tag)
            frames = frames_on_page(path, page)
        except Exception as e:  # noqa: BLE001
            problems.append(f"{ident}: Pillow cannot read {tag['src']}: {e}")
            continue
        fh, fw = frames[0].shape[:2]
        entry["file"] = [fw, fh]
        if d["natural"] != [fw, fh] or entry["attributes"] != [fw, fh]:
            problems.append(f"{ident}: natural size {d['natural']}, width/height attributes {entry['attributes']}, "
                            f"file {fw}x{fh}")
        rx, ry, w, h = d["rect"]
        if (w, h) != (fw, fh):
            problems.append(f"{ident}: laid out {w}x{h}, not {fw}x{fh}")
            continue
        inked = [bool((f != np.array(page)).any()) for f in frames]
        entry["blank_frames"] = inked.count(False)
        entry["shown"], entry["ink"], entry["at"] = [], [], []
        # The layout box may sit on a fraction of a pixel (the table's text
        # widths); Chromium paints the image snapped to a whole pixel: look
        # at the whole-pixel positions within a pixel of the box.
        places = [(x, y) for y in range(int(np.floor(ry)) - 1, int(np.ceil(ry)) + 2)
                  for x in range(int(np.floor(rx)) - 1, int(np.ceil(rx)) + 2)
                  if abs(x - rx) <= 1 and abs(y - ry) <= 1 and x >= 0 and y >= 0]
        for k, shot in enumerate(pictures):
            best_error, best, x, y = None, None, None, None
            for px, py in places:
                region = shot[py:py + fh, px:px + fw].astype(np.int16)
                if region.shape[:2] != (fh, fw):
                    continue
                errors = [int(np.abs(region - f).max()) for f in frames]
                i = int(np.argmin(errors))
                if best_error is None or errors[i] < best_error:
                    best_error, best, x, y = errors[i], i, px, py
            if best is None:
                problems.append(f"{ident}: outside screenshot {k} ({shot.shape[1]}x{shot.shape[0]})")
                entry["shown"].append(None)
                entry["ink"].append(False)
                continue
            region = shot[y:y + fh, x:x + fw]
            entry["at"].append([x, y])
            entry.setdefault("error", []).append(best_error)
            ink = bool((region != np.array(page)).any())
            tolerance = WEBP_ON_COLOR_TOLERANCE if page != PAGE and path.endswith(".webp") else TOLERANCE
            entry["shown"].append(best if best_error <= tolerance else None)
            entry["ink"].append(ink)
            if best_error > tolerance:
                problems.append(f"{ident}: screenshot {k} at ({x},{y}) {fw}x{fh} is none of the {len(frames)} frames "
                                f"(closest: frame {best}, off by {best_error})")
            if all(inked) and not ink:
                problems.append(f"{ident}: screenshot {k} at ({x},{y}) {fw}x{fh} is blank page white")
        if not any(entry["ink"]):
            if entry["at"]:
                x, y = entry["at"][0]
                entry["spare"] = [bool((s[y:y + fh, x:x + fw] != np.array(page)).any()) for s in spares]
            if not any(entry.get("spare", [])):
                problems.append(f"{ident}: no ink in any screenshot")
        if len(entry["at"]) == len(pictures):
            (x0, y0), (x1, y1) = entry["at"][0], entry["at"][-1]
            if not np.array_equal(pictures[0][y0:y0 + fh, x0:x0 + fw], pictures[-1][y1:y1 + fh, x1:x1 + fw]):
                changed.append(ident)
    if len(pictures) > 1 and not changed:
        problems.append(f"no image changed in {gap * (len(pictures) - 1):.1f} s: the animations do not run")
    json.dump({"images": results, "changed": changed, "page": size, "problems": problems}, sys.stdout)


main()
