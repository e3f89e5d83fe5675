#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The CI templates' verdict step: check's own exit status is the step's (pipefail through tee: a
# pipe into tee used to make the step green whatever the verdict), and what 125 (inconclusive)
# does is a declared choice, ON_INCONCLUSIVE:
#   fail   (the default) the step fails with 125: the data could not decide, someone looks
#   warn   the step passes with a warning line; the report says which cells were not told apart
#   rerun  boot the kernels RERUN_BOOTS more times each (default 3, interleaved, into the same
#          database) and judge again once; the second verdict's status is the step's
# Usage: ci/verdict.sh DB BASELINE CANDIDATE [REPORT_FILE]
# Environment: IOREGRESS (default build/harness/ioregress), ON_INCONCLUSIVE, RERUN_BOOTS, and for
# rerun RERUN_ARGS: vm run's arguments after --boots (e.g. "--matrix matrix/examples/vm.ini
# --guest-host ci-vm KERNEL_A KERNEL_B").
# On GitHub Actions (GITHUB_ACTIONS=true) the markdown report of the two kernels goes to the job's
# summary page ($GITHUB_STEP_SUMMARY) and each regression is one ::error:: annotation, so a failed
# verdict says more than its exit code.
set -euo pipefail
[ $# -ge 3 ] || { echo "usage: ci/verdict.sh DB BASELINE CANDIDATE [REPORT_FILE]" >&2; exit 2; }
db=$1 baseline=$2 candidate=$3 out=${4:-/dev/null}
ior=${IOREGRESS:-build/harness/ioregress}
choice=${ON_INCONCLUSIVE:-fail}
case $choice in
fail | warn | rerun) ;;
*) echo "error: ON_INCONCLUSIVE: '$choice' is not fail, warn or rerun" >&2; exit 2 ;;
esac

last=$(mktemp)
trap 'rm -f "$last"' EXIT

judge() {
	local status=0
	: >"$last"
	"$ior" --db "$db" check --baseline "$baseline" --candidate "$candidate" | tee -a "$out" "$last" || status=$?
	return "$status"
}

# One annotation per regressed row of check's table (host device scheduler engine metric, then the
# verdict): its key and the verdict's first clause, '%' escaped as the workflow command wants.
annotate() {
	awk '/ regression: / {
		msg = substr($0, index($0, "regression: "))
		cut = index(msg, ", Welch")
		if (cut) msg = substr(msg, 1, cut - 1)
		line = $1 " " $2 " " $3 " " $4 " " $5 ": " msg
		gsub(/%/, "%25", line)
		print "::error title=ioregress regression::" line
	}' "$last"
}

github() {
	[ "${GITHUB_ACTIONS:-}" = true ] || return 0
	if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
		"$ior" --db "$db" report --format md --baseline "$baseline" --candidate "$candidate" >>"$GITHUB_STEP_SUMMARY" ||
			echo "the markdown report exited $? (the verdict above stands)"
	fi
	annotate
}

status=0
judge || status=$?
if [ "$status" -eq 125 ] && [ "$choice" = rerun ]; then
	read -r -a args <<<"${RERUN_ARGS:?rerun needs RERUN_ARGS, the vm run arguments after --boots}"
	echo "verdict: inconclusive (125); booting each kernel ${RERUN_BOOTS:-3} more times and judging again"
	"$ior" --db "$db" vm run --boots "${RERUN_BOOTS:-3}" "${args[@]}" || echo "vm run exited $? (recorded; judged below)"
	status=0
	judge || status=$?
fi
github
if [ "$status" -eq 125 ] && [ "$choice" = warn ]; then
	echo "warning: verdict inconclusive (125): the report names the cells not told apart; ON_INCONCLUSIVE=warn passes the step"
	status=0
fi
exit "$status"
