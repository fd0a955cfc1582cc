#!/usr/bin/env bash
# Writes a dolly-zoom frame sequence of a depth photo: output/dolly-zoom-00.jpg ... -NN.jpg, the camera
# moving from 0 to AMOUNT (in the map's unit, metres for iPhone disparity) toward the subject.
# Usage: bash Examples/depth/dolly-zoom-frames.sh [PHOTO] [FRAMES] [AMOUNT]
# (then e.g. ffmpeg -framerate 12 -i Examples/depth/output/dolly-zoom-%02d.jpg dolly.mp4)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
photo=$(realpath "${1:-$here/portrait.jpg}")
frames=${2:-12}
amount=${3:-0.3}
graph=${GRAPH:-$here/../../.build/release/graph}
mkdir -p "$here/output"
for i in $(seq 0 $((frames - 1))); do
    t=$(awk "BEGIN {print $amount * $i / ($frames - 1)}")
    out=$(printf '%s/output/dolly-zoom-%02d.jpg' "$here" "$i")
    # The recipe's disparity (and matte) move with the photo.
    "$graph" run "$here/dolly-zoom.json" --set "photo.file=\"$photo\"" --set "zoom.inputAmount=$t" -o "$out" >/dev/null
    echo "$out"
done
