"""The resize, Lottie, video, vector export and start-up sections of
docs/benchmarks.md (Benchmarks/report.py), from resize.json
(Benchmarks/run-resize), lottie.json (Benchmarks/run-lottie), video.json
(Benchmarks/run-video), vector.md (Benchmarks/vector_sizes.py) and
startup.json (Benchmarks/startup.py)."""

from report_common import Bound, Section, fmt_psnr, num, span


def resize(d):
    s = Section()
    rows = d["gif"]
    if rows:
        ours = next(r for r in rows if r["kind"] == "throbber")
        glob = next(r for r in rows if r["name"] == "ffmpeg palettegen (global)")
        nan = {"psnr": float("nan"), "ssim": float("nan")}
        s.lines += ["#### testsrc2-1280x720, 60 frames → 480x270", ""]
        s.table(["tool", "bytes", "× throbber", "PSNR dB vs ImageMagick's", "SSIM", "PSNR dB vs ffmpeg's", "SSIM",
                 "wall s", "× ffmpeg", "CPU s", "peak RSS MB"],
                [[r["name"], num(r["bytes"]), f"{r['bytes'] / ours['bytes']:.2f}", fmt_psnr(r["psnr"]),
                  f"{r['ssim']:.5f}", fmt_psnr(r.get("ffmpeg_ref", nan)["psnr"]),
                  f"{r.get('ffmpeg_ref', nan)['ssim']:.5f}", f"{r['time']:.2f}", f"{r['time'] / glob['time']:.2f}",
                  f"{r['cpu']:.2f}", f"{r['rss_mb']:.0f}"] for r in [ours] + [r for r in rows if r["kind"] == "peer"]])
        curve = sorted([r for r in rows if r["kind"] in ("curve", "refine")], key=lambda r: -r["quality"])
        s.lines += ["throbber's `--quality` curve, against ImageMagick's frames:", ""]
        s.table(["--quality", "bytes", "× default", "PSNR dB", "SSIM"],
                [[f"{r['quality']}{'*' if r['kind'] == 'refine' else ''}", num(r["bytes"]),
                  f"{r['bytes'] / ours['bytes']:.2f}", fmt_psnr(r["psnr"]), f"{r['ssim']:.4f}"] for r in curve])
        s.summary.append(("Resize (`--width`)", f"{ours['time'] / glob['time']:.2f}× ffmpeg's time (global palette)"
                          + _checks_text(d)))
    res = d["resample"]
    s.lines += ["#### Resampling before palettes", ""]
    s.table(["resize", "throbber vs ImageMagick: PSNR dB (worst frame)", "SSIM", "throbber vs ffmpeg: PSNR dB "
             "(worst frame)", "SSIM", "ffmpeg vs ImageMagick: PSNR dB (worst frame)"],
            [[f"{r['from']} → {r['to']}", f"{r['psnr_im']:.2f} ({r['min_psnr_im']:.2f})", f"{r['ssim_im']:.5f}",
              f"{r['psnr_ff']:.2f} ({r['min_psnr_ff']:.2f})", f"{r['ssim_ff']:.5f}",
              f"{r['psnr_ff_im']:.2f} ({r['min_psnr_ff_im']:.2f})"] for r in res])
    s.summary.append(("Resize: resampling", "within " + span([r[k] for r in res for k in ("psnr_im", "psnr_ff")],
                                                           "{:.1f}") + " dB of ImageMagick's and ffmpeg's Lanczos"))
    return s


def _checks_text(d):
    checks = d.get("checks", [])
    return f"; targets met: {sum(c['pass'] for c in checks)} of {len(checks)}" if checks else ""


def lottie(d):
    s = Section()
    results = d["results"]
    peers = []
    for r in results:
        for p in r["rows"]:
            if p["kind"] == "peer" and p["name"] not in peers:
                peers.append(p["name"])
    body, speedups = [], []
    for r in results:
        by = {p["name"]: p for p in r["rows"]}
        ours = next(p for p in r["rows"] if p["kind"] == "throbber")
        cells = [f"{r['name']} ({r['size']}, {r['frames']} at {r['fr']:g} fps)", _cell(ours)]
        for name in peers:
            cells.append(_cell(by[name]) if name in by else f"fails: {r['failed'].get(name, 'not run')}")
            if name in by:
                speedups.append(by[name]["time"] / ours["time"])
        body.append(cells)
        if "rlottie-python" in by:
            s.bounds.append(Bound(f"Lottie wall / rlottie-python wall, {r['name']}",
                                  ours["time"] / by["rlottie-python"]["time"], "<=", 1.0))
    s.lines += ["Each cell: bytes, PSNR dB, SSIM, wall s; throbber's is its default.", ""]
    s.table(["file", "throbber"] + peers, body)
    quality = [c for c in d["checks"] if c[0] == "quality"]
    speed = [c for c in d["checks"] if c[0] == "time"]
    s.lines += [f"At each converter's size some throbber setting is at least as good on "
                f"**{sum(c[1] for c in quality)} of {len(quality)}**; throbber's default is faster on "
                f"**{sum(c[1] for c in speed)} of {len(speed)}**:", ""]
    s.lines += [f"- {'' if c[1] else '**not met** '}{c[2]}" for c in quality] + [""]
    s.summary.append(("Lottie", f"at each converter's size at least as good ({sum(c[1] for c in quality)} of "
                      f"{len(quality)}), {span(speedups, '{:.1f}')}× faster ({sum(c[1] for c in speed)} of "
                      f"{len(speed)}) than rlottie-python, python-lottie and pyrlottie"))
    return s


def _cell(p):
    return f"{num(p['bytes'])} B, {fmt_psnr(p['psnr'])}, {p['ssim']:.4f}, {p['time']:.2f} s"


def video(d):
    s = Section()
    body, gains, times, fast = [], [], [], []
    for c in d["clips"]:
        ff = next(r for r in c["rows"] if r["name"].startswith("ffmpeg"))
        for r in c["rows"]:
            body.append([c["name"] if r is c["rows"][0] else "", r["name"], num(r["bytes"]),
                         f"{r['bytes'] / ff['bytes']:.2f}", fmt_psnr(r["psnr"]), f"{r['ssim']:.4f}",
                         f"{r['time']:.2f}", f"{r['time'] / ff['time']:.2f}", f"{r['cpu_s']:.2f}"])
            if r is not ff and r["bytes"] <= ff["bytes"]:
                gains.append(r["psnr"] - ff["psnr"])
        ours = c["rows"][0]
        times.append(ours["time"] / ff["time"])
        # The quickest setting at no more than ffmpeg's bytes and with a
        # better picture: `--palette shared --compression fast` (or its
        # `--colors` row where that one is larger).
        quick = [r for r in c["rows"] if "--compression fast" in r["name"] and r["bytes"] <= ff["bytes"]
                 and r["psnr"] > ff["psnr"] and r["ssim"] > ff["ssim"]]
        if quick:
            fast.append(min(r["time"] for r in quick) / ff["time"])
    s.table(["clip", "tool", "bytes", "bytes × ffmpeg", "PSNR dB", "SSIM", "wall s", "wall × ffmpeg", "CPU s"], body)
    if d.get("long"):
        s.lines += ["The long clip (1920x1080 H.264 testsrc2 at 30 fps, `--width 480 --fps 10`):", ""]
        mem = sorted(d["long"]["memory"], key=lambda m: m["seconds"])
        s.table(["clip", "frames out", "bytes", "wall s", "peak RSS MB"],
                [[f"{m['seconds']} s", str(m["frames"]), num(m["bytes"]), f"{m['wall']:.1f}", f"{m['rss_mb']:.1f}"]
                 for m in mem])
        s.lines += [f"Peak RSS of the long clip: {mem[-1]['rss_mb'] / mem[0]['rss_mb']:.2f}× the short one's.", ""]
        s.table(["trim of the long clip", "frames", "PSNR dB", "SSIM", "wall s"],
                [[f"`--from {t['trim'][0]} --to {t['trim'][1]}`", str(t["frames"]), fmt_psnr(t["psnr"]),
                  f"{t['ssim']:.4f}", f"{t['time']:.2f}"] for t in d["long"]["trims"]])
    quick = (f"; `--palette shared --compression fast`, at no more than its bytes with higher PSNR and SSIM, "
             f"{span(fast)}× on {len(fast)} of {len(d['clips'])} clips") if fast else ""
    s.summary.append(("Video input", f"at no more than the bytes of ffmpeg's palettegen/paletteuse, "
                      f"{span(gains, '{:+.1f}')} dB PSNR; the default in {span(times)}× ffmpeg's wall time"
                      + quick))
    return s


def vector(text):
    s = Section()
    rows = [line for line in text.splitlines() if line.startswith("|")]
    s.lines += rows + [""]
    body = rows[2:]
    smaller = sum(line.rstrip(" |").endswith("yes") for line in body)
    s.summary.append(("Vector export (Lottie, SVG)", f"every preset's Lottie and SVG smaller than its GIF: "
                      f"{smaller} of {len(body)} presets"))
    return s


def startup(d):
    s = Section()
    s.lines += [f"{d['hyperfine']}, {d['runs']} runs after 3 warm-up runs:", ""]
    s.table(["command", "median ms", "min ms"],
            [[_command(r["command"]), f"{r['median']:.2f}", f"{r['min']:.2f}"] for r in d["rows"]])
    by = {r["command"]: r for r in d["rows"]}
    version = by.get("throbber --version")
    encode = by.get("throbber encode ring.png -o s.gif")
    if version and encode:
        s.summary.append(("Start-up", f"`throbber --version` {version['median']:.1f} ms; a 64x64 preset's APNG to "
                          f"GIF {encode['median']:.1f} ms (medians)"))
    return s


def _command(label):
    """`command` (note) from startup.py's "command (note)"."""
    command, _, note = label.partition(" (")
    return f"`{command}`" + (f" ({note}" if note else "")
