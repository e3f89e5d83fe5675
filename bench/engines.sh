#!/bin/bash
# Side by side: the ioregress engines vs the real tools with the same parameters, alternating run by run
# on one scratch loop device (--direct-io=on: the tight-noise setup of FACTS.md); prints per case the
# medians of throughput and of CPU seconds per GiB, and the ratios engine/tool.
# Usage (root): bench/engines.sh [BUILD_DIR] [PAIRS]   — BUILD_DIR holds bench/engine_once (default ./build).
# Targets: aio/uring throughput >= 0.97 x fio, CPU s/GiB <= 1.05 x fio.
set -euo pipefail
build=${1:-build}
pairs=${2:-5}
runtime=${BENCH_RUNTIME:-3}      # seconds per run: 4 cases x 2 engines x 2 tools x pairs runs
once="$build/bench/engine_once"
[ "$(id -u)" = 0 ] || { echo "bench/engines.sh: needs root (loop device)" >&2; exit 1; }
[ -x "$once" ] || { echo "bench/engines.sh: no $once (cmake --build $build --target engine_once)" >&2; exit 1; }
command -v fio >/dev/null || { echo "bench/engines.sh: fio is not installed" >&2; exit 1; }

# ---- the cases: NAME | rw | bs | iodepth | numjobs (size 128M per job, direct, time-based) ----
# (engines-write adds the dd vs coreutils dd cases in their own section below.)
fio_cases=(
	"4k-randread|randread|4k|8|8"
	"1M-read|read|1M|8|8"
	"4k-randwrite|randwrite|4k|8|8"
	"1M-write|write|1M|8|8"
)
fio_engines=("aio|libaio" "uring|io_uring")

file=$(mktemp "${BENCH_DIR:-/tmp}/ioregress-bench-engines.XXXXXX")
dev=
cleanup() { [ -n "$dev" ] && losetup -d "$dev" 2>/dev/null; rm -f "$file"; }
trap cleanup EXIT INT TERM
dd if=/dev/zero of="$file" bs=1M count=1024 conv=fsync status=none   # 8 jobs x 128M, allocated
dev=$(losetup -f --show --direct-io=on "$file")

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.3f", (a > 0 ? b / a : 0)}'; }

# One fio run -> "MiB/s CPU-s/GiB". fio's group figures: cpu% is of the summed job runtimes.
run_fio() { # ioengine rw bs iodepth numjobs
	fio --name=bench --filename="$dev" --ioengine="$1" --rw="$2" --bs="$3" --iodepth="$4" --numjobs="$5" \
		--size=128M --offset_increment=128M --direct=1 --time_based --runtime="$runtime" \
		--group_reporting --output-format=json 2>/dev/null |
	python3 -c '
import json, sys
j = json.load(sys.stdin)["jobs"][0]
b = j["read"]["io_bytes"] + j["write"]["io_bytes"]
bw = (j["read"]["bw_bytes"] + j["write"]["bw_bytes"]) / 2**20
cpu = (j["usr_cpu"] + j["sys_cpu"]) / 100 * j["job_runtime"] / 1000
print("%.2f %.4f" % (bw, cpu / (b / 2**30)))'
}

# One engine run -> "MiB/s CPU-s/GiB".
run_engine() { # engine rw bs iodepth numjobs
	"$once" --destructive "$1" "$dev" rw="$2" bs="$3" iodepth="$4" numjobs="$5" size=128M direct=yes \
		runtime="${runtime}s" |
	awk '{for (i = 1; i <= NF; i++) {split($i, kv, "="); v[kv[1]] = kv[2]}}
	     END {printf "%.2f %.4f\n", v["bytes"] / 1048576 / v["wall"], (v["usr"] + v["sys"]) / (v["bytes"] / 2^30)}'
}

results=()
for c in "${fio_cases[@]}"; do
	IFS='|' read -r name rw bs depth jobs <<<"$c"
	for e in "${fio_engines[@]}"; do
		IFS='|' read -r engine ioengine <<<"$e"
		ft=(); fc=(); et=(); ec=()
		for ((i = 0; i < pairs; i++)); do
			# ABBA order: who goes first alternates, so drift in the device does not favour one tool.
			for who in $( ((i % 2)) && echo "engine fio" || echo "fio engine"); do
				if [ $who = fio ]; then
					read -r t cpu < <(run_fio "$ioengine" "$rw" "$bs" "$depth" "$jobs"); ft+=("$t"); fc+=("$cpu")
				else
					read -r t cpu < <(run_engine "$engine" "$rw" "$bs" "$depth" "$jobs"); et+=("$t"); ec+=("$cpu")
				fi
			done
		done
		echo "$name $engine: fio MiB/s ${ft[*]} | engine MiB/s ${et[*]}" >&2
		echo "$name $engine: fio CPU s/GiB ${fc[*]} | engine CPU s/GiB ${ec[*]}" >&2
		mft=$(printf '%s\n' "${ft[@]}" | median); met=$(printf '%s\n' "${et[@]}" | median)
		mfc=$(printf '%s\n' "${fc[@]}" | median); mec=$(printf '%s\n' "${ec[@]}" | median)
		results+=("$(printf '%-13s %-6s %10.1f %10.1f %7s %10.4f %10.4f %7s' "$name" "$engine" \
			"$mft" "$met" "$(ratio "$mft" "$met")" "$mfc" "$mec" "$(ratio "$mfc" "$mec")")")
	done
done

# ---- dd vs coreutils dd (engines-write): append rows to results here ----

echo
printf '%-13s %-6s %10s %10s %7s %10s %10s %7s\n' case engine "tool MiB/s" "ours MiB/s" ratio \
	"tool CPU/GiB" "ours CPU/GiB" ratio
printf '%s\n' "${results[@]}"
