"""The dolly zoom reference, its baseline and its scores.

GEDepthDollyZoom's geometry (its doc comment in Sources/Kernels/Filters/Depth/DollyZoom.swift): with c the
image centre, a point of disparity d moves to c + (p − c)·σ(d),

    σ(d) = n/(1 − t·d),  n = (1 − t·d_s)/m,  m = min over the map's border pixels of (1 − t·d_s)/(1 − t·d)
                                              (m is replaced by 1 unless 0 < m < 1),

t the amount, d_s the subject's disparity. The reference moves every layer by its own disparity
(the inverse map p = c + (q − c)/σ(d(p)) solved by fixed-point iteration, exact for a constant
layer), samples it bilinearly (premultiplied, zero outside the frame; the engine samples the photo
bilinearly too) and composites the layers back to front with "over", so disocclusions show the true
background.
"""
import numpy as np
from scipy import ndimage

import colour
import defocus
import metrics


def numerator(disparity_map, amount, subject):
    """n of σ(d) = n/(1 − t·d), from the map's border as the engine computes it."""
    border = np.concatenate([disparity_map[0], disparity_map[-1], disparity_map[:, 0], disparity_map[:, -1]])
    denominator = 1 - amount * border
    unmagnified = 1 - amount * subject
    least = np.min(unmagnified / denominator[denominator > 0])
    return unmagnified / least if 0 < least < 1 else unmagnified


def _sample(values, x, y):
    """Bilinear samples of an H×W×C array at continuous pixel coordinates (centres at i + ½), zero outside."""
    return np.stack([ndimage.map_coordinates(values[..., ch], [y - 0.5, x - 0.5], order=1, mode="constant", cval=0)
                     for ch in range(values.shape[-1])], axis=-1)


def source_points(layer_disparity, n, amount, height, width, iterations=8):
    """For each output pixel centre q, the point p of a layer that lands there: p = c + (q − c)/σ(d(p))."""
    cx, cy = width / 2, height / 2
    qy, qx = np.mgrid[0:height, 0:width] + 0.5
    if np.ndim(layer_disparity) == 0:
        scale = n / (1 - amount * float(layer_disparity))
        return cx + (qx - cx) / scale, cy + (qy - cy) / scale
    px, py = qx, qy
    for _ in range(iterations):
        d = ndimage.map_coordinates(layer_disparity, [py - 0.5, px - 0.5], order=1, mode="nearest")
        scale = n / (1 - amount * d)
        px, py = cx + (qx - cx) / scale, cy + (qy - cy) / scale
    return px, py


def reference(scene, n, amount):
    """The novel view (premultiplied linear RGBA); per pixel, the layer seen there (alpha > ½, or
    −1) and whether that layer's point was hidden in the photo (disoccluded); and the steady
    pixels, where a renderer that moves the photo's pixels can be exact: one layer seen whole in
    both views, 3 px from any change of layer or partial cover in the view and from any change of
    layer around its source point in the photo."""
    height, width = scene.height, scene.width
    owner = scene.owner()
    near_edge_in_photo = metrics.near_change(owner, 3)
    out = np.zeros((height, width, 4))
    seen = np.full((height, width), -1)
    hidden = np.zeros((height, width), bool)
    partial = np.zeros((height, width), bool)
    source_near_edge = np.zeros((height, width), bool)
    for index, layer in enumerate(scene.layers):
        px, py = source_points(layer.disparity, n, amount, height, width)
        warped = _sample(layer.rgba, px, py)
        out = defocus.over(warped, out)
        alpha = warped[..., 3]
        visible = alpha > 0.5
        seen[visible] = index
        partial |= (alpha > 0.002) & (alpha < 0.998)
        ix = np.clip(np.floor(px).astype(np.int64), 0, width - 1)
        iy = np.clip(np.floor(py).astype(np.int64), 0, height - 1)
        hidden[visible] = owner[iy, ix][visible] != index
        source_near_edge[visible] = near_edge_in_photo[iy, ix][visible]
    steady = (seen >= 0) & ~hidden & ~source_near_edge & ~metrics.near_change(seen, 3)
    steady &= ~ndimage.binary_dilation(partial, iterations=3)
    return out, seen, hidden, steady


def forward_warp(photo, disparity_map, n, amount):
    """Baseline: every photo pixel moves by its own σ(d) to the output pixel its centre lands in,
    the largest disparity winning; pixels nothing lands on take the nearest landed pixel's colour."""
    height, width = disparity_map.shape
    cx, cy = width / 2, height / 2
    py, px = np.mgrid[0:height, 0:width] + 0.5
    scale = n / (1 - amount * disparity_map)
    qx = np.floor(cx + (px - cx) * scale).astype(np.int64).ravel()
    qy = np.floor(cy + (py - cy) * scale).astype(np.int64).ravel()
    d = disparity_map.ravel()
    keep = np.nonzero((qx >= 0) & (qx < width) & (qy >= 0) & (qy < height))[0]
    target = qy[keep] * width + qx[keep]
    order = np.lexsort((d[keep], target))  # by target, then disparity: the last of each target wins
    last = np.r_[target[order][1:] != target[order][:-1], True]
    winners = keep[order[last]]
    out = np.zeros((height * width, 3))
    landed = np.zeros(height * width, bool)
    out[target[order[last]]] = photo.reshape(-1, 3)[winners]
    landed[target[order[last]]] = True
    out, landed = out.reshape(height, width, 3), landed.reshape(height, width)
    _, (iy, ix) = ndimage.distance_transform_edt(~landed, return_indices=True)
    return out[iy, ix]


def detail(encoded):
    """Fine-detail energy per pixel: the squared difference of the luma from its Gaussian blur (σ 1 px)."""
    y = colour.luma(encoded)
    return (y - ndimage.gaussian_filter(y, 1.0)) ** 2


def scores(output, reference_rgb, valid, disoccluded):
    """PSNR over the valid frame and over the disoccluded pixels, and the fine-detail energy summed
    over the disoccluded pixels for the output and for the reference (the report pools these sums
    over the cases into one ratio: a per-case ratio explodes where the true background is flat)."""
    return {
        "psnr": metrics.psnr(output, reference_rgb, valid),
        "psnr_disoccluded": metrics.psnr(output, reference_rgb, disoccluded),
        "detail": float(detail(output)[disoccluded].sum()),
        "detail_truth": float(detail(reference_rgb)[disoccluded].sum()),
    }


def scale_error(output, reference_rgb, mask, width, height):
    """The radial scale error s that best explains output − reference as the reference moved by
    s·(q − c) over `mask` (least squares on the luma, first order), as the displacement in px it
    makes at the frame's corner."""
    y_out, y_ref = colour.luma(output), colour.luma(reference_rgb)
    gy, gx = np.gradient(y_ref)
    qy, qx = np.mgrid[0:height, 0:width] + 0.5
    basis = (gx * (qx - width / 2) + gy * (qy - height / 2))[mask]
    residual = (y_ref - y_out)[mask]
    s = float(np.dot(basis, residual) / max(np.dot(basis, basis), 1e-12))
    return abs(s) * np.hypot(width / 2, height / 2)
