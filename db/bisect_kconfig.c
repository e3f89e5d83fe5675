/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bisect start --kernel's config in columns (bisect_kernels, bisect_fragments), its text form for the
 * log, and the upgrade that reads it back from the log of a bisection stored before schema 15. */
#include "db/bisect_state.h"
#include "db/internal.h"
#include "db/schema.h"

#include "common/error.h"
#include "common/spawn.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ior_bisect_kconfig_free(struct ior_bisect_kconfig *k)
{
	if (!k)
		return;
	free(k->config), free(k->defconfig), free(k->build_dir);
	for (size_t i = 0; i < k->nfragments; i++)
		free(k->fragments[i]);
	free(k->fragments);
	memset(k, 0, sizeof(*k));
}

/* " --opt 'value'" appended: single quotes keep blanks, so a value holding one cannot be written. */
static int add_word(char *buf, size_t len, const char *opt, const char *value)
{
	if (strchr(value, '\''))
		return ior_error_set(IOR_EINVALID, "%s: '%s' holds a single quote", opt, value);
	size_t used = strlen(buf);
	if ((size_t)snprintf(buf + used, len - used, "%s%s '%s'", used ? " " : "", opt, value) >= len - used)
		return ior_error_set(IOR_EINVALID, "the kernel config arguments are too long");
	return IOR_OK;
}

int ior_bisect_kconfig_format(const struct ior_bisect_kconfig *k, char *buf, size_t len)
{
	char nice[16];
	buf[0] = '\0';
	int rc = k->config ? add_word(buf, len, "--config", k->config)
			   : add_word(buf, len, "--defconfig", k->defconfig ? k->defconfig : "tinyconfig");
	for (size_t i = 0; !rc && i < k->nfragments; i++)
		rc = add_word(buf, len, "--fragment", k->fragments[i]);
	if (!rc && k->build_dir)
		rc = add_word(buf, len, "--build-dir", k->build_dir);
	snprintf(nice, sizeof(nice), "%d", k->nice);
	if (!rc && k->nice)
		rc = add_word(buf, len, "--nice", nice);
	return rc;
}

/* A copy of s into *field (NULL: out of memory). */
static int keep(char **field, const char *s)
{
	free(*field);
	*field = strdup(s);
	return *field ? IOR_OK : ior_error_set(IOR_ERROR, "out of memory");
}

static int fragment_add(struct ior_bisect_kconfig *k, const char *path)
{
	char **g = realloc(k->fragments, (k->nfragments + 1) * sizeof(*g));
	if (!g)
		return ior_error_set(IOR_ERROR, "out of memory");
	k->fragments = g;
	k->fragments[k->nfragments] = NULL;
	int rc = keep(&k->fragments[k->nfragments], path);
	if (!rc)
		k->nfragments++;
	return rc;
}

/* One "--opt value" pair into k. */
static int parse_pair(struct ior_bisect_kconfig *k, const char *opt, const char *value)
{
	if (!strcmp(opt, "--config"))
		return keep(&k->config, value);
	if (!strcmp(opt, "--defconfig"))
		return keep(&k->defconfig, value);
	if (!strcmp(opt, "--build-dir"))
		return keep(&k->build_dir, value);
	if (!strcmp(opt, "--fragment"))
		return k->nfragments < 64 ? fragment_add(k, value)
					  : ior_error_set(IOR_EINVALID, "--fragment: at most 64 fragments");
	if (!strcmp(opt, "--nice")) {
		char *end;
		long n = strtol(value, &end, 10);
		if (*end || end == value || n < 0 || n > 19)
			return ior_error_set(IOR_EINVALID, "--nice: '%s' is not a number from 0 to 19", value);
		k->nice = (int)n;
		return IOR_OK;
	}
	return ior_error_set(IOR_EINVALID, "unknown option '%s'", opt);
}

int ior_bisect_kconfig_parse(const char *text, struct ior_bisect_kconfig *k)
{
	memset(k, 0, sizeof(*k));
	char **argv = NULL;
	int rc = ior_argv_split(&argv, text);
	size_t i = 0;
	for (; !rc && argv[i]; i += 2)
		rc = argv[i + 1] ? parse_pair(k, argv[i], argv[i + 1])
				 : ior_error_set(IOR_EINVALID, "option '%s' needs a value", argv[i]);
	if (!rc && !k->config && !k->defconfig)
		rc = keep(&k->defconfig, "tinyconfig");
	if (!rc && k->config && k->defconfig)
		rc = ior_error_set(IOR_EINVALID, "give --config FILE or --defconfig NAME, not both");
	ior_argv_free(argv);
	if (rc) {
		ior_bisect_kconfig_free(k);
		return ior_error_wrap(rc, "the bisection's kernel config '%s'", text);
	}
	k->found = true;
	return IOR_OK;
}

int ior_bisect_kconfig_set(struct ior_db *db, int64_t id, const struct ior_bisect_kconfig *k)
{
	char text[8192];
	int rc = ior_bisect_kconfig_format(k, text, sizeof(text));
	if (rc || ior_db_begin(db))
		return IOR_ERROR;
	sqlite3_stmt *st = ior_db_stmt(db, IOR_STMT_BISECT_FRAGMENTS_CLEAR);
	sqlite3_bind_int64(st, 1, id);
	rc = ior_db_step_done(db, st, "cannot store the kernel config in");
	st = ior_db_stmt(db, IOR_STMT_BISECT_KCONFIG_SET);
	sqlite3_bind_int64(st, 1, id);
	ior_db_bind_text(st, 2, k->config);
	ior_db_bind_text(st, 3, k->config ? NULL : k->defconfig ? k->defconfig : "tinyconfig");
	ior_db_bind_text(st, 4, k->build_dir);
	sqlite3_bind_int(st, 5, k->nice);
	if (!rc)
		rc = ior_db_step_done(db, st, "cannot store the kernel config in");
	for (size_t i = 0; !rc && i < k->nfragments; i++) {
		st = ior_db_stmt(db, IOR_STMT_BISECT_FRAGMENT_ADD);
		sqlite3_bind_int64(st, 1, id);
		ior_db_bind_text(st, 2, k->fragments[i]);
		sqlite3_bind_int64(st, 3, (int64_t)i + 1);
		rc = ior_db_step_done(db, st, "cannot store the kernel config in");
	}
	if (!rc)
		rc = ior_bisect_log(db, id, NULL, "kernel", text);
	if (rc) {
		ior_db_rollback(db);
		return rc;
	}
	return ior_db_commit(db);
}

int ior_bisect_kconfig_get(struct ior_db *db, int64_t id, struct ior_bisect_kconfig *k)
{
	memset(k, 0, sizeof(*k));
	sqlite3_stmt *st = ior_db_stmt(db, IOR_STMT_BISECT_KCONFIG_GET);
	sqlite3_bind_int64(st, 1, id);
	int r = sqlite3_step(st);
	bool oom = false;
	if (r == SQLITE_ROW) {
		k->found = true;
		k->config = ior_db_column_dup(st, 0, &oom), k->defconfig = ior_db_column_dup(st, 1, &oom);
		k->build_dir = ior_db_column_dup(st, 2, &oom);
		k->nice = sqlite3_column_int(st, 3);
	}
	sqlite3_reset(st);
	if (r != SQLITE_ROW && r != SQLITE_DONE)
		return ior_db_fail(db, "cannot read the kernel config in");
	if (!k->found)
		return IOR_OK;
	st = ior_db_stmt(db, IOR_STMT_BISECT_FRAGMENTS);
	sqlite3_bind_int64(st, 1, id);
	int rc = IOR_OK;
	while (!rc && !oom && (r = sqlite3_step(st)) == SQLITE_ROW)
		rc = fragment_add(k, (const char *)sqlite3_column_text(st, 0));
	if (!rc && !oom && r != SQLITE_DONE)
		rc = ior_db_fail(db, "cannot read the kernel config in");
	sqlite3_reset(st);
	if (oom && !rc)
		rc = ior_error_set(IOR_ERROR, "out of memory");
	if (rc)
		ior_bisect_kconfig_free(k);
	return rc;
}

/* Schema 15's step after its SQL: the newest "kernel" row of each bisection's log, parsed into its
 * columns. Runs while the database is being opened, before db's statements are prepared, so it
 * prepares its own. A row that does not parse is left in the log alone (the bisection then runs as
 * one not over a kernel tree would, and says so), not a failed upgrade of the whole file. */
int ior_db_bisect_kconfig_upgrade(sqlite3 *h)
{
	sqlite3_stmt *rows = NULL, *kins = NULL, *fins = NULL;
	int r = sqlite3_prepare_v2(h, "SELECT bisect_id, detail FROM bisect_log l WHERE event = 'kernel' AND commit_id IS NULL "
				   "AND id = (SELECT max(id) FROM bisect_log m WHERE m.bisect_id = l.bisect_id "
				   "AND m.event = 'kernel' AND m.commit_id IS NULL)", -1, &rows, NULL);
	if (r == SQLITE_OK)
		r = sqlite3_prepare_v2(h, "INSERT INTO bisect_kernels (bisect_id, config, defconfig, build_dir, nice) "
				       "VALUES (?1, ?2, ?3, ?4, ?5)", -1, &kins, NULL);
	if (r == SQLITE_OK)
		r = sqlite3_prepare_v2(h, "INSERT INTO bisect_fragments (bisect_id, seq, path) VALUES (?1, ?2, ?3)", -1,
				       &fins, NULL);
	while (r == SQLITE_OK && (r = sqlite3_step(rows)) == SQLITE_ROW) {
		struct ior_bisect_kconfig k;
		int64_t id = sqlite3_column_int64(rows, 0);
		const char *text = (const char *)sqlite3_column_text(rows, 1);
		if (ior_bisect_kconfig_parse(text ? text : "", &k)) {
			ior_error_clear();
			r = SQLITE_OK;
			continue;
		}
		sqlite3_bind_int64(kins, 1, id);
		sqlite3_bind_text(kins, 2, k.config, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(kins, 3, k.defconfig, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(kins, 4, k.build_dir, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int(kins, 5, k.nice);
		r = sqlite3_step(kins) == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
		sqlite3_reset(kins);
		for (size_t i = 0; r == SQLITE_OK && i < k.nfragments; i++) {
			sqlite3_bind_int64(fins, 1, id);
			sqlite3_bind_int64(fins, 2, (int64_t)i + 1);
			sqlite3_bind_text(fins, 3, k.fragments[i], -1, SQLITE_TRANSIENT);
			r = sqlite3_step(fins) == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
			sqlite3_reset(fins);
		}
		ior_bisect_kconfig_free(&k);
	}
	int rc = r == SQLITE_DONE ? IOR_OK : ior_error_set(IOR_ERROR, "bisect_kernels: %s", sqlite3_errmsg(h));
	sqlite3_finalize(rows), sqlite3_finalize(kins), sqlite3_finalize(fins);
	return rc;
}
