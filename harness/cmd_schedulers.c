/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `ioregress schedulers`: which schedulers each stored kernel offered, in version order, and why
 * they changed between kernels. */
#include "common/error.h"
#include "common/text.h"
#include "db/db.h"
#include "harness/command_list.h"
#include "kernel/sched_history.h"
#include "kernel/version.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct kernel_offer {
	const char *host, *kernel;
	char *offered; /* space separated; "" when no list was stored */
	char *states;  /* "mq-deadline:built-in kyber:loaded", NULL when not recorded */
};

static int by_host_then_version(const void *a, const void *b)
{
	const struct kernel_offer *x = a, *y = b;
	int c = strcmp(x->host, y->host);
	return c ? c : ior_kver_cmp(x->kernel, y->kernel);
}

static int by_version(const void *a, const void *b)
{
	return ior_kver_cmp(((const struct kernel_offer *)a)->kernel, ((const struct kernel_offer *)b)->kernel);
}

/* Every name in either list, each once, a's order first. */
static size_t union_names(char names[][32], size_t max, const char *a, const char *b)
{
	size_t n = 0;
	const char *lists[] = { a, b };
	for (int l = 0; l < 2; l++) {
		char copy[1024];
		snprintf(copy, sizeof(copy), "%s", lists[l]);
		for (char *save, *tok = strtok_r(copy, " []", &save); tok; tok = strtok_r(NULL, " []", &save)) {
			bool seen = false;
			for (size_t i = 0; i < n && !seen; i++)
				seen = strcmp(names[i], tok) == 0;
			if (!seen && n < max && strlen(tok) < 32)
				strcpy(names[n++], tok);
		}
	}
	return n;
}

static size_t print_changes(const struct kernel_offer *a, const struct kernel_offer *b, size_t changes)
{
	char names[IOR_SCHED_MAX][32], line[768];
	size_t n = union_names(names, IOR_SCHED_MAX, a->offered, b->offered);
	for (size_t i = 0; i < n; i++) {
		enum ior_sched_change kind = ior_sched_explain(line, sizeof(line), names[i], a->kernel, b->kernel,
							       ior_sched_list_has(a->offered, names[i]),
							       ior_sched_list_has(b->offered, names[i]));
		if (kind == IOR_SCHED_UNCHANGED)
			continue;
		if (!changes++)
			printf("  changes:\n");
		printf("    %s\n", line);
	}
	return changes;
}

/* The schedulers the kernels k[0..n) have in common and why the others were left out. */
static int print_common(const char *title, const struct kernel_offer *k, size_t n)
{
	const char **kernels = calloc(n, sizeof(*kernels)), **offered = calloc(n, sizeof(*offered));
	size_t m = 0;
	for (size_t i = 0; kernels && offered && i < n; i++)
		if (k[i].offered[0]) {
			kernels[m] = k[i].kernel;
			offered[m++] = k[i].offered;
		}
	int rc = kernels && offered ? IOR_OK : ior_error_set(IOR_ERROR, "out of memory");
	struct ior_sched_common c;
	if (!rc && m >= 2 && !(rc = ior_sched_common_set(&c, kernels, offered, m))) {
		printf("  %s: %s\n", title, c.common[0] ? c.common : "(none)");
		for (size_t i = 0; i < c.n_left_out; i++)
			printf("    left out %s: %s\n", c.left_out[i].name, c.left_out[i].reason);
	}
	free(kernels);
	free(offered);
	return rc;
}

/* "built-in: mq-deadline; loaded: bfq kyber": how each scheduler came to be offered (Debian's
 * 6.1 builds mq-deadline in, 6.12 cloud loads it as a module). */
static void print_states(int width, const char *states)
{
	static const char *const kinds[] = { "built-in", "loaded", "loadable", "absent" };
	if (!states)
		return;
	printf("  %-*s  ", width, "");
	const char *sep = "";
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		bool any = false;
		char copy[1024];
		snprintf(copy, sizeof(copy), "%s", states);
		for (char *save, *tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
			char *colon = strchr(tok, ':');
			if (!colon || strcmp(colon + 1, kinds[k]))
				continue;
			*colon = '\0';
			if (!any)
				printf("%s%s:", sep, kinds[k]);
			printf(" %s", tok);
			any = true;
		}
		if (any)
			sep = "; ";
	}
	putchar('\n');
}

static int print_host(const struct kernel_offer *k, size_t n)
{
	printf("host %s\n", k[0].host);
	int width = 0;
	for (size_t i = 0; i < n; i++)
		if ((int)strlen(k[i].kernel) > width)
			width = (int)strlen(k[i].kernel);
	for (size_t i = 0; i < n; i++) {
		printf("  %-*s  %s\n", width, k[i].kernel, k[i].offered[0] ? k[i].offered : "(no scheduler list stored)");
		print_states(width, k[i].states);
	}
	size_t changes = 0, compared = 0;
	const struct kernel_offer *prev = NULL;
	for (size_t i = 0; i < n; i++) {
		if (!k[i].offered[0])
			continue;
		if (prev) {
			changes = print_changes(prev, &k[i], changes);
			compared++;
		}
		prev = &k[i];
	}
	if (compared && !changes)
		printf("  no scheduler appeared or vanished between consecutive kernels\n");
	return print_common("common to its kernels", k, n);
}

struct schedulers_args {
	struct ior_db_filter filter;   /* --host */
};

static int load(struct ior_db *db, const char *host, struct kernel_offer **out, size_t *count,
		char ***hosts, char ***kernels, size_t *npairs)
{
	int rc = ior_db_host_kernels(db, hosts, kernels, npairs);
	if (rc)
		return rc;
	struct kernel_offer *k = calloc(*npairs ? *npairs : 1, sizeof(*k));
	if (!k)
		return ior_error_set(IOR_ERROR, "out of memory");
	size_t n = 0;
	for (size_t i = 0; i < *npairs && !rc; i++) {
		if (host && strcmp((*hosts)[i], host) != 0)
			continue;
		k[n].host = (*hosts)[i];
		k[n].kernel = (*kernels)[i];
		rc = ior_db_offered(db, k[n].host, k[n].kernel, &k[n].offered);
		if (!rc)
			rc = ior_db_offered_states(db, k[n].host, k[n].kernel, &k[n].states);
		if (!rc && !k[n].offered && !(k[n].offered = calloc(1, 1)))
			rc = ior_error_set(IOR_ERROR, "out of memory");
		/* names come from databases anyone may have written (imports, merges, older
		 * versions that checked nothing): no hazard reaches the terminal as it is */
		ior_text_neutralise(k[n].offered);
		ior_text_neutralise(k[n].states);
		n++;
	}
	for (size_t i = 0; i < *npairs; i++)
		ior_text_neutralise((*hosts)[i]), ior_text_neutralise((*kernels)[i]);
	qsort(k, n, sizeof(*k), by_host_then_version);
	*out = k;
	*count = n;
	return rc;
}

static int cmd_schedulers(int argc, char **argv, struct ior_cmd_ctx *ctx)
{
	struct schedulers_args a = { 0 };
	struct ior_cmd_parsed p;
	int status = ior_cmd_parse_or_usage(&ior_cmd_schedulers, argc, argv, &a, &p);
	if (status)
		return status;
	const char *host = a.filter.host;
	struct kernel_offer *k = NULL;
	char **hosts = NULL, **kernels = NULL;
	size_t n = 0, npairs = 0;
	int rc = load(ctx->db, host, &k, &n, &hosts, &kernels, &npairs);
	if (!rc && n == 0 && host)
		printf("no kernels of host '%s' in '%s'\n", host, ctx->db_path);
	else if (!rc && n == 0)
		printf("no kernels in '%s'\n", ctx->db_path);
	for (size_t i = 0; !rc && i < n;) {
		size_t j = i;
		while (j < n && strcmp(k[j].host, k[i].host) == 0)
			j++;
		rc = print_host(&k[i], j - i);
		i = j;
	}
	/* across hosts too: the field tester compared all four kernels of two machines */
	if (!rc && n > 0 && strcmp(k[0].host, k[n - 1].host) != 0) {
		printf("all hosts\n");
		qsort(k, n, sizeof(*k), by_version);
		rc = print_common("common to all kernels", k, n);
	}
	if (rc)
		ior_cmd_error("cannot list schedulers");
	for (size_t i = 0; i < n; i++) {
		free(k[i].offered);
		free(k[i].states);
	}
	free(k);
	ior_db_host_kernels_free(hosts, kernels, npairs);
	return rc ? 1 : 0;
}

const struct ior_command ior_cmd_schedulers = {
	.name = "schedulers",
	.fn = cmd_schedulers,
	.flags = IOR_CMD_NEEDS_DB | IOR_CMD_DB_EXISTS,
	.error_status = 1,
	.summary = "which schedulers each kernel offered, and why they changed",
	.description = "Lists, per host and in version order, the schedulers each stored kernel offered; "
		       "explains each one that appeared or vanished between consecutive kernels from the "
		       "scheduler history (anticipatory removed in 2.6.33; noop, deadline and cfq in 5.0), "
		       "and names the schedulers common to all of them.",
	.options = (const struct ior_cmd_opt[]){ IOR_CMD_ROW_HOST(struct schedulers_args, filter), { 0 } },
};
