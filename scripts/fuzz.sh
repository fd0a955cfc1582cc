#!/usr/bin/env bash
# Coverage-guided fuzzing (libFuzzer + AddressSanitizer) of every parser user input reaches.
#
#   scripts/fuzz.sh TARGET SECONDS   fuzz one target, starting from its committed corpus
#   scripts/fuzz.sh all SECONDS      every target in turn (CI: `all 10`)
#   scripts/fuzz.sh list             the targets
#   scripts/fuzz.sh repro TARGET FILE...   run inputs (a crash, a corpus file) once, with the trace
#   scripts/fuzz.sh seed [TARGET...] rebuild the committed corpus from Fuzz/make_seeds.py's seeds,
#                                    keeping the inputs that add coverage (libFuzzer -merge=1)
#
# Each run prints, per target: executions, coverage (edges, features), corpus size, and OK or
# the crash. The exit status is 1 when any target crashed, hung (over 10 s on one input) or ran
# out of memory: the offending input is in Fuzz/.build/work/crashes/TARGET/. A crash becomes a
# regression file in Fuzz/corpus/TARGET/ (so every later run, CI's included, replays it) and a
# unit test in the package's tests.
#
# New inputs found are kept in Fuzz/.build/work/corpus/TARGET/ (not committed), so repeated runs
# go on from where the last one stopped. Fuzz targets live in Fuzz/Sources/graph-fuzz/Targets/.
# FUZZ_NO_BUILD=1 skips the (incremental) build and runs the binary as it is. FUZZ_TIMEOUT=SECONDS
# changes the time one input may take before it counts as a hang (10; more on a loaded machine).
set -euo pipefail
cd "$(dirname "$0")/.."
FUZZ=Fuzz
WORK=$FUZZ/.build/work
BINARY=$FUZZ/.build/debug/graph-fuzz

usage() { sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }

build() {
    # FUZZ_NO_BUILD=1 runs the binary as built (long runs while the sources change).
    if [[ -n ${FUZZ_NO_BUILD:-} && -x $BINARY ]]; then return; fi
    echo "fuzz: building the fuzz targets (AddressSanitizer + libFuzzer coverage)..." >&2
    # SwiftPM plans a path dependency's source files once: a file added or removed in the engine
    # (its folder is newer than the plan) needs a new plan.
    if [[ -f $FUZZ/.build/debug.yaml ]] && [[ -n $(find Sources "$FUZZ/Sources" -type d -newer "$FUZZ/.build/debug.yaml" | head -1) ]]; then
        touch "$FUZZ/Package.swift"
    fi
    # ld.gold warns once per ASan helper symbol; nothing in those lines is actionable.
    if ! swift build --package-path "$FUZZ" --sanitize fuzzer --sanitize address \
        -Xswiftc -sanitize=fuzzer -Xcc -fsanitize=fuzzer-no-link > "$WORK/build.log" 2>&1; then
        grep -v "Cannot export local symbol" "$WORK/build.log" | tail -40 >&2
        exit 1
    fi
}

export SWIFT_BACKTRACE=enable=no   # libFuzzer prints the trace; Swift's backtracer would stall under ASan
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1:handle_abort=1}

targets() { GRAPH_FUZZ_TARGET=list "$BINARY"; }

# fuzz TARGET SECONDS: one run; prints its summary line and returns 1 on a finding.
fuzz() {
    local target=$1 seconds=$2
    local corpus=$WORK/corpus/$target crashes=$WORK/crashes/$target log=$WORK/$target.log
    mkdir -p "$corpus" "$crashes" "$FUZZ/corpus/$target"
    local args=(-max_total_time="$seconds" -timeout="${FUZZ_TIMEOUT:-10}" -rss_limit_mb=3072 -malloc_limit_mb=2048
                -max_len=65536 -print_final_stats=1 -artifact_prefix="$crashes/")
    [[ -f $FUZZ/dictionaries/$target.dict ]] && args+=(-dict="$FUZZ/dictionaries/$target.dict")
    local status=0
    GRAPH_FUZZ_TARGET=$target "$BINARY" "${args[@]}" "$corpus" "$FUZZ/corpus/$target" > "$log" 2>&1 || status=$?
    local executions coverage features corpus_size result
    executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    coverage=$(grep -ao 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
    features=$(grep -ao 'ft: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
    corpus_size=$(grep -ao 'corp: [0-9]*/[0-9]*[a-zA-Z]*' "$log" | tail -1 | cut -d' ' -f2)
    if [[ $status == 0 ]]; then
        result=OK
    else
        local artifact
        artifact=$(sed -n 's/.*Test unit written to //p' "$log" | tail -1)
        result="FAILED (status $status; input: ${artifact:-none}; log: $log)"
    fi
    printf '%-11s %6ss  executions %-10s coverage %-6s features %-7s corpus %-12s %s\n' \
        "$target" "$seconds" "${executions:-?}" "${coverage:-?}" "${features:-?}" "${corpus_size:-?}" "$result"
    if [[ $status != 0 ]]; then
        grep -aE "ERROR|Fatal error|==[0-9]+==|^ *#[0-9]+ .* in " "$log" | grep -v "in fuzzer::\|libc.so\|in main \|_start" | head -25 >&2
        return 1
    fi
}

mkdir -p "$WORK"
[[ $# -ge 1 ]] || usage
case $1 in
list)
    build
    targets
    ;;
repro)
    [[ $# -ge 3 ]] || usage
    build
    target=$2
    shift 2
    GRAPH_FUZZ_TARGET=$target "$BINARY" -timeout="${FUZZ_TIMEOUT:-10}" -rss_limit_mb=3072 -malloc_limit_mb=2048 "$@"
    ;;
seed)
    build
    shift
    python3 "$FUZZ/make_seeds.py"
    for target in ${@:-$(targets)}; do
        [[ -d $FUZZ/seeds/$target ]] || continue
        mkdir -p "$FUZZ/corpus/$target"
        GRAPH_FUZZ_TARGET=$target "$BINARY" -merge=1 -timeout=10 -rss_limit_mb=3072 \
            "$FUZZ/corpus/$target" "$FUZZ/seeds/$target" > "$WORK/$target-merge.log" 2>&1
        echo "$target: $(ls "$FUZZ/corpus/$target" | wc -l) files, $(du -sk "$FUZZ/corpus/$target" | cut -f1) KiB"
    done
    ;;
*)
    [[ $# -eq 2 && $2 =~ ^[0-9]+$ ]] || usage
    build
    if [[ $1 == all ]]; then selected=$(targets); else selected=$1; fi
    failed=0
    start=$(date +%s)
    for target in $selected; do
        fuzz "$target" "$2" || failed=1
    done
    echo "fuzz: $(wc -w <<< "$selected") target(s) in $(( $(date +%s) - start )) s"
    exit $failed
    ;;
esac
