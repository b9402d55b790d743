"""Quality metrics for the benchmark, with Pillow and numpy only.

A GIF is decoded the way a viewer shows it (Pillow composites each frame over
what the previous ones left, honouring disposal and transparency), its frames
are lined up with the source frames on the source's time grid, and each pair
is scored:

PSNR  over the R, G and B samples of the frame: 10·log10(255² / MSE). A frame
      identical to its source has infinite PSNR; every per-frame value is
      capped at PSNR_CAP (100 dB, beyond any visible difference), so the mean
      stays finite and a lossless encode scores exactly PSNR_CAP.
SSIM  on luma Y = 0.299 R + 0.587 G + 0.114 B (ITU-R BT.601 weights), with
      the standard parameters of Wang et al. (2004): an 11x11 Gaussian window
      with σ = 1.5, K1 = 0.01, K2 = 0.03, L = 255, population (not sample)
      statistics, averaged over every window that fits wholly inside the frame
      (no padding, no down-sampling). This is the same number as
      scikit-image's structural_similarity(..., gaussian_weights=True,
      sigma=1.5, use_sample_covariance=False, data_range=255) on the same
      luma, which crops the padded border before averaging.

Both are averaged over source frames: a tool that merges or drops frames is
scored by what the viewer shows at each source frame's time.
"""

from bisect import bisect_right

import numpy as np
from PIL import Image

PSNR_CAP = 100.0

# SSIM constants (Wang, Bovik, Sheikh, Simoncelli 2004).
_L = 255.0
_C1 = (0.01 * _L) ** 2
_C2 = (0.03 * _L) ** 2
_LUMA = np.array([0.299, 0.587, 0.114])


def gaussian_window(size=11, sigma=1.5):
    """The 1-D normalized Gaussian; the 2-D window is its outer product."""
    r = size // 2
    x = np.arange(-r, r + 1, dtype=np.float64)
    k = np.exp(-(x * x) / (2.0 * sigma * sigma))
    return k / k.sum()


_WINDOW = gaussian_window()


def _filter_valid(img, k=_WINDOW):
    """Weighted mean of `img` under the separable window `k` at every position
    where the window fits wholly inside (a 'valid' correlation)."""
    n = len(k)
    h, w = img.shape
    rows = k[0] * img[:, 0:w - n + 1]
    for i in range(1, n):
        rows += k[i] * img[:, i:w - n + 1 + i]
    out = k[0] * rows[0:h - n + 1, :]
    for i in range(1, n):
        out += k[i] * rows[i:h - n + 1 + i, :]
    return out


def luma(rgb):
    """HxWx3 uint8 -> HxW float64 luma in 0…255."""
    return rgb.astype(np.float64) @ _LUMA


class LumaStats:
    """Luma of one image with its window means and variances."""

    def __init__(self, rgb):
        y = luma(rgb)
        self.y = y
        self.mu = _filter_valid(y)
        self.var = _filter_valid(y * y) - self.mu * self.mu


def ssim(a, b):
    """Mean SSIM of two LumaStats (or HxWx3 uint8 arrays)."""
    if not isinstance(a, LumaStats):
        a = LumaStats(a)
    if not isinstance(b, LumaStats):
        b = LumaStats(b)
    cov = _filter_valid(a.y * b.y) - a.mu * b.mu
    num = (2.0 * a.mu * b.mu + _C1) * (2.0 * cov + _C2)
    den = (a.mu * a.mu + b.mu * b.mu + _C1) * (a.var + b.var + _C2)
    return float(np.mean(num / den))


def psnr(a, b):
    """PSNR in dB of two HxWx3 uint8 arrays over all samples, capped."""
    d = a.astype(np.int32) - b.astype(np.int32)
    mse = float(np.mean(d * d))
    if mse == 0.0:
        return PSNR_CAP
    return min(PSNR_CAP, 10.0 * np.log10(_L * _L / mse))


def decode_gif(path):
    """Frames of a GIF as a viewer shows them.

    Returns (frames, starts_ms, total_ms, transparent_pixels): HxWx3 uint8
    RGB arrays, each frame's start time, the loop length, and how many
    composited pixels were not fully opaque (the viewer would show the page
    behind them; 0 for a correct encode of an opaque source)."""
    frames, starts = [], []
    t = 0
    transparent = 0
    with Image.open(path) as im:
        for i in range(im.n_frames):
            im.seek(i)
            rgba = np.asarray(im.convert("RGBA"))
            transparent += int(np.count_nonzero(rgba[:, :, 3] != 255))
            frames.append(np.ascontiguousarray(rgba[:, :, :3]))
            starts.append(t)
            d = im.info.get("duration", 0) or 0
            # Browsers show delays under 2 cs as 10 cs; so do we.
            t += d if d >= 20 else 100
    return frames, starts, t, transparent


def align(starts, total_ms, count, fps):
    """For each of `count` source frames at `fps`, the index of the GIF frame
    a viewer shows at the middle of that source frame's slot (looping)."""
    out = []
    for k in range(count):
        t = (k + 0.5) * 1000.0 / fps
        if total_ms > 0:
            t = t % total_ms
        out.append(max(0, bisect_right(starts, t) - 1))
    return out


def score(gif_path, sources, fps):
    """Scores a GIF against source frames (list of HxWx3 uint8).

    Returns a dict with frames, duration_ms, psnr, ssim, exact (frames identical
    to their source), transparent_pixels and size_mismatch."""
    return score_decoded(decode_gif(gif_path), sources, fps)


def score_decoded(decoded, sources, fps):
    """score() of an animation already decoded as decode_gif returns it."""
    frames, starts, total, transparent = decoded
    shown = align(starts, total, len(sources), fps)
    psnrs, ssims, exact = [], [], 0
    for k, src in enumerate(sources):
        out = frames[shown[k]]
        if out.shape != src.shape:
            return {"frames": len(frames), "duration_ms": total, "psnr": float("nan"),
                    "ssim": float("nan"), "exact": 0, "transparent_pixels": transparent,
                    "size_mismatch": True}
        if np.array_equal(out, src):
            psnrs.append(PSNR_CAP)
            ssims.append(1.0)
            exact += 1
            continue
        psnrs.append(psnr(out, src))
        ssims.append(ssim(out, src))
    return {"frames": len(frames), "duration_ms": total, "psnr": float(np.mean(psnrs)),
            "ssim": float(np.mean(ssims)), "exact": exact, "transparent_pixels": transparent,
            "size_mismatch": False}


def load_rgb(path):
    with Image.open(path) as im:
        return np.asarray(im.convert("RGB"))


def _self_test():
    """Sanity checks of the metrics on synthetic images (no files needed)."""
    rng = np.random.default_rng(1)
    a = rng.integers(0, 256, (40, 50, 3), dtype=np.uint8)
    assert psnr(a, a) == PSNR_CAP
    assert abs(ssim(a, a) - 1.0) < 1e-12
    b = a.copy()
    b[0, 0, 0] ^= 1
    assert 85 < psnr(a, b) < PSNR_CAP  # one sample of 6000 off by one: ≈ 85.9 dB
    c = np.clip(a.astype(int) + 10, 0, 255).astype(np.uint8)
    assert 25 < psnr(a, c) < 29, psnr(a, c)
    # Window: 11 taps, symmetric, sums to 1, centre weight of σ = 1.5.
    w = gaussian_window()
    assert len(w) == 11 and abs(w.sum() - 1) < 1e-12 and np.allclose(w, w[::-1])
    # SSIM of a constant image against itself shifted in brightness only:
    # luminance term alone, 2μxμy+C1 / μx²+μy²+C1.
    x = np.full((20, 20, 3), 100, np.uint8)
    y = np.full((20, 20, 3), 110, np.uint8)
    want = (2 * 100 * 110 + _C1) / (100 ** 2 + 110 ** 2 + _C1)
    assert abs(ssim(x, y) - want) < 1e-9
    # Timeline alignment: a GIF that merged frames 1 and 2 of a 4-frame source.
    assert align([0, 40, 120], 160, 4, 25) == [0, 1, 1, 2]
    print("gifmetrics self-test: ok")


if __name__ == "__main__":
    _self_test()
