/* Private to matrix/: the INI token list and the checks shared by the file parser and the command-line overrides. */
#ifndef IOR_MATRIX_INTERNAL_H
#define IOR_MATRIX_INTERNAL_H

#include "matrix/matrix.h"

struct ior_ini_entry {
	char *key;
	char *value;
	int line;
};

/* One "[kind name]" section with its "key = value" lines, in file order. */
struct ior_ini_section {
	char *kind;
	char *name;            /* NULL for "[matrix]" */
	int line;
	struct ior_ini_entry *entries;
	size_t nentries;
};

struct ior_ini {
	struct ior_ini_section *sections;
	size_t nsections;
};

/* Splits text into sections and entries. Syntax errors, a key outside any
 * section and a key given twice in one section are reported as "file:line: ...". */
int ior_matrix_ini_parse(struct ior_ini *out, const char *file, const char *text);
void ior_matrix_ini_free(struct ior_ini *ini);
/* "[kind name]" or "[kind]", for messages. */
const char *ior_matrix_ini_label(const struct ior_ini_section *s, char *buf, size_t len);

/* Whole-object checks after keys were set. On failure the message holds the
 * problem and *key names the offending key, or is NULL for the section as a whole. */
int ior_matrix_check_settings(const struct ior_matrix_settings *s, const char **key);
int ior_matrix_check_device(const struct ior_matrix_device_opts *o, const char **key);
/* A key that only applies to a loop device, given for a path device. */
int ior_matrix_check_device_key(const struct ior_matrix_device_opts *o, const char *key);

/* "[a-zA-Z0-9_-]+", up to 63 characters: section names must survive "engine.NAME.key". */
bool ior_matrix_valid_name(const char *name);

/* Fills m (file, text and settings defaults already set) from the sections. */
int ior_matrix_build(struct ior_matrix *m, const struct ior_ini *ini);

/* ops->options formatted into a malloc'd canonical string. */
int ior_matrix_engine_params(char **out, const struct ior_engine_ops *ops, const void *opts);

#endif
