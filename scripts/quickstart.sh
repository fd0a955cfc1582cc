#!/usr/bin/env bash
# Fresh machine to first pictures: installs what is missing, builds the `graph` CLI (release) and
# renders depth effects on the iPhone portrait shipped in Examples/depth (portrait blur, spotlight
# and colour highlight, background replacement from the portrait matte), a contact sheet of every
# depth effect, and the colour-chain example recipe, then prints where the pictures are.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-dependencies.sh
swift build -c release --product graph
graph=.build/release/graph
for recipe in portrait-blur depth-mask background-replace-matte; do
    "$graph" run "Examples/depth/$recipe.json"
done
"$graph" contact-sheet Examples/depth/portrait.jpg -o Examples/depth/output/contact-sheet.jpg
"$graph" run Examples/recipes/color-chain.json
echo "quickstart: the original is Examples/depth/portrait.jpg; the effects are in Examples/depth/output/:"
ls -1 Examples/depth/output/* | sed 's/^/  /'
echo "quickstart: more depth recipes: ls Examples/depth/*.json (docs: Examples/depth/README.md)"
