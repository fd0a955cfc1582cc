#!/usr/bin/env bash
# Byte-identical outputs across a change: runs every Examples/recipes/*.json and
# Examples/depth/*.json with two `graph` binaries, each in its own copy of Examples/, then compares
# the exit statuses and every file the copies hold byte for byte (the logs aside).
#
#   scripts/compare-example-outputs.sh BEFORE_GRAPH AFTER_GRAPH [WORK_FOLDER]
#
# Copy the 'before' binary somewhere stable first (a build folder changes under you). Exit status 1
# when a status or a file differs.
set -uo pipefail
[[ $# -ge 2 ]] || { sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
before=$1 after=$2 work=${3:-$(mktemp -d)}
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$work"
rm -rf "$work/before" "$work/after" "$work/before.status" "$work/after.status"
for side in before after; do
    binary=$before; [[ $side == after ]] && binary=$after
    cp -r "$root/Examples" "$work/$side"
    for recipe in "$work/$side"/recipes/*.json "$work/$side"/depth/*.json; do
        name=$(basename "$(dirname "$recipe")")-$(basename "$recipe" .json)
        status=0
        "$binary" run "$recipe" > "$work/$side/$name.log" 2>&1 || status=$?
        echo "$name $status" >> "$work/$side.status"
    done
done
failed=0
if ! diff "$work/before.status" "$work/after.status"; then failed=1; fi
compared=0
while IFS= read -r file; do
    compared=$((compared + 1))
    if ! cmp -s "$work/before/$file" "$work/after/$file"; then echo "differs: $file"; failed=1; fi
done < <(cd "$work/before" && find . -type f -not -name '*.log' | sort)
extra=$(comm -13 <(cd "$work/before" && find . -type f | sort) <(cd "$work/after" && find . -type f | sort))
if [[ -n $extra ]]; then echo "only after: $extra"; failed=1; fi
echo "$(wc -l < "$work/before.status") recipes, $compared files compared in $work: $([[ $failed == 0 ]] && echo identical || echo DIFFERENT)"
rm -f "$work/before.status" "$work/after.status"
exit $failed
