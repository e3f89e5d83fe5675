#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Side by side: `hdparm -t` vs the hdparm engine (buffered) and `hdparm -t --direct` vs direct = yes,
# alternating run by run on one scratch loop device; prints the medians (MB/s, MiB-based), their ratios with
# a bootstrap interval, and a verdict against the target 0.95-1.05 (meets, misses, or undecided when noisy).
# Usage (root): bench/hdparm.sh [BUILD_DIR] [RUNS]   — BUILD_DIR holds bench/engine_once (default ./build).
set -euo pipefail
build=${1:-build}
runs=${2:-5}
size=${BENCH_SIZE:-1G}
once="$build/bench/engine_once"
[ "$(id -u)" = 0 ] || { echo "bench/hdparm.sh: needs root (loop device)" >&2; exit 1; }
[ -x "$once" ] || { echo "bench/hdparm.sh: no $once (cmake --build $build --target engine_once)" >&2; exit 1; }
command -v hdparm >/dev/null || { echo "bench/hdparm.sh: hdparm is not installed" >&2; exit 1; }

file=$(mktemp "${BENCH_DIR:-/tmp}/ioregress-bench-hdparm.XXXXXX")
dev=
cleanup() { [ -n "$dev" ] && losetup -d "$dev" 2>/dev/null; rm -f "$file"; }
trap cleanup EXIT INT TERM
# Real data, not a sparse file, and read once so both tools see the same backing-file cache.
dd if=/dev/urandom of="$file" bs=1M count=$(( $(numfmt --from=iec "$size") >> 20 )) status=none
dev=$(losetup -f --show "$file")
cat "$file" >/dev/null

# shellcheck source=bench/lib.sh
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"
# hdparm prints "... = 123.45 MB/sec" (or kB/sec below 1 MB/s).
hdparm_mb() { hdparm "$@" "$dev" | awk '/Timing/ {v=$(NF-1); if ($NF=="kB/sec") v/=1024; print v}'; }
engine_mb() { "$once" hdparm "$dev" "$@" | sed -n 's/^value=\([0-9.]*\) .*/\1/p'; }

declare -A hdparm_runs engine_runs
printf '%-9s %-6s %s\n' mode tool "MB/s per run"
for mode in buffered direct; do
	if [ $mode = direct ]; then hflags=(-t --direct); eopts=(direct=yes); else hflags=(-t); eopts=(direct=no); fi
	h=(); e=()
	for ((i = 0; i < runs; i++)); do
		# Both start cold (hdparm flushes only after its timing, the engine before), and who
		# goes first alternates (ABBA) so drift does not favour one tool.
		for who in $( ((i % 2)) && echo "engine hdparm" || echo "hdparm engine"); do
			sync; blockdev --flushbufs "$dev"
			if [ "$who" = hdparm ]; then h+=("$(hdparm_mb "${hflags[@]}")"); else e+=("$(engine_mb "${eopts[@]}")"); fi
		done
	done
	printf '%-9s %-6s %s\n' $mode hdparm "${h[*]}"
	printf '%-9s %-6s %s\n' $mode engine "${e[*]}"
	hdparm_runs[$mode]="${h[*]}"; engine_runs[$mode]="${e[*]}"
done
echo
printf '%-9s %12s %12s  %-22s %s\n' mode "hdparm med" "engine med" "ratio [95% CI]" "verdict (0.95-1.05)"
for mode in buffered direct; do
	hr=${hdparm_runs[$mode]}; er=${engine_runs[$mode]}
	read -r r lo hi <<<"$(ratio_ci "$er" "$hr")"
	printf '%-9s %12.2f %12.2f  %s [%s, %s] %s\n' $mode "$(tr ' ' '\n' <<<"$hr" | median)" \
		"$(tr ' ' '\n' <<<"$er" | median)" "$r" "$lo" "$hi" "$(judge "$lo" "$hi" 0.95 1.05)"
done
