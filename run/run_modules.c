/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Scheduler and block-driver modules around a run (see run_modules.h), through kernel/modules (libkmod). */
#include "run/run_modules.h"
#include "common/error.h"
#include "kernel/modules.h"
#include "kernel/sched_history.h"

#include <stdio.h>
#include <string.h>

int ior_run_modules_open(struct ior_run_modules *rm)
{
	memset(rm, 0, sizeof(*rm));
	return ior_kmod_open(&rm->kmod, NULL, NULL);
}

const char *ior_run_module_state(struct ior_run_modules *rm, const char *scheduler)
{
	const struct ior_sched_info *s = ior_sched_lookup(scheduler);
	enum ior_mod_state st;
	if (!rm->kmod || !s || !s->module || ior_kmod_state(rm->kmod, s->module, &st) != IOR_OK || st == IOR_MOD_NO_TREE)
		return NULL;
	return ior_mod_state_name(st);
}

static int load_one(struct ior_run_modules *rm, const char *module)
{
	enum ior_mod_state st;
	int rc = ior_kmod_state(rm->kmod, module, &st);
	if (rc || st != IOR_MOD_LOADABLE)
		return rc; /* built in, already loaded, or absent: nothing to do */
	if ((rc = ior_kmod_load(rm->kmod, module)) != 0)
		return ior_error_wrap(rc, "cannot load module '%s'", module);
	return IOR_OK;
}

static void note_loaded(struct ior_run_modules *rm)
{
	rm->loaded[0] = '\0';
	for (size_t i = 0; i < ior_kmod_loaded_count(rm->kmod); i++) {
		size_t len = strlen(rm->loaded);
		snprintf(rm->loaded + len, sizeof(rm->loaded) - len, "%s%s", i ? " " : "",
			 ior_kmod_loaded_name(rm->kmod, i));
	}
}

/* The block drivers the matrix's devices need: loop for a loop = device or a loop engine's stack,
 * null_blk for a /dev/nullbN device (it makes nullb0 when loaded). A guest of vm run has no
 * other way to get them; on a host they are usually loaded already, and then nothing happens. */
static int load_device_modules(struct ior_run_modules *rm, const struct ior_matrix *m)
{
	bool loop = false, null_blk = false;
	for (size_t i = 0; i < m->ndevices; i++) {
		loop |= m->devices[i].opts.loop != 0;
		null_blk |= m->devices[i].opts.path && !strncmp(m->devices[i].opts.path, "/dev/nullb", 10);
	}
	for (size_t i = 0; i < m->nengines; i++)
		loop |= !strcmp(m->engines[i].ops->name, "loop");
	int rc = IOR_OK;
	if (loop && (rc = load_one(rm, "loop")) != IOR_OK)
		return rc;
	if (null_blk)
		rc = load_one(rm, "null_blk");
	return rc;
}

int ior_run_modules_load(struct ior_run_modules *rm, const struct ior_matrix *m)
{
	if (!m->settings.load_modules || !ior_kmod_has_tree(rm->kmod))
		return IOR_OK;
	int rc = IOR_OK;
	size_t nh;
	const struct ior_sched_info *h = ior_sched_history(&nh);
	char *const none[] = { NULL };
	char **named = ior_matrix_schedulers_for(m, none); /* the explicit list; empty for "all" */
	if (!named)
		return ior_error_set(IOR_ERROR, "out of memory");
	bool all = named[0] == NULL;
	for (size_t i = 0; rc == IOR_OK && i < nh; i++) {
		if (!h[i].module)
			continue;
		/* "all" on a blk-mq kernel: every multi-queue scheduler the tree can provide */
		bool wanted = all && h[i].queue == IOR_QUEUE_BLK_MQ;
		for (size_t j = 0; !all && named[j]; j++)
			wanted |= strcmp(named[j], h[i].name) == 0;
		if (wanted)
			rc = load_one(rm, h[i].module);
	}
	ior_strv_free(named);
	if (rc == IOR_OK)
		rc = load_device_modules(rm, m);
	note_loaded(rm);
	return rc;
}

int ior_run_modules_close(struct ior_run_modules *rm)
{
	int rc = IOR_OK;
	if (rm->kmod && ior_kmod_loaded_count(rm->kmod) > 0)
		rc = ior_kmod_unload_recorded(rm->kmod);
	ior_kmod_free(rm->kmod);
	rm->kmod = NULL;
	return rc;
}
