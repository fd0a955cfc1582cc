"""Pictures of the cases for a person to look at (`run.py --dump FOLDER`): each case's input,
reference and renders as 8-bit PNGs, and a sheet of crops at the depth edges where the engine
differs most from the reference (columns: input, reference, then each method; enlarged 2×)."""
import os

import numpy as np
from scipy import ndimage

import pngio

CROP = 96


def _worst_spots(error, where, count):
    """Up to `count` centres in `where` of the largest windowed error, at least a crop apart."""
    score = np.where(where, ndimage.uniform_filter(error, 15), -1)
    height, width = error.shape
    spots = []
    for _ in range(count):
        y, x = np.unravel_index(np.argmax(score), score.shape)
        if score[y, x] <= 0:
            break
        spots.append((min(max(y, CROP // 2), height - CROP // 2), min(max(x, CROP // 2), width - CROP // 2)))
        score[max(0, y - CROP):y + CROP, max(0, x - CROP):x + CROP] = -1
    return spots


def _sheet(folder, images, where, count=3):
    """crops.png: rows of crops (each of `images`, in order) around the worst spots of images[2]."""
    error = np.abs(images[2] - images[1]).mean(axis=-1)
    rows = []
    for y, x in _worst_spots(error, where, count):
        crops = [image[y - CROP // 2:y + CROP // 2, x - CROP // 2:x + CROP // 2] for image in images]
        gap = np.ones((CROP, 2, 3))
        row = np.hstack([np.hstack([c, gap]) for c in crops])
        rows.append(np.vstack([row, np.ones((2, row.shape[1], 3))]))
    if rows:
        pngio.write(os.path.join(folder, "crops.png"), np.vstack(rows).repeat(2, 0).repeat(2, 1), bits=8)


def blur_case(folder, photo, reference, outputs, regions):
    os.makedirs(folder, exist_ok=True)
    pngio.write(os.path.join(folder, "input.png"), photo, bits=8)
    pngio.write(os.path.join(folder, "reference.png"), reference, bits=8)
    for method, image in outputs.items():
        if method != "unblurred":
            pngio.write(os.path.join(folder, f"{method}.png"), image, bits=8)
    order = [photo, reference] + [image for method, image in outputs.items() if method != "unblurred"]
    _sheet(folder, order, regions.band)


def dolly_case(folder, photo, reference, outputs, disoccluded):
    os.makedirs(folder, exist_ok=True)
    pngio.write(os.path.join(folder, "input.png"), photo, bits=8)
    pngio.write(os.path.join(folder, "reference.png"), reference, bits=8)
    pngio.write(os.path.join(folder, "disoccluded.png"), disoccluded.astype(np.float64), bits=8)
    for method, image in outputs.items():
        pngio.write(os.path.join(folder, f"{method}.png"), image, bits=8)
    _sheet(folder, [photo, reference] + list(outputs.values()), ndimage.binary_dilation(disoccluded, iterations=4))
