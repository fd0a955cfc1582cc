#!/usr/bin/env bash
# Whole-process time and peak memory of `graph run` against libvips on the peer tasks that
# stream big images (issue 11), same minute, alternating: T7 (144 MP JPEG -> Gaussian s3 -> JPEG),
# T3 (24 MP Gaussian s10, also on 1 thread against VIPS_CONCURRENCY=1) and T2 (24 MP colour chain).
# Each row is harness.py's: min / median / max of wall s, CPU s and peak MiB (rusage of the child).
#
#   swift build -c release --product graph
#   Benchmarks/peers-memory.sh [RUNS]          # PEERS=path/to/bench/peers (default ../shared/bench/peers)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
peers=${PEERS:-../shared/bench/peers}
inputs="$peers/inputs"
graph=.build/release/graph
harness() { python3 "$peers/harness.py" -n "$runs" -- "$@" | grep -E "wall|cpu s|peak"; }
mkdir -p /tmp/graph-bench
for task in "T7 t7-big-blur big_12000x12000.jpg" "T3 t3-blur photo_6000x4000.jpg" "T2 t2-color-chain photo_6000x4000.jpg"; do
    set -- $task
    echo "== $1 graph ($2)"
    harness "$graph" run "Benchmarks/recipes/$2.json" --set "photo.file=$inputs/$3"
    echo "== $1 libvips"
    case $1 in
        T7) harness bash "$peers/tasks/T7_vips.sh" ;;
        T3) harness bash "$peers/tasks/T3_vips.sh" ;;
        T2) harness bash "$peers/tasks/T2_vips.sh" ;;
    esac
done
echo "== T3 graph --threads 1"
harness "$graph" run Benchmarks/recipes/t3-blur.json --set "photo.file=$inputs/photo_6000x4000.jpg" --threads 1
echo "== T3 libvips VIPS_CONCURRENCY=1"
harness bash "$peers/tasks/T3_vips_1t.sh"
