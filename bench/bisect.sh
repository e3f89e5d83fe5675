#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Bisect benchmark (not a test): simulated bisections over 64-1024 commits with 2-10% noise and 5-20% drops; ioregress
# bisect's own driver (simulated source and measure, real database) beside plain git bisect run with check, check --bad,
# mmtests and lkp-tests as the step oracle: share right, confidently wrong, builds and samples per bisection.
# Usage: bench/bisect.sh [TRIALS [SEED [CAP]]] (default 200 1; CAP: samples per commit and per end before giving up).
# IOR_BUILD_DIR picks the build directory.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
build=${IOR_BUILD_DIR:-$here/build}
[ -f "$build/CMakeCache.txt" ] || cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" --target ior_bisect_bench -j2 >/dev/null
exec "$build/bench/ior_bisect_bench" "${1:-200}" "${2:-1}" ${3:+"$3"}
