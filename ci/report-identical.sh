#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Every report format written by two builds from the same databases, compared byte for byte: the
# check that a change of the report code changes no output it did not mean to (issue 39 §4).
#
#   ci/report-identical.sh collect DBDIR [BUILD]   the databases: the report suites' (kept with
#                                                 IOR_TEST_KEEP_DIR) and the seed CSVs imported
#   ci/report-identical.sh write BIN DBDIR OUTDIR  every output of BIN for every database in DBDIR
#   ci/report-identical.sh compare OLD NEW         compares two OUTDIRs; exits 1 on any difference
#
# Typical use: collect once, write with the binary before the change (a copy of build/ioregress),
# then after each step write with the new one and compare. Outputs are the report's standard
# output, its standard error and its exit status, each its own file, for every format (text md
# html json junit csv kcidb) of: the report, the report with --alerts, with --baseline (the oldest
# kernel: verdicts and kernel pairs against it), check between the first two kernels, compare
# between the first two schedulers, and `report --metric all` ("all" in IOR_OUTPUTS); the report with
# --device (the first device), --kernel (the second kernel) and --device with --baseline ("filters").
# Timestamps come from the database, never the clock, so two writes of one binary are identical
# (write checks that on one database).
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
formats=(text md html json junit csv kcidb)
# the suites that make databases reports are written from (offline, no root)
suites='^(report_formats|report_html|report_kcidb|report_text|verdicts|compare|import|import_units|merge|cmd_readers|hostile_text|bisect_boots|bisect_inputs|db)$'

usage() {
	sed -n '5,9p' "$0" | sed 's/^# *//' >&2
	exit 2
}

collect() {
	local dbdir=$1 build=${2:-$here/build} keep
	mkdir -p "$dbdir"
	keep=$(mktemp -d /tmp/ior-keep.XXXXXX)
	IOR_TEST_KEEP_DIR=$keep ctest --test-dir "$build" -R "$suites" -j1 >"$dbdir/ctest.log" 2>&1 ||
		echo "warning: some suites failed, see $dbdir/ctest.log" >&2
	local n=0 db name sum sums=''
	while IFS= read -r -d '' db; do
		# a database file, not a journal: SQLite's header
		[ "$(head -c 15 "$db" 2>/dev/null | tr -d '\0')" = "SQLite format 3" ] || continue
		name=$(echo "${db#"$keep"/}" | tr '/' '_'); name=${name%.db}
		sum=$(sha256sum <"$db" | cut -c1-64)
		[[ " $sums " == *" $sum "* ]] && continue   # the same bytes as one kept already
		sums+=" $sum"
		cp "$db" "$dbdir/$name.db"
		n=$((n + 1))
	done < <(find "$keep" -type f ! -name '*-wal' ! -name '*-shm' ! -name '*-journal' -print0 | sort -z)
	rm -rf "$keep"
	local csv
	for csv in "$here"/tests/data/*.csv /work/shared/data/*.csv; do
		[ -f "$csv" ] || continue
		name=seed_$(basename "$csv" .csv)
		[ -f "$dbdir/$name.db" ] && continue
		"$build/harness/ioregress" --db "$dbdir/$name.db" import "$csv" >/dev/null
		n=$((n + 1))
	done
	echo "$n databases in $dbdir"
}

# one output: NAME, then the command's arguments after --db
one() {
	local out=$1 name=$2
	shift 2
	local rc=0
	"$bin" --db "$db" "$@" >"$out/$name.out" 2>"$out/$name.err" || rc=$?
	echo "$rc" >"$out/$name.rc"
}

# IOR_OUTPUTS: which outputs to write, "all filters" by default
want() {
	[[ " ${IOR_OUTPUTS:-all filters} " == *" $1 "* ]]
}

q() {
	sqlite3 -readonly "file:$db?immutable=1" "$1" 2>/dev/null || true
}

# every output of one database
write_db() {
	bin=$1 db=$2
	local out f k1 k2 s1 s2 d1
	out=$3/$(basename "$2" .db)
	mkdir -p "$out"
	k1=$(q "select k.release from kernels k join runs r on r.kernel_id = k.id group by k.release order by min(r.id) limit 1")
	k2=$(q "select k.release from kernels k join runs r on r.kernel_id = k.id group by k.release order by min(r.id) limit 1 offset 1")
	s1=$(q "select scheduler from cells where scheduler is not null group by scheduler order by min(id) limit 1")
	s2=$(q "select scheduler from cells where scheduler is not null group by scheduler order by min(id) limit 1 offset 1")
	d1=$(q "select d.name from devices d join cells c on c.device_id = d.id group by d.name order by min(c.id) limit 1")
	for f in "${formats[@]}"; do
		local o=()
		[ "$f" = kcidb ] && o=(--origin ci)
		if want all; then
			one "$out" "report.$f" report --format "$f" "${o[@]}"
			one "$out" "alerts.$f" report --format "$f" "${o[@]}" --alerts
			one "$out" "metric_all.$f" report --format "$f" "${o[@]}" --metric all
			[ -z "$k1" ] || one "$out" "baseline.$f" report --format "$f" "${o[@]}" --baseline "$k1"
			[ -z "$k2" ] || one "$out" "check.$f" check --baseline "$k1" --candidate "$k2" --format "$f" "${o[@]}"
			[ -z "$s2" ] || one "$out" "compare.$f" compare --by scheduler "$s1" "$s2" --format "$f" "${o[@]}"
		fi
		if want filters; then   # the view: one device, one kernel, one device against a baseline
			[ -z "$d1" ] || one "$out" "device.$f" report --format "$f" "${o[@]}" --device "$d1"
			[ -z "$k2" ] || one "$out" "kernel.$f" report --format "$f" "${o[@]}" --kernel "$k2"
			[ -z "$d1" ] || [ -z "$k1" ] ||
				one "$out" "device_baseline.$f" report --format "$f" "${o[@]}" --device "$d1" --baseline "$k1"
		fi
	done
}

write() {
	local bin dbdir=$2 outdir=$3
	bin=$(realpath "$1")
	mkdir -p "$outdir"
	# two databases at a time (IOR_JOBS), each its own process
	find "$dbdir" -maxdepth 1 -name '*.db' -print0 | sort -z |
		xargs -0 -n 1 -P "${IOR_JOBS:-2}" "$0" write-db "$bin" "$outdir"
	# the same binary twice gives the same bytes (else a difference below would mean nothing)
	local first again
	first=$(find "$dbdir" -maxdepth 1 -name '*.db' | sort | head -1)
	if [ -n "$first" ] && [ -f "$outdir/$(basename "$first" .db)/report.html.out" ]; then
		again=$(mktemp -d /tmp/ior-again.XXXXXX)
		db=$first
		one "$again" report.html report --format html
		cmp -s "$again/report.html.out" "$outdir/$(basename "$first" .db)/report.html.out" ||
			echo "warning: two writes of one binary differ ($first, html)" >&2
		rm -rf "$again"
	fi
	find "$outdir" -name '*.out' | wc -l | sed 's/$/ outputs written (each with its .err and .rc)/'
}

compare() {
	local old=$1 new=$2 n differ
	n=$(cd "$old" && find . -type f | wc -l)
	differ=$(diff -rq "$old" "$new" | wc -l) || true
	echo "$n files compared ($(cd "$old" && find . -name '*.out' | wc -l) outputs with their stderr and exit status), $differ differ"
	[ "$differ" = 0 ] || { diff -rq "$old" "$new" | head -40; return 1; }
}

case ${1:-} in
collect) [ $# -ge 2 ] || usage; collect "$2" "${3:-}" ;;
write) [ $# -eq 4 ] || usage; write "$2" "$3" "$4" ;;
write-db) [ $# -eq 4 ] || usage; write_db "$2" "$4" "$3" ;;
compare) [ $# -eq 3 ] || usage; compare "$2" "$3" ;;
*) usage ;;
esac
