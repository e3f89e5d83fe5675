/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Scheduler module states (built-in, loaded, loadable, absent) from a module tree via libkmod, and
 * loading with a record of what to unload. */
#include "kernel/modules.h"

#include "common/error.h"
#include "kernel/info.h"
#include "kernel/sched_history.h"

#include <errno.h>
#include <libkmod.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#define IOR_KMOD_RECORD_MAX 32

struct ior_kmod {
	struct kmod_ctx *ctx;
	char release[128];
	char tree[PATH_MAX];
	bool has_tree, running;
	char *config;   /* the kernel's config text, NULL when none was found */
	char *builtin;  /* modules.builtin, NULL when the tree has none */
	size_t nloaded;
	char loaded[IOR_KMOD_RECORD_MAX][64];
};

static const char *const scheduler_modules[] = {
	"as-iosched", "noop-iosched", "deadline-iosched", "cfq-iosched", "mq-deadline", "kyber-iosched", "bfq",
};

const char *const *ior_kmod_scheduler_modules(size_t *n)
{
	*n = sizeof(scheduler_modules) / sizeof(scheduler_modules[0]);
	return scheduler_modules;
}

const char *ior_mod_state_name(enum ior_mod_state state)
{
	switch (state) {
	case IOR_MOD_ABSENT: return "absent";
	case IOR_MOD_LOADABLE: return "loadable";
	case IOR_MOD_LOADED: return "loaded";
	case IOR_MOD_BUILTIN: return "built-in";
	case IOR_MOD_NO_TREE: return "no module tree";
	}
	return "unknown";
}

/* Module names treat '-' and '_' as one character, as the kernel and kmod do. */
static void normalize(char *dst, size_t len, const char *name)
{
	size_t i = 0;
	for (; name[i] && i + 1 < len; i++)
		dst[i] = name[i] == '-' ? '_' : name[i];
	dst[i] = '\0';
}

static char *read_text(const char *path)
{
	char *text;
	size_t len;
	return ior_kernel_config_load(&text, &len, path) == IOR_OK ? text : NULL;
}

static void load_config(struct ior_kmod *k, const char *modules_dir)
{
	char boot[PATH_MAX], path[PATH_MAX];
	/* MODULES_DIR/../../boot: /lib/modules -> /boot, ROOT/lib/modules -> ROOT/boot */
	snprintf(boot, sizeof(boot), "%s/../../boot", modules_dir);
	ior_kernel_config_find(path, sizeof(path), k->release, boot);
	if (path[0])
		k->config = read_text(path);
	ior_error_clear();
}

int ior_kmod_open(struct ior_kmod **out, const char *modules_dir, const char *release)
{
	*out = NULL;
	struct utsname u;
	if (uname(&u) != 0)
		return ior_error_errno(IOR_ERROR, errno, "cannot read kernel release (uname)");
	struct ior_kmod *k = calloc(1, sizeof(*k));
	if (!k)
		return ior_error_set(IOR_ERROR, "out of memory");
	if (!modules_dir)
		modules_dir = "/lib/modules";
	snprintf(k->release, sizeof(k->release), "%s", release ? release : u.release);
	snprintf(k->tree, sizeof(k->tree), "%s/%s", modules_dir, k->release);
	k->running = strcmp(k->release, u.release) == 0 && strcmp(modules_dir, "/lib/modules") == 0;
	struct stat st;
	k->has_tree = stat(k->tree, &st) == 0 && S_ISDIR(st.st_mode);
	load_config(k, modules_dir);
	if (!k->has_tree) {
		*out = k;
		return IOR_OK;
	}
	char path[PATH_MAX + 32];
	snprintf(path, sizeof(path), "%s/modules.builtin", k->tree);
	k->builtin = read_text(path);
	ior_error_clear();
	/* another kernel's tree must not pick up this host's modprobe.d */
	static const char *const no_config[] = { NULL };
	k->ctx = kmod_new(k->tree, k->running ? NULL : no_config);
	if (!k->ctx) {
		ior_kmod_free(k);
		return ior_error_set(IOR_ERROR, "cannot open module tree '%s' with libkmod", k->tree);
	}
	*out = k;
	return IOR_OK;
}

void ior_kmod_free(struct ior_kmod *k)
{
	if (!k)
		return;
	kmod_unref(k->ctx);
	free(k->config);
	free(k->builtin);
	free(k);
}

bool ior_kmod_has_tree(const struct ior_kmod *k) { return k->has_tree; }
bool ior_kmod_is_running(const struct ior_kmod *k) { return k->running; }
const char *ior_kmod_release(const struct ior_kmod *k) { return k->release; }
const char *ior_kmod_tree(const struct ior_kmod *k) { return k->tree; }

/* modules.builtin lines are paths: "kernel/block/mq-deadline.ko". */
static bool in_builtin(const struct ior_kmod *k, const char *norm)
{
	for (const char *line = k->builtin; line && *line;) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		const char *base = line;
		for (size_t i = 0; i < len; i++)
			if (line[i] == '/')
				base = line + i + 1;
		size_t blen = (size_t)(line + len - base);
		if (blen > 3 && memcmp(base + blen - 3, ".ko", 3) == 0) {
			char name[128], bn[128];
			snprintf(name, sizeof(name), "%.*s", (int)(blen - 3), base);
			normalize(bn, sizeof(bn), name);
			if (strcmp(bn, norm) == 0)
				return true;
		}
		line = nl ? nl + 1 : NULL;
	}
	return false;
}

static bool is_live(struct ior_kmod *k, const char *norm)
{
	struct kmod_module *mod = NULL;
	if (!k->running || kmod_module_new_from_name(k->ctx, norm, &mod) < 0)
		return false;
	int st = kmod_module_get_initstate(mod);
	kmod_module_unref(mod);
	return st == KMOD_MODULE_LIVE || st == KMOD_MODULE_COMING;
}

int ior_kmod_path(struct ior_kmod *k, const char *module, char *path, size_t len)
{
	char norm[64];
	path[0] = '\0';
	if (!k->has_tree)
		return IOR_OK;
	normalize(norm, sizeof(norm), module);
	struct kmod_module *mod = NULL;
	int err = kmod_module_new_from_name_lookup(k->ctx, norm, &mod);
	if (err < 0 && err != -ENOENT && err != -ENOSYS)
		return ior_error_errno(IOR_ERROR, -err, "cannot look up module '%s' in '%s'", module, k->tree);
	const char *p = mod ? kmod_module_get_path(mod) : NULL;
	if (p && access(p, R_OK) == 0)
		snprintf(path, len, "%s", p);
	kmod_module_unref(mod);
	return IOR_OK;
}

static int append_path(const char *p, char (*paths)[4096], size_t max, size_t *n)
{
	for (size_t i = 0; i < *n; i++)
		if (strcmp(paths[i], p) == 0)
			return IOR_OK;
	if (*n == max)
		return ior_error_set(IOR_ERROR, "more than %zu modules to load", max);
	snprintf(paths[(*n)++], sizeof(paths[0]), "%s", p);
	return IOR_OK;
}

/* Depth first, dependencies before the module; libkmod's list is modules.dep's line. */
static int add_with_deps(struct kmod_module *mod, char (*paths)[4096], size_t max, size_t *n, int depth)
{
	if (depth > 32)
		return ior_error_set(IOR_ERROR, "module dependencies nest deeper than 32 at '%s'", kmod_module_get_name(mod));
	struct kmod_list *deps = kmod_module_get_dependencies(mod), *l;
	int rc = IOR_OK;
	kmod_list_foreach(l, deps) {
		struct kmod_module *d = kmod_module_get_module(l);
		if (!rc)
			rc = add_with_deps(d, paths, max, n, depth + 1);
		kmod_module_unref(d);
	}
	kmod_module_unref_list(deps);
	const char *p = kmod_module_get_path(mod);
	return rc ? rc : p ? append_path(p, paths, max, n) : IOR_OK;
}

int ior_kmod_load_order(struct ior_kmod *k, const char *module, char (*paths)[4096], size_t max, size_t *n)
{
	enum ior_mod_state st;
	int rc = ior_kmod_state(k, module, &st);
	if (rc || st == IOR_MOD_BUILTIN)
		return rc;
	if (st != IOR_MOD_LOADABLE && st != IOR_MOD_LOADED)
		return ior_error_set(IOR_ENOTFOUND, "module '%s' is not in '%s'", module, k->tree);
	char norm[64];
	normalize(norm, sizeof(norm), module);
	struct kmod_module *mod = NULL;
	int err = kmod_module_new_from_name_lookup(k->ctx, norm, &mod);
	if (err < 0 || !mod)
		return ior_error_errno(IOR_ENOTFOUND, err < 0 ? -err : ENOENT, "cannot look up module '%s' in '%s'", module,
				       k->tree);
	rc = add_with_deps(mod, paths, max, n, 0);
	kmod_module_unref(mod);
	return rc;
}

/* Without a tree, the config still tells built-in (=y) from not configured (not set). */
static enum ior_mod_state state_without_tree(const struct ior_kmod *k, const char *module)
{
	size_t n;
	const struct ior_sched_info *h = ior_sched_history(&n);
	for (size_t i = 0; k->config && i < n; i++) {
		if (!h[i].module || !h[i].config || strcmp(h[i].module, module) != 0)
			continue;
		char v = ior_kernel_config_value(k->config, h[i].config);
		return v == 'y' ? IOR_MOD_BUILTIN : v == 'n' ? IOR_MOD_ABSENT : IOR_MOD_NO_TREE;
	}
	return IOR_MOD_NO_TREE;
}

int ior_kmod_state(struct ior_kmod *k, const char *module, enum ior_mod_state *state)
{
	char norm[64];
	normalize(norm, sizeof(norm), module);
	if (!k->has_tree) {
		*state = state_without_tree(k, module);
		return IOR_OK;
	}
	if (in_builtin(k, norm)) {
		*state = IOR_MOD_BUILTIN;
		return IOR_OK;
	}
	if (is_live(k, norm)) {
		*state = IOR_MOD_LOADED;
		return IOR_OK;
	}
	char path[PATH_MAX];
	int rc = ior_kmod_path(k, module, path, sizeof(path));
	if (rc)
		return rc;
	*state = path[0] ? IOR_MOD_LOADABLE : IOR_MOD_ABSENT;
	return IOR_OK;
}

/* --- loading and unloading ----------------------------------------------------- */

/* libkmod's print_action has no user pointer: the call in progress is kept per thread. */
static _Thread_local struct ior_kmod *inserting;

static void record_insert(struct kmod_module *m, bool install, const char *options)
{
	(void)options;
	struct ior_kmod *k = inserting;
	if (!install || !k || k->nloaded == IOR_KMOD_RECORD_MAX)
		return;
	snprintf(k->loaded[k->nloaded++], sizeof(k->loaded[0]), "%s", kmod_module_get_name(m));
}

/* Keeps only the recorded modules that really are live: a failed probe may have
 * announced a module it then could not insert. */
static void keep_live(struct ior_kmod *k, size_t from)
{
	size_t out = from;
	for (size_t i = from; i < k->nloaded; i++)
		if (is_live(k, k->loaded[i]))
			memmove(k->loaded[out++], k->loaded[i], sizeof(k->loaded[0]));
	k->nloaded = out;
}

int ior_kmod_load(struct ior_kmod *k, const char *module)
{
	if (!k->has_tree)
		return ior_error_set(IOR_EUNSUPPORTED, "cannot load module '%s': kernel %s has no module tree",
				     module, k->release);
	if (!k->running)
		return ior_error_set(IOR_EREFUSED, "cannot load module '%s' from '%s': not the running kernel's tree",
				     module, k->tree);
	enum ior_mod_state state;
	int rc = ior_kmod_state(k, module, &state);
	if (rc)
		return rc;
	if (state == IOR_MOD_BUILTIN || state == IOR_MOD_LOADED)
		return IOR_OK;
	if (state != IOR_MOD_LOADABLE)
		return ior_error_set(IOR_ENOTFOUND, "cannot load module '%s': not in '%s'", module, k->tree);
	char norm[64];
	normalize(norm, sizeof(norm), module);
	struct kmod_module *mod = NULL;
	int err = kmod_module_new_from_name_lookup(k->ctx, norm, &mod);
	if (err < 0 || !mod)
		return ior_error_errno(IOR_ENOTFOUND, err < 0 ? -err : ENOENT, "cannot look up module '%s'", module);
	size_t before = k->nloaded;
	inserting = k;
	err = kmod_module_probe_insert_module(mod, KMOD_PROBE_IGNORE_COMMAND, NULL, NULL, NULL, record_insert);
	inserting = NULL;
	kmod_module_unref(mod);
	keep_live(k, before);
	if (err < 0)
		return ior_error_errno(IOR_ERROR, -err, "cannot load module '%s'", module);
	if (err > 0)
		return ior_error_set(IOR_EREFUSED, "cannot load module '%s': blacklisted", module);
	return IOR_OK;
}

size_t ior_kmod_loaded_count(const struct ior_kmod *k)
{
	return k->nloaded;
}

const char *ior_kmod_loaded_name(const struct ior_kmod *k, size_t i)
{
	return i < k->nloaded ? k->loaded[i] : NULL;
}

int ior_kmod_unload_recorded(struct ior_kmod *k)
{
	int first = IOR_OK;
	size_t kept = 0;
	char failed[IOR_KMOD_RECORD_MAX][64];
	for (size_t i = k->nloaded; i-- > 0;) {
		struct kmod_module *mod = NULL;
		int err = kmod_module_new_from_name(k->ctx, k->loaded[i], &mod);
		if (err >= 0)
			err = kmod_module_remove_module(mod, 0);
		kmod_module_unref(mod);
		if (err < 0) {
			if (first == IOR_OK)
				first = ior_error_errno(IOR_ERROR, -err, "cannot unload module '%s'", k->loaded[i]);
			memcpy(failed[kept++], k->loaded[i], sizeof(failed[0]));
		}
	}
	/* what could not be removed stays recorded, in load order, for a later attempt */
	for (size_t i = 0; i < kept; i++)
		memcpy(k->loaded[i], failed[kept - 1 - i], sizeof(k->loaded[0]));
	k->nloaded = kept;
	return first;
}
