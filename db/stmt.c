/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The prepared-statement table (an enum plus SQL strings, freebsd/pkg's model) and the helpers that
 * bind and step them. */
#include "db/internal.h"
#include "db/schema.h"

#include "common/error.h"

#include <stdlib.h>
#include <string.h>


/* Values only ever reach SQL as numbered parameters. Identity lookups use
 * the same ifnull() expressions as the UNIQUE indexes, so what INSERT OR
 * IGNORE treats as "already there" is exactly what SELECT finds. */
static const char *const sql[IOR_STMT_COUNT] = {
	[IOR_STMT_BEGIN] = "BEGIN IMMEDIATE",
	[IOR_STMT_COMMIT] = "COMMIT",
	[IOR_STMT_ROLLBACK] = "ROLLBACK",
	[IOR_STMT_SAVEPOINT] = "SAVEPOINT ior_inner",
	[IOR_STMT_RELEASE] = "RELEASE ior_inner",
	[IOR_STMT_ROLLBACK_TO] = "ROLLBACK TO ior_inner",
	[IOR_STMT_HOST_INSERT] = "INSERT OR IGNORE INTO hosts (name, machine) VALUES (?1, ?2)",
	[IOR_STMT_HOST_SELECT] = "SELECT id FROM hosts WHERE name = ?1",
	[IOR_STMT_HOST_SET_MACHINE] = "UPDATE hosts SET machine = ?2 WHERE id = ?1 AND machine IS NULL",
	[IOR_STMT_KERNEL_INSERT] =
		"INSERT OR IGNORE INTO kernels (release, version, machine, cmdline, git_commit, config_hash) "
		"VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
	[IOR_STMT_KERNEL_SELECT] =
		"SELECT id FROM kernels WHERE release = ?1 AND ifnull(version, '') = ifnull(?2, '') "
		"AND ifnull(machine, '') = ifnull(?3, '') AND ifnull(cmdline, '') = ifnull(?4, '') "
		"AND ifnull(git_commit, '') = ifnull(?5, '') AND ifnull(config_hash, '') = ifnull(?6, '')",
	[IOR_STMT_DEVICE_INSERT] =
		"INSERT OR IGNORE INTO devices (host_id, name, path, model, rotational, size, logical_block, "
		"physical_block) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
	[IOR_STMT_DEVICE_SELECT] =
		"SELECT id FROM devices WHERE host_id = ?1 AND name = ?2 AND ifnull(path, '') = ifnull(?3, '') "
		"AND ifnull(model, '') = ifnull(?4, '') AND rotational = ?5 AND size = ?6 "
		"AND logical_block = ?7 AND physical_block = ?8",
	[IOR_STMT_RUN_INSERT] =
		"INSERT INTO runs (host_id, kernel_id, status, matrix_file, matrix_text, ioregress_version) "
		"VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
	[IOR_STMT_RUN_FINISH] = "UPDATE runs SET status = ?2, finished_at = " IOR_NOW " WHERE id = ?1",
	[IOR_STMT_RUN_IMPORTED] =
		"SELECT id FROM runs WHERE host_id = ?1 AND kernel_id = ?2 AND status = 'imported' "
		"ORDER BY id LIMIT 1",
	[IOR_STMT_OFFER_INSERT] =
		"INSERT OR REPLACE INTO scheduler_offers (run_id, device_id, scheduler, active, module_state) "
		"VALUES (?1, ?2, ?3, ?4, ?5)",
	[IOR_STMT_OFFER_KERNEL_WIDE] =
		"SELECT scheduler FROM scheduler_offers WHERE run_id = ?1 AND device_id IS NULL ORDER BY scheduler",
	[IOR_STMT_CELL_INSERT] =
		"INSERT OR IGNORE INTO cells (run_id, device_id, scheduler, engine, engine_type, params) "
		"VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
	[IOR_STMT_CELL_SELECT] =
		"SELECT id FROM cells WHERE run_id = ?1 AND device_id = ?2 AND ifnull(scheduler, '') = ifnull(?3, '') "
		"AND engine = ?4 AND ifnull(params, '') = ifnull(?5, '')",
	[IOR_STMT_CELL_SET_STATUS] = "UPDATE cells SET status = ?2, reason = ?3 WHERE id = ?1",
	[IOR_STMT_CELL_SAMPLE_COUNT] = "SELECT count(*) FROM samples WHERE cell_id = ?1",
	/* the parameters as enum ior_sample_param numbers them */
	[IOR_STMT_SAMPLE_INSERT] =
		"INSERT INTO samples (cell_id, rep, value, unit, higher_is_better, detail, fill, warmup, round, "
		IOR_SQL_MEASURES ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, " IOR_SQL_MEASURE_PARAMS ")",
	[IOR_STMT_SAMPLE_AT_REP] = "SELECT value, unit, warmup FROM samples WHERE cell_id = ?1 AND rep = ?2",
	[IOR_STMT_SAMPLES] =
		"SELECT run_id, cell_id, host, kernel, device, scheduler, engine, params, unit, rep, value, "
		"higher_is_better, sample_id, engine_type, run_status, detail, measured_at, fill, warmup, "
		IOR_SQL_MEASURES " FROM sample_view "
		"WHERE (?1 IS NULL OR host = ?1) AND (?2 IS NULL OR kernel = ?2) AND (?3 IS NULL OR device = ?3) "
		"AND (?4 IS NULL OR scheduler = ?4) AND (?5 IS NULL OR engine = ?5) "
		"AND (?6 IS NULL OR run_id = ?6) "
		"ORDER BY host, kernel, device, scheduler, engine, run_id, rep",
	[IOR_STMT_CELLS_NOT_OK] =
		"SELECT h.name, k.release, d.name, c.scheduler, c.engine, c.status, c.reason, r.id FROM cells c "
		"JOIN runs r ON r.id = c.run_id JOIN hosts h ON h.id = r.host_id JOIN kernels k ON k.id = r.kernel_id "
		"JOIN devices d ON d.id = c.device_id WHERE c.status <> 'ok' "
		"AND (?1 IS NULL OR h.name = ?1) AND (?2 IS NULL OR k.release = ?2) AND (?3 IS NULL OR d.name = ?3) "
		"AND (?4 IS NULL OR c.scheduler = ?4) AND (?5 IS NULL OR c.engine = ?5) AND (?6 IS NULL OR r.id = ?6) "
		"ORDER BY h.name, k.release, r.id, c.id",
	[IOR_STMT_HOST_KERNELS] = "SELECT DISTINCT host, kernel FROM sample_view ORDER BY host, kernel",
	[IOR_STMT_OFFERED] =
		"SELECT DISTINCT o.scheduler FROM scheduler_offers o JOIN runs r ON r.id = o.run_id "
		"JOIN hosts h ON h.id = r.host_id JOIN kernels k ON k.id = r.kernel_id "
		"WHERE h.name = ?1 AND k.release = ?2 ORDER BY o.scheduler",
	[IOR_STMT_UNDO_INSERT] = "INSERT INTO undo_log (run_id, kind, target, original) VALUES (?1, ?2, ?3, ?4)",
	[IOR_STMT_UNDO_INSERT_OWNED] =
		"INSERT INTO undo_log (host_id, pid, boot_id, kind, target, original) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
	[IOR_STMT_UNDO_DONE] = "UPDATE undo_log SET undone_at = " IOR_NOW " WHERE id = ?1",
	[IOR_STMT_UNDO_KIND_DONE] =
		"UPDATE undo_log SET undone_at = " IOR_NOW " WHERE run_id = ?1 AND kind = ?2 AND undone_at IS NULL",
	[IOR_STMT_UNDO_PENDING] =
		"SELECT u.id, u.run_id, u.kind, u.target, u.original, coalesce(r.pid, u.pid), "
		"coalesce(r.boot_id, u.boot_id) FROM undo_log u "
		"LEFT JOIN runs r ON r.id = u.run_id JOIN hosts h ON h.id = coalesce(r.host_id, u.host_id) "
		"WHERE u.undone_at IS NULL AND h.name = ?1 ORDER BY u.id DESC",
	[IOR_STMT_RUN_SET_OWNER] = "UPDATE runs SET pid = ?2, boot_id = ?3 WHERE id = ?1",
	[IOR_STMT_RUNS_RUNNING] =
		"SELECT r.id, r.pid, r.boot_id FROM runs r JOIN hosts h ON h.id = r.host_id "
		"WHERE r.status = 'running' AND h.name = ?1 ORDER BY r.id",
	[IOR_STMT_RUN_INFO] =
		"SELECT r.id, h.name, k.release, r.status, r.matrix_file, r.matrix_text, r.merged_from FROM runs r "
		"JOIN hosts h ON h.id = r.host_id JOIN kernels k ON k.id = r.kernel_id WHERE r.id = ?1",
	[IOR_STMT_RUN_DEVICE_BY_NAME] =
		"SELECT d.id FROM cells c JOIN devices d ON d.id = c.device_id WHERE c.run_id = ?1 AND d.name = ?2 "
		"ORDER BY c.id LIMIT 1",
	[IOR_STMT_RUN_SET_ORDER] = "UPDATE runs SET rep_order = ?2, order_seed = ?3 WHERE id = ?1",
	[IOR_STMT_FILL_INSERT] =
		"INSERT INTO fills (run_id, device_id, target, fill, bytes, seconds) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
	[IOR_STMT_RUN_REOPEN] = "UPDATE runs SET status = 'running', finished_at = NULL WHERE id = ?1",
	[IOR_STMT_VM_BOOT_INSERT] =
		"INSERT INTO vm_boots (host_id, run_id, kernel, kernel_release, kernel_package_version, boot_index, "
		"outcome, reason, guest_status, accelerator, cpus, memory_mb, cache_mode, pinned_cpus, qemu_version, "
		"matrix_file, boot_s, total_s, console_log, started_at, finished_at, vm_run, target, boot_id) VALUES (?1, ?2, "
		"?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ifnull(?20, " IOR_NOW "), "
		IOR_NOW ", ?21, ?22, ?23)",
	[IOR_STMT_OFFERED_STATES] =
		"SELECT o.scheduler, max(o.module_state) FROM scheduler_offers o JOIN runs r ON r.id = o.run_id "
		"JOIN hosts h ON h.id = r.host_id JOIN kernels k ON k.id = r.kernel_id "
		"WHERE h.name = ?1 AND k.release = ?2 AND o.module_state IS NOT NULL GROUP BY o.scheduler ORDER BY o.scheduler",
	[IOR_STMT_VM_BOOTS] =
		"SELECT b.kernel, ifnull(b.kernel_release, ''), b.boot_index, b.outcome, ifnull(b.reason, ''), "
		"ifnull(b.accelerator, ''), ifnull(b.cpus, 0), ifnull(b.memory_mb, 0), ifnull(b.cache_mode, ''), "
		"ifnull(b.qemu_version, ''), ifnull(b.boot_s, -1), ifnull(b.total_s, -1), h.name, "
		"ifnull(b.pinned_cpus, ''), b.kernel_package_version, ifnull(b.run_id, 0), b.vm_run, b.started_at FROM vm_boots b JOIN hosts h ON h.id = b.host_id ORDER BY b.started_at, b.id",
	[IOR_STMT_COMMIT_UPSERT] =
		"INSERT INTO commits (sha, describe, subject, author_name, author_email, author_date, repository_url, branch) "
		"VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) "
		"ON CONFLICT (sha) DO UPDATE SET describe = coalesce(describe, excluded.describe), "
		"repository_url = coalesce(repository_url, excluded.repository_url), branch = coalesce(branch, excluded.branch)",
	[IOR_STMT_COMMIT_SELECT] = "SELECT id FROM commits WHERE sha = ?1",
	[IOR_STMT_KERNEL_COMMIT_OF] =
		"SELECT k.commit_id, c.sha FROM kernels k LEFT JOIN commits c ON c.id = k.commit_id WHERE k.id = ?1",
	[IOR_STMT_KERNEL_SET_COMMIT] = "UPDATE kernels SET commit_id = ?2 WHERE id = ?1 AND commit_id IS NULL",
	[IOR_STMT_KERNEL_SET_COMPILER] = "UPDATE kernels SET compiler = ?2 WHERE id = ?1 AND compiler IS NULL",
	[IOR_STMT_KERNEL_COMMITS] =
		"SELECT DISTINCT c.id, c.sha, c.describe, c.subject, c.author_name, c.author_email, c.author_date, "
		"c.repository_url, c.branch "
		"FROM runs r JOIN hosts h ON h.id = r.host_id JOIN kernels k ON k.id = r.kernel_id "
		"JOIN commits c ON c.id = k.commit_id WHERE h.name = ?1 AND k.release = ?2 ORDER BY c.id",
	[IOR_STMT_LATEST_RUN] = "SELECT max(id) FROM runs WHERE id IS NOT NULL HAVING max(id) IS NOT NULL",
	/* a bisection's state (db/bisect_state.c): ?1 is the bisection */
	[IOR_STMT_BISECT_INSERT] = "INSERT INTO bisects (higher_is_better, source, repo, good, bad, orig_head, kernels) "
				   "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
	[IOR_STMT_BISECT_CURRENT] =
		"SELECT id, source, repo, good, bad, orig_head, higher_is_better, measure_cmd, build_cmd, boot_cmd, image, "
		"status, result, started_at, kernels, matrix, target, target_default FROM bisects WHERE status <> 'reset' ORDER BY id DESC LIMIT 1",
	[IOR_STMT_BISECT_SET_COMMANDS] =
		"UPDATE bisects SET measure_cmd = ?2, build_cmd = ?3, boot_cmd = ?4, image = ?5 WHERE id = ?1",
	[IOR_STMT_BISECT_SET_MATRIX] = "UPDATE bisects SET matrix = ?2 WHERE id = ?1",
	[IOR_STMT_BISECT_SET_TARGET_DEFAULT] = "UPDATE bisects SET target = ?2, target_default = ?3 WHERE id = ?1",
	[IOR_STMT_BISECT_SET_STATUS] = "UPDATE bisects SET status = ?2, result = ?3 WHERE id = ?1",
	[IOR_STMT_BISECT_LOG] =
		"INSERT INTO bisect_log (bisect_id, commit_id, event, detail) VALUES (?1, ?2, ?3, ?4)",
	[IOR_STMT_BISECT_COMMIT_ENSURE] = "INSERT OR IGNORE INTO bisect_commits (bisect_id, commit_id) VALUES (?1, ?2)",
	[IOR_STMT_BISECT_BUILD_GET] =
		"SELECT build, image FROM bisect_commits WHERE bisect_id = ?1 AND commit_id = ?2 AND build IS NOT NULL",
	[IOR_STMT_BISECT_BUILD_SET] =
		"UPDATE bisect_commits SET build = ?3, image = ?4 WHERE bisect_id = ?1 AND commit_id = ?2",
	[IOR_STMT_BISECT_SAME_IMAGE] =
		"SELECT commit_id, mark FROM bisect_commits WHERE bisect_id = ?1 AND commit_id <> ?2 AND image = ?3 "
		"AND mark IN ('good', 'bad') LIMIT 1",
	[IOR_STMT_BISECT_MARK_SET] =
		"UPDATE bisect_commits SET mark = ?3, reason = ?4 WHERE bisect_id = ?1 AND commit_id = ?2",
	[IOR_STMT_BISECT_MARKS] = "SELECT commit_id, mark FROM bisect_commits WHERE bisect_id = ?1 AND mark IS NOT NULL",
	[IOR_STMT_BISECT_REASON] = "SELECT reason FROM bisect_commits WHERE bisect_id = ?1 AND commit_id = ?2",
	[IOR_STMT_BISECT_MEASUREMENT_NEXT] =
		"SELECT ifnull(max(measurement), 0) + 1 FROM bisect_samples WHERE bisect_id = ?1",
	[IOR_STMT_BISECT_SAMPLE_INSERT] =
		"INSERT INTO bisect_samples (bisect_id, commit_id, measurement, value, round) VALUES (?1, ?2, ?3, ?4, ?5)",
	[IOR_STMT_BISECT_SAMPLES] = "SELECT value FROM bisect_samples WHERE bisect_id = ?1 AND commit_id = ?2 ORDER BY id",
	[IOR_STMT_BISECT_SAMPLES_COUNT] = "SELECT count(*) FROM bisect_samples WHERE bisect_id = ?1 AND commit_id = ?2",
	[IOR_STMT_BISECT_ROUND_NEXT] = "SELECT ifnull(max(round), 0) + 1 FROM bisect_samples WHERE bisect_id = ?1",
	[IOR_STMT_BISECT_ROUND_SAMPLES] =
		"SELECT round, commit_id, value FROM bisect_samples WHERE bisect_id = ?1 AND round >= ?2 "
		"ORDER BY round, commit_id, id",
	[IOR_STMT_BISECT_BUILDS_COUNT] = "SELECT count(*) FROM bisect_log WHERE bisect_id = ?1 AND event = 'build'",
	[IOR_STMT_BISECT_MEASUREMENTS_COUNT] =
		"SELECT count(DISTINCT measurement) FROM bisect_samples WHERE bisect_id = ?1",
	[IOR_STMT_BISECT_ALL_SAMPLES_COUNT] = "SELECT count(*) FROM bisect_samples WHERE bisect_id = ?1",
	[IOR_STMT_BISECT_LOG_ALL] = "SELECT commit_id, event, detail, at FROM bisect_log WHERE bisect_id = ?1 ORDER BY id",
	[IOR_STMT_BISECT_LOG_LAST] =
		"SELECT detail FROM bisect_log WHERE bisect_id = ?1 AND commit_id IS ?2 AND event = ?3 "
		"ORDER BY id DESC LIMIT 1",
	/* a commit's state besides build and mark (schema 15) */
	[IOR_STMT_BISECT_BUILD_ERROR_SET] =
		"UPDATE bisect_commits SET build_error = ?3 WHERE bisect_id = ?1 AND commit_id = ?2",
	[IOR_STMT_BISECT_BOOT_FAILURE_SET] =
		"UPDATE bisect_commits SET boot_failure = ?3 WHERE bisect_id = ?1 AND commit_id = ?2",
	[IOR_STMT_BISECT_CONFIG_SET] = "UPDATE bisect_commits SET config_hash = substr(?3, 1, instr(?3 || ' ', ' ') - 1) "
				       "WHERE bisect_id = ?1 AND commit_id = ?2",
	[IOR_STMT_BISECT_COMMIT_STATE] =
		"SELECT build_error, boot_failure, config_hash, confirm_from, confirm_parent, confirm_need "
		"FROM bisect_commits WHERE bisect_id = ?1 AND commit_id = ?2",
	[IOR_STMT_BISECT_CONFIRM_SET] = "UPDATE bisect_commits SET confirm_parent = ?3, confirm_from = ?4, confirm_need = ?5 "
					"WHERE bisect_id = ?1 AND commit_id = ?2",
	[IOR_STMT_BISECT_KCONFIG_SET] = "INSERT OR REPLACE INTO bisect_kernels (bisect_id, config, defconfig, build_dir, nice) "
					"VALUES (?1, ?2, ?3, ?4, ?5)",
	[IOR_STMT_BISECT_KCONFIG_GET] = "SELECT config, defconfig, build_dir, nice FROM bisect_kernels WHERE bisect_id = ?1",
	[IOR_STMT_BISECT_FRAGMENTS_CLEAR] = "DELETE FROM bisect_fragments WHERE bisect_id = ?1",
	[IOR_STMT_BISECT_FRAGMENT_ADD] = "INSERT INTO bisect_fragments (bisect_id, seq, path) VALUES (?1, ?3, ?2)",
	[IOR_STMT_BISECT_FRAGMENTS] = "SELECT path FROM bisect_fragments WHERE bisect_id = ?1 ORDER BY seq",
	/* what a bisection over VM boots reads back (db/vm_boots.c) */
	[IOR_STMT_VM_BOOT_LAST] =
		"SELECT outcome, reason, console_log FROM vm_boots WHERE kernel = ?1 ORDER BY id DESC LIMIT 1",
	[IOR_STMT_VM_KERNEL_SAMPLES] =
		"SELECT s.value FROM samples s WHERE s.cell_id = (SELECT min(c.id) FROM cells c WHERE c.status = 'ok' "
		"AND c.run_id = (SELECT run_id FROM vm_boots WHERE kernel = ?1 AND outcome = 'ok' AND run_id IS NOT NULL "
		"ORDER BY id DESC LIMIT 1)) AND s.warmup = 0 ORDER BY s.rep",
	[IOR_STMT_VM_KERNEL_IDS] =
		"SELECT DISTINCT r.kernel_id FROM vm_boots b JOIN runs r ON r.id = b.run_id WHERE b.kernel = ?1",
	[IOR_STMT_SAMPLE_TOTAL] = "SELECT count(*) FROM samples",
};

int ior_db_stmt_prepare_all(struct ior_db *db)
{
	for (int i = 0; i < IOR_STMT_COUNT; i++) {
		/* a statement of the stored measures names them from their column table */
		char *text = strchr(sql[i], '{') ? ior_db_measures_sql(sql[i], IOR_SAMPLE_MEASURES) : NULL;
		if (strchr(sql[i], '{') && !text)
			return ior_error_set(IOR_ERROR, "cannot open database '%s': out of memory", db->path);
		int rc = sqlite3_prepare_v3(db->h, text ? text : sql[i], -1, SQLITE_PREPARE_PERSISTENT, &db->stmt[i], NULL);
		free(text);
		if (rc != SQLITE_OK)
			return ior_error_set(IOR_EINVALID, "cannot open database '%s': damaged schema (statement %d: %s)",
					     db->path, i, sqlite3_errmsg(db->h));
	}
	return 0;
}

void ior_db_stmt_finalize_all(struct ior_db *db)
{
	for (int i = 0; i < IOR_STMT_COUNT; i++) {
		sqlite3_finalize(db->stmt[i]);
		db->stmt[i] = NULL;
	}
}

sqlite3_stmt *ior_db_stmt(struct ior_db *db, enum ior_stmt which)
{
	sqlite3_stmt *st = db->stmt[which];
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return st;
}

int ior_db_fail(struct ior_db *db, const char *what)
{
	int rc = sqlite3_extended_errcode(db->h);
	int code = IOR_ERROR;
	if ((rc & 0xff) == SQLITE_BUSY || (rc & 0xff) == SQLITE_LOCKED)
		code = IOR_EBUSY;
	else if ((rc & 0xff) == SQLITE_CONSTRAINT)
		code = IOR_EINVALID;
	return ior_error_set(code, "%s '%s': %s", what, db->path, sqlite3_errmsg(db->h));
}

int ior_db_bind_text(sqlite3_stmt *st, int i, const char *s)
{
	return s ? sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT) : sqlite3_bind_null(st, i);
}

int ior_db_bind_id(sqlite3_stmt *st, int i, int64_t id)
{
	return id ? sqlite3_bind_int64(st, i, id) : sqlite3_bind_null(st, i);
}

int ior_db_step_done(struct ior_db *db, sqlite3_stmt *st, const char *what)
{
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		;
	/* The error must be read before reset, which would clear it. */
	int out = rc == SQLITE_DONE ? 0 : ior_db_fail(db, what);
	sqlite3_reset(st);
	return out;
}

int ior_db_step_id(struct ior_db *db, sqlite3_stmt *st, const char *what, int64_t *id)
{
	int rc = sqlite3_step(st);
	int out = 0;
	if (rc == SQLITE_ROW)
		*id = sqlite3_column_int64(st, 0);
	else if (rc == SQLITE_DONE)
		out = IOR_ENOTFOUND;
	else
		out = ior_db_fail(db, what);
	sqlite3_reset(st);
	return out;
}

char *ior_db_column_dup(sqlite3_stmt *st, int col, bool *oom)
{
	const unsigned char *s = sqlite3_column_text(st, col);
	if (!s)
		return NULL;
	char *copy = strdup((const char *)s);
	if (!copy)
		*oom = true;
	return copy;
}
