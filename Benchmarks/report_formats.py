"""The lossy/budget, APNG and WebP sections of docs/benchmarks.md
(Benchmarks/report.py), from lossy.json (Benchmarks/run-lossy),
apng.json (Benchmarks/apng.py) and webp.json (Benchmarks/run-webp)."""

import re

from report_common import Bound, Section, corpora, fmt_psnr, num, span, table

BUDGET_TIME = 2.0


def lossy(d):
    """Time of --lossy 80 and --max-bytes, the R-D verdict with the plots,
    our lossy levels against gifsicle's, and the budgets."""
    s = Section()
    body, worst = [], []
    for r in d["corpora"]:
        b = {int(x["fraction"] * 100): x for x in r["budgets"]}
        body.append([r["name"], f"{r['default_wall']:.2f} s", f"{r['lossy80_wall'] / r['default_wall']:.2f}×"]
                    + [f"{b[p]['wall'] / r['default_wall']:.2f}×" if p in b else "" for p in (50, 25, 10)]
                    + [f"{sum(p['dominated_by'] is not None for p in r['peers'])} of {len(r['peers'])}"])
        for p in (50, 25):
            if p in b:
                ratio = b[p]["wall"] / r["default_wall"]
                worst.append(ratio)
                s.bounds.append(Bound(f"--max-bytes {p} % wall / default wall, {r['name']}", ratio, "<=",
                                      BUDGET_TIME))
    s.lines += ["Wall time as a multiple of the default encode's, and the peer files dominated:", ""]
    s.table(["corpus", "default", "`--lossy 80`", "`--max-bytes` 50 %", "25 %", "10 %", "peer files dominated"],
            body)
    s.lines += _at_peer(d["corpora"])
    for r in d["corpora"]:
        s.lines += [f"#### {r['name']}", ""]
        if r.get("plot"):
            s.lines += [f"![{r['name']}: bytes against PSNR and SSIM]({r['plot']})", ""]
        s.lines += _levels(r) + _budgets(r)
    dominated = [(sum(p["dominated_by"] is not None for p in r["peers"]), len(r["peers"])) for r in d["corpora"]]
    s.summary.append(("GIF: `--lossy N` and `--max-bytes`",
                      f"our bytes/quality curve dominates {sum(a for a, _ in dominated)} of "
                      f"{sum(b for _, b in dominated)} peer files (gifsicle --lossy, the gifski recipe, ffmpeg "
                      f"palettegen) on {corpora(len(dominated))}; `--max-bytes` at 50 %/25 % takes "
                      f"{span(worst)}× a default encode" + _at_peer_summary(d["corpora"])))
    return s


def _at_peer(results):
    """`--max-bytes` at each chosen peer file's size against that file (Benchmarks/lossy_peer.py)."""
    rows = [(r["name"], a) for r in results for a in r.get("at_peer", [])]
    if not rows:
        return []
    body = []
    for name, a in rows:
        ours = ([num(a["bytes"]), fmt_psnr(a["psnr"]), f"{a['ssim']:.5f}"] if a["bytes"] else
                ["refused (exit 65)", "", ""])
        body.append([name, a["peer"], num(a["peer_bytes"]), fmt_psnr(a["peer_psnr"]), f"{a['peer_ssim']:.5f}"] + ours
                    + [re.sub(r"^--max-bytes \d+: ", "", a["chose"]) if a["bytes"] else "",
                       f"{a['wall']:.2f} s", f"{a['wall'] / a['default_wall']:.2f}×", "WIN" if a["win"] else "LOSE"])
    lines = ["#### At a peer's file size", "",
             "`--max-bytes` at the size of each peer file against that file: WIN when our PSNR and SSIM are both at "
             "least the peer's, LOSE otherwise. Wall time is the median of the runs, and its multiple of a default "
             "encode timed in the same rounds:", ""]
    return lines + table(["corpus", "peer file", "peer bytes", "peer PSNR dB", "peer SSIM", "throbber bytes",
                          "PSNR dB", "SSIM", "throbber chose", "wall", "× default", "verdict"], body) + [""]


def _at_peer_summary(results):
    """The Summary's words on the at-a-peer's-size table."""
    rows = [a for r in results for a in r.get("at_peer", [])]
    if not rows:
        return ""
    lost = sorted({r["name"] for r in results for a in r.get("at_peer", []) if not a["win"]})
    return (f"; at a peer's file size it beats the peer's PSNR and SSIM on {sum(a['win'] for a in rows)} of "
            f"{len(rows)} files" + (f" (loses on {', '.join(lost)})" if lost else ""))


def _levels(r):
    """Our --lossy N at the default quality beside gifsicle -O3 --lossy=N on our default output."""
    ours = {o["lossy"]: o for o in r["ours"] if not o.get("quality") and o.get("dither") is None}
    peers = {int(m[1]): p for p in r["peers"] if p["family"] == "gifsicle" and p["colors"] == 256
             for m in [re.search(r"lossy=(\d+)", p["label"])] if m}
    levels = sorted(set(ours) & set(peers))
    if not levels:
        return []
    lines = ["`--lossy N` against `gifsicle -O3 --lossy=N` on our default output (bytes, PSNR dB, SSIM):", "",
             "| N | throbber | gifsicle |", "|--:|--:|--:|"]
    for n in levels:
        o, p = ours[n], peers[n]
        lines.append(f"| {n} | {num(o['bytes'])}, {fmt_psnr(o['psnr'])}, {o['ssim']:.4f} | "
                     f"{num(p['bytes'])}, {fmt_psnr(p['psnr'])}, {p['ssim']:.4f} |")
    return lines + [""]


def _budgets(r):
    """--max-bytes at each budget against the best peer file under it."""
    lines = ["`--max-bytes` at shares of the default file's size:", "",
             "| budget | throbber | best peer file under it |", "|---|---|---|"]
    for b in r["budgets"]:
        p = b["peer"]
        if b["bytes"]:
            ours = (f"{num(b['bytes'])} B ({100 * b['bytes'] / b['budget']:.1f} % of it), {fmt_psnr(b['psnr'])} dB, "
                    f"{b['ssim']:.4f}")
        else:
            m = re.search(r"passed (\d+) bytes after (\d+) of (\d+) frames", b["chose"])
            ours = "refused (exit 65)" + (f": the smallest settings passed {int(m[1]):,} B after {m[2]} of {m[3]} "
                                          "frames" if m else "")
        peer = (f"{p['label']}: {num(p['bytes'])} B, {fmt_psnr(p['psnr'])} dB, {p['ssim']:.4f}" if p else "none fits")
        lines.append(f"| {int(b['fraction'] * 100)} % = {num(b['budget'])} B | {ours} | {peer} |")
    return lines + [""]


def apng(d):
    s = Section()
    sizes, speeds, ffmpeg = [], [], []
    for c in d["corpora"]:
        rows = c["rows"]
        best = rows[0]
        asm = next(r for r in rows if r["label"].startswith("apngasm"))
        ff = next(r for r in rows if r["label"].startswith("ffmpeg"))
        s.lines += [f"#### {c['name']}: {c['frames']} frames", ""]
        s.table(["encoder", "bytes", "× best", "wall s", "peak RSS MB", "exact", "PNG type"],
                [[r["label"], num(r["bytes"]), f"{r['bytes'] / best['bytes']:.3f}", f"{r['wall']:.2f}",
                  f"{r['rss']:.0f}", "yes" if r.get("exact") else "**no**", r.get("png_type", "")] for r in rows])
        if c.get("palette"):
            s.table(["palette APNG", "bytes", "PSNR dB", "wall s"],
                    [[r["label"], num(r["bytes"]), fmt_psnr(r.get("psnr")), f"{r['wall']:.2f}"]
                     for r in c["palette"]])
        speed = asm["wall"] / best["wall"]
        s.bounds.append(Bound(f"APNG apngasm wall / default wall, {c['name']}", speed, ">=", 5.0))
        sizes.append(best["bytes"] / asm["bytes"])
        speeds.append(speed)
        ffmpeg.append(best["bytes"] / ff["bytes"])
    s.summary.append(("APNG, lossless", f"default (`--compression best`) {span(ffmpeg)}× ffmpeg's size; against "
                      f"apngasm {span(sizes, '{:.4f}')}× its size at {span(speeds, '{:.1f}')}× its speed"))
    return s


WEBP_DEFAULT = "throbber (default: lossless, --compression best)"
IMG2WEBP = "img2webp -lossless (default -m 4 -q 75)"


def webp(d):
    s = Section()
    corpora = [x for x in d["subjects"] if x["kind"] == "corpus"]
    presets = [x for x in d["subjects"] if x["kind"] == "preset"]
    sizes, times = [], []
    for x in corpora:
        rows = x["rows"]
        base = next(r for r in rows if r["label"] == IMG2WEBP)
        t = next(r for r in rows if r["label"] == WEBP_DEFAULT)
        s.lines += [f"#### {x['name']}: {x['frames']} frames", ""]
        s.table(["encoder", "bytes", "× img2webp default", "PSNR dB", "SSIM", "wall s", "CPU s", "peak RSS MB"],
                [[r["label"] + (" (1 run)" if r["group"] in ("grid", "refine", "max") else ""), num(r["bytes"]),
                  f"{r['bytes'] / base['bytes']:.3f}", fmt_psnr(r["psnr"]), f"{r['ssim']:.4f}", f"{r['wall']:.2f}",
                  f"{r['cpu']:.2f}", f"{r['rss']:.0f}"] for r in rows if r["group"] != "refine"])
        ratio = t["wall"] / base["wall"]
        s.bounds.append(Bound(f"WebP default wall / img2webp -lossless wall, {x['name']}", ratio, "<=", 1.2))
        sizes.append(t["bytes"] / base["bytes"])
        times.append(ratio)
    if presets:
        body = []
        for x in presets:
            by = {r["label"]: r for r in x["rows"]}
            t, i = by[WEBP_DEFAULT], by[IMG2WEBP]
            body.append([x["name"], str(x["frames"]), num(t["bytes"]), f"{t['bytes'] / i['bytes']:.3f}",
                         f"{1000 * t['wall']:.0f}", f"{1000 * i['wall']:.0f}"])
        s.lines += ["#### The presets (64 px)", ""]
        s.table(["preset", "frames", "default bytes", "× img2webp -lossless", "default ms", "img2webp ms"], body)
    checks = d["checks"]
    kinds = {k: [c for c in checks if c["target"] == k] for k in ("lossless", "lossy", "time")}
    s.lines += ["Checks: " + "; ".join(f"{k} {sum(c['pass'] for c in v)} of {len(v)} pass"
                                     for k, v in kinds.items() if v) + "."]
    failed = [c["text"] for c in checks if not c["pass"]]
    s.lines += [""] + [f"- not met: {t}" for t in failed] + ([""] if failed else [])
    s.summary.append(("Animated WebP", f"lossless default {span(sizes, '{:.4f}')}× `img2webp -lossless`'s size in "
                      f"{span(times)}× its time; checks (lossless size, lossy at each peer's size, time within 1.5× "
                      f"of the fastest peer at the same settings): {sum(c['pass'] for c in checks)} of {len(checks)}"))
    return s
