#!/usr/bin/python3
"""Scrolling text and dithered frames for the lossy GIF tests, and how far
a GIF's frames, as Pillow composites them, lie from their source frames.

  lossy_ghosts.py text DIR [--frames N] [--width W] [--height H] [--step S] [--noise A]
      Writes DIR/0000.png…: lines of DejaVu Sans text (anti-aliased, dark
      gray on white, in a column with white margins) scrolled S px a frame;
      with --noise, every channel of every pixel moved by a seeded uniform
      -A…A (a video codec's grain).
  lossy_ghosts.py dither DIR GIF [--frames N] [--width W] [--height H]
      Writes DIR/0000.png… (soft moving color gradients with grain) and GIF,
      those frames quantized by ffmpeg's palettegen and paletteuse with
      Floyd-Steinberg dithering; then DIR holds the GIF's own frames as
      Pillow shows them (what a re-encode is scored against).
  lossy_ghosts.py pan DIR GIF --photos FOLDER [--frames N] [--width W] [--height H]
      A camera-like pan made GIF as downloaded GIFs are: two frames of
      FOLDER (photo-seq-dlib-bobot) side by side, lightened, tinted sepia,
      with ffmpeg's grain; a window moving 8 px a frame; quantized by
      ffmpeg's palettegen and paletteuse with Floyd-Steinberg dithering into
      GIF; DIR holds the GIF's frames as Pillow shows them.
  lossy_ghosts.py measure GIF DIR
      Prints JSON: per source frame (the GIF's frames in order; it must have
      as many) the PSNR over R, G and B (capped at 100 dB), and the share of
      stale pixels: pixels the GIF did not change since frame j, whose
      source moved 8 levels or more (largest channel) since frame j, that
      are 8 levels or more off their source and nearer the source of frame
      j than the source now; and the share of flat pixels (those whose
      source's 3x3 neighborhood spans at most 2 levels of luma) more than
      FLAT_OFF levels (largest channel) off their source.
"""

import argparse
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
WORDS = ("the program is free software you can redistribute it and or modify it under the terms of the "
         "license as published by the foundation either version of the or at your option any later").split()


def text_frames(dest, frames, width, height, step, noise):
    font = ImageFont.truetype(FONT, 11)
    tall = Image.new("RGB", (width, height + step * frames), "white")
    draw = ImageDraw.Draw(tall)
    margin = width // 6
    y, k = 4, 0
    while y < tall.height - 12:
        line = []
        while draw.textlength(" ".join(line + [WORDS[k % len(WORDS)]]), font=font) < width - 2 * margin:
            line.append(WORDS[k % len(WORDS)])
            k += 1
        draw.text((margin, y), " ".join(line), fill=(36, 41, 47), font=font)
        y += 15 if k % 5 else 26
    full = np.asarray(tall).astype(np.int16)
    rng = np.random.default_rng(59)
    for f in range(frames):
        window = full[f * step:f * step + height].copy()
        if noise:
            window += rng.integers(-noise, noise + 1, window.shape, dtype=np.int16)
        Image.fromarray(np.clip(window, 0, 255).astype(np.uint8)).save(dest / f"{f:04d}.png")


def dither_frames(dest, gif, frames, width, height):
    rng = np.random.default_rng(59)
    y, x = np.mgrid[0:height, 0:width].astype(np.float64)
    for f in range(frames):
        r = 128 + 90 * np.sin((x + 3 * f) / 23.0) * np.cos(y / 31.0)
        g = 128 + 90 * np.sin((y - 2 * f) / 19.0 + x / 47.0)
        b = 128 + 90 * np.cos((x + y + 4 * f) / 29.0)
        rgb = np.stack([r, g, b], axis=2) + rng.normal(0, 4, (height, width, 3))
        Image.fromarray(np.clip(rgb, 0, 255).astype(np.uint8)).save(dest / f"{f:04d}.png")
    dither_gif(dest, gif)


def pan_frames(dest, gif, photos, frames, width, height):
    wide = dest / "wide.png"
    graph = ("[0][1]hstack=2,eq=gamma=1.4,format=rgb24,colorchannelmixer=rr=1.0:gg=0.85:bb=0.65:rb=0.1,"
             "format=gbrp,noise=c0s=4:c1s=4:c2s=4:all_seed=11,format=rgb24")
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-i", str(photos / "frame_000100.jpg"), "-i",
                    str(photos / "frame_000130.jpg"), "-filter_complex", graph, str(wide)],
                   check=True, stdin=subprocess.DEVNULL)
    full = np.asarray(Image.open(wide).convert("RGB"))
    wide.unlink()
    for f in range(frames):
        Image.fromarray(full[40:40 + height, 8 * f:8 * f + width]).save(dest / f"{f:04d}.png")
    dither_gif(dest, gif)


def dither_gif(dest, gif):
    """GIF: the frames of dest through ffmpeg's palettegen and Floyd-Steinberg
    paletteuse; then dest holds the GIF's frames as Pillow shows them."""
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-framerate", "25", "-i", str(dest / "%04d.png"), "-vf",
                    "split[a][b];[a]palettegen[p];[b][p]paletteuse=dither=floyd_steinberg", str(gif)],
                   check=True, stdin=subprocess.DEVNULL)
    for f, frame in enumerate(composited(gif)):
        Image.fromarray(frame).save(dest / f"{f:04d}.png")


def composited(gif):
    out = []
    with Image.open(gif) as im:
        for i in range(im.n_frames):
            im.seek(i)
            out.append(np.asarray(im.convert("RGB")))
    return out


def measure(gif, folder):
    sources = [np.asarray(Image.open(p).convert("RGB")) for p in sorted(Path(folder).glob("*.png"))]
    shown = composited(gif)
    if len(shown) != len(sources):
        sys.exit(f"lossy_ghosts: {gif} has {len(shown)} frames, {folder} {len(sources)}")
    psnr, stale, flat_off = [], [], []
    counter = StaleCounter()
    for out, src in zip(shown, sources):
        o, s = out.astype(np.int32), src.astype(np.int32)
        mse = float(np.mean((o - s) ** 2))
        psnr.append(100.0 if mse == 0 else min(100.0, 10 * np.log10(255.0 ** 2 / mse)))
        stale.append(counter.add(out, src))
        flat = flat_pixels(s)
        off = np.abs(o - s).max(axis=2) > FLAT_OFF
        flat_off.append(float(np.sum(flat & off)) / max(1, int(np.sum(flat))))
    print(json.dumps({"psnr": psnr, "stale": stale, "flat_off": flat_off}))


FLAT_OFF = 4


def flat_pixels(src):
    """Where the luma of `src` (HxWx3 int) spans at most 2 levels over the
    3x3 neighborhood (clipped at the edges)."""
    y = (src[..., 0] * 299 + src[..., 1] * 587 + src[..., 2] * 114) / 1000.0
    p = np.pad(y, 1, mode="edge")
    h, w = y.shape
    shifted = [p[dy:dy + h, dx:dx + w] for dy in range(3) for dx in range(3)]
    return (np.max(shifted, axis=0) - np.min(shifted, axis=0)) <= 2


class StaleCounter:
    """Stale pixels frame by frame: pixels not redrawn since frame j whose
    source moved `threshold` levels or more since j, that are `threshold`
    or more off and nearer the source of frame j than the source now
    (what an earlier frame drew, left where the picture changed)."""

    def __init__(self, threshold=8):
        self.threshold = threshold
        self.last = self.drawn_for = None

    def add(self, out, src):
        """The share of frame `out` (shown for source `src`) that is stale."""
        o, s = out.astype(np.int32), src.astype(np.int32)
        share = 0.0
        if self.last is None:
            self.drawn_for = s.copy()
        else:
            redrawn = np.any(o != self.last, axis=2)
            self.drawn_for[redrawn] = s[redrawn]
            moved = np.abs(s - self.drawn_for).max(axis=2) >= self.threshold
            err = np.abs(o - s).max(axis=2)
            nearer_old = np.abs(o - self.drawn_for).max(axis=2) < err
            share = float(np.mean(moved & (err >= self.threshold) & nearer_old))
        self.last = o
        return share


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("mode", choices=["text", "dither", "pan", "measure"])
    ap.add_argument("paths", nargs="+")
    ap.add_argument("--frames", type=int, default=24)
    ap.add_argument("--width", type=int, default=240)
    ap.add_argument("--height", type=int, default=160)
    ap.add_argument("--step", type=int, default=3)
    ap.add_argument("--noise", type=int, default=0)
    ap.add_argument("--photos", type=Path)
    a = ap.parse_args()
    if a.mode == "measure":
        return measure(a.paths[0], a.paths[1])
    dest = Path(a.paths[0])
    dest.mkdir(parents=True, exist_ok=True)
    if a.mode == "text":
        text_frames(dest, a.frames, a.width, a.height, a.step, a.noise)
    elif a.mode == "pan":
        pan_frames(dest, Path(a.paths[1]), a.photos, a.frames, a.width, a.height)
    else:
        dither_frames(dest, Path(a.paths[1]), a.frames, a.width, a.height)


if __name__ == "__main__":
    main()
