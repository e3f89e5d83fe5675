#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The README's first command: install, build, and run the built-in default matrix on a scratch
# loop device (no real disk is touched), then print the report.
set -euo pipefail
cd "$(dirname "$0")/.."
[ "$(id -u)" -eq 0 ] || { echo "error: quickstart needs root (loop devices, sysfs schedulers)" >&2; exit 1; }
bash ci/setup.sh
bash ci/build.sh release
db=${IOREGRESS_DB:-./ioregress.db}
./build/harness/ioregress run --db "$db"
./build/harness/ioregress report --db "$db"
