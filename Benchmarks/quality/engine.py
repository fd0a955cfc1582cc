"""Running the engine under test (`graph run`) on a scene: one recipe per scene whose outputs are
every case's CIDepthBlurEffect and GEDepthDollyZoom render, the focus disparity the engine computes
for each focus rectangle, and the low-resolution map refined to the photo's size (given to the
baselines, so that every method works from the same map).

Files: the all-in-focus photo as a 16-bit sRGB PNG (the engine linearises it, as any photo); the
disparity maps as 16-bit grey PNGs read with `"colorSpace": "data"` (never colour-converted);
outputs as 16-bit PNGs (sRGB for pictures, data for maps).
"""
import json
import os
import subprocess
import time

import colour
import pngio

# CIDepthBlurEffect's grain: 0 means its default (0.004), so the smallest positive value is off.
NO_GRAIN = 1e-9


def normalised_rect(rect, height, width):
    """A rect (x, y, w, h) in pixels from the top-left corner → normalised, lower-left origin."""
    x, y, w, h = rect
    return [x / width, (height - y - h) / height, w / width, h / height]


def write_inputs(scene, low_map, folder):
    """The photo and both maps (full resolution and low) as PNGs in `folder`; returns their paths."""
    os.makedirs(folder, exist_ok=True)
    paths = {name: os.path.join(folder, f"{name}.png") for name in ("photo", "map-full", "map-low")}
    pngio.write(paths["photo"], colour.encode(scene.all_in_focus()[..., :3]))
    pngio.write(paths["map-full"], scene.disparity_map())
    pngio.write(paths["map-low"], low_map)
    return paths


def recipe(paths, blur_cases, dolly_cases, folder, grain=NO_GRAIN):
    """The recipe of one scene and the output file of each of its entries.

    `blur_cases`: (id, map "full"|"low", normalised focus rect, aperture);
    `dolly_cases`: (id, normalised focus rect, amount) on the full-resolution map."""
    images = {
        "photo": {"file": paths["photo"]},
        "full": {"file": paths["map-full"], "colorSpace": "data"},
        "low": {"file": paths["map-low"], "colorSpace": "data"},
        "refined": {"filter": "CIEdgePreserveUpsampleFilter", "inputs": {
            # CIDepthBlurEffect's own refinement of its map (its doc comment, step 1).
            "inputImage": {"image": "photo"}, "inputSmallImage": {"image": "low"},
            "inputSpatialSigma": 1, "inputLumaSigma": 0.05}},
    }
    outputs, files = [], {}

    def output(name, data):
        files[name] = os.path.join(folder, f"{name}.png")
        entry = {"image": name, "file": files[name], "bitDepth": 16}
        if data:
            entry["colorSpace"] = "data"
        outputs.append(entry)

    output("refined", True)
    for case_id, map_name, rect, aperture in blur_cases:
        images[f"blur-{case_id}"] = {"filter": "CIDepthBlurEffect", "inputs": {
            "inputImage": {"image": "photo"}, "inputDisparityImage": {"image": map_name},
            "inputFocusRect": rect, "inputAperture": aperture, "inputLumaNoiseScale": grain}}
        images[f"focus-{case_id}"] = {"filter": "GEFocusDisparity", "inputs": {
            "inputImage": {"image": map_name}, "inputFocusRect": rect}}
        output(f"blur-{case_id}", False)
        output(f"focus-{case_id}", True)
    for case_id, rect, amount in dolly_cases:
        images[f"dolly-{case_id}"] = {"filter": "GEDepthDollyZoom", "inputs": {
            "inputImage": {"image": "photo"}, "inputDisparityImage": {"image": "full"},
            "inputFocusRect": rect, "inputAmount": amount}}
        output(f"dolly-{case_id}", False)
    return {"version": 1, "images": images, "outputs": outputs}, files


def run(graph, scene_recipe, folder):
    """Runs the recipe; returns the wall time in seconds."""
    path = os.path.join(folder, "recipe.json")
    with open(path, "w") as f:
        json.dump(scene_recipe, f, indent=1)
    start = time.perf_counter()
    result = subprocess.run([graph, "run", path], capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"{graph} run {path} failed ({result.returncode}): {result.stderr.strip()}")
    return time.perf_counter() - start


def read_picture(path):
    """An sRGB output → linear RGB."""
    return colour.decode(pngio.read(path)[..., :3])


def read_data(path):
    """A data output (grey or RGB) → its first channel."""
    return pngio.read(path)[..., 0]
