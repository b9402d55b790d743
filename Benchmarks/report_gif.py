"""The GIF sections of docs/benchmarks.md (Benchmarks/report.py): the
default encode against the peers per corpus, throbber's --quality curves,
memory, re-encoding and the screen recording, from the results of
Benchmarks/run (gif.json), Benchmarks/run-reencode and
Benchmarks/run-screencast (their printed output).

Every renderer takes the suite's results and returns a Section."""

import re

from report_common import Bound, Section, corpora, fmt_psnr, num, span

SINGLE = "ffmpeg stats_mode=single"


def default_encode(d):
    """Per corpus: every encoder's bytes, quality, time and memory."""
    s = Section()
    ratios, gains = [], []
    for name, rows in d["corpora"].items():
        ours = next(r for r in rows if r["kind"] == "throbber")
        single = next(r for r in rows if r["name"] == SINGLE)
        lossless = ours["exact"] == ours["frames"] and all(r["exact"] == r["frames"] for r in rows)
        s.lines += [f"#### {name}: {ours['frames']} frames", ""]
        head = ["encoder", "bytes", "× throbber", "PSNR dB", "SSIM", "wall s", "× ffmpeg single", "CPU s",
                "peak RSS MB"]
        body = [[r["name"], num(r["bytes"]), f"{r['bytes'] / ours['bytes']:.2f}", fmt_psnr(r["psnr"]),
                 f"{r['ssim']:.4f}", f"{r['time']:.2f}", f"{r['time'] / single['time']:.2f}", f"{r['cpu']:.2f}",
                 f"{r['rss_mb']:.0f}"] for r in [ours] + [r for r in rows if r["kind"] == "peer"]]
        s.table(head, body)
        if lossless:
            s.lines += ["Every output is exact on every frame.", ""]
        ratio = ours["time"] / single["time"]
        ratios.append(ratio)
        bound = 0.8 if name.endswith("320x240") else 1.0
        s.bounds.append(Bound(f"GIF default wall / ffmpeg stats_mode=single, {name}", ratio, "<=", bound))
        if not lossless:
            peers = [r for r in rows if r["kind"] == "peer"]
            gains.append(ours["psnr"] - max(r["psnr"] for r in peers))
    checks = [c for c in d["checks"] if c["target"] == 1]
    won = sum(c["pass"] for c in checks)
    s.summary.append(("GIF, default encode: size and quality against ImageMagick, ImageMagick + gifsicle -O3, "
                      "ffmpeg (global and per-frame palettes), Pillow",
                      f"at every peer's size some throbber setting at least as good in PSNR and SSIM: {won} of "
                      f"{len(checks)} peer files on {corpora(len(d['corpora']))}"
                      + (f"; the default's PSNR {span(gains, '{:+.1f}')} dB against the best peer's on the lossy "
                         "corpora" if gains else "")))
    s.summary.append(("GIF, default encode: time",
                      f"{span(ratios, '{:.2f}')}× the wall time of ffmpeg `stats_mode=single`"))
    return s


def curves(d):
    """throbber's --quality curve on every corpus that has one."""
    s = Section()
    cols = {name: {r["quality"]: r for r in rows if r["kind"] in ("curve", "refine")}
            for name, rows in d["corpora"].items() if not name.startswith("life")}
    cols = {k: v for k, v in cols.items() if v}
    if not cols:
        return s
    qualities = sorted({q for v in cols.values() for q in v}, reverse=True)
    body = []
    for q in qualities:
        marked = any(v.get(q, {}).get("kind") == "refine" for v in cols.values())
        body.append([f"{q}{'*' if marked else ''}"] + [
            f"{num(v[q]['bytes'])}, {fmt_psnr(v[q]['psnr'])}, {v[q]['ssim']:.4f}" if q in v else ""
            for v in cols.values()])
    s.lines += ["Bytes, PSNR dB, SSIM at each `--quality`; `*` marks a quality between two curve points, tried "
                "because no point matched a peer's size:", ""]
    s.table(["--quality"] + list(cols), body)
    return s


def memory(d):
    s = Section()
    if not d.get("memory"):
        return s
    head = ["corpus", "frames", "bytes", "wall s", "peak RSS MB (median)", "peak RSS MB (max)"]
    s.table(head, [[f"{m['source']} {m['size']}", str(m["frames"]), num(m["bytes"]), f"{m['time']:.2f}",
                    f"{m['rss_mb']:.1f}", f"{m['rss_max_mb']:.1f}"] for m in d["memory"]])
    big = [m for m in d["memory"] if m["frames"] == 600]
    s.summary.append(("GIF, default encode: memory",
                      "600 frames of 640x360 peak at " + ", ".join(f"{m['rss_max_mb']:.1f} MB ({m['source']})"
                                                                   for m in big)))
    return s


def reencode(text):
    """Benchmarks/run-reencode's lines: difference, ours, gifsicle's, file."""
    s = Section()
    rows, refused = [], []
    for line in text.splitlines():
        m = re.match(r"^(-?\d+) (\d+) (\d+) (.+)$", line)
        if m:
            rows.append((int(m[1]), int(m[2]), int(m[3]), m[4]))
        elif line.startswith("refused"):
            refused.append(line)
    if not rows:
        return s
    larger = [r for r in rows if r[0] > 0]
    ours, theirs = sum(r[1] for r in rows), sum(r[2] for r in rows)
    s.lines += [f"**{len(larger)} of {len(rows)}** files come out larger than gifsicle's; all of them together "
                f"take {num(ours)} B against gifsicle's {num(theirs)} B ({ours / theirs:.4f}×). The largest "
                "differences either way, and every file larger than gifsicle's:", ""]
    shown = sorted(rows, key=lambda r: r[0])[:8] + larger
    s.table(["file", "ours", "gifsicle -O3", "ours − gifsicle's"],
            [[r[3], num(r[1]), num(r[2]), f"{r[0]:+,}"] for r in sorted(set(shown), key=lambda r: r[0])])
    if refused:
        s.lines += ["Refused: " + "; ".join(refused) + ".", ""]
    s.summary.append(("GIF: re-encoding an existing GIF", f"no larger than `gifsicle -O3 in.gif` on "
                      f"{len(rows) - len(larger)} of the {len(rows)} fixture GIFs"))
    return s


def screencast(text):
    s = Section()
    lines = [line for line in text.splitlines() if line.startswith("|")]
    s.lines += lines + [""] if lines else []
    return s
