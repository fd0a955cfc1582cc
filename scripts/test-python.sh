#!/usr/bin/env bash
# The Python tests (python/tests): graph batch killed and restarted, and the Ray driver on a local
# Ray. Ray is installed from PyPI into a virtual environment kept in .build-python/ (about 45 s
# the first time, nothing after); when it cannot be installed (offline), the Ray tests are skipped
# with a message and the others still run. Needs the graph binary: GRAPH, default .build/debug/graph.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.build-python/venv
python=python3
if [ -x "$venv/bin/python" ] && "$venv/bin/python" -c "import ray, graph_ray" 2>/dev/null; then
    python=$venv/bin/python
elif { [ -x "$venv/bin/python" ] || python3 -m venv "$venv"; } \
    && timeout 600 "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -e python; then
    python=$venv/bin/python
else
    echo "test-python: could not install ray and graph_ray into $venv (offline?); the Ray driver tests are skipped" >&2
fi
export RAY_AUTH_MODE=${RAY_AUTH_MODE:-disabled} RAY_USAGE_STATS_ENABLED=0
"$python" -m unittest discover -s python/tests -v
