/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests of option rows: unit parsers with their bounds and junk, the generic setter, defaults, formatting, copies. */
#include "tests/suite.h"
#include "options/option.h"
#include "common/error.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

struct opts {
	bool flag;
	uint64_t count;
	uint64_t bs;
	double runtime;
	double spread;
	double ratio;
	char *label;
	int rw;
};

static const char *const rw_choices[] = { "read", "write", "randread", "randwrite", NULL };

#define OPT(field) offsetof(struct opts, field)

static const struct ior_option rows[] = {
	{ .name = "flag", .type = IOR_OPT_BOOL, .offset = OPT(flag),
	  .def = "yes", .help = "a switch" },
	{ .name = "iodepth", .type = IOR_OPT_UINT, .offset = OPT(count), .min = 1, .max = 1024,
	  .def = "8", .help = "queue depth" },
	{ .name = "bs", .type = IOR_OPT_SIZE, .offset = OPT(bs), .min = 512, .max = 64 << 20,
	  .def = "4k", .help = "block size" },
	{ .name = "runtime", .type = IOR_OPT_DURATION, .offset = OPT(runtime),
	  .def = "10s", .help = "time" },
	{ .name = "spread", .type = IOR_OPT_PERCENT, .offset = OPT(spread), .min = 0, .max = 0.5,
	  .def = "10%", .help = "threshold" },
	{ .name = "ratio", .type = IOR_OPT_DOUBLE, .offset = OPT(ratio), .min = -1, .max = 1,
	  .help = "a plain number" },
	{ .name = "label", .type = IOR_OPT_STRING, .offset = OPT(label),
	  .def = "a,b=c", .help = "text" },
	{ .name = "rw", .type = IOR_OPT_ENUM, .offset = OPT(rw),
	  .def = "randread", .choices = rw_choices, .help = "pattern" },
	IOR_OPTION_END
};

static void size_ok(const char *text, uint64_t want)
{
	uint64_t v = 12345;
	int rc = ior_parse_size(text, &v);
	CU_ASSERT_EQUAL_FATAL(rc, IOR_OK);
	CU_ASSERT_EQUAL(v, want);
}

static void size_bad(const char *text, const char *message)
{
	uint64_t v = 12345;
	CU_ASSERT_EQUAL(ior_parse_size(text, &v), IOR_EINVALID);
	CU_ASSERT_EQUAL(v, 12345);
	CU_ASSERT_STRING_EQUAL(ior_error_last(), message);
}

static void test_sizes(void)
{
	size_ok("0", 0);
	size_ok("512", 512);
	size_ok("512B", 512);
	size_ok("4k", 4096);
	size_ok("4K", 4096);
	size_ok("4KiB", 4096);
	size_ok("4kib", 4096);
	size_ok("4kB", 4096);
	size_ok("128M", 128ull << 20);
	size_ok("1g", 1ull << 30);
	size_ok("2T", 2ull << 40);
	size_ok("18446744073709551615", UINT64_MAX);
	size_ok("16777215T", 16777215ull << 40);
	const char *junk[] = { "", "k", "4q", "4 k", " 4k", "-1", "+4", "4.5k", "4kk", "4iB", "4KiBs", "0x10", "4P", NULL };
	for (int i = 0; junk[i]; i++) {
		char want[128];
		snprintf(want, sizeof(want), "'%s' is not a size (use a whole number with k, M, G or T)", junk[i]);
		size_bad(junk[i], want);
	}
	size_bad("18446744073709551616", "'18446744073709551616' is too large");
	size_bad("16777216T", "'16777216T' is too large");
	size_bad("99999999999999999999999k", "'99999999999999999999999k' is too large");
}

static void duration_ok(const char *text, double want)
{
	double v = -1;
	CU_ASSERT_EQUAL_FATAL(ior_parse_duration(text, &v), IOR_OK);
	CU_ASSERT_DOUBLE_EQUAL(v, want, 1e-12);
}

static void test_durations(void)
{
	duration_ok("3", 3);
	duration_ok("3s", 3);
	duration_ok("0.5s", 0.5);
	duration_ok(".5", 0.5);
	duration_ok("250ms", 0.25);
	duration_ok("2m", 120);
	duration_ok("1.5h", 5400);
	duration_ok("0", 0);
	const char *junk[] = { "", "s", "3x", "3 s", "-1s", "+3", "inf", "nan", "1e3", "3sec", "3S", "3mss", "0x1p3", ".", NULL };
	for (int i = 0; junk[i]; i++) {
		double v = -1;
		char want[128];
		snprintf(want, sizeof(want), "'%s' is not a duration (use a number with ms, s, m or h)", junk[i]);
		CU_ASSERT_EQUAL(ior_parse_duration(junk[i], &v), IOR_EINVALID);
		CU_ASSERT_EQUAL(v, -1);
		CU_ASSERT_STRING_EQUAL(ior_error_last(), want);
	}
	char huge[400];
	memset(huge, '9', sizeof(huge) - 2);
	huge[sizeof(huge) - 2] = 'h';
	huge[sizeof(huge) - 1] = '\0';
	double v;
	CU_ASSERT_EQUAL(ior_parse_duration(huge, &v), IOR_EINVALID);
}

static void test_percent_and_bool(void)
{
	double f = -1;
	CU_ASSERT_EQUAL(ior_parse_percent("10%", &f), IOR_OK);
	CU_ASSERT_DOUBLE_EQUAL(f, 0.10, 1e-12);
	CU_ASSERT_EQUAL(ior_parse_percent("0.1", &f), IOR_OK);
	CU_ASSERT_DOUBLE_EQUAL(f, 0.10, 1e-12);
	CU_ASSERT_EQUAL(ior_parse_percent("150%", &f), IOR_OK);
	CU_ASSERT_DOUBLE_EQUAL(f, 1.5, 1e-12);
	CU_ASSERT_EQUAL(ior_parse_percent("1", &f), IOR_OK);
	CU_ASSERT_DOUBLE_EQUAL(f, 1.0, 1e-12);
	f = -1;
	CU_ASSERT_EQUAL(ior_parse_percent("10", &f), IOR_EINVALID);
	CU_ASSERT_STRING_EQUAL(ior_error_last(), "'10' is ambiguous (write '10%', or a fraction up to 1)");
	const char *junk[] = { "", "%", "10%%", "-5%", "ten", "10 %", "1e1%", NULL };
	for (int i = 0; junk[i]; i++)
		CU_ASSERT_EQUAL(ior_parse_percent(junk[i], &f), IOR_EINVALID);
	CU_ASSERT_EQUAL(f, -1);

	const char *yes[] = { "yes", "YES", "true", "On", "1", NULL };
	const char *no[] = { "no", "False", "off", "0", NULL };
	for (int i = 0; yes[i]; i++) {
		bool b = false;
		CU_ASSERT_EQUAL(ior_parse_bool(yes[i], &b), IOR_OK);
		CU_ASSERT_TRUE(b);
	}
	for (int i = 0; no[i]; i++) {
		bool b = true;
		CU_ASSERT_EQUAL(ior_parse_bool(no[i], &b), IOR_OK);
		CU_ASSERT_FALSE(b);
	}
	bool b = true;
	CU_ASSERT_EQUAL(ior_parse_bool("maybe", &b), IOR_EINVALID);
	CU_ASSERT_STRING_EQUAL(ior_error_last(), "'maybe' is not yes or no");
	CU_ASSERT_EQUAL(ior_parse_bool("", &b), IOR_EINVALID);
	CU_ASSERT_EQUAL(ior_parse_bool("2", &b), IOR_EINVALID);
	CU_ASSERT_EQUAL(ior_parse_bool("yess", &b), IOR_EINVALID);
	CU_ASSERT_TRUE(b);
}

static void test_defaults_and_format(void)
{
	struct opts o;
	memset(&o, 0xa5, sizeof(o));
	CU_ASSERT_EQUAL_FATAL(ior_options_defaults(rows, &o), IOR_OK);
	CU_ASSERT_TRUE(o.flag);
	CU_ASSERT_EQUAL(o.count, 8);
	CU_ASSERT_EQUAL(o.bs, 4096);
	CU_ASSERT_DOUBLE_EQUAL(o.runtime, 10, 0);
	CU_ASSERT_DOUBLE_EQUAL(o.spread, 0.1, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(o.ratio, 0, 0);
	CU_ASSERT_STRING_EQUAL(o.label, "a,b=c");
	CU_ASSERT_EQUAL(o.rw, 2);
	char buf[256];
	CU_ASSERT_EQUAL(ior_options_format(rows, &o, buf, sizeof(buf)), IOR_OK);
	CU_ASSERT_STRING_EQUAL(buf, "flag=yes,iodepth=8,bs=4K,runtime=10s,spread=10%,ratio=0,label=a\\,b\\=c,rw=randread");
	/* Too small a buffer is an error, not a cut string. */
	CU_ASSERT_EQUAL(ior_options_format(rows, &o, buf, 20), IOR_ERROR);

	CU_ASSERT_EQUAL(ior_option_set(rows, &o, "bs", "1536"), IOR_OK);
	CU_ASSERT_EQUAL(ior_option_set(rows, &o, "runtime", "250ms"), IOR_OK);
	CU_ASSERT_EQUAL(ior_option_set(rows, &o, "spread", "0.125"), IOR_OK);
	CU_ASSERT_EQUAL(ior_option_set(rows, &o, "ratio", "-0.25"), IOR_OK);
	CU_ASSERT_EQUAL(ior_option_set(rows, &o, "flag", "off"), IOR_OK);
	CU_ASSERT_EQUAL(ior_option_set(rows, &o, "label", "x"), IOR_OK);
	CU_ASSERT_EQUAL(ior_options_format(rows, &o, buf, sizeof(buf)), IOR_OK);
	CU_ASSERT_STRING_EQUAL(buf, "flag=no,iodepth=8,bs=1536,runtime=250ms,spread=12.5%,ratio=-0.25,label=x,rw=randread");
	CU_ASSERT_EQUAL(ior_option_set(rows, &o, "runtime", "120"), IOR_OK);
	CU_ASSERT_EQUAL(ior_option_set(rows, &o, "bs", "64M"), IOR_OK);
	CU_ASSERT_EQUAL(ior_options_format(rows, &o, buf, sizeof(buf)), IOR_OK);
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "bs=64M,runtime=2m,"));

	/* A copy owns its strings: changing one leaves the other. */
	struct opts c;
	CU_ASSERT_EQUAL_FATAL(ior_options_copy(rows, &c, &o, sizeof(o)), IOR_OK);
	CU_ASSERT_PTR_NOT_EQUAL(c.label, o.label);
	CU_ASSERT_EQUAL(ior_option_set(rows, &c, "label", "y"), IOR_OK);
	CU_ASSERT_STRING_EQUAL(o.label, "x");
	CU_ASSERT_EQUAL(c.bs, o.bs);
	ior_options_free(rows, &c);
	CU_ASSERT_PTR_NULL(c.label);
	ior_options_free(rows, &o);
	ior_options_free(rows, NULL);
}

/* What each set writes can be read back from the canonical text and gives the same text. */
static void test_format_round_trip(void)
{
	struct opts a, b;
	CU_ASSERT_EQUAL_FATAL(ior_options_defaults(rows, &a), IOR_OK);
	CU_ASSERT_EQUAL_FATAL(ior_options_defaults(rows, &b), IOR_OK);
	const char *sets[][2] = { { "bs", "3M" }, { "runtime", "90s" }, { "spread", "33%" }, { "rw", "write" },
				  { "iodepth", "1024" }, { "ratio", "0.3" }, { "label", "plain" } };
	for (size_t i = 0; i < sizeof(sets) / sizeof(sets[0]); i++)
		CU_ASSERT_EQUAL(ior_option_set(rows, &a, sets[i][0], sets[i][1]), IOR_OK);
	char text[256], again[256];
	CU_ASSERT_EQUAL_FATAL(ior_options_format(rows, &a, text, sizeof(text)), IOR_OK);
	char copy[256];
	strcpy(copy, text);
	for (char *kv = strtok(copy, ","); kv; kv = strtok(NULL, ",")) {
		char *eq = strchr(kv, '=');
		*eq = '\0';
		CU_ASSERT_EQUAL(ior_option_set(rows, &b, kv, eq + 1), IOR_OK);
	}
	CU_ASSERT_EQUAL(ior_options_format(rows, &b, again, sizeof(again)), IOR_OK);
	CU_ASSERT_STRING_EQUAL(text, again);
	CU_ASSERT_STRING_EQUAL(text, "flag=yes,iodepth=1024,bs=3M,runtime=90s,spread=33%,ratio=0.3,label=plain,rw=write");
	ior_options_free(rows, &a);
	ior_options_free(rows, &b);
}

static void set_bad(struct opts *o, const char *key, const char *value, const char *message)
{
	char before[256], after[256];
	CU_ASSERT_EQUAL(ior_options_format(rows, o, before, sizeof(before)), IOR_OK);
	CU_ASSERT_EQUAL(ior_option_set(rows, o, key, value), IOR_EINVALID);
	CU_ASSERT_STRING_EQUAL(ior_error_last(), message);
	CU_ASSERT_EQUAL(ior_options_format(rows, o, after, sizeof(after)), IOR_OK);
	CU_ASSERT_STRING_EQUAL(before, after);
}

static void test_set_errors(void)
{
	struct opts o;
	CU_ASSERT_EQUAL_FATAL(ior_options_defaults(rows, &o), IOR_OK);
	set_bad(&o, "iodepht", "4", "iodepht: unknown key (did you mean 'iodepth'?)");
	set_bad(&o, "BS", "4k", "BS: unknown key (did you mean 'bs'?)");
	set_bad(&o, "blocksize", "4k", "blocksize: unknown key");
	set_bad(&o, "iodepth", "0", "iodepth: '0' is out of range (1..1024)");
	set_bad(&o, "iodepth", "1025", "iodepth: '1025' is out of range (1..1024)");
	set_bad(&o, "iodepth", "-1", "iodepth: '-1' is not a whole number");
	set_bad(&o, "iodepth", "8x", "iodepth: '8x' is not a whole number");
	set_bad(&o, "iodepth", "99999999999999999999", "iodepth: '99999999999999999999' is too large");
	set_bad(&o, "iodepth", "", "iodepth: missing value");
	set_bad(&o, "bs", "256", "bs: '256' is out of range (512..64M)");
	set_bad(&o, "bs", "65M", "bs: '65M' is out of range (512..64M)");
	set_bad(&o, "bs", "4q", "bs: '4q' is not a size (use a whole number with k, M, G or T)");
	set_bad(&o, "spread", "60%", "spread: '60%' is out of range (0%..50%)");
	set_bad(&o, "ratio", "2", "ratio: '2' is out of range (-1..1)");
	set_bad(&o, "ratio", "nan", "ratio: 'nan' is not a number");
	set_bad(&o, "ratio", "inf", "ratio: 'inf' is not a number");
	set_bad(&o, "flag", "perhaps", "flag: 'perhaps' is not yes or no");
	set_bad(&o, "rw", "redd", "rw: 'redd' is not one of read, write, randread, randwrite (did you mean 'read'?)");
	set_bad(&o, "rw", "sequential", "rw: 'sequential' is not one of read, write, randread, randwrite");
	set_bad(&o, "label", "", "label: missing value");
	CU_ASSERT_PTR_EQUAL(ior_option_find(rows, "bs"), &rows[2]);
	CU_ASSERT_PTR_NULL(ior_option_find(rows, "b"));
	CU_ASSERT_STRING_EQUAL(ior_option_suggest(rows, "runtim"), "runtime");
	CU_ASSERT_PTR_NULL(ior_option_suggest(rows, "zzzzzzzz"));
	ior_options_free(rows, &o);
}

/* A bad built-in default is reported with the row's name and leaves nothing allocated. */
/* The command line's counts and numbers: the range is inclusive, anything else is refused with it. */
static void test_counts_and_numbers_in_a_range(void)
{
	uint64_t n = 7;
	double d = 7;
	CU_ASSERT_EQUAL(ior_parse_count("5", 5, 100000, &n), IOR_OK);
	CU_ASSERT_EQUAL(n, 5);
	CU_ASSERT_EQUAL(ior_parse_count("100000", 5, 100000, &n), IOR_OK);
	CU_ASSERT_EQUAL(n, 100000);
	const char *bad[] = { "4", "100001", "-1", "1.5", "5x", "" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char want[96];
		snprintf(want, sizeof(want), "'%s' is not a whole number from 5 to 100000", bad[i]);
		CU_ASSERT_EQUAL(ior_parse_count(bad[i], 5, 100000, &n), IOR_EINVALID);
		CU_ASSERT_STRING_EQUAL(ior_error_last(), want);
	}
	CU_ASSERT_EQUAL(n, 100000); /* left as it was */
	CU_ASSERT_EQUAL(ior_parse_number("1.5", 1, 86400, &d), IOR_OK);
	CU_ASSERT_DOUBLE_EQUAL(d, 1.5, 1e-12);
	CU_ASSERT_EQUAL(ior_parse_number("0.5", 1, 86400, &d), IOR_EINVALID);
	CU_ASSERT_STRING_EQUAL(ior_error_last(), "'0.5' is not a number from 1 to 86400");
	CU_ASSERT_EQUAL(ior_parse_number("nan", 1, 86400, &d), IOR_EINVALID);
	CU_ASSERT_DOUBLE_EQUAL(d, 1.5, 1e-12);
}

static void test_bad_default(void)
{
	struct small { char *name; uint64_t n; } s;
	const struct ior_option bad[] = {
		{ .name = "name", .type = IOR_OPT_STRING, .offset = offsetof(struct small, name), .def = "x" },
		{ .name = "n", .type = IOR_OPT_UINT, .offset = offsetof(struct small, n), .min = 1, .max = 10, .def = "11" },
		IOR_OPTION_END
	};
	CU_ASSERT_EQUAL(ior_options_defaults(bad, &s), IOR_EINVALID);
	CU_ASSERT_STRING_EQUAL(ior_error_last(), "n: bad built-in default: '11' is out of range (1..10)");
	CU_ASSERT_PTR_NULL(s.name);
}

static void test_format_units(void)
{
	char buf[32];
	ior_format_size(buf, sizeof(buf), 0);
	CU_ASSERT_STRING_EQUAL(buf, "0");
	ior_format_size(buf, sizeof(buf), 1ull << 40);
	CU_ASSERT_STRING_EQUAL(buf, "1T");
	ior_format_size(buf, sizeof(buf), 3ull << 29);
	CU_ASSERT_STRING_EQUAL(buf, "1536M");
	ior_format_duration(buf, sizeof(buf), 0.1);
	CU_ASSERT_STRING_EQUAL(buf, "100ms");
	ior_format_duration(buf, sizeof(buf), 7200);
	CU_ASSERT_STRING_EQUAL(buf, "2h");
	ior_format_duration(buf, sizeof(buf), 0.0005);
	CU_ASSERT_STRING_EQUAL(buf, "0.0005s");
	CU_ASSERT_EQUAL(ior_format_size(buf, 2, 4096), IOR_ERROR);
	ior_format_bytes(buf, sizeof(buf), 2ull << 20);
	CU_ASSERT_STRING_EQUAL(buf, "2 MiB");
	ior_format_bytes(buf, sizeof(buf), 1536);
	CU_ASSERT_STRING_EQUAL(buf, "1536 bytes");
}

int main(void)
{
	static const struct ior_test tests[] = {
		IOR_TEST(test_sizes),
		IOR_TEST(test_durations),
		IOR_TEST(test_percent_and_bool),
		IOR_TEST(test_defaults_and_format),
		IOR_TEST(test_format_round_trip),
		IOR_TEST(test_set_errors),
		IOR_TEST(test_counts_and_numbers_in_a_range),
		IOR_TEST(test_bad_default),
		IOR_TEST(test_format_units),
		IOR_TEST_END
	};
	return ior_test_run("options", tests);
}
