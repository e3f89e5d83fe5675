#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The README's second command: install, build normally and with ASan+UBSan and run the whole
# ctest suite on both builds, lint the scripts and SPDX lines, then build (only) every other build
# type and clang.
set -euo pipefail
cd "$(dirname "$0")/.."
bash ci/setup.sh
status=0
echo "== CI templates"
bash ci/lint-templates.sh || status=1
for kind in release sanitize; do
  bash ci/build.sh "$kind"
  dir=build; [ "$kind" = sanitize ] && dir=build-asan
  echo "== ctest ($kind build)"
  # detect_leaks stays on: a leak fails the suite. halt_on_error makes a UBSan report fatal.
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    ctest --test-dir "$dir" --output-on-failure --timeout 600 || status=1
done
echo "== lint (shellcheck, SPDX lines)"
bash ci/lint.sh || status=1
for kind in debug optimise minsize clang; do
  echo "== build only ($kind)"
  bash ci/build.sh "$kind" || status=1
done
exit $status
