/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A vm run's plan of boots on a target, its steps, and the kernels it installed there (see
 * target_plan.h); statements prepared per call: a plan is touched a few times per boot. */
#include "db/target_plan.h"

#include "common/error.h"
#include "db/internal.h"
#include "db/schema.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int prepare(struct ior_db *db, const char *sql, sqlite3_stmt **st, const char *what)
{
	return sqlite3_prepare_v2(db->h, sql, -1, st, NULL) == SQLITE_OK ? IOR_OK : ior_db_fail(db, what);
}

/* Steps a statement that returns no row, finalizes it, and fills *id with the new row's id. */
static int exec_done(struct ior_db *db, sqlite3_stmt *st, int bad, const char *what, int64_t *id)
{
	int rc = bad ? ior_db_fail(db, what) : ior_db_step_done(db, st, what);
	if (!rc && id)
		*id = sqlite3_last_insert_rowid(db->h);
	sqlite3_finalize(st);
	return rc;
}

/* A SELECT of one row at most, its parameter ?1 bound (text, or id when text is NULL), the row read by
 * read(); IOR_ENOTFOUND without one. */
static int one_row(struct ior_db *db, const char *sql, const char *what, const char *text, int64_t id,
		   void (*read)(sqlite3_stmt *st, void *out, bool *oom), void *out)
{
	sqlite3_stmt *st;
	int rc = prepare(db, sql, &st, what);
	if (rc)
		return rc;
	text ? ior_db_bind_text(st, 1, text) : sqlite3_bind_int64(st, 1, id);
	int r = sqlite3_step(st);
	bool oom = false;
	if (r == SQLITE_ROW) {
		read(st, out, &oom);
		rc = oom ? ior_error_set(IOR_ERROR, "out of memory") : IOR_OK;
	} else {
		rc = r == SQLITE_DONE ? IOR_ENOTFOUND : ior_db_fail(db, what);
	}
	sqlite3_finalize(st);
	return rc;
}

int ior_db_target_plan_add(struct ior_db *db, const struct ior_db_target_plan *p, int64_t host_id, int pid,
			   const char *boot_id, int64_t *id)
{
	static const char what[] = "cannot store a plan of boots in";
	sqlite3_stmt *st;
	int rc = prepare(db,
			 "INSERT INTO target_plans (vm_run, target, matrix_file, matrix_text, options, rounds, rounds_auto, "
			 "host_id, pid, boot_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
			 &st, what);
	if (rc)
		return rc;
	int bad = ior_db_bind_text(st, 1, p->vm_run) | ior_db_bind_text(st, 2, p->target) |
		  ior_db_bind_text(st, 3, p->matrix_file) | ior_db_bind_text(st, 4, p->matrix_text) |
		  ior_db_bind_text(st, 5, p->options) | sqlite3_bind_int(st, 6, p->rounds) |
		  sqlite3_bind_int(st, 7, p->rounds_auto) | ior_db_bind_id(st, 8, host_id) | sqlite3_bind_int(st, 9, pid) |
		  ior_db_bind_text(st, 10, boot_id);
	return exec_done(db, st, bad, what, id);
}

static void read_plan(sqlite3_stmt *st, void *to, bool *oom)
{
	struct ior_db_target_plan *out = to;
	out->id = sqlite3_column_int64(st, 0);
	out->vm_run = ior_db_column_dup(st, 1, oom);
	out->target = ior_db_column_dup(st, 2, oom);
	out->matrix_file = ior_db_column_dup(st, 3, oom);
	out->matrix_text = ior_db_column_dup(st, 4, oom);
	out->options = ior_db_column_dup(st, 5, oom);
	out->state = ior_db_column_dup(st, 6, oom);
	out->rounds = sqlite3_column_int(st, 7);
	out->rounds_auto = sqlite3_column_int(st, 8) != 0;
	out->pid = sqlite3_column_int(st, 9);
	out->boot_id = ior_db_column_dup(st, 10, oom);
}

/* The newest plan on target, only a running one when running. */
static int newest_plan(struct ior_db *db, const char *target, bool running, struct ior_db_target_plan *out)
{
	memset(out, 0, sizeof(*out));
	int rc = one_row(db,
			 running ? "SELECT id, vm_run, target, matrix_file, matrix_text, options, state, rounds, rounds_auto, "
				   "ifnull(pid, 0), boot_id FROM target_plans WHERE target = ?1 AND state = 'running' ORDER BY id DESC LIMIT 1"
				 : "SELECT id, vm_run, target, matrix_file, matrix_text, options, state, rounds, rounds_auto, "
				   "ifnull(pid, 0), boot_id FROM target_plans WHERE target = ?1 ORDER BY id DESC LIMIT 1",
			 "cannot read plans of boots from", target ? target : "", 0, read_plan, out);
	if (rc)
		ior_db_target_plan_free(out);
	return rc;
}

int ior_db_target_plan_running(struct ior_db *db, const char *target, struct ior_db_target_plan *out)
{
	return newest_plan(db, target, true, out);
}

int ior_db_target_plan_latest(struct ior_db *db, const char *target, struct ior_db_target_plan *out)
{
	return newest_plan(db, target, false, out);
}

int ior_db_target_plans_running(struct ior_db *db, struct ior_db_target_plan **out, size_t *n)
{
	static const char what[] = "cannot read plans of boots from";
	*out = NULL;
	*n = 0;
	sqlite3_stmt *st = NULL;
	int rc = prepare(db,
			 "SELECT id, vm_run, target, matrix_file, matrix_text, options, state, rounds, rounds_auto, "
			 "ifnull(pid, 0), boot_id FROM target_plans WHERE state = 'running' ORDER BY id",
			 &st, what);
	size_t cap = 0;
	int r = SQLITE_DONE;
	while (!rc && (r = sqlite3_step(st)) == SQLITE_ROW) {
		if (*n == cap) {
			cap = cap ? cap * 2 : 4;
			struct ior_db_target_plan *grown = realloc(*out, cap * sizeof(**out));
			if (!grown) {
				rc = ior_error_set(IOR_ERROR, "out of memory");
				break;
			}
			*out = grown;
		}
		bool oom = false;
		memset(&(*out)[*n], 0, sizeof(**out));
		read_plan(st, &(*out)[(*n)++], &oom);
		if (oom)
			rc = ior_error_set(IOR_ERROR, "out of memory");
	}
	if (!rc && r != SQLITE_DONE && r != SQLITE_ROW)
		rc = ior_db_fail(db, what);
	if (st)
		sqlite3_finalize(st);
	if (rc) {
		ior_db_target_plans_free(*out, *n);
		*out = NULL;
		*n = 0;
	}
	return rc;
}

void ior_db_target_plans_free(struct ior_db_target_plan *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		ior_db_target_plan_free(&v[i]);
	free(v);
}

void ior_db_target_plan_option(const char *options, const char *name, char *out, size_t len)
{
	size_t nl = strlen(name);
	out[0] = '\0';
	for (const char *p = options; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, name, nl) && p[nl] == '=') {
			snprintf(out, len, "%.*s", (int)strcspn(p + nl + 1, "\n"), p + nl + 1);
			return;
		}
}

int ior_db_target_plan_own(struct ior_db *db, int64_t plan_id, int pid, const char *boot_id, const char *options)
{
	static const char what[] = "cannot take over a plan of boots in";
	sqlite3_stmt *st;
	int rc = prepare(db, "UPDATE target_plans SET pid = ?2, boot_id = ?3, options = ifnull(?4, options) WHERE id = ?1",
			 &st, what);
	if (rc)
		return rc;
	int bad = sqlite3_bind_int64(st, 1, plan_id) | sqlite3_bind_int(st, 2, pid) | ior_db_bind_text(st, 3, boot_id) |
		  ior_db_bind_text(st, 4, options);
	return exec_done(db, st, bad, what, NULL);
}

int ior_db_target_plan_finish(struct ior_db *db, int64_t plan_id, const char *state)
{
	static const char what[] = "cannot finish a plan of boots in";
	sqlite3_stmt *st;
	int rc = prepare(db, "UPDATE target_plans SET state = ?2, finished_at = " IOR_NOW " WHERE id = ?1", &st, what);
	if (rc)
		return rc;
	int bad = sqlite3_bind_int64(st, 1, plan_id) | ior_db_bind_text(st, 2, state);
	return exec_done(db, st, bad, what, NULL);
}

void ior_db_target_plan_free(struct ior_db_target_plan *p)
{
	free(p->vm_run);
	free(p->target);
	free(p->matrix_file);
	free(p->matrix_text);
	free(p->options);
	free(p->state);
	free(p->boot_id);
	memset(p, 0, sizeof(*p));
}

int ior_db_target_step_add(struct ior_db *db, int64_t plan_id, int seq, int round, const char *kernel)
{
	static const char what[] = "cannot store a step of a plan of boots in";
	sqlite3_stmt *st;
	int rc = prepare(db, "INSERT INTO target_steps (plan_id, seq, round, kernel) VALUES (?1, ?2, ?3, ?4)", &st, what);
	if (rc)
		return rc;
	int bad = sqlite3_bind_int64(st, 1, plan_id) | sqlite3_bind_int(st, 2, seq) | sqlite3_bind_int(st, 3, round) |
		  ior_db_bind_text(st, 4, kernel);
	return exec_done(db, st, bad, what, NULL);
}

static void read_step(sqlite3_stmt *st, void *to, bool *oom)
{
	struct ior_db_target_step *out = to;
	out->id = sqlite3_column_int64(st, 0);
	out->plan_id = sqlite3_column_int64(st, 1);
	out->vm_boot_id = sqlite3_column_int64(st, 2);
	out->seq = sqlite3_column_int(st, 3);
	out->round = sqlite3_column_int(st, 4);
	out->tries = sqlite3_column_int(st, 5);
	out->kernel = ior_db_column_dup(st, 6, oom);
	out->state = ior_db_column_dup(st, 7, oom);
	out->reason = ior_db_column_dup(st, 8, oom);
	out->from_boot_id = ior_db_column_dup(st, 9, oom);
}

int ior_db_target_step_next(struct ior_db *db, int64_t plan_id, struct ior_db_target_step *out)
{
	memset(out, 0, sizeof(*out));
	int rc = one_row(db,
			 "SELECT id, plan_id, ifnull(vm_boot_id, 0), seq, round, tries, kernel, state, reason, from_boot_id "
			 "FROM target_steps WHERE plan_id = ?1 AND state NOT IN ('done', 'skipped') ORDER BY seq LIMIT 1",
			 "cannot read the steps of a plan of boots from", NULL, plan_id, read_step, out);
	if (rc)
		ior_db_target_step_free(out);
	return rc;
}

/* Two counts of a plan's steps, by sql (?1 the plan). */
static int count_steps(struct ior_db *db, const char *sql, int64_t plan_id, int *a, int *b)
{
	static const char what[] = "cannot count the steps of a plan of boots in";
	sqlite3_stmt *st;
	*a = *b = 0;
	int rc = prepare(db, sql, &st, what);
	if (rc)
		return rc;
	sqlite3_bind_int64(st, 1, plan_id);
	if (sqlite3_step(st) == SQLITE_ROW) {
		*a = sqlite3_column_int(st, 0);
		*b = sqlite3_column_int(st, 1);
	} else {
		rc = ior_db_fail(db, what);
	}
	sqlite3_finalize(st);
	return rc;
}

int ior_db_target_steps_count(struct ior_db *db, int64_t plan_id, int *steps, int *rounds)
{
	return count_steps(db, "SELECT count(*), ifnull(max(round), 0) FROM target_steps WHERE plan_id = ?1", plan_id, steps,
			   rounds);
}

int ior_db_target_steps_left(struct ior_db *db, int64_t plan_id, int *left)
{
	int unused;
	return count_steps(db, "SELECT count(*), 0 FROM target_steps WHERE plan_id = ?1 AND state NOT IN ('done', 'skipped')",
			   plan_id, left, &unused);
}

int ior_db_target_step_set(struct ior_db *db, int64_t step_id, const char *state, int tries, int64_t vm_boot_id,
			   const char *from_boot_id, const char *reason)
{
	static const char what[] = "cannot update a step of a plan of boots in";
	sqlite3_stmt *st;
	int rc = prepare(db,
			 "UPDATE target_steps SET state = ?2, tries = max(tries, ?3), vm_boot_id = ifnull(?4, vm_boot_id), "
			 "from_boot_id = ifnull(?5, from_boot_id), reason = ifnull(?6, reason), updated_at = " IOR_NOW
			 " WHERE id = ?1",
			 &st, what);
	if (rc)
		return rc;
	int bad = sqlite3_bind_int64(st, 1, step_id) | ior_db_bind_text(st, 2, state) | sqlite3_bind_int(st, 3, tries) |
		  ior_db_bind_id(st, 4, vm_boot_id) | ior_db_bind_text(st, 5, from_boot_id) | ior_db_bind_text(st, 6, reason);
	return exec_done(db, st, bad, what, NULL);
}

void ior_db_target_step_free(struct ior_db_target_step *s)
{
	free(s->kernel);
	free(s->state);
	free(s->reason);
	free(s->from_boot_id);
	memset(s, 0, sizeof(*s));
}

int ior_db_target_boot_row(struct ior_db *db, const char *vm_run, const char *kernel, int boot_index, int64_t *id,
			   char *outcome, size_t len)
{
	static const char what[] = "cannot read the boots of";
	sqlite3_stmt *st;
	int rc = prepare(db,
			 "SELECT id, outcome FROM vm_boots WHERE vm_run = ?1 AND kernel = ?2 AND boot_index = ?3 AND "
			 "outcome <> 'interrupted' ORDER BY id DESC LIMIT 1",
			 &st, what);
	if (rc)
		return rc;
	ior_db_bind_text(st, 1, vm_run);
	ior_db_bind_text(st, 2, kernel);
	sqlite3_bind_int(st, 3, boot_index);
	int r = sqlite3_step(st);
	if (r == SQLITE_ROW) {
		*id = sqlite3_column_int64(st, 0);
		const unsigned char *o = sqlite3_column_text(st, 1);
		if (outcome)
			snprintf(outcome, len, "%s", o ? (const char *)o : "");
	} else {
		rc = r == SQLITE_DONE ? IOR_ENOTFOUND : ior_db_fail(db, what);
	}
	sqlite3_finalize(st);
	return rc;
}

int ior_db_target_install_add(struct ior_db *db, const char *target, const char *package, const char *version,
			      const char *release, int64_t host_id, int pid, const char *boot_id, int64_t *id)
{
	static const char what[] = "cannot record a kernel installed on a target in";
	sqlite3_stmt *st;
	int rc = prepare(db,
			 "INSERT INTO target_installs (target, package, version, release, host_id, pid, boot_id) "
			 "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
			 &st, what);
	if (rc)
		return rc;
	int bad = ior_db_bind_text(st, 1, target) | ior_db_bind_text(st, 2, package) | ior_db_bind_text(st, 3, version) |
		  ior_db_bind_text(st, 4, release) | ior_db_bind_id(st, 5, host_id) | sqlite3_bind_int(st, 6, pid) |
		  ior_db_bind_text(st, 7, boot_id);
	return exec_done(db, st, bad, what, id);
}

int ior_db_target_install_done(struct ior_db *db, int64_t id, bool kept)
{
	static const char what[] = "cannot close a kernel installed on a target in";
	sqlite3_stmt *st;
	int rc = prepare(db,
			 kept ? "UPDATE target_installs SET kept = 1 WHERE id = ?1"
			      : "UPDATE target_installs SET removed_at = " IOR_NOW " WHERE id = ?1",
			 &st, what);
	if (rc)
		return rc;
	return exec_done(db, st, sqlite3_bind_int64(st, 1, id), what, NULL);
}

int ior_db_target_installs_pending(struct ior_db *db, const char *target, struct ior_db_target_install **out,
				   size_t *n)
{
	static const char what[] = "cannot read the kernels installed on targets from";
	*out = NULL;
	*n = 0;
	sqlite3_stmt *st;
	int rc = prepare(db,
			 "SELECT id, target, package, version, release, boot_id, ifnull(pid, 0) FROM target_installs "
			 "WHERE removed_at IS NULL AND kept = 0 AND (?1 IS NULL OR target = ?1) ORDER BY id",
			 &st, what);
	if (rc)
		return rc;
	ior_db_bind_text(st, 1, target);
	size_t cap = 0;
	bool oom = false;
	int r = SQLITE_DONE;
	while (!rc && (r = sqlite3_step(st)) == SQLITE_ROW) {
		if (*n == cap) {
			cap = cap ? cap * 2 : 8;
			struct ior_db_target_install *grown = realloc(*out, cap * sizeof(**out));
			if (!grown) {
				rc = ior_error_set(IOR_ERROR, "out of memory");
				break;
			}
			*out = grown;
		}
		struct ior_db_target_install *v = &(*out)[(*n)++];
		v->id = sqlite3_column_int64(st, 0);
		v->target = ior_db_column_dup(st, 1, &oom);
		v->package = ior_db_column_dup(st, 2, &oom);
		v->version = ior_db_column_dup(st, 3, &oom);
		v->release = ior_db_column_dup(st, 4, &oom);
		v->boot_id = ior_db_column_dup(st, 5, &oom);
		v->pid = sqlite3_column_int(st, 6);
		if (oom)
			rc = ior_error_set(IOR_ERROR, "out of memory");
	}
	if (!rc && r != SQLITE_DONE)
		rc = ior_db_fail(db, what);
	sqlite3_finalize(st);
	if (rc) {
		ior_db_target_installs_free(*out, *n);
		*out = NULL;
		*n = 0;
	}
	return rc;
}

void ior_db_target_installs_free(struct ior_db_target_install *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].target);
		free(v[i].package);
		free(v[i].version);
		free(v[i].release);
		free(v[i].boot_id);
	}
	free(v);
}
