/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fuzz target: opening a damaged or foreign database file — it opens as a current ioregress
 * database, or it is refused with a message naming it and left byte for byte as it was. */
#include "tests/fuzz/targets.h"

#include "common/error.h"
#include "db/db.h"

#include <string.h>

int ior_fuzz_db_open(const uint8_t *data, size_t size)
{
	const char *path = ior_fuzz_path("input.db");
	if (ior_fuzz_write(path, data, size))
		return -1;
	struct ior_db *db = NULL;
	ior_error_clear();
	int rc = ior_db_open(&db, path);
	ior_fuzz_set_accepted(rc == 0);
	if (rc == 0) {
		int version = db ? ior_db_user_version(db) : -1;
		ior_db_free(db);
		if (version != IOR_DB_SCHEMA_VERSION)
			return ior_fuzz_fail("opened database has schema version %d, expected %d", version,
					     IOR_DB_SCHEMA_VERSION);
		return 0;
	}
	const char *msg = ior_error_last();
	if (db)
		return ior_fuzz_fail("refused open (%d) returned a handle", rc);
	if (!strstr(msg, path))
		return ior_fuzz_fail("refusal does not name the file: '%s'", msg);
	int same = ior_fuzz_same(path, data, size);
	if (same != 1)
		return ior_fuzz_fail("refused file was %s (%zu bytes given): %s", same < 0 ? "unreadable" : "changed",
				     size, msg);
	return 0;
}
