"""The exact layered defocus reference and the disc it is made of.

Blur radii follow CIDepthBlurEffect's own formula (its doc comment in
Sources/Kernels/Filters/Depth/DepthBlurEffect.swift), so only rendering quality is compared:

    c = k·(D − f)/f,   k = 0.1·L/N    (L the image's long side, N the f-number)
    c ← sign(c)·max(|c| − 1, 0)       (a 1 px dead zone)
    c ← clamp(c, −0.025·L, 0.0125·L)  (positive: in front of the focus plane)

and a point at disparity D spreads over a disc of radius |c|.
"""
import functools

import numpy as np
from scipy import signal

DEAD_ZONE = 1.0
BACK_LIMIT = 0.025   # × L, behind the focus plane
FRONT_LIMIT = 0.0125  # × L, in front of it
# Radii are split between the two neighbours of this lattice (tent weights), so a per-pixel radius
# is rendered with discs at most 0.125 px from it.
RADIUS_STEP = 0.25
SUPERSAMPLING = 16


def signed_radius(disparity, focus, aperture, long_side):
    """CIDepthBlurEffect's signed blur radius c (px; positive in front of the focus plane)."""
    k = 0.1 * long_side / aperture
    c = k * (np.asarray(disparity, dtype=np.float64) - focus) / focus
    c = np.sign(c) * np.maximum(np.abs(c) - DEAD_ZONE, 0)
    return np.clip(c, -BACK_LIMIT * long_side, FRONT_LIMIT * long_side)


@functools.lru_cache(maxsize=None)
def disc(radius):
    """The anti-aliased disc of `radius` px: each tap is the area of its pixel (a unit square
    centred on the tap) covered by the circle x² + y² ≤ r², measured on a 16×16 grid of sample
    points per pixel, and the taps are normalised to sum 1. Radius 0 (and anything under half a
    pixel, which covers only its own pixel) is the identity."""
    half = int(np.ceil(radius + 0.5))
    offsets = (np.arange(SUPERSAMPLING) + 0.5) / SUPERSAMPLING - 0.5
    taps = np.arange(-half, half + 1)
    x = (taps[:, None] + offsets[None, :]).ravel()
    inside = (x[:, None] ** 2 + x[None, :] ** 2 <= radius * radius).astype(np.float64)
    coverage = inside.reshape(len(taps), SUPERSAMPLING, len(taps), SUPERSAMPLING).mean(axis=(1, 3))
    if coverage.sum() == 0:
        coverage[half, half] = 1
    kernel = coverage / coverage.sum()
    kernel.setflags(write=False)
    return kernel


def scatter(values, radius, step=RADIUS_STEP):
    """Σ over source pixels p of values(p)·disc_{r(p)}(x − p): every pixel spreads its own disc.

    `values` H×W×C, `radius` H×W (px, ≥ 0) or a number. Each pixel is split between the lattice
    radii j·step just below and above its radius (tent weights); each lattice radius is one
    convolution over the bounding box of the pixels that use it. Outside the image is zero."""
    height, width, channels = values.shape
    radius = np.broadcast_to(np.asarray(radius, dtype=np.float64), (height, width)).ravel()
    position = radius / step
    lower = np.floor(position).astype(np.int64)
    upper_weight = position - lower
    # Each pixel's two lattice entries (index j, weight), grouped by j.
    pixel = np.concatenate([np.arange(radius.size), np.arange(radius.size)])
    lattice = np.concatenate([lower, lower + 1])
    weight = np.concatenate([1 - upper_weight, upper_weight])
    keep = weight > 0
    pixel, lattice, weight = pixel[keep], lattice[keep], weight[keep]
    order = np.argsort(lattice, kind="stable")
    pixel, lattice, weight = pixel[order], lattice[order], weight[order]
    bins, starts = np.unique(lattice, return_index=True)
    flat = values.reshape(-1, channels)
    top = int(np.ceil(radius.max() + 0.5)) + 1
    out = np.zeros((height + 2 * top, width + 2 * top, channels))
    for j, begin, end in zip(bins, starts, np.r_[starts[1:], len(pixel)]):
        ys, xs = np.divmod(pixel[begin:end], width)
        y0, x0 = ys.min(), xs.min()
        part = np.zeros((ys.max() + 1 - y0, xs.max() + 1 - x0, channels))
        part[ys - y0, xs - x0] = flat[pixel[begin:end]] * weight[begin:end, None]
        kernel = disc(j * step)
        half = kernel.shape[0] // 2
        spread = signal.fftconvolve(part, kernel[:, :, None], mode="full", axes=(0, 1)) if kernel.size > 1 else part
        out[top + y0 - half:top + y0 - half + spread.shape[0], top + x0 - half:top + x0 - half + spread.shape[1]] += spread
    return out[top:top + height, top:top + width]


def over(front, back):
    """Premultiplied "over": front + (1 − front.alpha)·back (H×W×4 each)."""
    return front + (1 - front[..., 3:4]) * back


def reference(scene, focus, aperture):
    """The exact defocused image of `scene` (its layers blurred each by its own discs, then
    composited back to front with "over"), premultiplied linear RGBA, float64."""
    long_side = max(scene.height, scene.width)
    out = np.zeros((scene.height, scene.width, 4))
    for layer in scene.layers:
        radius = np.abs(signed_radius(layer.disparity, focus, aperture, long_side))
        out = over(scatter(layer.rgba, radius), out)
    return out
