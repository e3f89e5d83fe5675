/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The bisection's log as replayable text, and its replay: start, kernel, build, config, measure and
 * mark lines in order; everything else is a comment. */
#include "bisect/replay.h"

#include "bisect/measure.h"
#include "common/error.h"
#include "common/named_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct printer {
	FILE *out;
};

/* Each line starts with the time it was logged as a word "@TIME", which replay passes over. */
static int print_row(void *ctx, const char *commit, const char *event, const char *detail, const char *at)
{
	FILE *out = ((struct printer *)ctx)->out;
	detail = detail ? detail : "";
	bool replayed = !strcmp(event, "build") || !strcmp(event, "measure") || !strcmp(event, "confirming") ||
			!strcmp(event, "mark") || !strcmp(event, "overturned") || (!strcmp(event, "kernel") && !commit) ||
			(!strcmp(event, "config") && commit) || (!strcmp(event, "boot-failed") && commit);
	if (at && !replayed)
		fprintf(out, "# @%s ", at);
	else if (at)
		fprintf(out, "@%s ", at);
	if (!strcmp(event, "build")) {
		const char *image = strstr(detail, ", image ");
		fprintf(out, "build %s %s%s%s\n", commit, strncmp(detail, "ok", 2) ? "failed" : "ok", image ? " " : "",
			image ? image + 8 : "");
	} else if (!strcmp(event, "measure")) {
		/* "round=R v1 v2 ...": the round it was measured in (none before rounds) */
		const char *values = !strncmp(detail, "round=", 6) ? detail + 6 + strspn(detail + 6, "0123456789") : detail;
		if (strspn(values, "0123456789.eE+- ") == strlen(values))
			fprintf(out, "measure %s %s\n", commit, detail);
		else
			fprintf(out, "# measure %s: %s\n", commit, detail);
	} else if (!strcmp(event, "kernel") && !commit) {
		fprintf(out, "kernel %s\n", detail);   /* bisect start --kernel's config arguments */
	} else if (!strcmp(event, "config") && commit) {
		fprintf(out, "config %s %s\n", commit, detail);   /* the config hash of the commit's kernel build */
	} else if (!strcmp(event, "confirming")) {
		fprintf(out, "confirm %s %s\n", commit, detail);
	} else if (!strcmp(event, "boot-failed") && commit) {
		fprintf(out, "boot-failed %s %s\n", commit, detail);   /* what a kernel that did not boot showed */
	} else if (!strcmp(event, "mark") || !strcmp(event, "overturned")) {
		const char *colon = strstr(detail, ": ");
		fprintf(out, "mark %s %.*s %s\n", commit, colon ? (int)(colon - detail) : (int)strlen(detail), detail,
			colon ? colon + 2 : "");
	} else {
		fprintf(out, "%s%s%s%s: %s\n", at ? "" : "# ", event, commit ? " " : "", commit ? commit : "", detail);
	}
	return IOR_OK;
}

int ior_bisect_log_print(FILE *out, struct ior_db *db, const struct ior_bisect_info *b)
{
	fprintf(out, "# ioregress bisect log: bisection %lld, started %s, %s\n", (long long)b->id, b->started_at, b->status);
	if (b->kernels) {
		fprintf(out, "start --kernels %s", b->kernels);
	} else {
		fprintf(out, "start --repo %s --bad %s", b->repo ? b->repo : ".", b->bad);
		char *goods = strdup(b->good), *save = NULL;
		if (!goods)
			return ior_error_set(IOR_ERROR, "out of memory");
		for (char *t = strtok_r(goods, " ", &save); t; t = strtok_r(NULL, " ", &save))
			fprintf(out, " --good %s", t);
		free(goods);
	}
	fprintf(out, "%s\n", b->higher_is_better ? "" : " --lower-is-better");
	struct printer p = { out };
	if (ior_bisect_log_each(db, b->id, print_row, &p))
		return IOR_ERROR;
	return ferror(out) ? ior_error_set(IOR_ERROR, "cannot write the log") : IOR_OK;
}

/* The words of line, split at spaces (in place); at most max. */
static size_t words(char *line, char **w, size_t max)
{
	size_t n = 0;
	char *save = NULL;
	for (char *t = strtok_r(line, " \t\n", &save); t && n < max; t = strtok_r(NULL, " \t\n", &save))
		w[n++] = t;
	return n;
}

static int start_line(struct ior_db *db, char **w, size_t n, const char *where, int64_t *id)
{
	struct ior_bisect_info b = { .source = "git", .higher_is_better = true };
	char good[4096] = "", kernels[8192] = "";
	const char *last = NULL;
	for (size_t i = 1; i < n; i++) {
		if (!strcmp(w[i], "--kernels")) {
			b.source = "packages";
			while (i + 1 < n && w[i + 1][0] != '-') {
				snprintf(kernels + strlen(kernels), sizeof(kernels) - strlen(kernels), "%s%s", *kernels ? " " : "",
					 w[++i]);
				if (!*good)
					snprintf(good, sizeof(good), "%s", w[i]);
				last = w[i];
			}
			b.bad = (char *)last;
			b.kernels = kernels;
		} else if (!strcmp(w[i], "--lower-is-better"))
			b.higher_is_better = false;
		else if (i + 1 < n && !strcmp(w[i], "--repo"))
			b.repo = w[++i];
		else if (i + 1 < n && !strcmp(w[i], "--bad"))
			b.bad = w[++i];
		else if (i + 1 < n && !strcmp(w[i], "--good"))
			snprintf(good + strlen(good), sizeof(good) - strlen(good), "%s%s", *good ? " " : "", w[++i]);
		else
			return ior_error_set(IOR_EINVALID, "%s: unknown start argument '%s'", where, w[i]);
	}
	if (!b.bad || !*good)
		return ior_error_set(IOR_EINVALID, "%s: start needs --good and --bad", where);
	b.good = good;
	return ior_bisect_create(db, &b, id) || ior_bisect_log(db, *id, NULL, "start", "replayed");
}

/* The original text from word k on (line and copy share offsets), "" past the last word. */
static const char *from_word(const char *line, const char *copy, char **w, size_t n, size_t k)
{
	return k < n ? line + (w[k] - copy) : "";
}

/* "kernel ARGS": bisect start --kernel's config, as its text form (db/bisect_state.h) gives it. */
static int kernel_line(struct ior_db *db, int64_t id, const char *args, const char *where)
{
	struct ior_bisect_kconfig k;
	if (ior_bisect_kconfig_parse(args, &k))
		return ior_error_wrap(IOR_EINVALID, "%s", where);
	int rc = ior_bisect_kconfig_set(db, id, &k);
	ior_bisect_kconfig_free(&k);
	return rc;
}

/* "confirm COMMIT FROM PARENT NEED", or "confirm COMMIT done" once a confirmation was overturned;
 * another text is kept in the log alone, as none under way. */
static int confirm_line(struct ior_db *db, int64_t id, char **w, size_t n, const char *text)
{
	struct ior_bisect_confirm_state c = { 0 };
	char *end1 = NULL, *end2 = NULL;
	if (n == 3 && !strcmp(w[2], "done"))
		return ior_bisect_confirm_set(db, id, w[1], NULL);
	if (n == 5 && strlen(w[3]) < sizeof(c.parent)) {
		c.from = strtoul(w[2], &end1, 10);
		c.need = strtoul(w[4], &end2, 10);
		snprintf(c.parent, sizeof(c.parent), "%s", w[3]);
	}
	if (end1 && !*end1 && end2 && !*end2 && end1 != w[2] && end2 != w[4])
		return ior_bisect_confirm_set(db, id, w[1], &c);
	return ior_bisect_log(db, id, w[1], "confirming", text);
}

static int replay_line(struct ior_db *db, int64_t id, char **w, size_t n, const char *line, const char *copy,
		       const char *where)
{
	if (!strcmp(w[0], "build") && n >= 3) {
		bool ok = !strcmp(w[2], "ok");
		char detail[160];
		snprintf(detail, sizeof(detail), "%s%s%s", ok ? "ok" : "build failed", n > 3 ? ", image " : "", n > 3 ? w[3] : "");
		return ior_bisect_build_set(db, id, w[1], ok, n > 3 ? w[3] : NULL) || ior_bisect_log(db, id, w[1], "build", detail);
	}
	if (!strcmp(w[0], "measure") && n >= 3) {
		double x[256];
		size_t k = 0, round = 0, first = 2;
		if (!strncmp(w[2], "round=", 6)) {
			char *end;
			round = strtoul(w[2] + 6, &end, 10);
			if (*end || !round)
				return ior_error_set(IOR_EINVALID, "%s: '%s' is not a round", where, w[2]);
			first = 3;
		}
		for (size_t i = first; i < n && k < 256; i++) {
			/* as a measure command's output is read: nan, inf, hex and denormals are no samples */
			double *one = NULL;
			size_t got = 0;
			bool ok = ior_bisect_parse_samples(w[i], strlen(w[i]), &one, &got) == IOR_OK && got == 1;
			if (ok)
				x[k++] = one[0];
			free(one);
			if (!ok)
				return ior_error_set(IOR_EINVALID, "%s: '%s' is not a sample", where, w[i]);
		}
		return ior_bisect_samples_add_round(db, id, w[1], x, k, round) ||
		       ior_bisect_log(db, id, w[1], "measure", from_word(line, copy, w, n, 2));
	}
	if (!strcmp(w[0], "mark") && n >= 3) {
		enum ior_bisect_mark m;
		if (ior_bisect_mark_parse(w[2], &m))
			return ior_error_wrap(IOR_EINVALID, "%s", where);
		const char *reason = from_word(line, copy, w, n, 3);
		char detail[1200];
		snprintf(detail, sizeof(detail), "%s: %s", w[2], reason);
		return ior_bisect_mark_set(db, id, w[1], m, reason) || ior_bisect_log(db, id, w[1], "mark", detail);
	}
	if (!strcmp(w[0], "kernel") && n >= 2)
		return kernel_line(db, id, from_word(line, copy, w, n, 1), where);
	if (!strcmp(w[0], "config") && n >= 3)
		return ior_bisect_config_set(db, id, w[1], from_word(line, copy, w, n, 2));
	if (!strcmp(w[0], "confirm") && n >= 3)
		return confirm_line(db, id, w, n, from_word(line, copy, w, n, 2));
	if (!strcmp(w[0], "boot-failed") && n >= 3)
		return ior_bisect_boot_failure_set(db, id, w[1], from_word(line, copy, w, n, 2));
	return ior_error_set(IOR_EINVALID, "%s: unknown line '%s'", where, w[0]);
}

int ior_bisect_replay(struct ior_db *db, FILE *in, const char *name, int64_t *id)
{
	char line[8192], copy[8192], where[600];
	*id = 0;
	for (int lineno = 1; fgets(line, sizeof(line), in); lineno++) {
		line[strcspn(line, "\n")] = '\0';
		snprintf(where, sizeof(where), "%s:%d", name, lineno);
		if (line[0] == '#' || !line[strspn(line, " \t")])
			continue;
		snprintf(copy, sizeof(copy), "%s", line);
		char *w[300], **word = w;
		size_t n = words(copy, w, 300);
		int rc;
		if (n && w[0][0] == '@')   /* the time it was logged */
			word++, n--;
		if (!n)
			continue;
		if (!strcmp(word[0], "start")) {
			if (*id)
				return ior_error_set(IOR_EINVALID, "%s: a second start line", where);
			rc = start_line(db, word, n, where, id);
		} else if (!*id) {
			return ior_error_set(IOR_EINVALID, "%s: the log must begin with a start line", where);
		} else {
			rc = replay_line(db, *id, word, n, line, copy, where);
		}
		if (rc)
			return rc;
	}
	return *id ? IOR_OK : ior_error_set(IOR_EINVALID, "%s: no start line", name);
}

int ior_bisect_replay_file(struct ior_db *db, const char *path, int64_t *id)
{
	*id = 0;
	/* a FIFO or a device never ends: only a regular file (a log 'bisect log' wrote) is read */
	FILE *f;
	int rc = ior_fopen_regular(path, "bisect log ", &f, NULL);
	if (rc)
		return rc;
	/* all or nothing: a log refused at its tenth line leaves no bisection of nine lines behind
	 * (one that 'bisect run' would have continued from a state the log never had) */
	rc = ior_db_begin(db);
	if (!rc)
		rc = ior_bisect_replay(db, f, path, id);
	fclose(f);
	if (rc) {
		ior_db_rollback(db);
		*id = 0;
		return rc;
	}
	return ior_db_commit(db);
}
