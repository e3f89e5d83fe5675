/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A report section: a title, typed columns and only the rows in view, built once by the model
 * (model_sections.c); text, md and html each print every section with one function. */
#ifndef IOR_REPORTS_SECTION_H
#define IOR_REPORTS_SECTION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum ior_col_type {
	IOR_COL_TEXT,     /* words, left-aligned */
	IOR_COL_CODE,     /* an identifier shown as code (a commit id) */
	IOR_COL_LIST,     /* several items, one per line in the value (text: each with before/after) */
	IOR_COL_NUMBER,   /* x at .precision digits, right-aligned */
	IOR_COL_PERCENT,  /* x as a percent at .precision digits ("+" with .sign) */
	IOR_COL_P,        /* a p-value, three significant digits */
};

struct ior_column {
	const char *name;             /* the header */
	enum ior_col_type type;
	int precision;
	bool sign;                    /* numbers: "+" before a positive one */
	bool right;                   /* words aligned as numbers ("6 / 6", an interval) */
	bool strong;                  /* a list's lead words, bold where the format can */
	const char *missing;          /* shown where a row has no value; NULL: nothing */
	bool optional;                /* a sentence leaves the clause out where the row has no value */
	const char *before, *after;   /* text sentences: the words around the value */
	const char *join;             /* text sentences: between a list's items (NULL: before again) */
};

struct ior_value {
	const char *s;                /* text, code, list (items separated by '\n') */
	double x;                     /* numbers */
	bool missing;
};

/* The sections, in the order every format prints them. */
enum ior_section_kind {
	IOR_SECTION_ANSWERS,          /* the comparisons the matrices declared, answered (first, after the kernel answer) */
	IOR_SECTION_SCHEDULERS,       /* the schedulers each kernel offered, lacked, and what changed */
	IOR_SECTION_COMMITS,          /* the git commits the kernels were built from */
	IOR_SECTION_FILLS,            /* scratch devices filled before measuring */
	IOR_SECTION_NOT_RUN,          /* cells that did not run or did not finish, with the reason */
	IOR_SECTION_CHANGES,          /* change points of each cell series across kernels */
	IOR_SECTION_PAIRS,            /* each kernel pair the answer judged (ior_report.pairs), in full */
	IOR_SECTION_VERDICTS,         /* with a baseline: each compared cell and metric (text prints check's table instead) */
	IOR_SECTION_BOOTS,            /* the boots of vm run */
	IOR_SECTION_COUNT
};

struct ior_section {
	const char *id;               /* the HTML anchor */
	const char *title;            /* a capital first ("Kernels built from git commits") */
	const struct ior_column *cols;
	size_t ncols;
	struct ior_value *v;          /* nrows x ncols, row by row */
	size_t nrows;
	bool *marked;                 /* per row: needs a look (a cell that failed, a boot that did not end ok) */
	size_t *chart;                /* per row: the cell series the HTML page charts for it, SIZE_MAX none */
	bool table;                   /* text: columns under a header (else a sentence a row, from before/after) */
	bool list;                    /* every format: a sentence a row, as a list (else md and html print a table) */
	bool listed;                  /* the HTML page's contents link here: printed even without rows */
	bool always;                  /* printed even without rows, in every format */
	const char *intro;            /* a sentence before the rows, NULL when none */
	const char *notes;            /* sentences after the rows, one a line; NULL when none */
};

struct ior_sections {
	struct ior_section s[IOR_SECTION_COUNT];
	void **owned;                 /* strings and columns composed for the sections */
	size_t nowned, capowned;
};

void ior_sections_free(struct ior_sections *x);  /* NULL is a no-op */

/* A row's value in column c as every format shows it: the number formatted, or the text, or the
 * column's missing word ("" when none). Returns s, or buf holding the number. */
const char *ior_section_value(char *buf, size_t len, const struct ior_column *c, const struct ior_value *v);

/* The next line of a list value or of notes into buf, *p moved past it; false at the end. */
bool ior_section_line(const char **p, char *buf, size_t len);

/* How a format writes a row as a sentence (text, and the lists of md and html). */
struct ior_sentence_syntax {
	void (*put)(FILE *out, const char *s);  /* a value, with the format's escapes */
	const char *strong, *unstrong;          /* around a .strong column's value */
	const char *item;                       /* before each item of a list; NULL: the column's before/join */
};
/* Row v of s as a sentence: each value between its column's words, a value-less optional column
 * left out, a list's items each after the item word. */
void ior_section_sentence(FILE *out, const struct ior_section *s, const struct ior_value *v,
			  const struct ior_sentence_syntax *x);

/* Whether the column's values align right (numbers). */
bool ior_column_right(const struct ior_column *c);

#endif
