"""Simple renderers, given the same photo (clipped at 1, linear RGB) and the same per-pixel disparity
map as the engine, and the same radius formula (defocus.signed_radius), so the figures have a scale."""
import numpy as np

import defocus


def gather(photo, radius):
    """Per-pixel gather: each output pixel is the mean of the photo over a disc of its own radius.

    The disc is sampled as horizontal slices at the rows |dy| < r, row dy spanning
    |dx| ≤ √(r² − dy²) with the end pixels weighted by the part of them the span covers
    (continuous in r; radius under ½ px: the pixel itself). Edges are repeated."""
    height, width, channels = photo.shape
    reach = int(np.ceil(radius.max())) + 1
    padded = np.pad(photo, ((reach, reach), (reach + 1, reach + 1), (0, 0)), mode="edge")
    padded_width = padded.shape[1]
    # Row integral with pixel x covering [x − ½, x + ½): integral[y, i] = Σ of row y's first i pixels.
    integral = np.concatenate([np.zeros((padded.shape[0], 1, channels)), np.cumsum(padded, axis=1)], axis=1)
    flat_integral = integral.reshape(-1, channels)
    flat_pixels = padded.reshape(-1, channels)
    rows, cols = np.mgrid[0:height, 0:width]
    r = np.maximum(radius, 0.5).ravel()
    row0 = (rows.ravel() + reach) * padded_width
    centre = cols.ravel() + reach + 1 + 0.5  # pixel centres in padded coordinates
    total = np.zeros((height * width, channels))
    weight = np.zeros(height * width)

    def integral_at(row_start, u):
        """Σ of a padded row over [0, u) (u continuous), rows given by their flat start."""
        i = np.floor(u).astype(np.int64)
        return flat_integral[row_start + i + (row_start // padded_width)] + (u - i)[:, None] * flat_pixels[row_start + i]

    for dy in range(-reach, reach + 1):
        inside = np.nonzero(r > abs(dy))[0]
        if inside.size == 0:
            continue
        half = np.sqrt(r[inside] ** 2 - dy * dy)
        start = row0[inside] + dy * padded_width
        total[inside] += integral_at(start, centre[inside] + half) - integral_at(start, centre[inside] - half)
        weight[inside] += 2 * half
    return (total / weight[:, None]).reshape(height, width, channels)


def scatter(photo, radius):
    """Normalised scatter (the classical renderer BokehMe starts from, without its occlusion
    weights): every pixel spreads its own disc (defocus.disc) of weight 1, and each output pixel is
    Σ colour·disc / Σ disc."""
    spread = defocus.scatter(np.concatenate([photo, np.ones(photo.shape[:2] + (1,))], axis=-1), radius)
    return spread[..., :3] / np.maximum(spread[..., 3:], 1e-12)
