#!/usr/bin/env bash
# Side-by-side benchmark: the dd engine against coreutils dd on one scratch loop device, for
# sync=each (dd oflag=sync) and sync=end (dd conv=fsync), alternating the two tools run by run.
# Prints per-run figures, then medians (MiB/s from bytes/seconds, CPU seconds) and ratios.
# Not a test. Run as root from the source tree after building:
#   bench/dd.sh [BUILD_DIR]        env: PAIRS=5 COUNT=256 (1 MiB blocks) BACKING=tmpfs|DIR
# BACKING=tmpfs (default) puts the loop device's file in a private tmpfs under /tmp, as in the
# field report's experiment and with far less noise than a file on a disk (FACTS: oflag=sync on
# a disk-backed loop device spreads 150-600%); BACKING=/tmp measures through the disk.
set -euo pipefail

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

# ours MODE → "MiB/s usr sys"
ours() {
	local line
	line=$("$once" --destructive dd "$dev" bs=1M count="$count" sync="$1")
	awk -v l="$line" 'BEGIN {
		n = split(l, kv, " ")
		for (i = 1; i <= n; i++) { split(kv[i], p, "="); v[p[1]] = p[2] }
		printf "%.2f %.3f %.3f\n", v["bytes"] / v["wall"] / 1048576, v["usr"], v["sys"]
	}'
}

# coreutils MODE → "MiB/s usr sys": bytes and seconds from dd's own summary, CPU from time(1)
coreutils() {
	local flag err
	[ "$1" = each ] && flag=oflag=sync || flag=conv=fsync
	err=$(/usr/bin/time -f 'cpu %U %S' dd if=/dev/zero of="$dev" bs=1M count="$count" "$flag" 2>&1)
	awk '/ bytes .* copied, / { bytes = $1; for (i = 1; i <= NF; i++) if ($i == "s,") secs = $(i - 1) }
	     /^cpu / { usr = $2; sys = $3 }
	     END { printf "%.2f %.3f %.3f\n", bytes / secs / 1048576, usr, sys }' <<<"$err"
}

median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

echo "# dd engine vs coreutils dd ($(dd --version | head -1)), $dev over $img, bs=1M count=$count, $pairs pairs"
for mode in each end; do
	: >"/tmp/ior-bench-dd.$$.ours" ; : >"/tmp/ior-bench-dd.$$.core"
	for ((i = 1; i <= pairs; i++)); do
		# Alternate which tool goes first, so a drift in the machine does not favour one.
		if ((i % 2)); then
			ours "$mode" >>"/tmp/ior-bench-dd.$$.ours"; coreutils "$mode" >>"/tmp/ior-bench-dd.$$.core"
		else
			coreutils "$mode" >>"/tmp/ior-bench-dd.$$.core"; ours "$mode" >>"/tmp/ior-bench-dd.$$.ours"
		fi
		printf "sync=%-4s pair %d  ioregress %s   coreutils %s\n" "$mode" "$i" \
			"$(tail -1 "/tmp/ior-bench-dd.$$.ours")" "$(tail -1 "/tmp/ior-bench-dd.$$.core")"
	done
	o_bw=$(cut -d' ' -f1 "/tmp/ior-bench-dd.$$.ours" | median)
	c_bw=$(cut -d' ' -f1 "/tmp/ior-bench-dd.$$.core" | median)
	o_cpu=$(awk '{ print $2 + $3 }' "/tmp/ior-bench-dd.$$.ours" | median)
	c_cpu=$(awk '{ print $2 + $3 }' "/tmp/ior-bench-dd.$$.core" | median)
	rm -f "/tmp/ior-bench-dd.$$.ours" "/tmp/ior-bench-dd.$$.core"
	awk -v m="$mode" -v ob="$o_bw" -v cb="$c_bw" -v oc="$o_cpu" -v cc="$c_cpu" 'BEGIN {
		printf "| sync=%s | ioregress %.1f MiB/s | coreutils %.1f MiB/s | ratio %.3f | CPU s %.3f vs %.3f | ratio %s |\n",
		       m, ob, cb, ob / cb, oc, cc, (cc > 0 ? sprintf("%.2f", oc / cc) : "n/a")
	}'
done
