#!/usr/bin/env bash
# report at scale: generates a database of KERNELS x 5 devices x 4 schedulers x 10 engines x REPS samples
# (default 200 x ... x 25 = 1,000,000), imports it, and times every format of `report` (and `check`)
# as whole processes: wall seconds, peak memory, output size. Targets: under 2 s and 300 MB each.
#   bench/report_scale.sh [KERNELS [REPS]]      e.g. bench/report_scale.sh 200 25
#   bench/report_scale.sh growth                 the same at 50/100/200 kernels and 5/25/100 repetitions
# The data: a level per (device, scheduler, engine), 2% Gaussian noise, a kernel-to-kernel wobble of
# 1%, and three planted changes (one cell loses 15% from kernel 120 on, one gains 10% from kernel
# 60 on, one device gets five times the noise on kernel 150), so there is something to find.
set -euo pipefail
cd "$(dirname "$0")/.."
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

# measure LABEL ARGS... : one row: wall seconds, peak RSS MiB, output bytes (as a whole process)
measure() {
	local label=$1; shift
	local out="$work/out" tf="$work/time"
	local rc=0
	/usr/bin/time -f '%e %M' -o "$tf" "$bin" --db "$db" "$@" >"$out" 2>"$work/err" || rc=$?
	# a non-zero exit makes time(1) write "Command exited with non-zero status N" first
	local secs kb
	read -r secs kb < <(grep -v '^Command' "$tf")
	printf '%-34s %8s %9.0f %12s %4s\n' "$label" "$secs" "$((kb / 1024))" "$(stat -c %s "$out")" "$rc"
}

build_db() {
	db="$work/scale-$1-$2.db"
	generate "$1" "$2" >"$work/samples.csv"
	/usr/bin/time -f '%e %M' -o "$work/time" "$bin" --db "$db" import "$work/samples.csv" >/dev/null
	local secs kb
	read -r secs kb <"$work/time"
	echo "database: $1 kernels x 200 cells x $2 repetitions = $(( $1 * 200 * $2 )) samples; import ${secs} s, $((kb / 1024)) MiB peak"
}

table() {
	printf '%-34s %8s %9s %12s %4s\n' "command" "seconds" "peak MiB" "output bytes" "exit"
	for f in text md html json junit csv; do
		measure "report --format $f" report --format "$f"
	done
	measure "report --alerts" report --alerts
	measure "report --format junit --baseline" report --format junit --baseline 6.1.0
	measure "check --baseline --candidate" check --baseline "6.1.$(( $1 - 2 ))" --candidate "6.1.$(( $1 - 1 ))"
}

if [ "${1:-}" = growth ]; then
	for k in 50 100 200; do build_db "$k" 25; table "$k"; rm -f "$db"*; echo; done
	for r in 5 100; do build_db 200 "$r"; table 200; rm -f "$db"*; echo; done
else
	build_db "${1:-200}" "${2:-25}"
	table "${1:-200}"
fi
