#!/usr/bin/env python3
"""Reference for `encode CLIP --compression fast` resizing a video: the
Y'CbCr planes resampled before the conversion to RGB, in numpy, written
from the definitions.

usage: video_plane_resize.py IN.yuv WIDTH HEIGHT OUT_WIDTH OUT_HEIGHT MATRIX RANGE OUT.rgba

IN.yuv holds yuv420p frames (8-bit planes Y, Cb, Cr, chroma halved both
ways, rounded up), as `ffmpeg -f rawvideo -pix_fmt yuv420p` writes them;
MATRIX is bt709 or bt601, RANGE tv or pc. Writes OUT_WIDTH x OUT_HEIGHT
RGBA frames, back to back.

The picture it stands for: chroma brought to the luma grid by a cubic
with B = 0, C = 0.6 (swscale's bicubic, over the five samples swscale's
initFilter takes for an upscale: from p - 1.5 truncated toward zero, so
near the top a far tap of the negative lobe is left out), chroma sample j
sitting at luma column 2j and between rows 2j and 2j + 1 (H.264's default
siting), then
Lanczos-3 (pixel centres aligned, the kernel widened by the ratio when
shrinking, weights normalised, samples past an edge repeating the edge),
then the matrix; values are clipped and rounded once, at the end."""
import sys
import numpy as np

import resample_axis

WEIGHTS = {"bt709": (0.2126, 0.0722), "bt601": (0.299, 0.114)}


def lanczos3(x):
    x = np.asarray(x, dtype=np.float64)
    out = np.sinc(x) * np.sinc(x / 3)
    return np.where(np.abs(x) < 3, out, 0.0)


def cubic(x, c=0.6):
    a = np.abs(x)
    near = (2 - c) * a**3 + (c - 3) * a**2 + 1
    far = -c * a**3 + 5 * c * a**2 - 8 * c * a + 4 * c
    return np.where(a < 1, near, np.where(a < 2, far, 0.0))


def lanczos_matrix(src, dst):
    """dst x src: one axis resampled by Lanczos-3."""
    return resample_axis.weights(src, dst, lanczos3, 3)


def upsample_matrix(src, dst, offset):
    """dst x src: chroma sample j, at luma position 2j + offset, to the luma grid."""
    m = np.zeros((dst, src))
    for i in range(dst):
        p = (i - offset) / 2
        first = int(np.trunc(p - 1.5))
        for j in range(first, first + 5):
            m[i, min(max(j, 0), src - 1)] += cubic(p - j)
        m[i] /= m[i].sum()
    return m


def main():
    path, w, h, ow, oh, matrix, rng, out = sys.argv[1:9]
    w, h, ow, oh = int(w), int(h), int(ow), int(oh)
    cw, ch = (w + 1) // 2, (h + 1) // 2
    raw = np.fromfile(path, np.uint8)
    size = w * h + 2 * cw * ch
    lx, ly = lanczos_matrix(w, ow), lanczos_matrix(h, oh)
    ux, uy = upsample_matrix(cw, w, 0.0), upsample_matrix(ch, h, 0.5)
    kr, kb = WEIGHTS[matrix]
    kg = 1 - kr - kb
    full = rng == "pc"
    frames = []
    for k in range(len(raw) // size):
        f = raw[k * size:(k + 1) * size].astype(np.float64)
        y = f[:w * h].reshape(h, w)
        cb = f[w * h:w * h + cw * ch].reshape(ch, cw)
        cr = f[w * h + cw * ch:].reshape(ch, cw)
        y = ly @ y @ lx.T
        cb = ly @ (uy @ cb @ ux.T) @ lx.T
        cr = ly @ (uy @ cr @ ux.T) @ lx.T
        luma = y if full else (y - 16) * 255 / 219
        u = (cb - 128) * (1 if full else 255 / 224)
        v = (cr - 128) * (1 if full else 255 / 224)
        r = luma + 2 * (1 - kr) * v
        b = luma + 2 * (1 - kb) * u
        g = luma - 2 * kb * (1 - kb) / kg * u - 2 * kr * (1 - kr) / kg * v
        rgb = np.clip(np.stack([r, g, b], axis=2), 0, 255)
        rgba = np.concatenate([np.floor(rgb + 0.5), np.full((oh, ow, 1), 255.0)], axis=2)
        frames.append(rgba.astype(np.uint8).tobytes())
    with open(out, "wb") as f:
        f.write(b"".join(frames))


main()
