/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Private to db/: a small RFC 4180 CSV reader that knows the line each record starts on and
 * recovers after a bad one. */
#ifndef IOR_DB_CSV_H
#define IOR_DB_CSV_H

#include <stddef.h>

/* Quoted fields (with commas, newlines and doubled quotes), LF or CRLF line
 * ends, an optional final newline and an optional UTF-8 BOM. Spaces and tabs
 * around an unquoted field are dropped; blank lines are skipped. */
struct ior_csv {
	char *buf;                 /* the whole file */
	size_t len, pos;
	size_t line;               /* physical line at pos, from 1 */
	size_t record_line;        /* line the last record started on */
	char **fields;             /* the last record's fields, valid until the next call */
	size_t nfields;
	size_t error_field;        /* index of the field a syntax error is in */
	const char *error;         /* the last syntax error */
	char *text;                /* storage of the fields */
	size_t text_cap, fields_cap;
	size_t *offsets;
};

/* Reads path whole; 0 or an ior_status with the message naming the file. */
int ior_csv_open(struct ior_csv *c, const char *path);
void ior_csv_close(struct ior_csv *c);

/* 1: a record in c->fields; 0: end of file; -1: a syntax error in the
 * record at c->record_line (c->error, c->error_field), skipped so the next
 * call goes on with the following line; -2: out of memory. */
int ior_csv_next(struct ior_csv *c);

#endif
