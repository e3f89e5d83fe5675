/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Private to matrix/: the INI token list and the checks shared by the file parser and the command-line overrides. */
#ifndef IOR_MATRIX_INTERNAL_H
#define IOR_MATRIX_INTERNAL_H

#include "matrix/matrix.h"

struct ior_ini_entry {
	char *key;
	char *value;
	const char *file;      /* the file it was written in (owned by the ior_ini); a --set override's label */
	int line;              /* 0 for a --set override: messages then name no line */
};

/* One "[kind name]" section with its "key = value" lines, in file order. */
struct ior_ini_section {
	char *kind;
	char *name;            /* NULL for "[matrix]" */
	const char *file;      /* where its header is (owned by the ior_ini) */
	int line;
	struct ior_ini_entry *entries;
	size_t nentries;
};

struct ior_ini {
	struct ior_ini_section *sections;
	size_t nsections;
	char **files;          /* every file name entries point to, owned */
	size_t nfiles;
	size_t includes;       /* include = FILE lines followed: the text as written is then not the whole matrix */
};

/* Splits text into sections and entries. `include = FILE` before the first section or in
 * [matrix] reads FILE (relative to the including file's folder) as if written there; a cycle
 * is refused. Syntax errors, a key outside any section and a key given twice in one section
 * are reported as "file:line: ...", naming the included file where it is one. */
int ior_matrix_ini_parse(struct ior_ini *out, const char *file, const char *text);
void ior_matrix_ini_free(struct ior_ini *ini);
/* The sections and entries as INI text (comments and includes gone): what a run stores when
 * the matrix included other files, so --resume needs none of them. Malloc'd, NULL when out of memory. */
char *ior_matrix_ini_text(const struct ior_ini *ini);
/* Deep copy of src into dst; IOR_ERROR when out of memory (dst is then empty). */
int ior_matrix_ini_copy(struct ior_ini *dst, const struct ior_ini *src);
/* Sets key = value in the section [kind name] (name may be NULL), adding the section or the
 * entry when missing; file and line say where it came from (a --set override: its label, 0). */
int ior_matrix_ini_set(struct ior_ini *ini, const char *kind, const char *name, const char *key, const char *value,
		       const char *file, int line);
/* The whole file at path as one string (what: "matrix " or "" for messages); a file with a NUL
 * byte is refused, since it would cut the text short. As root, a file another user could have
 * written is refused (common/trust.h, IOR_EREFUSED), checked on the descriptor that is read; so
 * is anything but a regular file, and one past IOR_MATRIX_MAX_BYTES. */
#define IOR_MATRIX_MAX_BYTES (16 << 20) /* a matrix file's (and each include's) size at most */
int ior_matrix_read_file(const char *path, const char *what, char **out);
/* name kept by the ini (entries and sections point to it), NULL when out of memory. */
const char *ior_matrix_ini_name(struct ior_ini *ini, const char *name);
/* The file:line prefix of an entry for messages: "file:line" or, for an override, its label. */
const char *ior_matrix_ini_where(const char *file, int line, char *buf, size_t len);
/* "[kind name]" or "[kind]", for messages. */
const char *ior_matrix_ini_label(const struct ior_ini_section *s, char *buf, size_t len);

/* Whole-object checks after keys were set. On failure the message holds the
 * problem and *key names the offending key, or is NULL for the section as a whole. */
int ior_matrix_check_settings(const struct ior_matrix_settings *s, const char **key);
int ior_matrix_check_device(const struct ior_matrix_device_opts *o, const char **key);
/* A key that only applies to a loop device, given for a path device. */
int ior_matrix_check_device_key(const struct ior_matrix_device_opts *o, const char *key);

/* "[a-zA-Z0-9_-]+", up to IOR_MATRIX_NAME_MAX characters: section names must survive "engine.NAME.key". */
#define IOR_MATRIX_NAME_MAX 63
bool ior_matrix_valid_name(const char *name);
/* For each of ini's sections of kind, the index of the first earlier one of that kind and name
 * (SIZE_MAX when none), in *first (malloc'd, indexed as ini->sections): one sort instead of a
 * search per section, which made 200,000 sections quadratic. */
int ior_matrix_first_same_name(const struct ior_ini *ini, const char *kind, size_t **first);

/* A matrix named name whose stored text is text, built from a copy of ini. */
/* One command-line override written into ini's sections (matrix_set.c); ini may be half-changed
 * on failure. */
int ior_matrix_ini_override(struct ior_ini *ini, const char *assignment);
int ior_matrix_from_ini(struct ior_matrix **out, const char *name, const char *text, const struct ior_ini *ini);
/* Fills m (file, text and settings defaults already set) from the sections. */
int ior_matrix_build(struct ior_matrix *m, const struct ior_ini *ini);
/* m's engines from the [engine NAME] sections, with what they inherit from [defaults] and
 * [defaults TYPE] and one engine per combination of a swept key's values (matrix_engines.c).
 * On failure m's engines are as they were. Warnings (a default no engine uses) go to m->warnings. */
int ior_matrix_build_engines(struct ior_matrix *m, const struct ior_ini *ini);
/* Refuses a matrix that expands past max_cells, with the count. */
int ior_matrix_check_cells(const struct ior_matrix *m);
void ior_matrix_engines_free(struct ior_matrix_engine *e, size_t n);

/* --- locating messages (matrix_sections.c) --- */
/* The entry of s named key, or NULL. */
const struct ior_ini_entry *ior_matrix_entry(const struct ior_ini_section *s, const char *key);
/* Adds "file:line: key" (the entry's place; the header's when key is not given in s) or, for
 * key NULL, "file:line: [section]" in front of the current message. */
int ior_matrix_locate(int rc, const struct ior_ini_section *s, const char *key);
/* matrix_compare.c: [matrix]'s compare key into m->comparisons, each name checked against the
 * matrix's engines, devices and schedulers. settings may be NULL (no [matrix] section). */
int ior_matrix_build_comparisons(struct ior_matrix *m, const struct ior_ini_section *settings);
void ior_matrix_comparisons_free(struct ior_matrix *m);
/* ior_option_set of e's key to value, the message prefixed with e's file:line. */
int ior_matrix_apply_entry(const struct ior_option *rows, void *blob, const struct ior_ini_entry *e, const char *value);
/* A named section's name: present, well formed. */
int ior_matrix_check_name(const struct ior_ini_section *s);
/* "section given twice (first at ...)". */
int ior_matrix_duplicate(const struct ior_ini_section *s, const char *first_file, int first);

/* ops->options formatted into a malloc'd canonical string. */
int ior_matrix_engine_params(char **out, const struct ior_engine_ops *ops, const void *opts);

#endif
