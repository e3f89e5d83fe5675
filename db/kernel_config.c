/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What is recorded about how a kernel release on a host was built: its config hash (what tells two
 * builds of one release apart when no package names them) and its machine (the build's architecture). */
#include "db/db.h"
#include "db/internal.h"

#include "common/error.h"

#include <stdlib.h>

/* Read once per kernel of a report, so prepared here rather than at open (db/stmt.c); the column
 * name is one of a few fixed words, never input. */
#define KERNEL_COLUMN_SQL(col)                                                                              \
	"SELECT k." col " FROM kernels k JOIN runs r ON r.kernel_id = k.id JOIN hosts h ON h.id = r.host_id " \
	"WHERE h.name = ?1 AND k.release = ?2 AND k." col " IS NOT NULL ORDER BY r.id LIMIT 1"

static int first_value(struct ior_db *db, const char *sql, const char *host, const char *release, char **value)
{
	*value = NULL;
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK)
		return ior_db_fail(db, "cannot read kernel builds from");
	ior_db_bind_text(st, 1, host);
	ior_db_bind_text(st, 2, release);
	int rc = sqlite3_step(st), out = IOR_OK;
	bool oom = false;
	if (rc == SQLITE_ROW)
		*value = ior_db_column_dup(st, 0, &oom);
	else if (rc != SQLITE_DONE)
		out = ior_db_fail(db, "cannot read kernel builds from");
	sqlite3_finalize(st);
	return oom ? ior_error_set(IOR_ERROR, "out of memory") : out;
}

int ior_db_kernel_config_hash(struct ior_db *db, const char *host, const char *release, char **hash)
{
	return first_value(db, KERNEL_COLUMN_SQL("config_hash"), host, release, hash);
}

int ior_db_kernel_machine(struct ior_db *db, const char *host, const char *release, char **machine)
{
	return first_value(db, KERNEL_COLUMN_SQL("machine"), host, release, machine);
}

int ior_db_kernel_compiler(struct ior_db *db, const char *host, const char *release, char **compiler)
{
	return first_value(db, KERNEL_COLUMN_SQL("compiler"), host, release, compiler);
}
