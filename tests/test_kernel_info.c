/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for kernel/info: the running kernel's record and kernel configs (plain and gzip), their
 * sha256 and I/O-scheduler options. */
#include "common/error.h"
#include "kernel/info.h"
#include "tests/suite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <zlib.h>

static const char sample_config[] =
	"#\n# Automatically generated file; DO NOT EDIT.\n#\n"
	"CONFIG_BLOCK=y\n"
	"# IO Schedulers\n"
	"CONFIG_MQ_IOSCHED_DEADLINE=y\n"
	"CONFIG_MQ_IOSCHED_KYBER=m\n"
	"CONFIG_IOSCHED_BFQ=m\n"
	"# CONFIG_BFQ_GROUP_IOSCHED is not set\n"
	"CONFIG_DEFAULT_IOSCHED=\"cfq\"\n"
	"CONFIG_HZ=250\n";

static void test_running_kernel_record(void)
{
	struct ior_kernel_info k;
	CU_ASSERT_EQUAL_FATAL(ior_kernel_info_read(&k), IOR_OK);
	struct utsname u;
	CU_ASSERT_EQUAL_FATAL(uname(&u), 0);
	CU_ASSERT_STRING_EQUAL(k.release, u.release);
	CU_ASSERT_STRING_EQUAL(k.version, u.version);
	CU_ASSERT_STRING_EQUAL(k.machine, u.machine);
	CU_ASSERT(k.hostname[0] != '\0');

	char cmdline[4096] = "";
	FILE *f = fopen("/proc/cmdline", "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_PTR_NOT_NULL(fgets(cmdline, sizeof(cmdline), f));
	fclose(f);
	cmdline[strcspn(cmdline, "\n")] = '\0';
	size_t n = strlen(cmdline);
	while (n && cmdline[n - 1] == ' ')
		cmdline[--n] = '\0';
	CU_ASSERT_STRING_EQUAL(k.cmdline, cmdline);
}

/* The hash must match what sha256sum says of the uncompressed config. */
static void test_running_kernel_config_hash_matches_sha256sum(void)
{
	struct ior_kernel_info k;
	CU_ASSERT_EQUAL_FATAL(ior_kernel_info_read(&k), IOR_OK);
	if (!k.config_path[0]) {
		CU_ASSERT_STRING_EQUAL(k.config_hash, "");
		CU_ASSERT_STRING_EQUAL(k.iosched_config, "");
		ior_test_not_run("no config for %s here: only the empty record was checked", k.release);
		return;
	}
	char cmd[512], expect[65] = "";
	snprintf(cmd, sizeof(cmd), "gzip -dcf '%s' | sha256sum", k.config_path);
	FILE *p = popen(cmd, "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(fscanf(p, "%64s", expect), 1);
	pclose(p);
	CU_ASSERT_STRING_EQUAL(k.config_hash, expect);
	CU_ASSERT_PTR_NOT_NULL(strstr(k.iosched_config, "IOSCHED"));
}

static void test_sha256_known_vector(void)
{
	char hex[65];
	CU_ASSERT_EQUAL(ior_kernel_config_sha256(hex, "abc", 3), IOR_OK);
	CU_ASSERT_STRING_EQUAL(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

static const char *write_gz(const char *name, const char *text)
{
	static char path[4096];
	snprintf(path, sizeof(path), "%s/%s", ior_test_tmpdir(), name);
	gzFile gz = gzopen(path, "wb");
	CU_ASSERT_PTR_NOT_NULL_FATAL(gz);
	CU_ASSERT_EQUAL(gzwrite(gz, text, (unsigned)strlen(text)), (int)strlen(text));
	gzclose(gz);
	return path;
}

static void test_plain_and_gzip_configs_load_alike(void)
{
	char *plain, *gz;
	size_t plain_len, gz_len;
	const char *p = ior_test_write_file("config-plain", sample_config);
	CU_ASSERT_EQUAL_FATAL(ior_kernel_config_load(&plain, &plain_len, p), IOR_OK);
	CU_ASSERT_EQUAL_FATAL(ior_kernel_config_load(&gz, &gz_len, write_gz("config.gz", sample_config)), IOR_OK);
	CU_ASSERT_EQUAL(plain_len, strlen(sample_config));
	CU_ASSERT_EQUAL(gz_len, plain_len);
	CU_ASSERT_STRING_EQUAL(plain, sample_config);
	CU_ASSERT_STRING_EQUAL(gz, sample_config);
	free(plain);
	free(gz);
}

static void test_iosched_options_and_values(void)
{
	char out[1024];
	ior_kernel_config_iosched(out, sizeof(out), sample_config);
	CU_ASSERT_STRING_EQUAL(out, "CONFIG_MQ_IOSCHED_DEADLINE=y CONFIG_MQ_IOSCHED_KYBER=m CONFIG_IOSCHED_BFQ=m "
				    "CONFIG_BFQ_GROUP_IOSCHED=n CONFIG_DEFAULT_IOSCHED=\"cfq\"");
	/* a small buffer keeps whole options only */
	char small[40];
	ior_kernel_config_iosched(small, sizeof(small), sample_config);
	CU_ASSERT_STRING_EQUAL(small, "CONFIG_MQ_IOSCHED_DEADLINE=y");
	CU_ASSERT_EQUAL(ior_kernel_config_value(sample_config, "CONFIG_MQ_IOSCHED_DEADLINE"), 'y');
	CU_ASSERT_EQUAL(ior_kernel_config_value(sample_config, "CONFIG_IOSCHED_BFQ"), 'm');
	CU_ASSERT_EQUAL(ior_kernel_config_value(sample_config, "CONFIG_BFQ_GROUP_IOSCHED"), 'n');
	CU_ASSERT_EQUAL(ior_kernel_config_value(sample_config, "CONFIG_IOSCHED_CFQ"), 'n');
	/* a prefix of a longer option is not that option */
	CU_ASSERT_EQUAL(ior_kernel_config_value(sample_config, "CONFIG_MQ_IOSCHED"), 'n');
	/* a string option without its quotes and escapes (the compiler a build records); "" for a
	 * number, an unset or an absent option */
	static const char cc[] = "CONFIG_CC_VERSION_TEXT=\"gcc (Debian \\\"x\\\" 12.2.0-14) 12.2.0\"\nCONFIG_HZ=250\n";
	char text[64];
	ior_kernel_config_string(text, sizeof(text), cc, "CONFIG_CC_VERSION_TEXT");
	CU_ASSERT_STRING_EQUAL(text, "gcc (Debian \"x\" 12.2.0-14) 12.2.0");
	ior_kernel_config_string(text, sizeof(text), cc, "CONFIG_HZ");
	CU_ASSERT_STRING_EQUAL(text, "");
	ior_kernel_config_string(text, sizeof(text), sample_config, "CONFIG_BFQ_GROUP_IOSCHED");
	CU_ASSERT_STRING_EQUAL(text, "");
	ior_kernel_config_string(text, sizeof(text), sample_config, "CONFIG_CC_VERSION_TEXT");
	CU_ASSERT_STRING_EQUAL(text, "");
	ior_kernel_config_string(text, sizeof(text), sample_config, "CONFIG_DEFAULT_IOSCHED");
	CU_ASSERT_STRING_EQUAL(text, "cfq");
}

static void test_config_found_in_boot_dir_or_empty(void)
{
	char path[256];
	ior_test_write_file("config-6.1.0-47-cloud-amd64", sample_config);
	CU_ASSERT_EQUAL(ior_kernel_config_find(path, sizeof(path), "6.1.0-47-cloud-amd64", ior_test_tmpdir()), IOR_OK);
	char want[4096];
	snprintf(want, sizeof(want), "%s/config-6.1.0-47-cloud-amd64", ior_test_tmpdir());
	CU_ASSERT_STRING_EQUAL(path, want);
	/* a kernel with no config is "", not an error */
	CU_ASSERT_EQUAL(ior_kernel_config_find(path, sizeof(path), "2.6.33-rc5", ior_test_tmpdir()), IOR_OK);
	CU_ASSERT_STRING_EQUAL(path, "");
}

static void test_corrupt_gzip_is_an_error_naming_the_file(void)
{
	/* gzip magic, then garbage: zlib must report a data error, not return garbage */
	const char *p = ior_test_write_file("config-bad.gz", "\x1f\x8b\x08\x00garbage-that-is-not-deflate");
	char *text;
	size_t len;
	CU_ASSERT_NOT_EQUAL(ior_kernel_config_load(&text, &len, p), IOR_OK);
	CU_ASSERT_PTR_NULL(text);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "config-bad.gz"));
	CU_ASSERT_NOT_EQUAL(ior_kernel_config_load(&text, &len, "/nonexistent/config"), IOR_OK);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "cannot open kernel config '/nonexistent/config'"));
}

int main(void)
{
	static const struct ior_test tests[] = {
		IOR_TEST(test_running_kernel_record),
		IOR_TEST(test_running_kernel_config_hash_matches_sha256sum),
		IOR_TEST(test_sha256_known_vector),
		IOR_TEST(test_plain_and_gzip_configs_load_alike),
		IOR_TEST(test_iosched_options_and_values),
		IOR_TEST(test_config_found_in_boot_dir_or_empty),
		IOR_TEST(test_corrupt_gzip_is_an_error_naming_the_file),
		IOR_TEST_END,
	};
	return ior_test_run("kernel_info", tests);
}
