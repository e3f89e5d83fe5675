#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Side by side: the ioregress engines vs the real tools with the same parameters, alternating run by run
# on one scratch loop device (--direct-io=on: the tight-noise setup of FACTS.md) over a file in /dev/shm
# (tmpfs; BENCH_DIR=DIR puts it elsewhere): over /tmp, i.e. the VM's disk cached by the hypervisor, 1M
# jobs spread +-15% run to run for both tools (1690-2199 MiB/s for fio's 1M write), too much to judge
# a 3% target; over tmpfs the same job stays within 3320-3510. Prints per case the
# medians of throughput and of CPU seconds per GiB, and the ratios engine/tool.
# Usage (root): bench/engines.sh [BUILD_DIR] [PAIRS]   — BUILD_DIR holds bench/engine_once (default ./build).
# Targets: aio/uring throughput >= 0.97 x fio, CPU s/GiB <= 1.05 x fio; dd (bench/dd.sh, run at the end)
# within 0.95-1.05 x coreutils dd; latency (a second table, every job): p50 and p99 of total latency
# (fio's lat, --lat_percentiles=1) and of completion latency (clat) within 0.90-1.10 x fio's on the
# tight 4k jobs (one job: 8 jobs on 2 cores measure the CPU scheduler's queueing, not the device's). Each ratio comes with a bootstrap interval and a verdict: meets,
# misses, or undecided when the runs are too noisy to tell. BENCH_ONLY=REGEX runs only the cases whose
# "case engine" matches (dd's are "dd-each dd" and "dd-end dd"), e.g. BENCH_ONLY='1M-write|dd'.
# BENCH_LOAD=N runs the whole comparison under a CPU load the script makes itself: N busy loops
# (BENCH_LOAD=cores: one per core), each in a session of its own as another user's work would be,
# started before the first case and ended with the script; the load average is printed beside
# the tables either way.
# Equal standing: fio's job processes call setsid(), and with the kernel's autogroup scheduling
# (/proc/sys/kernel/sched_autogroup_enabled) each session shares the CPU as one group, so fio's
# job got a group's share of its own while engine_once shared this script's session with whatever
# else ran in it. At load 20, 4k qd1 aio: ours/fio 0.28 (6 pairs) that way, 1.22 with engine_once
# started through setsid as well; so engine_once runs in a session of its own too. And as engine_once's
# jobs are threads of one process (one session, one group), fio runs its jobs as threads too (--thread:
# no setsid per job) in a session of its own, so numjobs=8 is one group against one group, not eight
# against one. BENCH_SESSIONS=fio runs fio as it runs by default (a session per job) to show the
# difference.
set -euo pipefail
build=${1:-build}
pairs=${2:-5}
runtime=${BENCH_RUNTIME:-3}      # seconds per run: 4 cases x 2 engines x 2 tools x pairs runs
only=${BENCH_ONLY:-}
once="$build/bench/engine_once"
[ "$(id -u)" = 0 ] || { echo "bench/engines.sh: needs root (loop device)" >&2; exit 1; }
[ -x "$once" ] || { echo "bench/engines.sh: no $once (cmake --build $build --target engine_once)" >&2; exit 1; }
command -v fio >/dev/null || { echo "bench/engines.sh: fio is not installed" >&2; exit 1; }

# ---- the cases: NAME | rw | bs | iodepth | numjobs (size 128M per job, direct, time-based) ----
fio_cases=(
	"4k-randread|randread|4k|8|8"
	"4k-rr-1job|randread|4k|8|1"
	"4k-rr-qd1|randread|4k|1|1"
	"1M-read|read|1M|8|8"
	"4k-randwrite|randwrite|4k|8|8"
	"1M-write|write|1M|8|8"
)
fio_engines=("aio|libaio" "uring|io_uring")

load=${BENCH_LOAD:-0}
[ "$load" = cores ] && load=$(nproc)
[[ $load =~ ^[0-9]+$ ]] || { echo "bench/engines.sh: BENCH_LOAD must be a number or 'cores', not '$load'" >&2; exit 1; }
file=$(mktemp "${BENCH_DIR:-/dev/shm}/ioregress-bench-engines.XXXXXX")
dev=
busy=()
cleanup() {
	((${#busy[@]})) && kill "${busy[@]}" 2>/dev/null
	[ -n "$dev" ] && losetup -d "$dev" 2>/dev/null
	rm -f "$file"
}
trap cleanup EXIT INT TERM
dd if=/dev/urandom of="$file" bs=1M count=1024 conv=fsync status=none   # 8 jobs x 128M, allocated with data, as ioregress fills its scratch devices
dev=$(losetup -f --show --direct-io=on "$file")

for ((i = 0; i < load; i++)); do
	# the loop itself calls setsid() (it is not a group leader here), so $! is the loop
	python3 -c 'import os
try:
    os.setsid()
except OSError:
    pass
while True:
    pass' &
	busy+=($!)
done
echo "load: $load busy loops of our own; $(uptime)" >&2

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/lib.sh
. "$here/lib.sh"

# One fio run -> "MiB/s CPU-s/GiB lat-p50 lat-p99 clat-p50 clat-p99" (microseconds, of the direction that
# moved more I/O, as the fio engine stores). fio's group figures: cpu% is of the summed job runtimes.
sessions=${BENCH_SESSIONS:-one}
case $sessions in
one) fio_start=(setsid -w fio --thread) ;;
fio) fio_start=(fio) ;;
*) echo "bench/engines.sh: BENCH_SESSIONS must be 'one' or 'fio', not '$sessions'" >&2; exit 1 ;;
esac
run_fio() { # ioengine rw bs iodepth numjobs
	"${fio_start[@]}" --name=bench --filename="$dev" --ioengine="$1" --rw="$2" --bs="$3" --iodepth="$4" --numjobs="$5" \
		--size=128M --offset_increment=128M --direct=1 --time_based --runtime="$runtime" \
		--lat_percentiles=1 --clat_percentiles=1 --group_reporting --output-format=json 2>/dev/null |
	python3 -c '
import json, sys
j = json.load(sys.stdin)["jobs"][0]
b = j["read"]["io_bytes"] + j["write"]["io_bytes"]
bw = (j["read"]["bw_bytes"] + j["write"]["bw_bytes"]) / 2**20
cpu = (j["usr_cpu"] + j["sys_cpu"]) / 100 * j["job_runtime"] / 1000
d = j["read"] if j["read"]["total_ios"] >= j["write"]["total_ios"] else j["write"]
p = lambda k, q: d[k]["percentile"][q] / 1000
print("%.2f %.4f %.2f %.2f %.2f %.2f" % (bw, cpu / (b / 2**30), p("lat_ns", "50.000000"), p("lat_ns", "99.000000"),
      p("clat_ns", "50.000000"), p("clat_ns", "99.000000")))'
}

# One engine run -> the same six figures.
run_engine() { # engine rw bs iodepth numjobs
	setsid -w "$once" --destructive "$1" "$dev" rw="$2" bs="$3" iodepth="$4" numjobs="$5" size=128M direct=yes \
		runtime="${runtime}s" |
	awk '{for (i = 1; i <= NF; i++) {split($i, kv, "="); v[kv[1]] = kv[2]}}
	     END {printf "%.2f %.4f %s %s %s %s\n", v["bytes"] / 1048576 / v["wall"], (v["usr"] + v["sys"]) / (v["bytes"] / 2^30),
		  v["p50"], v["p99"], v["clat_p50"], v["clat_p99"]}'
}

results=()
lat_rows=()
for c in "${fio_cases[@]}"; do
	IFS='|' read -r name rw bs depth jobs <<<"$c"
	for e in "${fio_engines[@]}"; do
		IFS='|' read -r engine ioengine <<<"$e"
		[[ -z $only || "$name $engine" =~ $only ]] || continue
		ft=(); fc=(); et=(); ec=(); fl=(); el=()   # fl/el: "lat50 lat99 clat50 clat99" per run
		for ((i = 0; i < pairs; i++)); do
			# ABBA order: who goes first alternates, so drift in the device does not favour one tool.
			for who in $( ((i % 2)) && echo "engine fio" || echo "fio engine"); do
				if [ "$who" = fio ]; then
					read -r t cpu l50 l99 c50 c99 < <(run_fio "$ioengine" "$rw" "$bs" "$depth" "$jobs")
					ft+=("$t"); fc+=("$cpu"); fl+=("$l50 $l99 $c50 $c99")
				else
					read -r t cpu l50 l99 c50 c99 < <(run_engine "$engine" "$rw" "$bs" "$depth" "$jobs")
					et+=("$t"); ec+=("$cpu"); el+=("$l50 $l99 $c50 $c99")
				fi
			done
		done
		echo "$name $engine: fio MiB/s ${ft[*]} | engine MiB/s ${et[*]}" >&2
		echo "$name $engine: fio CPU s/GiB ${fc[*]} | engine CPU s/GiB ${ec[*]}" >&2
		results+=("$(bench_row "$name" "$engine" "${ft[*]}" "${et[*]}" "${fc[*]}" "${ec[*]}" 0.97 -)")
		# the latency table: the tight 4k one-job cases are judged against 0.90-1.10, the rest shown
		lo=-; hi=-; [[ $name == 4k-rr-* ]] && { lo=0.90; hi=1.10; }
		lat_rows+=("$(bench_lat_row "$name" "$engine" "${fl[*]}" "${el[*]}" "$lo" "$hi")")
	done
done

# dd vs coreutils dd: bench/dd.sh measures on its own tmpfs-backed loop device (the field
# report's setup) and prints its rows in this table's format.
if [[ -z $only || "dd-each dd" =~ $only || "dd-end dd" =~ $only ]]; then
	while IFS= read -r line; do
		[[ -z $only || "${line%% *} dd" =~ $only ]] && results+=("$line")
	done < <(PAIRS=$pairs ROWS_ONLY=1 bash "$here/dd.sh" "$build")
fi

echo
echo "# $load busy loops of our own (BENCH_LOAD); fio's jobs: $( [ "$sessions" = one ] && echo "threads in one session, as ours" || echo "a session per job (fio's default), ours one"); at the end: $(uptime)"
echo "# ratio = ours / tool: the median of the $pairs back-to-back pairs' ratios [95% bootstrap interval]; verdict against the"
echo "# target: aio/uring MiB/s >= 0.97 x fio, dd within 0.95-1.05 x coreutils dd, CPU s/GiB <= 1.05 x tool"
printf '%-13s %-6s %9s %9s  %-22s %-9s | %8s %8s  %s\n' case engine "tool MiB/s" "ours MiB/s" "ratio [95% CI]" verdict \
	"tool CPU/GiB" "ours CPU/GiB" "ratio [95% CI] verdict"
printf '%s\n' "${results[@]}"

echo
echo "# latency, microseconds: medians of $pairs runs; ratio = ours / fio, median of the pairs' ratios [95% bootstrap interval], and verdict"
echo "# against 0.90-1.10 on the tight 4k one-job cases (the others are shown, not judged)"
printf '%-13s %-6s | %-40s | %-40s | %-40s | %-40s\n' case engine "lat p50 fio ours ratio" "lat p99" "clat p50" "clat p99"
printf '%s\n' "${lat_rows[@]}"
