"""Shared by the Python tests: where things are, and the test batch (200 small generated
photos plus the corrupt files of the shared test data)."""

from __future__ import annotations

import json
import os
import shutil
import struct
import subprocess
import unittest
import zlib

REPOSITORY = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHARED_TESTDATA = os.path.normpath(os.path.join(REPOSITORY, "..", "shared", "testdata"))

#: The recipe every test batch runs: sepia, hue, contrast (one fused program).
RECIPE = {
    "version": 1,
    "images": {
        "photo": {"file": "placeholder.png"},
        "toned": {"filter": "CISepiaTone", "inputs": {"inputImage": {"image": "photo"}, "inputIntensity": 0.7}},
        "hue": {"filter": "CIHueAdjust", "inputs": {"inputImage": {"image": "toned"}, "inputAngle": 0.4}},
        "graded": {"filter": "CIColorControls", "inputs": {"inputImage": {"image": "hue"}, "inputContrast": 1.2}},
    },
    "outputs": [{"image": "graded", "file": "out.png"}],
}

#: Outputs keep the input's format: PNG inputs give PNGs (rendered), JPEGs JPEGs (streamed).
OUT_TEMPLATE = "out/{dir}/{stem}.{ext}"


def graph_binary() -> str:
    """`$GRAPH`, else the debug build of this checkout; skips the test when neither exists."""
    path = os.environ.get("GRAPH") or os.path.join(REPOSITORY, ".build", "debug", "graph")
    if not os.access(path, os.X_OK):
        raise unittest.SkipTest(f"no graph binary at {path}: run `swift build --product graph` first (or set GRAPH)")
    return path


def png_bytes(width: int, height: int, pixel) -> bytes:
    """An 8-bit RGB PNG whose pixel (x, y) is `pixel(x, y)` (standard library only)."""
    rows = b"".join(b"\x00" + b"".join(bytes(pixel(x, y)) for x in range(width)) for y in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 6)) + chunk(b"IEND", b"")


def corrupt_files() -> list:
    """The corrupt PNG Suite files (x*.png) and the JPEG crash-test files; skips when the shared
    test data is absent."""
    pngsuite = os.path.join(SHARED_TESTDATA, "pngsuite")
    crashtest = os.path.join(SHARED_TESTDATA, "jpeg", "jpeg-decoder", "crashtest", "images")
    if not os.path.isdir(pngsuite) or not os.path.isdir(crashtest):
        raise unittest.SkipTest(f"shared test data not found at {SHARED_TESTDATA}")
    files = [os.path.join(pngsuite, name) for name in sorted(os.listdir(pngsuite)) if name.startswith("x")]
    # The one large crash-test file decodes (slowly in debug builds): left out.
    files += [os.path.join(crashtest, name) for name in sorted(os.listdir(crashtest))
              if name.endswith(".jpg") and name != "extraneous-bytes-after-sos.jpg"]
    return files


def make_test_batch(folder: str, count: int = 200) -> dict:
    """`count` small generated photos (half PNG, half JPEG made from PNGs by graph itself) in
    `folder/in/good`, the corrupt files in `folder/in/bad`, the recipe, and a manifest listing
    all of them (relative to `folder`). Returns the paths."""
    graph = graph_binary()
    good, bad = os.path.join(folder, "in", "good"), os.path.join(folder, "in", "bad")
    staging = os.path.join(folder, "staging")
    for path in (good, bad, staging):
        os.makedirs(path, exist_ok=True)
    jpeg_sources = []
    for index in range(count):
        width, height = 24 + index % 23, 16 + index % 17

        def pixel(x, y, i=index):
            return ((x * 7 + i * 13) % 256, (y * 11 + i * 3) % 256, ((x + y) * 5 + i * 29) % 256)

        target = good if index % 2 == 0 else staging
        with open(os.path.join(target, f"g{index:03d}.png"), "wb") as file:
            file.write(png_bytes(width, height, pixel))
        if index % 2:
            jpeg_sources.append(os.path.join(staging, f"g{index:03d}.png"))
    passthrough = os.path.join(folder, "passthrough.json")
    with open(passthrough, "w") as file:
        json.dump({"version": 1, "images": {"photo": {"file": "x.png"}},
                   "outputs": [{"image": "photo", "file": "x.jpg", "quality": 92}]}, file)
    subprocess.run([graph, "batch", passthrough, "--out", os.path.join(good, "{stem}.jpg"), "--log", os.devnull]
                   + jpeg_sources, check=True, stderr=subprocess.DEVNULL)
    shutil.rmtree(staging)
    for path in corrupt_files():
        shutil.copy(path, bad)
    recipe = os.path.join(folder, "recipe.json")
    with open(recipe, "w") as file:
        json.dump(RECIPE, file)
    inputs = [os.path.join("in", "good", name) for name in sorted(os.listdir(good))]
    inputs += [os.path.join("in", "bad", name) for name in sorted(os.listdir(bad))]
    manifest = os.path.join(folder, "manifest.txt")
    with open(manifest, "w") as file:
        file.write("".join(path + "\n" for path in inputs))
    return {"recipe": recipe, "manifest": manifest, "inputs": inputs, "good": count,
            "bad": [os.path.join("in", "bad", name) for name in sorted(os.listdir(bad))]}


def read_log(path: str) -> tuple:
    """Entries by input, and the summary, of a JSON-lines log."""
    entries, summary = {}, {}
    with open(path) as file:
        for line in file:
            record = json.loads(line)
            if "summary" in record:
                summary = record["summary"]
            else:
                entries[record["input"]] = record
    return entries, summary


def output_files(folder: str) -> dict:
    """Every file under `folder` (relative path -> bytes), temporaries included."""
    found = {}
    for root, _, names in os.walk(folder):
        for name in names:
            path = os.path.join(root, name)
            with open(path, "rb") as file:
                found[os.path.relpath(path, folder)] = file.read()
    return found


def output_names(folder: str) -> list:
    """The relative paths of the files under `folder` (no reading: safe while a batch writes)."""
    return [os.path.relpath(os.path.join(root, name), folder) for root, _, names in os.walk(folder) for name in names]


def is_temporary(relative_path: str) -> bool:
    """A temporary of an atomic write (`.NAME.tmp-PID-RANDOM-ATTEMPT`)."""
    name = os.path.basename(relative_path)
    return name.startswith(".") and ".tmp-" in name
