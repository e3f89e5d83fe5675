/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `ioregress merge OUT.db IN.db...`: runs from other databases (a VM's, another host's, a CI job's)
 * into one, each input all or nothing. */
#include "common/error.h"
#include "db/db.h"
#include "harness/command_list.h"
#include "common/trust.h"

#include <stdio.h>

static void print_stats(const char *path, const struct ior_db_merge_stats *s)
{
	printf("%s: %zu runs added, %zu already present; %zu samples, %zu cells, %zu VM boots added\n", path,
	       ior_db_merge_added(s, "runs"), ior_db_merge_present(s, "runs"), ior_db_merge_added(s, "samples"),
	       ior_db_merge_added(s, "cells"), ior_db_merge_added(s, "vm_boots"));
	size_t finished = ior_db_merge_updated(s, "runs");
	if (finished)
		printf("%s: %zu runs merged while running are now finished\n", path, finished);
}

static int cmd_merge(int argc, char **argv, struct ior_cmd_ctx *ctx)
{
	(void)ctx;
	struct ior_cmd_parsed p;
	int status = ior_cmd_parse_or_usage(&ior_cmd_merge, argc, argv, NULL, &p);
	if (status)
		return status;
	if (p.operands.n < 2) {
		ior_cmd_error("'merge' needs OUT.db and at least one IN.db (see 'ioregress merge --help')");
		return 2;
	}
	const char *out = p.operands.v[0];
	struct ior_db *db = NULL;
	if (ior_check_trusted_file(out, "database") != IOR_OK || ior_db_open(&db, out) != IOR_OK) {
		ior_cmd_error_last();
		return 1;
	}
	for (size_t i = 1; i < p.operands.n; i++) {
		const char *in = p.operands.v[i];
		struct ior_db_merge_stats s;
		ior_error_clear();
		if (ior_db_merge(db, in, &s) != IOR_OK) {
			ior_cmd_error_last();
			fprintf(stderr, "error: nothing from '%s' was merged into '%s'\n", in, out);
			status = 1;
			continue;
		}
		print_stats(in, &s);
	}
	ior_db_free(db);
	return status;
}

const struct ior_command ior_cmd_merge = {
	.name = "merge",
	.fn = cmd_merge,
	.error_status = 1,
	.summary = "merge the runs of other databases (a VM's, another host's, a CI job's) into one",
	.operands = "OUT.db IN.db...",
	.operand_files = true,
	.description = "Copies every run of each IN.db into OUT.db (created when missing) with its host, kernel, "
		       "devices, offered schedulers, cells, samples and VM boots, each keeping where and when it "
		       "was measured. Rows OUT.db already has are not added again, so merging a file twice adds "
		       "nothing; a run merged while it was still running takes its status and finish time from a "
		       "later merge of the finished file, and a repetition both files hold with another value is an "
		       "error. Each input is merged whole or not at all: an error leaves OUT.db as it was and "
		       "the next input is tried. A database of a newer schema is refused; an older one is "
		       "upgraded in memory (the input file is only read). --db is not used: OUT.db is named.",
	.options = (const struct ior_cmd_opt[]){ { 0 } },
};
