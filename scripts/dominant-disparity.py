#!/usr/bin/env python3
"""The dominant disparity of each real depth photo's subject region, computed independently of the
engine (exiftool extracts the map, Pillow decodes it, numpy does the rest): the expected values of
Tests/GraphCLITests/SubjectFocusTests.swift.

The region is the photo's first MWG region (centre x, y and size w, h, normalised, top-left origin,
in the stored image) or, failing that, a 0.1 x 0.1 square around GFocus:FocalPointX/Y; its pixels
are those of the stored map inside it, rounded out. The dominant disparity follows FocusDisparity's
definition (Sources/Kernels/Filters/Depth/FocusDisparity.swift): 256 bins over the map's range, windows
of +-8 bins, the nearest run of windows holding a quarter of the region each, the mean of the values
in those windows. Apple maps: disparity = FloatMin + v/255 (FloatMax - FloatMin); GDepth
RangeInverse: disparity = 1/d, d = Far Near / (Far - v/255 (Far - Near)).

Needs exiftool, numpy and Pillow. Usage: scripts/dominant-disparity.py [../shared/testdata/depth]."""
import io
import math
import os
import subprocess
import sys

import warnings

import numpy as np
from PIL import Image

warnings.filterwarnings("ignore")  # Pillow calls the Apple MPF "a malformed MPO"

folder = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..", "shared", "testdata", "depth")


def exiftool(*arguments, stdin=None):
    return subprocess.run(["exiftool", *arguments], check=True, capture_output=True, input=stdin).stdout


def tags(path, *names, stdin=None):
    """The first value of each tag (exiftool joins lists with ', '); none when one is missing."""
    out = exiftool("-s", "-s", "-s", "-n", *[f"-{n}" for n in names], path, stdin=stdin).decode().splitlines()
    values = dict(zip(names, out)) if len(out) == len(names) else {}
    return {k: float(v.split(",")[0]) for k, v in values.items()}


def dominant(values, lo, hi):
    """FocusDisparity's definition, steps 3 to 6, and the share of the values it averaged."""
    values = values[np.isfinite(values)].astype(np.float64)
    if hi <= lo:
        return values.mean(), 1.0
    bins = np.minimum(np.floor((values - lo) / (hi - lo) * 256), 255).astype(int)
    histogram = np.bincount(bins, minlength=256)
    mass = np.array([histogram[max(0, c - 8):c + 9].sum() for c in range(256)])
    large = 4 * mass >= values.size
    if large.any():
        last = int(np.nonzero(large)[0].max())
        first = last
        while first > 0 and large[first - 1]:
            first -= 1
    else:
        last = int(np.nonzero(mass == mass.max())[0].max())
        first = last
    chosen = (bins >= first - 8) & (bins <= last + 8)
    return values[chosen].mean(), chosen.mean()


def region_pixels(disparity, cx, cy, w, h):
    height, width = disparity.shape
    x0, x1 = math.floor((cx - w / 2) * width + 1e-9), math.ceil((cx + w / 2) * width - 1e-9)
    y0, y1 = math.floor((cy - h / 2) * height + 1e-9), math.ceil((cy + h / 2) * height - 1e-9)
    return disparity[max(y0, 0):min(y1, height), max(x0, 0):min(x1, width)]


for name in sorted(os.listdir(folder)):
    path = os.path.join(folder, name)
    if not name.endswith(".jpg"):
        continue
    region = tags(path, "RegionAreaX", "RegionAreaY", "RegionAreaW", "RegionAreaH")
    focus = tags(path, "FocalPointX", "FocalPointY")
    gdepth = tags(path, "XMP-GDepth:Near", "XMP-GDepth:Far") if focus else {}
    if region:
        area, source = (region["RegionAreaX"], region["RegionAreaY"], region["RegionAreaW"], region["RegionAreaH"]), "MWG region"
    elif focus:
        area, source = (focus["FocalPointX"], focus["FocalPointY"], 0.1, 0.1), "GFocus point"
    else:
        continue
    if gdepth:
        near, far = gdepth["XMP-GDepth:Near"], gdepth["XMP-GDepth:Far"]
        v = np.asarray(Image.open(io.BytesIO(exiftool("-b", "-DepthImage", path))), dtype=np.float64)[..., 0] / 255
        disparity = (far - v * (far - near)) / (far * near)
        step = (1 / near - 1 / far) / 255
    else:
        aux = exiftool("-b", "-MPImage2", path)
        r = tags("-", "FloatMinValue", "FloatMaxValue", stdin=aux)
        v = np.asarray(Image.open(io.BytesIO(aux)).convert("L"), dtype=np.float64)
        disparity = r["FloatMinValue"] + v / 255 * (r["FloatMaxValue"] - r["FloatMinValue"])
        step = (r["FloatMaxValue"] - r["FloatMinValue"]) / 255
    pixels = region_pixels(disparity, *area)
    value, share = dominant(pixels.ravel(), np.nanmin(disparity), np.nanmax(disparity))
    print(f"{name}: {source} {area}, {pixels.shape[1]}x{pixels.shape[0]} map pixels: dominant disparity {value:.6f} "
          f"({share:.0%} of the region; one 8-bit step {step:.6f}; region {pixels.min():.4f}...{pixels.max():.4f})")
