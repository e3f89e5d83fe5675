#!/usr/bin/env bash
# Configures and builds ioregress into a build folder: ci/build.sh [release|sanitize] (default release).
set -euo pipefail
cd "$(dirname "$0")/.."
kind=${1:-release}
case "$kind" in
  release)  dir=build;      flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo) ;;
  sanitize) dir=build-asan; flags=(-DCMAKE_BUILD_TYPE=Debug -DIOR_SANITIZE=ON) ;;
  *) echo "error: unknown build kind '$kind' (release or sanitize)" >&2; exit 2 ;;
esac
cmake -S . -B "$dir" "${flags[@]}" >/dev/null
cmake --build "$dir" -j"$(nproc)"
