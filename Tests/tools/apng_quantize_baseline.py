#!/usr/bin/python3
"""Baseline for palette-quality tests: how close an independent quantizer
(Pillow's median cut, max coverage and fast octree, no dithering) gets to a
picture with N colors.

Usage: apng_quantize_baseline.py RAW WIDTH HEIGHT N

RAW holds WIDTH*HEIGHT straight RGBA pixels. Prints the best PSNR in dB
(RGB channels of the pixels that are opaque in RAW, peak 255) that any of
the three Pillow quantizers reaches with N colors.
"""
import math
import sys

import numpy as np
from PIL import Image


def main():
    path, width, height, colors = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    rgba = np.fromfile(path, np.uint8).reshape(height, width, 4)
    opaque = rgba[:, :, 3] == 255
    rgb = np.ascontiguousarray(rgba[:, :, :3])
    best = 0.0
    for method in (Image.Quantize.MEDIANCUT, Image.Quantize.MAXCOVERAGE, Image.Quantize.FASTOCTREE):
        q = np.array(Image.fromarray(rgb).quantize(colors=colors, method=method).convert("RGB"))
        diff = (q.astype(np.float64) - rgb.astype(np.float64))[opaque]
        mse = float(np.mean(diff ** 2))
        best = max(best, math.inf if mse == 0 else 10 * math.log10(255 * 255 / mse))
    print(best)


main()
