#!/usr/bin/env python3
"""Stand-in benchmark inputs for a clone without the peer-benchmark kit.

The README's benchmark commands and Benchmarks/recipes/*.json read their inputs from
`../shared/bench/peers/inputs/` (the kit the published figures were measured with; it is not part
of this repository). This writes synthetic, photo-like files of the same names and sizes there
(or into the folder given), so every command runs as written; figures differ a little from the
published ones because the content differs. Needs python3 with numpy and Pillow.

Usage: python3 Benchmarks/make-inputs.py [FOLDER] [--big]   (--big adds the 12000x12000 JPEG, ~1 GB of memory)
"""
import os
import sys

import numpy as np
from PIL import Image


def photo(width, height, seed=1234):
    """Smooth gradients, discs, bars and noise: compresses and filters like a photo."""
    rng = np.random.default_rng(seed)
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    u, v = xs / width, ys / height
    rgb = np.stack([0.5 + 0.4 * np.sin(6 * u + 2 * v), 0.5 + 0.4 * np.cos(5 * v - 3 * u), 0.3 + 0.5 * u * v], axis=-1)
    for _ in range(40):
        cx, cy, r = rng.random() * width, rng.random() * height, (0.02 + 0.08 * rng.random()) * min(width, height)
        inside = (xs - cx) ** 2 + (ys - cy) ** 2 < r * r
        rgb[inside] = rng.random(3)
    rgb[:, (np.arange(width) // 37) % 9 == 0] *= 0.6
    rgb += rng.normal(0, 0.02, rgb.shape).astype(np.float32)
    return (np.clip(rgb, 0, 1) * 255 + 0.5).astype(np.uint8)


def yuv709(rgb):
    """BT.709 limited-range Y, and Cb/Cr averaged over 2x2 blocks."""
    f = rgb.astype(np.float32) / 255
    y = 0.2126 * f[..., 0] + 0.7152 * f[..., 1] + 0.0722 * f[..., 2]
    cb, cr = (f[..., 2] - y) / 1.8556, (f[..., 0] - y) / 1.5748
    sub = lambda c: c.reshape(c.shape[0] // 2, 2, c.shape[1] // 2, 2).mean(axis=(1, 3))
    q = lambda c, scale: np.clip(np.round(c * scale + (16 if scale == 219 else 128)), 0, 255).astype(np.uint8)
    return q(y, 219), q(sub(cb), 224), q(sub(cr), 224)


def main():
    arguments = [a for a in sys.argv[1:] if a != "--big"]
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    folder = arguments[0] if arguments else os.path.join(root, "..", "shared", "bench", "peers", "inputs")
    os.makedirs(folder, exist_ok=True)
    path = lambda name: os.path.join(folder, name)
    big = photo(6000, 4000)
    Image.fromarray(big).save(path("photo_6000x4000.jpg"), quality=90)
    Image.fromarray(big).save(path("photo_6000x4000.png"))
    frame = photo(1920, 1080, seed=7)
    y, u, v = yuv709(frame)
    with open(path("frame_1920x1080.i420"), "wb") as f:
        f.write(y.tobytes() + u.tobytes() + v.tobytes())
    with open(path("frame_1920x1080.nv12"), "wb") as f:
        f.write(y.tobytes() + np.stack([u, v], axis=-1).tobytes())
    with open(path("lut33.cube"), "w") as f:
        f.write("LUT_3D_SIZE 33\n")
        for b in range(33):
            for g in range(33):
                for r in range(33):
                    x = np.array([r, g, b]) / 32
                    warm = np.clip(x ** 0.9 * [1.05, 1.0, 0.9], 0, 1)
                    f.write("%.6f %.6f %.6f\n" % tuple(warm))
    if "--big" in sys.argv:
        Image.fromarray(np.tile(photo(3000, 3000, seed=3), (4, 4, 1))).save(path("big_12000x12000.jpg"), quality=90)
    print("wrote", ", ".join(sorted(os.listdir(folder))), "in", os.path.normpath(folder))


if __name__ == "__main__":
    main()
