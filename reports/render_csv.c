/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The CSV report: every raw sample joined with its context (the sample view's columns), one row a sample, RFC 4180. */
#include "reports/render.h"

#include "common/error.h"
#include "reports/escape.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* The sample view's columns before the measures (db/metric.c's column table names those) and after them. */
static const char header_head[] =
	"host,kernel,device,device_model,scheduler,engine,engine_type,params,run,run_status,run_started_at,rep_order,"
	"cell_status,rep,value,unit,higher_is_better,fill,";
static const char header_tail[] = "measured_at,warmup\n";

static void header(FILE *out)
{
	fputs(header_head, out);
	for (size_t i = 0; i < ior_measure_column_count(); i++)
		if (ior_measure_column_at(i)->in_csv)
			fprintf(out, "%s,", ior_measure_column_at(i)->name);
	fputs(header_tail, out);
}

/* Appends s as a CSV field and a comma to the line being built. */
static void field(FILE *line, const char *s)
{
	ior_esc_csv(line, s);
	fputc(',', line);
}

/* A figure the source did not have (imports, engines without latency) is an empty field. */
static char *number(char *at, bool known, double v, char sep)
{
	if (known)
		at += ior_num_format(at, 48, v);
	*at++ = sep;
	return at;
}

/* The columns every sample of a cell shares, escaped once per cell rather than once per sample. */
static char *cell_prefix(const struct ior_stored_cell *c, size_t *len)
{
	char *buf = NULL;
	FILE *line = open_memstream(&buf, len);
	if (!line)
		return NULL;
	field(line, c->host);
	field(line, c->kernel);
	field(line, c->device);
	field(line, c->device_model);
	field(line, c->scheduler);
	field(line, c->engine);
	field(line, c->engine_type);
	field(line, c->params);
	fprintf(line, "%" PRId64 ",", c->run_id);
	field(line, c->run_status);
	field(line, c->run_started_at);
	field(line, c->rep_order);
	field(line, c->status);
	if (fclose(line)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* Digits of v and sep, without printf (a million rows). */
static char *integer(char *at, uint64_t v, char sep)
{
	char tmp[24];
	size_t n = 0;
	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*at++ = tmp[--n];
	*at++ = sep;
	return at;
}

static void sample(FILE *out, const struct ior_report *r, const struct ior_stored_cell *c, const char *unit, size_t at)
{
	char row[1024], *p = row;
	p = integer(p, (uint64_t)(r->stored.reps[at] > 0 ? r->stored.reps[at] : 0), ',');
	p = number(p, true, r->stored.values[at], ',');
	*p = 0;
	fputs(row, out);
	fputs(unit, out);
	const struct ior_report_sample_detail *d = r->detail ? &r->detail[at] : NULL;
	const char *fill = d ? d->fill : c->fill;
	p = row;
	*p++ = ',';
	*p++ = c->higher_is_better ? '1' : '0';
	*p++ = ',';
	for (const char *f = fill; f && *f; f++)  /* one of three words: nothing to escape */
		*p++ = *f;
	*p++ = ',';
	for (size_t i = 0; i < ior_measure_column_count(); i++) {
		const struct ior_measure_column *m = ior_measure_column_at(i);
		if (!m->in_csv)
			continue;
		if (p - row > (ptrdiff_t)sizeof(row) - 64) {  /* room for the next figure */
			*p = 0;
			fputs(row, out);
			p = row;
		}
		bool known = d && ior_measures_known(&d->m, m->group);  /* a figure the source did not have is empty */
		if (m->integer && known)
			p = integer(p, ior_measures_u64(&d->m, m), ',');
		else
			p = number(p, known, known ? ior_measures_real(&d->m, m) : 0, ',');
	}
	*p = 0;
	fputs(row, out);
	ior_esc_csv(out, d ? d->measured_at : NULL);
	fputs(r->stored.warmup && r->stored.warmup[at] ? ",1\n" : ",0\n", out);
}

/* In --alerts mode only the samples of the cells in view an alert or a regression names: the evidence. */
static bool wanted(const struct ior_report *r, const struct ior_stored_cell *c)
{
	if (!r->opts.alerts_only)
		return true;
	for (size_t i = 0; i < r->nalert_order; i++) {
		const struct ior_alert *a = &r->alerts[r->alert_order[i]];
		if (a->host == c->host && a->kernel == c->kernel && a->engine == c->engine && a->device == c->device &&
		    (a->kind == IOR_ALERT_DEVICE || a->scheduler == c->scheduler))
			return true;
	}
	for (size_t i = 0; i < r->nregression_order; i++) {
		const struct ior_judge_verdict *v = &r->verdicts[r->regression_order[i]];
		if (v->host == c->host && v->engine == c->engine && v->device == c->device && v->scheduler == c->scheduler &&
		    (c->kernel == r->baseline || c->kernel == r->candidate || !strcmp(c->kernel, r->baseline) ||
		     (r->candidate && !strcmp(c->kernel, r->candidate))))
			return true;
	}
	return false;
}

static int render_csv(FILE *out, const struct ior_report *r)
{
	header(out);
	for (size_t i = 0; i < r->view.nstored; i++) {
		const struct ior_stored_cell *c = &r->stored.cells[r->view.stored[i]];
		if (!wanted(r, c) || !c->n)
			continue;
		size_t len;
		char *prefix = cell_prefix(c, &len);
		char *unit = NULL;
		size_t ulen;
		FILE *u = open_memstream(&unit, &ulen);
		if (u) {
			ior_esc_csv(u, c->unit);
			fclose(u);
		}
		if (!prefix || !unit) {
			free(prefix);
			free(unit);
			return ior_error_set(IOR_ERROR, "out of memory");
		}
		for (size_t k = 0; k < c->n; k++) {
			fwrite(prefix, 1, len, out);
			sample(out, r, c, unit, c->first + k);
		}
		free(prefix);
		free(unit);
	}
	return IOR_OK;
}

const struct ior_renderer ior_renderer_csv = {
	.name = "csv",
	.summary = "every raw sample with its context (the sample view), for spreadsheets and scripts",
	.parts = IOR_REPORT_DETAIL,  /* the cells and their samples: no tables, no statistics */
	.render = render_csv,
};
