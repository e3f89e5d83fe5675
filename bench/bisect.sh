#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Bisect benchmark (not a test): simulated bisections over 64-1024 commits with 2-10% noise and 5-20% drops on a machine
# whose speed drifts (random walk, 10-20% steps, a slow cycle; simulated time advancing per measurement and build);
# ioregress bisect's own driver (simulated source and measure, real database) beside plain git bisect run with check,
# check --bad, mmtests and lkp-tests as the step oracle: share right, confidently wrong, builds and samples per bisection.
# Usage: bench/bisect.sh [TRIALS [SEED [CAP [DRIFT]]]] (default 200 1 - 1; CAP: rounds per commit before giving up, "-"
# for the default; DRIFT: the largest drift scale, 0 for a stationary machine).
# IOR_BISECT_OLD=REF also runs the driver of git revision REF (e.g. main) on the same seeds, built in a scratch copy
# with this simulator, and prints its table first. IOR_BUILD_DIR picks the build directory. IOR_BISECT_TEST=sprt or
# looks picks the per-commit test (the sequential ratio test, or looks every 5 rounds) over the default.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
build=${IOR_BUILD_DIR:-$here/build}
[ -f "$build/CMakeCache.txt" ] || cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" --target ior_bisect_bench -j2 >/dev/null
if [ -n "${IOR_BISECT_OLD:-}" ]; then
	old=$(mktemp -d /tmp/ior-bisect-old.XXXXXX)
	trap 'rm -rf "$old"' EXIT
	git -C "$here" archive "$IOR_BISECT_OLD" | tar -x -C "$old"
	cp "$here/bench/bisect.c" "$old/bench/bisect.c"
	cmake -S "$old" -B "$old/build" -DCMAKE_BUILD_TYPE=Release >/dev/null
	cmake --build "$old/build" --target ior_bisect_bench -j2 >/dev/null
	echo "== old driver ($IOR_BISECT_OLD) =="
	"$old/build/bench/ior_bisect_bench" "${1:-200}" "${2:-1}" "${3:--}" "${4:-1}"
	echo
	echo "== this tree's driver =="
fi
"$build/bench/ior_bisect_bench" "${1:-200}" "${2:-1}" "${3:--}" "${4:-1}"
