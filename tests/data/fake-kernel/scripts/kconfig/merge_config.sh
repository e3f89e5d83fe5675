#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A stand-in for the kernel's merge_config.sh -m -O DIR BASE FRAGMENT...: the fragments appended.
[ "$1" = -m ] && [ "$2" = -O ] || exit 1
out=$3 base=$4
shift 4
echo merge_config >> "$out/targets.log"
cat "$base" "$@" > "$out/.config.merged" && mv "$out/.config.merged" "$out/.config"
