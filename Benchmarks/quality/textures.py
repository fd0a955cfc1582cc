"""Real-photo textures: crops of the repository's own Examples/depth/portrait.jpg (an iPhone X
portrait, MIT), decoded once by the engine under test to a 16-bit PNG and resampled here."""
import json
import os
import subprocess

import numpy as np
import colour
import pngio

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
PHOTO = os.path.join(REPO, "Examples", "depth", "portrait.jpg")

# Named regions of the portrait (x, y, width, height in its 756×1008 pixels, top-left origin).
REGIONS = {
    "room": (0, 0, 756, 567),       # arches, copper lamps, shelves, the person
    "lamps": (480, 0, 276, 260),    # copper lamps, ceiling spots
    "shelves": (560, 260, 196, 400),  # shelves, vases, a chair
    "sofa": (90, 540, 200, 240),    # brown sofa, table
    "floor": (590, 780, 166, 228),  # herringbone parquet
    "plaid": (310, 660, 260, 220),  # checked shorts
    "shirt": (270, 300, 330, 330),  # navy T-shirt
    "hair": (360, 36, 140, 64),     # black hair
    "pillar": (0, 420, 86, 400),    # the pale pillar
}


def load_photo(graph, workdir):
    """The portrait in linear light (H×W×3 float64), decoded by `graph` (cached in `workdir`)."""
    path = os.path.join(workdir, "portrait-16bit.png")
    if not os.path.exists(path):
        recipe = {"version": 1, "images": {"photo": {"file": PHOTO}},
                  "outputs": [{"image": "photo", "file": path, "bitDepth": 16}]}
        recipe_path = os.path.join(workdir, "decode-portrait.json")
        with open(recipe_path, "w") as f:
            json.dump(recipe, f)
        subprocess.run([graph, "run", recipe_path], check=True, capture_output=True)
    return colour.decode(pngio.read(path))


def _resampling_matrix(count, zoom):
    """The (round(count·zoom) × count) matrix of Catmull-Rom cubic interpolation (Keys, a = −½)
    at output pixel centres mapped back by 1/zoom, edges mirrored."""
    out = int(round(count * zoom))
    u = (np.arange(out) + 0.5) / zoom - 0.5
    base = np.floor(u).astype(np.int64)
    matrix = np.zeros((out, count))
    for tap in range(-1, 3):
        t = np.abs(u - (base + tap))
        weight = np.where(t < 1, 1.5 * t**3 - 2.5 * t**2 + 1, np.where(t < 2, -0.5 * t**3 + 2.5 * t**2 - 4 * t + 2, 0))
        index = base + tap
        index = np.where(index < 0, -index - 1, np.where(index >= count, 2 * count - index - 1, index))
        np.add.at(matrix, (np.arange(out), index), weight)
    return matrix


def crop(photo, region, height, width, zoom=1.0, flip=False):
    """`region` of `photo` (a name of REGIONS or an (x, y, w, h) tuple), enlarged `zoom` times
    (Catmull-Rom cubic, in linear light, clipped at 0) and mirrored at its edges as often as
    needed to fill height×width; mirrored left–right when `flip`."""
    x, y, w, h = REGIONS[region] if isinstance(region, str) else region
    part = photo[y:y + h, x:x + w]
    if zoom != 1:
        rows, cols = _resampling_matrix(h, zoom), _resampling_matrix(w, zoom)
        part = np.maximum(np.einsum("ij,jkc,lk->ilc", rows, part, cols, optimize=True), 0)
    reps = (int(np.ceil(height / part.shape[0])), int(np.ceil(width / part.shape[1])))
    part = np.pad(part, ((0, reps[0] * part.shape[0]), (0, reps[1] * part.shape[1]), (0, 0)), mode="symmetric")
    out = part[:height, :width]
    return out[:, ::-1] if flip else out
