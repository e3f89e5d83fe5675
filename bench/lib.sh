# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by the bench scripts (sourced): medians, a bootstrap interval for the median ratio of two tools' paired runs, a target judged against that interval, and the side-by-side table row.

# median < numbers, one per line
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

# ratio_ci OURS TOOL → "ratio lo hi": the median of the per-pair ratios OURS[i]/TOOL[i] and its
# percentile-bootstrap 95% interval (2000 resamples of the pairs, seeded: the same figures give the
# same interval). OURS and TOOL are space-separated lists of equal length whose i-th entries ran
# back to back (the scripts alternate who goes first), so a drift of the machine (another job
# starting, the host's cache) moves both entries of a pair and cancels in its ratio. Judged as
# two independent samples instead, a 4k job's p99 ratio on a loaded host had the interval
# [0.06, 4.9]. With five pairs the interval is still wide; it is there so that a ratio of 0.95
# from noisy runs is not read as a miss, nor 1.00 as a pass.
ratio_ci() {
	python3 - "$1" "$2" <<'EOF'
import random, statistics, sys
ours = [float(x) for x in sys.argv[1].split()]
tool = [float(x) for x in sys.argv[2].split()]
if len(ours) != len(tool) or not ours:
    sys.exit("ratio_ci: the two lists must be pairs of runs (%d and %d figures)" % (len(ours), len(tool)))
pairs = [o / t for o, t in zip(ours, tool)]
rng = random.Random(20261130)
rs = sorted(statistics.median(rng.choices(pairs, k=len(pairs))) for _ in range(2000))
print("%.3f %.3f %.3f" % (statistics.median(pairs), rs[49], rs[1949]))
EOF
}

# judge LO HI MIN MAX → "meets" when the whole interval lies in [MIN, MAX], "misses" when none of
# it does, otherwise "undecided" (the runs are too noisy to tell); "-" for an open bound.
judge() {
	awk -v lo="$1" -v hi="$2" -v min="$3" -v max="$4" 'BEGIN {
		if (min == "-") min = -1e300
		if (max == "-") max = 1e300
		if (lo >= min && hi <= max) print "meets"
		else if (hi < min || lo > max) print "misses"
		else print "undecided"
	}'
}

# bench_row CASE ENGINE "tool MiB/s..." "ours MiB/s..." "tool CPU..." "ours CPU..." MIN MAX: one row of
# bench/engines.sh's table: medians, the ratio ours/tool with its interval and its verdict against
# [MIN, MAX] for throughput and against <= 1.05 for CPU seconds per GiB.
bench_row() {
	local br blo bhi cr clo chi
	read -r br blo bhi <<<"$(ratio_ci "$4" "$3")"
	read -r cr clo chi <<<"$(ratio_ci "$6" "$5")"
	printf '%-13s %-6s %9.1f %9.1f  %s [%s, %s] %-9s | %8.4f %8.4f  %s [%s, %s] %s\n' "$1" "$2" \
		"$(tr ' ' '\n' <<<"$3" | median)" "$(tr ' ' '\n' <<<"$4" | median)" "$br" "$blo" "$bhi" \
		"$(judge "$blo" "$bhi" "$7" "$8")" "$(tr ' ' '\n' <<<"$5" | median)" "$(tr ' ' '\n' <<<"$6" | median)" \
		"$cr" "$clo" "$chi" "$(judge "$clo" "$chi" - 1.05)"
}

# bench_lat_row CASE ENGINE "tool runs" "our runs" MIN MAX: one row of bench/engines.sh's latency table. Each run
# is four figures (lat p50, lat p99, clat p50, clat p99), runs joined by spaces; per figure the medians, the
# ratio ours/tool with its interval and a verdict against [MIN, MAX] ("-" for both: not judged).
bench_lat_row() {
	local -a tool ours
	read -ra tool <<<"$3"
	read -ra ours <<<"$4"
	local row k i t o r lo hi verdict
	row=$(printf '%-13s %-6s' "$1" "$2")
	for k in 0 1 2 3; do
		t=""; o=""
		for ((i = k; i < ${#tool[@]}; i += 4)); do t+="${tool[i]} "; done
		for ((i = k; i < ${#ours[@]}; i += 4)); do o+="${ours[i]} "; done
		read -r r lo hi <<<"$(ratio_ci "$o" "$t")"
		if [ "$5" = - ]; then verdict=-; else verdict=$(judge "$lo" "$hi" "$5" "$6"); fi
		row+=$(printf ' | %7.1f %7.1f %s [%s, %s] %-9s' "$(tr ' ' '\n' <<<"${t% }" | median)" \
			"$(tr ' ' '\n' <<<"${o% }" | median)" "$r" "$lo" "$hi" "$verdict")
	done
	printf '%s\n' "$row"
}

# The buffered-loop aio benchmarks' shared steps (aio-fio-loop.sh, aio-run-fio.sh): a 4k randread,
# iodepth 8, 64 MiB job on DEV by engine_once ONCE (its IOPS) and by fio (its IOPS; FIO_EXTRA adds
# options), each in a session of its own; and one measurement after the caches are dropped as the
# matrix's drop_caches = yes does: "OUTPUT READS", READS being the reads STAT_FILE's disk did
# meanwhile (a count other work on the machine moves far less than it moves the IOPS).
bench_aio_once() {
	setsid -w "$1" aio "$2" rw=randread bs=4k iodepth=8 size=64M direct=yes |
		awk '{for (i = 1; i <= NF; i++) {split($i, kv, "="); if (kv[1] == "value") print kv[2]}}'
}
bench_fio_randread() {
	# shellcheck disable=SC2086
	setsid -w fio --name=bench --filename="$1" --ioengine=libaio --rw=randread --bs=4k --iodepth=8 --size=64M \
		--direct=1 ${FIO_EXTRA:-} --output-format=json 2>/dev/null |
		python3 -c 'import json, sys; print(json.load(sys.stdin)["jobs"][0]["read"]["iops"])'
}
bench_after_drop() {
	local stat_file=$1 r0 r1 v
	shift
	sync
	echo 3 >/proc/sys/vm/drop_caches
	r0=$(awk '{print $1}' "$stat_file")
	v=$("$@")
	r1=$(awk '{print $1}' "$stat_file")
	echo "$v $((r1 - r0))"
}
# bench_disk_of FILE: the whole disk under FILE's file system (its /sys/class/block name).
bench_disk_of() {
	local src
	src=$(df --output=source "$1" | tail -1)
	lsblk -no pkname "$src" 2>/dev/null | grep . || basename "$src"
}
# bench_buffered_loop NAME: a scratch directory $work under $BENCH_DIR (default /tmp), $file in it
# (256 MiB of random data, on the host's disk) and $dev, a buffered loop device over it (the setup
# testers use: reads pass through the backing file's page cache); both removed on exit, also when
# the benchmark fails or is interrupted.
# shellcheck disable=SC2034  # work, file and dev are the caller's
bench_buffered_loop() {
	work=$(mktemp -d "${BENCH_DIR:-/tmp}/ioregress-bench-$1.XXXXXX")
	file=$work/backing
	dev=
	trap bench_buffered_loop_remove EXIT INT TERM
	dd if=/dev/urandom of="$file" bs=1M count=256 conv=fsync status=none
	dev=$(losetup -f --show --direct-io=off "$file")
}
bench_buffered_loop_remove() {
	[ -n "$dev" ] && losetup -d "$dev" 2>/dev/null
	rm -rf "$work"
}
