/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Option rows: data that describes one settable key (fio's fio_option model), shared by the matrix
 * file, the command line and every engine. */
#ifndef IOR_OPTIONS_OPTION_H
#define IOR_OPTIONS_OPTION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum ior_opt_type {
	IOR_OPT_BOOL,     /* bool;      yes/no, true/false, on/off, 1/0 */
	IOR_OPT_UINT,     /* uint64_t;  plain count */
	IOR_OPT_SIZE,     /* uint64_t;  bytes, suffixes k/m/g/t (powers of 1024), e.g. 4k, 128M, 1G */
	IOR_OPT_DURATION, /* double;    seconds, suffixes ms/s/m/h, bare number = seconds */
	IOR_OPT_PERCENT,  /* double;    fraction: "10%" or "0.10" both give 0.10 */
	IOR_OPT_DOUBLE,   /* double;    plain number */
	IOR_OPT_STRING,   /* char *;    owned by the options blob, freed by ior_options_free */
	IOR_OPT_ENUM,     /* int;       index into choices */
};

struct ior_option {
	const char *name;
	enum ior_opt_type type;
	size_t offset;               /* offsetof() the field in the owner's options struct */
	double min, max;             /* inclusive range for numeric types; min == max == 0: unbounded */
	const char *def;             /* default as text, parsed like user input; NULL = zero/empty */
	const char *const *choices;  /* IOR_OPT_ENUM: NULL-terminated names */
	const char *help;
};

/* Size units, powers of 1024 as the size suffixes k, M, G and T read them: for row ranges and
 * for figures in MiB (integers: divide a double by them, or the division truncates). */
#define IOR_KIB (UINT64_C(1) << 10)
#define IOR_MIB (UINT64_C(1) << 20)
#define IOR_GIB (UINT64_C(1) << 30)
#define IOR_TIB (UINT64_C(1) << 40)

/* A range bound of row as its type writes it ("1M", "1.5s", "10%", "4096"), for messages and help. */
void ior_option_format_bound(const struct ior_option *row, double x, char *buf, size_t len);

/* A table of rows ends with a row whose name is NULL. */
#define IOR_OPTION_END { .name = NULL }

/* Fills blob with every row's default. blob must own no strings yet (fresh or
 * zeroed); on failure the strings already set are freed. */
int ior_options_defaults(const struct ior_option *rows, void *blob);

/* Parses value for key into blob. On failure the message names the key and
 * the problem ("bs: '4q' is not a size"), or for an unknown key suggests the
 * nearest name ("iodepht: unknown key (did you mean 'iodepth'?)"); the
 * caller adds file:line. On failure blob is left unchanged. */
int ior_option_set(const struct ior_option *rows, void *blob, const char *key, const char *value);

const struct ior_option *ior_option_find(const struct ior_option *rows, const char *key);

/* Nearest row name by edit distance, or NULL when nothing is close. */
const char *ior_option_suggest(const struct ior_option *rows, const char *key);

/* Canonical "key=value,key=value" of every row in table order, so two cells
 * with the same effective options compare equal in the database. */
int ior_options_format(const struct ior_option *rows, const void *blob, char *buf, size_t len);

/* The items of params (an ior_options_format text of rows, whose blob is size bytes) that differ from
 * the rows' defaults, in their order, into buf ("" when every item is a default): what fio would print
 * of the job. IOR_ERROR when buf is too small. */
int ior_options_changed(const struct ior_option *rows, size_t size, const char *params, char *buf, size_t len);

/* Frees the strings a blob owns (not the blob itself). */
void ior_options_free(const struct ior_option *rows, void *blob);

/* Copies src to dst (size bytes) with its own copies of the strings, so a
 * change can be tried on dst and thrown away. */
int ior_options_copy(const struct ior_option *rows, void *dst, const void *src, size_t size);

/* Unit parsers, exposed for the command line and for tests. */
int ior_parse_size(const char *text, uint64_t *bytes);
int ior_parse_duration(const char *text, double *seconds);
int ior_parse_percent(const char *text, double *fraction);
int ior_parse_bool(const char *text, bool *value);
/* A whole number, or any plain decimal, from min to max inclusive; the message names the range
 * ("'3' is not a whole number from 5 to 100000"), the caller adds the key. */
int ior_parse_count(const char *text, double min, double max, uint64_t *out);
int ior_parse_number(const char *text, double min, double max, double *out);

/* Canonical text of a value, as ior_options_format writes it: sizes in the
 * largest exact unit ("4K", "2M", "1536"), durations likewise ("3s", "250ms",
 * "2h"). Return 0, or IOR_ERROR when buf is too small. */
int ior_format_size(char *buf, size_t len, uint64_t bytes);
int ior_format_duration(char *buf, size_t len, double seconds);
/* A size for a message, in the largest exact binary unit: "2 MiB", "4 KiB", "1536 bytes". */
int ior_format_bytes(char *buf, size_t len, uint64_t bytes);

#endif
