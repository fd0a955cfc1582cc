"""PNG reading and writing with the standard library's zlib and numpy (no imaging package).

Reads 8- and 16-bit grey, grey+alpha, RGB and RGBA PNGs, not interlaced (what the engine writes),
with any mix of the five row filters; writes 8- or 16-bit grey, RGB or RGBA with filter 0.
"""
import struct
import zlib

import numpy as np

SIGNATURE = b"\x89PNG\r\n\x1a\n"
CHANNELS = {0: 1, 4: 2, 2: 3, 6: 4}


def write(path, values, bits=16):
    """Writes `values` (H×W, H×W×3 or H×W×4, floats in [0, 1], row 0 at the top) as a PNG.

    Values are clipped to [0, 1] and rounded to 2^bits − 1 levels."""
    values = np.asarray(values, dtype=np.float64)
    if values.ndim == 2:
        values = values[:, :, None]
    height, width, channels = values.shape
    colour_type = {1: 0, 3: 2, 4: 6}[channels]
    top = (1 << bits) - 1
    levels = np.rint(np.clip(values, 0, 1) * top).astype(">u2" if bits == 16 else "u1")
    rows = levels.reshape(height, -1).view(np.uint8)
    raw = np.hstack([np.zeros((height, 1), np.uint8), rows]).tobytes()

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, bits, colour_type, 0, 0, 0)
    with open(path, "wb") as f:
        f.write(SIGNATURE + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 3)) + chunk(b"IEND", b""))


def read(path):
    """The PNG at `path` as floats in [0, 1], H×W×C (C the file's channels), row 0 at the top."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != SIGNATURE:
        raise ValueError(f"{path}: not a PNG")
    pos, idat, header = 8, [], None
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
        pos += 12 + length
    width, height, bits, colour_type, _, _, interlace = header
    if bits not in (8, 16) or colour_type not in CHANNELS or interlace:
        raise ValueError(f"{path}: unsupported PNG (bit depth {bits}, colour type {colour_type}, interlace {interlace})")
    channels = CHANNELS[colour_type]
    bpp = channels * bits // 8
    raw = np.frombuffer(zlib.decompress(b"".join(idat)), np.uint8).reshape(height, 1 + width * bpp)
    pixels = _unfilter(raw[:, 0], raw[:, 1:].reshape(height, width, bpp))
    if bits == 16:
        pixels = pixels.reshape(height, width, channels, 2)
        values = (pixels[..., 0].astype(np.uint32) << 8) | pixels[..., 1]
    else:
        values = pixels.reshape(height, width, channels)
    return values.astype(np.float64) / ((1 << bits) - 1)


def _unfilter(filters, filtered):
    """Undoes the row filters (0 none, 1 sub, 2 up, 3 average, 4 Paeth), a pixel at a time.

    A pixel depends on its left, upper and upper-left neighbours, so the pixels of one
    anti-diagonal (x + y constant) are independent: they are reconstructed together, in
    H + W − 1 vectorised steps."""
    height, width, bpp = filtered.shape
    out = np.zeros((height + 1, width + 1, bpp), np.int32)  # a zero row above, a zero column left
    filtered = filtered.astype(np.int32)
    filters = filters.astype(np.int32)
    if filters.max(initial=0) > 4:
        raise ValueError("bad PNG row filter")
    if not np.any(filters >= 3):  # none, sub and up only: rows one at a time
        for y in range(height):
            row, f = filtered[y], filters[y]
            if f == 1:
                row = np.cumsum(row, axis=0)
            elif f == 2:
                row = row + out[y, 1:]
            out[y + 1, 1:] = row & 255
        return out[1:, 1:].astype(np.uint8)
    for t in range(height + width - 1):
        y = np.arange(max(0, t - width + 1), min(height - 1, t) + 1)
        x = t - y
        a, b, c = out[y + 1, x], out[y, x + 1], out[y, x]
        f = filters[y][:, None]
        p = a + b - c
        pa, pb, pc = np.abs(p - a), np.abs(p - b), np.abs(p - c)
        paeth = np.where((pa <= pb) & (pa <= pc), a, np.where(pb <= pc, b, c))
        predictor = np.select([f == 1, f == 2, f == 3, f == 4], [a, b, (a + b) >> 1, paeth], 0)
        out[y + 1, x + 1] = (filtered[y, x] + predictor) & 255
    return out[1:, 1:].astype(np.uint8)
