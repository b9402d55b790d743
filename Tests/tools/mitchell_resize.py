#!/usr/bin/env python3
"""Reference Mitchell-Netravali resize (B = C = 1/3) in numpy, written from
the filter's definition, for `encode --resize-filter mitchell`.

usage: mitchell_resize.py WIDTH HEIGHT OUTDIR IN.png...
writes each opaque input resized to WIDTH x HEIGHT as OUTDIR/0001.png...

Separable: rows, then columns, in floating point, rounded once at the
end. Output pixel i samples the source at (i + 0.5) * scale - 0.5 (pixel
centres aligned); the kernel's support of 2 is widened by the scale when
shrinking (scale > 1), so every source pixel contributes; weights are
normalised to sum to 1 and samples past the edge repeat the edge pixel."""
import os, sys
import numpy as np
from PIL import Image

import resample_axis

B = C = 1.0 / 3.0

def kernel(x):
    x = np.abs(x)
    near = ((12 - 9 * B - 6 * C) * x**3 + (-18 + 12 * B + 6 * C) * x**2 + (6 - 2 * B)) / 6
    far = ((-B - 6 * C) * x**3 + (6 * B + 30 * C) * x**2 + (-12 * B - 48 * C) * x + (8 * B + 24 * C)) / 6
    return np.where(x < 1, near, np.where(x < 2, far, 0.0))

def weights(src, dst):
    """The dst x src matrix that resamples one axis."""
    return resample_axis.weights(src, dst, kernel, 2)

def main():
    width, height, folder, inputs = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4:]
    os.makedirs(folder, exist_ok=True)
    for n, path in enumerate(inputs):
        src = np.asarray(Image.open(path).convert("RGB"), np.float64)
        h, w, _ = src.shape
        rows = np.einsum("xw,hwc->hxc", weights(w, width), src)
        out = np.einsum("yh,hxc->yxc", weights(h, height), rows)
        out = np.clip(np.floor(out + 0.5), 0, 255).astype(np.uint8)
        Image.fromarray(out, "RGB").save(os.path.join(folder, "%04d.png" % (n + 1)))

main()
