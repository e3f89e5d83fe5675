#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Per-I/O cost of the aio and uring engines against fio's, counted rather than timed, so that it holds
# on a busy machine: user-space instructions per I/O (valgrind's callgrind) and system calls per I/O
# (strace -c), both tools as bench/engines.sh runs them (fio with its default random map; ours
# visits each block once too), each the difference between a run of 2N and one of N requests
# (start-up and option parsing cancel), on one scratch loop device over a file in /dev/shm filled
# with random data: 4k random reads, one job, queue depth 1 and 8.
# Kernel work per system call is the same for both (same calls, same device), so together they say
# whose CPU per I/O is higher and by how much, where bench/engines.sh's timed ratios are undecided.
# Usage (root): bench/engine_instructions.sh [BUILD_DIR] [N]   (N requests, default 20000)
set -euo pipefail
build=${1:-build}
n=${2:-20000}
once="$build/bench/engine_once"
[ "$(id -u)" = 0 ] || { echo "bench/engine_instructions.sh: needs root (loop device)" >&2; exit 1; }
[ -x "$once" ] || { echo "bench/engine_instructions.sh: no $once (cmake --build $build --target engine_once)" >&2; exit 1; }
for t in fio valgrind strace; do
	command -v "$t" >/dev/null || { echo "bench/engine_instructions.sh: $t is not installed" >&2; exit 1; }
done
if ! [[ $n =~ ^[0-9]+$ ]] || ((n < 1000)); then
	echo "bench/engine_instructions.sh: N must be a number >= 1000, not '$n'" >&2
	exit 1
fi

work=$(mktemp -d /tmp/ioregress-bench-instr.XXXXXX)
file=$(mktemp /dev/shm/ioregress-bench-instr.XXXXXX)
dev=
cleanup() {
	[ -n "$dev" ] && losetup -d "$dev" 2>/dev/null
	rm -rf "$work" "$file"
}
trap cleanup EXIT INT TERM
mib=$(((2 * n * 4096 + 1048575) / 1048576 + 1))
dd if=/dev/urandom of="$file" bs=1M count="$mib" conv=fsync status=none
dev=$(losetup -f --show --direct-io=on "$file")

# The two commands for one case and one size (in 4k requests): fio with its jobs as threads.
fio_cmd() { # ioengine iodepth requests
	echo fio --thread --name=bench --filename="$dev" --ioengine="$1" --rw=randread --bs=4k --iodepth="$2" \
		--size=$(($3 * 4))k --direct=1 --output=/dev/null
}
ours_cmd() { # engine iodepth requests
	echo "$once" --destructive "$1" "$dev" rw=randread bs=4k iodepth="$2" numjobs=1 size=$(($3 * 4))k direct=yes
}

# user-space instructions of a whole process (every thread), from callgrind's totals
instructions() {
	local out=$work/cg.out
	# shellcheck disable=SC2046 # the command is a word list on purpose
	valgrind --tool=callgrind --callgrind-out-file="$out" $("$@") >/dev/null 2>&1
	awk '/^(summary|totals):/ {print $2; exit}' "$out"
}
# system calls of a whole process, every thread
syscalls() {
	# shellcheck disable=SC2046
	strace -f -c -o "$work/st.out" $("$@") >/dev/null 2>&1
	awk '$NF == "total" {print $(NF-2); exit}' "$work/st.out"
}

printf '# %s requests against %s: per I/O = (run of 2N - run of N) / N; %s\n' "$n" "$(uptime)" "$(fio --version)"
printf '%-6s %-3s | %14s %14s %7s | %12s %12s %7s\n' engine qd "fio instr/IO" "ours instr/IO" ratio "fio calls/IO" "ours calls/IO" ratio
for e in "aio libaio" "uring io_uring"; do
	read -r ours tool <<<"$e"
	for qd in 1 8; do
		fi1=$(instructions fio_cmd "$tool" "$qd" "$n") fi2=$(instructions fio_cmd "$tool" "$qd" $((2 * n)))
		oi1=$(instructions ours_cmd "$ours" "$qd" "$n") oi2=$(instructions ours_cmd "$ours" "$qd" $((2 * n)))
		fs1=$(syscalls fio_cmd "$tool" "$qd" "$n") fs2=$(syscalls fio_cmd "$tool" "$qd" $((2 * n)))
		os1=$(syscalls ours_cmd "$ours" "$qd" "$n") os2=$(syscalls ours_cmd "$ours" "$qd" $((2 * n)))
		awk -v e="$ours" -v qd="$qd" -v n="$n" -v fi1="$fi1" -v fi2="$fi2" -v oi1="$oi1" -v oi2="$oi2" \
			-v fs1="$fs1" -v fs2="$fs2" -v os1="$os1" -v os2="$os2" 'BEGIN {
			fi = (fi2 - fi1) / n; oi = (oi2 - oi1) / n; fs = (fs2 - fs1) / n; os = (os2 - os1) / n
			printf "%-6s %-3s | %14.0f %14.0f %7.3f | %12.3f %12.3f %7.3f\n", e, qd, fi, oi, oi / fi, fs, os, os / fs }'
	done
done
