/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernels of the report model: per host in version order, the schedulers each offered, the ones
 * a matrix asked for and it lacked, and what changed from the previous kernel. */
#include "reports/model_internal.h"

#include "common/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Appends name to a space-separated list unless it is there already. */
static int add_word(char **list, const char *name)
{
	if (*list && ior_sched_list_has(*list, name))
		return IOR_OK;
	size_t len = *list ? strlen(*list) : 0, w = strlen(name);
	char *p = realloc(*list, len + w + 2);
	if (!p)
		return ior_error_set(IOR_ERROR, "out of memory");
	if (len)
		p[len++] = ' ';
	memcpy(p + len, name, w + 1);
	*list = p;
	return IOR_OK;
}

static struct ior_report_kernel *find(struct ior_report *r, const char *host, const char *release)
{
	for (size_t k = 0; k < r->nkernels; k++)  /* interned: pointers compare */
		if (r->kernels[k].host == host && r->kernels[k].release == release)
			return &r->kernels[k];
	return NULL;
}

/* The kernels the stored cells name (judge/stored.c), one report kernel each, in their order. */
static int collect(struct ior_report *r)
{
	if (ior_stored_kernels(&r->stored))
		return IOR_ERROR;
	r->kernels = calloc(r->stored.nkernels ? r->stored.nkernels : 1, sizeof(*r->kernels));
	if (!r->kernels)
		return ior_error_set(IOR_ERROR, "out of memory");
	for (size_t k = 0; k < r->stored.nkernels; k++) {
		const struct ior_stored_kernel *x = &r->stored.kernels[k];
		r->kernels[r->nkernels++] = (struct ior_report_kernel){
			.host = x->host, .release = x->release,
			.in_view = !r->opts.kernel || !strcmp(r->opts.kernel, x->release) };
	}
	return IOR_OK;
}

static int unavailable(struct ior_report *r)
{
	for (size_t i = 0; i < r->stored.ncells; i++) {
		const struct ior_stored_cell *c = &r->stored.cells[i];
		if (!c->status || strcmp(c->status, "unavailable") || !c->scheduler)
			continue;
		struct ior_report_kernel *k = find(r, c->host, c->kernel);
		if (k && add_word(&k->unavailable, c->scheduler))
			return IOR_ERROR;
	}
	return IOR_OK;
}

static int note_change(struct ior_report_kernel *k, const struct ior_report_kernel *prev, const char *name)
{
	bool before = ior_sched_list_has(prev->offered, name), now = ior_sched_list_has(k->offered, name);
	char text[320];
	enum ior_sched_change kind = ior_sched_explain(text, sizeof(text), name, prev->release, k->release, before, now);
	if (kind == IOR_SCHED_UNCHANGED)
		return IOR_OK;
	struct ior_report_sched_change *v = realloc(k->changes, (k->nchanges + 1) * sizeof(*v));
	if (!v)
		return ior_error_set(IOR_ERROR, "out of memory");
	k->changes = v;
	struct ior_report_sched_change *c = &v[k->nchanges++];
	*c = (struct ior_report_sched_change){ .name = name, .offered_before = before, .offered_now = now, .kind = kind };
	snprintf(c->text, sizeof(c->text), "%s", text);
	return IOR_OK;
}

/* For each name in either list, from list's own copy (interned, so it outlives the call). */
static int changes_between(struct ior_report *r, struct ior_report_kernel *k, const struct ior_report_kernel *prev)
{
	const char *lists[2] = { prev->offered, k->offered };
	for (int l = 0; l < 2; l++) {
		char word[64];
		for (const char *p = lists[l]; p && *p;) {
			size_t w = strcspn(p, " ");
			if (w && w < sizeof(word)) {
				memcpy(word, p, w);
				word[w] = 0;
				/* brackets mark the active scheduler in sysfs lists */
				char *name = word[0] == '[' ? word + 1 : word;
				name[strcspn(name, "]")] = 0;
				int oom = 0;
				const char *kept = ior_intern(r->pool, name, &oom);
				bool seen = l == 1 && ior_sched_list_has(prev->offered, name);
				if (oom || (!seen && note_change(k, prev, kept)))
					return IOR_ERROR;
			}
			p += w;
			p += strspn(p, " ");
		}
	}
	return IOR_OK;
}

/* The first commit recorded for the kernel's release on its host; the others are counted. */
static int commit_of(struct ior_report *r, struct ior_db *db, struct ior_report_kernel *k)
{
	struct ior_db_commit_row *rows;
	size_t n;
	if (ior_db_kernel_commits(db, k->host, k->release, &rows, &n))
		return IOR_ERROR;
	int oom = 0;
	if (n) {
		struct ior_report_commit *c = &k->commit;
		c->sha = ior_intern(r->pool, rows[0].sha, &oom);
		c->describe = ior_intern(r->pool, rows[0].describe, &oom);
		c->subject = ior_intern(r->pool, rows[0].subject, &oom);
		c->author_name = ior_intern(r->pool, rows[0].author_name, &oom);
		c->author_email = ior_intern(r->pool, rows[0].author_email, &oom);
		c->author_date = ior_intern(r->pool, rows[0].author_date, &oom);
		c->repository_url = ior_intern(r->pool, rows[0].repository_url, &oom);
		c->branch = ior_intern(r->pool, rows[0].branch, &oom);
		k->other_commits = n - 1;
		r->nkernel_commits += k->in_view;
	}
	ior_db_commit_rows_free(rows, n);
	return oom ? ior_error_set(IOR_ERROR, "out of memory") : IOR_OK;
}

int ior_report_kernels(struct ior_report *r, struct ior_db *db)
{
	if (collect(r) || unavailable(r))
		return IOR_ERROR;
	for (size_t i = 0; db && i < r->nkernels; i++) {
		struct ior_report_kernel *k = &r->kernels[i];
		char *offered = NULL, *config = NULL, *machine = NULL, *compiler = NULL;
		if (commit_of(r, db, k) || ior_db_offered(db, k->host, k->release, &offered) ||
		    ior_db_kernel_config_hash(db, k->host, k->release, &config) ||
		    ior_db_kernel_machine(db, k->host, k->release, &machine) ||
		    ior_db_kernel_compiler(db, k->host, k->release, &compiler)) {
			free(offered);
			free(config);
			free(machine);
			return IOR_ERROR;
		}
		int oom = 0;
		k->offered = ior_intern(r->pool, offered, &oom);
		k->config_hash = ior_intern(r->pool, config, &oom);
		k->machine = ior_intern(r->pool, machine, &oom);
		k->compiler = ior_intern(r->pool, compiler, &oom);
		free(offered);
		free(config);
		free(machine);
		free(compiler);
		if (oom)
			return ior_error_set(IOR_ERROR, "out of memory");
		const struct ior_report_kernel *prev = i ? &r->kernels[i - 1] : NULL;
		if (prev && prev->host == k->host && prev->offered && k->offered && changes_between(r, k, prev))
			return IOR_ERROR;
	}
	return IOR_OK;
}
