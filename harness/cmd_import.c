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

/* What a tester is likely to have instead of our CSV, said as such rather than as a header's
 * problems ("unknown column '{'", nine of them for fio's JSON). */
static int not_a_csv(const char *path, const char *head)
{
	const char *v = strstr(head, "\"fio version\"");
	if (v) {
		char version[32] = "";
		(void)sscanf(v, "\"fio version\" : \"%31[^\"]\"", version);
		return ior_error_set(IOR_EINVALID,
				     "'%s' is fio's JSON output%s%s%s, not a CSV: it names no host, kernel or scheduler, "
				     "which every sample needs. Run the job as an engine of type = fio (ioregress-matrix(5)) "
				     "to store fio's figures with them, or write them as CSV rows "
				     "host,kernel,device,scheduler,engine,rep,value,unit",
				     path, *version ? " (" : "", version, *version ? ")" : "");
	}
	if (strncmp(head, "host,kernel,device,device_model,", 32) == 0)
		return ior_error_set(IOR_EINVALID,
				     "'%s' is the output of 'report --format csv' (its device_model column), which is for "
				     "reading, not for import: to combine databases use 'ioregress merge OUT.db IN.db...'",
				     path);
	if (head[0] == '{' || head[0] == '[')
		return ior_error_set(IOR_EINVALID, "'%s' is JSON, not a CSV: import takes CSV files (see 'ioregress "
				     "import --help')", path);
	return IOR_OK;
}

/* The header says which importer a file is for; the importer itself checks it again. */
static int csv_kind(const char *path, enum csv_kind *kind)
{
	FILE *f = NULL;
	int rc = ior_fopen_regular(path, "", &f, NULL);
	if (rc)
		return rc;
	char head[4096] = "";
	size_t got = fread(head, 1, sizeof(head) - 1, f);
	fclose(f);
	head[got] = '\0';
	const char *p = strncmp(head, "\xEF\xBB\xBF", 3) == 0 ? head + 3 : head; /* UTF-8 BOM */
	/* fio prints notes before its JSON on stdout: the JSON starts at the first line that opens it */
	const char *json = p[0] == '{' ? p : strstr(p, "\n{");
	if (json && (rc = not_a_csv(path, json + (json[0] == '\n'))))
		return rc;
	if ((rc = not_a_csv(path, p)))
		return rc;
	if (!got)
		return ior_error_set(IOR_EINVALID, "%s:1: empty file, expected a CSV header", path);
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
