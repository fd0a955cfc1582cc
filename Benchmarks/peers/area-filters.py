#!/usr/bin/env python3
"""The catalogue's area filters against the nearest peer operation, whole process, same minutes.

    GRAPH=.build/release/graph python3 Benchmarks/peers/area-filters.py [PHOTO.jpg] [ROUNDS]

Each row runs `graph apply PHOTO out FILTER` and the peer (libvips 8.18 through pyvips, or Pillow)
on the same JPEG, round-robin for ROUNDS rounds (default 3), and prints a Markdown table of the best
wall time with its CPU time (user + system) and peak RSS, and graph ÷ peer. The peers are the
nearest operation, not the same formula (a note per row says how they differ): the figure says what
a user pays for the job, not that the outputs match. Default photo: the 12 MP iPhone X portrait in
../shared/testdata/depth.
"""
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PHOTO = sys.argv[1] if len(sys.argv) > 1 and sys.argv[1] else os.path.join(ROOT, "..", "shared", "testdata", "depth", "iphoneX_depth_shu223.jpg")
ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 3
GRAPH = os.environ.get("GRAPH", os.path.join(ROOT, ".build", "release", "graph"))

VIPS = "import pyvips, sys; im = pyvips.Image.new_from_file(sys.argv[1], access='sequential'); "
PIL = "import sys; from PIL import Image, ImageFilter; im = Image.open(sys.argv[1]); "
# (row, graph filter and arguments, output suffix, peer name, peer program, note)
ROWS = [
    ("3×3 median", ["CIMedianFilter"], "jpg", "pyvips median(3)", VIPS + "im.median(3).write_to_file(sys.argv[2])",
     "same operation"),
    ("3×3 median", ["CIMedianFilter"], "jpg", "Pillow MedianFilter(3)", PIL + "im.filter(ImageFilter.MedianFilter(3)).save(sys.argv[2])",
     "same operation"),
    ("edges", ["CIEdges"], "jpg", "pyvips sobel()", VIPS + "im.sobel().write_to_file(sys.argv[2])",
     "CIEdges: gradient magnitude × intensity; sobel: gradient magnitude"),
    ("Sobel gradients", ["CISobelGradients"], "png", "pyvips sobel()", VIPS + "im.sobel().write_to_file(sys.argv[2])",
     "CISobelGradients keeps the signed x and y gradients (a 16-bit PNG); sobel writes the magnitude"),
    ("area maximum", ["CIAreaMaximum"], "png", "pyvips max()", VIPS + "print(im.max())",
     "per channel 1×1 image vs one number"),
    ("area minimum alpha", ["CIAreaMinimumAlpha"], "png", "pyvips min()", VIPS + "print(im.min())",
     "the pixel of least alpha vs the least value"),
    ("log histogram", ["CIAreaLogarithmicHistogram"], "png", "pyvips hist_find()", VIPS + "print(im.hist_find().numpy().sum())",
     "64 log2-spaced bins (Core Image's default) vs 256 linear bins per band"),
]


def timed(command):
    """Wall s, CPU s, peak MiB of one run (GNU time)."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as t:
        result = subprocess.run(["/usr/bin/time", "-f", "%e %U %S %M", "-o", t.name] + command,
                                capture_output=True, text=True)
        if result.returncode != 0:
            raise RuntimeError(f"{' '.join(command)} failed: {result.stderr.strip()[-400:]}")
        wall, user, system, peak = t.read().split()[-4:]
    return float(wall), float(user) + float(system), int(peak) / 1024


def main():
    work = tempfile.mkdtemp(prefix="area-peers-")
    best = {}
    for _ in range(ROUNDS):
        for index, (_, filter_args, suffix, _, program, _) in enumerate(ROWS):
            runs = {
                "graph": [GRAPH, "apply", PHOTO, os.path.join(work, f"graph-{index}.{suffix}")] + filter_args,
                "peer": [sys.executable, "-c", program, PHOTO, os.path.join(work, f"peer-{index}.{suffix}")],
            }
            for side, command in runs.items():
                figure = timed(command)
                key = (index, side)
                if key not in best or figure[0] < best[key][0]:
                    best[key] = figure
    print(f"Photo: {os.path.basename(PHOTO)}; best of {ROUNDS} round-robin rounds; wall s (CPU s, peak MiB)\n")
    print("| operation | graph | peer | peer figure | graph ÷ peer (wall / CPU) | how they differ |")
    print("|---|---|---|---|---|---|")
    for index, (name, filter_args, _, peer, _, note) in enumerate(ROWS):
        g, p = best[(index, "graph")], best[(index, "peer")]
        print(f"| {name} | {g[0]:.2f} ({g[1]:.2f}, {g[2]:.0f}) | {peer} | {p[0]:.2f} ({p[1]:.2f}, {p[2]:.0f}) | "
              f"{g[0] / p[0]:.2f}× / {g[1] / max(p[1], 1e-9):.2f}× | {note} |")


if __name__ == "__main__":
    main()
