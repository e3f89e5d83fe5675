/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A tree built for a real machine, offline: the target's config as its fetch command prints it (text,
 * a config.gz made here, none, a corrupt stream, not a config, an expansion, no module list), the
 * command itself run by this machine's shell, the build's cache key pieces (the inputs hash, the
 * package version), bindeb-pkg's products sorted, a .deb given as KERNEL, and vm run's refusals. */
#include "common/error.h"
#include "kernel/info.h"
#include "tests/suite.h"
#include "vm/internal.h"
#include "vm/kernel_build.h"
#include "vm/target_config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#define TARGET "ssh://root@box.example:2222"
#define CONFIG "# Linux/x86 6.1.0 Kernel Configuration\nCONFIG_64BIT=y\nCONFIG_VIRTIO_BLK=m\n# CONFIG_KVM is not set\n"
#define MODULES "virtio_blk 24576 3 - Live 0x0000000000000000\next4 987136 1 - Live 0x0000000000000000\n"

/* What the fetch command prints: the header, the module list when given, then the config's bytes. */
static char *answer(const char *source, const char *modules, const void *config, size_t clen, size_t *len)
{
	char head[1024];
	int n = snprintf(head, sizeof(head), "release 6.1.0-57-cloud-amd64\nsource %s\n%s%s%sconfig\n", source,
			 modules ? "modules" : "", modules ? "\n" : "", modules ? modules : "");
	char *out = malloc((size_t)n + clen + 1);
	memcpy(out, head, (size_t)n);
	memcpy(out + n, config, clen);
	out[n + clen] = '\0';
	*len = (size_t)n + clen;
	return out;
}

static int parse(struct ior_vm_target_config *c, const char *source, const char *modules, const void *config, size_t clen,
		 bool want_modules)
{
	size_t len;
	char *out = answer(source, modules, config, clen, &len);
	int rc = ior_vm_target_config_parse(c, TARGET, out, len, want_modules, ior_test_tmpdir());
	free(out);
	return rc;
}

static void test_parse_text(void)
{
	struct ior_vm_target_config c;
	int rc = parse(&c, "/boot/config-6.1.0-57-cloud-amd64", MODULES, CONFIG, strlen(CONFIG), true);
	if (rc)
		fprintf(stderr, "\n  %s", ior_error_last());
	CU_ASSERT_EQUAL_FATAL(rc, IOR_OK);
	CU_ASSERT_STRING_EQUAL(c.release, "6.1.0-57-cloud-amd64");
	CU_ASSERT_STRING_EQUAL(c.source, "/boot/config-6.1.0-57-cloud-amd64");
	CU_ASSERT_STRING_EQUAL(c.where, TARGET ":/boot/config-6.1.0-57-cloud-amd64");
	CU_ASSERT_STRING_EQUAL(c.text, CONFIG);
	CU_ASSERT_EQUAL(c.len, strlen(CONFIG));
	CU_ASSERT_STRING_EQUAL(c.modules, MODULES);
	ior_vm_target_config_free(&c);
	/* not asked for: no module list, and none needed */
	rc = parse(&c, "/boot/config-6.1.0-57-cloud-amd64", NULL, CONFIG, strlen(CONFIG), false);
	CU_ASSERT_EQUAL(rc, IOR_OK);
	CU_ASSERT_PTR_NULL(c.modules);
	ior_vm_target_config_free(&c);
}

/* A config.gz made here with gzip, as /proc/config.gz is: unpacked on this side. */
static void test_parse_gz(void)
{
	const char *plain = ior_test_write_file("config", CONFIG);
	char gz[1200];
	snprintf(gz, sizeof(gz), "%s.gz", plain);
	CU_ASSERT_EQUAL_FATAL(ior_test_spawn_to((char *[]){ "gzip", "-c", (char *)plain, NULL }, NULL, gz, NULL), 0);
	size_t n;
	char *bytes = ior_test_read_file(gz, &n);
	CU_ASSERT_FATAL(bytes && n > 2 && (unsigned char)bytes[0] == 0x1f && (unsigned char)bytes[1] == 0x8b);
	struct ior_vm_target_config c;
	int rc = parse(&c, "/proc/config.gz", MODULES, bytes, n, true);
	if (rc)
		fprintf(stderr, "\n  %s", ior_error_last());
	CU_ASSERT_EQUAL(rc, IOR_OK);
	CU_ASSERT_STRING_EQUAL(c.text ? c.text : "", CONFIG);
	CU_ASSERT_STRING_EQUAL(c.where, TARGET ":/proc/config.gz");
	ior_vm_target_config_free(&c);
	/* the stream cut short: refused, naming the target and the file */
	rc = parse(&c, "/proc/config.gz", MODULES, bytes, n / 2, true);
	CU_ASSERT_EQUAL(rc, IOR_EINVALID);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), TARGET ":/proc/config.gz"));
	ior_vm_target_config_free(&c);
	free(bytes);
}

static void refused(const char *source, const char *modules, const char *config, bool want_modules, int code,
		    const char *const *words)
{
	struct ior_vm_target_config c;
	int rc = parse(&c, source, modules, config, strlen(config), want_modules);
	CU_ASSERT_EQUAL(rc, code);
	for (size_t i = 0; words[i]; i++)
		if (!strstr(ior_error_last(), words[i])) {
			fprintf(stderr, "\n  no '%s' in: %s", words[i], ior_error_last());
			CU_FAIL("the message lacks a word");
		}
	ior_vm_target_config_free(&c);
}

static void test_refusals(void)
{
	/* neither /boot/config-RELEASE nor /proc/config.gz readable there */
	refused("", MODULES, "", true, IOR_ENOTFOUND,
		(const char *[]){ TARGET, "no readable kernel config", "/boot/config-6.1.0-57-cloud-amd64", "/proc/config.gz",
				  NULL });
	refused("/boot/config-6.1.0-57-cloud-amd64", MODULES, "<html><body>not found</body></html>\n", true, IOR_EINVALID,
		(const char *[]){ TARGET ":/boot/config-6.1.0-57-cloud-amd64", "not a kernel config", NULL });
	refused("/boot/config-6.1.0-57-cloud-amd64", MODULES, "CONFIG_64BIT=y\nCONFIG_INITRAMFS_SOURCE=\"$(shell id)\"\n", true,
		IOR_EINVALID,
		(const char *[]){ TARGET ":/boot/config-6.1.0-57-cloud-amd64':2", "CONFIG_INITRAMFS_SOURCE", "$(", NULL });
	/* --localmodconfig on a kernel without loadable modules */
	refused("/boot/config-6.1.0-57-cloud-amd64", NULL, CONFIG, true, IOR_ERROR,
		(const char *[]){ TARGET, "without its modules", NULL });
	struct ior_vm_target_config c;
	size_t len;
	char *out = answer("/boot/config-6.1.0-57-cloud-amd64", NULL, CONFIG, strlen(CONFIG), &len);
	char *none = malloc(len + 32);
	char *cut = strstr(out, "config\n");
	snprintf(none, len + 32, "%.*smodules none\n%s", (int)(cut - out), out, cut);
	CU_ASSERT_EQUAL(ior_vm_target_config_parse(&c, TARGET, none, strlen(none), true, ior_test_tmpdir()), IOR_EUNSUPPORTED);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "--localmodconfig"));
	ior_vm_target_config_free(&c);
	free(none);
	free(out);
}

/* The fetch command run by this machine's own shell, as a target's login shell runs it: what it
 * finds is what this machine has (its config, or the error naming both files; its modules, or none). */
static void test_command_here(void)
{
	char cmd[1024];
	CU_ASSERT_EQUAL_FATAL(ior_vm_target_config_command(cmd, sizeof(cmd), true), IOR_OK);
	const char *path = ior_test_path("here.out");
	CU_ASSERT_EQUAL_FATAL(ior_test_spawn_to((char *[]){ "sh", "-c", cmd, NULL }, NULL, path, NULL), 0);
	size_t n;
	char *out = ior_test_read_file(path, &n);
	CU_ASSERT_PTR_NOT_NULL_FATAL(out);
	struct utsname u;
	uname(&u);
	char boot[300], *want = NULL;
	snprintf(boot, sizeof(boot), "/boot/config-%s", u.release);
	const char *file = access(boot, R_OK) == 0 ? boot : access("/proc/config.gz", R_OK) == 0 ? "/proc/config.gz" : NULL;
	size_t want_len = 0;
	if (file)
		CU_ASSERT_EQUAL(ior_kernel_config_load(&want, &want_len, file), IOR_OK);
	struct ior_vm_target_config c;
	int rc = ior_vm_target_config_parse(&c, "ssh://here", out, n, true, ior_test_tmpdir());
	CU_ASSERT_STRING_EQUAL(c.release, u.release);
	if (!file) {
		CU_ASSERT_EQUAL(rc, IOR_ENOTFOUND);
		CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), boot));
	} else if (access("/proc/modules", R_OK) != 0) {
		CU_ASSERT_EQUAL(rc, IOR_EUNSUPPORTED);
	} else {
		CU_ASSERT_EQUAL(rc, IOR_OK);
		CU_ASSERT_STRING_EQUAL(c.source, file);
		CU_ASSERT_TRUE(c.text && want && !strcmp(c.text, want));
		CU_ASSERT_PTR_NOT_NULL(c.modules);
	}
	fprintf(stderr, "\n  here: %s", rc ? ior_error_last() : c.source);
	ior_vm_target_config_free(&c);
	free(want);
	free(out);
}

static void test_write(void)
{
	struct ior_vm_target_config c;
	CU_ASSERT_EQUAL_FATAL(parse(&c, "/proc/config.gz", MODULES, CONFIG, strlen(CONFIG), true), IOR_OK);
	char config[1400], modules[1400];
	CU_ASSERT_EQUAL(ior_vm_target_config_write(&c, ior_test_tmpdir(), config, sizeof(config), modules, sizeof(modules)),
			IOR_OK);
	CU_ASSERT_PTR_NOT_NULL(strstr(config, "/target-root-box.example-2222.config"));
	char *t = ior_test_read_file(config, NULL), *m = ior_test_read_file(modules, NULL);
	CU_ASSERT_STRING_EQUAL(t ? t : "", CONFIG);
	CU_ASSERT_STRING_EQUAL(m ? m : "", MODULES);
	struct stat st;
	CU_ASSERT(lstat(config, &st) == 0 && S_ISREG(st.st_mode));
	/* the module list is read by localmodconfig, never run: written again over an executable one, it is not */
	chmod(modules, 0755);
	CU_ASSERT_EQUAL(ior_vm_target_config_write(&c, ior_test_tmpdir(), config, sizeof(config), modules, sizeof(modules)),
			IOR_OK);
	CU_ASSERT(stat(modules, &st) == 0 && (st.st_mode & 0111) == 0);
	free(t);
	free(m);
	ior_vm_target_config_free(&c);
}

static void inputs(const struct ior_kbuild_opts *o, char hex[65])
{
	struct ior_kbuild_texts t = { 0 };
	CU_ASSERT_EQUAL_FATAL(ior_kbuild_texts_load(&t, o), IOR_OK);
	CU_ASSERT_EQUAL(ior_kbuild_inputs_hash(hex, o, &t), IOR_OK);
	ior_kbuild_texts_free(&t);
}

/* The cache key's inputs: the same config and modules give the same hash; a guest's build, other
 * modules or another config give another. */
static void test_inputs_hash(void)
{
	const char *config = ior_test_write_file("base.config", CONFIG);
	const char *mods_a = ior_test_write_file("a.modules", MODULES);
	const char *mods_b = ior_test_write_file("b.modules", "virtio_blk 24576 3 - Live 0x0000000000000000\n");
	struct ior_kbuild_opts o = { .tree = ior_test_tmpdir(), .config = config, .deb = true, .lsmod = mods_a };
	char a[65], again[65], b[65], guest[65], whole[65], other[65];
	inputs(&o, a);
	inputs(&o, again);
	CU_ASSERT_STRING_EQUAL(a, again);
	o.lsmod = mods_b;
	inputs(&o, b);
	CU_ASSERT_STRING_NOT_EQUAL(a, b);
	o.lsmod = NULL;
	inputs(&o, whole);
	CU_ASSERT_STRING_NOT_EQUAL(a, whole);
	o.deb = false;
	inputs(&o, guest);
	CU_ASSERT_STRING_NOT_EQUAL(whole, guest);
	o.deb = true;
	o.config = ior_test_write_file("other.config", CONFIG "CONFIG_EXT4_FS=y\n");
	inputs(&o, other);
	CU_ASSERT_STRING_NOT_EQUAL(whole, other);
}

/* The key is the files' bytes, not their names: a target's config and modules are written under its
 * name (port included), so the same machine reached on another forwarded port is the same input. */
static void test_inputs_hash_names(void)
{
	struct ior_kbuild_opts o = { .tree = ior_test_tmpdir(), .deb = true,
				     .config = ior_test_write_file("target-root-127.0.0.1-2222.config", CONFIG),
				     .lsmod = ior_test_write_file("target-root-127.0.0.1-2222.modules", MODULES) };
	const char *frag = ior_test_write_file("a.fragment", "CONFIG_EXT4_FS=y\n");
	o.fragments = &frag;
	o.nfragments = 1;
	char a[65], b[65];
	inputs(&o, a);
	o.config = ior_test_write_file("target-root-127.0.0.1-40111.config", CONFIG);
	o.lsmod = ior_test_write_file("target-root-127.0.0.1-40111.modules", MODULES);
	const char *moved = ior_test_write_file("b.fragment", "CONFIG_EXT4_FS=y\n");
	o.fragments = &moved;
	inputs(&o, b);
	CU_ASSERT_STRING_EQUAL(a, b);
	/* and the bytes still count: one byte more in the config is another input */
	o.config = ior_test_write_file("target-root-127.0.0.1-40111.config", CONFIG "#\n");
	inputs(&o, b);
	CU_ASSERT_STRING_NOT_EQUAL(a, b);
}

static void test_deb_version(void)
{
	struct ior_kbuild b = { 0 };
	snprintf(b.config_hash, sizeof(b.config_hash), "%s", "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef");
	char v[128];
	ior_kbuild_deb_version(v, sizeof(v), &b);
	CU_ASSERT_STRING_EQUAL(v, "1.0123456789ab-1");
	b.dirty = true;
	snprintf(b.local_changes, sizeof(b.local_changes), "%s", "fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210");
	ior_kbuild_deb_version(v, sizeof(v), &b);
	CU_ASSERT_STRING_EQUAL(v, "1.0123456789ab.fedcba987654-1");
}

static void touch(const char *dir, const char *name)
{
	char p[1400];
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	FILE *f = fopen(p, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(name, f);
	fclose(f);
}

static bool exists_in(const char *dir, const char *name)
{
	char p[1400];
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return access(p, F_OK) == 0;
}

/* bindeb-pkg's products beside the object tree: the image package moved into the entry, this
 * release's others removed, another release's package left alone. */
static void test_collect(void)
{
	char out[1200], entry[1200];
	snprintf(out, sizeof(out), "%s/out", ior_test_tmpdir());
	snprintf(entry, sizeof(entry), "%s/entry", ior_test_tmpdir());
	mkdir(out, 0700);
	mkdir(entry, 0700);
	const char *r = "6.1.158-g0123456789ab";
	const char *names[] = { "linux-image-6.1.158-g0123456789ab_1.aa-1_amd64.deb",
				"linux-image-6.1.158-g0123456789ab-dbg_1.aa-1_amd64.deb",
				"linux-headers-6.1.158-g0123456789ab_1.aa-1_amd64.deb", "linux-libc-dev_1.aa-1_amd64.deb",
				"linux-upstream_1.aa-1_amd64.buildinfo", "linux-upstream_1.aa-1_amd64.changes",
				"linux-image-6.1.158-gffffffffffff_1.bb-1_amd64.deb", "build.log" };
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		touch(out, names[i]);
	char name[256];
	CU_ASSERT_EQUAL_FATAL(ior_kbuild_deb_collect(out, r, entry, name, sizeof(name)), IOR_OK);
	CU_ASSERT_STRING_EQUAL(name, names[0]);
	CU_ASSERT(exists_in(entry, names[0]));
	for (size_t i = 0; i < 6; i++)
		CU_ASSERT(!exists_in(out, names[i]));
	CU_ASSERT(exists_in(out, names[6]));
	CU_ASSERT(exists_in(out, names[7]));
	/* a bindeb-pkg that made no image package */
	CU_ASSERT_EQUAL(ior_kbuild_deb_collect(out, r, entry, name, sizeof(name)), IOR_ERROR);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), out));
	CU_ASSERT_STRING_EQUAL(name, "");
}

/* A package built here with dpkg-deb: a name, a version, its files. */
static const char *make_deb(const char *name, const char *package, const char *release)
{
	char root[1200], path[1400], control[600];
	snprintf(root, sizeof(root), "%s/%s.root", ior_test_tmpdir(), name);
	snprintf(path, sizeof(path), "%s/DEBIAN", root);
	ior_vm_mkdir_p(path);
	snprintf(control, sizeof(control),
		 "Package: %s\nVersion: 1.0123456789ab-1\nArchitecture: amd64\nMaintainer: ioregress <t@ioregress>\n"
		 "Description: a test package\n", package);
	snprintf(path, sizeof(path), "%s/DEBIAN/control", root);
	FILE *f = fopen(path, "w");
	fputs(control, f);
	fclose(f);
	if (release) {
		snprintf(path, sizeof(path), "%s/lib/modules/%s/kernel", root, release);
		ior_vm_mkdir_p(path);
		snprintf(path, sizeof(path), "%s/boot", root);
		ior_vm_mkdir_p(path);
		snprintf(path, sizeof(path), "%s/boot/vmlinuz-%s", root, release);
		f = fopen(path, "w");
		fputs("not really a kernel", f);
		fclose(f);
	}
	const char *deb = ior_test_path(name);
	CU_ASSERT_EQUAL(ior_test_spawn((char *[]){ "dpkg-deb", "--root-owner-group", "-b", root, (char *)deb, NULL }, NULL), 0);
	return deb;
}

static void test_resolve_deb(void)
{
	char cache[1200];
	snprintf(cache, sizeof(cache), "%s/cache", ior_test_tmpdir());
	char deb[1400];
	snprintf(deb, sizeof(deb), "%s", make_deb("linux-image-6.1.99-ior_1.0123456789ab-1_amd64.deb",
						   "linux-image-6.1.99-ior", "6.1.99-ior"));
	struct ior_vm_kernel k;
	int rc = ior_vm_kernel_resolve(&k, deb, cache);
	if (rc)
		fprintf(stderr, "\n  %s", ior_error_last());
	CU_ASSERT_EQUAL_FATAL(rc, IOR_OK);
	CU_ASSERT_STRING_EQUAL(k.spec, deb);
	CU_ASSERT_STRING_EQUAL(k.package, "linux-image-6.1.99-ior");
	CU_ASSERT_STRING_EQUAL(k.package_version, "1.0123456789ab-1");
	CU_ASSERT_STRING_EQUAL(k.release, "6.1.99-ior");
	CU_ASSERT_STRING_EQUAL(k.deb, deb);
	CU_ASSERT_EQUAL(access(k.image, R_OK), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(k.image, "/cache/"));
	/* again: the unpacked tree is reused */
	CU_ASSERT_EQUAL(ior_vm_kernel_resolve(&k, deb, cache), IOR_OK);
	/* a package that is no kernel image */
	const char *other = make_deb("hello-ior_1.0_amd64.deb", "hello-ior", NULL);
	CU_ASSERT_EQUAL(ior_vm_kernel_resolve(&k, other, cache), IOR_EINVALID);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "not a kernel image package"));
	snprintf(deb, sizeof(deb), "%s/missing.deb", ior_test_tmpdir());
	CU_ASSERT_EQUAL(ior_vm_kernel_resolve(&k, deb, cache), IOR_ENOTFOUND);
}

static int vm(const char *const *extra, char *err, size_t len)
{
	const char *matrix = ior_test_write_file("m.ini", "[device d]\npath = /dev/vdb\n[engine e]\ntype = hdparm\n");
	char *args[40] = { "--db", (char *)ior_test_path("vm.db"), "vm", "run", "--matrix", (char *)matrix };
	size_t n = 6;
	for (size_t i = 0; extra[i] && n < 38; i++)
		args[n++] = (char *)extra[i];
	args[n] = NULL;
	int status = ior_test_ioregress(args, NULL, 0, err, len);
	fprintf(stderr, "\n  exit %d: %s", status, err);
	return status;
}

/* vm run's refusals: --localmodconfig without a tree, a tree with --target local, a directory that is
 * no kernel tree, a target that cannot be reached for its config: each named, non-zero, nothing stored. */
static void test_vm_run_refusals(void)
{
	char err[8192], build[1200], fake[1200], notkernel[1200], p[1400];
	snprintf(build, sizeof(build), "%s/builds", ior_test_tmpdir());
	snprintf(notkernel, sizeof(notkernel), "%s/notkernel", ior_test_tmpdir());
	mkdir(notkernel, 0700);
	CU_ASSERT_EQUAL(vm((const char *[]){ "--target", "ssh://box.invalid", "--localmodconfig",
					    "linux-image-6.1.0-47-cloud-amd64", NULL }, err, sizeof(err)), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "--localmodconfig"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "--tree"));
	CU_ASSERT_EQUAL(vm((const char *[]){ "--target", "local", "--tree", notkernel, "HEAD", NULL }, err, sizeof(err)), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "--target local"));
	/* --shutdown: a real machine's, and only the ssh kind's force */
	CU_ASSERT_EQUAL(vm((const char *[]){ "--shutdown", "force", "linux-image-6.1.0-47-cloud-amd64", NULL }, err,
			   sizeof(err)), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "--shutdown is for a real machine"));
	CU_ASSERT_EQUAL(vm((const char *[]){ "--target", "local", "--reboot-this-machine", "--shutdown", "force",
					    "linux-image-6.1.0-47-cloud-amd64", NULL }, err, sizeof(err)), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "--shutdown force is for an ssh target"));
	CU_ASSERT_EQUAL(vm((const char *[]){ "--target", "ssh://box.invalid", "--shutdown", "fast",
					    "linux-image-6.1.0-47-cloud-amd64", NULL }, err, sizeof(err)), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "--shutdown"));
	CU_ASSERT_EQUAL(vm((const char *[]){ "--localmodconfig", "--tree", notkernel, "HEAD", NULL }, err, sizeof(err)), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "real machine"));
	CU_ASSERT_EQUAL(vm((const char *[]){ "--target", "ssh://127.0.0.1:1", "--tree", notkernel, "--build-dir", build, "HEAD",
					    NULL }, err, sizeof(err)), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "is no kernel tree"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, notkernel));
	/* a tree with a kernel's top, on a port nobody listens on: the config cannot be read, no build starts */
	snprintf(fake, sizeof(fake), "%s/linux", ior_test_tmpdir());
	const char *parts[] = { "scripts/kconfig", "scripts/package" };
	for (size_t i = 0; i < 2; i++) {
		snprintf(p, sizeof(p), "%s/%s", fake, parts[i]);
		ior_vm_mkdir_p(p);
	}
	touch(fake, "Makefile");
	touch(fake, "Kconfig");
	CU_ASSERT_EQUAL(vm((const char *[]){ "--target", "ssh://127.0.0.1:1", "--ssh-option", "ConnectTimeout=5", "--tree",
					    fake, "--build-dir", build, "--localmodconfig", "HEAD", NULL }, err, sizeof(err)), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "cannot reach 'ssh://127.0.0.1:1' to read its kernel config"));
	CU_ASSERT_EQUAL(ior_test_count_glob(ior_test_path("builds/target-*")), 0);
	CU_ASSERT_EQUAL(ior_test_query(ior_test_path("vm.db"), "SELECT count(*) FROM target_installs"), 0);
	CU_ASSERT_EQUAL(ior_test_query(ior_test_path("vm.db"), "SELECT count(*) FROM vm_boots"), 0);
}

/* A package name whose .deb is in the cache already (the test-bed's download, when this machine has
 * it): resolved without apt, its package name kept for the install on a target, unpacked once. */
static void test_resolve_package_cached(void)
{
	const char *archive = "/var/tmp/ioregress-machine/apt-archives";
	const char *name = "linux-image-6.1.0-47-cloud-amd64";
	char pattern[300];
	snprintf(pattern, sizeof(pattern), "%s/%s_*.deb", archive, name);
	if (ior_test_count_glob(pattern) != 1) {
		ior_test_not_run("no %s in %s (the test-bed's downloads)", name, archive);
		return;
	}
	char cache[1200], cmd[1600];
	snprintf(cache, sizeof(cache), "%s/pkg-cache", ior_test_tmpdir());
	mkdir(cache, 0700);
	snprintf(cmd, sizeof(cmd), "cp %s %s/", pattern, cache);
	CU_ASSERT_EQUAL_FATAL(ior_test_spawn((char *[]){ "sh", "-c", cmd, NULL }, NULL), 0);
	struct ior_vm_kernel k;
	int rc = ior_vm_kernel_resolve(&k, name, cache);
	if (rc)
		fprintf(stderr, "\n  %s", ior_error_last());
	CU_ASSERT_EQUAL_FATAL(rc, IOR_OK);
	CU_ASSERT_STRING_EQUAL(k.package, name);
	CU_ASSERT_STRING_EQUAL(k.spec, name);
	CU_ASSERT_STRING_EQUAL(k.release, "6.1.0-47-cloud-amd64");
	CU_ASSERT_EQUAL(access(k.image, R_OK), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(k.deb, "/pkg-cache/linux-image-6.1.0-47-cloud-amd64_"));
	snprintf(pattern, sizeof(pattern), "%s/%s/lib/modules/6.1.0-47-cloud-amd64/modules.dep", cache, name);
	CU_ASSERT_EQUAL(ior_test_count_glob(pattern), 1);
}

/* A stand-in kernel tree whose Makefile does what kbuild's does for vm run's deb build, in a git
 * repository: olddefconfig, and bindeb-pkg writing the release, a bzImage and the packages beside
 * the object tree (or failing as a missing build dependency does when the file 'fail' is there). */
static const char *fake_tree(void)
{
	static char tree[1200];
	char p[1400];
	snprintf(tree, sizeof(tree), "%s/fake-linux", ior_test_tmpdir());
	const char *dirs[] = { "scripts/kconfig", "scripts/package" };
	for (size_t i = 0; i < 2; i++) {
		snprintf(p, sizeof(p), "%s/%s", tree, dirs[i]);
		ior_vm_mkdir_p(p);
	}
	snprintf(p, sizeof(p), "%s/Makefile", tree);
	FILE *f = fopen(p, "w");
	fputs("olddefconfig:\n\t@true\n"
	      "bindeb-pkg:\n"
	      "\t@if [ -f $(CURDIR)/fail ]; then echo 'dpkg-checkbuilddeps: error: Unmet build dependencies: rsync'; exit 2; fi\n"
	      "\t@mkdir -p $(O)/include/config $(O)/arch/x86/boot\n"
	      "\t@echo 6.1.99$(LOCALVERSION) > $(O)/include/config/kernel.release\n"
	      "\t@echo image > $(O)/arch/x86/boot/bzImage\n"
	      "\t@echo $(KDEB_PKGVERSION) > $(O)/../linux-image-6.1.99$(LOCALVERSION)_$(KDEB_PKGVERSION)_amd64.deb\n"
	      "\t@touch $(O)/../linux-headers-6.1.99$(LOCALVERSION)_$(KDEB_PKGVERSION)_amd64.deb\n", f);
	fclose(f);
	snprintf(p, sizeof(p), "%s/scripts/kconfig/merge_config.sh", tree);
	f = fopen(p, "w");
	fputs("#!/bin/sh\nexit 0\n", f);
	fclose(f);
	chmod(p, 0755);
	touch(tree, "Kconfig");
	char *git[][12] = { { "git", "-C", tree, "init", "-q", NULL },
			    { "git", "-C", tree, "add", "-A", NULL },
			    { "git", "-C", tree, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "fake", NULL } };
	for (size_t i = 0; i < 3; i++)
		CU_ASSERT_EQUAL(ior_test_spawn(git[i], NULL), 0);
	return tree;
}

/* vm run --target ssh:// --tree with --config: built as a package (make bindeb-pkg with the config's
 * hash as its version), the image package kept in the cache entry and the headers removed; then the
 * target (nobody listening) stops the run before any boot. A bindeb-pkg that fails stops it too,
 * with make's error line, exit 1 and nothing stored. */
static void test_deb_build(void)
{
	const char *tree = fake_tree();
	const char *config = ior_test_write_file("fake.config", CONFIG);
	char build[1200], err[8192], pattern[1400];
	snprintf(build, sizeof(build), "%s/deb-builds", ior_test_tmpdir());
	const char *args[] = { "--target", "ssh://127.0.0.1:1", "--ssh-option", "ConnectTimeout=5", "--tree", tree,
			       "--config", config, "--build-dir", build, "HEAD", NULL };
	CU_ASSERT_EQUAL(vm(args, err, sizeof(err)), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "127.0.0.1"));
	snprintf(pattern, sizeof(pattern), "%s/images/*/linux-image-6.1.99-g*_1.*-1_amd64.deb", build);
	CU_ASSERT_EQUAL(ior_test_count_glob(pattern), 1);
	snprintf(pattern, sizeof(pattern), "%s/images/*/build.info", build);
	char info[4096];
	ior_test_read_glob(pattern, info, sizeof(info));
	CU_ASSERT_PTR_NOT_NULL(strstr(info, "build.info"));
	snprintf(pattern, sizeof(pattern), "%s/*.deb", build);
	CU_ASSERT_EQUAL(ior_test_count_glob(pattern), 0);
	/* the version is the config's hash: the package names what was built */
	char sum[1500];
	snprintf(pattern, sizeof(pattern), "%s/build/.config", build);
	ior_test_spawn_to((char *[]){ "sha256sum", pattern, NULL }, NULL, ior_test_path("sum"), NULL);
	char *t = ior_test_read_file(ior_test_path("sum"), NULL);
	snprintf(sum, sizeof(sum), "%s/images/*/linux-image-6.1.99-g*_1.%.12s-1_amd64.deb", build, t ? t : "");
	free(t);
	snprintf(pattern, sizeof(pattern), "%s", sum);
	if (ior_test_count_glob(pattern) != 1) {
		snprintf(pattern, sizeof(pattern), "%s/images/*/*.deb", build);
		ior_test_read_glob(pattern, info, sizeof(info));
		fprintf(stderr, "\n  no %s in: %s", sum, info);
		CU_FAIL("the package's version is not the config's hash");
	}
	/* a failing bindeb-pkg: its error line, exit 1, no boot stored */
	touch(tree, "fail");
	CU_ASSERT_EQUAL(ior_test_spawn((char *[]){ "git", "-C", (char *)tree, "add", "fail", NULL }, NULL), 0);
	CU_ASSERT_EQUAL(ior_test_spawn((char *[]){ "git", "-C", (char *)tree, "-c", "user.name=t", "-c", "user.email=t@t",
						   "commit", "-qm", "fail", NULL }, NULL), 0);
	CU_ASSERT_EQUAL(vm(args, err, sizeof(err)), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "Unmet build dependencies"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "revision 'HEAD'"));
	CU_ASSERT_EQUAL(ior_test_query(ior_test_path("vm.db"), "SELECT count(*) FROM vm_boots"), 0);
	CU_ASSERT_EQUAL(ior_test_query(ior_test_path("vm.db"), "SELECT count(*) FROM target_installs"), 0);
}

int main(void)
{
	static const struct ior_test tests[] = {
		IOR_TEST(test_parse_text),
		IOR_TEST(test_parse_gz),
		IOR_TEST(test_refusals),
		IOR_TEST(test_command_here),
		IOR_TEST(test_write),
		IOR_TEST(test_inputs_hash),
		IOR_TEST(test_inputs_hash_names),
		IOR_TEST(test_deb_version),
		IOR_TEST(test_collect),
		IOR_TEST(test_resolve_deb),
		IOR_TEST(test_resolve_package_cached),
		IOR_TEST(test_vm_run_refusals),
		IOR_TEST(test_deb_build),
		IOR_TEST_END,
	};
	return ior_test_run("vm_target_config", tests);
}
