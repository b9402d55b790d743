#!/usr/bin/env python3
"""Pillow's width and height of every GIF, PNG and WebP file in a folder,
read from the file's header, as JSON {"name": [width, height], ...}.

usage: image_sizes.py DIR"""
import json, os, sys
from PIL import Image

def main():
    folder = sys.argv[1]
    sizes = {}
    for name in sorted(os.listdir(folder)):
        if name.endswith((".gif", ".png", ".webp")):
            with Image.open(os.path.join(folder, name)) as im:
                sizes[name] = list(im.size)
    json.dump(sizes, sys.stdout)

main()
