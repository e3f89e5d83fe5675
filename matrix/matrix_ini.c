/* The matrix file's INI tokenizer: sections and "key = value" lines with their line numbers, ';' and '#' comments. */
#include "matrix/matrix_internal.h"
#include "common/error.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
		if (strcmp(s->entries[i].key, key) == 0)
			return ior_error_set(IOR_EINVALID, "%s:%d: %s: given twice in %s (first at line %d)", file, line,
					     key, ior_matrix_ini_label(s, label, sizeof(label)), s->entries[i].line);
	struct ior_ini_entry *grown = realloc(s->entries, (s->nentries + 1) * sizeof(*grown));
	if (!grown)
		return ior_error_set(IOR_ERROR, "out of memory");
	s->entries = grown;
	struct ior_ini_entry *e = &s->entries[s->nentries++];
	e->line = line;
	e->key = strdup(key);
	e->value = strdup(value);
	if (!e->key || !e->value)
		return ior_error_set(IOR_ERROR, "out of memory");
	return IOR_OK;
}

static int parse_line(struct ior_ini *ini, const char *file, int line, char *text)
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
	return add_entry(ini, file, line, key, value);
}

int ior_matrix_ini_parse(struct ior_ini *out, const char *file, const char *text)
{
	struct ior_ini ini = { NULL, 0 };
	const char *p = text;
	if (strncmp(p, "\xEF\xBB\xBF", 3) == 0)
		p += 3;
	for (int line = 1; *p; line++) {
		size_t len = strcspn(p, "\n");
		char *buf = strndup(p, len);
		if (!buf) {
			ior_matrix_ini_free(&ini);
			return ior_error_set(IOR_ERROR, "out of memory");
		}
		int rc = parse_line(&ini, file, line, buf);
		free(buf);
		if (rc) {
			ior_matrix_ini_free(&ini);
			return rc;
		}
		p += len + (p[len] == '\n');
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
	ini->sections = NULL;
	ini->nsections = 0;
}
