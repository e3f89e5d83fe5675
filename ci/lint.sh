#!/usr/bin/env bash
# Runs shellcheck on every shell script of the project (ci/, bench/, tests/, .ci/): no finding is allowed.
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t scripts < <(git ls-files -- 'ci/*.sh' 'bench/*.sh' 'tests/*.sh' '.ci/run' 2>/dev/null ||
                       find ci bench tests .ci -name '*.sh' -o -name run -path '*/.ci/*')
# -x with paths from the top: bench scripts source bench/lib.sh (their source= directives).
shellcheck --shell=bash --severity=style -x "${scripts[@]}"
echo "shellcheck: ${#scripts[@]} scripts clean"
