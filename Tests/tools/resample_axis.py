"""One axis of a separable resize, as a matrix, for the reference resizes
(mitchell_resize.py, video_plane_resize.py): output i samples the source at
(i + 0.5) * scale - 0.5 (pixel centres aligned); the kernel's support is
widened by the scale when shrinking, so every source pixel contributes;
weights are normalised to sum to 1 and samples past the edge repeat the
edge pixel."""
import numpy as np


def weights(src, dst, kernel, support):
    """The dst x src matrix that resamples one axis with `kernel` (of
    `support` source pixels on each side at scale 1)."""
    scale = src / dst
    stretch = max(scale, 1.0)
    m = np.zeros((dst, src))
    for i in range(dst):
        centre = (i + 0.5) * scale - 0.5
        taps = np.arange(int(np.floor(centre - support * stretch)), int(np.ceil(centre + support * stretch)) + 1)
        for t, wt in zip(np.clip(taps, 0, src - 1), kernel((taps - centre) / stretch)):
            m[i, t] += wt
        m[i] /= m[i].sum()
    return m
