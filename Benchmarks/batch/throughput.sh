#!/usr/bin/env bash
# Files per second of `graph batch --jobs 2` against a shell loop of `graph run` over the same
# photos, measured in alternating order in the same minutes (the machine may be loaded: compare
# the ratios), with the peak RSS of each (/usr/bin/time). The outputs of both must be identical.
#
#   Benchmarks/batch/throughput.sh [COUNT=200] [ROUNDS=3] [WORK=/tmp/graph-batch-bench] [WIDTH=1632] [HEIGHT=1224]
#
# The recipe is the T2 chain (sepia, hue, contrast; colour management off, as for the peers);
# RECIPE=Benchmarks/batch/color-chain.json runs a colour-managed chain instead. Needs python3
# with numpy and Pillow (the photos, made once and kept in WORK/in).
set -euo pipefail
cd "$(dirname "$0")/../.."
count=${1:-200}
rounds=${2:-3}
work=${3:-/tmp/graph-batch-bench}
width=${4:-1632}
height=${5:-1224}
swift build -c release --product graph >/dev/null
graph=$PWD/.build/release/graph
recipe=$(realpath "${RECIPE:-Benchmarks/recipes/t2-color-chain.json}")
python3 Benchmarks/batch/make_photos.py "$work/in" "$count" "$width" "$height"
ls "$work"/in/photo_*.jpg | head -n "$count" > "$work/manifest.txt"
files=$(wc -l < "$work/manifest.txt")
echo "graph batch throughput: ${recipe#$PWD/}, $files photos of ${width}x${height} ($(du -sh "$work/in" | cut -f1)), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"

run_loop() {
    rm -rf "$work/loop"
    /usr/bin/time -f "%e %M" -o "$work/loop.time" bash -c '
        graph=$1 recipe=$2 out=$3
        while IFS= read -r file; do
            name=${file##*/}
            "$graph" run "$recipe" --set "photo.file=$file" -o "$out/${name%.*}.jpg" > /dev/null
        done' loop "$graph" "$recipe" "$work/loop" < "$work/manifest.txt"
}

run_batch() {
    rm -rf "$work/batch"
    /usr/bin/time -f "%e %M" -o "$work/batch.time" \
        "$graph" batch "$recipe" --manifest "$work/manifest.txt" --out "$work/batch/{stem}.jpg" --jobs 2 \
        --log "$work/batch.jsonl" 2> /dev/null
}

for round in $(seq 1 "$rounds"); do
    if (( round % 2 )); then run_loop; run_batch; else run_batch; run_loop; fi
    read -r loop_s loop_kb < "$work/loop.time"
    read -r batch_s batch_kb < "$work/batch.time"
    for file in "$work"/loop/*.jpg; do
        cmp -s "$file" "$work/batch/${file##*/}" || { echo "outputs differ: ${file##*/}" >&2; exit 1; }
    done
    awk -v r="$round" -v n="$files" -v ls="$loop_s" -v lk="$loop_kb" -v bs="$batch_s" -v bk="$batch_kb" 'BEGIN {
        printf "round %d: graph run loop %.2f s (%.1f files/s, peak RSS %.0f MB)   graph batch --jobs 2 %.2f s (%.1f files/s, peak RSS %.0f MB)   ratio %.2fx\n",
               r, ls, n / ls, lk / 1024, bs, n / bs, bk / 1024, ls / bs }'
done
