/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a build's .config is made from, as one hash: a commit built before from the same inputs is
 * found in the cache without running make to configure it again. */
#include "vm/kernel_build.h"

#include "common/error.h"
#include "common/spawn.h"
#include "kernel/info.h"
#include "vm/kernel_build_skip.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ior_kbuild_text_add(struct ior_kbuild_text *t, const void *s, size_t n)
{
	if (t->failed)
		return;
	if (t->len + n + 1 > t->cap) {
		size_t cap = (t->len + n + 1) * 2;
		char *g = realloc(t->s, cap);
		if (!g) {
			t->failed = true;
			return;
		}
		t->s = g;
		t->cap = cap;
	}
	memcpy(t->s + t->len, s, n);
	t->len += n;
}

static void add_str(struct ior_kbuild_text *t, const char *label, const char *s)
{
	ior_kbuild_text_add(t, label, strlen(label));
	ior_kbuild_text_add(t, s ? s : "(unset)", strlen(s ? s : "(unset)"));
	ior_kbuild_text_add(t, "\n", 1);
}

/* A file's bytes under its label, with its length (so one text cannot run into the next); never its
 * name: a target's config is written under the target's name, port included, and the same bytes
 * reached another way are the same input. */
static void add_text(struct ior_kbuild_text *t, const char *label, const char *body, size_t n)
{
	char len[32];
	snprintf(len, sizeof(len), "%zu", n);
	add_str(t, label, len);
	ior_kbuild_text_add(t, body, n);
}

/* The tool's --version output: Kconfig probes the compiler and linker (CC_VERSION_TEXT and the
 * cc-option tests), so an upgraded compiler configures the same inputs differently. */
static void add_version(struct ior_kbuild_text *t, const char *tool)
{
	struct ior_spawn r = { .argv = (const char *const[]){ tool, "--version", NULL }, .out_to = IOR_SPAWN_OUT_CAPTURE };
	if (ior_spawn_run(&r) == IOR_OK && r.out)
		ior_kbuild_text_add(t, r.out, strcspn(r.out, "\n"));
	else
		add_str(t, tool, "(not run)");
	ior_kbuild_text_add(t, "\n", 1);
	ior_spawn_free(&r);
	ior_error_clear();
}

int ior_kbuild_inputs_hash(char hex[65], const struct ior_kbuild_opts *o, const struct ior_kbuild_texts *k)
{
	/* the variables make takes from the environment that pick the architecture or the tools */
	static const char *const env[] = { "ARCH", "SUBARCH", "CROSS_COMPILE", "LLVM", "CC", "LD", "KCONFIG_CONFIG" };
	struct ior_kbuild_text t = { 0 };
	int rc = IOR_OK;
	if (o->config)
		add_text(&t, "config ", k->config, k->config_len);
	else
		add_str(&t, "defconfig ", o->defconfig ? o->defconfig : "tinyconfig");
	add_str(&t, o->deb ? "deb\n" : "guest\n", o->deb ? ior_kbuild_deb_fragment : ior_kbuild_guest_fragment);
	if (o->deb && o->lsmod) { /* the modules localmodconfig keeps */
		char *mods = NULL;
		size_t n = 0;
		rc = ior_kernel_config_load(&mods, &n, o->lsmod);
		if (!rc)
			add_text(&t, "lsmod ", mods, n);
		free(mods);
	}
	for (size_t i = 0; i < o->nfragments && i < k->n; i++)
		add_text(&t, "fragment ", k->fragments[i], k->fragment_lens[i]);
	add_str(&t, "localversion ", o->localversion ? "yes" : "no");
	for (size_t i = 0; i < sizeof(env) / sizeof(env[0]); i++)
		add_str(&t, env[i], getenv(env[i]));
	add_version(&t, "gcc");
	add_version(&t, "ld");
	if (!rc && t.failed)
		rc = ior_error_set(IOR_ERROR, "out of memory");
	if (!rc)
		rc = ior_kernel_config_sha256(hex, t.s, t.len);
	free(t.s);
	return rc;
}
