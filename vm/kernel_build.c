/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `kernel build`'s work: the config (base, guest options, fragments, olddefconfig), the cache
 * lookup by commit and config hash, make O= and modules_install into a staging tree. */
#include "vm/kernel_build.h"

#include "common/error.h"
#include "common/trust.h"
#include "common/spawn.h"
#include "kernel/info.h"
#include "vm/internal.h"
#include "vm/kernel_build_progress.h"
#include "vm/kernel_build_skip.h"

#include <errno.h>
#include <fcntl.h>
#include <git2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

const char ior_kbuild_guest_fragment[] =
	"CONFIG_64BIT=y\n"
	"CONFIG_KERNEL_LZ4=y\n" /* the fastest to pack and to unpack: tinyconfig's XZ is slow to unpack under TCG */
	"CONFIG_PRINTK=y\n"
	"CONFIG_BUG=y\n"
	"CONFIG_TTY=y\n"
	"CONFIG_SERIAL_8250=y\n"
	"CONFIG_SERIAL_8250_CONSOLE=y\n"
	"CONFIG_BLK_DEV_INITRD=y\n"
	"CONFIG_BINFMT_ELF=y\n"
	"CONFIG_BINFMT_SCRIPT=y\n"
	"CONFIG_DEVTMPFS=y\n"
	"CONFIG_PROC_FS=y\n"
	"CONFIG_SYSFS=y\n"
	"CONFIG_TMPFS=y\n"
	"CONFIG_SHMEM=y\n"
	"CONFIG_MULTIUSER=y\n"
	"CONFIG_FUTEX=y\n"
	"CONFIG_EPOLL=y\n"
	"CONFIG_SIGNALFD=y\n"
	"CONFIG_TIMERFD=y\n"
	"CONFIG_EVENTFD=y\n"
	"CONFIG_AIO=y\n"
	"CONFIG_IO_URING=y\n"
	"CONFIG_FILE_LOCKING=y\n"
	"CONFIG_POSIX_TIMERS=y\n"
	"CONFIG_ADVISE_SYSCALLS=y\n"
	"CONFIG_FHANDLE=y\n"
	"CONFIG_MODULES=y\n"
	"CONFIG_MODULE_UNLOAD=y\n"
	"CONFIG_ACPI=y\n" /* the init's poweroff ends qemu only through ACPI */
	"CONFIG_PCI=y\n"
	"CONFIG_VIRTIO_MENU=y\n"
	"CONFIG_VIRTIO=y\n"
	"CONFIG_VIRTIO_PCI=y\n"
	"CONFIG_VIRTIO_BLK=y\n"
	"CONFIG_BLOCK=y\n"
	"CONFIG_BLK_DEV=y\n"
	"CONFIG_BLK_DEV_LOOP=y\n"
	"CONFIG_MQ_IOSCHED_DEADLINE=y\n"
	"CONFIG_MQ_IOSCHED_KYBER=m\n"
	"CONFIG_IOSCHED_BFQ=m\n"
	"CONFIG_PANIC_ON_OOPS=y\n";

/* What a guest cannot boot or be measured without: checked after olddefconfig, which drops
 * an option whose dependencies the tree or a fragment left out. */
static const char *const required[] = {
	"CONFIG_VIRTIO_BLK", "CONFIG_VIRTIO_PCI", "CONFIG_DEVTMPFS", "CONFIG_SERIAL_8250_CONSOLE",
	"CONFIG_BLK_DEV_INITRD", "CONFIG_BINFMT_SCRIPT", "CONFIG_PROC_FS", "CONFIG_SYSFS",
};

/* Fixed so that two commits compiling to the same code give byte-identical images. */
static const char *const reproducible[] = {
	"KBUILD_BUILD_TIMESTAMP=Thu Jan  1 00:00:00 UTC 1970", "KBUILD_BUILD_USER=ioregress",
	"KBUILD_BUILD_HOST=ioregress", "KBUILD_BUILD_VERSION=1",
};

void ior_kbuild_default_root(char *out, size_t len)
{
	char dir[PATH_MAX];
	ior_vm_default_cache(dir, sizeof(dir));
	char *k = strrchr(dir, '/'); /* …/ioregress/kernels -> …/ioregress/builds */
	if (k)
		*k = '\0';
	/* neither XDG_CACHE_HOME nor HOME: no default, never a shared or root directory */
	snprintf(out, len, "%s%s", dir, *dir ? "/builds" : "");
}

void ior_kbuild_default_out(char *out, size_t len, const char *tree)
{
	char dir[PATH_MAX], hash[65] = "";
	ior_kbuild_default_root(dir, sizeof(dir));
	if (!*dir) {
		*out = '\0';
		return;
	}
	const char *base = strrchr(tree, '/');
	ior_kernel_config_sha256(hash, tree, strlen(tree));
	snprintf(out, len, "%s/%s-%.8s", dir, base && base[1] ? base + 1 : tree, hash);
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static bool is_file(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static int write_text(const char *path, const char *text)
{
	return ior_kbuild_write_private(path, text, strlen(text));
}

static int hash_file(const char *path, char hex[65])
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return ior_error_errno(IOR_ERROR, errno, "cannot read '%s'", path);
	size_t cap = 1 << 20, n = 0;
	char *buf = malloc(cap);
	for (size_t got; buf && (got = fread(buf + n, 1, cap - n, f)) > 0;) {
		n += got;
		char *g = n == cap ? realloc(buf, cap *= 2) : buf;
		if (!g)
			free(buf);
		buf = g;
	}
	fclose(f);
	int rc = buf ? ior_kernel_config_sha256(hex, buf, n) : ior_error_set(IOR_ERROR, "out of memory");
	free(buf);
	return rc;
}

/* The first lines of make's log that say what failed: compiler errors first, make's own last. */
static void first_errors(const char *log, char *out, size_t len)
{
	static const char *const marks[] = { "error:", "Error:", "undefined reference", "*** " };
	FILE *f = fopen(log, "r");
	char line[1024];
	size_t used = 0, n = 0;
	out[0] = '\0';
	for (size_t m = 0; f && m < sizeof(marks) / sizeof(marks[0]) && n < 5; m++) {
		rewind(f);
		while (n < 5 && fgets(line, sizeof(line), f))
			if (strstr(line, marks[m]) && !strstr(out, line) && used + strlen(line) + 3 < len) {
				used += (size_t)snprintf(out + used, len - used, "\n  %s", line);
				out[--used] = '\0'; /* the line's own newline */
				n++;
			}
	}
	if (f)
		fclose(f);
}

struct make_ctx {
	const struct ior_kbuild_opts *o;
	const struct ior_kbuild_texts *texts;
	char tree[PATH_MAX], build[PATH_MAX + 8], log[PATH_MAX + 16];
	char jobs[16], obj[PATH_MAX + 16], cc[32];
	char localversion[64];   /* LOCALVERSION=, set even when empty: else a commit past a tag gets a "+" */
	char copies[64][PATH_MAX + 32]; /* OUT/fragment-N.config: the fragments as they were checked */
	char out[PATH_MAX];             /* the build directory: its stamps and its objects count */
};

/* argv with its output appended to the log (through sh, whose script is fixed: the arguments
 * reach the command as they are), in a process group of its own that ends when we do, even by
 * SIGKILL: no make is left building in O= after us. 0 when it ran, whatever its status. */
static int run_logged(struct make_ctx *c, const char *const *argv, struct ior_spawn *r)
{
	const char *full[96] = { "sh", "-c", "exec \"$@\" >>\"$0\" 2>&1", c->log };
	size_t n = 4;
	for (size_t i = 0; argv[i] && n < 95; i++)
		full[n++] = argv[i];
	full[n] = NULL;
	*r = (struct ior_spawn){ .argv = full, .flags = IOR_SPAWN_GROUP };
	int rc = ior_spawn_run(r);
	r->argv = NULL;
	return rc;
}

/* make in the tree with O= the build directory. */
static int make(struct make_ctx *c, const char *what, const char *const *targets)
{
	const char *argv[48];
	size_t n = 0;
	char nice_n[16];
	if (c->o->nice) {
		snprintf(nice_n, sizeof(nice_n), "%d", c->o->nice);
		argv[n++] = "nice";
		argv[n++] = "-n";
		argv[n++] = nice_n;
	}
	argv[n++] = "make";
	argv[n++] = "-C";
	argv[n++] = c->tree;
	argv[n++] = c->obj;
	argv[n++] = c->jobs;
	if (c->cc[0])
		argv[n++] = c->cc;
	argv[n++] = c->localversion;
	for (size_t i = 0; i < sizeof(reproducible) / sizeof(reproducible[0]); i++)
		argv[n++] = reproducible[i];
	for (size_t i = 0; targets[i] && n < 46; i++)
		argv[n++] = targets[i];
	argv[n] = NULL;
	struct ior_spawn r;
	struct ior_kbuild_progress *p = NULL;
	if (c->o->progress && !strcmp(what, "build") && ior_kbuild_progress_start(&p, what, c->log, c->out, c->build) != IOR_OK)
		ior_error_clear(); /* no progress line is no reason not to build */
	int rc = run_logged(c, argv, &r);
	ior_kbuild_progress_stop(p, rc == IOR_OK && WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0);
	if (rc == IOR_OK && !(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0)) {
		char errs[2048];
		first_errors(c->log, errs, sizeof(errs));
		rc = ior_error_set(IOR_ERROR, "kernel %s failed in '%s' (log '%s')%s", what, c->tree, c->log,
				   errs[0] ? errs : ": no error line in the log");
	}
	ior_spawn_free(&r);
	return rc;
}

/* The base config, the guest's options, the fragments, olddefconfig; then the check that the
 * guest's options survived. */
static int configure(struct make_ctx *c, const char *out)
{
	const struct ior_kbuild_opts *o = c->o;
	char dotconfig[PATH_MAX + 16], guest[PATH_MAX + 16], merge[PATH_MAX + 40];
	snprintf(dotconfig, sizeof(dotconfig), "%s/.config", c->build);
	snprintf(guest, sizeof(guest), "%s/guest.config", out);
	snprintf(merge, sizeof(merge), "%s/scripts/kconfig/merge_config.sh", c->tree);
	int rc = IOR_OK;
	/* what was checked is what is built: the texts read then, never the files again */
	if (o->config)
		rc = ior_kbuild_write_private(dotconfig, c->texts->config, c->texts->config_len);
	else
		rc = make(c, "config", (const char *const[]){ o->defconfig ? o->defconfig : "tinyconfig", NULL });
	/* the target's modules: trimmed before the fragments, so they (and ours) still win */
	char lsmod[PATH_MAX + 8];
	snprintf(lsmod, sizeof(lsmod), "LSMOD=%s", o->lsmod ? o->lsmod : "");
	if (!rc && o->deb && o->lsmod)
		rc = make(c, "olddefconfig", (const char *const[]){ "olddefconfig", NULL });
	if (!rc && o->deb && o->lsmod)
		rc = make(c, "localmodconfig", (const char *const[]){ "localmodconfig", lsmod, NULL });
	if (!rc)
		rc = write_text(guest, o->deb ? ior_kbuild_deb_fragment : ior_kbuild_guest_fragment);
	if (!rc && o->nfragments > 64)
		rc = ior_error_set(IOR_EINVALID, "at most 64 --fragment files");
	const char *argv[80] = { merge, "-m", "-O", c->build, dotconfig, guest };
	size_t n = 6;
	for (size_t i = 0; !rc && i < o->nfragments; i++) {
		snprintf(c->copies[i], sizeof(c->copies[i]), "%s/fragment-%zu.config", out, i + 1);
		rc = ior_kbuild_write_private(c->copies[i], c->texts->fragments[i], c->texts->fragment_lens[i]);
		argv[n++] = c->copies[i];
	}
	struct ior_spawn r = { 0 };
	if (!rc && (rc = run_logged(c, argv, &r)) == IOR_OK && !(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0))
		rc = ior_error_set(IOR_ERROR, "merge_config.sh failed in '%s' (log '%s')", c->tree, c->log);
	ior_spawn_free(&r);
	if (!rc)
		rc = make(c, "olddefconfig", (const char *const[]){ "olddefconfig", NULL });
	char *text = NULL;
	size_t len = 0;
	if (!rc)
		rc = ior_kernel_config_load(&text, &len, dotconfig);
	/* a real machine boots with its own config: only a guest's needs are checked */
	for (size_t i = 0; !rc && !o->deb && i < sizeof(required) / sizeof(required[0]); i++)
		if (ior_kernel_config_value(text, required[i]) != 'y')
			rc = ior_error_set(IOR_EINVALID, "the config of '%s' has no %s=y after olddefconfig: a guest cannot "
					   "boot without it (a --fragment or --config turned it off, or the tree lacks it)",
					   c->tree, required[i]);
	/* the guest's LZ4 (fastest to unpack under TCG) is packed by the host's lz4 */
	if (!rc && ior_kernel_config_value(text, "CONFIG_KERNEL_LZ4") == 'y' && !ior_spawn_in_path("lz4"))
		rc = ior_error_set(IOR_EINVALID, "the config of '%s' packs the kernel with LZ4 and there is no lz4 "
				   "program (Debian: apt-get install lz4; or a --fragment with CONFIG_KERNEL_GZIP=y)", c->tree);
	free(text);
	return rc;
}

/* Tracked files that differ from HEAD: such a tree's build describes no commit. Their diff (binary
 * files in full) is hashed into changes: two trees with other changes get other entries. */
static bool tree_dirty(const char *tree, char changes[65])
{
	git_repository *repo = NULL;
	git_status_list *list = NULL;
	git_object *head = NULL;
	git_diff *diff = NULL;
	git_buf patch = { 0 };
	git_status_options so;
	git_status_options_init(&so, GIT_STATUS_OPTIONS_VERSION);
	so.flags = GIT_STATUS_OPT_EXCLUDE_SUBMODULES;
	so.show = GIT_STATUS_SHOW_INDEX_AND_WORKDIR;
	git_diff_options dopt;
	git_diff_options_init(&dopt, GIT_DIFF_OPTIONS_VERSION);
	dopt.flags = GIT_DIFF_SHOW_BINARY;
	bool dirty = true;
	snprintf(changes, 65, "%s", "unknown");
	git_libgit2_init();
	if (git_repository_open(&repo, tree) == 0 && git_status_list_new(&list, repo, &so) == 0)
		dirty = git_status_list_entrycount(list) > 0;
	if (dirty && repo && git_revparse_single(&head, repo, "HEAD^{tree}") == 0 &&
	    git_diff_tree_to_workdir_with_index(&diff, repo, (git_tree *)head, &dopt) == 0 &&
	    git_diff_to_buf(&patch, diff, GIT_DIFF_FORMAT_PATCH) == 0 &&
	    ior_kernel_config_sha256(changes, patch.ptr ? patch.ptr : "", patch.size) != IOR_OK)
		ior_error_clear();
	git_buf_dispose(&patch);
	git_diff_free(diff);
	git_object_free(head);
	git_status_list_free(list);
	git_repository_free(repo);
	git_libgit2_shutdown();
	return dirty;
}

/* The cache entry: images/SHA12-CONFIG12 (-g when the release names the commit); for a tree with
 * local changes images/worktree-SHA12-CHANGES12-CONFIG12 (the changes' diff hash: each revision
 * built with them keeps its own image); images/worktree-CONFIG12 for a tree with no commit. */
static void entry_dir(char *out, size_t len, const char *dir, const struct ior_kbuild *b, bool localversion)
{
	if (b->commit.sha[0] && !b->dirty)
		snprintf(out, len, "%s/images/%.12s-%.12s%s", dir, b->commit.sha, b->config_hash, localversion ? "-g" : "");
	else if (b->commit.sha[0])
		snprintf(out, len, "%s/images/worktree-%.12s-%.12s-%.12s", dir, b->commit.sha, b->local_changes,
			 b->config_hash);
	else
		snprintf(out, len, "%s/images/worktree-%.12s", dir, b->config_hash);
}

/* A cache entry is used only while its bzImage is still what was built (its recorded sha256). */
static bool image_intact(const struct ior_kbuild *b)
{
	char now[65];
	if (!is_file(b->image) || hash_file(b->image, now) != IOR_OK) {
		ior_error_clear();
		return false;
	}
	if (strcmp(now, b->image_hash) == 0)
		return true;
	fprintf(stderr, "kernel build: warning: '%s' is not the image built (sha256 %.12s, recorded %.12s): built "
		"again\n", b->image, now, b->image_hash);
	return false;
}

/* The modules of the entry installed last (out/modules.stamp names it) when this build's modules
 * are the same files: hard links to its installed tree instead of make modules_install (a make over
 * the whole tree and depmod, on every commit whatever changed). Entries are never changed once in
 * place, so sharing their files is safe. false when they differ or that entry is gone. */
static bool link_same_modules(struct make_ctx *c, const struct ior_kbuild *b, const char *stage, const char *modules)
{
	char path[PATH_MAX + 40], was[65], entry[256], from[PATH_MAX + 300], lib[PATH_MAX + 300], to[PATH_MAX + 40];
	snprintf(path, sizeof(path), "%s/modules.stamp", c->out);
	if (ior_kbuild_stamp_read(path, was, entry, sizeof(entry)) != IOR_OK || strcmp(was, modules) || !entry[0] ||
	    strchr(entry, '/'))
		return false;
	snprintf(from, sizeof(from), "%s/images/%s/lib/modules/%s", c->out, entry, b->release);
	snprintf(lib, sizeof(lib), "%s/images/%s/lib", c->out, entry);
	snprintf(to, sizeof(to), "%s/lib", stage);
	struct stat st;
	if (stat(from, &st) != 0 || !S_ISDIR(st.st_mode))
		return false;
	if (ior_spawn_tool((const char *const[]){ "cp", "-al", lib, to, NULL }, NULL, "linking the modules") != IOR_OK) {
		ior_error_clear();
		ior_spawn_tool((const char *const[]){ "rm", "-rf", to, NULL }, NULL, "rm");
		ior_error_clear();
		return false;
	}
	if (c->o->progress)
		fprintf(stderr, "kernel build: modules unchanged since '%s': linked, not installed again\n", entry);
	return true;
}

/* bzImage, the config and the modules into a staging directory renamed into place last, so an
 * interrupted build never leaves an entry that looks complete. */
static int install(struct make_ctx *c, struct ior_kbuild *b, const char *entry)
{
	char stage[PATH_MAX + 16], mod_path[PATH_MAX + 40], src[PATH_MAX + 40], dst[PATH_MAX + 40], modules[65] = "";
	snprintf(stage, sizeof(stage), "%s.new", entry);
	ior_spawn_tool((const char *const[]){ "rm", "-rf", stage, NULL }, NULL, "rm");
	int rc = ior_vm_mkdir_p(stage);
	snprintf(mod_path, sizeof(mod_path), "INSTALL_MOD_PATH=%s", stage);
	if (!rc && !c->o->deb && ior_kbuild_modules_stamp(modules, c->build, b->release) != IOR_OK) {
		ior_error_clear();
		modules[0] = '\0'; /* no module list: installed as make does it */
	}
	if (!rc && c->o->deb) /* the package holds the modules: the entry keeps it, not a tree */
		rc = ior_kbuild_deb_collect(c->out, b->release, stage, b->deb_name, sizeof(b->deb_name));
	else if (!rc && !(modules[0] && link_same_modules(c, b, stage, modules)))
		rc = make(c, "modules_install", (const char *const[]){ "modules_install", mod_path, "INSTALL_MOD_STRIP=1", NULL });
	snprintf(src, sizeof(src), "%s/arch/x86/boot/bzImage", c->build);
	snprintf(dst, sizeof(dst), "%s/bzImage", stage);
	if (!rc)
		rc = ior_spawn_tool((const char *const[]){ "cp", src, dst, NULL }, NULL, "copying bzImage");
	snprintf(src, sizeof(src), "%s/.config", c->build);
	snprintf(dst, sizeof(dst), "%s/config", stage);
	if (!rc)
		rc = ior_spawn_tool((const char *const[]){ "cp", src, dst, NULL }, NULL, "copying .config");
	char *config = NULL;
	size_t config_len;
	if (!rc && (rc = ior_kernel_config_load(&config, &config_len, src)) == IOR_OK) /* Kconfig wrote what built it */
		ior_kernel_config_string(b->compiler, sizeof(b->compiler), config, "CONFIG_CC_VERSION_TEXT");
	free(config);
	snprintf(dst, sizeof(dst), "%s/bzImage", stage);
	if (!rc)
		rc = hash_file(dst, b->image_hash);
	if (!rc)
		rc = ior_kbuild_record_write(b, stage);
	/* the entry it replaces (an image no longer intact) goes only now: its modules may be linked above */
	if (!rc)
		ior_spawn_tool((const char *const[]){ "rm", "-rf", entry, NULL }, NULL, "rm");
	if (!rc && rename(stage, entry) != 0)
		rc = ior_error_errno(IOR_ERROR, errno, "cannot rename '%s' to '%s'", stage, entry);
	if (!rc && modules[0]) {
		snprintf(src, sizeof(src), "%s/modules.stamp", c->out);
		if (ior_kbuild_stamp_write(src, modules, strrchr(entry, '/') + 1) != IOR_OK)
			ior_error_clear(); /* the next build installs its modules again: nothing worse */
	}
	return rc;
}

static int read_release(struct make_ctx *c, struct ior_kbuild *b)
{
	char path[PATH_MAX + 40];
	snprintf(path, sizeof(path), "%s/include/config/kernel.release", c->build);
	FILE *f = fopen(path, "r");
	if (!f || !fgets(b->release, sizeof(b->release), f)) {
		if (f)
			fclose(f);
		return ior_error_set(IOR_ERROR, "the build left no kernel release in '%s'", path);
	}
	fclose(f);
	b->release[strcspn(b->release, "\n")] = '\0';
	return IOR_OK;
}

/* The cache entry a clean commit was built into from the same inputs (index names it), found
 * without configuring: a reused build costs no make at all. */
static bool reuse_indexed(struct ior_kbuild *b, const char *out, const char *index)
{
	char name[256] = "", entry[PATH_MAX + 300], sha[sizeof(b->commit.sha)];
	FILE *f = fopen(index, "r");
	if (!f)
		return false;
	bool got = fgets(name, sizeof(name), f) != NULL;
	fclose(f);
	name[strcspn(name, "\n")] = '\0';
	if (!got || !name[0] || strchr(name, '/'))
		return false;
	snprintf(sha, sizeof(sha), "%s", b->commit.sha);
	snprintf(entry, sizeof(entry), "%s/images/%s", out, name);
	struct ior_kbuild found = *b;
	if (ior_kbuild_record_read(&found, entry) != IOR_OK || strcmp(found.commit.sha, sha) || !image_intact(&found)) {
		ior_error_clear();
		return false;
	}
	*b = found;
	return true;
}

/* The build directory's .config is what configure would make again: the stamp written after the
 * last build that configured it matches (its inputs, the Kconfig files, the base configs and the
 * kconfig tools), and the .config is still the one that build made. */
static bool config_unchanged(struct make_ctx *c, const char *inputs)
{
	char path[PATH_MAX + 40], was[65], was_config[80], now[65], config[65];
	snprintf(path, sizeof(path), "%s/config.stamp", c->out);
	if (!inputs[0] || ior_kbuild_stamp_read(path, was, was_config, sizeof(was_config)) != IOR_OK)
		return false;
	snprintf(path, sizeof(path), "%s/.config", c->build);
	bool same = ior_kbuild_config_stamp(now, inputs, c->tree, c->build) == IOR_OK && !strcmp(now, was) &&
		    hash_file(path, config) == IOR_OK && !strcmp(config, was_config);
	ior_error_clear();
	return same;
}

/* After a build: the stamp config_unchanged compares with (Kconfig's file list is the one this
 * build's make wrote). A stamp that cannot be written only costs the next build its configure. */
static void config_stamp_write(struct make_ctx *c, const char *inputs, const char *config_hash)
{
	char path[PATH_MAX + 40], now[65];
	snprintf(path, sizeof(path), "%s/config.stamp", c->out);
	unlink(path);
	if (inputs[0] && ior_kbuild_config_stamp(now, inputs, c->tree, c->build) == IOR_OK)
		ior_kbuild_stamp_write(path, now, config_hash);
	ior_error_clear();
}

static int build_locked(struct ior_kbuild *b, struct make_ctx *c, const char *out)
{
	const struct ior_kbuild_opts *o = c->o;
	char entry[PATH_MAX + 40], inputs[65] = "", index[PATH_MAX + 64] = "";
	if (ior_kbuild_inputs_hash(inputs, o, c->texts) != IOR_OK)
		inputs[0] = '\0'; /* nothing skipped, nothing found by the index */
	if (b->commit.sha[0] && !b->dirty && inputs[0]) {
		snprintf(index, sizeof(index), "%s/images/%.12s-inputs-%.16s", out, b->commit.sha, inputs);
		if (reuse_indexed(b, out, index)) {
			b->reused = true;
			return IOR_OK;
		}
	}
	ior_error_clear();
	/* the log of this make run only; a reuse found by the index above leaves the last build's log */
	int rc = write_text(c->log, "");
	if (!rc && !config_unchanged(c, inputs))
		rc = configure(c, out);
	else if (!rc && o->progress)
		fprintf(stderr, "kernel build: config inputs unchanged (no Kconfig file, base config or fragment changed): "
			"not configured again\n");
	char dotconfig[PATH_MAX + 16];
	snprintf(dotconfig, sizeof(dotconfig), "%s/.config", c->build);
	if (!rc)
		rc = hash_file(dotconfig, b->config_hash);
	if (rc)
		return rc;
	entry_dir(entry, sizeof(entry), out, b, o->localversion);
	struct ior_kbuild found = *b;
	if (b->commit.sha[0] && !b->dirty && ior_kbuild_record_read(&found, entry) == IOR_OK && image_intact(&found) &&
	    (!o->deb || found.deb[0])) {
		*b = found;
		b->reused = true;
	} else {
		ior_error_clear();
		if (o->progress)
			fprintf(stderr, "kernel build: %s at %.12s, config %.12s: make -j%s%s (log '%s')\n", c->tree,
				b->commit.sha[0] ? b->commit.sha : "(no commit)", b->config_hash, c->jobs + 2,
				c->cc[0] ? " with ccache" : "", c->log);
		char version[128];
		ior_kbuild_deb_version(version + 16, sizeof(version) - 16, b);
		memcpy(version, "KDEB_PKGVERSION=", 16);
		rc = make(c, "build", o->deb ? (const char *const[]){ "bindeb-pkg", version, NULL }
					     : (const char *const[]){ "bzImage", "modules", NULL });
		if (!rc)
			rc = read_release(c, b);
		if (!rc)
			rc = install(c, b, entry);
		if (!rc)
			rc = ior_kbuild_record_read(b, entry);
		if (!rc)
			config_stamp_write(c, inputs, b->config_hash);
	}
	/* the next build of these inputs finds the entry without configuring (a lost index only costs that) */
	if (!rc && index[0] && write_text(index, strrchr(entry, '/') + 1) != IOR_OK)
		ior_error_clear();
	return rc;
}

/* The build directory and the names in make_ctx; everything it checks comes before anything is
 * made in it. */
static int setup_out(struct make_ctx *c, struct ior_kbuild *b, char *out, size_t len)
{
	const struct ior_kbuild_opts *o = c->o;
	char typed[PATH_MAX];
	if (o->out)
		snprintf(typed, sizeof(typed), "%s", o->out);
	else
		ior_kbuild_default_out(typed, sizeof(typed), c->tree);
	if (!*typed)
		return ior_error_set(IOR_EINVALID, "no build directory for '%s': neither XDG_CACHE_HOME nor HOME is "
				     "set (give --build-dir DIR)", c->tree);
	/* the build directory holds the image and modules root boots, and the lock, the log, the
	 * configs and the records are written in it by name: held to the kernel cache's rule, so
	 * nobody else can plant a link there or swap what was built */
	int rc = ior_kbuild_out_prepare(out, len, typed);
	if (rc)
		return rc;
	snprintf(c->build, sizeof(c->build), "%s/build", out);
	snprintf(c->log, sizeof(c->log), "%s/build.log", out);
	snprintf(c->obj, sizeof(c->obj), "O=%s", c->build);
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	snprintf(c->jobs, sizeof(c->jobs), "-j%u", o->jobs ? o->jobs : cpus > 0 ? (unsigned)cpus : 1);
	b->ccache = ior_spawn_in_path("ccache");
	if (b->ccache)
		snprintf(c->cc, sizeof(c->cc), "CC=ccache gcc");
	snprintf(b->log, sizeof(b->log), "%s", c->log);
	snprintf(c->out, sizeof(c->out), "%s", out);
	return IOR_OK;
}

/* The commit and its local changes, under the lock. */
static void describe_tree(struct make_ctx *c, struct ior_kbuild *b)
{
	if (ior_git_head(&b->commit, c->tree) == IOR_OK)
		b->dirty = tree_dirty(c->tree, b->local_changes);
	else
		memset(&b->commit, 0, sizeof(b->commit)); /* not a git tree: built, never cached */
	ior_error_clear();
	size_t dl = strlen(b->commit.describe);
	if (b->dirty && dl && dl + 7 < sizeof(b->commit.describe)) /* as git describe --dirty says it */
		memcpy(b->commit.describe + dl, "-dirty", 7);
	snprintf(c->localversion, sizeof(c->localversion), "LOCALVERSION=%s%.12s",
		 c->o->localversion && b->commit.sha[0] ? "-g" : "", c->o->localversion ? b->commit.sha : "");
}

int ior_kernel_build(struct ior_kbuild *b, const struct ior_kbuild_opts *o)
{
	double t0 = now_s();
	memset(b, 0, sizeof(*b));
	struct make_ctx *c = calloc(1, sizeof(*c));
	struct ior_kbuild_texts texts = { 0 };
	if (!c)
		return ior_error_set(IOR_ERROR, "out of memory");
	c->o = o;
	c->texts = &texts;
	char out[PATH_MAX], lock[PATH_MAX + 8];
	int rc = IOR_OK, fd = -1;
	if (!realpath(o->tree ? o->tree : ".", c->tree))
		rc = ior_error_errno(IOR_ENOTFOUND, errno, "cannot find the kernel tree '%s'", o->tree ? o->tree : ".");
	else if (snprintf(lock, sizeof(lock), "%s/Makefile", c->tree) && !is_file(lock))
		rc = ior_error_set(IOR_EINVALID, "'%s' is no kernel tree: it has no Makefile", c->tree);
	/* building runs the tree's makefiles and scripts with the config's values in them: as root,
	 * neither may be another user's (checked before anything is made) */
	if (!rc)
		rc = ior_check_trusted_tree(c->tree, "kernel tree");
	if (!rc)
		rc = ior_kbuild_texts_load(&texts, o);
	if (!rc)
		rc = setup_out(c, b, out, sizeof(out));
	if (!rc) {
		snprintf(lock, sizeof(lock), "%s/lock", out);
		fd = open(lock, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (fd < 0 || flock(fd, LOCK_EX) != 0)
			rc = ior_error_errno(IOR_ERROR, errno, "cannot lock '%s'", lock);
	}
	if (!rc)
		rc = ior_kbuild_journal_begin(out);
	if (!rc) {
		describe_tree(c, b);
		rc = build_locked(b, c, out);
		ior_kbuild_journal_end(out);
	}
	if (fd >= 0)
		close(fd);
	ior_kbuild_texts_free(&texts);
	free(c);
	b->seconds = now_s() - t0;
	return rc;
}
