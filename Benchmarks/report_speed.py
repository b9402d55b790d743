"""The "Speed against the peers" section of docs/benchmarks.md
(Benchmarks/report.py), from speed.json (Benchmarks/run-speed): a table a
bound, each row a corpus with both medians, the ratio, the bound and the
bytes, and every ratio as a headline bound.

The speed suite measures the same comparisons as the time bounds of the
GIF, lossy, APNG, WebP and Lottie sections, each pair back to back in one
interleaved run: where both measured a comparison on the same corpus, its
bound replaces theirs (supersede)."""

from report_common import Bound, Section, num, span

# The title of each bound's table, and the name its Bound carries before
# ", CORPUS" (the names the other sections give the same comparisons).
BOUNDS = {
    ("gif", "time"): ("GIF default against ffmpeg's per-frame palettes (wall time)",
                      "GIF default wall / ffmpeg stats_mode=single"),
    ("apng", "speedup"): ("APNG default against apngasm (apngasm's wall time / ours)",
                          "APNG apngasm wall / default wall"),
    ("apng", "bytes"): ("APNG default against ffmpeg's APNG (bytes)", "APNG default bytes / ffmpeg APNG bytes"),
    ("max-bytes", "time"): ("`--max-bytes` at {p} of the default's bytes against the default encode (wall time)",
                            "--max-bytes {p} wall / default wall"),
    ("webp", "time"): ("WebP default against `img2webp -lossless` (wall time)",
                       "WebP default wall / img2webp -lossless wall"),
    ("webp", "bytes"): ("WebP default against `img2webp -lossless` (bytes)",
                        "WebP default bytes / img2webp -lossless bytes"),
    ("lottie", "time"): ("Lottie against rlottie-python's GIF export (wall time)", "Lottie wall / rlottie-python wall"),
}


def _name(r):
    """The Bound name of a row, without the corpus."""
    pattern = BOUNDS[(r["case"], r["kind"])][1]
    return pattern.format(p=r["ours"].removeprefix("--max-bytes ")) if r["case"] == "max-bytes" else pattern


def speed(d):
    """A table a bound; the commands; each row's ratio as a Bound."""
    s = Section()
    commands = {}
    for j in d["jobs"]:
        for c in j["commands"]:
            commands.setdefault((j["case"], c["shown"]), None)
    rounds = f"{d['repeat']} interleaved round{'s' * (d['repeat'] != 1)}"
    s.lines += [f"Medians of {rounds}; {d['noise']['disturbed']} of {d['noise']['runs']} runs "
                "had other processes using more than a quarter of a core beside them. The commands (DIR a frame "
                "folder, F a Lottie file):", ""]
    s.table(["case", "command"], [[case, f"`{shown}`"] for case, shown in commands])
    groups = {}
    for r in d["bounds"]:
        groups.setdefault(_name(r), []).append(r)
    by_case = {}
    for name, rows in groups.items():
        r0 = rows[0]
        title = BOUNDS[(r0["case"], r0["kind"])][0]
        if r0["case"] == "max-bytes":
            title = title.format(p=r0["ours"].removeprefix("--max-bytes "))
        peer = "apngasm" if r0["kind"] == "speedup" else r0["peer"]
        s.lines += [f"#### {title}", ""]
        s.table(["corpus", f"{r0['ours']} s", f"{peer} s", "ratio", "bound", "verdict", "bytes ours",
                 f"bytes {r0['peer']}"],
                [[r["corpus"], _seconds(r["ours_s"]), _seconds(r["peer_s"]), f"{r['ratio']:.2f}",
                  f"{'≤' if r['op'] == '<=' else '≥'} {r['limit']:g}", "ok" if r["ok"] else "**OVER**",
                  "refused (exit 65)" if r.get("refused") else num(r["ours_bytes"]), num(r["peer_bytes"])]
                 for r in rows])
        for r in rows:
            s.bounds.append(Bound(f"{name}, {r['corpus']}", r["ratio"], r["op"], r["limit"]))
        by_case.setdefault(r0["case"], []).extend(r["ratio"] for r in rows if r["kind"] != "bytes")
    failed = [j for j in d["jobs"] if j["failed"]]
    if failed:
        s.lines += [f"- **failed**: {j['case']} on {j['corpus']}: {j['failed']}" for j in failed] + [""]
    ok = sum(r["ok"] for r in d["bounds"])
    labels = {"gif": "GIF {}× ffmpeg per-frame palettes", "apng": "APNG {}× faster than apngasm",
              "max-bytes": "`--max-bytes` {}× a default encode", "webp": "WebP {}× img2webp -lossless",
              "lottie": "Lottie {}× rlottie-python"}
    s.summary.append(("Speed against the peers (wall time, one interleaved run)",
                      f"{ok} of {len(d['bounds'])} ratios within their bounds; "
                      + "; ".join(labels[c].format(span(v)) for c, v in by_case.items())))
    return s


def _seconds(x):
    """Seconds, or "n/a" for a command run once for its bytes."""
    return "n/a" if x is None or x != x else f"{x:.2f}"


def supersede(pairs):
    """Bounds of (suite, Bound) pairs: where the speed suite measured a
    comparison on a corpus, another suite's bound of the same comparison on
    the same corpus (the same name) is left out."""
    measured = {b.name for suite, b in pairs if suite == "speed"}
    return [b for suite, b in pairs if suite == "speed" or b.name not in measured]
