#!/usr/bin/env python3
"""Reference checksums for PngSuite, made with pypng (pure Python, independent of libpng).

Usage: pip install pypng==0.20220715.0
       python3 make_pngsuite_checksums.py ../../../../shared/testdata/pngsuite > pngsuite_checksums.txt

For every valid (non-x*) file the decoded image is canonicalised the way GraphCodecs
outputs it (libpng png_set_expand): palette -> RGB, or RGBA when tRNS is present;
1/2/4-bit grey scaled to 8 bits (v * 255 / (2^bits - 1)); a grey or RGB tRNS colour adds an
alpha channel (0 where the pixel equals it, max elsewhere); 16-bit stays 16-bit. The
samples (16-bit big-endian) are hashed with 64-bit FNV-1a. Gamma, sBIT etc. are ignored.
One line per file: name width height channels bitdepth fnv64.
"""
import os
import sys

import png


def fnv1a64(data: bytes) -> int:
    h = 0xCBF29CE484222325
    for b in data:
        h ^= b
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def canonical(path):
    width, height, rows, info = png.Reader(filename=path).read()
    rows = [list(r) for r in rows]
    bitdepth = info["bitdepth"]
    if info.get("palette") and info["planes"] == 1 and not info["greyscale"]:
        palette = [tuple(p) for p in info["palette"]]
        has_alpha = any(len(p) == 4 for p in palette)
        if has_alpha:
            palette = [p if len(p) == 4 else (p + (255,)) for p in palette]
        channels = 4 if has_alpha else 3
        out = []
        for r in rows:
            line = []
            for index in r:
                line.extend(palette[index])
            out.append(line)
        return width, height, channels, 8, out
    planes = info["planes"]
    transparent = info.get("transparent")
    out_depth = 16 if bitdepth == 16 else 8
    scale = 255 // ((1 << bitdepth) - 1) if bitdepth < 8 else 1
    maxval = (1 << out_depth) - 1
    out = []
    for r in rows:
        line = []
        for x in range(width):
            px = r[x * planes:(x + 1) * planes]
            samples = [v * scale for v in px]
            if transparent is not None and not info["alpha"]:
                key = tuple(transparent) if isinstance(transparent, (tuple, list)) else (transparent,)
                samples.append(0 if tuple(px) == key else maxval)
            line.extend(samples)
        out.append(line)
    channels = planes + (1 if transparent is not None and not info["alpha"] else 0)
    return width, height, channels, out_depth, out


def main():
    folder = sys.argv[1]
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".png") or name.startswith("x"):
            continue
        width, height, channels, depth, rows = canonical(os.path.join(folder, name))
        data = bytearray()
        for r in rows:
            if depth == 16:
                for v in r:
                    data += bytes((v >> 8, v & 0xFF))
            else:
                data += bytes(r)
        print(f"{name} {width} {height} {channels} {depth} {fnv1a64(bytes(data)):016x}")


if __name__ == "__main__":
    main()
