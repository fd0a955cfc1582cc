#!/usr/bin/env python3
"""Where CIDepthBlurEffect's in-focus error lies (issue 23's "in focus" row), per case: the
engine's in-focus PSNR, the share of its squared error by how far past the nearest blurred layer's
reach the pixel is (distance to that layer's pixels minus its radius, from the scene's true layers),
and the PSNR without the pixels within 12 px of bright input (linear luma > 0.85, what the engine
boosts as highlights). Engine only: no baselines, about 1–2 minutes on 2 cores.

    GRAPH=/path/to/graph python3 Benchmarks/quality/focus_errors.py [scene,scene...]
"""
import math
import multiprocessing
import os
import sys
import tempfile

import numpy as np
from scipy import ndimage

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import catalogue  # noqa: E402
import colour  # noqa: E402
import defocus  # noqa: E402
import engine  # noqa: E402
import metrics  # noqa: E402
import run  # noqa: E402
import textures  # noqa: E402

BINS = ((-99, 0), (0, 1), (1, 2), (2, 4), (4, 8), (8, 16), (16, 999))
NEAR_BRIGHT = 12  # px


def shares(error, focus, signed_radius, side):
    """Per distance bin past the reach of the layers on `side` (+1 in front, −1 behind): the bin's
    share of the in-focus squared error (%) and its pixel count."""
    blurred = side * signed_radius >= 1
    if not blurred.any():
        return None
    distance, (iy, ix) = ndimage.distance_transform_edt(~blurred, return_indices=True)
    beyond = distance - np.abs(signed_radius[iy, ix])
    total = error[focus].sum()
    cells = []
    for low, high in BINS:
        where = focus & (beyond >= low) & (beyond < high)
        if where.any():
            cells.append(f"[{low},{high}): {100 * error[where].sum() / max(total, 1e-30):.0f} % of {where.sum()} px")
    return ", ".join(cells)


def evaluate(job):
    scene, config = job
    folder = os.path.join(config["workdir"], scene.name)
    paths = engine.write_inputs(scene, scene.low_disparity_map(run.MAP_FACTOR), folder)
    cases = [(f"{name}-low-{aperture}", name, aperture) for name in scene.focus for aperture in run.APERTURES]
    recipe, files = engine.recipe(paths, [(case_id, "low", run.focus_rect(scene, name), aperture)
                                          for case_id, name, aperture in cases], [], folder)
    engine.run(config["graph"], recipe, folder)
    photo = np.clip(scene.all_in_focus()[..., :3], 0, 1)
    long_side = max(scene.height, scene.width)
    border = int(math.ceil(defocus.BACK_LIMIT * long_side)) + 2
    bright = colour.luma(photo) > 0.85
    near_bright = ndimage.distance_transform_edt(~bright) <= NEAR_BRIGHT
    owner = scene.owner()
    lines = []
    for case_id, name, aperture in cases:
        focus = scene.layer(name).disparity
        reference = colour.encode(defocus.reference(scene, focus, aperture)[..., :3])
        signed_radius = run.owner_radius(scene, owner, focus, aperture)
        regions = metrics.Regions(owner, signed_radius, border, bright)
        output = colour.encode(engine.read_picture(files[f"blur-{case_id}"]))
        error = ((output - reference) ** 2).mean(axis=-1)
        psnr = metrics.psnr(output, reference, regions.focus)
        dim = metrics.psnr(output, reference, regions.focus & ~near_bright)
        lines.append(f"{scene.name} {case_id} ({scene.role(name)}): in focus {psnr:.1f} dB, "
                     f"{dim:.1f} dB away from bright input")
        for label, side in (("past the front layers' reach", 1), ("past the back layers' reach", -1)):
            cells = shares(error, regions.focus, signed_radius, side)
            if cells:
                lines.append(f"    {label}: {cells}")
    return lines


def main():
    graph = os.environ.get("GRAPH", os.path.join(textures.REPO, ".build", "release", "graph"))
    names = sys.argv[1].split(",") if len(sys.argv) > 1 else None
    with tempfile.TemporaryDirectory(prefix="focus-errors-") as workdir:
        photo = textures.load_photo(graph, workdir)
        scenes = catalogue.build(photo, *run.SIZE, names=names)
        with multiprocessing.Pool(2) as pool:
            for lines in pool.map(evaluate, [(scene, {"graph": graph, "workdir": workdir}) for scene in scenes], chunksize=1):
                print("\n".join(lines))


if __name__ == "__main__":
    main()
