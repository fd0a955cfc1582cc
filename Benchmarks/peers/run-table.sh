#!/usr/bin/env bash
# One command for the peer table of issue 26: builds the release `graph`, then times it against
# libvips 8.18 (pyvips), the vips CLI, OpenCV, Pillow and ffmpeg on the peer tasks (T0-T5, T7, T8,
# gamma, and CIDepthBlurEffect alone) at 2 and 1 threads, alternating
# runs, and writes Benchmarks/peers/results-DATE-COMMIT.md (see table.py for what each figure is).
#
#   PEERS=/path/to/bench/peers bash Benchmarks/peers/run-table.sh [-n RUNS] [TASK ...]
#
# PEERS (default ../shared/bench/peers) needs inputs/ from its make_inputs.sh and must be writable;
# copy it first where it is not. Needs pyvips (pip install pyvips pyvips-binary), vips (Debian
# libvips-tools), Pillow and ffmpeg; OpenCV (pip install opencv-python-headless) where installed, and
# ../shared/testdata/depth for the CIDepthBlurEffect row. GRAPH=path/to/graph skips the build.
set -euo pipefail
cd "$(dirname "$0")/../.."
if [[ -z ${GRAPH:-} ]]; then swift build -c release --product graph >/dev/null; fi
out=Benchmarks/peers/results-$(date -u +%F)-$(git rev-parse --short HEAD).md
python3 Benchmarks/peers/table.py "$@" > "$out.partial"
mv "$out.partial" "$out"
echo "$out"
