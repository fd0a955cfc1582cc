"""End-to-end check of the blur radius convention: the engine's blur of isolated small squares
against the reference's, behind and in front of the focus plane.

The scene: a black background (disparity 0.3) holding 3×3 squares of linear grey 0.5 (below the
engine's highlight boost) every 64 px on its right three quarters; a grey card (0.18, disparity
0.6, the focus) over the left quarter; and 3×3 white squares (disparity 0.75) in front of the card.
Each square's spread is measured by its effective radius R = √(2·Σw·r²/Σw) (w the rendered
value less the level around, r the distance to the square's centre): a uniform disc of radius R
gives R. The map is the full-resolution one (a 3×3 square would vanish from a sensor map).
"""
import os

import numpy as np

import defocus
import engine
from scenes import Layer, Scene, quantised

BACKGROUND, CARD, FRONT = quantised(0.30), quantised(0.60), quantised(0.75)


def scene(height, width):
    """The check's scene and the centres (row, column) of its back and front squares."""
    background = np.zeros((height, width, 4))
    background[..., 3] = 1
    card = np.zeros((height, width, 4))
    front = np.zeros((height, width, 4))
    edge = width // 4
    card[:, :edge] = [0.18, 0.18, 0.18, 1]
    back_centres, front_centres = [], []
    for y in range(64, height - 63, 64):
        for x in range(edge + 64, width - 63, 64):
            background[y - 1:y + 2, x - 1:x + 2, :3] = 0.5
            back_centres.append((y, x))
    for y in range(48, height - 47, 64):
        x = edge // 2
        front[y - 1:y + 2, x - 1:x + 2] = [1, 1, 1, 1]
        front_centres.append((y, x))
    layers = [Layer("background", background, BACKGROUND), Layer("card", card, CARD), Layer("front", front, FRONT)]
    return Scene("radius-check", layers, focus=["card"]), back_centres, front_centres


def effective_radius(image, centres, level, reach):
    """Mean over the squares of √(2·Σw·r²/Σw), w = luma − level within `reach` px of each centre."""
    radii = []
    for y, x in centres:
        window = image[y - reach:y + reach + 1, x - reach:x + reach + 1].mean(axis=-1) - level
        dy, dx = np.mgrid[-reach:reach + 1, -reach:reach + 1]
        w = np.maximum(window, 0)
        radii.append(np.sqrt(2 * np.sum(w * (dx * dx + dy * dy)) / np.sum(w)))
    return float(np.mean(radii))


def run(graph, folder, height, width, apertures):
    """Rows (aperture, side, formula radius, reference R, engine R) for each aperture."""
    check, back, front = scene(height, width)
    os.makedirs(folder, exist_ok=True)
    paths = engine.write_inputs(check, check.low_disparity_map(4), folder)
    rect = engine.normalised_rect((8, 8, width // 4 - 16, height - 16), height, width)
    cases = [(f"check-{a}", "full", rect, a) for a in apertures]
    recipe, files = engine.recipe(paths, cases, [], folder)
    engine.run(graph, recipe, folder)
    long_side = max(height, width)
    rows = []
    for aperture, (case_id, *_rest) in zip(apertures, cases):
        out = engine.read_picture(files[f"blur-{case_id}"])
        focus = float(engine.read_data(files[f"focus-{case_id}"]).ravel()[0])
        ref = defocus.reference(check, focus, aperture)[..., :3]
        for side, centres, d, level in (("behind", back, BACKGROUND, 0.0), ("in front", front, FRONT, 0.18)):
            formula = abs(float(defocus.signed_radius(d, focus, aperture, long_side)))
            reach = int(np.ceil(1.6 * formula)) + 3
            rows.append((aperture, side, formula, effective_radius(ref, centres, level, reach),
                         effective_radius(out, centres, level, reach)))
    return rows


def table(rows):
    """Markdown rows of the check."""
    lines = ["| aperture | squares | formula radius (px) | reference R (px) | engine R (px) | engine ÷ reference |",
             "|---:|---|---:|---:|---:|---:|"]
    for aperture, side, formula, ref, out in rows:
        lines.append(f"| f/{aperture} | {side} | {formula:.2f} | {ref:.2f} | {out:.2f} | {out / ref:.2f} |")
    return "\n".join(lines)
