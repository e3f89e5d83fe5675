/* The CSV report: every raw sample joined with its context (the sample view's columns), one row a sample, RFC 4180. */
#include "reports/render.h"

#include "common/error.h"
#include "reports/escape.h"

#include <inttypes.h>
#include <string.h>

static const char header[] =
	"host,kernel,device,device_model,scheduler,engine,engine_type,params,run,run_status,run_started_at,rep_order,"
	"cell_status,rep,value,unit,higher_is_better,fill,bytes,ios,wall_s,usr_s,sys_s,lat_p50_us,lat_p99_us,"
	"lat_p999_us,lat_mean_us,clat_p50_us,clat_p99_us,clat_p999_us,clat_mean_us,measured_at\n";

static void field(FILE *out, const char *s)
{
	ior_esc_csv(out, s);
	fputc(',', out);
}

/* An empty field for a figure the source did not have (imports, engines without latency). */
static void number(FILE *out, bool known, double v, bool last)
{
	if (known)
		fprintf(out, "%.15g", v);
	fputc(last ? '\n' : ',', out);
}

static void sample(FILE *out, const struct ior_report *r, const struct ior_report_cell *c, size_t at)
{
	field(out, c->host);
	field(out, c->kernel);
	field(out, c->device);
	field(out, c->device_model);
	field(out, c->scheduler);
	field(out, c->engine);
	field(out, c->engine_type);
	field(out, c->params);
	fprintf(out, "%" PRId64 ",", c->run_id);
	field(out, c->run_status);
	field(out, c->run_started_at);
	field(out, c->rep_order);
	field(out, c->status);
	fprintf(out, "%d,%.15g,", r->reps[at], r->values[at]);
	field(out, c->unit);
	fprintf(out, "%d,", c->higher_is_better);
	const struct ior_report_sample_detail *d = r->detail ? &r->detail[at] : NULL;
	field(out, d ? d->fill : c->fill);
	bool timed = d && d->wall_s > 0;
	if (timed)
		fprintf(out, "%" PRIu64 ",%" PRIu64 ",", d->bytes, d->ios);
	else
		fputs(",,", out);
	number(out, timed, d ? d->wall_s : 0, false);
	number(out, timed, d ? d->usr_s : 0, false);
	number(out, timed, d ? d->sys_s : 0, false);
	bool lat = d && d->has_latency, clat = d && d->has_clat;
	number(out, lat, d ? d->lat_p50_us : 0, false);
	number(out, lat, d ? d->lat_p99_us : 0, false);
	number(out, lat, d ? d->lat_p999_us : 0, false);
	number(out, lat, d ? d->lat_mean_us : 0, false);
	number(out, clat, d ? d->clat_p50_us : 0, false);
	number(out, clat, d ? d->clat_p99_us : 0, false);
	number(out, clat, d ? d->clat_p999_us : 0, false);
	number(out, clat, d ? d->clat_mean_us : 0, false);
	ior_esc_csv(out, d ? d->measured_at : NULL);
	fputc('\n', out);
}

/* In --alerts mode only the samples of the cells an alert or a regression names: the evidence. */
static bool wanted(const struct ior_report *r, const struct ior_report_cell *c)
{
	if (!c->in_view)
		return false;
	if (!r->opts.alerts_only)
		return true;
	for (size_t i = 0; i < r->nalert_order; i++) {
		const struct ior_alert *a = &r->alerts[r->alert_order[i]];
		if (a->host == c->host && a->kernel == c->kernel && a->engine == c->engine && a->device == c->device &&
		    (a->kind == IOR_ALERT_DEVICE || a->scheduler == c->scheduler))
			return true;
	}
	for (size_t i = 0; i < r->nregression_order; i++) {
		const struct ior_report_verdict *v = &r->verdicts[r->regression_order[i]];
		const struct ior_rt_series *s = &r->rt->series[v->series];
		if (s->host == c->host && s->engine == c->engine && s->device == c->device && s->scheduler == c->scheduler &&
		    (c->kernel == r->baseline || c->kernel == r->candidate || !strcmp(c->kernel, r->baseline) ||
		     (r->candidate && !strcmp(c->kernel, r->candidate))))
			return true;
	}
	return false;
}

static int render_csv(FILE *out, const struct ior_report *r)
{
	fputs(header, out);
	for (size_t i = 0; i < r->ncells; i++) {
		const struct ior_report_cell *c = &r->cells[i];
		if (!wanted(r, c))
			continue;
		for (size_t k = 0; k < c->n; k++)
			sample(out, r, c, c->first + k);
	}
	return ferror(out) ? ior_error_set(IOR_ERROR, "cannot write the report") : IOR_OK;
}

const struct ior_renderer ior_renderer_csv = {
	.name = "csv",
	.summary = "every raw sample with its context (the sample view), for spreadsheets and scripts",
	.parts = IOR_REPORT_DETAIL,
	.render = render_csv,
};
