#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The aio engine against fio where testers compare them (#37 §5): a loop device WITHOUT direct-io over
# a file on the host's disk (BENCH_DIR, default /tmp), 4k randread, iodepth 8, one 64 MiB region,
# size-based, the caches dropped before every run as the matrix's drop_caches = yes does. On such a
# device every request of the loop becomes a buffered read of the backing file, so the figure is
# mostly how many of those miss its page cache, and that depends on the order of the offsets (the
# backing file's readahead serves a block that follows one read before). Alternates the two run by
# run (who goes first swaps each pair) and prints, per tool, the median IOPS and the median number of
# reads that reached the backing disk (a count: other work on the machine moves it far less than
# it moves the IOPS), with the ratio ours/fio of each and its bootstrap interval.
# Before fio's random map was followed (a uniform permutation): ours/fio IOPS 0.64-0.90 and backing
# reads 1.30x fio's (13.8k against 10.5k; load 10-11).
# Usage (root): bench/aio-fio-loop.sh [BUILD_DIR] [PAIRS]; BENCH_ONCE=PATH runs another engine_once
# (a build of an older commit) as "ours".
set -euo pipefail
build=${1:-build}
pairs=${2:-6}
once=${BENCH_ONCE:-$build/bench/engine_once}
[ "$(id -u)" = 0 ] || { echo "bench/aio-fio-loop.sh: needs root (loop device, drop_caches)" >&2; exit 1; }
[ -x "$once" ] || { echo "bench/aio-fio-loop.sh: no $once (cmake --build $build --target engine_once)" >&2; exit 1; }
command -v fio >/dev/null || { echo "bench/aio-fio-loop.sh: fio is not installed" >&2; exit 1; }
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/lib.sh
. "$here/lib.sh"

bench_buffered_loop aio-fio
disk=$(bench_disk_of "$file")
stat_file=/sys/class/block/$disk/stat
echo "loop $dev over $file (disk $disk, read_ahead_kb $(cat "/sys/class/block/$disk/queue/read_ahead_kb" 2>/dev/null || echo ?)); $(uptime)" >&2

run_ours() { bench_aio_once "$once" "$dev"; }
run_fio() { bench_fio_randread "$dev"; }
one() { bench_after_drop "$stat_file" "$@"; }

ours_iops=() fio_iops=() ours_reads=() fio_reads=()
for ((p = 0; p < pairs; p++)); do
	if ((p % 2 == 0)); then
		read -r oi orr < <(one run_ours)
		read -r fio_i fio_r < <(one run_fio)
	else
		read -r fio_i fio_r < <(one run_fio)
		read -r oi orr < <(one run_ours)
	fi
	echo "pair $((p + 1)): ours $oi IOPS, $orr backing reads; fio $fio_i IOPS, $fio_r backing reads" >&2
	ours_iops+=("$oi") fio_iops+=("$fio_i") ours_reads+=("$orr") fio_reads+=("$fio_r")
done
med() { printf '%s\n' "$@" | median; }
printf '%-14s %12s %12s %22s\n' measure ours fio "ours/fio [95% CI]"
read -r r lo hi < <(ratio_ci "${ours_iops[*]}" "${fio_iops[*]}")
printf '%-14s %12.0f %12.0f %8s [%s, %s]\n' IOPS "$(med "${ours_iops[@]}")" "$(med "${fio_iops[@]}")" "$r" "$lo" "$hi"
read -r r lo hi < <(ratio_ci "${ours_reads[*]}" "${fio_reads[*]}")
printf '%-14s %12.0f %12.0f %8s [%s, %s]\n' backing-reads "$(med "${ours_reads[@]}")" "$(med "${fio_reads[@]}")" "$r" "$lo" "$hi"
echo "load after: $(uptime)"
