#!/usr/bin/env python3
"""Quality benchmark of the depth effects (issue 23): CIDepthBlurEffect and GEDepthDollyZoom
against exact layered references, beside simple baselines. See README.md.

    GRAPH=/path/to/graph python3 Benchmarks/quality/run.py [--quick] [--dump FOLDER]
"""
import argparse
import datetime
import hashlib
import math
import multiprocessing
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import baselines  # noqa: E402
import catalogue  # noqa: E402
import colour  # noqa: E402
import defocus  # noqa: E402
import dolly  # noqa: E402
import dump  # noqa: E402
import engine  # noqa: E402
import metrics  # noqa: E402
import radiuscheck  # noqa: E402
import report  # noqa: E402
import textures  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
MAP_FACTOR = 4  # the sensor map is a quarter of the photo's size on each side
SIZE, QUICK_SIZE = (576, 768), (384, 512)
APERTURES, QUICK_APERTURES = (1.4, 2.8, 5.6), (2.8,)
QUICK_SCENES = ("portrait", "branches", "stack")
DOLLY_AMOUNTS = (-0.2, 0.2)  # away from the subject (the background grows: disocclusions), toward it


def focus_rect(scene, name):
    """The normalised focus rectangle of a case focused on layer `name`."""
    return engine.normalised_rect(scene.focus_rect(name, MAP_FACTOR), scene.height, scene.width)


def owner_radius(scene, owner, focus, aperture):
    """Per pixel, the signed blur radius of the front-most layer there."""
    long_side = max(scene.height, scene.width)
    out = np.zeros(owner.shape)
    for index, layer in enumerate(scene.layers):
        radius = defocus.signed_radius(layer.disparity_at(scene.height, scene.width), focus, aperture, long_side)
        out = np.where(owner == index, radius, out)
    return out


def score_blur(scene, case, files, photo, maps, config):
    """The scores of every method on one CIDepthBlurEffect case, and a note if the engine focused
    elsewhere than on the layer."""
    case_id, name, map_name, aperture = case
    focus = scene.layer(name).disparity
    long_side = max(scene.height, scene.width)
    engine_focus = float(engine.read_data(files[f"focus-{case_id}"]).ravel()[0])
    notes = []
    if abs(engine_focus - focus) > 1e-4:
        notes.append(f"{scene.name} {case_id}: the engine's focus disparity {engine_focus:.5f} ≠ the layer's {focus:.5f}")
    reference = colour.encode(defocus.reference(scene, focus, aperture)[..., :3])
    owner = scene.owner()
    border = int(math.ceil(defocus.BACK_LIMIT * long_side)) + 2
    regions = metrics.Regions(owner, owner_radius(scene, owner, focus, aperture), border, colour.luma(photo) > 0.85)
    radius = np.abs(defocus.signed_radius(maps[map_name], focus, aperture, long_side))
    encoded_photo = colour.encode(photo)
    outputs = {
        "engine": colour.encode(engine.read_picture(files[f"blur-{case_id}"])),
        "gather": colour.encode(baselines.gather(photo, radius)),
        "scatter": colour.encode(baselines.scatter(photo, radius)),
        "unblurred": encoded_photo,
    }
    if config["dump"]:
        dump.blur_case(os.path.join(config["dump"], scene.name, case_id), encoded_photo, reference, outputs, regions)
    rows = [{"scene": scene.name, "case": case_id, "role": scene.role(name), "map": map_name, "aperture": aperture,
             "method": method, **metrics.blur_scores(image, reference, regions)} for method, image in outputs.items()]
    return rows, notes


def score_dolly(scene, case_id, amount, files, photo, full_map, config):
    """The scores of the engine and the forward warp on one GEDepthDollyZoom case."""
    n = dolly.numerator(full_map, amount, scene.layer(scene.subject).disparity)
    view, seen, hidden, steady = dolly.reference(scene, n, amount)
    reference = colour.encode(view[..., :3])
    valid = np.zeros(seen.shape, bool)
    valid[2:-2, 2:-2] = view[2:-2, 2:-2, 3] > 0.999  # where the layers cover the frame
    disoccluded = hidden & valid
    outputs = {"engine": colour.encode(engine.read_picture(files[f"dolly-{case_id}"])),
               "warp": colour.encode(dolly.forward_warp(photo, full_map, n, amount))}
    steady &= valid
    corner_error = dolly.scale_error(outputs["engine"], reference, steady, scene.width, scene.height)
    if config["dump"]:
        dump.dolly_case(os.path.join(config["dump"], scene.name, f"dolly-{case_id}"), colour.encode(photo), reference,
                        outputs, disoccluded)
    return [{"scene": scene.name, "case": case_id, "method": method, **dolly.scores(image, reference, valid, disoccluded),
             "psnr_steady": metrics.psnr(image, reference, steady),
             "corner_error": corner_error if method == "engine" else float("nan")} for method, image in outputs.items()]


def evaluate(job):
    """Every case of one scene: one engine run (all its cases), then the scores of each case."""
    scene, config = job
    folder = os.path.join(config["workdir"], scene.name)
    paths = engine.write_inputs(scene, scene.low_disparity_map(MAP_FACTOR), folder)
    cases = [(f"{name}-{map_name}-{aperture}", name, map_name, aperture)
             for name in scene.focus for map_name in config["maps"] for aperture in config["apertures"]]
    dolly_cases = [(f"{amount}", focus_rect(scene, scene.subject), amount) for amount in config["amounts"]]
    recipe, files = engine.recipe(paths, [(case_id, map_name, focus_rect(scene, name), aperture)
                                          for case_id, name, map_name, aperture in cases],
                                  dolly_cases, folder, grain=config["grain"])
    seconds = engine.run(config["graph"], recipe, folder)

    photo = np.clip(scene.all_in_focus()[..., :3], 0, 1)  # what every method is given
    maps = {"full": scene.disparity_map(), "low": engine.read_data(files["refined"])}
    blur_rows, dolly_rows, notes = [], [], []
    for case in cases:
        rows, case_notes = score_blur(scene, case, files, photo, maps, config)
        blur_rows += rows
        notes += case_notes
    for case_id, _, amount in dolly_cases:
        dolly_rows += score_dolly(scene, case_id, amount, files, photo, maps["full"], config)
    return blur_rows, dolly_rows, notes, seconds


def engine_identity(graph, given):
    """The engine's commit: `given`, else the repository's HEAD when GRAPH is its own build; and
    the binary's SHA-256 prefix."""
    with open(graph, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()[:12]
    commit = given
    if not commit and os.path.abspath(graph).startswith(textures.REPO):
        result = subprocess.run(["git", "-C", textures.REPO, "describe", "--always", "--dirty"], capture_output=True, text=True)
        commit = result.stdout.strip() or "?"
    return commit or "unknown (pass --engine-commit)", digest


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="3 scenes at 512×384, f/2.8 only (under a minute)")
    parser.add_argument("--maps", default="low", help="comma list of maps the blur cases use: low (a 1/4 sensor map, "
                        "the table's), full (the true map at the photo's size); default low")
    parser.add_argument("--grain", type=float, default=engine.NO_GRAIN,
                        help="CIDepthBlurEffect inputLumaNoiseScale (default 1e-9: grain off; 0 is the engine's default 0.004)")
    parser.add_argument("--scenes", help="comma list of scene names (default all)")
    parser.add_argument("--dump", help="write each case's images and depth-edge crops as PNGs under this folder")
    parser.add_argument("--jobs", type=int, default=2, help="scenes evaluated at once (default 2)")
    parser.add_argument("--engine-commit", default=os.environ.get("GRAPH_COMMIT"),
                        help="the engine's git commit for the results file (default $GRAPH_COMMIT, or the repo's HEAD for its own build)")
    parser.add_argument("--write", action="store_true", help=f"write the table to {os.path.relpath(HERE)}/results-DATE.md")
    args = parser.parse_args()

    graph = os.environ.get("GRAPH", os.path.join(textures.REPO, ".build", "release", "graph"))
    if not os.access(graph, os.X_OK):
        sys.exit(f"no engine binary at {graph}: build it (swift build -c release) or set GRAPH")
    start = time.perf_counter()
    height, width = QUICK_SIZE if args.quick else SIZE
    apertures = QUICK_APERTURES if args.quick else APERTURES
    names = args.scenes.split(",") if args.scenes else (QUICK_SCENES if args.quick else None)
    with tempfile.TemporaryDirectory(prefix="quality-") as workdir:
        photo = textures.load_photo(graph, workdir)
        scenes = catalogue.build(photo, height, width, names=names)
        config = {"graph": graph, "workdir": workdir, "maps": args.maps.split(","), "apertures": apertures,
                  "amounts": DOLLY_AMOUNTS, "grain": args.grain, "dump": args.dump}
        check = radiuscheck.run(graph, os.path.join(workdir, "radius-check"), height, width, apertures)
        jobs = [(scene, config) for scene in scenes]
        if args.jobs > 1:
            with multiprocessing.Pool(args.jobs) as pool:
                results = pool.map(evaluate, jobs, chunksize=1)
        else:
            results = [evaluate(job) for job in jobs]
    blur = [row for r in results for row in r[0]]
    dolly_rows = [row for r in results for row in r[1]]
    notes = [note for r in results for note in r[2]]
    engine_seconds = sum(r[3] for r in results)
    commit, digest = engine_identity(graph, args.engine_commit)
    elapsed = time.perf_counter() - start
    text = report.markdown(blur, dolly_rows, radiuscheck.table(check), notes, {
        "date": datetime.date.today().isoformat(), "graph": graph, "commit": commit, "sha256": digest,
        "size": f"{width}×{height}", "apertures": apertures, "maps": args.maps, "grain": args.grain,
        "scenes": len(scenes), "seconds": elapsed, "engine_seconds": engine_seconds, "quick": args.quick})
    print(text)
    if args.write:
        path = os.path.join(HERE, f"results-{datetime.date.today().isoformat()}.md")
        with open(path, "w") as f:
            f.write(text + "\n")
        print(f"written: {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
