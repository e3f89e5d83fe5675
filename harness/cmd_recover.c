/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `ioregress recover`: undo what killed runs changed on this machine, from the database's journal. */
#include "bisect/artifact.h"
#include "common/error.h"
#include "harness/command_list.h"
#include "run/recover.h"

#include <stdio.h>

static int cmd_recover(int argc, char **argv, struct ior_cmd_ctx *ctx)
{
	struct ior_cmd_parsed p;
	int status = ior_cmd_parse_or_usage(&ior_cmd_recover, argc, argv, NULL, &p);
	if (status)
		return status;
	struct ior_recover_summary s;
	ior_error_clear();
	int rc = ior_recover(ctx->db, stdout, &s);
	printf("recover: %u changes undone, %u left to live runs, %u failed; %u runs marked interrupted\n", s.undone,
	       s.skipped_live, s.failed, s.runs_marked);
	/* a bisection killed with SIGKILL leaves its store of artifact copies under $TMPDIR */
	size_t stores = 0;
	int src = ior_bisect_artifact_stores_clean(&stores);
	if (!src && stores)
		printf("recover: removed %zu bisect artifact store(s) left by killed runs\n", stores);
	else if (src)
		fprintf(stderr, "warning: %s\n", ior_error_last());
	if (rc) {
		ior_cmd_error("recovery incomplete");
		return 1;
	}
	return 0;
}

const struct ior_command ior_cmd_recover = {
	.name = "recover",
	.fn = cmd_recover,
	.flags = IOR_CMD_NEEDS_DB | IOR_CMD_NEEDS_ROOT,
	.error_status = 1,
	.summary = "undo what killed runs changed: schedulers, loop devices, mounts, scratch files",
	.description = "A run journals every change before it makes it. After a SIGKILL or a power loss this "
		       "puts back each scheduler, detaches loop devices, unmounts, removes scratch files and "
		       "unloads modules of runs whose process is gone, and marks those runs interrupted; it also removes "
		       "the stores of artifact copies (under $TMPDIR) that killed bisections left. "
		       "Then 'ioregress run --resume RUN_ID' measures exactly the missing repetitions.",
	.options = (const struct ior_cmd_opt[]){ { 0 } },
};
