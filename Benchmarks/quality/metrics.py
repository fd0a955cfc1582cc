"""Scores of a rendered image against the reference, in sRGB-encoded values (0…1, clipped), the
space a viewer judges: PSNR (peak 1), SSIM, and mean errors in 8-bit levels (255 × encoded)."""
import numpy as np
from scipy import ndimage

import colour


def psnr(a, b, mask=None):
    """PSNR in dB of encoded RGB images over `mask` (all pixels if None); NaN for an empty mask."""
    error = (a - b) ** 2
    if mask is not None:
        if not np.any(mask):
            return float("nan")
        error = error[mask]
    mse = float(np.mean(error))
    return float("inf") if mse == 0 else -10 * np.log10(mse)


def ssim(a, b, mask):
    """Mean SSIM (Wang et al. 2004: Gaussian window σ 1.5, K1 0.01, K2 0.03, peak 1) of the lumas of
    encoded images over `mask`."""
    x, y = colour.luma(a), colour.luma(b)

    def blur(v):
        return ndimage.gaussian_filter(v, 1.5, truncate=3.5)

    mx, my = blur(x), blur(y)
    vx, vy, cxy = blur(x * x) - mx * mx, blur(y * y) - my * my, blur(x * y) - mx * my
    c1, c2 = 0.01 ** 2, 0.03 ** 2
    s = ((2 * mx * my + c1) * (2 * cxy + c2)) / ((mx * mx + my * my + c1) * (vx + vy + c2))
    return float(np.mean(s[mask]))


def mean_error(a, b, mask):
    """Mean absolute error in 8-bit levels over `mask` (RGB averaged); NaN for an empty mask."""
    return float(np.mean(np.abs(a - b)[mask]) * 255) if np.any(mask) else float("nan")


def luma_bias(a, b, mask):
    """Mean signed luma error a − b in 8-bit levels over `mask`; NaN for an empty mask."""
    return float(np.mean((colour.luma(a) - colour.luma(b))[mask]) * 255) if np.any(mask) else float("nan")


def near_change(labels, distance):
    """Pixels within `distance` px of a change of `labels` (a 4-neighbour differs)."""
    change = np.zeros(labels.shape, bool)
    change[:, 1:] |= labels[:, 1:] != labels[:, :-1]
    change[:, :-1] |= labels[:, 1:] != labels[:, :-1]
    change[1:] |= labels[1:] != labels[:-1]
    change[:-1] |= labels[1:] != labels[:-1]
    return ndimage.distance_transform_edt(~change) <= distance


class Regions:
    """The pixel sets the scores are taken over, from the scene's layers and one case's radii.

    - interior: everything but a border as wide as the largest blur radius (+2 px), where the
      reference depends on what lies outside the frame.
    - depth edges: the pixels where the front-most layer changes (`owner`) and the band within
      max(3, r) px of them, r the larger blur radius of the two layers that meet there.
    - in focus: pixels whose front-most layer has radius 0 here, outside the band.
    - blurred interiors: radius ≥ 2 px, outside the band; and those of them with no bright input
      (linear luma > 0.85, what CIDepthBlurEffect boosts as highlights) within the largest radius.
    - inside a blurred foreground's silhouette: pixels of a layer in front of the focus plane
      (radius ≥ 2 px) at most max(2, r/2) px inside its outline (owner boundary).
    - rim: pixels of a layer in focus within max(3, r) px of a blurred layer's outline (the sharp
      side of a blurred edge), r the blurred side's radius.
    """

    def __init__(self, owner, signed_radius, border, bright):
        """`owner`: index of the front-most layer per pixel; `signed_radius`: per pixel, the signed
        radius of that layer there (positive in front of the focus plane); `bright`: the input
        pixels of linear luma above 0.85."""
        height, width = owner.shape
        self.interior = np.zeros_like(owner, bool)
        self.interior[border:height - border, border:width - border] = True
        edge = np.zeros_like(owner, bool)
        edge[:, 1:] |= owner[:, 1:] != owner[:, :-1]
        edge[:, :-1] |= owner[:, 1:] != owner[:, :-1]
        edge[1:] |= owner[1:] != owner[:-1]
        edge[:-1] |= owner[1:] != owner[:-1]
        radius = np.abs(signed_radius)
        # Per edge pixel, the larger radius of the two sides (the edge pixels of both sides).
        side = ndimage.maximum_filter(np.where(edge, radius, 0), size=3) * edge
        distance, (iy, ix) = ndimage.distance_transform_edt(~edge, return_indices=True)
        reach = side[iy, ix]
        self.band = (distance <= np.maximum(3, reach)) & self.interior
        self.focus = (radius == 0) & ~self.band & self.interior
        self.blurred = (radius >= 2) & ~self.band & self.interior
        self.blurred_dim = self.blurred & (ndimage.distance_transform_edt(~bright) > border)
        front = signed_radius >= 2
        inside = ndimage.distance_transform_edt(front)
        self.silhouette = front & (inside <= np.maximum(2, signed_radius / 2)) & self.interior
        blurred = radius >= 2
        outside, (by, bx) = ndimage.distance_transform_edt(~blurred, return_indices=True)
        self.rim = (radius == 0) & (outside <= np.maximum(3, radius[by, bx])) & self.interior


def blur_scores(output, reference, regions):
    """The figures of one CIDepthBlurEffect case (encoded RGB images)."""
    return {
        "psnr": psnr(output, reference, regions.interior),
        "ssim": ssim(output, reference, regions.interior),
        "psnr_edges": psnr(output, reference, regions.band),
        "psnr_focus": psnr(output, reference, regions.focus),
        "psnr_blurred": psnr(output, reference, regions.blurred),
        "psnr_blurred_dim": psnr(output, reference, regions.blurred_dim),
        "silhouette_error": mean_error(output, reference, regions.silhouette),
        "rim_bias": luma_bias(output, reference, regions.rim),
    }
