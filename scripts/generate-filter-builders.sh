#!/usr/bin/env bash
# Regenerates Sources/Kernels/Builders/FilterBuilders.generated.swift (the typed `Filters.*` classes)
# from the filter registry. Run after adding or changing a filter; FilterBuilderTests fails until then.
# A thin wrapper over the package's command plugin
# (`swift package --allow-writing-to-package-directory generate-filter-builders`), which builds and
# runs the `GenerateFilterBuilders` tool. The file is emptied first: the tool links Kernels, which
# compiles it, so a stale file never blocks regenerating.
set -euo pipefail
cd "$(dirname "$0")/.."
file=Sources/Kernels/Builders/FilterBuilders.generated.swift
printf '// Emptied by scripts/generate-filter-builders.sh while it regenerates this file.\n' > "$file"
swift package --allow-writing-to-package-directory generate-filter-builders
