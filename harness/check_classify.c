/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `check --bad`: builds the model over the three kernels, classifies every cell, prints one line
 * per cell and the commit's verdict. */
#include "harness/check_classify.h"

#include "common/error.h"
#include "harness/command.h"
#include "judge/classify.h"

#include <string.h>

static int print(FILE *out, const struct ior_report *r, const struct ior_classified *e, const char *bad)
{
	const struct ior_report_opts *o = &r->opts;
	fprintf(out, "%s against good '%s' and bad '%s':\n", o->candidate, o->baseline, bad);
	for (size_t i = 0; i < e->n; i++) {
		const struct ior_rt_series *s = &r->rt->series[e->cells[i].series];
		fprintf(out, "  %-12s %-12s %-16s %-18s %s\n", s->device, s->scheduler ? s->scheduler : "-", s->engine,
			ior_class_name(e->cells[i].k.verdict), e->cells[i].k.reason);
	}
	fprintf(out, "%s: %zu cell(s) like the good end, %zu like the bad end, %zu cannot tell, %zu whose ends do not "
		"differ\n", e->verdict == IOR_CLASS_NO_GAP ? "no verdict" : ior_class_name(e->verdict), e->good, e->bad,
		e->undecided, e->no_gap);
	return ferror(out) ? ior_error_set(IOR_ERROR, "cannot write the verdict") : IOR_OK;
}

int ior_check_classify(FILE *out, struct ior_db *db, const struct ior_report_opts *o, const char *bad)
{
	if (!strcmp(bad, o->baseline) || !strcmp(bad, o->candidate)) {
		ior_cmd_error("the bad end '%s' is also the %s", bad, strcmp(bad, o->baseline) ? "candidate" : "baseline");
		return 128;
	}
	struct ior_report_opts ro = *o;
	const char *good = o->baseline;
	ro.baseline = NULL;   /* no two-kernel verdicts: the tables of all three are what is read */
	ro.parts = IOR_REPORT_TABLES;
	struct ior_report *r = NULL;
	struct ior_classified e;
	struct ior_judge_input in;
	int rc = ior_report_build(&r, db, &ro);
	if (!rc) {
		ior_report_judge_input(r, db, &in);
		rc = ior_judge_classify(&e, &in, good, bad, o->candidate, IOR_CLASSIFY_ALPHA);
	}
	if (rc) {
		ior_cmd_error_last();
		ior_report_free(r);
		return 128;
	}
	r->opts.baseline = good;
	int status = 128;
	if (print(out, r, &e, bad))
		ior_cmd_error_last();
	else if (e.verdict == IOR_CLASS_NO_GAP) {
		/* a message left from reading the releases (a label that is not a version) is not this error's detail */
		ior_error_clear();
		ior_cmd_error("the good end '%s' and the bad end '%s' do not differ on any cell: nothing to bisect", good, bad);
	} else
		status = e.verdict == IOR_CLASS_GOOD ? 0 : e.verdict == IOR_CLASS_BAD ? 1 : 125;
	ior_classified_free(&e);
	ior_report_free(r);
	return status;
}
