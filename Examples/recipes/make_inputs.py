#!/usr/bin/env python3
"""Writes the small input images of the example recipes (stdlib only): photo.png (RGB),
mask.png (grey radial vignette) and badge.png (RGBA with soft alpha)."""
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


if __name__ == "__main__":
    photo()
    mask()
    badge()
