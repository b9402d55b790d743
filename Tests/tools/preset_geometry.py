#!/usr/bin/python3
"""Geometry of a preset's frames, measured on the decoded APNG and compared
with what the preset's definition says, for Throbber's preset tests.

usage: preset_geometry.py NAME APNG

The APNG (written by `throbber preset NAME` with the default options) is
decoded by anim_reference.py's own APNG spec decoder (struct, zlib, numpy;
lossless, so the alpha channel is exactly what was drawn) and expanded to
one picture per frame slot of the cycle. Everything expected is computed
here from the numbers of the preset definitions (design units, keyframes,
easings, periods, delays; Sources/ThrobberScene/Presets/*.swift and the
config format of `man throbber`), with this file's own cubic-Bezier
solver, never by calling Throbber. Measurements use alpha only:

  area      sum of alpha / 255 over a region, in px² (anti-aliased edges
            count their coverage), so a radius is sqrt(area / pi)
  chord     sum of alpha / 255 along one pixel row or column: a length
  centroid  alpha-weighted mean of pixel centers
  axis      orientation of the alpha-weighted second moments (degrees in
            [0, 180), y down, so positive turns clockwise on screen)
  clock     direction from the canvas center, 0° at 12 o'clock, clockwise
  peak      largest alpha in a region: 255 · opacity inside a filled shape

Conventions taken from the config format (man throbber): 0° is 12 o'clock and angles turn
clockwise (arcs, rotate, and the copies of `repeat.around`); copy i of a
`repeat` starts i·delay later; the value at time t is the value at
(t − delay) mod period; before the first key and after the last the value
holds; `ease` applies to the segment a key starts; rotateY is a horizontal
scale by cos θ; a layer's transforms act about its center (a group's
`center`, default the canvas center).

Prints JSON: {"preset", "width", "height", "frames", "slots", "checks",
"problems": [text], "worst": {what: largest |measured − expected| / tolerance}}.
"""
import json, math, os, sys
from fractions import Fraction
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from anim_reference import apng_spec  # noqa: E402


# ---------------------------------------------------------------- timing

def bezier(x1, y1, x2, y2):
    """CSS cubic-bezier timing function, x inverted by bisection to 1e-12."""
    def coord(s, a, b):
        u = 1 - s
        return 3 * u * u * s * a + 3 * u * s * s * b + s * s * s

    def f(x):
        if x <= 0:
            return 0.0
        if x >= 1:
            return 1.0
        lo, hi = 0.0, 1.0
        while hi - lo > 1e-12:
            mid = (lo + hi) / 2
            if coord(mid, x1, x2) < x:
                lo = mid
            else:
                hi = mid
        return coord((lo + hi) / 2, y1, y2)
    return f


EASE = {
    None: lambda p: p, "linear": lambda p: p,
    "ease-in": bezier(0.42, 0, 1, 1), "ease-out": bezier(0, 0, 0.58, 1), "ease-in-out": bezier(0.42, 0, 0.58, 1),
    "material": bezier(0.4, 0, 0.2, 1), "ripple": bezier(0, 0.2, 0.8, 1),
    "gravity-in": bezier(0.333333, 0, 0.666667, 0.333333), "gravity-out": bezier(0.333333, 0.666667, 0.666667, 1),
}


def keyframes(t, period, keys, delay=0.0):
    """keys: [(at, value, ease)]; the value at (t − delay) mod period."""
    u = (t - delay) % period
    if u < keys[0][0]:
        return keys[0][1]
    for (a, v, e), (b, w, _) in zip(keys, keys[1:]):
        if a <= u < b:
            return v + (w - v) * EASE[e]((u - a) / (b - a))
    return keys[-1][1]


def gq_scale(t):
    """GQCircleLoadView's dot scale (the third seed article's loader): 1 → 1.5 → 1 in 0.25 s each, ease-out, rest."""
    return keyframes(t, 0.75, [(0, 1, "ease-out"), (0.25, 1.5, "ease-out"), (0.5, 1, None)])


# ---------------------------------------------------------------- measuring

class Frame:
    def __init__(self, rgba):
        self.rgba = rgba
        self.a = rgba[..., 3].astype(np.float64)
        h, w = self.a.shape
        self.ys, self.xs = np.mgrid[0:h, 0:w].astype(np.float64) + 0.5

    def polar(self, cx, cy):
        dx, dy = self.xs - cx, self.ys - cy
        return np.hypot(dx, dy), np.degrees(np.arctan2(dx, -dy)) % 360

    def area(self, mask=None):
        return float((self.a if mask is None else self.a * mask).sum() / 255)

    def centroid(self, mask=None):
        w = self.a if mask is None else self.a * mask
        s = w.sum()
        return (float((w * self.xs).sum() / s), float((w * self.ys).sum() / s)) if s > 0 else None

    def axis(self, mask):
        w = self.a * mask
        s = w.sum()
        mx, my = (w * self.xs).sum() / s, (w * self.ys).sum() / s
        dx, dy = self.xs - mx, self.ys - my
        sxx, syy, sxy = (w * dx * dx).sum() / s, (w * dy * dy).sum() / s, (w * dx * dy).sum() / s
        return math.degrees(0.5 * math.atan2(2 * sxy, sxx - syy)) % 180

    def peak(self, mask=None):
        return float((self.a if mask is None else self.a * mask).max())

    def row_chord(self, y, x0=0, x1=None):
        return float(self.a[y, x0:x1].sum() / 255)

    def col_chord(self, x, y0=0, y1=None):
        return float(self.a[y0:y1, x].sum() / 255)


def angle_diff(a, b, modulus=360.0):
    """Distance between two angles (numbers or numpy arrays) modulo `modulus`."""
    d = np.mod(np.asarray(a, dtype=np.float64) - b, modulus)
    return np.minimum(d, modulus - d)


class Checker:
    def __init__(self, name):
        self.name, self.checks, self.problems, self.worst = name, 0, [], {}

    def near(self, what, k, measured, expected, tolerance, modulus=None):
        self.checks += 1
        if measured is None:
            self.problems.append(f"frame {k}: {what}: nothing measured, expected {expected:.3f}")
            return
        d = float(angle_diff(measured, expected, modulus)) if modulus else abs(measured - expected)
        self.worst[what] = max(self.worst.get(what, 0.0), round(d / tolerance, 3))
        if d > tolerance:
            self.problems.append(f"frame {k}: {what} {measured:.3f}, expected {expected:.3f} (± {tolerance})")


# ---------------------------------------------------------------- presets
# Each: (fps, cycle seconds, design units → px, check function). The check
# function gets (checker, k, t, frame).

def shape_px(units):
    """Shape presets: a 100-unit side drawn 64 px (defaultSize 64, scale 1)."""
    return units * 0.64


def ease(c, k, t, f):
    # 60 × 60 pt at scale 2, 1 pt per unit: 2 px per unit, center (60, 60).
    r, clock = f.polar(60, 60)
    # The ring (radius 26 ± 1.75 units, caps) is alone beyond 21 units; the
    # icon reaches 18.4 units. Two arcs centered at 3 and 9 o'clock: the
    # axis is horizontal at rest and turns with rotate = 480°·t (120° per
    # 0.25 s step, linear within a step).
    c.near("ring axis (deg, mod 180)", k, f.axis(r >= 42), (480 * t) % 180, 1.0, modulus=180)
    c.near("ring area (px²)", k, f.area(r >= 42), 4 * 2 * (3.5 * 26 * math.radians(130) + math.pi * 1.75 ** 2), 6.0)
    # Icon opacity: 1, 2/3, 1/3, 0, 1/3, 2/3 at the 0.25 s steps, linear in between.
    steps = [1, 2 / 3, 1 / 3, 0, 1 / 3, 2 / 3, 1]
    s = (t / 0.25) % 6
    i = int(s)
    opacity = steps[i] + (steps[i + 1] - steps[i]) * (s - i)
    # The big icon disc (radius 12 units) is centered at (30, 31) units.
    c.near("icon alpha at (30, 31)", k, f.peak(np.hypot(f.xs - 60, f.ys - 62) <= 8), 255 * opacity, 1.0)


def dots_common(c, k, t, f, flip):
    # 120 × 40 pt at scale 2: 2 px per unit; dots of radius 10 at x = 25, 60, 95, y = 20.
    cos = math.cos(math.radians(-360 * t)) if flip else 1.0
    centers = [120 + cos * (70 * i - 70) for i in range(3)]
    if abs(cos) < 0.3:
        return
    order = sorted(range(3), key=lambda i: centers[i])
    for n, i in enumerate(order):
        lo = 0 if n == 0 else (centers[order[n - 1]] + centers[i]) / 2
        hi = 240 if n == 2 else (centers[i] + centers[order[n + 1]]) / 2
        band = (f.xs >= lo) & (f.xs < hi)
        s = gq_scale(t - 0.25 * i)
        c.near(f"dot {i} area (px²)", k, f.area(band), math.pi * (20 * s) ** 2 * abs(cos), 1.0 + 0.02 * math.pi * (20 * s) ** 2)
        cx = f.centroid(band)
        c.near(f"dot {i} center x (px)", k, cx and cx[0], centers[i], 0.15)
        c.near(f"dot {i} center y (px)", k, cx and cx[1], 40, 0.15)
        c.near(f"dot {i} height (px)", k, f.col_chord(int(centers[i])), 40 * s, 0.3)


def dots(c, k, t, f):
    dots_common(c, k, t, f, flip=False)


def dots_flip(c, k, t, f):
    dots_common(c, k, t, f, flip=True)


def spinner(c, k, t, f):
    r, clock = f.polar(32, 32)
    for i in range(12):
        a = 30 * i
        sector = (angle_diff(clock, a) <= 15) & (r > 6)
        opacity = 1 - 0.85 * (((t - i / 12) % 1))          # 1 → 0.15 over 1 s, copy i 1/12 s later
        c.near(f"spoke {i} peak alpha", k, f.peak(sector), 255 * opacity, 1.0)
        cx, cy = f.centroid(sector)
        c.near(f"spoke {i} distance (px)", k, math.hypot(cx - 32, cy - 32), shape_px(31), 0.15)
        c.near(f"spoke {i} clock angle", k, math.degrees(math.atan2(cx - 32, -(cy - 32))) % 360, a, 0.5, modulus=360)
        c.near(f"spoke {i} axis (deg)", k, f.axis(sector), (a - 90) % 180, 1.0, modulus=180)   # radial
        # A rounded rect 8 × 26 with corners 4: 79.6 px². Measured within 1.3 px²
        # (cairo samples edges on a 15 × 17 grid: straight edges 16 px long, on
        # fractional positions, lose up to 1/17 px each); square ends would add 5.6.
        c.near(f"spoke {i} area (px²)", k, f.area(sector) * 255 / max(f.peak(sector), 1),
               shape_px(8) * shape_px(26) - (4 - math.pi) * shape_px(4) ** 2, 1.6)


def ring(c, k, t, f):
    u = t % 1.2
    rotate = 450 * t / 1.2
    end = 10 + 270 * EASE["material"](u / 0.6) if u < 0.6 else 280
    start = 0 if u < 0.6 else 270 * EASE["material"]((u - 0.6) / 0.6)
    radius, width = shape_px(38), shape_px(9)
    area = f.area()
    sweep = math.degrees((area - math.pi * (width / 2) ** 2) / (width * radius))   # round caps: one disc
    # Measured worst 1.23° (cairo's anti-aliasing along 220 px of edge); linear
    # instead of Material's curve would be off by up to 60°.
    c.near("arc sweep (deg)", k, sweep, end - start, 1.5)
    cx, cy = f.centroid()
    c.near("arc middle (clock deg)", k, math.degrees(math.atan2(cx - 32, -(cy - 32))) % 360,
           (rotate + (start + end) / 2) % 360, 1.0, modulus=360)


def dual_ring(c, k, t, f):
    r, clock = f.polar(32, 32)
    phi = 180 * t / 0.8
    outer, inner = r >= 20.2, r < 20.2
    c.near("outer pair axis (deg)", k, f.axis(outer), (90 + phi) % 180, 1.0, modulus=180)
    c.near("inner pair axis (deg)", k, f.axis(inner), (-phi) % 180, 1.0, modulus=180)
    w = shape_px(8)
    c.near("outer area (px²)", k, f.area(outer), 2 * (w * shape_px(40) * math.pi / 2 + math.pi * (w / 2) ** 2), 3.0)
    c.near("inner area (px², opacity 0.6)", k, f.area(inner), 0.6 * 2 * (w * shape_px(23) * math.pi / 2 + math.pi * (w / 2) ** 2), 2.0)
    c.near("inner peak alpha", k, f.peak(inner), 0.6 * 255, 1.0)
    c.near("outer peak alpha", k, f.peak(outer), 255, 0.5)


def chase(c, k, t, f):
    r, clock = f.polar(32, 32)
    for i in range(8):
        a = 45 * i
        sector = (angle_diff(clock, a) <= 22.5) & (r > 10)
        s = keyframes(t, 1, [(0, 1, None), (0.5, 0.4, None), (1, 1, None)], delay=0.125 * i)
        o = keyframes(t, 1, [(0, 1, None), (0.5, 0.3, None), (1, 1, None)], delay=0.125 * i)
        peak = f.peak(sector)
        c.near(f"dot {i} peak alpha", k, peak, 255 * o, 1.0)
        c.near(f"dot {i} radius (px)", k, math.sqrt(f.area(sector) * 255 / peak / math.pi), shape_px(9) * s, 0.12)
        cx, cy = f.centroid(sector)
        c.near(f"dot {i} distance (px)", k, math.hypot(cx - 32, cy - 32), shape_px(37), 0.15)
        c.near(f"dot {i} clock angle", k, math.degrees(math.atan2(cx - 32, -(cy - 32))) % 360, a, 0.5, modulus=360)


def orbit(c, k, t, f):
    r, clock = f.polar(32, 32)
    out_a, in_a = (360 * t) % 360, (180 - 360 * t) % 360
    # The outer dot (opaque) rides on the track (opacity 0.2): weigh what is above the track.
    outer = (r >= 18.5) & (r <= 30) & (angle_diff(clock, out_a) <= 30)
    w = np.clip(f.a - 51, 0, None) * outer
    s = w.sum()
    cx, cy = (w * f.xs).sum() / s, (w * f.ys).sum() / s
    c.near("outer dot clock angle", k, math.degrees(math.atan2(cx - 32, -(cy - 32))) % 360, out_a, 0.6, modulus=360)
    c.near("outer dot distance (px)", k, math.hypot(cx - 32, cy - 32), shape_px(36), 0.3)
    # The inner dot reaches 17.9 px out, where the outer dot's edge starts: stop short of it.
    inner = (r >= 8.5) & (r <= 17.6) & (angle_diff(clock, in_a) <= 30)
    cx, cy = f.centroid(inner)
    c.near("inner dot clock angle", k, math.degrees(math.atan2(cx - 32, -(cy - 32))) % 360, in_a, 0.8, modulus=360)
    c.near("inner dot distance (px)", k, math.hypot(cx - 32, cy - 32), shape_px(23), 0.2)
    c.near("inner dot peak alpha", k, f.peak(inner), 0.6 * 255, 1.0)
    c.near("center disc area (px²)", k, f.area(r < 9), math.pi * shape_px(11) ** 2, 1.2)
    far = (r >= shape_px(36) - 0.5) & (r <= shape_px(36) + 0.5) & (angle_diff(clock, out_a) > 40) & (angle_diff(clock, in_a) > 40)
    c.near("track peak alpha", k, f.peak(far), 0.2 * 255, 1.0)


def pulse(c, k, t, f):
    s = EASE["ease-out"](t % 1)
    o = 1 - EASE["ease-in"](t % 1)
    radius = shape_px(45) * s
    if o < 0.2 or radius < 2:
        return
    peak = f.peak()
    c.near("peak alpha", k, peak, 255 * o, 1.0)
    c.near("radius (px)", k, math.sqrt(f.area() * 255 / peak / math.pi), radius, 0.15)
    cx, cy = f.centroid()
    c.near("center x (px)", k, cx, 32, 0.05)
    c.near("center y (px)", k, cy, 32, 0.05)


def ripple(c, k, t, f):
    r, _ = f.polar(32, 32)
    rings = []
    for i in range(2):
        u = (t - 0.5 * i) % 1
        s, o = EASE["ripple"](u), 1 - u
        rings.append((shape_px(42) * s, shape_px(6) * s, o))
    for i, (radius, width, o) in enumerate(rings):
        other = rings[1 - i]
        lo, hi = radius - width / 2 - 1.5, radius + width / 2 + 1.5
        if o < 0.15 or width < 1.5 or abs(other[0] - radius) < (width + other[1]) / 2 + 3:
            continue
        band = (r >= lo) & (r <= hi)
        mean = float((f.a * band * r).sum() / (f.a * band).sum())
        c.near(f"ring {i} mean radius (px)", k, mean, radius + width ** 2 / (12 * radius), 0.12)
        if width >= 2:
            c.near(f"ring {i} peak alpha", k, f.peak(band), 255 * o, 1.0)
            c.near(f"ring {i} width (px)", k, f.area(band) * 255 / (255 * o) / (2 * math.pi * radius), width, 0.12)


def heart(c, k, t, f):
    s = keyframes(t, 1.2, [(0, 1, "ease-out"), (0.12, 1.18, "ease-in-out"), (0.28, 1, "ease-out"),
                           (0.4, 1.1, "ease-in-out"), (0.64, 1, None)])
    P = 0.64
    R, half = 21.22, 42.43 / math.sqrt(2)      # circle radius; the turned square's half-diagonal (30)

    def unit(px, axis_center=50):
        """A pixel-center coordinate back in unscaled design units (about the canvas center)."""
        return 50 + (px / P - axis_center) / s

    # Row through the circles' centers (y = 38.1): from the left circle's left edge to the right one's right edge.
    y = int(P * (50 + (38.1 - 50) * s))
    dy = unit(y + 0.5) - 38.1
    c.near("row width at the lobes (px)", k, f.row_chord(y), (30 + 2 * math.sqrt(R * R - dy * dy)) * s * P, 0.2)
    # Column x = 50 ± half a pixel: from the notch between the lobes down to the square's bottom corner.
    for x in (31, 32):
        dx = abs(unit(x + 0.5) - 50)
        top = 38.1 - math.sqrt(R * R - (15 - dx) ** 2)
        bottom = 53.1 + half - dx
        c.near(f"column {x} height (px)", k, f.col_chord(x), (bottom - top) * s * P, 0.25)
    cx, _ = f.centroid()
    c.near("center x (px)", k, cx, 32, 0.05)


def square_spin(c, k, t, f):
    theta = keyframes(t, 1.2, [(0, 0, "ease-in-out"), (0.5, 180, None)])
    sy = keyframes(t, 1.2, [(0.6, 1, "ease-in-out"), (1.1, -1, None)])
    side = shape_px(64)
    for y in (31, 32):
        c.near(f"row {y} width (px)", k, f.row_chord(y), side * abs(math.cos(math.radians(theta))), 0.12)
    if abs(math.cos(math.radians(theta))) > 0.1:
        for x in (31, 32):
            c.near(f"column {x} height (px)", k, f.col_chord(x), side * abs(sy), 0.12)


def grid(c, k, t, f):
    for row in range(3):
        for col in range(3):
            s = keyframes(t, 1.2, [(0, 1, "ease-in-out"), (0.42, 0, "ease-in-out"), (0.84, 1, None)],
                          delay=0.1 * (2 - row) + 0.1 * col)
            cx, cy = shape_px(18 + 32 * col), shape_px(18 + 32 * row)
            x0, x1, y0, y1 = int(cx - 10), int(cx + 10), int(cy - 10), int(cy + 10)
            # A row's alpha sum is the square's width only while the row lies
            # wholly inside it (half-side beyond the row's far edge, corners aside).
            half = shape_px(28) * s / 2 - 0.5 - shape_px(2) * s
            if half >= abs(int(cy) + 0.5 - cy):
                c.near(f"square r{row}c{col} width (px)", k, f.row_chord(int(cy), x0, x1), shape_px(28) * s, 0.12)
            if half >= abs(int(cx) + 0.5 - cx):
                c.near(f"square r{row}c{col} height (px)", k, f.col_chord(int(cx), y0, y1), shape_px(28) * s, 0.12)


def bars(c, k, t, f):
    for i in range(5):
        sy = keyframes(t, 1.2, [(0, 0.4, "ease-in-out"), (0.24, 1, "ease-in-out"), (0.48, 0.4, None)], delay=0.1 * i)
        cx = shape_px(18 + 16 * i)
        c.near(f"bar {i} height (px)", k, f.col_chord(int(cx)), shape_px(70) * sy, 0.12)
        c.near(f"bar {i} width (px)", k, f.row_chord(32, int(cx - 5), int(cx + 6)), shape_px(10), 0.12)
        band = (f.xs > cx - 5.12) & (f.xs < cx + 5.12)
        c.near(f"bar {i} center y (px)", k, f.centroid(band)[1], 32, 0.05)


def wave(c, k, t, f):
    for i in range(5):
        ty = keyframes(t, 1.2, [(0, -12, "ease-in-out"), (0.6, 12, "ease-in-out"), (1.2, -12, None)], delay=0.15 * i)
        x = shape_px(14 + 18 * i)
        band = (f.xs > x - shape_px(9)) & (f.xs < x + shape_px(9))
        cx, cy = f.centroid(band)
        c.near(f"dot {i} center x (px)", k, cx, x, 0.05)
        c.near(f"dot {i} center y (px)", k, cy, shape_px(25 + ty), 0.05)
        c.near(f"dot {i} radius (px)", k, math.sqrt(f.area(band) / math.pi), shape_px(7), 0.05)


def bounce(c, k, t, f):
    period, land, squash, leave = 0.96, 0.44, 0.48, 0.52
    ty = keyframes(t, period, [(0, -50, "gravity-in"), (land, 0, None), (leave, 0, "gravity-out"), (period, -50, None)])
    sy = keyframes(t, period, [(0, 1, "ease-in"), (land, 1.06, "ease-out"), (squash, 0.7, "ease-in"),
                               (leave, 1.06, "ease-out"), (period, 1, None)])
    sx = keyframes(t, period, [(0, 1, "ease-in"), (land, 0.95, "ease-out"), (squash, 1.3, "ease-in"),
                               (leave, 0.95, "ease-out"), (period, 1, None)])
    near = keyframes(t, period, [(0, 0.5, "gravity-in"), (land, 1, None), (leave, 1, "gravity-out"), (period, 0.5, None)])
    dark = keyframes(t, period, [(0, 0.4, "gravity-in"), (land, 1, None), (leave, 1, "gravity-out"), (period, 0.4, None)])
    # The ball: a circle of radius 12 whose lowest point is the group's center (50, 86),
    # moved by ty and scaled (sx, sy) about that point.
    center_y = shape_px(86 + ty - 12 * sy)
    yc = int(center_y)
    c.near("ball width (px)", k, f.row_chord(yc), shape_px(24 * sx) * 2 * math.sqrt(max(0.0, 0.25 - ((yc + 0.5 - center_y) / shape_px(24 * sy)) ** 2)), 0.15)
    for x in (31, 32):
        # Rows above the ball's center hold nothing but the ball: what is not ink there is above its top.
        dx = (x + 0.5 - 32) / shape_px(12 * sx)
        top = center_y - shape_px(12 * sy) * math.sqrt(1 - dx * dx)
        c.near(f"ball top, column {x} (px)", k, yc - f.col_chord(x, 0, yc), top, 0.15)
    # The shadow (radius 16, scale `near`, flattened to 0.2, opacity 0.3 · dark) at (50, 87), when the ball is clear of it.
    if 86 + ty < 82:
        below = f.ys > shape_px(83)
        rx, ry = shape_px(16 * near), shape_px(16 * 0.2 * near)
        c.near("shadow peak alpha", k, f.peak(below), 255 * 0.3 * dark, 1.0)
        # Thin (ry ≈ 1–2 px): its area is only good to about 5% (edges sampled
        # every 1/17 px vertically); its half-width from the x moment is exact:
        # for an ellipse, var(x) = rx² / 4.
        c.near("shadow area (px²)", k, f.area(below) / (0.3 * dark), math.pi * rx * ry, 0.3 + 0.05 * math.pi * rx * ry)
        sx_, sy_ = f.centroid(below)
        w = f.a * below
        c.near("shadow half-width (px)", k, 2 * math.sqrt(float((w * (f.xs - sx_) ** 2).sum() / w.sum())), rx, 0.1)
        c.near("shadow center x (px)", k, sx_, 32, 0.05)
        c.near("shadow center y (px)", k, sy_, shape_px(87), 0.05)


def ellipsis(c, k, t, f):
    for i in range(3):
        o = keyframes(t, 1.2, [(0, 0.3, "ease-in-out"), (0.3, 1, "ease-in-out"), (0.6, 0.3, None)], delay=0.2 * i)
        s = keyframes(t, 1.2, [(0, 1, "ease-in-out"), (0.3, 1.15, "ease-in-out"), (0.6, 1, None)], delay=0.2 * i)
        x = shape_px(22 + 28 * i)
        band = (f.xs > x - shape_px(14)) & (f.xs < x + shape_px(14))
        peak = f.peak(band)
        c.near(f"dot {i} peak alpha", k, peak, 255 * o, 1.0)
        c.near(f"dot {i} radius (px)", k, math.sqrt(f.area(band) * 255 / peak / math.pi), shape_px(10) * s, 0.1)
        cx, cy = f.centroid(band)
        c.near(f"dot {i} center x (px)", k, cx, x, 0.05)
        c.near(f"dot {i} center y (px)", k, cy, 16, 0.05)


def pacman(c, k, t, f):
    start = keyframes(t, 0.5, [(0, 90, "ease-out"), (0.25, 135, "ease-in"), (0.5, 90, None)])
    end = keyframes(t, 0.5, [(0, 450, "ease-out"), (0.25, 405, "ease-in"), (0.5, 450, None)])
    # The pie covers clock angles start … end around (26, 50): sample alpha on
    # rays 16–22 units out, where the dots (y within 5 of 50) never reach.
    cx0, cy0 = shape_px(26), shape_px(50)
    a = f.a / 255

    def covered(theta):
        total = 0.0
        for rho in np.linspace(shape_px(16), shape_px(22), 7):
            x = cx0 + rho * math.sin(math.radians(theta)) - 0.5
            y = cy0 - rho * math.cos(math.radians(theta)) - 0.5
            x0, y0 = int(math.floor(x)), int(math.floor(y))
            fx, fy = x - x0, y - y0
            total += (a[y0, x0] * (1 - fx) * (1 - fy) + a[y0, x0 + 1] * fx * (1 - fy)
                      + a[y0 + 1, x0] * (1 - fx) * fy + a[y0 + 1, x0 + 1] * fx * fy)
        return total / 7
    upper = sum(covered(th + 0.25) for th in np.arange(0, 66, 0.5)) * 0.5
    lower = sum(covered(th + 0.25) for th in np.arange(114, 180, 0.5)) * 0.5
    c.near("upper lip: covered degrees of 0–66", k, upper, min(max(end - 360, 0), 66), 1.5)
    c.near("lower lip: covered degrees of 114–180", k, lower, 180 - min(max(start, 114), 180), 1.5)
    for i in range(2):
        u = (t - 0.5 * i) % 1
        x, o = shape_px(94 - 68 * u), min(1.0, u / 0.15)
        if x - shape_px(5) < shape_px(50) + 1.5 or o < 0.2:
            continue
        band = (f.xs > x - shape_px(8)) & (f.xs < x + shape_px(8)) & (f.xs > shape_px(50) + 1)
        peak = f.peak(band)
        c.near(f"dot {i} peak alpha", k, peak, 255 * o, 1.0)
        cx, cy = f.centroid(band)
        c.near(f"dot {i} center x (px)", k, cx, x, 0.05)
        c.near(f"dot {i} center y (px)", k, cy, 32, 0.05)


PRESETS = {
    "ease": (20, 1.5, ease), "dots": (40, 0.75, dots), "dots-flip": (40, 3, dots_flip),
    "spinner": (24, 1, spinner), "ring": (40, 1.2, ring), "dual-ring": (25, 0.8, dual_ring), "chase": (24, 1, chase),
    "orbit": (25, 1, orbit), "pulse": (25, 1, pulse), "ripple": (25, 1, ripple), "heart": (25, 1.2, heart),
    "square-spin": (25, 1.2, square_spin), "grid": (25, 1.2, grid), "bars": (25, 1.2, bars), "wave": (25, 1.2, wave),
    "bounce": (25, 0.96, bounce), "ellipsis": (25, 1.2, ellipsis), "pacman": (25, 1, pacman),
}

# Presets whose loop begins later in the cycle (timing.start, seconds), so
# that the first frame shows the loader: frame k shows cycle time
# start + k / fps (modulo the cycle).
START = {"pulse": 0.4, "ring": 0.3}


def main():
    name, path = sys.argv[1], sys.argv[2]
    fps, cycle, check = PRESETS[name]
    info, frames = apng_spec(path)
    c = Checker(name)
    n = round(Fraction(str(cycle)) * fps)
    slot = Fraction(str(cycle)) / n
    slots = []
    for frame, (num, den) in zip(frames, info["durations"]):
        count = Fraction(num, den or 100) / slot
        if count.denominator != 1:
            c.problems.append(f"a frame lasts {num}/{den} s, not a whole number of 1/{int(1 / slot)} s slots")
        slots += [frame] * int(count)
    if len(slots) != n:
        c.problems.append(f"{len(slots)} slots in the file, expected {n} ({cycle} s at {fps} fps)")
    shift = round(Fraction(str(START.get(name, 0))) * n / Fraction(str(cycle)))
    for k, rgba in enumerate(slots[:n]):
        j = (k + shift) % n
        check(c, j, j * cycle / n, Frame(np.asarray(rgba)))
    json.dump({"preset": name, "width": info["width"], "height": info["height"], "frames": len(frames),
               "slots": len(slots), "checks": c.checks, "problems": c.problems, "worst": c.worst}, sys.stdout)


if __name__ == "__main__":
    main()
