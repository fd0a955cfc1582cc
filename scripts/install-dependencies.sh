#!/usr/bin/env bash
# Installs the system libraries the package links (libpng, libjpeg-turbo, libheif, libdeflate, FFmpeg's
# libavformat/libavcodec/libavutil/libswscale, libzint for the barcode generators, FreeType, HarfBuzz
# and fontconfig with the DejaVu fonts for the text generator, pkg-config) on
# Debian or Ubuntu, skipping what is already present. Works as root or through sudo.
set -euo pipefail

packages=(pkg-config libpng-dev libjpeg62-turbo-dev libheif-dev libdeflate-dev libavformat-dev libavcodec-dev libavutil-dev libswscale-dev libzint-dev libfreetype-dev libharfbuzz-dev libfontconfig-dev fonts-dejavu-core)
if ! command -v dpkg-query >/dev/null 2>&1; then
    echo "install-dependencies: not a Debian/Ubuntu system; install pkg-config, libpng, libjpeg-turbo, libheif, libdeflate, FFmpeg (libavformat, libavcodec, libavutil, libswscale), libzint, FreeType, HarfBuzz and fontconfig headers yourself" >&2
    exit 0
fi
# Ubuntu names libjpeg-turbo's headers libjpeg-turbo8-dev.
if ! apt-cache show libjpeg62-turbo-dev >/dev/null 2>&1 && apt-cache show libjpeg-turbo8-dev >/dev/null 2>&1; then
    packages=(pkg-config libpng-dev libjpeg-turbo8-dev libheif-dev libdeflate-dev libavformat-dev libavcodec-dev libavutil-dev libswscale-dev libzint-dev libfreetype-dev libharfbuzz-dev libfontconfig-dev fonts-dejavu-core)
fi
missing=()
for package in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$package")
    fi
done
if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi
echo "install-dependencies: installing ${missing[*]}" >&2
if [ "$(id -u)" -eq 0 ]; then sudo=(); else sudo=(sudo); fi
"${sudo[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "${missing[@]}"
