/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for the fio engine: its JSON parser on real fio 3.33 output and on broken variants of it,
 * and real fio runs on a scratch loop device. */
#include "common/error.h"
#include "device/loopdev.h"
#include "engines/engine.h"
#include "engines/fio_json.h"
#include "common/spawn.h"
#include "tests/engine_fixture.h"
#include "tests/suite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern const struct ior_engine_ops ior_engine_fio;

static char *slurp(const char *relative, size_t *len)
{
	FILE *f = fopen(ior_test_source_path(relative), "rb");
	CU_ASSERT_FATAL(f != NULL);
	char *buf = malloc(1 << 20);
	*len = fread(buf, 1, (1 << 20) - 1, f);
	buf[*len] = '\0';
	fclose(f);
	return buf;
}

static void test_parses_randread_fixture(void)
{
	size_t len;
	char *text = slurp("tests/data/fio-3.33-randread.json", &len);
	struct ior_fio_result r;
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(ior_fio_json_parse(&r, text, len)), IOR_OK);
	CU_ASSERT_STRING_EQUAL(r.version, "fio-3.33");
	CU_ASSERT_EQUAL(r.read.io_bytes, 33554432);
	CU_ASSERT_EQUAL(r.read.total_ios, 8192);
	CU_ASSERT_DOUBLE_EQUAL(r.read.iops, 910222.222222, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(r.read.bw_bytes, 3728270222.0, 0.5);
	CU_ASSERT_TRUE(r.read.clat.has);
	CU_ASSERT_DOUBLE_EQUAL(r.read.clat.p50_us, 4.128, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r.read.clat.p99_us, 8.768, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r.read.clat.p999_us, 107.008, 1e-9);
	CU_ASSERT_EQUAL(r.write.io_bytes, 0);
	CU_ASSERT_FALSE(r.write.clat.has);
	CU_ASSERT_DOUBLE_EQUAL(r.usr_s, 0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(r.sys_s, 0.69230769 * 0.013, 1e-9); /* sys_cpu % × job_runtime ms */
	CU_ASSERT_EQUAL(r.error, 0);
	free(text);
}

static void test_parses_mixed_fixture(void)
{
	size_t len;
	char *text = slurp("tests/data/fio-3.33-randrw.json", &len);
	struct ior_fio_result r;
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(ior_fio_json_parse(&r, text, len)), IOR_OK);
	CU_ASSERT_EQUAL(r.read.io_bytes, 11657216);
	CU_ASSERT_EQUAL(r.read.total_ios, 2846);
	CU_ASSERT_EQUAL(r.write.io_bytes, 5120000);
	CU_ASSERT_EQUAL(r.write.total_ios, 1250);
	CU_ASSERT_DOUBLE_EQUAL(r.read.clat.p50_us, 7.008, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r.write.clat.p999_us, 518.144, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r.usr_s, 0.013, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r.sys_s, 0.025, 1e-9);
	free(text);
}

/* fio 3.33 prints a "note: ..." line before the JSON on stdout. */
static void test_skips_text_before_the_json(void)
{
	size_t len;
	char *text = slurp("tests/data/fio-3.33-write-note.json", &len);
	CU_ASSERT_EQUAL(strncmp(text, "note:", 5), 0);
	struct ior_fio_result r;
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(ior_fio_json_parse(&r, text, len)), IOR_OK);
	CU_ASSERT_EQUAL(r.write.io_bytes, 16777216);
	CU_ASSERT_EQUAL(r.write.total_ios, 256);
	CU_ASSERT_DOUBLE_EQUAL(r.write.clat.p50_us, 15.424, 1e-9);
	CU_ASSERT_FALSE(r.read.clat.has);
	free(text);
}

static void test_rejects_every_truncation(void)
{
	size_t len;
	char *text = slurp("tests/data/fio-3.33-randread.json", &len);
	struct ior_fio_result r;
	size_t rejected = 0, tried = 0;
	/* Every prefix that ends before the final '}' is incomplete. */
	size_t last = (size_t)(strrchr(text, '}') - text);
	for (size_t cut = 0; cut < last; cut += 7, tried++) {
		int rc = ior_fio_json_parse(&r, text, cut);
		rejected += rc == IOR_EINVALID && strstr(ior_error_last(), "fio json:") != NULL;
	}
	CU_ASSERT_EQUAL(rejected, tried);
	CU_ASSERT_EQUAL(ior_fio_json_parse(&r, text, last), IOR_EINVALID);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "truncated"));
	CU_ASSERT_EQUAL(ior_test_ok(ior_fio_json_parse(&r, text, last + 1)), IOR_OK);
	free(text);
}

/* The fixture with one substitution, parsed: the message must contain want. */
static void check_edit(const char *from, const char *to, const char *want)
{
	size_t len;
	char *text = slurp("tests/data/fio-3.33-randread.json", &len);
	char *at = strstr(text, from);
	CU_ASSERT_PTR_NOT_NULL_FATAL(at);
	size_t fl = strlen(from), tl = strlen(to);
	char *edited = malloc(len + tl + 1);
	memcpy(edited, text, (size_t)(at - text));
	memcpy(edited + (at - text), to, tl);
	strcpy(edited + (at - text) + tl, at + fl);
	struct ior_fio_result r;
	CU_ASSERT_EQUAL(ior_fio_json_parse(&r, edited, strlen(edited)), IOR_EINVALID);
	if (!strstr(ior_error_last(), want))
		fprintf(stderr, "  wanted '%s' in: %s\n", want, ior_error_last());
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), want));
	free(edited);
	free(text);
}

static void test_rejects_missing_keys_and_wrong_types(void)
{
	check_edit("\"io_bytes\" : 33554432", "\"io_byte\" : 33554432", "missing 'jobs[0].read.io_bytes'");
	check_edit("\"io_bytes\" : 33554432", "\"io_bytes\" : \"33554432\"", "'jobs[0].read.io_bytes' is a string, expected a whole number");
	check_edit("\"io_bytes\" : 33554432", "\"io_bytes\" : -5", "expected a count");
	check_edit("\"iops\" : 910222.222222", "\"iops\" : null", "'jobs[0].read.iops' is null, expected a number");
	check_edit("\"fio version\" : \"fio-3.33\"", "\"fio version\" : 3", "'fio version' is a whole number, expected a string");
	check_edit("\"jobs\" : [", "\"jobs\" : {}, \"x\" : [", "'jobs' is an object, expected an array");
	check_edit("\"50.000000\" : 4128", "\"50.000000\" : 9999999", "not ordered");
	check_edit("\"99.900000\" : 107008", "\"99.90000\" : 107008", "missing 'jobs[0].read.clat_ns.percentile.99.900000'");
	check_edit("\"usr_cpu\" : 0.000000", "\"usr_cpu\" : [0]", "'jobs[0].usr_cpu' is an array");
	check_edit("\"percentile\" : {", "\"percentil\" : {", "missing 'jobs[0].read.clat_ns.percentile'");
	check_edit("{", "[", "no JSON object"); /* an inner '{' is not taken for the start */
	check_edit("\"jobs\" : [", "\"jobs\" : [ 7, ", "'jobs[0]' is a whole number, expected an object");
	check_edit("\"fio version\"", "\"fio version\" \"x\"", "fio json:");
}

static void test_rejects_nothing_and_empty_jobs(void)
{
	struct ior_fio_result r;
	CU_ASSERT_EQUAL(ior_fio_json_parse(&r, "", 0), IOR_EINVALID);
	CU_ASSERT_EQUAL(ior_fio_json_parse(&r, NULL, 0), IOR_EINVALID);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "no JSON object"));
	const char *empty = "{\"fio version\":\"fio-3.33\",\"jobs\":[]}";
	CU_ASSERT_EQUAL(ior_fio_json_parse(&r, empty, strlen(empty)), IOR_EINVALID);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "'jobs' is empty"));
}

static struct ior_target scratch; /* destructive per call: the refusal test needs both */

static int run_fio(const char *const *kv, bool destructive, struct ior_sample *out)
{
	struct ior_target t = scratch;
	t.destructive = destructive;
	return ior_test_engine_once(&ior_engine_fio, kv, &t, out);
}

static void test_real_randread_run(void)
{
	const char *kv[] = { "rw", "randread", "bs", "4k", "iodepth", "4", "numjobs", "2", "size", "8M", NULL };
	struct ior_sample s;
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(run_fio(kv, false, &s)), IOR_OK);
	CU_ASSERT_EQUAL(s.bytes, 2u * (8u << 20)); /* each job reads its size */
	CU_ASSERT_EQUAL(s.ios, 2u * 2048);
	CU_ASSERT_STRING_EQUAL(s.unit, "IOPS");
	CU_ASSERT_TRUE(s.value > 0);
	CU_ASSERT_TRUE(s.has_latency);
	CU_ASSERT_TRUE(s.lat_p50_us > 0);
	CU_ASSERT_TRUE(s.lat_p50_us <= s.lat_p99_us && s.lat_p99_us <= s.lat_p999_us);
	CU_ASSERT_TRUE(s.usr_s + s.sys_s > 0);
	CU_ASSERT_EQUAL(strncmp(s.detail, "fio-", 4), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(s.detail, "ioengine=libaio"));
}

static void test_real_write_run_and_refusal(void)
{
	const char *kv[] = { "rw", "write", "bs", "64k", "size", "4M", "direct", "no", "ioengine", "psync", NULL };
	struct ior_sample s;
	CU_ASSERT_EQUAL(run_fio(kv, false, &s), IOR_EREFUSED);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "destructive"));
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(run_fio(kv, true, &s)), IOR_OK);
	CU_ASSERT_EQUAL(s.bytes, 4u << 20);
	CU_ASSERT_EQUAL(s.ios, 64);
	CU_ASSERT_STRING_EQUAL(s.unit, "MiB/s");
}

static void test_missing_binary_is_unsupported_and_failures_are_errors(void)
{
	const char *missing[] = { "binary", "fio-not-installed-here", NULL };
	struct ior_sample s;
	CU_ASSERT_EQUAL(run_fio(missing, false, &s), IOR_EUNSUPPORTED);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "fio-not-installed-here"));
	/* fio itself fails: an unknown ioengine; the message carries fio's own stderr. */
	const char *bad[] = { "ioengine", "no-such-engine", "size", "1M", NULL };
	CU_ASSERT_EQUAL(run_fio(bad, false, &s), IOR_ERROR);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "'fio' exited with status"));
}

int main(void)
{
	static const struct ior_test offline[] = {
		IOR_TEST(test_parses_randread_fixture),
		IOR_TEST(test_parses_mixed_fixture),
		IOR_TEST(test_skips_text_before_the_json),
		IOR_TEST(test_rejects_every_truncation),
		IOR_TEST(test_rejects_missing_keys_and_wrong_types),
		IOR_TEST(test_rejects_nothing_and_empty_jobs),
		IOR_TEST_END
	};
	static const struct ior_test all[] = {
		IOR_TEST(test_parses_randread_fixture),
		IOR_TEST(test_parses_mixed_fixture),
		IOR_TEST(test_skips_text_before_the_json),
		IOR_TEST(test_rejects_every_truncation),
		IOR_TEST(test_rejects_missing_keys_and_wrong_types),
		IOR_TEST(test_rejects_nothing_and_empty_jobs),
		IOR_TEST(test_real_randread_run),
		IOR_TEST(test_real_write_run_and_refusal),
		IOR_TEST(test_missing_binary_is_unsupported_and_failures_are_errors),
		IOR_TEST_END
	};
	/* The parser needs nothing; real runs need root, a loop device and fio. */
	if (geteuid() != 0 || !ior_spawn_in_path("fio")) {
		fprintf(stderr, "not root or no fio: only the JSON parser is tested\n");
		return ior_test_run("engine_fio", offline);
	}
	if (!ior_test_scratch_device(&scratch, 64u << 20, false, false))
		ior_test_skip("no scratch loop device: %s", ior_error_last());
	return ior_test_run("engine_fio", all);
}
