#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Configures and builds ioregress into a build folder, warnings as errors: ci/build.sh [KIND]
# (default release). release and sanitize are the builds the tests run on; the others are built
# so that every build type compiles with every compiler a user may have.
set -euo pipefail
cd "$(dirname "$0")/.."
kind=${1:-release}
cc=
case "$kind" in
  release)  dir=build;         type=RelWithDebInfo; flags=() ;;
  sanitize) dir=build-asan;    type=Debug;          flags=(-DIOR_SANITIZE=ON) ;;
  debug)    dir=build-debug;   type=Debug;          flags=() ;;
  optimise) dir=build-release; type=Release;        flags=() ;;
  minsize)  dir=build-minsize; type=MinSizeRel;     flags=() ;;
  clang)    dir=build-clang;   type=Release;        flags=(); cc=clang ;;
  *) echo "error: unknown build kind '$kind' (release, sanitize, debug, optimise, minsize or clang)" >&2
     exit 2 ;;
esac
if [ -n "$cc" ]; then
  export CC=$cc
fi
# The builds a package is made from (release: ci/package.sh; optimise: Release) take Debian's
# hardening flags as dpkg-buildflags gives them (fortify, stack protector, relro and bindnow:
# lintian noted neither fortify functions nor bindnow). On the command line, not in the
# environment, so a build folder configured before takes them too.
case "$kind" in
  release | optimise)
    if command -v dpkg-buildflags >/dev/null; then
      export DEB_BUILD_MAINT_OPTIONS=hardening=+all
      flags+=("-DCMAKE_C_FLAGS=$(dpkg-buildflags --get CFLAGS) $(dpkg-buildflags --get CPPFLAGS)"
              "-DCMAKE_EXE_LINKER_FLAGS=$(dpkg-buildflags --get LDFLAGS)"
              "-DCMAKE_SHARED_LINKER_FLAGS=$(dpkg-buildflags --get LDFLAGS)")
    fi ;;
esac
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE="$type" -DIOR_WERROR=ON "${flags[@]}" >/dev/null
cmake --build "$dir" -j"$(nproc)"
