#!/usr/bin/env bash
# Fresh machine to first pictures: installs what is missing, builds the `graph` CLI (release) and
# renders depth effects on the iPhone portrait shipped in Examples/depth (portrait blur, spotlight
# and colour highlight, background replacement from the portrait matte), a contact sheet of every
# depth effect, and the colour-chain example recipe, then prints where the pictures are and the
# line that puts `graph` on PATH.
#   bash scripts/quickstart.sh          # writes only inside the repository (and installs packages)
#   bash scripts/quickstart.sh --link   # also links ~/.local/bin/graph to the build (says so)
set -euo pipefail
link=no
for argument in "$@"; do
    case "$argument" in
        --link) link=yes ;;
        *) echo "quickstart: unknown option $argument (the only one is --link)" >&2; exit 2 ;;
    esac
done
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
bin="$PWD/.build/release"
echo
echo "quickstart: the CLI is $bin/graph. To type \`graph\` in this shell (add the line to ~/.bashrc to keep it):"
echo "  export PATH=\"$bin:\$PATH\""
case ":$PATH:" in
    *":$HOME/.local/bin:"*)
        if [ "$link" = yes ]; then
            mkdir -p "$HOME/.local/bin"
            ln -sf "$bin/graph" "$HOME/.local/bin/graph"
            echo "quickstart: linked $HOME/.local/bin/graph -> $bin/graph (on PATH already; remove the link to undo)"
        else
            echo "  or link it into ~/.local/bin, which is on your PATH: bash scripts/quickstart.sh --link"
            echo "  (that is: ln -sf \"$bin/graph\" \"$HOME/.local/bin/graph\")"
        fi ;;
    *)
        if [ "$link" = yes ]; then
            echo "quickstart: ~/.local/bin is not on PATH, so nothing was linked; use the export line above" >&2
        fi ;;
esac
