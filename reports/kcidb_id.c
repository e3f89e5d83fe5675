/* SPDX-License-Identifier: GPL-2.0-or-later */
/* KCIDB ids and paths: ORIGIN:KIND:PART... with parts percent-encoded and long ones hashed, run keys,
 * dotted path elements, and the origin's check. */
#include "reports/kcidb_id.h"

#include "common/error.h"
#include "kernel/info.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t encoded_len(unsigned char c)
{
	return c == ':' || c == '%' ? 3 : 1;
}

void ior_kcidb_id_add(struct ior_kcidb_id *x, const char *part)
{
	static const char hex[] = "0123456789ABCDEF";
	if (x->parts++ >= ID_PARTS_MAX)
		abort();   /* a new kind of id with more parts: raise ID_PARTS_MAX */
	const unsigned char *p = (const unsigned char *)(part ? part : "");
	size_t whole = 0;
	for (const unsigned char *q = p; *q; q++)
		whole += encoded_len(*q);
	size_t keep = whole <= ID_PART_MAX ? whole : ID_PART_KEEP, used = 0;
	x->s[x->len++] = ':';
	while (*p) {
		size_t seq = 1, enc = encoded_len(*p);   /* a UTF-8 sequence goes whole or not at all */
		while (p[seq] && (p[seq] & 0xc0) == 0x80)
			seq++;
		if (*p < 0x80)
			seq = 1;
		else
			enc = seq;
		if (used + enc > keep)
			break;
		for (size_t i = 0; i < seq; i++, p++)
			if (*p == ':' || *p == '%') {
				x->s[x->len++] = '%';
				x->s[x->len++] = hex[*p >> 4];
				x->s[x->len++] = hex[*p & 15];
			} else {
				x->s[x->len++] = (char)*p;
			}
		used += enc;
	}
	if (whole > ID_PART_MAX) {
		char sha[65];
		if (ior_kernel_config_sha256(sha, part, strlen(part)))
			abort();   /* libcrypto without sha256 */
		x->len += (size_t)snprintf(x->s + x->len, sizeof(x->s) - x->len, "~%.16s", sha);
	}
	x->s[x->len] = 0;
}

void ior_kcidb_id_start(struct ior_kcidb_id *x, const char *origin, const char *kind)
{
	x->parts = 0;
	x->len = (size_t)snprintf(x->s, sizeof(x->s), "%s", origin);
	ior_kcidb_id_add(x, kind);
}

int ior_kcidb_origin_check(const char *origin)
{
	if (!origin)
		return ior_error_set(IOR_EINVALID, "--format kcidb needs --origin NAME: the submitting CI system's name, "
				     "which starts every id (two systems with one origin would write the same ids)");
	if (!*origin || strspn(origin, "abcdefghijklmnopqrstuvwxyz0123456789_") != strlen(origin))
		return ior_error_set(IOR_EINVALID, "'%s' is not a KCIDB origin (lowercase letters, digits and _)", origin);
	if (strlen(origin) > KCIDB_ORIGIN_MAX)
		return ior_error_set(IOR_EINVALID, "KCIDB origin '%.*s...' is longer than %d characters", 20, origin,
				     KCIDB_ORIGIN_MAX);
	return IOR_OK;
}

/* A run's start as an id part: its UTC text without '-' and ':' ("20261207T105045.123Z"), and
 * "-N" when rank is not 0. Runs are told apart by where (host, kernel) and when they started, as
 * `merge` tells them (db/merge.c), so the id is the same in every database the run was merged into;
 * runs of one host and kernel that started in the same millisecond (made through the library, or
 * different processes) are numbered in the order they were stored (ranks). */
void ior_kcidb_run_key(char *key, size_t len, const char *started_at, size_t rank)
{
	size_t n = 0;
	for (const char *p = started_at ? started_at : ""; *p && n + 1 < len; p++)
		if (*p != '-' && *p != ':')
			key[n++] = *p;
	key[n] = 0;
	if (!n)
		snprintf(key, len, "unknown");
	if (rank)
		snprintf(key + strlen(key), len - strlen(key), "-%zu", rank);
}

void ior_kcidb_id_add_run(struct ior_kcidb_id *x, const char *started_at, size_t rank)
{
	char key[96];
	ior_kcidb_run_key(key, sizeof(key), started_at, rank);
	ior_kcidb_id_add(x, key);
}

/* A dotted KCIDB path element: [a-zA-Z0-9_-]+, any other character (a UTF-8 sequence counts
 * once) becomes '_'; past ID_PART_MAX characters the first ID_PART_KEEP and 16 hex digits of the
 * element's sha256, as ids keep long names apart. */
void ior_kcidb_path_add(char *buf, size_t len, const char *part)
{
	size_t n = strlen(buf), chars = 0;
	const unsigned char *p = (const unsigned char *)(part && *part ? part : "_");
	for (const unsigned char *q = p; *q; q++)
		chars += (*q & 0xc0) != 0x80;
	if (n + 2 < len)
		buf[n++] = '.';
	size_t keep = chars <= ID_PART_MAX ? chars : ID_PART_KEEP;
	for (size_t c = 0; *p && c < keep && n + 1 < len; p++)
		if ((*p & 0xc0) != 0x80) {  /* continuation bytes were counted with their lead */
			buf[n++] = (strchr("_-", *p) || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
				    (*p >= '0' && *p <= '9')) ? (char)*p : '_';
			c++;
		}
	buf[n] = 0;
	char sha[65];
	if (chars > ID_PART_MAX && !ior_kernel_config_sha256(sha, part, strlen(part)))
		snprintf(buf + n, len - n, "_%.16s", sha);
}
