#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Benchmark of `ioregress vm run`: per kernel, the whole command's seconds with matrix/examples/vm.ini, beside the bare boot-and-power-off time of the same kernel under the same qemu settings and the matrix's own measuring time inside the guest.
# overhead = total - bare boot - measuring: fetching from the cache, the initramfs, qemu's start,
# the results disk and the merge. Target: <= 5 s per kernel. Each kernel gets RUNS pairs of
# (bare boot, full run), alternated, and the medians are printed. Not a test. From the source tree:
#   bench/vm.sh [BUILD_DIR]      env: RUNS=3 ACCEL=tcg CACHE=~/.cache/ioregress/kernels KERNELS="..."
# AUTO=1 measures instead what --boots auto decides: the first two KERNELS (AUTO_KERNELS to choose)
# booted in rounds with vm.ini until every cell is decided or MAX_BOOTS (default 8) rounds, then the
# share of cells decided, the rounds taken and the undecided cells with their noise between boots
# (target: >= 80% decided within 8 boots a kernel). Wrap it in flock /tmp/ior-root-tests.lock.
# ACCEL=tcg by default: with auto, a vm run first spends up to 10 s on a KVM probe boot where KVM
# does not work (as on this project's machines); that is per vm run, not per kernel, and printed apart.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
build=${1:-build}
bin=$build/harness/ioregress
runs=${RUNS:-3}
accel=${ACCEL:-tcg}
cache=${CACHE:-$HOME/.cache/ioregress/kernels}
kernels=${KERNELS:-"linux-image-6.1.0-47-cloud-amd64 linux-image-6.1.0-57-amd64-unsigned linux-image-6.12.113+deb12-cloud-amd64-unsigned"}
matrix=$here/../matrix/examples/vm.ini

[ -x "$bin" ] || { echo "error: no ioregress at '$bin' (build first)" >&2; exit 2; }
work=$(mktemp -d /tmp/ior-bench-vm.XXXXXX)
trap 'rm -rf "$work"' EXIT

now() { date +%s.%N; }
q() { sqlite3 "$1" "$2"; }

# one vm run into a fresh database; prints "wall_s boot_total_s measuring_s outcome"
one() {
	local db=$work/run.db t0 t1 m
	rm -f "$db"*
	t0=$(now)
	"$bin" --quiet --db "$db" vm run --accel "$accel" --cache-dir "$cache" "$@" >/dev/null 2>&1 || true
	t1=$(now)
	m=$(q "$db" "SELECT ifnull(sum((julianday(finished_at) - julianday(started_at)) * 86400), 0) FROM runs")
	echo "$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.2f", b - a}') \
$(q "$db" "SELECT printf('%.2f', total_s) FROM vm_boots LIMIT 1") $(printf '%.2f' "$m") \
$(q "$db" "SELECT outcome FROM vm_boots LIMIT 1")"
}

if [ "${AUTO:-0}" = 1 ]; then
	read -r -a two <<<"${AUTO_KERNELS:-$kernels}"
	db=$work/auto.db
	t0=$(now)
	"$bin" --db "$db" vm run --accel "$accel" --cache-dir "$cache" --matrix "$matrix" --boots auto \
		--max-boots "${MAX_BOOTS:-8}" "${two[0]}" "${two[1]}" >"$work/auto.out" 2>"$work/auto.err" || true
	t1=$(now)
	cat "$work/auto.out"
	grep '^vm: after round' "$work/auto.err" || true
	echo "load $(cut -d' ' -f1-3 /proc/loadavg) at the end; $(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.0f", b - a}') s in all;" \
		"boots: $(q "$db" "SELECT group_concat(n, ' ') FROM (SELECT outcome || ' ' || count(*) AS n FROM vm_boots GROUP BY outcome)")"
	share=$(sed -n 's/^vm run --boots auto: .*: \([0-9]*\) of \([0-9]*\) cells decided.*/\1 \2/p' "$work/auto.out")
	read -r dec all <<<"${share:-0 0}"
	awk -v d="$dec" -v a="$all" 'BEGIN {s = a ? 100 * d / a : 0; printf "decided %d of %d cells (%.0f%%): %s\n", d, a, s, s >= 80 ? "meets" : "misses"}'
	exit 0
fi

for k in $kernels; do   # fetch and unpack outside the timing
	"$bin" --quiet --db "$work/warm.db" vm run --accel "$accel" --cache-dir "$cache" --boot-only "$k" >/dev/null 2>&1 || true
done

printf '%-48s %8s %8s %10s %9s %8s  %s\n' kernel total_s boot_s measuring overhead target outcomes
for k in $kernels; do
	totals="" boots="" meas="" outs=""
	for r in $(seq "$runs"); do
		read -r _ b _ o1 <<<"$(one --boot-only "$k")"
		read -r w _ m o2 <<<"$(one --matrix "$matrix" "$k")"
		echo "$k run $r: bare boot ${b}s ($o1), vm run ${w}s with ${m}s measuring ($o2)" >&2
		totals+="$w " boots+="$b " meas+="$m " outs+="$o2 "
	done
	t=$(tr ' ' '\n' <<<"$totals" | grep . | median)
	b=$(tr ' ' '\n' <<<"$boots" | grep . | median)
	m=$(tr ' ' '\n' <<<"$meas" | grep . | median)
	o=$(awk -v t="$t" -v b="$b" -v m="$m" 'BEGIN {printf "%.2f", t - b - m}')
	printf '%-48s %8.2f %8.2f %10.2f %9.2f %8s  %s\n' "$k" "$t" "$b" "$m" "$o" \
		"$(awk -v o="$o" 'BEGIN {print (o <= 5 ? "meets" : "misses")}')" "$outs"
done
if [ "$accel" = tcg ]; then
	t0=$(now)
	"$bin" --quiet --db "$work/probe.db" vm run --accel auto --cache-dir "$cache" --boot-only \
		"${kernels%% *}" >/dev/null 2>&1 || true
	t1=$(now)
	echo "with --accel auto, one bare boot takes $(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.2f", b - a}') s" \
		"(the KVM probe included: $(q "$work/probe.db" "SELECT accelerator FROM vm_boots LIMIT 1") was chosen)"
fi
