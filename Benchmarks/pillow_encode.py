"""The Pillow peer: the usual one-call animated GIF.

usage: python3 pillow_encode.py OUT.gif DURATION_MS FRAME.png...
"""
import sys

from PIL import Image

out, duration, paths = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
frames = [Image.open(p) for p in paths]
frames[0].save(out, save_all=True, append_images=frames[1:], duration=duration, loop=0)
