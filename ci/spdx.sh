#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Adds the SPDX line to every tracked source file that lacks it, above the file's one-line
# description (after a shebang, or after scdoc's title line); ci/lint.sh checks the same files.
set -euo pipefail
cd "$(dirname "$0")/.."
spdx='SPDX-License-Identifier: GPL-2.0-or-later'
added=0
while IFS= read -r f; do
	case $f in
	*.scd) at=2 ;;
	*) at=1; case $(head -n 1 "$f") in '#!'*) at=2 ;; esac ;;
	esac
	case $(sed -n "${at}p" "$f") in *"$spdx"*) continue ;; esac
	case $f in
	*.c | *.h) line="/* $spdx */" ;;
	*.scd | *.ini) line="; $spdx" ;;
	*) line="# $spdx" ;;
	esac
	if [ "$at" = 1 ]; then
		sed -i "1i $line" "$f"
	else
		sed -i "1a $line" "$f"
	fi
	added=$((added + 1))
done < <(git ls-files -- '*.c' '*.h' '*CMakeLists.txt' '*.cmake' '*.sh' '.ci/run' '*.scd' 'matrix/examples/*.ini')
echo "spdx: added to $added files"
