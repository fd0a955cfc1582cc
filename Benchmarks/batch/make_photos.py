"""Writes COUNT deterministic photo-like JPEGs (smooth colour fields with grain, quality 90) of
WIDTH x HEIGHT into FOLDER, keeping those already there. Needs numpy and Pillow.

    python3 make_photos.py FOLDER [COUNT=200] [WIDTH=1632] [HEIGHT=1224]
"""

import os
import sys

import numpy as np
from PIL import Image


def main():
    folder = sys.argv[1]
    count, width, height = (int(value) for value in (sys.argv[2:] + ["200", "1632", "1224"][len(sys.argv) - 2:])[:3])
    os.makedirs(folder, exist_ok=True)
    y, x = np.mgrid[0:height, 0:width].astype(np.float32)
    for index in range(count):
        path = os.path.join(folder, f"photo_{index:04d}.jpg")
        if os.path.exists(path):
            continue
        rng = np.random.default_rng(index)
        phase = rng.uniform(0, 2 * np.pi, 3)
        scale = rng.uniform(0.002, 0.01, 3)
        channels = [128 + 100 * np.sin(x * scale[c] + y * scale[(c + 1) % 3] + phase[c]) for c in range(3)]
        pixels = np.stack(channels, -1) + rng.normal(0, 8, (height, width, 3))
        Image.fromarray(np.clip(pixels, 0, 255).astype(np.uint8)).save(path, quality=90)


if __name__ == "__main__":
    main()
