/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Explanations of scheduler changes between kernels, and the set of schedulers several kernels have
 * in common, from the history table. */
#include "kernel/sched_history.h"

#include "common/error.h"
#include "kernel/version.h"

#include <stdio.h>
#include <string.h>

/* Both queue types existed from blk-mq's arrival until the legacy path was removed. */
static const char both_queues_from[] = "3.13", both_queues_until[] = "5.0";

static bool both_queue_types(const char *release)
{
	long s = ior_kver_series(release);
	return s >= ior_kver_series(both_queues_from) && s < ior_kver_series(both_queues_until);
}

/* Why name is not offered on kernel (another kernel offered it). */
static enum ior_sched_change absent_reason(char *buf, size_t len, const char *name, const char *kernel)
{
	const struct ior_sched_info *s = ior_sched_lookup(name);
	if (s && !ior_sched_upstream(s, kernel) && ior_kver_series(kernel) >= 0) {
		if (s->removed && ior_kver_series(kernel) >= ior_kver_series(s->removed)) {
			const char *to = ior_sched_resolve(name, kernel);
			if (strcmp(to, name) != 0)
				snprintf(buf, len, "removed upstream in %s; '%s' now selects %s", s->removed, name, to);
			else
				snprintf(buf, len, "removed upstream in %s", s->removed);
		} else {
			snprintf(buf, len, "added upstream in %s", s->first);
		}
		return IOR_SCHED_UPSTREAM;
	}
	if (s && both_queue_types(kernel)) {
		if (s->queue == IOR_QUEUE_LEGACY)
			snprintf(buf, len, "a legacy-queue scheduler, which blk-mq devices do not offer (both queue "
				 "types existed from %s to before %s)", both_queues_from, both_queues_until);
		else
			snprintf(buf, len, "a blk-mq scheduler, which legacy-queue devices do not offer (before %s)",
				 both_queues_until);
		return IOR_SCHED_QUEUE_TYPE;
	}
	snprintf(buf, len, "not explained by upstream history (config or module packaging change)");
	return IOR_SCHED_UNEXPLAINED;
}

enum ior_sched_change ior_sched_explain(char *buf, size_t len, const char *name, const char *kernel_a,
					const char *kernel_b, bool offered_a, bool offered_b)
{
	if (len)
		buf[0] = '\0';
	if (offered_a == offered_b)
		return IOR_SCHED_UNCHANGED;
	char reason[384];
	enum ior_sched_change kind = absent_reason(reason, sizeof(reason), name, offered_a ? kernel_b : kernel_a);
	if (offered_a)
		snprintf(buf, len, "%s: offered on %s, absent on %s — %s", name, kernel_a, kernel_b, reason);
	else
		snprintf(buf, len, "%s: absent on %s, offered on %s — %s", name, kernel_a, kernel_b, reason);
	return kind;
}

/* Next whitespace-separated token of a sysfs list, without the [] that marks the active one. */
static bool next_token(const char **p, char *tok, size_t len)
{
	const char *s = *p;
	while (*s == ' ' || *s == '\t' || *s == '\n')
		s++;
	if (!*s)
		return false;
	const char *e = s;
	while (*e && *e != ' ' && *e != '\t' && *e != '\n')
		e++;
	*p = e;
	const char *b = s;
	if (*b == '[')
		b++;
	if (e > b && e[-1] == ']')
		e--;
	snprintf(tok, len, "%.*s", (int)(e > b ? e - b : 0), b);
	return true;
}

bool ior_sched_list_has(const char *list, const char *name)
{
	char tok[64];
	for (const char *p = list ? list : ""; next_token(&p, tok, sizeof(tok));)
		if (strcmp(tok, name) == 0)
			return true;
	return false;
}

/* Every distinct name over all lists, in first-seen order. */
static int collect_names(char names[IOR_SCHED_MAX][32], size_t *count, const char *const *offered, size_t n)
{
	*count = 0;
	for (size_t i = 0; i < n; i++) {
		char tok[64];
		for (const char *p = offered[i] ? offered[i] : ""; next_token(&p, tok, sizeof(tok));) {
			bool seen = false;
			for (size_t j = 0; j < *count && !seen; j++)
				seen = strcmp(names[j], tok) == 0;
			if (seen || !tok[0])
				continue;
			if (*count == IOR_SCHED_MAX || strlen(tok) >= 32)
				return ior_error_set(IOR_EINVALID, "scheduler list '%s' has too many or too long names",
						     offered[i]);
			strcpy(names[(*count)++], tok);
		}
	}
	return IOR_OK;
}

static void append(char *buf, size_t len, const char *fmt, const char *a, const char *b)
{
	size_t used = strlen(buf);
	if (used < len)
		snprintf(buf + used, len - used, fmt, a, b);
}

/* "not offered on A, B — reason" when the kernels share a reason, else one clause per kernel. */
static void left_out_reason(struct ior_sched_left_out *lo, const char *const *kernels,
			    const char *const *offered, size_t n)
{
	char first[384] = "", reason[384];
	bool same = true;
	lo->kind = IOR_SCHED_UPSTREAM;
	for (size_t i = 0; i < n; i++) {
		if (ior_sched_list_has(offered[i], lo->name))
			continue;
		enum ior_sched_change kind = absent_reason(reason, sizeof(reason), lo->name, kernels[i]);
		if (kind > lo->kind)
			lo->kind = kind;
		if (!first[0])
			snprintf(first, sizeof(first), "%s", reason);
		else if (strcmp(first, reason) != 0)
			same = false;
	}
	lo->reason[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		if (ior_sched_list_has(offered[i], lo->name))
			continue;
		absent_reason(reason, sizeof(reason), lo->name, kernels[i]);
		if (same)
			append(lo->reason, sizeof(lo->reason), lo->reason[0] ? ", %s%s" : "not offered on %s%s",
			       kernels[i], "");
		else
			append(lo->reason, sizeof(lo->reason), lo->reason[0] ? "; not offered on %s — %s" :
				"not offered on %s — %s", kernels[i], reason);
	}
	if (same)
		append(lo->reason, sizeof(lo->reason), " — %s%s", first, "");
}

int ior_sched_common_set(struct ior_sched_common *out, const char *const *kernels,
			 const char *const *offered, size_t n)
{
	memset(out, 0, sizeof(*out));
	char names[IOR_SCHED_MAX][32];
	size_t count;
	int rc = collect_names(names, &count, offered, n);
	if (rc)
		return rc;
	for (size_t j = 0; j < count; j++) {
		bool everywhere = true;
		for (size_t i = 0; i < n && everywhere; i++)
			everywhere = ior_sched_list_has(offered[i], names[j]);
		if (everywhere) {
			append(out->common, sizeof(out->common), "%s%s", out->common[0] ? " " : "", names[j]);
			continue;
		}
		struct ior_sched_left_out *lo = &out->left_out[out->n_left_out++];
		strcpy(lo->name, names[j]);
		left_out_reason(lo, kernels, offered, n);
	}
	return IOR_OK;
}
