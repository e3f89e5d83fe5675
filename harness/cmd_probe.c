/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `ioregress probe [--json]`: the running kernel and every block device with the schedulers it offers. */
#include "common/error.h"
#include "device/blockdev.h"
#include "harness/command_list.h"
#include "run/run_git.h"
#include "kernel/info.h"
#include "kernel/modules.h"
#include "kernel/sched_history.h"
#include "kernel/version.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void print_commit_text(const struct ior_git_commit *c)
{
	printf("git      %s", c->sha);
	if (c->describe[0])
		printf(" (%s)", c->describe);
	printf("\nsubject  %s\nauthor   %s <%s>, %s\n", c->subject, c->author_name, c->author_email, c->author_date);
}

static json_object *commit_json(const struct ior_git_commit *c)
{
	if (!c)
		return NULL;
	json_object *o = json_object_new_object();
	json_object_object_add(o, "sha", json_object_new_string(c->sha));
	json_object_object_add(o, "describe", c->describe[0] ? json_object_new_string(c->describe) : NULL);
	json_object_object_add(o, "subject", json_object_new_string(c->subject));
	json_object_object_add(o, "author_name", json_object_new_string(c->author_name));
	json_object_object_add(o, "author_email", json_object_new_string(c->author_email));
	json_object_object_add(o, "author_date", json_object_new_string(c->author_date));
	return o;
}

static void print_text(const struct ior_kernel_info *k, const struct ior_kver *v, bool parsed,
		       const struct ior_git_commit *commit, const struct ior_blockdev *devs, size_t n)
{
	printf("kernel   %s\nversion  %s\nmachine  %s\n", k->release, k->version, k->machine);
	if (parsed) {
		printf("parsed   %d.%d.%d", v->major, v->minor, v->patch);
		if (v->sublevel)
			printf(".%d", v->sublevel);
		if (v->rc)
			printf(" rc%d", v->rc);
		if (v->extra[0])
			printf(" extra '%s'", v->extra);
		if (v->commit[0])
			printf(" commit %s", v->commit);
		putchar('\n');
	}
	else
		printf("parsed   (not a version this tool can order)\n");
	if (commit)
		print_commit_text(commit);
	printf("\n%-10s %-10s %5s %6s %6s  %-40s %s\n", "device", "size", "rot", "lbs", "pbs", "schedulers", "model");
	for (size_t i = 0; i < n; i++) {
		const struct ior_blockdev *d = &devs[i];
		char scheds[256] = "";
		if (!d->has_scheduler)
			snprintf(scheds, sizeof(scheds), "(no scheduler: bio-based)");
		for (size_t s = 0; s < d->nschedulers; s++) {
			size_t len = strlen(scheds);
			snprintf(scheds + len, sizeof(scheds) - len, (int)s == d->active ? "%s[%s]" : "%s%s",
				 s ? " " : "", d->schedulers[s]);
		}
		char size[32];
		snprintf(size, sizeof(size), "%.1fG", (double)d->size / (1024.0 * 1024 * 1024));
		char rot[8];
		snprintf(rot, sizeof(rot), "%d", d->rotational);
		printf("%-10s %-10s %5s %6u %6u  %-40s %s\n", d->name, size, d->rotational < 0 ? "-" : rot,
		       d->logical_block, d->physical_block, scheds, d->model);
	}
}

/* Is the scheduler that a module provides offered now by any device? */
static bool offered_anywhere(const char *module, const struct ior_blockdev *devs, size_t n)
{
	size_t nh;
	const struct ior_sched_info *h = ior_sched_history(&nh);
	for (size_t i = 0; i < nh; i++) {
		if (!h[i].module || strcmp(h[i].module, module) != 0)
			continue;
		for (size_t d = 0; d < n; d++)
			for (size_t s = 0; s < devs[d].nschedulers; s++)
				if (strcmp(devs[d].schedulers[s], h[i].name) == 0)
					return true;
	}
	return false;
}

/* The scheduler modules' states beside what sysfs offers now: "loadable" but not offered
 * means a run with load_modules = yes would add it. */
static void print_modules_text(struct ior_kmod *k, const struct ior_blockdev *devs, size_t n, bool running)
{
	printf("\nscheduler modules of %s (%s)\n", ior_kmod_release(k),
	       ior_kmod_has_tree(k) ? ior_kmod_tree(k) : "no module tree");
	printf("%-18s %-16s %s\n", "module", "state", running ? "offered now" : "");
	size_t nm;
	const char *const *mods = ior_kmod_scheduler_modules(&nm);
	for (size_t i = 0; i < nm; i++) {
		enum ior_mod_state st = IOR_MOD_NO_TREE;
		const char *state = ior_kmod_state(k, mods[i], &st) == IOR_OK ? ior_mod_state_name(st) : "(error)";
		printf("%-18s %-16s %s\n", mods[i], state,
		       running ? (offered_anywhere(mods[i], devs, n) ? "yes" : "no") : "");
	}
}

static json_object *modules_json(struct ior_kmod *k, const struct ior_blockdev *devs, size_t n, bool running)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "release", json_object_new_string(ior_kmod_release(k)));
	json_object_object_add(o, "tree", ior_kmod_has_tree(k) ? json_object_new_string(ior_kmod_tree(k)) : NULL);
	json_object *arr = json_object_new_array();
	size_t nm;
	const char *const *mods = ior_kmod_scheduler_modules(&nm);
	for (size_t i = 0; i < nm; i++) {
		enum ior_mod_state st = IOR_MOD_NO_TREE;
		json_object *m = json_object_new_object();
		json_object_object_add(m, "module", json_object_new_string(mods[i]));
		json_object_object_add(m, "state", ior_kmod_state(k, mods[i], &st) == IOR_OK
							  ? json_object_new_string(ior_mod_state_name(st)) : NULL);
		if (running)
			json_object_object_add(m, "offered_now", json_object_new_boolean(offered_anywhere(mods[i], devs, n)));
		json_object_array_add(arr, m);
	}
	json_object_object_add(o, "scheduler_modules", arr);
	return o;
}

static json_object *device_json(const struct ior_blockdev *d)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "name", json_object_new_string(d->name));
	json_object_object_add(o, "path", json_object_new_string(d->path));
	json_object_object_add(o, "size", json_object_new_int64((int64_t)d->size));
	json_object_object_add(o, "logical_block_size", json_object_new_int(d->logical_block));
	json_object_object_add(o, "physical_block_size", json_object_new_int(d->physical_block));
	json_object_object_add(o, "rotational", d->rotational < 0 ? NULL : json_object_new_boolean(d->rotational));
	json_object_object_add(o, "model", d->model[0] ? json_object_new_string(d->model) : NULL);
	json_object *scheds = json_object_new_array();
	for (size_t s = 0; s < d->nschedulers; s++)
		json_object_array_add(scheds, json_object_new_string(d->schedulers[s]));
	json_object_object_add(o, "schedulers", d->has_scheduler ? scheds : NULL);
	if (!d->has_scheduler)
		json_object_put(scheds);
	json_object_object_add(o, "active_scheduler",
			       d->active >= 0 ? json_object_new_string(d->schedulers[d->active]) : NULL);
	return o;
}

static void print_json(const struct ior_kernel_info *k, const struct ior_kver *v, bool parsed,
		       const struct ior_git_commit *commit, const struct ior_blockdev *devs, size_t n,
		       json_object *modules)
{
	json_object *root = json_object_new_object();
	json_object *kernel = json_object_new_object();
	json_object_object_add(kernel, "release", json_object_new_string(k->release));
	json_object_object_add(kernel, "version", json_object_new_string(k->version));
	json_object_object_add(kernel, "machine", json_object_new_string(k->machine));
	json_object_object_add(kernel, "cmdline", json_object_new_string(k->cmdline));
	json_object_object_add(kernel, "commit", k->commit[0] ? json_object_new_string(k->commit) : NULL);
	json_object_object_add(kernel, "config_hash", k->config_hash[0] ? json_object_new_string(k->config_hash) : NULL);
	json_object_object_add(kernel, "git", commit_json(commit));
	if (parsed) {
		json_object *pv = json_object_new_object();
		json_object_object_add(pv, "major", json_object_new_int(v->major));
		json_object_object_add(pv, "minor", json_object_new_int(v->minor));
		json_object_object_add(pv, "patch", json_object_new_int(v->patch));
		json_object_object_add(pv, "sublevel", json_object_new_int(v->sublevel));
		json_object_object_add(pv, "rc", json_object_new_int(v->rc));
		json_object_object_add(pv, "extra", json_object_new_string(v->extra));
		json_object_object_add(kernel, "parsed", pv);
	}
	json_object_object_add(root, "host", json_object_new_string(k->hostname));
	json_object_object_add(root, "kernel", kernel);
	json_object *arr = json_object_new_array();
	for (size_t i = 0; i < n; i++)
		json_object_array_add(arr, device_json(&devs[i]));
	json_object_object_add(root, "devices", arr);
	json_object_object_add(root, "modules", modules);
	puts(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(root);
}

struct probe_args {
	bool json;
	const char *modules_dir;  /* --modules-dir DIR: inspect another module tree */
	const char *kernel;       /* --kernel RELEASE: with --modules-dir */
	const char *kernel_tree;  /* --kernel-tree PATH, as run's */
	const char *repo;         /* --repo PATH, as run's */
};

/* The checks between probe's options: 0, or 2 after a usage error. */
static int check_args(const struct probe_args *pa)
{
	if (pa->modules_dir && !pa->kernel) {
		ior_cmd_error("'--modules-dir' needs '--kernel RELEASE' to name the tree inside it");
		return 2;
	}
	if (pa->kernel_tree && pa->repo) {
		ior_cmd_error("give '--kernel-tree' or '--repo', not both");
		return 2;
	}
	return 0;
}

static int cmd_probe(int argc, char **argv, struct ior_cmd_ctx *ctx)
{
	(void)ctx;
	struct probe_args pa = { 0 };
	struct ior_cmd_parsed p;
	int status = ior_cmd_parse_or_usage(&ior_cmd_probe, argc, argv, &pa, &p);
	if (!status)
		status = check_args(&pa);
	if (status)
		return status;
	struct ior_kernel_info k;
	if (ior_kernel_info_read(&k) != IOR_OK) {
		ior_cmd_error("cannot read the running kernel's record");
		return 1;
	}
	struct ior_kver v;
	bool parsed = ior_kver_parse(k.release, &v) == IOR_OK;
	/* what run would store with this kernel, with run's errors and warnings */
	struct ior_git_commit commit;
	char warning[1024];
	bool have_commit = false;
	if (ior_run_git_resolve(k.release, pa.kernel_tree, pa.repo, &commit, &have_commit, warning, sizeof(warning))) {
		fprintf(stderr, "error: %s\n", ior_error_last());
		return 1;
	}
	if (warning[0])
		fprintf(stderr, "warning: %s\n", warning);
	struct ior_blockdev *devs;
	size_t n;
	if (ior_blockdev_list(&devs, &n) != IOR_OK) {
		ior_cmd_error("cannot list block devices");
		return 1;
	}
	struct ior_kmod *km = NULL;
	if (ior_kmod_open(&km, pa.modules_dir, pa.kernel) != IOR_OK) {
		ior_cmd_error("cannot open the module tree");
		free(devs);
		return 1;
	}
	/* "offered now" only means something for the kernel that is running */
	bool running = ior_kmod_is_running(km);
	if (pa.json) {
		print_json(&k, &v, parsed, have_commit ? &commit : NULL, devs, n, modules_json(km, devs, n, running));
	} else {
		print_text(&k, &v, parsed, have_commit ? &commit : NULL, devs, n);
		print_modules_text(km, devs, n, running);
	}
	ior_kmod_free(km);
	free(devs);
	return 0;
}

#define PROBE_AT(member) IOR_CMD_AT(struct probe_args, member)
static const struct ior_cmd_opt probe_options[] = {
	{ .name = "--json", PROBE_AT(json), .help = "one JSON document instead of text" },
	{ .name = "--modules-dir", .value = IOR_CMD_FILE, .arg = "DIR", PROBE_AT(modules_dir),
	  .help = "inspect the module tree DIR/RELEASE instead of the running kernel's (needs --kernel)" },
	{ .name = "--kernel", .value = IOR_CMD_TEXT, .arg = "RELEASE", PROBE_AT(kernel),
	  .help = "with --modules-dir, the release whose tree is inspected" },
	{ .name = "--kernel-tree", .value = IOR_CMD_FILE, .arg = "PATH", PROBE_AT(kernel_tree),
	  .help = "also show the commit HEAD of the git tree PATH points at, as 'run --kernel-tree' would store it" },
	{ .name = "--repo", .value = IOR_CMD_FILE, .arg = "PATH", PROBE_AT(repo),
	  .help = "also show the commit the running release's -gSHA names in the git repository PATH, as "
		  "'run --repo' would store it" },
	{ 0 },
};

const struct ior_command ior_cmd_probe = {
	.name = "probe",
	.fn = cmd_probe,
	.error_status = 1,
	.summary = "show the running kernel, its block devices and the schedulers they offer",
	.description = "Prints the running kernel's record, every block device with the schedulers it offers "
		       "([active] marked), and the state of each known scheduler module: built-in, loaded, "
		       "loadable (a module file exists) or absent, beside whether it is offered now.",
	.options = probe_options,
};
