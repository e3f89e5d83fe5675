# Shared by the bench scripts (sourced): medians, a bootstrap interval for the ratio of two tools' medians, a target judged against that interval, and the side-by-side table row.

# median < numbers, one per line
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

# ratio_ci OURS TOOL → "ratio lo hi": median(OURS)/median(TOOL) and its percentile-bootstrap 95%
# interval (2000 resamples of each side, seeded: the same figures give the same interval).
# OURS and TOOL are space-separated lists. With five runs a side the interval is wide; it is
# there so that a ratio of 0.95 from noisy runs is not read as a miss, nor 1.00 as a pass.
ratio_ci() {
	python3 - "$1" "$2" <<'EOF'
import random, statistics, sys
ours = [float(x) for x in sys.argv[1].split()]
tool = [float(x) for x in sys.argv[2].split()]
rng = random.Random(20261130)
rs = sorted(statistics.median(rng.choices(ours, k=len(ours))) /
            statistics.median(rng.choices(tool, k=len(tool))) for _ in range(2000))
print("%.3f %.3f %.3f" % (statistics.median(ours) / statistics.median(tool), rs[49], rs[1949]))
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
