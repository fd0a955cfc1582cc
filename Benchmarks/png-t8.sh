#!/usr/bin/env bash
# Peer task T8 (issue 11): decode the 24 MP RGB PNG and encode it again as PNG, zlib level 6,
# adaptive filters: `graph run` against `vips copy` (the peers' T8_vips.sh settings), whole
# process, runs alternating so both see the same load. Prints each tool's min / median / max of
# wall s, CPU s and peak MiB (rusage of the child, as the peers' harness.py), the ratios of the
# medians and of the minima (the least disturbed runs on a shared machine), the output sizes,
# and whether both outputs decode (Pillow, and libvips) to the input's pixels.
#
#   swift build -c release --product graph
#   Benchmarks/png-t8.sh [RUNS]     # PEERS=path/to/bench/peers (default ../shared/bench/peers, whose
#                                   # make_inputs.sh makes the input); THREADS=N adds --threads N
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
peers=${PEERS:-../shared/bench/peers}
input="$peers/inputs/photo_6000x4000.png"
graph=${GRAPH:-.build/release/graph}
[ -f "$input" ] || { echo "png-t8: no $input (run $peers/make_inputs.sh, or set PEERS)" >&2; exit 1; }
mkdir -p /tmp/graph-bench
python3 - "$peers" "$runs" "$input" \
    "$graph run Benchmarks/recipes/t8-png.json --set photo.file=$input ${THREADS:+--threads $THREADS}" <<'PY'
import importlib.util, os, shlex, statistics, sys
peers, runs, source, graph_command = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
spec = importlib.util.spec_from_file_location("harness", os.path.join(peers, "harness.py"))
harness = importlib.util.module_from_spec(spec)
spec.loader.exec_module(harness)
outputs = {"graph": "/tmp/graph-bench/T8.png", "vips": "/tmp/graph-bench/T8_vips.png"}
commands = {
    "graph": shlex.split(graph_command),
    "vips": ["vips", "copy", source, outputs["vips"] + "[compression=6,filter=all,strip=true]"],
}
rows = {name: [] for name in commands}
for name, command in commands.items():  # one warm-up each
    harness.one(command)
for _ in range(runs):
    for name, command in commands.items():
        result = harness.one(command)
        if result["rc"] != 0:
            sys.exit(f"png-t8: {name} exited with {result['rc']}: {' '.join(command)}")
        rows[name].append(result)
print(f"T8, {runs} runs each, alternating; {os.cpu_count()} cores; load average {os.getloadavg()[0]:.2f} at the end")
print(f"{'':14} {'wall s (min med max)':>24} {'cpu s (med)':>12} {'peak MiB (med)':>15}")
medians, minima = {}, {}
for name, results in rows.items():
    wall = sorted(r["wall"] for r in results)
    medians[name], minima[name] = statistics.median(wall), wall[0]
    print(f"{name:14} {wall[0]:7.2f} {medians[name]:7.2f} {wall[-1]:7.2f}"
          f" {statistics.median(r['cpu'] for r in results):12.2f} {statistics.median(r['peak'] for r in results):15.1f}")
print(f"graph / vips wall: medians {medians['graph'] / medians['vips']:.2f}, minima {minima['graph'] / minima['vips']:.2f}")
for name, path in outputs.items():
    print(f"{name} output: {os.path.getsize(path)} bytes")
try:
    import numpy as np
    from PIL import Image
    expected = np.asarray(Image.open(source).convert("RGB"))
    for name, path in outputs.items():
        same = np.array_equal(np.asarray(Image.open(path)), expected)
        print(f"{name} output decodes to the input's pixels with Pillow: {same}")
    import pyvips
    for name, path in outputs.items():
        image = pyvips.Image.new_from_file(path)
        pixels = np.ndarray(buffer=image.write_to_memory(), dtype=np.uint8, shape=(image.height, image.width, image.bands))
        print(f"{name} output decodes to the input's pixels with libvips: {np.array_equal(pixels, expected)}")
except ImportError as missing:
    print(f"(decode check skipped: {missing})")
PY
