#!/usr/bin/env bash
# Fresh machine to first picture: installs what is missing, builds the `graph` CLI (release) and
# renders the colour-chain example recipe.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-dependencies.sh
swift build -c release --product graph
.build/release/graph run Examples/recipes/color-chain.json
echo "quickstart: the rendered image is in Examples/recipes/output/ (see the path above)"
