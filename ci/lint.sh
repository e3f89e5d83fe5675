#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Runs shellcheck on every shell script of the project (ci/, bench/, tests/, .ci/ and the generated
# bash completion when it is built), checks the layering (ci/layers.sh) and each source file's SPDX
# line: no finding is allowed.
set -euo pipefail
cd "$(dirname "$0")/.."
status=0

mapfile -t scripts < <(git ls-files -- 'ci/*.sh' 'bench/*.sh' 'tests/*.sh' '.ci/run')
# -x with paths from the top: bench scripts source bench/lib.sh (their source= directives).
shellcheck --shell=bash --severity=style -x "${scripts[@]}" || status=1
completion=build/completion/ioregress
if [ -f "$completion" ]; then
	shellcheck --shell=bash --severity=style "$completion" || status=1
	scripts+=("$completion")
fi
echo "shellcheck: ${#scripts[@]} scripts"

# The layering: includes, CMake links and the order modules are added in, against ci/layers.
bash ci/layers.sh || status=1

# The licence line sits above each file's one-line description: line 1, or line 2 after a
# shebang or scdoc's title line.
spdx='SPDX-License-Identifier: GPL-2.0-or-later'
missing=0
while IFS= read -r f; do
	case $f in
	*.scd) line=$(sed -n 2p "$f") ;;
	*) line=$(head -n 1 "$f"); case $line in '#!'*) line=$(sed -n 2p "$f") ;; esac ;;
	esac
	case $line in
	*"$spdx"*) ;;
	*) echo "$f: no '$spdx' line at the top" >&2; missing=$((missing + 1)) ;;
	esac
done < <(git ls-files -- '*.c' '*.h' '*CMakeLists.txt' '*.cmake' '*.sh' '.ci/run' '*.scd' 'matrix/examples/*.ini')
if [ "$missing" -gt 0 ]; then
	echo "spdx: $missing files without the SPDX line (bash ci/spdx.sh adds it)" >&2
	status=1
fi
exit $status
