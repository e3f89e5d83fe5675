#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The README's second command: install, build normally and with ASan+UBSan and run the whole
# ctest suite on both builds, lint the scripts and SPDX lines, then build (only) every other build
# type and clang. `ci/test.sh --quick`: one build (release) and the offline suites not labelled
# slow, for a change's first check; CI (.ci/run) runs the whole thing.
set -euo pipefail
cd "$(dirname "$0")/.."
quick=0
case "${1:-}" in
  '') ;;
  --quick) quick=1 ;;
  *) echo "error: unknown option '$1' (usage: ci/test.sh [--quick])" >&2; exit 2 ;;
esac
bash ci/setup.sh
jobs=$(nproc)
# detect_leaks stays on: a leak fails the suite. halt_on_error makes a UBSan report fatal.
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
# Suites run side by side (-j): offline ones share no machine state, and the root and vm suites
# hold the RESOURCE_LOCK tests/CMakeLists.txt gives them, so they still run one at a time.
if [ $quick = 1 ]; then
  bash ci/build.sh release
  echo "== ctest (release build, offline suites not labelled slow)"
  exec ctest --test-dir build --output-on-failure --timeout 600 -j"$jobs" -L offline -LE slow
fi
# CI has 90 minutes. This script keeps to IOR_CI_BUDGET seconds of them (default 4800: the rest is
# the runner's clone and set-up): every ctest call gets --stop-time at the budget's end, so a suite
# that overruns fails with its output instead of CI being cut off with none.
# The suites labelled machine or kernel (a guest image, guest boots under TCG, a kernel build; each
# says its CI_SECONDS in tests/CMakeLists.txt) run last, cheapest first, each only if its time fits
# what is left; the ones that do not fit are named at the end. machine_kernel (hours) never fits.
# The kernel suite (kernel_real) builds linux-source-6.1 with tinyconfig and boots it: cold on 2
# quiet cores (Dec 2, session 32) 562.6 s wall; IOR_TEST_KERNEL=0 leaves the kernel label out.
kernel=${IOR_TEST_KERNEL:-1}
budget=${IOR_CI_BUDGET:-4800}
end=$(( $(date +%s) + budget ))
stop_time=$(date -d "@$end" +%H:%M:%S)   # local time, the form ctest reads; an earlier clock time is tomorrow's
status=0
echo "== CI templates"
bash ci/lint-templates.sh || status=1
for kind in release sanitize; do
  bash ci/build.sh "$kind"
  dir=build; [ "$kind" = sanitize ] && dir=build-asan
  echo "== ctest ($kind build, $(( end - $(date +%s) )) s of the budget left)"
  # The sanitize build leaves out the slow offline suites too (bisect and bisect_drift: whole
  # bisections, about 16 min of ASan at load 10): the release build runs them.
  exclude=(-LE 'kernel|machine|slow')
  [ "$kind" = release ] && exclude=(-LE 'kernel|machine')
  ctest --test-dir "$dir" --output-on-failure --timeout 600 -j"$jobs" --stop-time "$stop_time" "${exclude[@]}" || status=1
done
echo "== lint (shellcheck, SPDX lines)"
bash ci/lint.sh || status=1
for kind in debug optimise minsize clang; do
  echo "== build only ($kind)"
  bash ci/build.sh "$kind" || status=1
done
echo "== long suites (release build): cheapest first, each if it fits the budget"
not_run=()
# The first suite of the machine label builds the test-bed image when its cache has none for this
# tests/machine/build-image.sh (mmdebstrap, 3-10 min): that suite's need counts it.
image=0
key=$(sha256sum tests/machine/build-image.sh | cut -c1-16)
[ -f "${IOR_MACHINE_CACHE:-/var/tmp/ioregress-machine}/$key/machine.env" ] || image=600
while read -r name seconds labels; do
  left=$(( end - $(date +%s) ))
  [[ ",$labels," == *,machine,* ]] && seconds=$(( seconds + image ))
  if [ "$kernel" = 0 ] && [[ ",$labels," == *,kernel,* ]]; then
    not_run+=("$name (IOR_TEST_KERNEL=0)")
  elif [ "$seconds" -gt "$left" ]; then
    not_run+=("$name (needs about $seconds s, $left s left)")
  else
    echo "-- $name: about $seconds s, $left s left"
    [[ ",$labels," == *,machine,* ]] && image=0
    ctest --test-dir build --output-on-failure --stop-time "$stop_time" -R "^$name\$" || status=1
  fi
done < <(grep -v '^#' build/tests/ci-long-suites.txt | sort -n -k2)
for s in "${not_run[@]}"; do
  echo "not run in this budget: $s"
done
exit $status
