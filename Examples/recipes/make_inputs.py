#!/usr/bin/env python3
"""Writes the small input images of the example recipes (stdlib only): photo.png (RGB),
mask.png (grey radial vignette), badge.png (RGBA with soft alpha) and teal-orange.cube (a 5^3
3D LUT in the Adobe/Resolve .cube format)."""
import math
import os
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))


def write_png(name, width, height, color_type, rows):
    """color_type: 0 grey, 2 RGB, 6 RGBA; rows: lists of 8-bit samples."""
    raw = b"".join(b"\x00" + bytes(row) for row in rows)

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, color_type, 0, 0, 0)
    data = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)


def clamp(v):
    return max(0, min(255, int(round(v))))


def photo(width=160, height=120):
    rows = []
    for y in range(height):
        row = []
        for x in range(width):
            u, v = x / (width - 1), y / (height - 1)
            r, g, b = 60 + 150 * u, 90 + 120 * (1 - v), 200 - 120 * u * v
            # A warm "sun" disc and a dark horizon band.
            if math.hypot(x - 110, y - 40) < 22:
                r, g, b = 250, 200, 90
            if 80 < y < 90:
                r, g, b = r * 0.4, g * 0.4, b * 0.5
            row += [clamp(r), clamp(g), clamp(b)]
        rows.append(row)
    write_png("photo.png", width, height, 2, rows)


def mask(width=160, height=120):
    rows = []
    for y in range(height):
        row = []
        for x in range(width):
            d = math.hypot((x - width / 2) / (width / 2), (y - height / 2) / (height / 2))
            row.append(clamp(255 * max(0.0, 1.0 - d * 0.9)))
        rows.append(row)
    write_png("mask.png", width, height, 0, rows)


def badge(size=48):
    rows = []
    for y in range(size):
        row = []
        for x in range(size):
            d = math.hypot(x - size / 2 + 0.5, y - size / 2 + 0.5) / (size / 2)
            alpha = clamp(255 * max(0.0, min(1.0, (1.0 - d) * 4)))
            row += [240, 240, 255, alpha]
        rows.append(row)
    write_png("badge.png", size, size, 6, rows)


def teal_orange_cube(n=5):
    """A split-tone look: shadows towards teal, highlights towards orange, a gentle S-curve."""
    lines = ["# teal and orange split tone, made by make_inputs.py", 'TITLE "teal-orange"', f"LUT_3D_SIZE {n}"]
    for b in range(n):
        for g in range(n):
            for r in range(n):
                rgb = [r / (n - 1), g / (n - 1), b / (n - 1)]
                luma = 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]
                tone = [0.08, -0.02, -0.08] if luma > 0.5 else [-0.06, 0.02, 0.06]
                weight = abs(luma - 0.5) * 2
                out = []
                for c, t in zip(rgb, tone):
                    s = c * c * (3 - 2 * c)
                    out.append(min(1.0, max(0.0, 0.6 * c + 0.4 * s + t * weight)))
                lines.append(" ".join(f"{v:.6f}" for v in out))
    with open(os.path.join(HERE, "teal-orange.cube"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    photo()
    mask()
    badge()
    teal_orange_cube()
