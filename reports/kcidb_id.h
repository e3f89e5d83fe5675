/* SPDX-License-Identifier: GPL-2.0-or-later */
/* KCIDB ids and paths, kept apart from the renderer that writes the objects they name. */
#ifndef IOR_REPORTS_KCIDB_ID_H
#define IOR_REPORTS_KCIDB_ID_H

#include <stddef.h>

#include "reports/render.h"

/* Ids are ORIGIN:KIND:PART:PART...; ':' and '%' inside a part are percent-encoded, so two keys
 * never meet in one id and the same database always gives the same ids. An id is never cut: a part
 * longer than ID_PART_MAX encoded keeps its first ID_PART_KEEP bytes (whole UTF-8 sequences) and
 * '~' with the first 16 hex digits of the sha256 of the whole part, so two long names that differ
 * only at their end still get two ids, and an id has at most KCIDB_ORIGIN_MAX + 13 * 66 bytes. */
#define ID_PART_MAX 64
#define ID_PART_KEEP 40
#define ID_PARTS_MAX 13
struct ior_kcidb_id {
	char s[KCIDB_ORIGIN_MAX + ID_PARTS_MAX * (ID_PART_MAX + 2) + 1];
	size_t len, parts;
};

/* A new id: the origin, then kind as its first part. */
void ior_kcidb_id_start(struct ior_kcidb_id *x, const char *origin, const char *kind);
/* One more part, encoded (and hashed past ID_PART_MAX); aborts past ID_PARTS_MAX parts. */
void ior_kcidb_id_add(struct ior_kcidb_id *x, const char *part);
/* A run's start as an id part (see ior_kcidb_run_key), added to x. */
void ior_kcidb_id_add_run(struct ior_kcidb_id *x, const char *started_at, size_t rank);
/* A run's start as key text: its UTC text without '-' and ':', and "-N" when rank is not 0. */
void ior_kcidb_run_key(char *key, size_t len, const char *started_at, size_t rank);
/* Appends '.' and part as a KCIDB path element to buf. */
void ior_kcidb_path_add(char *buf, size_t len, const char *part);

#endif
