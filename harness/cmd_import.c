/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `ioregress import FILE.csv...`: samples or offered-scheduler lists, each file all or nothing. */
#include "common/error.h"
#include "common/named_file.h"
#include "db/db.h"
#include "harness/command_list.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

enum csv_kind { CSV_SAMPLES, CSV_OFFERED, CSV_UNKNOWN };

/* The header says which importer a file is for; the importer itself checks it again. */
static int csv_kind(const char *path, enum csv_kind *kind)
{
	FILE *f = NULL;
	int rc = ior_fopen_regular(path, "", &f, NULL);
	if (rc)
		return rc;
	char line[512] = "";
	bool ok = fgets(line, sizeof(line), f) != NULL;
	fclose(f);
	if (!ok)
		return ior_error_set(IOR_EINVALID, "%s:1: empty file, expected a CSV header", path);
	const char *p = strncmp(line, "\xEF\xBB\xBF", 3) == 0 ? line + 3 : line; /* UTF-8 BOM */
	*kind = strncmp(p, "host,kernel,offered", 19) == 0 ? CSV_OFFERED : CSV_SAMPLES;
	return IOR_OK;
}

static int cmd_import(int argc, char **argv, struct ior_cmd_ctx *ctx)
{
	struct ior_cmd_parsed p;
	int status = ior_cmd_parse_or_usage(&ior_cmd_import, argc, argv, NULL, &p);
	if (status)
		return status;
	if (!p.operands.n) {
		ior_cmd_error("'import' needs at least one CSV file (see 'ioregress import --help')");
		return 2;
	}
	for (size_t i = 0; i < p.operands.n; i++) {
		const char *path = p.operands.v[i];
		enum csv_kind kind;
		size_t count = 0;
		ior_error_clear();
		int rc = csv_kind(path, &kind);
		if (rc == IOR_OK)
			rc = kind == CSV_OFFERED ? ior_db_import_offered_csv(ctx->db, path, &count)
						 : ior_db_import_samples_csv(ctx->db, path, &count);
		if (rc) {
			/* the importer's own list is complete; the error message is cut to fit its buffer */
			const char *problems = ior_db_import_problems(ctx->db);
			fprintf(stderr, "error: %s\nerror: nothing from '%s' was stored\n",
				problems && *problems ? problems : ior_error_last(), path);
			status = 1;
			continue;
		}
		printf("%s: imported %zu %s\n", path, count, kind == CSV_OFFERED ? "offered-scheduler lists" : "samples");
	}
	return status;
}

const struct ior_command ior_cmd_import = {
	.name = "import",
	.fn = cmd_import,
	.flags = IOR_CMD_NEEDS_DB,
	.error_status = 1,
	.summary = "import samples or offered schedulers from CSV files",
	.operands = "FILE.csv...",
	.operand_files = true,
	.operand_glob = "*.csv",
	.description = "A file whose header is host,kernel,device,scheduler,engine,rep,value,unit holds samples; "
		       "one whose header is host,kernel,offered holds the schedulers each kernel offered. "
		       "A file with any bad row is rejected whole, with every bad line named.",
	.options = (const struct ior_cmd_opt[]){ { 0 } },
};
