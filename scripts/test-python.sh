#!/usr/bin/env bash
# The Python tests. 1. graph_ray (python/tests): graph batch killed and restarted, and the Ray driver
# on a local Ray. Ray is installed from PyPI into a virtual environment kept in .build-python/ (about
# 45 s the first time, nothing after); when it cannot be installed (offline), the Ray tests are
# skipped with a message and the others still run. Needs the graph binary: GRAPH, default
# .build/debug/graph. 2. graphengine (python/tests_graphengine): the wheel built by
# scripts/build-wheel.sh (library in debug unless WHEEL_CONFIGURATION=release), installed into a
# fresh virtual environment with numpy and pytest, its library checked to load nothing from the
# Swift toolchain, and the pytest tests run there with the toolchain off PATH.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.build-python/venv
python=python3
if [ -x "$venv/bin/python" ] && "$venv/bin/python" -c "import ray, graph_ray" 2>/dev/null; then
    python=$venv/bin/python
elif { [ -x "$venv/bin/python" ] || python3 -m venv "$venv"; } \
    && GRAPHENGINE_NO_BUILD=1 timeout 600 "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -e "python[ray]"; then
    python=$venv/bin/python
else
    echo "test-python: could not install ray and graph_ray into $venv (offline?); the Ray driver tests are skipped" >&2
fi
export RAY_AUTH_MODE=${RAY_AUTH_MODE:-disabled} RAY_USAGE_STATS_ENABLED=0
"$python" -m unittest discover -s python/tests -v

# graphengine from its wheel, in a fresh environment.
rm -f dist/graphengine-*.whl
CONFIGURATION=${WHEEL_CONFIGURATION:-debug} bash scripts/build-wheel.sh
fresh=.build-python/wheel-venv
rm -rf "$fresh"
python3 -m venv "$fresh"
"$fresh/bin/python" -m pip install --quiet --disable-pip-version-check dist/graphengine-*.whl pytest
export GRAPH=${GRAPH:-$PWD/.build/debug/graph}
swift_folder=$(dirname "$(command -v swift)")
plain_path=$(echo "$PATH" | tr ':' '\n' | grep -vxF "$swift_folder" | paste -sd: -)
(
    cd "$fresh"  # away from the checkout: the installed package is imported, not python/graphengine
    unset GRAPHENGINE_LIBRARY
    library=$(PATH=$plain_path bin/python -c "import graphengine; print(graphengine.library_path)")
    case "$library" in "$PWD"/lib/*) ;; *) echo "test-python: graphengine loaded $library, not the wheel's" >&2; exit 1 ;; esac
    toolchain=$(dirname "$(dirname "$swift_folder")")
    if ldd "$library" | grep -e "not found" -e "$toolchain"; then
        echo "test-python: the wheel's library needs the above from outside the wheel" >&2
        exit 1
    fi
    PATH=$plain_path bin/python -m pytest -q -p no:cacheprovider "$OLDPWD/python/tests_graphengine"
)
