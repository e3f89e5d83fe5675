/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests of the matrix language: valid files expanded, bad files refused with file:line and key, overrides, defaults. */
#include "tests/suite.h"
#include "engines/engine.h"
#include "matrix/matrix.h"
#include "common/error.h"

#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct ior_matrix *parse_text(const char *name, const char *text)
{
	struct ior_matrix *m = (struct ior_matrix *)1;
	int rc = ior_matrix_parse_file(&m, ior_test_write_file(name, text));
	if (rc)
		fprintf(stderr, "\n%s: unexpected error: %s\n", name, ior_error_last());
	CU_ASSERT_EQUAL(rc, IOR_OK);
	return rc ? NULL : m;
}

static const struct ior_matrix_engine *engine(const struct ior_matrix *m, const char *name)
{
	for (size_t i = 0; i < m->nengines; i++)
		if (strcmp(m->engines[i].name, name) == 0)
			return &m->engines[i];
	return NULL;
}

static void test_default(void)
{
	struct ior_matrix *m = NULL;
	CU_ASSERT_EQUAL_FATAL(ior_matrix_default(&m), IOR_OK);
	CU_ASSERT_STRING_EQUAL(m->file, "(built-in default)");
	CU_ASSERT_PTR_NOT_NULL(strstr(m->text, "[device scratch]"));
	/* issue 24: it answers which scheduler is best, in adaptive rounds with a warm-up */
	CU_ASSERT_EQUAL(m->settings.repetitions, 5);
	CU_ASSERT_EQUAL(m->settings.max_repetitions, 10);
	CU_ASSERT_TRUE(m->settings.decide_schedulers);
	CU_ASSERT_EQUAL(m->settings.warmup, 1);
	CU_ASSERT_STRING_EQUAL(m->settings.schedulers, "all");
	CU_ASSERT_TRUE(m->settings.drop_caches);
	CU_ASSERT_EQUAL_FATAL(m->ndevices, 1);
	CU_ASSERT_STRING_EQUAL(m->devices[0].name, "scratch");
	CU_ASSERT_EQUAL(m->devices[0].opts.loop, 1ull << 30);
	CU_ASSERT_PTR_NULL(m->devices[0].opts.path);
	CU_ASSERT_TRUE(m->devices[0].opts.destructive);
	CU_ASSERT_EQUAL_FATAL(m->nengines, 1);
	CU_ASSERT_STRING_EQUAL(m->engines[0].name, "direct");
	CU_ASSERT_STRING_EQUAL(m->engines[0].ops->name, "hdparm");
	CU_ASSERT_STRING_EQUAL(m->engines[0].params, "direct=yes,duration=2s,bs=2M,settle=500ms");
	CU_ASSERT_EQUAL(ior_matrix_warmup(m, &m->engines[0]), 1);
	ior_matrix_free(m);
	ior_matrix_free(NULL);
}

static void test_seed_example(void)
{
	struct ior_matrix *m = NULL;
	const char *path = ior_test_source_path("matrix/examples/seed-hdparm.ini");
	CU_ASSERT_EQUAL_FATAL(ior_matrix_parse_file(&m, path), IOR_OK);
	CU_ASSERT_STRING_EQUAL(m->file, path);
	CU_ASSERT_EQUAL(m->settings.repetitions, 3);
	CU_ASSERT_STRING_EQUAL(m->settings.schedulers, "all");
	CU_ASSERT_DOUBLE_EQUAL(m->settings.alert_spread, 0.10, 1e-12);
	CU_ASSERT_EQUAL_FATAL(m->ndevices, 1);
	CU_ASSERT_EQUAL(m->devices[0].opts.loop, 1ull << 30);
	CU_ASSERT_TRUE(m->devices[0].opts.destructive);
	CU_ASSERT_STRING_EQUAL(m->devices[0].opts.backing_dir, "/tmp");
	CU_ASSERT_EQUAL_FATAL(m->nengines, 2);
	CU_ASSERT_STRING_EQUAL(engine(m, "hdparm-t")->params, "direct=no,duration=3s,bs=2M,settle=3s");
	CU_ASSERT_STRING_EQUAL(engine(m, "hdparm-direct")->params, "direct=yes,duration=3s,bs=2M,settle=3s");
	/* "all" against the four 2.6.30 schedulers: every one becomes a cell. */
	char *offered[] = { "noop", "anticipatory", "deadline", "cfq", NULL };
	char **s = ior_matrix_schedulers_for(m, offered);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	size_t n = 0;
	while (s[n])
		n++;
	CU_ASSERT_EQUAL(n, 4);
	CU_ASSERT_STRING_EQUAL(s[1], "anticipatory");
	CU_ASSERT_EQUAL(m->ndevices * n * m->nengines * m->settings.repetitions, 24);
	ior_strv_free(s);
	ior_matrix_free(m);
}

static void test_full_file(void)
{
	struct ior_matrix *m = parse_text("full.ini",
		"\xEF\xBB\xBF# every key the language has\r\n"
		"[matrix]\r\n"
		"repetitions = 5          ; fixed\n"
		"schedulers  = none, mq-deadline bfq\n"
		"drop_caches = off\n"
		"alert_spread = 0.25\n"
		"load_modules = yes\n"
		"max_repetitions = 20\n"
		"target_cov = 2%\n"
		"\n"
		"  [device  ssd ]\n"
		"path=/dev/disk/by-id/nvme-x#1\n"
		"\n"
		"[device scratch]\n"
		"loop = 256MiB\n"
		"backing_dir = /var/tmp\n"
		"direct_io = true\n"
		"destructive = yes\n"
		"\n"
		"[engine seq]\n"
		"bs = 4M   # type may come later in the section\n"
		"type = hdparm\n"
		"duration = 1500ms\n");
	if (!m)
		return;
	CU_ASSERT_EQUAL(m->settings.repetitions, 5);
	CU_ASSERT_STRING_EQUAL(m->settings.schedulers, "none, mq-deadline bfq");
	CU_ASSERT_FALSE(m->settings.drop_caches);
	CU_ASSERT_DOUBLE_EQUAL(m->settings.alert_spread, 0.25, 1e-12);
	CU_ASSERT_TRUE(m->settings.load_modules);
	CU_ASSERT_EQUAL(m->settings.max_repetitions, 20);
	CU_ASSERT_DOUBLE_EQUAL(m->settings.target_cov, 0.02, 1e-12);
	CU_ASSERT_EQUAL_FATAL(m->ndevices, 2);
	CU_ASSERT_STRING_EQUAL(m->devices[0].name, "ssd");
	CU_ASSERT_EQUAL(m->devices[0].line, 11);
	CU_ASSERT_STRING_EQUAL(m->devices[0].opts.path, "/dev/disk/by-id/nvme-x#1");
	CU_ASSERT_EQUAL(m->devices[0].opts.loop, 0);
	CU_ASSERT_FALSE(m->devices[0].opts.destructive);
	CU_ASSERT_EQUAL(m->devices[1].opts.loop, 256ull << 20);
	CU_ASSERT_STRING_EQUAL(m->devices[1].opts.backing_dir, "/var/tmp");
	CU_ASSERT_TRUE(m->devices[1].opts.direct_io);
	CU_ASSERT_EQUAL_FATAL(m->nengines, 1);
	CU_ASSERT_EQUAL(m->engines[0].line, 20);
	CU_ASSERT_STRING_EQUAL(m->engines[0].params, "direct=no,duration=1500ms,bs=4M,settle=3s");

	char *offered[] = { "none", "kyber", NULL };
	char **s = ior_matrix_schedulers_for(m, offered);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	/* The list is the matrix's, not the kernel's: a missing one is recorded as unavailable later. */
	CU_ASSERT_STRING_EQUAL(s[0], "none");
	CU_ASSERT_STRING_EQUAL(s[1], "mq-deadline");
	CU_ASSERT_STRING_EQUAL(s[2], "bfq");
	CU_ASSERT_PTR_NULL(s[3]);
	ior_strv_free(s);
	ior_matrix_free(m);
}

static void test_minimal_file(void)
{
	struct ior_matrix *m = parse_text("minimal.ini", "[device d]\nloop=64M\n[engine e]\ntype=hdparm");
	if (!m)
		return;
	CU_ASSERT_EQUAL(m->settings.repetitions, 3);
	CU_ASSERT_STRING_EQUAL(m->settings.schedulers, "all");
	CU_ASSERT_TRUE(m->settings.drop_caches);
	CU_ASSERT_DOUBLE_EQUAL(m->settings.alert_spread, 0.10, 1e-12);
	CU_ASSERT_EQUAL(m->settings.max_repetitions, 0);
	CU_ASSERT_FALSE(m->devices[0].opts.destructive);
	CU_ASSERT_STRING_EQUAL(m->engines[0].params, "direct=no,duration=3s,bs=2M,settle=3s");
	char **s = ior_matrix_schedulers_for(m, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_PTR_NULL(s[0]);
	ior_strv_free(s);
	ior_strv_free(NULL);
	ior_matrix_free(m);
}

/* True when every "type = X" in the file names a registered engine. */
static bool engines_registered(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[512], type[128];
	bool all = true;
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, " type = %127[A-Za-z0-9_-]", type) == 1 && !ior_engine_find(type))
			all = false;
	if (f)
		fclose(f);
	return all;
}

static void test_every_example(void)
{
	char dir[4096];
	snprintf(dir, sizeof(dir), "%s", ior_test_source_path("matrix/examples"));
	DIR *d = opendir(dir);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	int parsed = 0;
	for (struct dirent *e; (e = readdir(d));) {
		size_t len = strlen(e->d_name);
		if (len < 5 || strcmp(e->d_name + len - 4, ".ini") != 0)
			continue;
		char path[8192];
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (!engines_registered(path)) {
			fprintf(stderr, "\n%s: engine type not registered yet, not parsed\n", e->d_name);
			continue;
		}
		struct ior_matrix *m = NULL;
		int rc = ior_matrix_parse_file(&m, path);
		if (rc)
			fprintf(stderr, "\n%s\n", ior_error_last());
		CU_ASSERT_EQUAL(rc, IOR_OK);
		if (m) {
			CU_ASSERT_TRUE(m->ndevices >= 1 && m->nengines >= 1);
			for (size_t i = 0; i < m->nengines; i++)
				CU_ASSERT_PTR_NOT_NULL(m->engines[i].params);
		}
		ior_matrix_free(m);
		parsed++;
	}
	closedir(d);
	CU_ASSERT_TRUE(parsed >= 1);
}

/* A bad matrix: refused, nothing returned, and the message is exactly "file:line: what". */
struct bad {
	const char *text;
	int line;             /* 0: a whole-file problem, "file: what" */
	const char *message;  /* after "file:line: " */
};

static const char dev[] = "[device d]\nloop = 1G\n";
static const char eng[] = "[engine e]\ntype = hdparm\n";

static void expect_bad(const struct bad *b)
{
	char file[32], want[1024];
	static int n;
	snprintf(file, sizeof(file), "bad%d.ini", n++);
	const char *path = ior_test_write_file(file, b->text);
	if (b->line)
		snprintf(want, sizeof(want), "%s:%d: %s", path, b->line, b->message);
	else
		snprintf(want, sizeof(want), "%s: %s", path, b->message);
	struct ior_matrix *m = (struct ior_matrix *)1;
	CU_ASSERT_EQUAL(ior_matrix_parse_file(&m, path), IOR_EINVALID);
	CU_ASSERT_PTR_NULL(m);
	if (strcmp(ior_error_last(), want) != 0)
		fprintf(stderr, "\n  want: %s\n  got:  %s\n", want, ior_error_last());
	CU_ASSERT_STRING_EQUAL(ior_error_last(), want);
}

/* The rows' texts: each call formats into the next of 64 buffers. A function rather than
 * buf[k++] in each row: the rows of an initialiser are evaluated in no set order, and clang's
 * -Wunsequenced refuses several k++ in one. */
static const char *row_text(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static const char *row_text(const char *fmt, ...)
{
	static char buf[64][512];
	static unsigned next;
	char *out = buf[next++ % 64];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(out, sizeof(buf[0]), fmt, ap);
	va_end(ap);
	return out;
}

/* The engine types as the registry lists them, "hdparm, aio, ...". */
static const char *engine_types(void)
{
	static char list[512];
	size_t len = 0;
	for (size_t i = 0; i < ior_engine_count() && len < sizeof(list); i++)
		len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s", i ? ", " : "", ior_engine_at(i)->name);
	return list;
}

static void test_bad_files(void)
{
#define WITH(...) row_text(__VA_ARGS__)
	const struct bad bad[] = {
		/* unknown engine key, with a suggestion */
		{ WITH("%s[engine e]\ntype = hdparm\nduratoin = 3s\n", dev), 5,
		  "duratoin: unknown key (did you mean 'duration'?)" },
		{ WITH("%s[engine e]\ntype = hdparm\niodepth = 8\n", dev), 5, "iodepth: unknown key" },
		/* unknown section kind */
		{ WITH("[devcie x]\nloop = 1G\n%s", eng), 1, "[devcie x]: unknown section kind 'devcie' (did you mean 'device'?)" },
		{ WITH("%s%s[global]\n", dev, eng), 5,
		  "[global]: unknown section kind 'global' (fio's [global] is [defaults] here)" },
		/* a key before any section */
		{ WITH("repetitions = 3\n%s%s", dev, eng), 1,
		  "repetitions: key outside any section (put it under [matrix], [device NAME] or [engine NAME])" },
		/* a device is a path or a loop device, exactly one */
		{ WITH("[device d]\nloop = 1G\npath = /dev/sdz\n%s", eng), 1, "[device d]: has both 'path' and 'loop': give one" },
		{ WITH("[device d]\ndestructive = yes\n%s", eng), 1,
		  "[device d]: needs 'path = /dev/...' (an existing device) or 'loop = SIZE' (a scratch loop device)" },
		{ WITH("[device d]\npath = sdb\n%s", eng), 2, "path: 'sdb' is not an absolute path" },
		{ WITH("[device d]\npath = /dev/sdz\n\nbacking_dir = /var/tmp\n%s", eng), 4,
		  "backing_dir: only applies to a loop device (this one has 'path = /dev/sdz')" },
		{ WITH("[device d]\nloop = 1Q\n%s", eng), 2, "loop: '1Q' is not a size (use a whole number with k, M, G or T)" },
		{ WITH("[device d]\nloop = 0\n%s", eng), 2, "loop: '0' is out of range (1M..16T)" },
		{ WITH("[device d]\nloop = 1G\ndestructive = maybe\n%s", eng), 3, "destructive: 'maybe' is not yes or no" },
		{ WITH("[device]\nloop = 1G\n%s", eng), 1, "[device]: needs a name, e.g. [device scratch]" },
		{ WITH("[device a.b]\nloop = 1G\n%s", eng), 1, "[device a.b]: 'a.b' is not a valid name (letters, digits, '_' and '-')" },
		/* duplicate sections */
		{ WITH("%s%s\n[engine e]\ntype = hdparm\n", dev, eng), 6, "[engine e]: section given twice (first at line 3)" },
		{ WITH("[matrix]\n%s[matrix]\n%s", dev, eng), 4, "[matrix]: section given twice (first at line 1)" },
		{ WITH("[matrix x]\n%s%s", dev, eng), 1, "[matrix x]: the [matrix] section takes no name" },
		/* engine type: missing, unknown, twice */
		{ WITH("%s[engine e]\ndirect = yes\n", dev), 3,
		  WITH("[engine e]: missing 'type = ENGINE' (engines: %s)", engine_types()) },
		{ WITH("%s[engine e]\ntype = hdprm\n", dev), 4,
		  WITH("type: unknown engine type 'hdprm' (did you mean 'hdparm'?; engine types: %s)", engine_types()) },
		{ WITH("%s[engine e]\ntype = libaio\n", dev), 4,
		  WITH("type: unknown engine type 'libaio' (did you mean 'aio'?; engine types: %s)", engine_types()) },
		{ WITH("%s[device d2]\nloop = 1G\nfill = noise\n", dev), 5, "fill: 'noise' is not one of random, zeros, sparse" },
		{ WITH("[matrix]\norder = shuffled\n%s", dev), 2, "order: 'shuffled' is not one of interleaved, sequential, random" },
		{ WITH("%s[engine e]\ntype = hdparm\ndirect = no\ntype = hdparm\n", dev), 6,
		  "type: given twice in [engine e] (first at line 4)" },
		{ WITH("%s[engine e]\ntype = hdparm\nbs = 100\n", dev), 5, "bs: '100' is out of range (512..1G)" },
		/* [matrix] keys */
		{ WITH("[matrix]\nrepetitions = 0\n%s%s", dev, eng), 2, "repetitions: '0' is out of range (1..10000)" },
		{ WITH("[matrix]\nrepetitions = 10001\n%s%s", dev, eng), 2, "repetitions: '10001' is out of range (1..10000)" },
		{ WITH("[matrix]\nrepetitions = 3x\n%s%s", dev, eng), 2, "repetitions: '3x' is not a whole number" },
		{ WITH("[matrix]\nrepetitions =\n%s%s", dev, eng), 2, "repetitions: missing value" },
		{ WITH("[matrix]\nrepetitons = 3\n%s%s", dev, eng), 2, "repetitons: unknown key (did you mean 'repetitions'?)" },
		{ WITH("[matrix]\n\nschedulers = noop [cfq]\n%s%s", dev, eng), 3,
		  "schedulers: unexpected '[' in 'noop [cfq]' (write 'all' or names separated by spaces or commas)" },
		{ WITH("[matrix]\nschedulers = all bfq\n%s%s", dev, eng), 2, "schedulers: 'all' cannot be mixed with names in 'all bfq'" },
		{ WITH("[matrix]\nschedulers = bfq none bfq\n%s%s", dev, eng), 2, "schedulers: 'bfq' is listed twice" },
		{ WITH("[matrix]\nschedulers = ,\n%s%s", dev, eng), 2, "schedulers: no scheduler named in ','" },
		{ WITH("[matrix]\nalert_spread = 10\n%s%s", dev, eng), 2,
		  "alert_spread: '10' is ambiguous (write '10%', or a fraction up to 1)" },
		{ WITH("[matrix]\nrepetitions = 5\nmax_repetitions = 4\n%s%s", dev, eng), 3,
		  "max_repetitions: 4 is below repetitions (5), which is the minimum" },
		/* syntax */
		{ WITH("%s%sdirect yes\n", dev, eng), 5, "'direct yes': expected 'key = value' or '[section]'" },
		{ WITH("%s[engine e\ntype = hdparm\n", dev), 3, "'[engine e': section header without ']'" },
		{ WITH("%s%s= yes\n", dev, eng), 5, "'= yes': missing key before '='" },
		{ WITH("%s%sio depth = 4\n", dev, eng), 5, "'io depth': not a valid key (letters, digits, '_' and '-')" },
		{ WITH("[device a b]\nloop = 1G\n%s", eng), 1,
		  "'[device a b]': a section header is a kind and a name, e.g. [device scratch]" },
		{ WITH("[device d] x\nloop = 1G\n%s", eng), 1, "'[device d] x': text after the section header" },
		/* whole-file problems */
		{ WITH("[matrix]\nrepetitions = 2\n%s", eng), 0, "no [device NAME] section: a matrix needs at least one device" },
		{ WITH("; only a device\n%s", dev), 0, "no [engine NAME] section: a matrix needs at least one engine" },
		{ "", 0, "no [device NAME] section: a matrix needs at least one device" },
	};
#undef WITH
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		expect_bad(&bad[i]);
}

/* [matrix]'s compare key: several comparisons, each checked against the matrix's own names. */
static void test_declared_comparisons(void)
{
	struct ior_matrix *m = NULL;
	const char *text = "[matrix]\nschedulers = none bfq\n"
			   "compare = engine: e f, scheduler: none bfq, kernel: 6.1 6.12\n"
			   "[device d]\nloop = 1G\n[engine e]\ntype = hdparm\n[engine f]\ntype = hdparm\ndirect = yes\n";
	CU_ASSERT_EQUAL_FATAL(ior_matrix_parse_string(&m, "c.ini", text), 0);
	CU_ASSERT_EQUAL_FATAL(m->ncomparisons, 3);
	CU_ASSERT_EQUAL(m->comparisons[0].axis, IOR_AXIS_ENGINE);
	CU_ASSERT_STRING_EQUAL(m->comparisons[0].a, "e");
	CU_ASSERT_STRING_EQUAL(m->comparisons[0].b, "f");
	CU_ASSERT_STRING_EQUAL(m->comparisons[0].where, "c.ini:3");
	CU_ASSERT_EQUAL(m->comparisons[1].axis, IOR_AXIS_SCHEDULER);
	CU_ASSERT_EQUAL(m->comparisons[2].axis, IOR_AXIS_KERNEL);
	ior_matrix_free(m);
	const struct bad bad[] = {
		{ "[matrix]\ncompare = engin: e f\n[device d]\nloop = 1G\n[engine e]\ntype = hdparm\n", 2,
		  "compare: 'engin' is not an axis (did you mean 'engine'?)" },
		{ "[matrix]\ncompare = engine: e ee\n[device d]\nloop = 1G\n[engine e]\ntype = hdparm\n[engine eff]\ntype = hdparm\n",
		  2, "compare: engine 'ee' is not an [engine NAME] of this matrix (did you mean 'e'?)" },
		{ "[matrix]\ncompare = device: d x\n[device d]\nloop = 1G\n[engine e]\ntype = hdparm\n", 2,
		  "compare: device 'x' is not a [device NAME] of this matrix (did you mean 'd'?)" },
		{ "[matrix]\nschedulers = none bfq\ncompare = scheduler: none kyber\n[device d]\nloop = 1G\n[engine e]\ntype = hdparm\n",
		  3, "compare: scheduler 'kyber' is not in this matrix's schedulers list" },
		{ "[matrix]\ncompare = engine: e\n[device d]\nloop = 1G\n[engine e]\ntype = hdparm\n", 2,
		  "compare: 'engine:' takes two names, A (the reference) and B; 1 given" },
		{ "[matrix]\ncompare = e f\n[device d]\nloop = 1G\n[engine e]\ntype = hdparm\n", 2,
		  "compare: 'e f' is not 'AXIS: A B' (e.g. engine: tmpfs-sync-each nested-sync-each)" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		expect_bad(&bad[i]);
}

static void test_missing_file(void)
{
	struct ior_matrix *m = (struct ior_matrix *)1;
	char path[4096];
	snprintf(path, sizeof(path), "%s/nonexistent.ini", ior_test_tmpdir());
	CU_ASSERT_EQUAL(ior_matrix_parse_file(&m, path), IOR_ENOTFOUND);
	CU_ASSERT_PTR_NULL(m);
	char want[4200];
	snprintf(want, sizeof(want), "cannot open matrix '%s': No such file or directory", path);
	CU_ASSERT_STRING_EQUAL(ior_error_last(), want);
	/* A NUL byte would silently cut the rest of the matrix off. */
	const char *p = ior_test_write_file("nul.ini", "[device d]\nloop = 1G\n");
	FILE *f = fopen(p, "a");
	fputs("[engine e]\ntype = hdparm\n", f);
	fputc('\0', f);
	fclose(f);
	CU_ASSERT_EQUAL(ior_matrix_parse_file(&m, p), IOR_EINVALID);
	CU_ASSERT_PTR_NULL(m);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "contains a NUL byte"));
}

/* Long lines and long names are not cut (libinih's limits are 200 and 50). */
static void test_long_lines(void)
{
	char text[2048], name[64];
	memset(name, 'n', 63);
	name[63] = '\0';
	snprintf(text, sizeof(text), "[device %s]\nloop = 1G ; %0500d\n[engine e]\ntype = hdparm\n", name, 0);
	struct ior_matrix *m = parse_text("long.ini", text);
	if (m)
		CU_ASSERT_STRING_EQUAL(m->devices[0].name, name);
	ior_matrix_free(m);
}

/* Every registered engine works in a section: its defaults parse, format, and read back to the same text. */
static void test_every_engine_type(void)
{
	CU_ASSERT_TRUE_FATAL(ior_engine_count() >= 1);
	for (size_t i = 0; i < ior_engine_count(); i++) {
		const struct ior_engine_ops *ops = ior_engine_at(i);
		char text[256];
		snprintf(text, sizeof(text), "[device d]\nloop = 1G\n[engine e]\ntype = %s\n", ops->name);
		struct ior_matrix *m = NULL;
		int rc = ior_matrix_parse_string(&m, ops->name, text);
		if (rc)
			fprintf(stderr, "\n%s\n", ior_error_last());
		CU_ASSERT_EQUAL(rc, IOR_OK);
		if (!m)
			continue;
		/* Each "key=value" of the canonical text is accepted as an override and changes nothing. */
		char *params = strdup(m->engines[0].params);
		char *save;
		for (char *kv = strtok_r(params, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
			char set[512];
			/* An escaped string value spans tokens; an unset string ("key=") cannot be set empty. */
			if (strchr(kv, '\\') || kv[strlen(kv) - 1] == '=')
				continue;
			snprintf(set, sizeof(set), "engine.e.%s", kv);
			rc = ior_matrix_set(m, set);
			if (rc)
				fprintf(stderr, "\n%s\n", ior_error_last());
			CU_ASSERT_EQUAL(rc, IOR_OK);
		}
		free(params);
		params = strdup(m->engines[0].params);
		ior_matrix_free(m);
		CU_ASSERT_EQUAL(ior_matrix_parse_string(&m, ops->name, text), IOR_OK);
		if (m)
			CU_ASSERT_STRING_EQUAL(m->engines[0].params, params);
		free(params);
		ior_matrix_free(m);
	}
}

static void override_bad(struct ior_matrix *m, const char *assignment, const char *message)
{
	char want[512];
	char before[512];
	snprintf(before, sizeof(before), "%llu %s %s %llu %s", (unsigned long long)m->settings.repetitions,
		 m->settings.schedulers, m->engines[m->nengines - 1].params, (unsigned long long)m->devices[0].opts.loop,
		 m->devices[0].opts.backing_dir);
	snprintf(want, sizeof(want), "override '%s': %s", assignment, message);
	CU_ASSERT_EQUAL(ior_matrix_set(m, assignment), IOR_EINVALID);
	if (strcmp(ior_error_last(), want) != 0)
		fprintf(stderr, "\n  want: %s\n  got:  %s\n", want, ior_error_last());
	CU_ASSERT_STRING_EQUAL(ior_error_last(), want);
	char after[512];
	snprintf(after, sizeof(after), "%llu %s %s %llu %s", (unsigned long long)m->settings.repetitions,
		 m->settings.schedulers, m->engines[m->nengines - 1].params, (unsigned long long)m->devices[0].opts.loop,
		 m->devices[0].opts.backing_dir);
	CU_ASSERT_STRING_EQUAL(before, after);
}

static void test_overrides(void)
{
	struct ior_matrix *m = NULL;
	CU_ASSERT_EQUAL_FATAL(ior_matrix_default(&m), IOR_OK);
	CU_ASSERT_EQUAL(ior_matrix_set(m, "matrix.repetitions=6"), IOR_OK);
	CU_ASSERT_EQUAL(m->settings.repetitions, 6);
	CU_ASSERT_EQUAL(ior_matrix_set(m, "matrix.repetitions=5"), IOR_OK);
	CU_ASSERT_EQUAL(ior_matrix_set(m, "matrix.decide_schedulers=no"), IOR_OK);
	CU_ASSERT_FALSE(m->settings.decide_schedulers);
	CU_ASSERT_EQUAL(ior_matrix_set(m, "matrix.schedulers=none bfq"), IOR_OK);
	CU_ASSERT_STRING_EQUAL(m->settings.schedulers, "none bfq");
	CU_ASSERT_EQUAL(ior_matrix_set(m, "engine.direct.bs=4M"), IOR_OK);
	CU_ASSERT_STRING_EQUAL(m->engines[0].params, "direct=yes,duration=2s,bs=4M,settle=500ms");
	CU_ASSERT_EQUAL(ior_matrix_set(m, "engine.direct.direct=no"), IOR_OK);
	CU_ASSERT_STRING_EQUAL(m->engines[0].params, "direct=no,duration=2s,bs=4M,settle=500ms");
	CU_ASSERT_EQUAL(ior_matrix_set(m, "device.scratch.loop=2G"), IOR_OK);
	CU_ASSERT_EQUAL(m->devices[0].opts.loop, 2ull << 30);
	CU_ASSERT_EQUAL(ior_matrix_set(m, "device.scratch.backing_dir=/var/tmp"), IOR_OK);
	CU_ASSERT_STRING_EQUAL(m->devices[0].opts.backing_dir, "/var/tmp");

	override_bad(m, "matrix.repetitons=5", "repetitons: unknown key (did you mean 'repetitions'?)");
	override_bad(m, "matrix.repetitions=0", "repetitions: '0' is out of range (1..10000)");
	override_bad(m, "matrix.repetitions", "expected SECTION.KEY=VALUE, e.g. matrix.repetitions=5");
	override_bad(m, "matrix.max_repetitions=4", "max_repetitions: 4 is below repetitions (5), which is the minimum");
	override_bad(m, "matrix.schedulers=noop|cfq",
		     "schedulers: unexpected '|' in 'noop|cfq' (write 'all' or names separated by spaces or commas)");
	override_bad(m, "engine.direct.bs=4q", "bs: '4q' is not a size (use a whole number with k, M, G or T)");
	override_bad(m, "engine.direct.bs=", "bs: missing value");
	override_bad(m, "engine.dirct.bs=4k", "no engine 'dirct' in the matrix (did you mean 'direct'?)");
	override_bad(m, "engine.direct.type=aio",
		     "type: an engine's type cannot be overridden (write another [engine] section)");
	override_bad(m, "engine.direct=yes", "expected engine.NAME.KEY before '='");
	override_bad(m, "engnie.direct.bs=4k", "no section kind 'engnie' in the matrix (did you mean 'engine'?)");
	override_bad(m, "repetitions=5", "expected matrix.KEY, device.NAME.KEY or engine.NAME.KEY before '='");
	override_bad(m, "device.scratch.backing_dir=tmp", "backing_dir: 'tmp' is not an absolute path");
	override_bad(m, "device.scratch.loop=1k", "loop: '1k' is out of range (1M..16T)");
	override_bad(m, "device.scrath.loop=1G", "no device 'scrath' in the matrix (did you mean 'scratch'?)");

	/* Naming a real device replaces the loop device; its loop-only keys then refuse. */
	CU_ASSERT_EQUAL(ior_matrix_set(m, "device.scratch.path=/dev/sdz"), IOR_OK);
	CU_ASSERT_STRING_EQUAL(m->devices[0].opts.path, "/dev/sdz");
	CU_ASSERT_EQUAL(m->devices[0].opts.loop, 0);
	CU_ASSERT_EQUAL(ior_matrix_set(m, "device.scratch.direct_io=yes"), IOR_EINVALID);
	CU_ASSERT_STRING_EQUAL(ior_error_last(), "override 'device.scratch.direct_io=yes': direct_io: only applies to a loop device (this one has 'path = /dev/sdz')");
	CU_ASSERT_FALSE(m->devices[0].opts.direct_io);
	CU_ASSERT_EQUAL(ior_matrix_set(m, "device.scratch.loop=1G"), IOR_OK);
	CU_ASSERT_PTR_NULL(m->devices[0].opts.path);
	CU_ASSERT_EQUAL(m->devices[0].opts.loop, 1ull << 30);
	ior_matrix_free(m);
}

/* warmup = N: [matrix] gives the default, [defaults] and [defaults TYPE] and the engine's own
 * win in that order, --set reaches each, a bad value names its file:line, and it is not part of
 * the cell's parameters (a cell with and without warm-ups is one cell). */
static void test_warmup_key(void)
{
	static const char text[] =
		"[matrix]\nwarmup = 1\n[device d]\nloop = 16M\n"
		"[defaults]\nwarmup = 2\n[defaults dd]\nwarmup = 3\n"
		"[engine a]\ntype = hdparm\n[engine b]\ntype = dd\n[engine c]\ntype = dd\nwarmup = 0\n";
	struct ior_matrix *m = NULL;
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(ior_matrix_parse_string(&m, "w.ini", text)), IOR_OK);
	CU_ASSERT_EQUAL(m->settings.warmup, 1);
	CU_ASSERT_EQUAL(ior_matrix_warmup(m, &m->engines[0]), 2);
	CU_ASSERT_EQUAL(ior_matrix_warmup(m, &m->engines[1]), 3);
	CU_ASSERT_EQUAL(ior_matrix_warmup(m, &m->engines[2]), 0);
	CU_ASSERT_PTR_NULL(strstr(m->engines[1].params, "warmup"));
	CU_ASSERT_EQUAL(ior_test_ok(ior_matrix_set(m, "engine.c.warmup=4")), IOR_OK);
	CU_ASSERT_EQUAL(ior_matrix_warmup(m, &m->engines[2]), 4);
	CU_ASSERT_EQUAL(ior_matrix_set(m, "defaults.warmup=x"), IOR_EINVALID);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "warmup"));
	ior_matrix_free(m);
	/* without an engine's own, [matrix] warmup applies */
	m = NULL;
	CU_ASSERT_EQUAL_FATAL(ior_matrix_parse_string(&m, "w.ini", "[matrix]\nwarmup = 2\n[device d]\nloop = 16M\n"
								   "[engine a]\ntype = hdparm\n"), IOR_OK);
	CU_ASSERT_EQUAL(ior_matrix_warmup(m, &m->engines[0]), 2);
	ior_matrix_free(m);
	m = NULL;
	CU_ASSERT_EQUAL(ior_matrix_parse_string(&m, "w.ini", "[device d]\nloop = 16M\n[engine a]\ntype = hdparm\n"
							     "warmup = -1\n"), IOR_EINVALID);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "w.ini:5: warmup"));
	CU_ASSERT_PTR_NULL(m);
}

int main(void)
{
	static const struct ior_test tests[] = {
		IOR_TEST(test_default),
		IOR_TEST(test_seed_example),
		IOR_TEST(test_full_file),
		IOR_TEST(test_minimal_file),
		IOR_TEST(test_every_example),
		IOR_TEST(test_bad_files),
		IOR_TEST(test_declared_comparisons),
		IOR_TEST(test_missing_file),
		IOR_TEST(test_long_lines),
		IOR_TEST(test_overrides),
		IOR_TEST(test_every_engine_type),
		IOR_TEST(test_warmup_key),
		IOR_TEST_END
	};
	return ior_test_run("matrix", tests);
}
