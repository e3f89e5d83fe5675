#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Real-history bisect benchmark (not a test): copies the last N first-parent commits of a git repository
# the caller gives (any project whose own tool times a hot path), plants one slowdown at chosen positions
# in copies of that history, and bisects each copy with `ioregress bisect start` + `bisect run --build
# --measure --artifact` exactly as docs/bisecting.md documents, several times per position, plus a copy with
# nothing planted (the no-difference control). Prints per bisection: the answer (right / range holding
# the culprit / refused / wrong), builds, samples, wall time, the drift the answer reports and the load.
#
# usage: bench/real-bisect.sh --repo DIR --build CMD --measure CMD --artifact PATH --plant CMD
#            [--commits N] [--tip REV] [--positions "P1 P2 P3"] [--runs R] [--control-runs C]
#            [--scenarios "pos:P ... control"] [--lower-is-better] [--work DIR] [--cap N] [--lock FILE]
# --repo is read only: the copies live in a clone under --work (default a new /tmp/real-bisect.XXXXXX).
# --build, --measure run in the clone's work tree, as `bisect run` runs them; --artifact is a path relative to
# it, as bisect run takes it. --plant runs in the work tree holding a commit's files and must change them (the same
# change is re-applied to every later commit of the copy; the script stops when it changes nothing).
# --lock FILE holds FILE (flock) over each bisection only, so its timings do not overlap another user's qemu
# boots or bisections that take the same lock; the histories are written outside it.
# Nothing here knows the project: what to build, measure and plant is the caller's. The measure must time the
# build of the commit it is run for: checking a commit out leaves untracked build output as the last build made
# it; `bisect run --artifact` puts each commit's own artifact back before measuring it (ioregress since
# 394bd2a); with an older one, have the measure run the build kept for $IOREGRESS_COMMIT.
#
# What ran for issue #21 (lz4, from `fetch github:lz4/lz4`; none of lz4's code is in this repository). Three
# helper scripts of the caller's, all small:
#   plant.sh 4   awk puts a block of our own before the line `/* end of decoding */` in lib/lz4.c (the end of
#                LZ4_decompress_generic, unchanged over these 56 commits): a loop over the bytes just decoded,
#                every 4th byte, h = h * 2654435761 + byte, the result stored to a static volatile (a
#                dependent multiply chain, a cost proportional to the bytes decoded).
#   build.sh     make -C programs lz4 (ccache gcc, nice 5); the binary kept by tree hash and copied back when a
#                tree was built before.
#   measure.sh LZ4 FILE 5   5 runs of `LZ4 -d -c -q FILE >/dev/null`, one line each: the run's CPU seconds, user +
#                system, from bash's `times`. FILE: 4 copies of a 16 MB tar of /usr/include (64 MB), compressed
#                by lz4 with --no-frame-crc (16 MB). One run is ~0.2 s of CPU.
# The plant's cost in that measure, planted tip against plain tip (d9c01a3d), 16 rounds alternated, each side
# the median of 5 runs: ratio median 1.116 (95% interval of the median 1.102-1.148), load 4.3-5.1.
#   bench/real-bisect.sh --repo lz4 --tip d9c01a3d --commits 56 --positions "9 28 46" --runs 3 \
#     --plant 'sh plant.sh 4' --build ./build.sh --measure 'measure.sh ./programs/lz4 data.lz4 5' \
#     --artifact programs/lz4 --lower-is-better
# (lz4's asynchronous-I/O change 7646135d, just before this range, makes `lz4 -d` 1.4-1.7x slower: keep it
# out of the range.)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)

repo="" build="" measure="" artifact="" plant="" tip=HEAD commits=56 positions="" runs=3 control_runs=1
scenarios="" lower="" work="" cap="" lock=""
while [ $# -gt 0 ]; do
	case "$1" in
	--repo) repo=$2; shift 2 ;;
	--build) build=$2; shift 2 ;;
	--measure) measure=$2; shift 2 ;;
	--artifact) artifact=$2; shift 2 ;;
	--plant) plant=$2; shift 2 ;;
	--tip) tip=$2; shift 2 ;;
	--commits) commits=$2; shift 2 ;;
	--positions) positions=$2; shift 2 ;;
	--runs) runs=$2; shift 2 ;;
	--control-runs) control_runs=$2; shift 2 ;;
	--scenarios) scenarios=$2; shift 2 ;;
	--lower-is-better) lower=--lower-is-better; shift ;;
	--work) work=$2; shift 2 ;;
	--cap) cap=$2; shift 2 ;;
	--lock) lock=$2; shift 2 ;;
	*) echo "error: unknown argument '$1'" >&2; exit 2 ;;
	esac
done
for v in repo build measure artifact plant; do
	[ -n "${!v}" ] || { echo "error: --$v is required (see the usage at the top of $0)" >&2; exit 2; }
done
git -C "$repo" rev-parse -q --verify "$tip^{commit}" >/dev/null || { echo "error: no commit '$tip' in '$repo'" >&2; exit 2; }
[ -z "$positions" ] && positions="$((commits / 6)) $((commits / 2)) $((commits * 5 / 6))"
if [ -z "$scenarios" ]; then
	# round robin: every position gets its first bisection before any gets its second
	for r in $(seq 1 "$runs"); do
		for p in $positions; do scenarios="$scenarios pos:$p"; done
		[ "$r" -le "$control_runs" ] && scenarios="$scenarios control"
	done
fi
ior=${IOREGRESS:-$here/build/harness/ioregress}
[ -x "$ior" ] || { echo "error: no ioregress at '$ior' (build first, or set IOREGRESS)" >&2; exit 2; }
[ -n "$work" ] || work=$(mktemp -d /tmp/real-bisect.XXXXXX)
mkdir -p "$work"
tree=$work/tree
out=$work/logs
mkdir -p "$out"
g() { git -C "$tree" -c user.name=bench -c user.email=bench@ioregress -c advice.detachedHead=false "$@"; }
[ -d "$tree/.git" ] || git clone -q --no-checkout "$repo" "$tree"
mapfile -t list < <(g rev-list --first-parent --reverse -n "$commits" "$tip")
[ "${#list[@]}" = "$commits" ] || { echo "error: '$tip' has only ${#list[@]} first-parent commits" >&2; exit 2; }

# planted_tree SHA: the tree of SHA's files with the plant applied (the script stops when it changes nothing).
# The plant runs in a scratch checkout with its own index, so build products a bisection left in the work
# tree never end up in a planted commit.
planted_tree() {
	local pt=$work/plant-tree
	rm -rf "$pt" && mkdir -p "$pt"
	GIT_INDEX_FILE=$work/plant.index g --work-tree="$pt" read-tree --reset -u "$1^{tree}"
	(cd "$pt" && sh -c "$plant") || { echo "error: --plant failed on ${1:0:12}" >&2; return 1; }
	GIT_INDEX_FILE=$work/plant.index g --work-tree="$pt" add -A
	if GIT_INDEX_FILE=$work/plant.index g --work-tree="$pt" diff --cached --quiet "$1"; then
		echo "error: --plant changed nothing on ${1:0:12}" >&2
		return 1
	fi
	GIT_INDEX_FILE=$work/plant.index g --work-tree="$pt" write-tree
}

# copy_commit SHA PARENT [planted]: a commit with SHA's files (the plant applied when asked), message and
# author on PARENT; prints the new sha
copy_commit() {
	local t
	if [ "${3:-}" = planted ]; then t=$(planted_tree "$1"); else t=$(g rev-parse "$1^{tree}"); fi
	g log -1 --format=%B "$1" | GIT_AUTHOR_NAME=$(g log -1 --format=%an "$1") GIT_AUTHOR_EMAIL=$(g log -1 --format=%ae "$1") \
		GIT_AUTHOR_DATE=$(g log -1 --format=%aI "$1") g commit-tree "$t" -p "$2"
}

# history POS: a linear copy of the commits after the good end, the slowdown planted as its own commit
# before the copy of list[POS] (0: nothing planted), kept as branch bench-posPOS or bench-control; prints
# the planted commit's sha or "-"
history() {
	local pos=$1 branch prev i planted=- mode=""
	branch=bench-pos$pos
	[ "$pos" = 0 ] && branch=bench-control
	if g rev-parse -q --verify "refs/heads/$branch" >/dev/null; then
		g log --format=%H --grep='^planted slowdown' -1 "$branch" | grep . || echo -
		return
	fi
	prev=${list[0]}
	for ((i = 1; i < commits; i++)); do
		if [ "$i" = "$pos" ]; then
			prev=$(echo "planted slowdown (bench/real-bisect.sh)" | g commit-tree "$(planted_tree "$prev")" -p "$prev")
			planted=$prev
			mode=planted
		fi
		prev=$(copy_commit "${list[$i]}" "$prev" $mode)
	done
	g update-ref "refs/heads/$branch" "$prev"
	echo "$planted"
}

g checkout -q -f --detach "${list[0]}"
echo "# real-history bisect: $commits first-parent commits of $(git -C "$repo" rev-parse --short "$tip") in $repo (good end ${list[0]:0:12}), nproc $(nproc)"
echo "# build: $build"
echo "# measure: $measure"
echo "# artifact: $artifact; plant: $plant"
printf '%-12s %3s %-12s %-12s %-22s %6s %7s %6s %6s %7s %-16s %s\n' scenario run planted answer verdict builds samples wall_s noise drift load_start load_end
declare -A seen
for sc in $scenarios; do
	pos=0
	[ "${sc#pos:}" != "$sc" ] && pos=${sc#pos:}
	planted=$(history "$pos")
	bad=$(g rev-parse "refs/heads/bench-${sc/:/}")
	seen[$sc]=$(( ${seen[$sc]:-0} + 1 ))
	run=${seen[$sc]}
	db=$out/${sc/:/}-$run.db
	rm -f "$db"
	g checkout -q -f --detach "${list[0]}"
	if [ -n "$lock" ]; then exec 9>"$lock"; flock 9; fi
	"$ior" --db "$db" bisect start --repo "$tree" --good "${list[0]}" --bad "$bad" $lower >"$out/${sc/:/}-$run.start" 2>&1
	load0=$(cut -d' ' -f1-3 /proc/loadavg)
	t0=$(date +%s)
	set +e
	"$ior" --db "$db" bisect run --build "$build" --measure "$measure" --artifact "$artifact" ${cap:+--cap "$cap"} \
		>"$out/${sc/:/}-$run.out" 2>"$out/${sc/:/}-$run.err"
	rc=$?
	set -e
	wall=$(($(date +%s) - t0))
	load1=$(cut -d' ' -f1-3 /proc/loadavg)
	"$ior" --db "$db" bisect log >"$out/${sc/:/}-$run.log" 2>/dev/null || true
	"$ior" --db "$db" bisect reset >/dev/null 2>&1 || true
	if [ -n "$lock" ]; then flock -u 9; exec 9>&-; fi
	o=$out/${sc/:/}-$run.out
	counts=$(grep -o '[0-9]* build(s), [0-9]* measurement(s), [0-9]* sample(s)' "$o" | tail -1 || true)
	builds=$(echo "${counts:-? ? ? ? ?}" | awk '{print $1}')
	samples=$(echo "${counts:-? ? ? ? ?}" | awk '{print $5}')
	drift=$(grep -o 'drift [0-9.]*%' "$o" | tail -1 | awk '{print $2}' || true)
	noise=$(grep -o 'noise [0-9.]*%' "$o" | tail -1 | awk '{print $2}' || true)
	answer=$(sed -n 's/^first bad commit: \([0-9a-f]*\).*/\1/p' "$o" | head -1)
	case $rc in
	0) if [ "$planted" != - ] && [ "$answer" = "$planted" ]; then verdict=right; else verdict=WRONG; fi ;;
	3) answer=range:$(sed -n '/^no single culprit/,/^  commit /p' "$o" | grep -c '^  [0-9a-f]\{40\} ' || true)
	   if [ "$planted" = - ]; then verdict="range (no culprit)"
	   elif sed -n '/^no single culprit/,/^  commit /p' "$o" | grep -q "^  $planted "; then verdict="range holding culprit"
	   else verdict="RANGE WITHOUT CULPRIT"; fi ;;
	4) if [ "$planted" = - ]; then verdict="refused (right)"; else verdict=refused; fi ;;
	*) verdict="error($rc)" ;;
	esac
	printf '%-12s %3s %-12s %-12s %-22s %6s %7s %6s %6s %7s %-16s %s\n' "$sc" "$run" "${planted:0:12}" "${answer:0:12}" \
		"$verdict" "$builds" "$samples" "$wall" "${noise:--}" "${drift:--}" "$load0" "$load1"
done
echo "# logs and databases: $out"
