#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Side-by-side check of the block-layer counters ioregress stores per repetition (samples.rd_ios ... wr_sectors) against the peer tools: the device's stat delta around a plain fio run of the same job, fio's own disk stats (disk_util ios/merges) and iostat's kB read/written.
# Not a test (tests/test_blkstat.c asserts the exact figures). Run as root from the source tree
# after building:   bench/blkstat.sh [BUILD_DIR]        env: REPS=3
# Each job runs once as plain fio (with the device's /sys stat read before and after, and iostat
# before and after) and REPS times as an ioregress cell of the fio engine with the same options;
# the table shows, per job, requests / merges / KiB for each source. fio's disk_util is sampled
# every 250 ms, so it misses the end of a job: it is shown, not expected to match.
set -euo pipefail

build=${1:-build}
bin=$build/harness/ioregress
reps=${REPS:-3}
[ "$(id -u)" = 0 ] || { echo "error: bench/blkstat.sh needs root (a loop device)" >&2; exit 2; }
[ -x "$bin" ] || { echo "error: no '$bin' (build first)" >&2; exit 2; }
command -v fio > /dev/null || { echo "error: fio is not installed" >&2; exit 2; }
command -v iostat > /dev/null || { echo "error: iostat is not installed (sysstat)" >&2; exit 2; }

dir=$(mktemp -d /tmp/ior-blkstat.XXXXXX)
dev=""
cleanup() { [ -n "$dev" ] && losetup -d "$dev"; rm -rf "$dir"; }
trap cleanup EXIT
head -c 128M /dev/urandom > "$dir/disk.img"
dev=$(losetup -f --show "$dir/disk.img")
name=${dev#/dev/}

# "ios merges sectors" of reads and writes: six numbers
counters() { awk '{print $1, $2, $3, $5, $6, $7}' "/sys/block/$name/stat"; }
# "kB_read kB_wrtn" since boot as iostat prints them
iostat_kb() { iostat -d -k "$name" | awk -v n="$name" '$1 == n {print $6, $7}'; }

jobs=(
	"seq-direct|rw=read bs=128k size=64M iodepth=1 direct=1"
	"seq-buffered|rw=read bs=128k size=64M iodepth=1 direct=0"
	"write-direct-qd8|rw=write bs=4k size=16M iodepth=8 direct=1"
)
printf '%-16s %-22s %10s %10s %12s\n' job source requests merges KiB
for j in "${jobs[@]}"; do
	label=${j%%|*}
	opts=${j#*|}
	args=()
	for o in $opts; do args+=("--$o"); done
	sync; echo 3 > /proc/sys/vm/drop_caches
	read -r r0 rm0 rs0 w0 wm0 ws0 < <(counters)
	read -r kr0 kw0 < <(iostat_kb)
	fio --name=peer --filename="$dev" --ioengine=libaio "${args[@]}" --output-format=json > "$dir/fio.json"
	read -r r1 rm1 rs1 w1 wm1 ws1 < <(counters)
	read -r kr1 kw1 < <(iostat_kb)
	printf '%-16s %-22s %10d %10d %12d\n' "$label" "stat delta around fio" $((r1 - r0 + w1 - w0)) \
		$((rm1 - rm0 + wm1 - wm0)) $(((rs1 - rs0 + ws1 - ws0) / 2))
	python3 - "$dir/fio.json" "$label" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
u = d["disk_util"][0] if d.get("disk_util") else {}
j = d["jobs"][0]
print("%-16s %-22s %10d %10d %12s" % (sys.argv[2], "fio disk_util", u.get("read_ios", 0) + u.get("write_ios", 0),
      u.get("read_merges", 0) + u.get("write_merges", 0), "-"))
print("%-16s %-22s %10d %10s %12d" % (sys.argv[2], "fio job (issued)", j["read"]["total_ios"] + j["write"]["total_ios"],
      "-", (j["read"]["io_bytes"] + j["write"]["io_bytes"]) // 1024))
PY
	printf '%-16s %-22s %10s %10s %12d\n' "$label" "iostat kB delta" - - $((kr1 - kr0 + kw1 - kw0))
	# the same job as an ioregress cell (the fio engine runs fio with these options)
	{
		printf '[matrix]\nrepetitions = %s\nschedulers = none\ndrop_caches = yes\norder = sequential\n' "$reps"
		printf '[device d]\npath = %s\ndestructive = yes\n[engine %s]\ntype = fio\n' "$dev" "$label"
		for o in $opts; do
			case $o in
				direct=1) echo "direct = yes" ;; direct=0) echo "direct = no" ;;
				*) echo "${o%%=*} = ${o#*=}" ;;
			esac
		done
	} > "$dir/$label.ini"
	"$bin" --db "$dir/$label.db" --quiet run "$dir/$label.ini" --allow-destructive="$dev" > /dev/null
	sqlite3 -readonly "$dir/$label.db" "SELECT rep, rd_ios + wr_ios, rd_merges + wr_merges, (rd_sectors + wr_sectors) / 2
		FROM samples ORDER BY rep" | while IFS='|' read -r rep req mer kib; do
		printf '%-16s %-22s %10d %10d %12d\n' "$label" "ioregress rep $rep" "$req" "$mer" "$kib"
	done
done
