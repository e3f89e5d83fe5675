#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Detection benchmark (not a test): false-positive rate and power of ioregress's compare verdict against
# the mmtests and lkp-tests rules, on synthetic kernel pairs (CoV 1-10%, shifts 0-20% and 2x/4x CoV,
# 3-15 repetitions, gaussian, outlier and bimodal noise).
# Usage: bench/detection.sh [TRIALS [SEED [MIN_EFFECT_PERCENT [fpr|ceiling|power|trend|within|small|schedulers]]]]; "small"
# prints the 3- and 4-repetition rule's table on four noise shapes (heavy tails added), "schedulers" the built-in default's
# question (adaptive rounds of 4 schedulers, then the star); "power" prints only the power
# tables (each rule's false-positive rate beside its power), "trend" only the trend detector's table (warm-up and drift
# within a cell), "fpr" only the false-positive table (for long confirmation runs, e.g. 10000 trials), "ceiling" only the
# 5-repetition Welch-level table, "within" only the within-kernel table (compare --by scheduler etc. and the report's
# best-scheduler star: pairs with and without drift shared by an interleaved round). IOR_BUILD_DIR picks the build directory.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
build=${IOR_BUILD_DIR:-$here/build}
[ -f "$build/CMakeCache.txt" ] || cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" --target ior_detect -j"$(nproc)" >/dev/null
exec "$build/bench/ior_detect" "${1:-1000}" "${2:-1}" ${3:+"$3"} ${4:+"$4"}
