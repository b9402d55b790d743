#!/usr/bin/python3
"""Bytes of every preset as Lottie (as written, and gzipped as a .tgs-style
delivery sends it), SVG (as written, and gzipped as a web server sends it),
GIF, APNG and WebP at the preset's default size, side by side, as a
Markdown table for docs/benchmarks.md ("Vector export").

usage: THROBBER=.build/release/throbber Benchmarks/vector_sizes.py [OUTDIR]
Checks what issue #42 asks: each preset's SVG and Lottie are smaller than its GIF.
"""
import gzip, os, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
THROBBER = os.environ.get("THROBBER", os.path.join(HERE, "..", ".build", "release", "throbber"))


def gz(path):
    with open(path, "rb") as f:
        return len(gzip.compress(f.read(), compresslevel=9, mtime=0))


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else tempfile.mkdtemp(prefix="throbber-vector-")
    os.makedirs(out, exist_ok=True)
    listing = subprocess.run([THROBBER, "presets"], capture_output=True, text=True, check=True).stdout
    names = [line.split()[0] for line in listing.splitlines() if line.strip()]
    print("| preset | Lottie | Lottie gz | SVG | SVG gz | GIF | APNG | WebP | vector < GIF |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    worse = []
    for name in names:
        sizes = {}
        for ext in ("json", "svg", "gif", "png", "webp"):
            path = os.path.join(out, f"{name}.{ext}")
            subprocess.run([THROBBER, "preset", name, "-o", path, "--quiet"], check=True)
            sizes[ext] = os.path.getsize(path)
        lottie_gz = gz(os.path.join(out, f"{name}.json"))
        svg_gz = gz(os.path.join(out, f"{name}.svg"))
        smaller = sizes["json"] < sizes["gif"] and sizes["svg"] < sizes["gif"]
        if not smaller:
            worse.append(name)
        print(f"| {name} | {sizes['json']} | {lottie_gz} | {sizes['svg']} | {svg_gz} | {sizes['gif']} | "
              f"{sizes['png']} | {sizes['webp']} | {'yes' if smaller else '**no**'} |")
    if worse:
        print(f"\nnot smaller than the GIF: {', '.join(worse)}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
