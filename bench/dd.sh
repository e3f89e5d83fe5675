#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Side-by-side benchmark: the dd engine against coreutils dd on one scratch loop device, for sync=each (oflag=sync) and sync=end (conv=fsync), alternating the two tools run by run.
# Prints per-run figures on stderr, then per mode the medians of MiB/s (bytes/seconds) and of CPU
# seconds per GiB with the ratios ours/coreutils, their bootstrap intervals and a verdict against
# the target 0.95-1.05 (rows in bench/engines.sh's format; engines.sh runs this with ROWS_ONLY=1).
# Not a test. Run as root from the source tree after building:
#   bench/dd.sh [BUILD_DIR]        env: PAIRS=5 COUNT=256 (1 MiB blocks) BACKING=tmpfs|DIR
# BACKING=tmpfs (default) puts the loop device's file in a private tmpfs under /tmp, as in the
# field report's experiment and with far less noise than a file on a disk (FACTS: oflag=sync on
# a disk-backed loop device spreads 150-600%); BACKING=/tmp measures through the disk.
# Both tools time the same work: dd's clock runs from after it opens its files to after it closes
# them, and its if=/dev/zero reads are inside it; the engine's default input = zero and its
# per-repetition open and close do the same (engines/dd.c). Nothing else holds the device open,
# so each close is the last one and drops the device's page cache, for both tools.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
build=${1:-build}
once=${ENGINE_ONCE:-$build/bench/engine_once}
pairs=${PAIRS:-5}
count=${COUNT:-256}
backing=${BACKING:-tmpfs}

[ "$(id -u)" = 0 ] || { echo "error: bench/dd.sh needs root (loop devices)" >&2; exit 2; }
[ -x "$once" ] || { echo "error: no engine driver '$once' (build the engine_once target)" >&2; exit 2; }

mnt=""
dev=""
img=""
cleanup() {
	[ -n "$dev" ] && losetup -d "$dev"
	[ -n "$img" ] && rm -f "$img"
	if [ -n "$mnt" ]; then umount "$mnt" && rmdir "$mnt"; fi
}
trap cleanup EXIT
if [ "$backing" = tmpfs ]; then
	mnt=$(mktemp -d /tmp/ior-bench-dd-mnt.XXXXXX)
	mount -t tmpfs -o size=$((count + 32))M,mode=0700 ior-bench "$mnt"
	backing_dir=$mnt
else
	backing_dir=$backing
fi
img=$(mktemp "$backing_dir/ior-bench-dd.XXXXXX")
truncate -s $((count + 16))M "$img"
dev=$(losetup -f --show "$img")
# Untimed first pass: the backing file's pages are allocated now, not in whichever run comes first.
dd if=/dev/zero of="$dev" bs=1M count="$count" conv=fsync status=none

# ours MODE → "MiB/s CPU-s/GiB"
ours() {
	"$once" --destructive dd "$dev" bs=1M count="$count" sync="$1" |
	awk '{ for (i = 1; i <= NF; i++) { split($i, p, "="); v[p[1]] = p[2] } }
	     END { printf "%.2f %.4f\n", v["bytes"] / v["wall"] / 1048576, (v["usr"] + v["sys"]) / (v["bytes"] / 2^30) }'
}

# coreutils MODE → "MiB/s CPU-s/GiB": bytes and seconds from dd's own summary, CPU from time(1)
coreutils() {
	local flag err
	[ "$1" = each ] && flag=oflag=sync || flag=conv=fsync
	err=$(/usr/bin/time -f 'cpu %U %S' dd if=/dev/zero of="$dev" bs=1M count="$count" "$flag" 2>&1)
	awk '/ bytes .* copied, / { bytes = $1; for (i = 1; i <= NF; i++) if ($i == "s,") secs = $(i - 1) }
	     /^cpu / { cpu = $2 + $3 }
	     END { printf "%.2f %.4f\n", bytes / secs / 1048576, cpu / (bytes / 2^30) }' <<<"$err"
}

[ -n "${ROWS_ONLY:-}" ] || echo "# dd engine vs coreutils dd ($(dd --version | head -1)), $dev over $img, bs=1M count=$count, $pairs pairs"
for mode in each end; do
	ob=(); oc=(); cb=(); cc=()
	for ((i = 1; i <= pairs; i++)); do
		# Alternate which tool goes first, so a drift in the machine does not favour one.
		for who in $( ((i % 2)) && echo "ours coreutils" || echo "coreutils ours"); do
			read -r bw cpu < <($who "$mode")
			if [ "$who" = ours ]; then ob+=("$bw"); oc+=("$cpu"); else cb+=("$bw"); cc+=("$cpu"); fi
		done
		printf "sync=%-4s pair %d  ioregress %s MiB/s %s CPU-s/GiB   coreutils %s MiB/s %s CPU-s/GiB\n" \
			"$mode" "$i" "${ob[-1]}" "${oc[-1]}" "${cb[-1]}" "${cc[-1]}" >&2
	done
	bench_row "dd-$mode" dd "${cb[*]}" "${ob[*]}" "${cc[*]}" "${oc[*]}" 0.95 1.05
done
