/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The matrix file's INI tokenizer: sections and "key = value" lines with their file and line, ';'
 * and '#' comments, includes. */
#include "matrix/matrix_internal.h"
#include "common/error.h"
#include "common/named_file.h"
#include "common/trust.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Includes nest at most this deep: deeper is almost surely a cycle through different spellings. */
#define INCLUDE_DEPTH 16

/* The files being read, outermost first (their real paths), to refuse a cycle. */
struct include_stack {
	char path[INCLUDE_DEPTH][PATH_MAX];
	int depth;
};

/* libinih is not used here: Debian builds it without handler line numbers, it
 * never reports a section header (so an empty section would go unseen) and it
 * cuts names at 50 and lines at 200 characters. A matrix error must name its line. */

static char *trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	char *end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

/* Cuts a comment: a whole line starting with ';' or '#', or one after whitespace. */
static void cut_comment(char *s)
{
	for (char *p = s; *p; p++) {
		if ((*p == ';' || *p == '#') && (p == s || isspace((unsigned char)p[-1]))) {
			*p = '\0';
			return;
		}
	}
}

static bool valid_key(const char *k)
{
	if (!*k)
		return false;
	for (; *k; k++)
		if (!isalnum((unsigned char)*k) && *k != '_' && *k != '-')
			return false;
	return true;
}

const char *ior_matrix_ini_label(const struct ior_ini_section *s, char *buf, size_t len)
{
	snprintf(buf, len, "[%s%s%s]", s->kind, s->name ? " " : "", s->name ? s->name : "");
	return buf;
}

/* header is the text between the brackets, cut up here; whole is the line, for messages. */
static int add_section(struct ior_ini *ini, const char *file, int line, char *header, const char *whole)
{
	char *words[3] = { NULL, NULL, NULL };
	int n = 0;
	for (char *save, *w = strtok_r(header, " \t", &save); w; w = strtok_r(NULL, " \t", &save))
		if (n < 3)
			words[n++] = w;
	if (n == 0)
		return ior_error_set(IOR_EINVALID, "%s:%d: empty section header '[]'", file, line);
	if (n > 2)
		return ior_error_set(IOR_EINVALID, "%s:%d: '%s': a section header is a kind and a name, e.g. [device scratch]",
				     file, line, whole);
	struct ior_ini_section *grown = realloc(ini->sections, (ini->nsections + 1) * sizeof(*grown));
	if (!grown)
		return ior_error_set(IOR_ERROR, "out of memory");
	ini->sections = grown;
	struct ior_ini_section *s = &ini->sections[ini->nsections];
	memset(s, 0, sizeof(*s));
	s->line = line;
	s->file = file;
	s->kind = strdup(words[0]);
	s->name = words[1] ? strdup(words[1]) : NULL;
	ini->nsections++;
	if (!s->kind || (words[1] && !s->name))
		return ior_error_set(IOR_ERROR, "out of memory");
	return IOR_OK;
}

static int add_entry(struct ior_ini *ini, const char *file, int line, const char *key, const char *value)
{
	if (ini->nsections == 0)
		return ior_error_set(IOR_EINVALID,
				     "%s:%d: %s: key outside any section (put it under [matrix], [device NAME] or [engine NAME])",
				     file, line, key);
	struct ior_ini_section *s = &ini->sections[ini->nsections - 1];
	char label[160];
	for (size_t i = 0; i < s->nentries; i++)
		if (strcmp(s->entries[i].key, key) == 0) {
			char first[PATH_MAX + 32];
			if (strcmp(s->entries[i].file, file) == 0)
				snprintf(first, sizeof(first), "line %d", s->entries[i].line);
			else
				snprintf(first, sizeof(first), "%s:%d", s->entries[i].file, s->entries[i].line);
			return ior_error_set(IOR_EINVALID, "%s:%d: %s: given twice in %s (first at %s)", file, line,
					     key, ior_matrix_ini_label(s, label, sizeof(label)), first);
		}
	struct ior_ini_entry *grown = realloc(s->entries, (s->nentries + 1) * sizeof(*grown));
	if (!grown)
		return ior_error_set(IOR_ERROR, "out of memory");
	s->entries = grown;
	struct ior_ini_entry *e = &s->entries[s->nentries++];
	e->line = line;
	e->file = file;
	e->key = strdup(key);
	e->value = strdup(value);
	if (!e->key || !e->value)
		return ior_error_set(IOR_ERROR, "out of memory");
	return IOR_OK;
}

static int parse_text(struct ior_ini *ini, const char *file, const char *text, struct include_stack *stack);
static int include_file(struct ior_ini *ini, const char *file, int line, const char *name, struct include_stack *stack);

static int parse_line(struct ior_ini *ini, const char *file, int line, char *text, struct include_stack *stack)
{
	cut_comment(text);
	char *s = trim(text);
	if (!*s)
		return IOR_OK;
	if (*s == '[') {
		char *close = strchr(s, ']');
		if (!close)
			return ior_error_set(IOR_EINVALID, "%s:%d: '%s': section header without ']'", file, line, s);
		if (*trim(close + 1))
			return ior_error_set(IOR_EINVALID, "%s:%d: '%s': text after the section header", file, line, s);
		char whole[256];
		snprintf(whole, sizeof(whole), "%s", s);
		*close = '\0';
		return add_section(ini, file, line, s + 1, whole);
	}
	char *eq = strchr(s, '=');
	if (!eq)
		return ior_error_set(IOR_EINVALID, "%s:%d: '%s': expected 'key = value' or '[section]'", file, line, s);
	*eq = '\0';
	char *key = trim(s), *value = trim(eq + 1);
	if (!*key)
		return ior_error_set(IOR_EINVALID, "%s:%d: '= %s': missing key before '='", file, line, value);
	if (!valid_key(key))
		return ior_error_set(IOR_EINVALID, "%s:%d: '%s': not a valid key (letters, digits, '_' and '-')", file, line, key);
	/* include: before the first section, or in [matrix]; anywhere else it would be an engine's key */
	if (strcmp(key, "include") == 0 &&
	    (ini->nsections == 0 || strcmp(ini->sections[ini->nsections - 1].kind, "matrix") == 0))
		return include_file(ini, file, line, value, stack);
	return add_entry(ini, file, line, key, value);
}

/* A file name for entries to point to, owned by the ini. */
const char *ior_matrix_ini_name(struct ior_ini *ini, const char *name)
{
	char **grown = realloc(ini->files, (ini->nfiles + 1) * sizeof(*grown));
	if (!grown)
		return NULL;
	ini->files = grown;
	if (!(ini->files[ini->nfiles] = strdup(name)))
		return NULL;
	return ini->files[ini->nfiles++];
}

int ior_matrix_read_file(const char *path, const char *what, char **out)
{
	/* a device or a pipe (include = /dev/zero) would be read until memory runs out */
	struct stat st;
	FILE *f = NULL;
	int rc = ior_fopen_regular(path, what, &f, &st);
	if (rc)
		return rc;
	/* what is read is what is checked: an included file runs its engines as much as the main one */
	rc = ior_check_trusted_stat(&st, path, *what ? "matrix" : "included matrix");
	if (!rc && st.st_size > IOR_MATRIX_MAX_BYTES)
		rc = ior_error_set(IOR_EINVALID, "cannot read %s'%s': %lld bytes, more than a matrix may have (%d MiB)",
				   what, path, (long long)st.st_size, IOR_MATRIX_MAX_BYTES >> 20);
	if (rc) {
		fclose(f);
		return rc;
	}
	size_t len = 0, cap = 4096;
	char *text = malloc(cap);
	while (text) {
		len += fread(text + len, 1, cap - len - 1, f);
		if (len < cap - 1)
			break;
		if (len > IOR_MATRIX_MAX_BYTES) { /* grew after the fstat */
			free(text);
			fclose(f);
			return ior_error_set(IOR_EINVALID, "cannot read %s'%s': more than a matrix may have (%d MiB)", what,
					     path, IOR_MATRIX_MAX_BYTES >> 20);
		}
		char *grown = realloc(text, cap *= 2);
		if (!grown)
			free(text);
		text = grown;
	}
	int failed = text && ferror(f);
	int errnum = errno;
	fclose(f);
	if (!text)
		return ior_error_set(IOR_ERROR, "out of memory");
	text[len] = '\0';
	if (failed) {
		free(text);
		return ior_error_errno(IOR_ERROR, errnum, "cannot read %s'%s'", what, path);
	}
	/* a NUL byte inside would silently cut the matrix short */
	if (strlen(text) != len) {
		free(text);
		return ior_error_set(IOR_EINVALID, "%s: not a text file (contains a NUL byte)", path);
	}
	*out = text;
	return IOR_OK;
}

/* include = NAME at file:line: NAME relative to file's folder, read as if written here. */
static int include_file(struct ior_ini *ini, const char *file, int line, const char *name, struct include_stack *stack)
{
	if (!*name)
		return ior_error_set(IOR_EINVALID, "%s:%d: include: missing file name", file, line);
	char path[PATH_MAX], dir[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s", file);
	if (name[0] == '/')
		snprintf(path, sizeof(path), "%s", name);
	else
		snprintf(path, sizeof(path), "%s/%s", dirname(dir), name);
	char real[PATH_MAX];
	if (!realpath(path, real))
		return ior_error_errno(IOR_EINVALID, errno, "%s:%d: include: cannot open '%s'", file, line, path);
	for (int i = 0; i < stack->depth; i++)
		if (strcmp(stack->path[i], real) == 0)
			return ior_error_set(IOR_EINVALID, "%s:%d: include: '%s' includes itself (through %d file%s)", file,
					     line, path, stack->depth - i, stack->depth - i == 1 ? "" : "s");
	if (stack->depth == INCLUDE_DEPTH)
		return ior_error_set(IOR_EINVALID, "%s:%d: include: nested more than %d deep", file, line, INCLUDE_DEPTH);
	char *text = NULL;
	int rc = ior_matrix_read_file(path, "", &text);
	if (rc)
		return ior_error_wrap(rc == IOR_EREFUSED ? rc : IOR_EINVALID, "%s:%d: include", file, line);
	const char *kept = ior_matrix_ini_name(ini, path);
	if (!kept) {
		free(text);
		return ior_error_set(IOR_ERROR, "out of memory");
	}
	snprintf(stack->path[stack->depth++], PATH_MAX, "%s", real);
	ini->includes++;
	rc = parse_text(ini, kept, text, stack);
	stack->depth--;
	free(text);
	return rc;
}

static int parse_text(struct ior_ini *ini, const char *file, const char *text, struct include_stack *stack)
{
	const char *p = text;
	if (strncmp(p, "\xEF\xBB\xBF", 3) == 0)
		p += 3;
	for (int line = 1; *p; line++) {
		size_t len = strcspn(p, "\n");
		char *buf = strndup(p, len);
		if (!buf)
			return ior_error_set(IOR_ERROR, "out of memory");
		int rc = parse_line(ini, file, line, buf, stack);
		free(buf);
		if (rc)
			return rc;
		p += len + (p[len] == '\n');
	}
	return IOR_OK;
}

int ior_matrix_ini_parse(struct ior_ini *out, const char *file, const char *text)
{
	struct ior_ini ini;
	memset(&ini, 0, sizeof(ini));
	static struct include_stack stack; /* PATH_MAX x 16 is too large for the stack of a test thread */
	stack.depth = 0;
	const char *kept = ior_matrix_ini_name(&ini, file);
	char real[PATH_MAX];
	if (kept && realpath(file, real))
		snprintf(stack.path[stack.depth++], PATH_MAX, "%s", real); /* a string's name need not be a file */
	int rc = kept ? parse_text(&ini, kept, text, &stack) : ior_error_set(IOR_ERROR, "out of memory");
	if (rc) {
		ior_matrix_ini_free(&ini);
		return rc;
	}
	*out = ini;
	return IOR_OK;
}

void ior_matrix_ini_free(struct ior_ini *ini)
{
	for (size_t i = 0; i < ini->nsections; i++) {
		struct ior_ini_section *s = &ini->sections[i];
		for (size_t j = 0; j < s->nentries; j++) {
			free(s->entries[j].key);
			free(s->entries[j].value);
		}
		free(s->entries);
		free(s->kind);
		free(s->name);
	}
	free(ini->sections);
	for (size_t i = 0; i < ini->nfiles; i++)
		free(ini->files[i]);
	free(ini->files);
	memset(ini, 0, sizeof(*ini));
}

const char *ior_matrix_ini_where(const char *file, int line, char *buf, size_t len)
{
	if (line > 0)
		snprintf(buf, len, "%s:%d", file, line);
	else
		snprintf(buf, len, "%s", file);
	return buf;
}

/* Appends printf output to a growing string; false when out of memory. */
static bool append(char **s, size_t *len, size_t *cap, const char *fmt, const char *a, const char *b, const char *c)
{
	int n = snprintf(NULL, 0, fmt, a, b, c);
	if (*len + (size_t)n + 1 > *cap) {
		size_t want = (*len + (size_t)n + 1) * 2;
		char *grown = realloc(*s, want);
		if (!grown)
			return false;
		*s = grown;
		*cap = want;
	}
	snprintf(*s + *len, *cap - *len, fmt, a, b, c);
	*len += (size_t)n;
	return true;
}

char *ior_matrix_ini_text(const struct ior_ini *ini)
{
	char *text = NULL;
	size_t len = 0, cap = 0;
	bool ok = append(&text, &len, &cap, "%s%s%s", "", "", "");
	for (size_t i = 0; ok && i < ini->nsections; i++) {
		const struct ior_ini_section *s = &ini->sections[i];
		ok = append(&text, &len, &cap, "%s[%s%s", i ? "\n" : "", s->kind, s->name ? " " : "") &&
		     append(&text, &len, &cap, "%s]%s%s\n", s->name ? s->name : "", "", "");
		for (size_t j = 0; ok && j < s->nentries; j++)
			ok = append(&text, &len, &cap, "%s = %s%s\n", s->entries[j].key, s->entries[j].value, "");
	}
	if (!ok) {
		free(text);
		return NULL;
	}
	return text;
}

/* dst's copy of one of src's file names (the same index). */
static const char *own_name(const struct ior_ini *dst, const struct ior_ini *src, const char *name)
{
	for (size_t k = 0; k < src->nfiles; k++)
		if (name == src->files[k])
			return dst->files[k];
	return name; /* not src's: a caller's static label */
}

/* Section by section as they are (a repeated section stays repeated, for the build to refuse). */
int ior_matrix_ini_copy(struct ior_ini *dst, const struct ior_ini *src)
{
	memset(dst, 0, sizeof(*dst));
	dst->includes = src->includes;
	for (size_t i = 0; i < src->nfiles; i++)
		if (!ior_matrix_ini_name(dst, src->files[i]))
			goto oom;
	if (src->nsections && !(dst->sections = calloc(src->nsections, sizeof(*dst->sections))))
		goto oom;
	for (size_t i = 0; i < src->nsections; i++, dst->nsections++) {
		const struct ior_ini_section *s = &src->sections[i];
		struct ior_ini_section *d = &dst->sections[i];
		d->kind = strdup(s->kind);
		d->name = s->name ? strdup(s->name) : NULL;
		d->file = own_name(dst, src, s->file);
		d->line = s->line;
		d->entries = s->nentries ? calloc(s->nentries, sizeof(*d->entries)) : NULL;
		if (!d->kind || (s->name && !d->name) || (s->nentries && !d->entries))
			goto oom_section;
		for (size_t j = 0; j < s->nentries; j++, d->nentries++) {
			const struct ior_ini_entry *e = &s->entries[j];
			d->entries[j] = (struct ior_ini_entry){ .key = strdup(e->key), .value = strdup(e->value),
								.file = own_name(dst, src, e->file), .line = e->line };
			if (!d->entries[j].key || !d->entries[j].value) {
				d->nentries++;
				goto oom_section;
			}
		}
	}
	return IOR_OK;
oom_section:
	dst->nsections++; /* the half-made section is freed with the rest */
oom:
	ior_matrix_ini_free(dst);
	return ior_error_set(IOR_ERROR, "out of memory");
}

static struct ior_ini_section *find_section(struct ior_ini *ini, const char *kind, const char *name)
{
	for (size_t i = 0; i < ini->nsections; i++) {
		struct ior_ini_section *s = &ini->sections[i];
		if (strcmp(s->kind, kind) == 0 && (s->name ? name && strcmp(s->name, name) == 0 : !name))
			return s;
	}
	return NULL;
}

int ior_matrix_ini_set(struct ior_ini *ini, const char *kind, const char *name, const char *key, const char *value,
		       const char *file, int line)
{
	struct ior_ini_section *s = find_section(ini, kind, name);
	if (!s) {
		struct ior_ini_section *grown = realloc(ini->sections, (ini->nsections + 1) * sizeof(*grown));
		if (!grown)
			return ior_error_set(IOR_ERROR, "out of memory");
		ini->sections = grown;
		s = &ini->sections[ini->nsections++];
		memset(s, 0, sizeof(*s));
		s->kind = strdup(kind);
		s->name = name ? strdup(name) : NULL;
		s->file = file;
		s->line = line;
		if (!s->kind || (name && !s->name))
			return ior_error_set(IOR_ERROR, "out of memory");
	}
	if (!key)
		return IOR_OK;
	struct ior_ini_entry *e = NULL;
	for (size_t i = 0; i < s->nentries; i++)
		if (strcmp(s->entries[i].key, key) == 0)
			e = &s->entries[i];
	if (!e) {
		struct ior_ini_entry *grown = realloc(s->entries, (s->nentries + 1) * sizeof(*grown));
		if (!grown)
			return ior_error_set(IOR_ERROR, "out of memory");
		s->entries = grown;
		e = &s->entries[s->nentries++];
		memset(e, 0, sizeof(*e));
		if (!(e->key = strdup(key)))
			return ior_error_set(IOR_ERROR, "out of memory");
	}
	char *copy = strdup(value);
	if (!copy)
		return ior_error_set(IOR_ERROR, "out of memory");
	free(e->value);
	e->value = copy;
	e->file = file;
	e->line = line;
	return IOR_OK;
}
