/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `bisect run` as a session: the current bisection, its way of measuring and its candidate source
 * opened, driven to an answer, and the work tree put back however the run ended. */
#include "bisect/session.h"
#include "bisect/artifact.h"
#include "bisect/way.h"

#include "common/error.h"

#include <stdlib.h>
#include <string.h>

static const struct ior_bisect_way *const ways[] = {
#define X(name) &ior_bisect_way_##name,
	IOR_BISECT_WAYS
#undef X
};

int ior_bisect_source_of(const struct ior_bisect_info *b, struct ior_bisect_source **src)
{
	if (strcmp(b->source, "packages"))
		return ior_bisect_source_git(src, b->repo);
	const char *names[256];
	size_t n = 0;
	char *copy = strdup(b->kernels ? b->kernels : ""), *save = NULL;
	if (!copy)
		return ior_error_set(IOR_ERROR, "out of memory");
	for (char *t = strtok_r(copy, " ", &save); t && n < 256; t = strtok_r(NULL, " ", &save))
		names[n++] = t;
	int rc = ior_bisect_source_packages(src, names, n);
	free(copy);
	return rc;
}

int ior_bisect_session_open(struct ior_bisect_session **out, struct ior_db *db, const struct ior_bisect_run_opts *o)
{
	struct ior_bisect_session *s = *out = calloc(1, sizeof(*s));
	if (!s)
		return ior_error_set(IOR_ERROR, "out of memory");
	s->db = db;
	s->o = *o;
	if (ior_bisect_current(db, &s->b))
		return IOR_ERROR;
	/* commands and matrix default to the last run's, so a resumed bisection needs none repeated */
	struct ior_bisect_commands *c = &s->o.c;
	c->measure = c->measure ? c->measure : s->b.measure_cmd;
	c->build = c->build ? c->build : s->b.build_cmd;
	c->boot = c->boot ? c->boot : s->b.boot_cmd;
	c->image = c->image ? c->image : s->b.image;
	c->repo = s->b.repo;
	s->o.matrix = s->o.matrix ? s->o.matrix : s->b.matrix;
	/* artifact stores a killed run left (their owner's lock is free) */
	size_t stale = 0;
	if (!ior_bisect_artifact_stores_clean(&stale) && stale)
		fprintf(stderr, "bisect: removed %zu artifact store(s) left by a run that was killed\n", stale);
	ior_error_clear();
	int rc = strcmp(s->b.source, "packages") ? ior_bisect_kconfig_get(db, s->b.id, &s->kconfig) : IOR_OK;
	for (size_t i = 0; !rc && !s->way && i < sizeof(ways) / sizeof(ways[0]); i++)
		if (ways[i]->takes(s))
			s->way = ways[i];
	if (!rc)
		rc = s->way->open(s);
	if (!rc)
		rc = ior_bisect_source_of(&s->b, &s->src);
	if (!rc && c->image)
		rc = ior_bisect_source_git_output(s->src, c->image);
	return rc;
}

int ior_bisect_session_run(struct ior_bisect_session *s, struct ior_bisect_result *res)
{
	struct ior_bisect_driver d = { .db = s->db, .src = s->src, .m = s->m, .o = s->o.o, .out = s->o.out,
				       .budget_s = s->o.budget_s };
	s->drove = true;
	int rc = ior_bisect_drive(&d, res);
	if (rc)
		return rc;
	fprintf(s->o.out, "%zu build(s), %zu measurement(s), %zu sample(s)\n", res->counts.builds,
		res->counts.measurements, res->counts.samples);
	return s->way->answer ? s->way->answer(s, res) : IOR_OK;
}

int ior_bisect_session_close(struct ior_bisect_session *s, int rc)
{
	if (!s)
		return rc;
	/* However the run ends (an answer, a refusal, an end that cannot be measured, a stop request, a
	 * failed build or artifact walk), the tree goes back to what was checked out at start: the state
	 * stays in the database and 'bisect run' checks the candidate out again. Only a SIGKILL leaves the
	 * candidate checked out (the next run or 'bisect reset' puts it right). */
	if (s->drove && strcmp(s->b.source, "packages") && s->b.orig_head) {
		struct ior_error_state first;
		ior_error_save(&first, rc);
		int back = ior_bisect_git_restore(s->b.repo, s->b.orig_head, s->o.c.image);
		if (!back)
			fprintf(s->o.out, "work tree back at %.*s, as at 'bisect start'\n", ior_bisect_id_width(s->b.orig_head),
				s->b.orig_head);
		else if (rc)   /* the first error is the one reported: this one is said on the way */
			fprintf(stderr, "error: %s\n", ior_error_last());
		rc = ior_error_restore(&first, back);
	}
	if (s->drove && s->way && s->way->finish)
		rc = s->way->finish(s, rc);
	if (s->way && s->way->close)
		s->way->close(s);
	ior_bisect_measure_free(s->m);
	ior_bisect_source_free(s->src);
	ior_bisect_kconfig_free(&s->kconfig);
	ior_bisect_info_free(&s->b);
	free(s);
	return rc;
}
