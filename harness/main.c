/* ioregress's entry point: global options, the command table, and the shared set-up each command asks for. */
#include "common/error.h"
#include "db/db.h"
#include "harness/commands.h"
#include "harness/trust.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DEFAULT_DB "./ioregress.db"

static const struct ior_command commands[] = {
	{ "run", cmd_run, IOR_CMD_NEEDS_DB | IOR_CMD_NEEDS_ROOT, 1,
	  "run a matrix (or the built-in default) and store every sample",
	  "usage: ioregress run [MATRIX] [--set KEY=VALUE]... [--allow-destructive=DEVICE]...\n"
	  "                     [--baseline KERNEL] [--db FILE] [--quiet]\n"
	  "       ioregress run --resume RUN_ID\n"
	  "\n"
	  "Runs MATRIX, or without one the built-in default (a 1 GiB scratch loop device, every\n"
	  "scheduler the kernel offers, the hdparm engine buffered and direct, 3 repetitions).\n"
	  "Each sample is committed to the database as soon as it is measured.\n"
	  "\n"
	  "  --set KEY=VALUE   override a matrix key: matrix.repetitions=5,\n"
	  "                    engine.NAME.KEY=VALUE, device.NAME.KEY=VALUE\n"
	  "  --allow-destructive=DEVICE\n"
	  "                    confirm that write engines may destroy DEVICE (exact path); needed\n"
	  "                    for any device ioregress did not create, together with\n"
	  "                    destructive = yes in the matrix. Mounted devices, swap and the root\n"
	  "                    filesystem's device are refused regardless.\n"
	  "  --baseline KERNEL with max_repetitions set in the matrix (adaptive repetitions), a\n"
	  "                    cell also stops as soon as it is decided against KERNEL's samples\n"
	  "  --resume RUN_ID   complete an interrupted run (after 'ioregress recover'): its stored\n"
	  "                    matrix, exactly the missing repetitions, same host and kernel only\n"
	  "  --quiet           no progress line on stderr\n" },
	{ "probe", cmd_probe, 0, 1,
	  "show the running kernel, its block devices and the schedulers they offer",
	  "usage: ioregress probe [--json] [--modules-dir DIR --kernel RELEASE]\n"
	  "\n"
	  "Prints the running kernel's record, every block device with the schedulers it offers\n"
	  "([active] marked), and the state of each known scheduler module: built-in, loaded,\n"
	  "loadable (a module file exists) or absent, beside whether it is offered now.\n"
	  "--modules-dir DIR --kernel RELEASE inspects the module tree DIR/RELEASE instead.\n" },
	{ "report", cmd_report, IOR_CMD_NEEDS_DB | IOR_CMD_DB_EXISTS, 1,
	  "report the stored samples: per kernel tables, spreads and alerts",
	  "usage: ioregress report [--format text|json] [--host H] [--kernel K] [--device D]\n" },
	{ "import", cmd_import, IOR_CMD_NEEDS_DB, 1,
	  "import samples or offered schedulers from CSV files",
	  "usage: ioregress import FILE.csv...\n"
	  "\n"
	  "A file whose header is host,kernel,device,scheduler,engine,rep,value,unit holds samples;\n"
	  "one whose header is host,kernel,offered holds the schedulers each kernel offered.\n"
	  "A file with any bad row is rejected whole, with every bad line named.\n" },
	{ "check", cmd_check, IOR_CMD_NEEDS_DB | IOR_CMD_DB_EXISTS, 128,
	  "compare a candidate kernel with a baseline; exit status for git bisect run",
	  "usage: ioregress check --baseline KERNEL [--candidate KERNEL] [filters]\n" },
	{ "recover", cmd_recover, IOR_CMD_NEEDS_DB | IOR_CMD_NEEDS_ROOT, 1,
	  "undo what killed runs changed: schedulers, loop devices, mounts, scratch files",
	  "usage: ioregress recover [--db FILE]\n"
	  "\n"
	  "A run journals every change before it makes it. After a SIGKILL or a power loss this\n"
	  "puts back each scheduler, detaches loop devices, unmounts, removes scratch files and\n"
	  "unloads modules of runs whose process is gone, and marks those runs interrupted.\n"
	  "Then 'ioregress run --resume RUN_ID' measures exactly the missing repetitions.\n" },
	{ "schedulers", cmd_schedulers, IOR_CMD_NEEDS_DB | IOR_CMD_DB_EXISTS, 1,
	  "which schedulers each kernel offered, and why they changed",
	  "usage: ioregress schedulers [--host H]\n" },
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

void ior_cmd_error(const char *fmt, ...)
{
	fputs("error: ", stderr);
	va_list ap;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	const char *detail = ior_error_last();
	if (*detail)
		fprintf(stderr, ": %s", detail);
	fputc('\n', stderr);
}

bool ior_cmd_option(int argc, char **argv, int *i, const char *key, const char **value)
{
	size_t len = strlen(key);
	const char *arg = argv[*i];
	if (strncmp(arg, key, len) || (arg[len] && arg[len] != '='))
		return false;
	if (arg[len] == '=')
		*value = arg[len + 1] ? arg + len + 1 : NULL;
	else
		*value = *i + 1 < argc ? argv[++*i] : NULL;
	return true;
}

const char *ior_cmd_option_value(int argc, char **argv, int *i, const char *key, bool *missing)
{
	const char *v = NULL;
	if (!ior_cmd_option(argc, argv, i, key, &v))
		return NULL;
	*missing |= v == NULL;
	return v;
}

bool ior_cmd_filter_option(int argc, char **argv, int *i, unsigned accepted, struct ior_db_filter *f,
			   bool *missing)
{
	const struct {
		unsigned bit;
		const char *key;
		const char **slot;
	} opts[] = {
		{ IOR_FILTER_HOST, "--host", &f->host },
		{ IOR_FILTER_KERNEL, "--kernel", &f->kernel },
		{ IOR_FILTER_DEVICE, "--device", &f->device },
		{ IOR_FILTER_SCHEDULER, "--scheduler", &f->scheduler },
		{ IOR_FILTER_ENGINE, "--engine", &f->engine },
	};
	for (size_t k = 0; k < sizeof(opts) / sizeof(opts[0]); k++) {
		if (!(accepted & opts[k].bit))
			continue;
		const char *v = ior_cmd_option_value(argc, argv, i, opts[k].key, missing);
		if (v) {
			*opts[k].slot = v;
			return true;
		}
		if (*missing)
			return false;
	}
	return false;
}

bool ior_cmd_wants_help(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			break;
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
			return true;
	}
	return false;
}

static void usage(FILE *out)
{
	fputs("usage: ioregress [--db FILE] [--quiet] COMMAND [ARGS]\n"
	      "       ioregress --version | --help | COMMAND --help\n\ncommands:\n", out);
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(out, "  %-11s %s\n", commands[i].name, commands[i].summary);
	fputs("\nThe database defaults to " DEFAULT_DB ".\n", out);
}

static const struct ior_command *find_command(const char *name);

/* Takes --db and --quiet out of argv wherever they stand, so every command accepts them.
 * A malformed one is reported and skipped; the caller fails with the command's own error status. */
static int strip_global_options(int *argc, char **argv, struct ior_cmd_ctx *ctx)
{
	int out = 1, rc = 0;
	for (int i = 1; i < *argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--") == 0) {
			while (i < *argc)
				argv[out++] = argv[i++];
			break;
		}
		if (strcmp(a, "--db") == 0) {
			if (i + 1 >= *argc || !argv[i + 1][0]) {
				ior_error_clear();
				ior_cmd_error("option '--db' needs a file name");
				rc = -1;
				continue;
			}
			ctx->db_path = argv[++i];
		} else if (strncmp(a, "--db=", 5) == 0) {
			ctx->db_path = a + 5;
			if (!*ctx->db_path) {
				ior_error_clear();
				ior_cmd_error("option '--db' needs a file name");
				rc = -1;
			}
		} else if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0) {
			ctx->quiet = true;
		} else {
			argv[out++] = argv[i];
		}
	}
	*argc = out;
	argv[out] = NULL;
	return rc;
}

static const struct ior_command *find_command(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

/* git's check: output that could not be written is an error, not a silent truncation. */
static int close_stdout(int status)
{
	if (fflush(stdout) != 0 || ferror(stdout) || fclose(stdout) != 0) {
		ior_error_clear();
		ior_cmd_error("cannot write to standard output: %s", strerror(errno));
		return status ? status : 1;
	}
	return status;
}

static int run_command(const struct ior_command *cmd, int argc, char **argv, struct ior_cmd_ctx *ctx)
{
	if (ior_cmd_wants_help(argc, argv)) {
		fputs(cmd->usage, stdout);
		return 0;
	}
	if ((cmd->flags & IOR_CMD_NEEDS_ROOT) && geteuid() != 0) {
		ior_error_clear();
		ior_cmd_error("'ioregress %s' needs root (it switches schedulers and creates loop devices)", cmd->name);
		return cmd->error_status;
	}
	if (cmd->flags & IOR_CMD_NEEDS_DB) {
		ior_error_clear();
		if (ior_check_trusted_file(ctx->db_path, "database") != IOR_OK) {
			fprintf(stderr, "error: %s\n", ior_error_last());
			return cmd->error_status;
		}
		bool existing = cmd->flags & IOR_CMD_DB_EXISTS;
		int rc = existing ? ior_db_open_existing(&ctx->db, ctx->db_path) : ior_db_open(&ctx->db, ctx->db_path);
		if (rc == IOR_ENOTFOUND && existing) {
			/* a typo in --db must not look like an empty database: 2 at least, as for usage */
			fprintf(stderr, "error: %s\n", ior_error_last());
			return cmd->error_status > 2 ? cmd->error_status : 2;
		}
		if (rc != IOR_OK) {
			ior_cmd_error("cannot open database '%s'", ctx->db_path);
			return cmd->error_status;
		}
	}
	int status = cmd->fn(argc, argv, ctx);
	ior_db_free(ctx->db);
	ctx->db = NULL;
	return status;
}

int main(int argc, char **argv)
{
	struct ior_cmd_ctx ctx = { .db_path = DEFAULT_DB };
	if (strip_global_options(&argc, argv, &ctx) != 0) {
		/* check's errors must be >= 128 so git bisect run aborts instead of marking a commit bad */
		const struct ior_command *cmd = argc > 1 ? find_command(argv[1]) : NULL;
		return cmd ? cmd->error_status : 2;
	}
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0) {
		printf("ioregress %s\n", IOR_VERSION);
		return close_stdout(0);
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return close_stdout(0);
	}
	const struct ior_command *cmd = find_command(argv[1]);
	if (!cmd) {
		ior_error_clear();
		ior_cmd_error("'%s' is not an ioregress command (see 'ioregress --help')", argv[1]);
		return 2;
	}
	return close_stdout(run_command(cmd, argc - 1, argv + 1, &ctx));
}
