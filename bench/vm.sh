#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Benchmark of `ioregress vm run` with matrix/examples/vm.ini (#22): overhead per kernel, boots lost to the harness, the share of cells --boots auto decides, and the between-boot spread of every metric.
# Not a test. Wrap every mode but TALLY in flock /tmp/ior-root-tests.lock. From the source tree:
#   bench/vm.sh [BUILD_DIR]      env: RUNS=3 ACCEL=tcg CACHE=~/.cache/ioregress/kernels KERNELS="..." OUT=DIR
#                                MATRIX=FILE (default matrix/examples/vm.ini; tests/data/vm-bisect.ini is a one-cell one)
# Modes (one per call, so a long benchmark runs in pieces that each hold the lock a short while):
#   default   overhead: per kernel, the whole command's seconds beside the bare boot-and-power-off time
#             of the same kernel under the same qemu settings and the matrix's measuring time inside
#             the guest; overhead = total - bare boot - measuring (fetching from the cache, the
#             initramfs, qemu's start, the results disk and the merge). Target: <= 5 s per kernel.
#             RUNS pairs of (bare boot, full run) per kernel, alternated; medians printed. Each run's line
#             on stderr places the guest's time (its clock, from the console): init up, the run's start,
#             its first heartbeat (what ioregress does before measuring), the run's end, and the
#             host's time outside qemu (the scratch disk's fill, the initramfs, the merge).
#   BOOTS=N   vm run --boots N of vm.ini over all KERNELS (every kernel once per round, rotated): the
#             boots the lost-boot tally and the spread table are read from.
#   AUTO=1    what --boots auto decides: the first two KERNELS (AUTO_KERNELS to choose) booted in
#             rounds with vm.ini until every cell is decided or MAX_BOOTS (default 8) rounds, then
#             the share of cells decided, the rounds taken and the undecided cells with their noise
#             (target: >= 80% decided within 8 boots a kernel). AUTO_METRIC decides on another metric
#             than the headline (req_kib: the request counters, which hold still under TCG).
#   AIO=1     the reproducer of the aio failures under TCG: AIO_KERNEL (default 6.12.117) booted
#             AIO_BOOTS times (default 8) with bench/vm-aio.ini (randread alone, 60 aio repetitions a
#             boot), qemu's -cpu CPU when CPU is set (a wrapper given as --qemu); prints the
#             outcomes and each failed boot's reason. Its databases are named aio-CPU-*.
#   TALLY=1   reads every database the other modes left in OUT (no boot): per kernel the boots run,
#             ok, hung, panicked (with the oops heads), lost to the harness (every outcome that is
#             neither ok nor a kernel panic; target 0), the seconds a vm.ini boot took; then the
#             between-boot CoV of each metric per kernel and cell (each boot's median, warm-ups out).
# OUT keeps the databases (one per vm run) so the pieces add up; without it they go with the run.
# Beside the vm test suites: give it a /tmp of its own (the suites count only their own mount
# namespace's qemus and /tmp/ioregress-vm.* directories), with OUT and the build outside /tmp:
#   unshare --mount --propagation private sh -c 'mount --bind /var/tmp/ns-tmp /tmp && exec bench/vm.sh ...'

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
kernels=${KERNELS:-"linux-image-6.1.0-47-cloud-amd64 linux-image-6.1.0-57-cloud-amd64 linux-image-6.12.117+deb12-cloud-amd64-unsigned"}
matrix=${MATRIX:-$here/../matrix/examples/vm.ini}

if [ "${TALLY:-0}" = 1 ]; then
	[ -n "${OUT:-}" ] || { echo "error: TALLY=1 reads the databases of OUT: set OUT" >&2; exit 2; }
	exec python3 "$here/vm_tally.py" "$OUT"
fi
[ -x "$bin" ] || { echo "error: no ioregress at '$bin' (build first)" >&2; exit 2; }
work=$(mktemp -d /tmp/ior-bench-vm.XXXXXX)
trap 'rm -rf "$work"' EXIT
out=${OUT:-$work}
mkdir -p "$out"
stamp=$(date +%Y%m%d-%H%M%S)
# a fresh database under OUT for each vm run, so TALLY=1 finds every boot this script ran (a name of
# its own each call: callers take it by $(...), a subshell, where a counter would never advance)
newdb() { mktemp -u "$out/$1-$stamp-XXXXXX.db"; }

now() { date +%s.%N; }
q() { sqlite3 "$1" "$2"; }

# the guest's clock at its marks, from the console: "up U, run R, first beat F, ended E" (what is missing: -)
phases() {
	q "$1" "SELECT console_log FROM vm_boots LIMIT 1" | awk '
		/ioregress-init: up / { up = $3 }
		/ioregress-init: run starts at / { run = $5 }
		/the guest up [0-9.]+ s\)/ && first == "" { match($0, /the guest up [0-9.]+/); first = substr($0, RSTART + 13, RLENGTH - 13) }
		/ioregress-init: run ended at / { end = $5 }
		END { printf "guest up %s, run %s, first beat %s, ended %s", up ? up : "-", run ? run : "-", first ? first : "-", end ? end : "-" }'
}

# one vm run into a fresh database; prints "wall_s qemu_total_s measuring_s outcome" (qemu's total and
# the wall time on the host's clock; measuring on the guest's, from its run's start and end); the
# guest's phases go to stderr
one() {
	local db t0 t1 m
	db=$(newdb one)
	t0=$(now)
	"$bin" --quiet --db "$db" vm run --accel "$accel" --cache-dir "$cache" "$@" >/dev/null 2>&1 || true
	t1=$(now)
	m=$(q "$db" "SELECT ifnull(sum((julianday(finished_at) - julianday(started_at)) * 86400), 0) FROM runs")
	echo "  $1 $(phases "$db")" >&2
	echo "$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.2f", b - a}') \
$(q "$db" "SELECT printf('%.2f', total_s) FROM vm_boots LIMIT 1") $(printf '%.2f' "$m") \
$(q "$db" "SELECT outcome FROM vm_boots LIMIT 1")"
}

if [ "${AIO:-0}" = 1 ]; then
	kernel=${AIO_KERNEL:-linux-image-6.12.117+deb12-cloud-amd64-unsigned}
	qemu="qemu-system-x86_64"
	if [ -n "${CPU:-}" ]; then
		qemu=$work/qemu-cpu
		printf '#!/bin/sh\nexec qemu-system-x86_64 -cpu %s "$@"\n' "$CPU" >"$qemu"
		chmod +x "$qemu"
	fi
	db=$(newdb "aio-${CPU:-default}")
	echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
	t0=$(now)
	"$bin" --db "$db" vm run --accel "$accel" --cache-dir "$cache" --qemu "$qemu" --matrix "$here/vm-aio.ini" \
		--boots "${AIO_BOOTS:-8}" "$kernel" >"$db.out" 2>"$db.err" || echo "vm run exited $?"
	t1=$(now)
	echo "cpu ${CPU:-default} ($kernel): $(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.0f", b - a}') s;" \
		"boots: $(q "$db" "SELECT group_concat(n, ', ') FROM (SELECT outcome || ' ' || count(*) AS n FROM vm_boots GROUP BY outcome)");" \
		"aio repetitions: $(q "$db" "SELECT count(*) FROM samples s JOIN cells c ON c.id = s.cell_id WHERE c.engine_type = 'aio'")"
	q "$db" "SELECT '  ' || outcome || ' at ' || printf('%.0f', total_s) || ' s: ' || reason FROM vm_boots WHERE outcome <> 'ok'"
	exit 0
fi

if [ -n "${BOOTS:-}" ]; then
	db=$(newdb boots)
	echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
	t0=$(now)
	# shellcheck disable=SC2086 # one word per kernel
	"$bin" --db "$db" vm run --accel "$accel" --cache-dir "$cache" --matrix "$matrix" --boots "$BOOTS" \
		$kernels >"$db.out" 2>"$db.err" || echo "vm run exited $?"
	t1=$(now)
	echo "load after: $(cut -d' ' -f1-3 /proc/loadavg); $(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.0f", b - a}') s;" \
		"boots: $(q "$db" "SELECT group_concat(n, ', ') FROM (SELECT outcome || ' ' || count(*) AS n FROM vm_boots GROUP BY outcome)")"
	exit 0
fi

if [ "${AUTO:-0}" = 1 ]; then
	read -r -a two <<<"${AUTO_KERNELS:-$kernels}"
	db=$(newdb auto)
	echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
	t0=$(now)
	"$bin" --db "$db" vm run --accel "$accel" --cache-dir "$cache" --matrix "$matrix" --boots auto \
		--max-boots "${MAX_BOOTS:-8}" --metric "${AUTO_METRIC:-value}" "${two[0]}" "${two[1]}" >"$db.out" 2>"$db.err" || true
	t1=$(now)
	cat "$db.out"
	grep '^vm: after round' "$db.err" || true
	echo "load $(cut -d' ' -f1-3 /proc/loadavg) at the end; $(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.0f", b - a}') s in all;" \
		"boots: $(q "$db" "SELECT group_concat(n, ' ') FROM (SELECT outcome || ' ' || count(*) AS n FROM vm_boots GROUP BY outcome)")"
	share=$(sed -n 's/^vm run --boots auto: .*: \([0-9]*\) of \([0-9]*\) cells decided.*/\1 \2/p' "$db.out")
	read -r dec all <<<"${share:-0 0}"
	awk -v d="$dec" -v a="$all" 'BEGIN {s = a ? 100 * d / a : 0; printf "decided %d of %d cells (%.0f%%): %s\n", d, a, s, (s >= 80 ? "meets" : "misses")}'
	exit 0
fi

for k in $kernels; do   # fetch and unpack outside the timing
	"$bin" --quiet --db "$(newdb warm)" vm run --accel "$accel" --cache-dir "$cache" --boot-only "$k" >/dev/null 2>&1 || true
done

# host_s: what vm run spends outside qemu (cache, initramfs, disks, merge), both ends on the host's clock
echo "matrix $matrix; load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-48s %8s %8s %10s %9s %8s %8s  %s\n' kernel total_s boot_s measuring overhead target host_s outcomes
for k in $kernels; do
	totals="" boots="" meas="" hosts="" outs=""
	for r in $(seq "$runs"); do
		read -r _ b _ o1 <<<"$(one --boot-only "$k")"
		read -r w qt m o2 <<<"$(one --matrix "$matrix" "$k")"
		echo "$k run $r: bare boot ${b}s ($o1), vm run ${w}s, qemu ${qt}s, ${m}s measuring ($o2)" >&2
		totals+="$w " boots+="$b " meas+="$m " outs+="$o2 "
		echo "  load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
		hosts+="$(awk -v w="$w" -v q="$qt" 'BEGIN {printf "%.2f", w - q}') "
	done
	t=$(tr ' ' '\n' <<<"$totals" | grep . | median)
	b=$(tr ' ' '\n' <<<"$boots" | grep . | median)
	m=$(tr ' ' '\n' <<<"$meas" | grep . | median)
	h=$(tr ' ' '\n' <<<"$hosts" | grep . | median)
	o=$(awk -v t="$t" -v b="$b" -v m="$m" 'BEGIN {printf "%.2f", t - b - m}')
	printf '%-48s %8.2f %8.2f %10.2f %9.2f %8s %8.2f  %s\n' "$k" "$t" "$b" "$m" "$o" \
		"$(awk -v o="$o" 'BEGIN {print (o <= 5 ? "meets" : "misses")}')" "$h" "$outs"
done
if [ "$accel" = tcg ]; then
	t0=$(now)
	probe=$(newdb probe)
	"$bin" --quiet --db "$probe" vm run --accel auto --cache-dir "$cache" --boot-only \
		"${kernels%% *}" >/dev/null 2>&1 || true
	t1=$(now)
	echo "with --accel auto, one bare boot takes $(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.2f", b - a}') s" \
		"(the KVM probe included: $(q "$probe" "SELECT accelerator FROM vm_boots LIMIT 1") was chosen)"
fi
