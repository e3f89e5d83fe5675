#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Bisects a real kernel tree in one command under qemu: a history of small commits over Debian's
# linux-source-6.1 (comment edits, which compile to byte-identical images, and neutral code edits)
# with one planted block-layer slowdown (a 2 ms delay per request in virtio-blk), bisected with
# `ioregress bisect start --kernel` + `bisect run` at several culprit positions and once with no
# slowdown at all (the control, which must be refused). Prints wall time, builds, boots, samples
# and the answer per scenario, side by side.
#
# usage: [IOREGRESS=build/harness/ioregress] bench/kernel-bisect.sh [--work DIR] [--build-dir DIR] [--commits N]
#                               [--positions "P1 P2 P3"] [--no-control] [--scenarios "pos:5 pos:12 control"]
#                               [--lock FILE] [--preflight] [--keep] [--prebuild]
# The work directory holds the tree (unpacked from /usr/src/linux-source-6.1.tar.xz once and made a
# git repository tagged v6.1-debian, as tests/test_kernel_real.c does) and the build directory
# (WORK/build unless --build-dir names one already built: then only what a commit changes compiles);
# every build runs under nice -n 19. --lock FILE holds FILE (flock) over each scenario only, so
# others may boot between scenarios; the tree is back on the ref it was on before the lock is let go.
# --preflight checks what the table relies on, before the long runs: an in-place comment edit in a
# .c file builds the tag's image byte for byte, and the planted slowdown shows in the guest's
# measure (one vm run, two boots each of the tag's and the planted image, interleaved). --keep bisects
# a scenario's history (branch bench-SCENARIO) written by an earlier run instead of writing a new one,
# so commits built before (their images cached) are reused. --prebuild builds, before taking the lock, the
# commits a right bisection of the scenario asks for (the ends, then git bisect's halfway picks toward the
# plant: the same picks bisect/graph.c makes), so the lock is held over boots and cached builds only; each
# build's wall time, CPU seconds and load go to OUT/BRANCH.prebuild and a summary line to stderr.
set -euo pipefail
cd "$(dirname "$0")/.."

work=/var/tmp/ioregress-kernel
build=""
commits=20
positions="4 11 17"
control=1
scenarios=""
lock=""
preflight=0
keep=0
prebuild=0
while [ $# -gt 0 ]; do
  case "$1" in
    --work) work=$2; shift 2 ;;
    --build-dir) build=$2; shift 2 ;;
    --commits) commits=$2; shift 2 ;;
    --positions) positions=$2; shift 2 ;;
    --no-control) control=0; shift ;;
    --scenarios) scenarios=$2; shift 2 ;;
    --lock) lock=$2; shift 2 ;;
    --preflight) preflight=1; shift ;;
    --keep) keep=1; shift ;;
    --prebuild) prebuild=1; shift ;;
    *) echo "error: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
if [ -z "$scenarios" ]; then
  for p in $positions; do scenarios="$scenarios pos:$p"; done
  [ "$control" = 1 ] && scenarios="$scenarios control"
fi

ior=${IOREGRESS:-$PWD/build/harness/ioregress}
[ -x "$ior" ] || { echo "error: no ioregress at '$ior' (build first, or set IOREGRESS)" >&2; exit 2; }
tree=$work/linux-source-6.1
build=${build:-$work/build}
matrix=$PWD/tests/data/vm-bisect.ini
out=$(mktemp -d /tmp/kernel-bisect.XXXXXX)
g() { git -C "$tree" -c user.name=bench -c user.email=bench@ioregress "$@"; }
nice=19
# The lock over one scenario (fd 9), and the tree put back on the ref it was on before letting go.
# (To leave a shared tree and build directory alone, run the script in a mount namespace over copies made
# with cp -a, bound over the same paths (make O= rebuilds everything when either path changes):
# unshare -m sh -c 'mount --bind TREECOPY TREE && mount --bind BUILDCOPY BUILD && bench/kernel-bisect.sh ...'.)
home=""
hold() { if [ -n "$lock" ]; then exec 9>"$lock"; flock 9; fi; }
release() { g checkout -q -f "$home"; home=""; if [ -n "$lock" ]; then flock -u 9; exec 9>&-; fi; }
trap '[ -z "$home" ] || g checkout -q -f "$home"' EXIT
load() { cut -d' ' -f1-3 /proc/loadavg | tr ' ' /; }

if [ ! -d "$tree/.git" ]; then
  mkdir -p "$work"
  nice -n 15 tar xJf /usr/src/linux-source-6.1.tar.xz -C "$work"
  g init -q && nice -n 15 git -C "$tree" add -f -A . && g commit -qm "linux-source-6.1" && g tag -am v6.1-debian v6.1-debian
fi

# One commit of the history: i == culprit plants the slowdown; every fourth commit changes code
# without changing speed (a line more in genhd_device_init shifts genhd.c's WARN lines: a new
# image); the others edit a comment in place (same line count: a byte-identical image).
files=(block/blk-core.c block/blk-merge.c block/elevator.c block/bio.c block/blk-mq.c block/blk-settings.c)
commit_one() {
  local i=$1 culprit=$2
  if [ "$i" = "$culprit" ]; then
    awk '/^static blk_status_t virtblk_prep_rq\(/ { f = 1 }
         { print }
         /^#include <linux\/blkdev.h>$/ { print "#include <linux/delay.h>" }
         f && /^\tint num;$/ { print "\tudelay(2000); /* planted: 2 ms per request */"; f = 0 }' \
      "$tree/drivers/block/virtio_blk.c" > "$out/vb.c" && mv "$out/vb.c" "$tree/drivers/block/virtio_blk.c"
    grep -q 'planted: 2 ms' "$tree/drivers/block/virtio_blk.c" || { echo "error: the plant did not apply to virtio_blk.c" >&2; exit 1; }
    g commit -qam "virtio_blk: wait 2 ms before each request (the planted slowdown)"
  elif [ $((i % 4)) = 0 ]; then
    awk -v i="$i" '{ print } prev && /^\{$/ { print "\tbarrier(); /* bench " i " */" }
         { prev = ($0 == "static int __init genhd_device_init(void)") }' \
      "$tree/block/genhd.c" > "$out/genhd.c" && mv "$out/genhd.c" "$tree/block/genhd.c"
    g commit -qam "block: neutral code change $i in genhd_device_init"
  else
    local f=${files[$((i % ${#files[@]}))]}
    local ln
    ln=$(grep -n -m1 '^ \* [A-Za-z]' "$tree/$f" | cut -d: -f1)   # not head -1: grep's SIGPIPE fails the pipeline under pipefail
    sed -i "${ln}s/\$/ ./" "$tree/$f"
    g commit -qam "block: comment edit $i in $f"
  fi
}

if [ "$preflight" = 1 ]; then   # builds outside the lock, the boots under it
  home=$(g symbolic-ref -q --short HEAD || g rev-parse HEAD)
  echo "preflight (load $(load))"
  g checkout -q -f v6.1-debian
  g branch -D bench-preflight >/dev/null 2>&1 || true
  g checkout -q -b bench-preflight
  kb() { "$ior" kernel build --tree "$tree" --build-dir "$build" --nice "$nice" 2>>"$out/preflight.err"; }
  base=$(g checkout -q v6.1-debian && kb)
  g checkout -q bench-preflight
  commit_one 1 0                      # an in-place comment edit in block/blk-merge.c
  t0=$(date +%s); edit=$(kb); te=$(( $(date +%s) - t0 ))
  commit_one 2 2                      # the plant
  t0=$(date +%s); plant=$(kb); tp=$(( $(date +%s) - t0 ))
  g checkout -q -f "$home"
  home=""
  if cmp -s "${base%%:*}" "${edit%%:*}"; then same="byte-identical"; else same="DIFFERENT"; fi
  echo "comment edit in blk-merge.c: built in $te s, image $same to the tag's"
  echo "plant: built in $tp s (load $(load))"
  cat "$out/preflight.err"
  [ -z "$lock" ] || { exec 9>"$lock"; flock 9; }
  echo "vm run, 2 boots each, interleaved (load $(load))"
  "$ior" --db "$out/preflight.db" vm run --accel tcg --boots 2 --matrix "$matrix" "$base" "$plant" 2>&1 | tail -25
  echo "preflight done (load $(load))"
  exit 0
fi

printf '%-10s %8s %7s %6s %8s %-12s %-12s %-14s %s\n' scenario wall_s builds boots samples planted answer verdict "cpu_s load(before->after)"
for sc in $scenarios; do
  home=$(g symbolic-ref -q --short HEAD || g rev-parse HEAD)
  culprit=0
  [ "${sc#pos:}" != "$sc" ] && culprit=${sc#pos:}
  branch=bench-$sc
  branch=${branch//:/-}
  if [ "$keep" = 0 ] || ! g rev-parse -q --verify "$branch" >/dev/null; then
    g checkout -q -f v6.1-debian
    g branch -D "$branch" >/dev/null 2>&1 || true
    g checkout -q -b "$branch"
    for i in $(seq 1 "$commits"); do commit_one "$i" "$culprit"; done
  fi
  planted=-
  [ "$culprit" != 0 ] && planted=$(g log --format=%h -1 --grep='planted slowdown' "$branch")
  if [ "$prebuild" = 1 ]; then   # outside the lock: the commits a right bisection visits, by git bisect's halfway rule
    lo=0 hi=$commits picks="0 $commits"
    while [ "$culprit" != 0 ] && [ $((hi - lo)) -gt 1 ]; do
      mid=$(( lo + (hi - lo) / 2 ))
      picks="$picks $mid"
      if [ "$mid" -ge "$culprit" ]; then hi=$mid; else lo=$mid; fi
    done
    pb0=$(date +%s) pbl=$(load)
    for p in $picks; do
      g checkout -q -f "$branch~$((commits - p))"
      t0=$(date +%s)
      /usr/bin/time -a -o "$out/$branch.prebuild-cpu" -f "%U %S" "$ior" kernel build --tree "$tree" --build-dir "$build" \
        --nice "$nice" >/dev/null 2>>"$out/$branch.prebuild" || true   # the bisection skips a failed build
      echo "commit $p: wall $(( $(date +%s) - t0 )) s, cpu $(tail -1 "$out/$branch.prebuild-cpu"), load $(load)" >>"$out/$branch.prebuild"
    done
    pbcpu=$(awk '/^[0-9.]+ [0-9.]+$/ { s += $1 + $2 } END { printf "%.0f", s }' "$out/$branch.prebuild-cpu")
    echo "$sc prebuild: commits $picks, wall $(( $(date +%s) - pb0 )) s, cpu $pbcpu s, load $pbl->$(load)" >&2
  fi
  g checkout -q -f v6.1-debian
  db=$out/$branch.db
  hold   # the history is written; the bisection (builds and boots) runs under the lock
  "$ior" --db "$db" bisect start --repo "$tree" --good v6.1-debian --bad "$branch" --kernel \
    --build-dir "$build" --nice "$nice" >"$out/$branch.start" 2>&1
  before=$(load)
  t0=$(date +%s)
  set +e
  /usr/bin/time -o "$out/$branch.time" -f '%U %S' "$ior" --db "$db" bisect run --matrix "$matrix" >"$out/$branch.out" 2>"$out/$branch.err"
  rc=$?
  set -e
  wall=$(( $(date +%s) - t0 ))
  after=$(load)
  cpu=$(awk '{ printf "%.0f", $1 + $2 }' "$out/$branch.time" 2>/dev/null || echo '?')
  "$ior" --db "$db" bisect reset >/dev/null 2>&1 || true
  release
  counts=$(grep -o '[0-9]* build(s), [0-9]* measurement(s), [0-9]* sample(s)' "$out/$branch.out" || echo "? ? ?")
  builds=$(echo "$counts" | awk '{print $1}')
  samples=$(echo "$counts" | awk '{print $5}')
  boots=$(sqlite3 "$db" "SELECT count(*) FROM vm_boots" 2>/dev/null || echo '?')
  answer=$(sed -n 's/^first bad commit: \([0-9a-f]\{12\}\).*/\1/p' "$out/$branch.out" | head -1)
  case $rc in
    0) verdict=found ;; 3) verdict=range ;; 4) verdict=refused ;; *) verdict="error($rc)" ;;
  esac
  if [ "$verdict" = found ] && [ "$planted" != - ]; then
    [ "${answer:0:7}" = "${planted:0:7}" ] && verdict="found: right" || verdict="found: WRONG"
  fi
  printf '%-10s %8s %7s %6s %8s %-12s %-12s %-14s %s %s->%s\n' "$sc" "$wall" "$builds" "$boots" "$samples" "$planted" \
    "${answer:0:12}" "$verdict" "$cpu" "$before" "$after"
done
echo "logs: $out"
