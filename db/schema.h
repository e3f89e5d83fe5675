/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Private to db/ and its tests: the schema's upgrade steps, so a test can build a database of an older version. */
#ifndef IOR_DB_SCHEMA_H
#define IOR_DB_SCHEMA_H

#include <sqlite3.h>

/* Timestamps in UTC with milliseconds, as every table and statement stores them. */
#define IOR_NOW "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"

/* Applies every step above the file's user_version up to and including
 * upto (at most IOR_DB_SCHEMA_VERSION), each in its own BEGIN IMMEDIATE
 * transaction that re-reads the version, so two processes creating one file
 * at once apply each step once. Returns 0 or an ior_status with the message
 * naming path. */
int ior_db_schema_apply(sqlite3 *h, const char *path, int upto);

/* The file's PRAGMA user_version, or a negative ior_status. */
int ior_db_schema_version(sqlite3 *h, const char *path);

/* Schema 15's step after its SQL (db/bisect_kconfig.c): bisect start --kernel's config, logged as
 * text before it, into its columns. */
int ior_db_bisect_kconfig_upgrade(sqlite3 *h);

#endif
