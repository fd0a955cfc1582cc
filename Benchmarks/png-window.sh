#!/usr/bin/env bash
# Issue 11: a streamed render of a PNG input holds a window of its rows, not the image, so its
# peak memory does not grow with the height. Runs T7's recipe (clamp -> Gaussian sigma 3 -> crop
# -> JPEG q90, colour management off) on the 24 MP PNG and on a 144 MP PNG made once from
# big_12000x12000.jpg (vips, zlib level 1, into /tmp/graph-bench), whole process, runs
# alternating; prints min / median / max of wall s and peak MiB (rusage, as the peers' harness.py)
# and the ratio of the median peaks.
#
#   swift build -c release --product graph
#   Benchmarks/png-window.sh [RUNS]   # PEERS=path/to/bench/peers (default ../shared/bench/peers,
#                                     # whose make_inputs.sh makes the inputs); GRAPH=binary
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
peers=${PEERS:-../shared/bench/peers}
graph=${GRAPH:-.build/release/graph}
small="$peers/inputs/photo_6000x4000.png"
big=/tmp/graph-bench/big_12000x12000.png
[ -f "$small" ] && [ -f "$peers/inputs/big_12000x12000.jpg" ] \
    || { echo "png-window: no inputs in $peers/inputs (run $peers/make_inputs.sh, or set PEERS)" >&2; exit 1; }
mkdir -p /tmp/graph-bench
[ -f "$big" ] || vips copy "$peers/inputs/big_12000x12000.jpg" "$big[compression=1]"
for size in 6000x4000 12000x12000; do
    sed -e "s/\"file\": \"[^\"]*big_12000x12000.jpg\"/\"file\": \"IN\"/" \
        -e "s/^        12000,\$/        ${size%x*},/" -e "s/^        12000\$/        ${size#*x}/" \
        -e "s|/tmp/graph-bench/T7.jpg|/tmp/graph-bench/png-window-$size.jpg|" \
        Benchmarks/recipes/t7-big-blur.json > "/tmp/graph-bench/png-window-$size.json"
done
python3 - "$peers" "$runs" \
    "$graph run /tmp/graph-bench/png-window-6000x4000.json --set photo.file=$small" \
    "$graph run /tmp/graph-bench/png-window-12000x12000.json --set photo.file=$big" <<'PY'
import importlib.util, os, shlex, statistics, sys
peers, runs, commands = sys.argv[1], int(sys.argv[2]), {"24 MP PNG": sys.argv[3], "144 MP PNG": sys.argv[4]}
spec = importlib.util.spec_from_file_location("harness", os.path.join(peers, "harness.py"))
harness = importlib.util.module_from_spec(spec)
spec.loader.exec_module(harness)
rows = {name: [] for name in commands}
for command in commands.values():  # one warm-up each
    harness.one(shlex.split(command))
for _ in range(runs):
    for name, command in commands.items():
        result = harness.one(shlex.split(command))
        if result["rc"] != 0:
            sys.exit(f"png-window: {name} exited with {result['rc']}: {command}")
        rows[name].append(result)
print(f"PNG blur s3 -> JPEG, {runs} runs each, alternating; {os.cpu_count()} cores; load average {os.getloadavg()[0]:.2f} at the end")
print(f"{'':12} {'wall s (min med max)':>24} {'peak MiB (min med max)':>26}")
peaks = {}
for name, results in rows.items():
    wall = sorted(r["wall"] for r in results)
    peak = sorted(r["peak"] for r in results)
    peaks[name] = statistics.median(peak)
    print(f"{name:12} {wall[0]:7.2f} {statistics.median(wall):7.2f} {wall[-1]:7.2f}"
          f"   {peak[0]:7.1f} {peaks[name]:7.1f} {peak[-1]:7.1f}")
print(f"peak 144 MP / 24 MP: {peaks['144 MP PNG'] / peaks['24 MP PNG']:.2f}")
PY
