#!/usr/bin/env bash
# Regenerates Sources/Kernels/Builders/FilterBuilders.generated.swift (the typed `Filters.*` classes)
# from the filter registry. Run after adding or changing a filter; FilterBuilderTests fails until then.
# `graph` is built with the generated file emptied first, so a stale file never blocks regenerating.
set -euo pipefail
cd "$(dirname "$0")/.."
file=Sources/Kernels/Builders/FilterBuilders.generated.swift
printf '// Emptied by scripts/generate-filter-builders.sh while it regenerates this file.\n' > "$file"
swift build --product graph
.build/debug/graph filters --swift-builders > "$file.new"
mv "$file.new" "$file"
echo "wrote $file"
