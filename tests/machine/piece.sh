#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Runs a long test (machine_kernel's build) as one piece of at most SECONDS: the command in a session of its own, the whole session ended after that time (make resumes where it stopped at the next piece).
#
# Usage: tests/machine/piece.sh SECONDS COMMAND [ARG]...
#   flock /tmp/ior-root-tests.lock tests/machine/piece.sh 1500 build/tests/test_machine_kernel
# (with IOR_BINARY, IOR_SOURCE_DIR and IOR_BUILD_DIR set as ctest sets them). Prints the start, the
# cut and the end with the load average; exits with the command's status, or 124 when it was cut.
set -uo pipefail

[ $# -ge 2 ] || { sed -n '/^# Usage:/,/^#$/p' "${BASH_SOURCE[0]}" >&2; exit 2; }
limit=$1
shift
load() { cut -d' ' -f1-3 /proc/loadavg; }
echo "piece: start $(date -u +%T), load $(load)"
setsid "$@" &
pid=$!
for ((i = 0; i < limit; i++)); do
	kill -0 "$pid" 2>/dev/null || break
	sleep 1
done
status=
if kill -0 "$pid" 2>/dev/null; then
	echo "piece: cut at $(date -u +%T), load $(load)"
	# the session the command leads: the test, its ioregress and qemu; make's group ends with ioregress
	kill -TERM -- "-$pid"
	sleep 15
	kill -KILL -- "-$pid" 2>/dev/null
	status=124
fi
wait "$pid"
rc=$?
echo "piece: end $(date -u +%T), status ${status:-$rc}, load $(load)"
exit "${status:-$rc}"
