#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `ioregress run`'s aio cell against the engine alone and fio (#37 §5): where bench/aio-fio-loop.sh
# runs the engine through engine_once, this one also runs it as a matrix's cell, with everything
# `run` does around the engine (probes, scheduler, the device's caches dropped with BLKFLSBUF, the
# request counters, SQLite writes, the progress), on the same loop device WITHOUT direct-io over a
# file on the host's disk: 4k randread, iodepth 8, one 64 MiB region, caches dropped before every
# measurement. "runloop" is `run` on a loop device of its own (loop = 256M, backing file filled in
# the same folder, as a matrix makes one); "runbuf" is `run` with the engine's own default direct = no
# (a matrix that leaves the key out), where libaio's io_submit reads through the page cache and
# returns only when the read is done. The five take turns (the first of each round rotates);
# per contender the median IOPS and the median of reads that reached the backing disk, each against
# fio's with a bootstrap interval.
# Usage (root): bench/aio-run-fio.sh [BUILD_DIR] [ROUNDS]; EXTRA="key = value" adds matrix keys to
# the engine section (e.g. EXTRA="iodepth_batch = 8"), FIO_EXTRA adds fio options.
set -euo pipefail
build=${1:-build}
rounds=${2:-6}
once=$build/bench/engine_once
ior=$build/harness/ioregress
[ "$(id -u)" = 0 ] || { echo "bench/aio-run-fio.sh: needs root (loop device, drop_caches)" >&2; exit 1; }
for x in "$once" "$ior"; do
	[ -x "$x" ] || { echo "bench/aio-run-fio.sh: no $x (cmake --build $build)" >&2; exit 1; }
done
command -v fio >/dev/null || { echo "bench/aio-run-fio.sh: fio is not installed" >&2; exit 1; }
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/lib.sh
. "$here/lib.sh"

bench_buffered_loop aio-run
sched=$(sed 's/.*\[\(.*\)\].*/\1/' "/sys/class/block/$(basename "$dev")/queue/scheduler")
disk=$(bench_disk_of "$file")
stat_file=/sys/class/block/$disk/stat
echo "loop $dev ($sched) over $file (disk $disk, read_ahead_kb $(cat "/sys/class/block/$disk/queue/read_ahead_kb" 2>/dev/null || echo ?)); $(uptime)" >&2
engine="type = aio
rw = randread
bs = 4k
iodepth = 8
size = 64M
direct = yes
${EXTRA:-}"
cat >"$work/loop.ini" <<INI
[matrix]
repetitions = 1
schedulers = $sched
drop_caches = yes
[device d]
loop = 256M
backing_dir = $work
[engine r]
$engine
INI
sed 's/^direct = yes$/direct = no/' "$work/loop.ini" | sed 's/^loop = 256M$/path = '"${dev//\//\\/}"'/; /^backing_dir/d' >"$work/buf.ini"
cat >"$work/m.ini" <<INI
[matrix]
repetitions = 1
schedulers = $sched
drop_caches = yes
[device d]
path = $dev
[engine r]
$engine
INI

run_matrix() {
	rm -f "$work/r.db"*
	setsid -w "$ior" --db "$work/r.db" -q run "$work/$1" >/dev/null
	sqlite3 "$work/r.db" "SELECT value FROM samples"
}
run_run() { run_matrix m.ini; }
run_runloop() { run_matrix loop.ini; }
run_runbuf() { run_matrix buf.ini; }
run_once() { bench_aio_once "$once" "$dev"; }
run_fio() { bench_fio_randread "$dev"; }
one() { bench_after_drop "$stat_file" "$@"; }

declare -A iops reads
names=(run runloop runbuf once fio)
for ((p = 0; p < rounds; p++)); do
	line="round $((p + 1)):"
	for ((k = 0; k < ${#names[@]}; k++)); do
		n=${names[$(((p + k) % ${#names[@]}))]}
		read -r v r < <(one "run_$n")
		iops[$n]+="$v " reads[$n]+="$r "
		line+=" $n $v IOPS $r reads;"
	done
	echo "$line" >&2
done
med() { printf '%s\n' "$@" | median; }
printf '%-6s %10s %14s   %-24s %-24s\n' who IOPS backing-reads "IOPS/fio [95% CI]" "reads/fio [95% CI]"
for n in "${names[@]}"; do
	# shellcheck disable=SC2086
	read -r a alo ahi < <(ratio_ci "${iops[$n]}" "${iops[fio]}")
	# shellcheck disable=SC2086
	read -r b blo bhi < <(ratio_ci "${reads[$n]}" "${reads[fio]}")
	# shellcheck disable=SC2086
	printf '%-6s %10.0f %14.0f   %-24s %-24s\n' "$n" "$(med ${iops[$n]})" "$(med ${reads[$n]})" "$a [$alo, $ahi]" "$b [$blo, $bhi]"
done
echo "load after: $(uptime)"
