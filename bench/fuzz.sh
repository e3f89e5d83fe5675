#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Builds the libFuzzer targets of tests/fuzz with clang (build-fuzz, IOR_FUZZ=ON) and runs each for a
# fixed time budget; prints executions, coverage and any crash, and exits 1 when a target crashed.
#
#   bench/fuzz.sh [TARGET...]          targets: matrix csv fio_json db_open matrix_include measure artifact
#                                      bisect_replay (default: all)
#   FUZZ_SECONDS=60                    time budget per target
#   FUZZ_BUILD=build-fuzz              build directory (separate from the gcc builds)
#
# The seed corpora under tests/fuzz/corpus/ are read, never written: what the fuzzer adds goes to a
# scratch directory that is removed at the end. A crashing input is kept under
# $FUZZ_BUILD/fuzz-artifacts/; once fixed, copy it into tests/fuzz/corpus/TARGET/ so the
# fuzz_replay suite keeps it fixed.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${FUZZ_SECONDS:-60}
build=${FUZZ_BUILD:-build-fuzz}
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(matrix csv fio_json db_open matrix_include measure artifact bisect_replay)

if ! command -v clang >/dev/null; then
	echo "fuzz.sh: clang not found (ci/setup.sh installs clang and libclang-rt-14-dev)" >&2
	exit 2
fi

# tmpfs when there is one: the database targets write a file for every input.
scratch_root=/dev/shm
[ -d "$scratch_root" ] && [ -w "$scratch_root" ] || scratch_root=${TMPDIR:-/tmp}
work=$(mktemp -d "$scratch_root/ioregress-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT
echo "== building the fuzz targets with clang in $build"
# Optimised with line info, but without -DNDEBUG: an assert that fails is a finding too.
CC=clang cmake -S . -B "$build" -DIOR_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	-DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -g" >"$work/configure.log" 2>&1 ||
	{ cat "$work/configure.log" >&2; exit 2; }
cmake --build "$build" -j"$(nproc)" --target "${targets[@]/#/fuzz_}" >/dev/null

artifacts="$build/fuzz-artifacts"
mkdir -p "$artifacts"

# The last "#N ... cov: C ft: F corp: K/..." status line libFuzzer printed.
last_status() {
	grep -E '^#[0-9]+[[:space:]]+(INITED|NEW|REDUCE|pulse|DONE|RELOAD)' "$1" | tail -n 1 || true
}
field() {   # field NAME LINE: the value after "NAME:"
	sed -n "s/.* $1: \([^ ]*\).*/\1/p" <<<"$2"
}

crashed=0
summary=()
for t in "${targets[@]}"; do
	seeds="tests/fuzz/corpus/$t"
	[ -d "$seeds" ] || { echo "fuzz.sh: no corpus '$seeds'" >&2; exit 2; }
	mkdir -p "$work/$t/corpus" "$work/$t/tmp"
	log="$work/$t.log"
	echo "== fuzz_$t for ${seconds}s (seeds: $(find "$seeds" -type f | wc -l) files in $seeds)"
	status=0
	# -timeout: an input that takes 10 s is a hang worth reporting. detect_leaks: a leak is a crash.
	TMPDIR="$work/$t/tmp" ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 \
		"$build/tests/fuzz/fuzz_$t" "$work/$t/corpus" "$seeds" \
		-max_total_time="$seconds" -timeout=10 -print_final_stats=1 \
		-artifact_prefix="$artifacts/$t-" >"$log" 2>&1 || status=$?
	line=$(last_status "$log")
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	[ -n "$execs" ] || execs=$(sed -n 's/^#\([0-9]*\).*/\1/p' <<<"$line")
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
	cov=$(field cov "$line")
	ft=$(field ft "$line")
	corp=$(field corp "$line")
	result=ok
	if [ "$status" -ne 0 ]; then
		crashed=1
		result="CRASH (exit $status)"
		echo "-- fuzz_$t crashed; the report:"
		grep -E 'promise broken|ERROR: |SUMMARY: |runtime error|^    #[0-9] ' "$log" | head -n 25 || true
		grep -E 'Test unit written to|artifact_prefix' "$log" || true
		cp "$log" "$artifacts/$t.log"
		echo "-- full log: $artifacts/$t.log"
	fi
	summary+=("$(printf '%-9s %10s execs %7s/s  cov %5s  ft %6s  corpus %-12s %s' \
		"$t" "${execs:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}" "${corp:-?}" "$result")")
done

echo "== fuzz summary (${seconds}s per target, clang $(clang -dumpversion))"
printf '%s\n' "${summary[@]}"
exit $crashed
