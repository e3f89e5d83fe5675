#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# report at scale: generates a database of KERNELS x 5 devices x 4 schedulers x 10 engines x REPS samples
# (default 200 x ... x 25 = 1,000,000), imports it, and times every format of `report` (and `check`)
# as whole processes: wall seconds, peak memory, output size, against the floor: SQLite's own
# group-by of the same samples per cell (sqlite3: count, mean, min, max), timed beside each run.
# Target: every format within 2x the floor's CPU seconds, memory growing linearly.
#   bench/report_scale.sh [KERNELS [REPS]]      e.g. bench/report_scale.sh 200 25
#   bench/report_scale.sh formats KERNELS [REPS]  the floor and the six formats only (10M: formats 2000 25)
#   bench/report_scale.sh growth                 text/html/json/csv at 50/100/200/400 kernels x 25 repetitions
#                                                and at 200 kernels x 5 and x 50 repetitions
# The data: a level per (device, scheduler, engine), 2% Gaussian noise, a kernel-to-kernel wobble of
# 1%, and three planted changes (one cell loses 15% from kernel 120 on, one gains 10% from kernel
# 60 on, one device gets five times the noise on kernel 150), so there is something to find.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=bench/lib.sh
. bench/lib.sh
bin=${IOREGRESS:-build/harness/ioregress}
[ -x "$bin" ] || { echo "error: build first (bash ci/build.sh release): no '$bin'" >&2; exit 2; }
work=${TMPDIR:-/tmp}/ior-report-scale.$$
mkdir -p "$work"
trap 'rm -rf "$work"' EXIT

# generate KERNELS REPS > csv
generate() {
	awk -v K="$1" -v R="$2" 'BEGIN {
		srand(20261201)
		print "host,kernel,device,scheduler,engine,rep,value,unit"
		split("nvme0 ssd1 hdd2 raid3 loop4", dev, " ")
		split("none mq-deadline kyber bfq", sch, " ")
		for (k = 0; k < K; k++) {
			for (d = 1; d <= 5; d++) for (s = 1; s <= 4; s++) for (e = 0; e < 10; e++) {
				level = 100 * d + 10 * s + e
				wob = 1 + 0.01 * gauss()
				noise = 0.02
				if (d == 2 && k == 150) noise = 0.10
				if (d == 1 && s == 2 && e == 3 && k >= 120) level *= 0.85
				if (d == 3 && s == 1 && e == 7 && k >= 60) level *= 1.10
				for (r = 1; r <= R; r++)
					printf "lab,6.1.%d,%s,%s,job%d,%d,%.3f,IOPS\n", k, dev[d], sch[s], e, r,
					       level * wob * (1 + noise * gauss())
			}
		}
	}
	function gauss(  u, v) { u = rand(); v = rand(); if (u < 1e-12) u = 1e-12; return sqrt(-2 * log(u)) * cos(6.283185307 * v) }'
}

# timed ARGS... : one whole process, "wall CPU peak-KiB" (ARGS "floor": the sqlite3 floor query);
# its output in $work/out, its exit status in $rc.
timed() {
	local tf="$work/time" secs usr sys kb
	rc=0
	if [ "$1" = floor ]; then
		/usr/bin/time -f '%e %U %S %M' -o "$tf" sqlite3 "$db" "$floor_sql" >"$work/out" 2>"$work/err" || rc=$?
	else
		/usr/bin/time -f '%e %U %S %M' -o "$tf" "$bin" --db "$db" "$@" >"$work/out" 2>"$work/err" || rc=$?
	fi
	# a non-zero exit makes time(1) write "Command exited with non-zero status N" first
	read -r secs usr sys kb < <(grep -v '^Command' "$tf")
	echo "$secs $(awk -v u="$usr" -v s="$sys" 'BEGIN { printf "%.2f", u + s }') $kb"
}

# measure LABEL ARGS... : one row, as whole processes over RUNS runs (default 3): the median wall
# seconds, the median CPU seconds (user + system: what the machine's other load does not change),
# the largest peak RSS, the output's size, the exit status, and the median over the runs of CPU
# seconds / the floor's CPU seconds, the floor timed right beside each run (who goes first
# alternates), so a change of the machine's load moves both sides of a ratio.
measure() {
	local label=$1; shift
	local walls=() cpus=() ratios=() peak=0 wall cpu kb fcpu=0 i size status
	for i in $(seq "${RUNS:-3}"); do
		# timed runs in this shell (its figures through a file) so that its rc is seen here
		[ "$1" != floor ] && ((i % 2)) && timed floor >"$work/f" && read -r _ fcpu _ <"$work/f"
		timed "$@" >"$work/t"
		read -r wall cpu kb <"$work/t"
		status=$rc size=$(stat -c %s "$work/out")
		[ "$1" != floor ] && ! ((i % 2)) && timed floor >"$work/f" && read -r _ fcpu _ <"$work/f"
		walls+=("$wall")
		cpus+=("$cpu")
		[ "$1" != floor ] && ratios+=("$(awk -v c="$cpu" -v f="$fcpu" 'BEGIN { printf "%.2f", (f > 0 ? c / f : 0) }')")
		[ "$kb" -gt "$peak" ] && peak=$kb
	done
	printf '%-34s %8s %8s %9d %12s %4s %9s\n' "$label" "$(printf '%s\n' "${walls[@]}" | median)" \
		"$(printf '%s\n' "${cpus[@]}" | median)" "$((peak / 1024))" "$size" "$status" \
		"$( ((${#ratios[@]})) && printf '%sx' "$(printf '%s\n' "${ratios[@]}" | median)" || echo -)"
}

# The floor: what SQLite itself spends reading every sample once and grouping it by cell.
floor_sql="SELECT cell_id, count(*), avg(value), min(value), max(value) FROM samples GROUP BY cell_id"

# The HTML page of the whole database, loaded by headless Chromium (Debian's chromium): seconds
# from start to the DOM dumped, as a whole process.
chromium_load() {
	command -v chromium >/dev/null || { echo "chromium: not installed, page load not measured"; return; }
	"$bin" --db "$db" report --format html -o "$work/report.html"
	local tf="$work/ctime"
	/usr/bin/time -f '%e' -o "$tf" chromium --headless=new --no-sandbox --disable-gpu --no-first-run \
		--user-data-dir="$work/chromium" --dump-dom "file://$work/report.html" >"$work/dom" 2>/dev/null || true
	echo "chromium headless: $(stat -c %s "$work/report.html") bytes of HTML loaded and its DOM dumped in $(cat "$tf") s" \
		"($(grep -c '<svg' "$work/dom") SVG elements)"
}

build_db() {
	db="$work/scale-$1-$2.db"
	generate "$1" "$2" >"$work/samples.csv"
	/usr/bin/time -f '%e %M' -o "$work/time" "$bin" --db "$db" import "$work/samples.csv" >/dev/null
	local secs kb
	read -r secs kb <"$work/time"
	echo "database: $1 kernels x 200 cells x $2 repetitions = $(( $1 * 200 * $2 )) samples; import ${secs} s, $((kb / 1024)) MiB peak"
}

header() {
	printf '%-34s %8s %8s %9s %12s %4s %9s\n' "command" "wall s" "CPU s" "peak MiB" "output bytes" "exit" "CPU/floor"
	measure "floor: sqlite3 group by cell" floor
}

table() {
	header
	for f in text md html json junit csv kcidb; do
		measure "report --format $f" report --format "$f"
	done
	measure "report --alerts" report --alerts
	measure "report --format junit --baseline" report --format junit --baseline 6.1.0
	measure "check --baseline --candidate" check --baseline "6.1.$(( $1 - 2 ))" --candidate "6.1.$(( $1 - 1 ))"
}

# growth: the same formats, once each, on databases that grow by kernels and by repetitions
growth_table() {
	RUNS=1 header
	for f in text html json csv; do
		RUNS=1 measure "report --format $f" report --format "$f"
	done
}

if [ "${1:-}" = growth ]; then
	for k in 50 100 200 400; do build_db "$k" 25; growth_table; rm -f "$db"*; echo; done
	for r in 5 50; do build_db 200 "$r"; growth_table; rm -f "$db"*; echo; done
elif [ "${1:-}" = formats ]; then
	# formats KERNELS [REPS]: the floor and every format, without check and Chromium (10M: 2000 25)
	build_db "${2:-200}" "${3:-25}"
	header
	for f in text md html json junit csv; do
		measure "report --format $f" report --format "$f"
	done
else
	build_db "${1:-200}" "${2:-25}"
	table "${1:-200}"
	chromium_load
fi
