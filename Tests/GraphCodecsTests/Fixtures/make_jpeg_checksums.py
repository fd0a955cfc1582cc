#!/usr/bin/env python3
"""Reference checksums for the JPEG test files, made with libjpeg-turbo's djpeg.

Usage: apt-get install -y libjpeg-turbo-progs   (djpeg 2.1, same library version as the codec)
       python3 make_jpeg_checksums.py ../../../../shared/testdata/jpeg > jpeg_checksums.txt

djpeg runs with the options GraphCodecs uses: -dct int (JDCT_ISLOW, also djpeg's default),
default fancy upsampling and block smoothing, PNM output (grey -> PGM, colour -> PPM; CMYK
is converted by djpeg's PPM writer with R = C*K/255 for Adobe-inverted data). Files that
djpeg also decodes at a reduced scale are listed again with scale 2/4/8 (-scale 1/N).
One line per (file, scale): path scale status width height channels fnv64, where status is
ok (exit 0, silent), warn (decoded with warnings; GraphCodecs may refuse e.g. truncated
files) or fail (djpeg error; GraphCodecs must throw). fnv64 is 64-bit FNV-1a of the samples.
"""
import os
import subprocess
import sys

SCALED = {"libjpeg-turbo/testorig.jpg", "libjpeg-turbo/testimgint.jpg",
          "jpeg-decoder/reftest/images/progressive3.jpg",
          "jpeg-decoder/reftest/images/mozilla/jpg-gray.jpg",
          "jpeg-decoder/reftest/images/mozilla/jpg-cmyk-1.jpg"}


def fnv1a64(data: bytes) -> int:
    h = 0xCBF29CE484222325
    for b in data:
        h ^= b
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def parse_pnm(data: bytes):
    fields, pos = [], 0
    while len(fields) < 4:
        while data[pos:pos + 1].isspace():
            pos += 1
        if data[pos:pos + 1] == b"#":
            while data[pos:pos + 1] not in (b"\n", b""):
                pos += 1
            continue
        start = pos
        while not data[pos:pos + 1].isspace():
            pos += 1
        fields.append(data[start:pos])
    pos += 1
    magic, width, height, maxval = fields[0], int(fields[1]), int(fields[2]), int(fields[3])
    assert maxval == 255, maxval
    channels = 1 if magic == b"P5" else 3
    return width, height, channels, data[pos:pos + width * height * channels]


def run(path, scale):
    args = ["djpeg", "-dct", "int", "-pnm"]
    if scale > 1:
        args += ["-scale", f"1/{scale}"]
    try:
        proc = subprocess.run(args + [path], capture_output=True, timeout=60)
    except subprocess.TimeoutExpired:
        return "fail", 0, 0, 0, 0
    if proc.returncode == 1 or not proc.stdout:
        return "fail", 0, 0, 0, 0
    width, height, channels, samples = parse_pnm(proc.stdout)
    status = "ok" if proc.returncode == 0 and not proc.stderr else "warn"
    return status, width, height, channels, fnv1a64(samples)


def main():
    root = sys.argv[1]
    paths = []
    for folder, _, files in os.walk(root):
        for name in files:
            if name.lower().endswith((".jpg", ".jpeg")):
                paths.append(os.path.relpath(os.path.join(folder, name), root))
    for rel in sorted(paths):
        for scale in ([1, 2, 4, 8] if rel in SCALED else [1]):
            status, w, h, c, digest = run(os.path.join(root, rel), scale)
            print(f"{rel} {scale} {status} {w} {h} {c} {digest:016x}")


if __name__ == "__main__":
    main()
