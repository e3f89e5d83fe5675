/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Kernel release parsing and ordering: numbers, then -rc before the release, then the distribution
 * suffix in natural order. */
#include "kernel/version.h"

#include "common/error.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* Reads a decimal number of at most 6 digits; kernel version fields are small. */
static bool read_number(const char **p, int *out)
{
	const char *s = *p;
	long v = 0;
	int digits = 0;
	while (isdigit((unsigned char)*s) && digits < 7) {
		v = v * 10 + (*s - '0');
		s++;
		digits++;
	}
	if (digits == 0 || digits > 6)
		return false;
	*out = (int)v;
	*p = s;
	return true;
}

static size_t hex_run(const char *s)
{
	size_t n = 0;
	while (isxdigit((unsigned char)s[n]))
		n++;
	return n;
}

/* A commit is "-g" (git describe, as CONFIG_LOCALVERSION_AUTO writes it) or Fedora's
 * "git" snapshot marker, followed by hex that ends the token. "-generic" and
 * Fedora's "git2" (a snapshot count) are not commits: git abbreviates to >= 7. */
static void find_commit(const char *extra, char commit[41])
{
	commit[0] = '\0';
	for (const char *s = extra; *s; s++) {
		size_t skip = 0, min = 0;
		if (s[0] == '-' && s[1] == 'g') {
			skip = 2;
			min = 7;
		} else if (strncmp(s, "git", 3) == 0 && (s == extra || !isalpha((unsigned char)s[-1]))) {
			skip = 3;
			min = 12;
		}
		if (!skip)
			continue;
		size_t n = hex_run(s + skip);
		char end = s[skip + n];
		if (n >= min && n <= 40 && !isalnum((unsigned char)end)) {
			memcpy(commit, s + skip, n);
			commit[n] = '\0';
			return;
		}
	}
}

/* "-rcN" (mainline) or "-0.rcN." (Fedora's pre-release packages) right after the numbers. */
static int find_rc(const char *extra, const char **after)
{
	const char *s = extra;
	if (strncmp(s, "-rc", 3) == 0)
		s += 3;
	else if (strncmp(s, "-0.rc", 5) == 0)
		s += 5;
	else
		return 0;
	int rc;
	if (!read_number(&s, &rc) || isalpha((unsigned char)*s))
		return 0;
	if (after)
		*after = s;
	return rc;
}

int ior_kver_parse(const char *release, struct ior_kver *out)
{
	memset(out, 0, sizeof(*out));
	if (!release)
		return ior_error_set(IOR_EINVALID, "kernel release is missing");
	const char *p = release;
	int *fields[] = { &out->major, &out->minor, &out->patch, &out->sublevel };
	int n = 0;
	while (n < 4) {
		if (!read_number(&p, fields[n]))
			break;
		n++;
		/* a dot continues the version only when a digit follows ("6.1.0.el9" is not a 4th field) */
		if (p[0] != '.' || !isdigit((unsigned char)p[1]))
			break;
		p++;
	}
	if (n < 2)
		return ior_error_set(IOR_EINVALID, "kernel release '%s' does not start with a version number", release);
	if (strlen(p) >= sizeof(out->extra))
		return ior_error_set(IOR_EINVALID, "kernel release '%s' is too long", release);
	strcpy(out->extra, p);
	out->rc = find_rc(out->extra, NULL);
	find_commit(out->extra, out->commit);
	return IOR_OK;
}

/* Compares digit runs by value and everything else by byte, so -9-generic < -35-generic. */
static int natural_cmp(const char *a, const char *b)
{
	while (*a && *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			while (*a == '0')
				a++;
			while (*b == '0')
				b++;
			size_t la = 0, lb = 0;
			while (isdigit((unsigned char)a[la]))
				la++;
			while (isdigit((unsigned char)b[lb]))
				lb++;
			if (la != lb)
				return la < lb ? -1 : 1;
			int c = strncmp(a, b, la);
			if (c)
				return c < 0 ? -1 : 1;
			a += la;
			b += lb;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	return *a ? 1 : *b ? -1 : 0;
}

static int int_cmp(int a, int b)
{
	return a < b ? -1 : a > b;
}

/* Past the -rcN token, the rest orders builds on the same tag: 6.7.0-rc1 < 6.7.0-rc1-00012-g... */
static const char *after_rc(const struct ior_kver *v)
{
	const char *after = v->extra;
	if (v->rc)
		find_rc(v->extra, &after);
	return after;
}

static int kver_cmp(const struct ior_kver *a, const struct ior_kver *b)
{
	int c;
	if ((c = int_cmp(a->major, b->major)) || (c = int_cmp(a->minor, b->minor)) ||
	    (c = int_cmp(a->patch, b->patch)) || (c = int_cmp(a->sublevel, b->sublevel)))
		return c;
	/* a release candidate comes before the release it leads to */
	if (a->rc != b->rc) {
		if (!a->rc || !b->rc)
			return a->rc ? -1 : 1;
		return int_cmp(a->rc, b->rc);
	}
	/* then the suffix: "" (mainline) first, then Debian ABI numbers, distribution builds... */
	return natural_cmp(after_rc(a), after_rc(b));
}

int ior_kver_cmp(const char *a, const char *b)
{
	struct ior_kver va, vb;
	bool pa = ior_kver_parse(a, &va) == IOR_OK;
	bool pb = ior_kver_parse(b, &vb) == IOR_OK;
	if (pa != pb)
		return pa ? -1 : 1;
	int c = pa ? kver_cmp(&va, &vb) : 0;
	if (c)
		return c;
	/* a total order: equal by value but different by text still differ ("-047" vs "-47") */
	c = strcmp(a ? a : "", b ? b : "");
	return c < 0 ? -1 : c > 0;
}

static int sort_cmp(const void *a, const void *b)
{
	return ior_kver_cmp(*(char *const *)a, *(char *const *)b);
}

void ior_kver_sort(char **releases, size_t n)
{
	if (n > 1)
		qsort(releases, n, sizeof(*releases), sort_cmp);
}

long ior_kver_series(const char *release)
{
	struct ior_kver v;
	if (ior_kver_parse(release, &v) != IOR_OK)
		return -1;
	/* before 3.0 the third number named the series (2.6.33); since, the second does (6.1) */
	int third = v.major < 3 ? v.patch : 0;
	return ((long)v.major * 1000 + v.minor) * 1000 + third;
}
