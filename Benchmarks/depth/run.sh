#!/usr/bin/env bash
# Depth effects on the 12 MP iPhone X portrait (3024x4032) and its disparity, JPEG in and out, whole
# process (`graph run`, release), each next to the baseline CIGaussianBlur sigma 10 of the same photo
# run in the same minute: prints wall seconds, CPU seconds (user + system: less inflated than wall
# time on a loaded machine), peak RSS (from /usr/bin/time -v) and the ratio to the baseline.
# Usage: bash Benchmarks/depth/run.sh [repetitions] [label-regex]   (needs ../shared/testdata/depth)
#   label-regex: only the benchmarks whose label matches (e.g. 'depth-mask|change-focus').
#   GRAPH=path/to/graph: runs that binary instead of building one.
#   COMPARE=path/to/other/graph: also times that binary on each benchmark, right after this one.
set -euo pipefail
cd "$(dirname "$0")/../.."
graph=${GRAPH:-.build/release/graph}
[[ -n ${GRAPH:-} ]] || swift build -c release --product graph >/dev/null
photo=$(cd ../shared/testdata/depth && pwd)/iphoneX_depth_matte_shu223.jpg
runs=${1:-3}
only=${2:-.}
compare=${COMPARE:-}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

measure() {  # binary, label, then the graph arguments; prints the best of $runs: seconds, peak KB, CPU seconds
    local binary=$1 label=$2; shift 2
    local best=999999 peak=0 cpu=0
    for _ in $(seq "$runs"); do
        /usr/bin/time -v "$binary" "$@" >/dev/null 2>"$out/time"
        local s kb c
        s=$(awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2, t, ":"); print (n == 3 ? t[1]*3600 + t[2]*60 + t[3] : t[1]*60 + t[2])}' "$out/time")
        kb=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$out/time")
        c=$(awk -F': ' '/User time|System time/ {sum += $2} END {print sum}' "$out/time")
        if awk "BEGIN {exit !($s < $best)}"; then best=$s; peak=$kb; cpu=$c; fi
    done
    echo "$best $peak $cpu"
}

files=(--set "photo.file=\"$photo\"" --set "disparity.file=\"$photo\"")
report() {  # label, recipe, extra arguments
    local label=$1 recipe=$2; shift 2
    [[ $label =~ $only ]] || return 0
    read -r base basepeak _ < <(measure "$graph" baseline run Benchmarks/depth/gaussian-baseline.json)
    read -r t peak cpu < <(measure "$graph" "$label" run "$recipe" "$@")
    printf '%-30s %6.2f s (CPU %5.2f s) %5d MB peak   baseline %5.2f s %5d MB   ratio %5.2f' "$label" "$t" "$cpu" $((peak / 1024)) \
        "$base" $((basepeak / 1024)) "$(awk "BEGIN {print $t / $base}")"
    if [[ -n $compare ]]; then
        read -r c cpeak ccpu < <(measure "$compare" "$label" run "$recipe" "$@")
        printf '   compared %5.2f s (CPU %5.2f s) %5d MB' "$c" "$ccpu" $((cpeak / 1024))
    fi
    printf '\n'
}

report "CIDepthBlurEffect full size" Benchmarks/depth/portrait-blur-full.json
report "CIDepthBlurEffect scale 0.25" Benchmarks/depth/portrait-blur-full.json --set blur.inputScaleFactor=0.25
for recipe in Examples/depth/*.json; do
    name=$(basename "$recipe" .json)
    extra=("${files[@]}")
    grep -q '"auxiliary": "matte"' "$recipe" && extra+=(--set "matte.file=\"$photo\"")
    grep -q '"auxiliary": "disparity"' "$recipe" || extra=(--set "photo.file=\"$photo\"" --set "matte.file=\"$photo\"")
    # Outputs to a scratch folder, not next to the recipe.
    cp "$recipe" "$out/$name.json"
    sed -i "s#\"output/#\"$out/output/#g; s#\"../recipes/#\"$(pwd)/Examples/recipes/#g; s#\"natural.cube\"#\"$(pwd)/Examples/depth/natural.cube\"#g" "$out/$name.json"
    report "$name" "$out/$name.json" "${extra[@]}"
done
