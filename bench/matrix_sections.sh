#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Matrix parsing at scale: a matrix of N engine sections (one device, one scheduler) parsed by
# `ioregress run --dry-run`, timed with /usr/bin/time (wall seconds, peak memory) for each binary
# given, side by side. Issue 23 measured 560 s for 200,000 engines when a duplicate check searched
# every earlier section; the target is time growing about linearly with N.
#   bench/matrix_sections.sh [N...]                      default 50000 100000 200000
#   IOREGRESS="build/harness/ioregress /work/main/build/harness/ioregress" bench/matrix_sections.sh 50000
set -euo pipefail
cd "$(dirname "$0")/.."
bins=${IOREGRESS:-build/harness/ioregress}
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(50000 100000 200000)
work=$(mktemp -d "${TMPDIR:-/tmp}/ior-matrix-sections.XXXXXX")
trap 'rm -rf "$work"' EXIT
echo "load: $(uptime)"
printf '%-9s %-45s %10s %10s\n' sections binary wall_s peak_MB
for n in "${sizes[@]}"; do
	awk -v N="$n" 'BEGIN {
		printf "[matrix]\nrepetitions = 1\nschedulers = none\nmax_cells = %d\n[device d]\nloop = 16M\ndestructive = yes\n", N
		for (i = 1; i <= N; i++) printf "[engine e%d]\ntype = dd\n", i
	}' >"$work/m.ini"
	for b in $bins; do
		/usr/bin/time -f '%e %M' -o "$work/time" "$b" run --dry-run "$work/m.ini" >/dev/null 2>"$work/err" ||
			{ echo "error: $b refused the matrix:" >&2; tail -n 2 "$work/err" >&2; exit 1; }
		read -r wall kb <"$work/time"
		printf '%-9s %-45s %10s %10d\n' "$n" "$b" "$wall" $((kb / 1024))
	done
done
