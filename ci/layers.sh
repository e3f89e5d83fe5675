#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Checks the layering against ci/layers: includes, CMake LINK lists and the order modules are added in.
# Usage: ci/layers.sh [SOURCE_ROOT]. Lists every upward or sideways arrow as file:line and exits 1.
set -euo pipefail
root=${1:-"$(cd "$(dirname "$0")/.." && pwd)"}
map="$root/ci/layers"
[ -f "$map" ] || { echo "layers: no layer map '$map'" >&2; exit 2; }

# The map, in order: folder -> direct arrows.
declare -A deps=() reach=()
order=()
while IFS= read -r line; do
	line=${line%%#*}
	[ -n "${line//[[:space:]]/}" ] || continue
	folder=${line%%:*}
	folder=${folder//[[:space:]]/}
	order+=("$folder")
	deps[$folder]=${line#*:}
done < "$map"

# What each folder may reach: its arrows and theirs. The map lists lower folders first, so
# theirs are known when a folder is read; an arrow to a folder not above it is an error itself.
status=0
for f in "${order[@]}"; do
	r=" $f "
	for d in ${deps[$f]}; do
		if [ -z "${reach[$d]+set}" ]; then
			echo "$map: '$f' lists '$d', which the map does not list before it" >&2
			status=1
			continue
		fi
		r+="${reach[$d]} "
	done
	# shellcheck disable=SC2086 # r is a word list on purpose
	reach[$f]=" $(printf '%s\n' $r | sort -u | tr '\n' ' ')"
done

allowed() { case "${reach[$1]}" in *" $2 "*) return 0 ;; esac; return 1; }

# Includes: a quoted "folder/file.h" naming a module folder must be one the including folder reaches
# (every .c and .h under the folder, subfolders too);
# tests/ and bench/ sit above everything, and only they may include tests/.
bad=0
for f in "${order[@]}"; do
	[ -d "$root/$f" ] || { echo "$map: no folder '$f' in '$root'" >&2; status=1; continue; }
	while IFS=: read -r file lineno target; do
		to=${target%%/*}
		if [ -n "${reach[$to]+set}" ] || [ "$to" = tests ] || [ "$to" = bench ]; then
			if ! allowed "$f" "$to"; then
				echo "${file#"$root"/}:$lineno: '$f' may not include '$target' (it reaches:${reach[$f]% })" >&2
				bad=$((bad + 1))
			fi
		fi
	done < <(grep -rHo -n --include='*.[ch]' '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[a-z_]*/[^"]*"' "$root/$f" 2>/dev/null |
		 sed -E 's/:[[:space:]]*#[[:space:]]*include[[:space:]]*"/:/; s/"$//')
done

# CMake: a module links only modules its folder reaches; modules are added after what they link.
declare -A added=()
while IFS= read -r f; do
	added[$f]=1
	cm="$root/$f/CMakeLists.txt"
	if [ -z "${reach[$f]+set}" ] || [ ! -f "$cm" ]; then
		continue
	fi
	for lib in $(tr '\n' ' ' < "$cm" | grep -o 'ior_module([^)]*)' | grep -o '\bior_[a-z]*' | tail -n +2); do
		to=${lib#ior_}
		[ -n "${reach[$to]+set}" ] || continue
		if ! allowed "$f" "$to"; then
			echo "${cm#"$root"/}: '$f' may not link '$lib'" >&2
			bad=$((bad + 1))
		elif [ -z "${added[$to]+set}" ]; then
			echo "CMakeLists.txt: '$f' is added before '$to', which it links (add modules lowest first, as ci/layers)" >&2
			bad=$((bad + 1))
		fi
	done
done < <(grep -o '^add_subdirectory([a-z_]*)' "$root/CMakeLists.txt" | sed 's/add_subdirectory(//; s/)//')

if [ "$bad" -gt 0 ]; then
	echo "layers: $bad arrows against the layer map (ci/layers)" >&2
	status=1
fi
[ "$status" -ne 0 ] || echo "layers: ${#order[@]} modules, every include and link goes down the map"
exit $status
