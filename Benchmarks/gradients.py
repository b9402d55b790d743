#!/usr/bin/python3
"""Banding check for dithering changes: smooth gradients with and without
strong edges, scored with a low-pass PSNR that sees bands and not dither
noise.

    Benchmarks/gradients.py WORKDIR THROBBER [THROBBER ...]

Writes two 12-frame 480x270 corpora to WORKDIR (a radial "sunset" gradient
whose center moves, and the same behind a black skyline with thin poles),
encodes each with every THROBBER binary given (default settings), and prints
bytes, mean PSNR and SSIM (gifmetrics.score) and the low-pass PSNR: both
frames blurred by the SSIM Gaussian (σ = 1.5, 11x11) first, so that dither
noise averages out and only bands and wrong tones remain. docs/tuning.md
("Edge-masked dithering") quotes its output. Also writes, per binary, a
crop of frame 6 of the skyline under a 2.5x contrast stretch
(skyline-crop-N.png) to look at.
"""

import os
import subprocess
import sys

import numpy as np
from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gifmetrics as gm  # noqa: E402

W, H, FRAMES = 480, 270, 12


def sunset(k, skyline):
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float64)
    t = np.clip(np.sqrt((xx - (120 + 20 * k)) ** 2 + (yy - 200) ** 2) / 420, 0, 1)[..., None]
    img = np.array([250, 150, 60.0]) * (1 - t) + np.array([20, 30, 80.0]) * t
    img[..., 2] += 40 * yy / H
    if skyline:
        for x0, w, h in [(30, 40, 120), (90, 25, 80), (140, 60, 150), (230, 30, 60), (300, 50, 110), (380, 35, 90)]:
            img[H - h:, x0:x0 + w] = (10, 10, 15)
        for x0 in range(20, W, 37):
            img[100:, x0:x0 + 2] = (10, 10, 15)
    return np.clip(np.round(img), 0, 255).astype(np.uint8)


def low_pass_psnr(sources, frames):
    errors = []
    for s, o in zip(sources, frames):
        blur = [np.stack([gm._filter_valid(x[..., c].astype(np.float64)) for c in range(3)], -1) for x in (s, o)]
        errors.append(((blur[0] - blur[1]) ** 2).mean())
    return 10 * np.log10(255 ** 2 / np.mean(errors))


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    work, binaries = sys.argv[1], sys.argv[2:]
    for name, skyline in (("sunset", False), ("skyline", True)):
        folder = os.path.join(work, name)
        os.makedirs(folder, exist_ok=True)
        sources = [sunset(k, skyline) for k in range(FRAMES)]
        for k, frame in enumerate(sources):
            Image.fromarray(frame).save(os.path.join(folder, "%04d.png" % k))
        for n, binary in enumerate(binaries):
            out = os.path.join(work, "%s-%d.gif" % (name, n))
            subprocess.run([binary, "encode", folder, "-o", out, "--quiet"], check=True)
            s = gm.score(out, sources, 25)
            frames = gm.decode_gif(out)[0]  # one per source frame: throbber keeps every 4 cs frame here
            print("%-8s %-40s %9d B  PSNR %.2f dB  SSIM %.5f  low-pass %.2f dB"
                  % (name, binary, os.path.getsize(out), s["psnr"], s["ssim"], low_pass_psnr(sources, frames)))
            if skyline:
                crop = frames[6][110:200, 190:300].astype(np.float64)
                stretched = np.clip((crop - [150, 80, 40]) * 2.5, 0, 255).astype(np.uint8)
                Image.fromarray(stretched).resize((330, 270), Image.NEAREST).save(
                    os.path.join(work, "skyline-crop-%d.png" % n))


if __name__ == "__main__":
    main()
