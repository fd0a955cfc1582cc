"""sRGB transfer functions and luma, on float arrays (linear light in, encoded out and back)."""
import numpy as np


def encode(linear):
    """Linear light → sRGB-encoded values (IEC 61966-2-1), clipped to [0, 1] first."""
    v = np.clip(linear, 0, 1)
    return np.where(v <= 0.0031308, 12.92 * v, 1.055 * np.power(v, 1 / 2.4) - 0.055)


def decode(encoded):
    """sRGB-encoded values → linear light."""
    v = np.asarray(encoded, dtype=np.float64)
    return np.where(v <= 0.04045, v / 12.92, np.power((v + 0.055) / 1.055, 2.4))


def luma(rgb):
    """Rec. 709 weights on the last axis (of whatever encoding `rgb` is in)."""
    return rgb[..., 0] * 0.2126 + rgb[..., 1] * 0.7152 + rgb[..., 2] * 0.0722
