/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The way of the user's commands: build once per commit, then boot (when given) and measure, each a
 * shell command in the work tree; remembered so a resumed run needs none repeated. */
#include "bisect/way.h"

#include "common/error.h"

static bool takes(const struct ior_bisect_session *s)
{
	(void)s;
	return true;   /* a git source with no kernel config: what every other way leaves */
}

static int open_commands(struct ior_bisect_session *s)
{
	const struct ior_bisect_commands *c = &s->o.c;
	if (!c->measure)
		return ior_error_set(IOR_EINVALID, "'bisect run' needs --measure CMD");
	/* Without an artifact nothing puts a commit's own build back before it is measured: git leaves
	 * the last build's untracked output in the tree when it checks out the next commit. */
	if (!c->image)
		fprintf(stderr, "warning: no --artifact named: commits that build identical output are measured and "
			"judged one by one%s (name the build output, e.g. --artifact build/bin/tool)\n",
			c->build ? ", and the measure must itself run the build kept for $IOREGRESS_COMMIT: checking "
				   "a commit out leaves the last build's output in the tree" : "");
	/* made first: an --artifact outside the tree is refused before it is remembered */
	int rc = ior_bisect_measure_commands(&s->m, c);
	if (!rc)
		rc = ior_bisect_set_commands(s->db, s->b.id, c->measure, c->build, c->boot, c->image);
	return rc;
}

const struct ior_bisect_way ior_bisect_way_commands = {
	.name = "commands", .takes = takes, .open = open_commands,
};
