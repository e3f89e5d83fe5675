/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Opening the results database: recognise (or refuse) the file, upgrade its schema, set WAL and
 * prepare the statements. */
#define IOR_TEST_HOOKS   /* ior_db_handle is defined here */
#include "db/internal.h"
#include "db/schema.h"

#include "common/error.h"
#include "common/named_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

static const char sqlite_magic[16] = "SQLite format 3";   /* with its NUL: 16 bytes */

/* Looks at the raw bytes before SQLite does, so a file that is not SQLite
 * is refused without being opened for writing. A missing or empty file is
 * a new database. */
static int check_file(const char *path)
{
	/* a FIFO, /dev/null or a disk is refused before SQLite opens it (and creates its
	 * journal beside it, in /dev) */
	struct stat st;
	int fd, rc = ior_open_regular(path, 0, "database ", &fd, &st);
	if (rc == IOR_ENOTFOUND) {
		ior_error_clear();
		return 0;
	}
	if (rc)
		return rc;
	char head[sizeof(sqlite_magic)];
	ssize_t got = -1;
	if (st.st_size > 0 && (got = read(fd, head, sizeof(head))) < 0)
		rc = ior_error_errno(IOR_ERROR, errno, "cannot read database '%s'", path);
	else if (st.st_size > 0 && (got != (ssize_t)sizeof(head) || memcmp(head, sqlite_magic, sizeof(head)) != 0))
		rc = ior_error_set(IOR_EINVALID, "cannot open database '%s': not an SQLite database", path);
	close(fd);
	return rc;
}

/* The first row of sql as n integers. */
static int query_ints(sqlite3 *h, const char *path, const char *sql, int *values, int n)
{
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(h, sql, -1, &st, NULL);
	if (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		for (int i = 0; i < n; i++)
			values[i] = sqlite3_column_int(st, i);
		rc = SQLITE_OK;
	}
	int code = 0;
	if (rc != SQLITE_OK) {
		code = (rc & 0xff) == SQLITE_BUSY ? IOR_EBUSY : (rc & 0xff) == SQLITE_NOTADB ? IOR_EINVALID : IOR_ERROR;
		ior_error_set(code, "cannot open database '%s': %s", path, sqlite3_errmsg(h));
	}
	sqlite3_finalize(st);
	return code;
}

/* Refuses what is not ours to change: another application's database (its
 * own application_id, or tables without ours) and a newer schema. Only reads. */
int ior_db_check_identity(sqlite3 *h, const char *path)
{
	/* One statement, one snapshot: read one by one, a process creating the file at the same
	 * moment could commit its first step in between, and the file would look like tables without
	 * our application_id (test_db's two creators saw that about one run in ten under load). */
	int identity[3] = { 0, 0, 0 }, rc;
	if ((rc = query_ints(h, path,
			     "SELECT (SELECT application_id FROM pragma_application_id), "
			     "(SELECT user_version FROM pragma_user_version), (SELECT count(*) FROM sqlite_master)",
			     identity, 3)))
		return rc;
	int app = identity[0], version = identity[1], objects = identity[2];
	if (app != IOR_DB_APPLICATION_ID && (app != 0 || objects > 0 || version != 0))
		return ior_error_set(IOR_EINVALID,
				     "cannot open database '%s': not an ioregress database "
				     "(application_id %d, %d schema objects)", path, app, objects);
	if (version > IOR_DB_SCHEMA_VERSION)
		return ior_error_set(IOR_EINVALID,
				     "cannot open database '%s': schema version %d is newer than this "
				     "ioregress supports (%d); use a newer ioregress", path, version,
				     IOR_DB_SCHEMA_VERSION);
	return 0;
}

static int exec(sqlite3 *h, const char *path, const char *sql)
{
	char *msg = NULL;
	int rc = sqlite3_exec(h, sql, NULL, NULL, &msg);
	if (rc == SQLITE_OK)
		return 0;
	int code = (rc & 0xff) == SQLITE_BUSY ? IOR_EBUSY : IOR_ERROR;
	ior_error_set(code, "cannot set up database '%s' (%s): %s", path, sql, msg ? msg : sqlite3_errstr(rc));
	sqlite3_free(msg);
	return code;
}

/* WAL lets readers (reports) run beside a writer (a run); NORMAL sync is
 * durable enough under WAL: a crash can lose the last commits, not the file. */
static int set_modes(sqlite3 *h, const char *path)
{
	bool wal = false;
	int rc = SQLITE_OK;
	/* The switch needs the file to itself. When another process creating the same file holds its
	 * write lock, SQLite returns BUSY at once instead of calling the busy handler (waiting with our
	 * read lock held could deadlock), so the wait is here, with no lock held between tries: CI saw
	 * test_db's two creators fail on this once in its runs. */
	for (int waited_ms = 0; !wal; waited_ms += 10) {
		sqlite3_stmt *st = NULL;
		rc = sqlite3_prepare_v2(h, "PRAGMA journal_mode = WAL", -1, &st, NULL);
		if (rc == SQLITE_OK)
			rc = sqlite3_step(st);
		wal = rc == SQLITE_ROW && strcmp((const char *)sqlite3_column_text(st, 0), "wal") == 0;
		sqlite3_finalize(st);
		if (wal || (rc & 0xff) != SQLITE_BUSY || waited_ms >= IOR_DB_BUSY_TIMEOUT_MS)
			break;
		sqlite3_sleep(10);
	}
	if (!wal)
		return ior_error_set((rc & 0xff) == SQLITE_BUSY ? IOR_EBUSY : IOR_ERROR,
				     "cannot set up database '%s': cannot switch to WAL journal: %s",
				     path, sqlite3_errmsg(h));
	if ((rc = exec(h, path, "PRAGMA synchronous = NORMAL")) ||
	    (rc = exec(h, path, "PRAGMA foreign_keys = ON")))
		return rc;
	return 0;
}

int ior_db_upgraded_copy(sqlite3 *from, const char *path, sqlite3 **copy)
{
	*copy = NULL;
	if (sqlite3_open_v2(":memory:", copy, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
		sqlite3_close(*copy);
		*copy = NULL;
		return ior_error_set(IOR_ERROR, "cannot copy database '%s': out of memory", path);
	}
	int rc = IOR_OK;
	sqlite3_backup *b = sqlite3_backup_init(*copy, "main", from, "main");
	if (!b || sqlite3_backup_step(b, -1) != SQLITE_DONE)
		rc = ior_error_set(IOR_EINVALID, "cannot read database '%s': %s", path, sqlite3_errmsg(*copy));
	sqlite3_backup_finish(b);
	if (rc == IOR_OK)
		rc = ior_db_schema_apply(*copy, path, IOR_DB_SCHEMA_VERSION);
	if (rc) {
		sqlite3_close(*copy);
		*copy = NULL;
	}
	return rc;
}

/* An older file is upgraded first in a copy in memory, with every statement prepared
 * against the result: a file that an upgrade would leave unusable (a damaged view, a
 * missing column) is refused before anything is written to it. */
static int rehearse_upgrade(struct ior_db *db, const char *path)
{
	int version = ior_db_schema_version(db->h, path);
	if (version < 0)
		return version;
	if (version == 0 || version >= IOR_DB_SCHEMA_VERSION)
		return IOR_OK; /* new file, or current: nothing to upgrade */
	struct ior_db copy = { .path = db->path };
	int rc = ior_db_upgraded_copy(db->h, path, &copy.h);
	if (rc == IOR_OK)
		rc = ior_db_stmt_prepare_all(&copy);
	ior_db_stmt_finalize_all(&copy);
	sqlite3_close(copy.h);
	if (rc)
		return ior_error_wrap(IOR_EINVALID, "refusing to upgrade '%s' from schema %d (the file is left as it was)",
				      path, version);
	return IOR_OK;
}

static int open_handle(struct ior_db *db, const char *path, bool create)
{
	int rc = check_file(path);
	if (rc)
		return rc;
	int src = sqlite3_open_v2(path, &db->h, SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0), NULL);
	if (src == SQLITE_CANTOPEN && !create && access(path, F_OK) != 0)
		return ior_error_set(IOR_ENOTFOUND, "database '%s' does not exist (nothing was created)", path);
	if (src != SQLITE_OK)
		return ior_error_set(IOR_ERROR, "cannot open database '%s': %s", path,
				     db->h ? sqlite3_errmsg(db->h) : sqlite3_errstr(src));
	sqlite3_extended_result_codes(db->h, 1);
	sqlite3_busy_timeout(db->h, IOR_DB_BUSY_TIMEOUT_MS);
	/* Statements are prepared before anything writes to a current file: a
	 * damaged schema is then refused with the file as it was. */
	if ((rc = ior_db_check_identity(db->h, path)) ||
	    (rc = rehearse_upgrade(db, path)) ||
	    (rc = ior_db_schema_apply(db->h, path, IOR_DB_SCHEMA_VERSION)) ||
	    (rc = ior_db_stmt_prepare_all(db)))
		return rc;
	return set_modes(db->h, path);
}

bool ior_db_on_readonly_media(const char *path)
{
	struct statvfs v;
	return statvfs(path, &v) == 0 && (v.f_flag & ST_RDONLY);
}

int ior_db_open_input(const char *path, sqlite3 **h)
{
	*h = NULL;
	/* A WAL file needs its -shm beside it, which read-only media cannot hold: there nothing can
	 * change the file either, so SQLite is told it is immutable (no locks, no -shm). */
	char *uri = NULL;
	if (ior_db_on_readonly_media(path)) {
		size_t len = strlen(path);
		char *enc = malloc(3 * len + 1), *at = enc;
		for (size_t i = 0; enc && i < len; i++) {
			unsigned char c = (unsigned char)path[i];
			if (c == '/' || c == '.' || c == '-' || c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
			    (c >= 'A' && c <= 'Z'))
				*at++ = (char)c;
			else
				at += sprintf(at, "%%%02X", c);
		}
		if (enc)
			*at = '\0';
		uri = enc ? sqlite3_mprintf("file:%s?immutable=1", enc) : NULL;
		free(enc);
		if (!uri)
			return ior_error_set(IOR_ERROR, "cannot open '%s': out of memory", path);
	}
	int rc = sqlite3_open_v2(uri ? uri : path, h, SQLITE_OPEN_READONLY | (uri ? SQLITE_OPEN_URI : 0), NULL);
	sqlite3_free(uri);
	if (rc != SQLITE_OK)
		return ior_error_set(IOR_EINVALID, "cannot open '%s': %s", path, *h ? sqlite3_errmsg(*h) : "out of memory");
	sqlite3_extended_result_codes(*h, 1);
	sqlite3_busy_timeout(*h, IOR_DB_BUSY_TIMEOUT_MS);
	return IOR_OK;
}

/* A database this process may not write (read-only media, another's file): opened only to
 * read, an older schema upgraded in a copy in memory, WAL left as it is. */
static int open_readonly(struct ior_db *db, const char *path)
{
	db->readonly = true;
	int rc = check_file(path);
	if (rc || (rc = ior_db_open_input(path, &db->h)) || (rc = ior_db_check_identity(db->h, path)))
		return rc;
	int version = ior_db_schema_version(db->h, path);
	if (version < 0)
		return version;
	if (version < IOR_DB_SCHEMA_VERSION) {
		sqlite3 *copy = NULL;
		if ((rc = ior_db_upgraded_copy(db->h, path, &copy)))
			return rc;
		sqlite3_close(db->h);
		db->h = copy;
	}
	return ior_db_stmt_prepare_all(db);
}

static int open_db(struct ior_db **out, const char *path, bool create)
{
	*out = NULL;
	struct ior_db *db = calloc(1, sizeof(*db));
	if (!db || !(db->path = strdup(path))) {
		free(db);
		return ior_error_set(IOR_ERROR, "cannot open database '%s': out of memory", path);
	}
	bool readonly = !create && access(path, F_OK) == 0 && (access(path, W_OK) != 0 || ior_db_on_readonly_media(path));
	int rc = readonly ? open_readonly(db, path) : open_handle(db, path, create);
	if (rc) {
		ior_db_free(db);
		return rc;
	}
	*out = db;
	return 0;
}

int ior_db_open(struct ior_db **out, const char *path)
{
	return open_db(out, path, true);
}

int ior_db_open_existing(struct ior_db **out, const char *path)
{
	return open_db(out, path, false);
}

void ior_db_free(struct ior_db *db)
{
	if (!db)
		return;
	ior_db_stmt_finalize_all(db);
	sqlite3_close(db->h);
	free(db->problems);
	free(db->path);
	free(db);
}

int ior_db_user_version(struct ior_db *db)
{
	return ior_db_schema_version(db->h, db->path);
}

const char *ior_db_path(struct ior_db *db)
{
	return db->path;
}

struct sqlite3 *ior_db_handle(struct ior_db *db)
{
	return db->h;
}

/* A begin inside another is a savepoint (SQLite's transactions do not nest), so a step that stores
 * all or nothing by itself can also be one part of a larger all-or-nothing (a replayed log). */
int ior_db_begin(struct ior_db *db)
{
	int rc = ior_db_step_done(db, ior_db_stmt(db, db->depth ? IOR_STMT_SAVEPOINT : IOR_STMT_BEGIN),
				  "cannot begin a transaction on");
	if (!rc)
		db->depth++;
	return rc;
}

int ior_db_commit(struct ior_db *db)
{
	bool inner = db->depth > 1;
	int rc = ior_db_step_done(db, ior_db_stmt(db, inner ? IOR_STMT_RELEASE : IOR_STMT_COMMIT), "cannot commit to");
	if (!rc && db->depth)
		db->depth--;
	return rc;
}

int ior_db_rollback(struct ior_db *db)
{
	if (db->depth > 1) {
		/* undo the inner part and end its savepoint; the outer transaction goes on */
		int rc = ior_db_step_done(db, ior_db_stmt(db, IOR_STMT_ROLLBACK_TO), "cannot roll back");
		if (!rc)
			rc = ior_db_step_done(db, ior_db_stmt(db, IOR_STMT_RELEASE), "cannot roll back");
		db->depth--;
		return rc;
	}
	db->depth = 0;
	return ior_db_step_done(db, ior_db_stmt(db, IOR_STMT_ROLLBACK), "cannot roll back");
}
