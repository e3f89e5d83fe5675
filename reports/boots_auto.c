/* SPDX-License-Identifier: GPL-2.0-or-later */
/* How far `vm run --boots auto` has come: the report model's kernel verdicts over one vm run's
 * boots, counted, with each undecided cell in words. */
#include "reports/boots_auto.h"

#include "common/error.h"
#include "db/metric.h"
#include "reports/model.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int add_line(char **text, size_t *len, const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	va_start(ap, fmt);
	int k = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	size_t add = k < 0 ? 0 : (size_t)k < sizeof(line) ? (size_t)k : sizeof(line) - 1;
	char *grown = realloc(*text, *len + add + 1);
	if (!grown)
		return ior_error_set(IOR_ERROR, "out of memory");
	memcpy(grown + *len, line, add + 1);
	*text = grown;
	*len += add;
	return IOR_OK;
}

/* One kernel against the baseline: its verdicts counted, the undecided ones described. */
static int one_pair(struct ior_boots_progress *p, size_t *len, struct ior_db *db, const char *host, const char *vm_run,
		    const char *base, const char *cand, enum ior_metric m)
{
	struct ior_report_opts o;
	ior_report_opts_default(&o);
	o.parts = IOR_REPORT_VERDICTS;
	o.host = host, o.vm_run = vm_run, o.baseline = base, o.candidate = cand;
	o.metrics = IOR_METRIC_BIT(m);
	struct ior_report *r = NULL;
	int rc = ior_report_build(&r, db, &o);
	if (rc == IOR_ENOTFOUND) {   /* a kernel with no sample yet (its boots failed so far) */
		ior_error_clear();
		return add_line(&p->undecided, len, "%s vs %s: no samples of one of them yet\n", cand, base);
	}
	for (size_t i = 0; !rc && i < r->nverdicts; i++) {
		const struct ior_judge_verdict *v = &r->verdicts[i];
		p->cells++;
		if (v->c.verdict != IOR_VERDICT_INCONCLUSIVE) {
			p->decided++;
			continue;
		}
		char noise[256] = "judged on the samples, not on boots";
		if (v->by_boot)
			ior_boot_noise_text(noise, sizeof(noise), &v->boots);
		rc = add_line(&p->undecided, len, "%s vs %s: %s %s %s%s%s: %s\n", cand, base, v->device,
			      v->scheduler ? v->scheduler : "-", v->engine, m == IOR_METRIC_VALUE ? "" : " ",
			      m == IOR_METRIC_VALUE ? "" : ior_metric_info(m)->name, noise);
	}
	if (!rc && r->verdict_only_baseline) {
		p->cells += r->verdict_only_baseline;
		rc = add_line(&p->undecided, len, "%s vs %s: %zu cell(s) not measured on %s yet\n", cand, base,
			      r->verdict_only_baseline, cand);
	}
	ior_report_free(r);
	return rc;
}

int ior_boots_progress(struct ior_boots_progress *p, struct ior_db *db, const char *host, const char *vm_run,
		       const char *const *releases, size_t n, enum ior_metric m)
{
	memset(p, 0, sizeof(*p));
	size_t len = 0;
	int rc = IOR_OK;
	for (size_t k = 1; !rc && k < n; k++)
		if (strcmp(releases[k], releases[0]))
			rc = one_pair(p, &len, db, host, vm_run, releases[0], releases[k], m);
	if (rc)
		ior_boots_progress_free(p);
	return rc;
}

void ior_boots_progress_free(struct ior_boots_progress *p)
{
	free(p->undecided);
	memset(p, 0, sizeof(*p));
}
