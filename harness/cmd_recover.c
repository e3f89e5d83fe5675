/* `ioregress recover`: undo what killed runs changed on this machine, from the database's journal. */
#include "common/error.h"
#include "harness/commands.h"
#include "harness/recover.h"

#include <stdio.h>

int cmd_recover(int argc, char **argv, struct ior_cmd_ctx *ctx)
{
	if (argc > 1) {
		ior_error_clear();
		ior_cmd_error("'recover' takes no arguments, got '%s'", argv[1]);
		return 2;
	}
	struct ior_recover_summary s;
	ior_error_clear();
	int rc = ior_recover(ctx->db, stdout, &s);
	printf("recover: %u changes undone, %u left to live runs, %u failed; %u runs marked interrupted\n", s.undone,
	       s.skipped_live, s.failed, s.runs_marked);
	if (rc) {
		ior_cmd_error("recovery incomplete");
		return 1;
	}
	return 0;
}
