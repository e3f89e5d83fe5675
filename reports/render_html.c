/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The HTML report: one self-contained page (inline CSS and SVG, no script, nothing fetched) with
 * alerts first, a heat-map overview, full charts for the cells that need a look, raw samples, and
 * every table. */
#include "reports/render.h"

#include "common/error.h"
#include "reports/escape.h"
#include "reports/svg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A chart shows at most this many kernels, around the one that matters (change, alert, candidate). */
#define CHART_KERNELS 40
/* Past this many groups in view the per-kernel tables give way to the heat map (and to csv/json). */
#define FULL_TABLES_MAX 60
/* All verdict cells are charted up to this many; past it only regressions and improvements. */
#define CHART_ALL_VERDICTS_MAX 50

static const char style[] =
	"body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222;max-width:1400px}"
	"h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ccc}"
	/* a heading carrying an engine's parameter string breaks inside it rather than run off the page;
	 * a kernel release never breaks at its dashes */
	"h2,h3{overflow-wrap:anywhere}table.alerts td:nth-child(3),table.alerts td:nth-child(12){white-space:nowrap}"
	".heatmap text{font-size:12px}"
	"table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ddd;padding:2px 6px;text-align:right}"
	"td.l,th.l{text-align:left}.alert{background:#fff4f0}.reg{background:#ffe8e8}.ok{color:#080}"
	"svg text{font:11px sans-serif;fill:#333}.t{font-weight:bold}.yl{text-anchor:end}.xl{text-anchor:start}"
	".ax{stroke:#555}.grid{stroke:#eee}.box{fill:#cde;stroke:#468}.med{stroke:#024;stroke-width:2}"
	".wh{stroke:#468}.dot{stroke:#c40;stroke-opacity:.7;stroke-width:4.4;stroke-linecap:round;fill:none}.mk .box{fill:#fdc}.line{fill:none;stroke:#246;stroke-width:2}"
	".pt{fill:#246}.cp{stroke:#c00;stroke-dasharray:4 3;stroke-width:2}.cpl{fill:#c00}.bar{fill:#8ab}"
	".hot{fill:#d43}.thr{stroke:#c00;stroke-dasharray:6 3}.thl{fill:#c00;text-anchor:end}"
	".spark polyline{fill:none;stroke:#246}.spark circle{fill:#c00}.hl{text-anchor:start}.hr{text-anchor:end}"
	"tr.why td{font-size:.9em;border-top:none;padding-bottom:6px}.legend span{display:inline-block;width:1em;height:1em;vertical-align:middle;margin:0 .3em}";

static void text(FILE *out, const char *s)
{
	ior_esc_xml(out, s);
}

static void td(FILE *out, const char *s)
{
	fputs("<td class=\"l\">", out);
	text(out, s);
	fputs("</td>", out);
}

/* --- which series get full charts ----------------------------------------------- */

struct marks {
	bool *cell;      /* per cell series: charted */
	bool *device;    /* per device series: charted */
	size_t ncharts;
};

static int mark(struct marks *m, const struct ior_report *r)
{
	const struct ior_tables *rt = r->rt;
	m->cell = calloc(rt->nseries ? rt->nseries : 1, sizeof(bool));
	m->device = calloc(rt->ndseries ? rt->ndseries : 1, sizeof(bool));
	if (!m->cell || !m->device)
		return ior_error_set(IOR_ERROR, "out of memory");
	for (size_t i = 0; i < r->nalert_order; i++) {
		const struct ior_alert *a = &r->alerts[r->alert_order[i]];
		const struct ior_rt_group *g = &rt->groups[a->group];
		if (a->kind == IOR_ALERT_CELL)
			m->cell[g->cells[a->index].series] = true;
		else
			m->device[g->devices[a->index].series] = true;
	}
	for (size_t i = 0; i < r->view.nchanges; i++)
		if (r->changes[r->view.changes[i]].ncp)
			m->cell[r->changes[r->view.changes[i]].series] = true;
	for (size_t i = 0; i < r->nverdicts; i++) {
		enum ior_verdict v = r->verdicts[i].c.verdict;
		if (r->nverdicts <= CHART_ALL_VERDICTS_MAX || v == IOR_VERDICT_REGRESSION || v == IOR_VERDICT_IMPROVEMENT)
			m->cell[r->verdicts[i].series] = true;
	}
	for (size_t i = 0; i < rt->nseries; i++)
		m->ncharts += m->cell[i] ? 2 : 0;
	for (size_t i = 0; i < rt->ndseries; i++)
		m->ncharts += m->device[i];
	return IOR_OK;
}

static size_t position_of(const struct ior_rt_series *s, size_t group)
{
	const struct ior_rt_member *m = ior_rt_member_in(s, group);
	return m ? (size_t)(m - s->m) : s->n - 1;
}

/* The kernel a chart of series si centres on: its first change point, else the kernel of its
 * worst alert, else the verdict's candidate, else its newest kernel. */
static size_t focus(const struct ior_report *r, size_t si)
{
	const struct ior_rt_series *s = &r->rt->series[si];
	for (size_t i = 0; i < r->nchanges; i++)
		if (r->changes[i].series == si && r->changes[i].ncp)
			return r->changes[i].cp[0].index;
	for (size_t i = 0; i < r->nalert_order; i++) {
		const struct ior_alert *a = &r->alerts[r->alert_order[i]];
		if (a->kind == IOR_ALERT_CELL && r->rt->groups[a->group].cells[a->index].series == si)
			return position_of(s, a->group);
	}
	for (size_t i = 0; i < r->nverdicts; i++)
		if (r->verdicts[i].series == si)
			return position_of(s, r->verdicts[i].cand_group);
	return s->n - 1;
}

static void window(size_t n, size_t at, size_t *lo, size_t *hi)
{
	*lo = 0;
	*hi = n;
	if (n <= CHART_KERNELS)
		return;
	*lo = at > CHART_KERNELS / 2 ? at - CHART_KERNELS / 2 : 0;
	if (*lo + CHART_KERNELS > n)
		*lo = n - CHART_KERNELS;
	*hi = *lo + CHART_KERNELS;
}

static bool is_change(const struct ior_report *r, size_t si, size_t k)
{
	for (size_t i = 0; i < r->nchanges; i++)
		if (r->changes[i].series == si)
			for (size_t c = 0; c < r->changes[i].ncp; c++)
				if (r->changes[i].cp[c].index == k)
					return true;
	return false;
}

static void series_name(char *buf, size_t len, const struct ior_rt_series *s)
{
	snprintf(buf, len, "%s, %s%s%s%s, %s %s", s->host, s->engine, s->params ? " [" : "", s->params ? s->params : "",
		 s->params ? "]" : "", s->device, ior_render_sched(s->scheduler));
}

static int cell_charts(FILE *out, const struct ior_report *r, size_t si)
{
	const struct ior_rt_series *s = &r->rt->series[si];
	size_t lo, hi;
	window(s->n, focus(r, si), &lo, &hi);
	struct ior_svg_column *cols = calloc(hi - lo, sizeof(*cols));
	if (!cols)
		return ior_error_set(IOR_ERROR, "out of memory");
	for (size_t k = lo; k < hi; k++) {
		const struct ior_rt_group *g = &r->rt->groups[s->m[k].group];
		const struct ior_rt_cell *c = &g->cells[s->m[k].index];
		cols[k - lo] = (struct ior_svg_column){ .label = g->kernel, .values = c->values, .n = c->n, .min = c->st.min,
							.q1 = c->st.q1, .median = c->st.median, .q3 = c->st.q3,
							.max = c->st.max, .marked = is_change(r, si, k) };
	}
	char name[600], title[700], id[64];
	series_name(name, sizeof(name), s);
	fprintf(out, "<section class=\"cell\" id=\"cell-%zu\"><h3>", si);
	text(out, name);
	fprintf(out, "</h3><p><a href=\"#raw-%zu\">raw samples</a>%s</p>\n", si,
		hi - lo < s->n ? " (chart shows the kernels around the change; the table has them all)" : "");
	snprintf(title, sizeof(title), "every sample per kernel: %s", name);
	snprintf(id, sizeof(id), "dots-%zu", si);
	struct ior_svg_chart ch = { .title = title, .unit = r->rt->groups[s->m[0].group].unit, .id = id, .cols = cols,
				    .ncols = hi - lo, .threshold = NAN };
	ior_svg_dots_box(out, &ch);
	snprintf(title, sizeof(title), "median per kernel, change points dashed: %s", name);
	snprintf(id, sizeof(id), "series-%zu", si);
	ior_svg_series(out, &ch);
	fputs("</section>\n", out);
	free(cols);
	return IOR_OK;
}

static const struct ior_alert *device_alert_at(const struct ior_report *r, size_t group, size_t index)
{
	for (size_t i = 0; i < r->nalert_order; i++) {
		const struct ior_alert *a = &r->alerts[r->alert_order[i]];
		if (a->kind == IOR_ALERT_DEVICE && a->group == group && a->index == index)
			return a;
	}
	return NULL;
}

static int device_chart(FILE *out, const struct ior_report *r, size_t di)
{
	const struct ior_rt_series *s = &r->rt->dseries[di];
	size_t at = s->n - 1;
	for (size_t k = 0; k < s->n; k++)
		if (device_alert_at(r, s->m[k].group, s->m[k].index))
			at = k;
	size_t lo, hi;
	window(s->n, at, &lo, &hi);
	struct ior_svg_column *cols = calloc(hi - lo, sizeof(*cols));
	if (!cols)
		return ior_error_set(IOR_ERROR, "out of memory");
	for (size_t k = lo; k < hi; k++) {
		const struct ior_rt_group *g = &r->rt->groups[s->m[k].group];
		const struct ior_rt_device *d = &g->devices[s->m[k].index];
		cols[k - lo] = (struct ior_svg_column){ .label = g->kernel, .n = 1, .min = 0, .max = d->st.spread,
							.median = d->st.spread,
							.marked = device_alert_at(r, s->m[k].group, s->m[k].index) != NULL };
	}
	char title[700], id[64], thr[96];
	snprintf(title, sizeof(title), "spread (max-min)/min per kernel: %s, %s, device %s", s->host, s->engine, s->device);
	snprintf(id, sizeof(id), "spread-%zu", di);
	snprintf(thr, sizeof(thr), "alert floor %.0f%% (and %.1fx the peers' median)", r->opts.alerts.floor * 100,
		 r->opts.alerts.peer_ratio);
	fprintf(out, "<section class=\"device\" id=\"device-%zu\">", di);
	struct ior_svg_chart ch = { .title = title, .unit = "spread", .id = id, .cols = cols, .ncols = hi - lo,
				    .threshold = r->opts.alerts.floor, .threshold_label = thr };
	ior_svg_spread(out, &ch);
	fputs("</section>\n", out);
	free(cols);
	return IOR_OK;
}

/* --- alerts and regressions ----------------------------------------------------- */

static void spark_of_series(FILE *out, const struct ior_report *r, const struct ior_rt_series *s, bool devices,
			    bool spreads, size_t group)
{
	double v[CHART_KERNELS];
	size_t at = 0;
	while (at < s->n && s->m[at].group != group)
		at++;
	size_t lo, hi;
	window(s->n, at < s->n ? at : s->n - 1, &lo, &hi);
	for (size_t k = lo; k < hi; k++) {
		const struct ior_rt_group *g = &r->rt->groups[s->m[k].group];
		const struct ior_stats *st = devices ? &g->devices[s->m[k].index].st : &g->cells[s->m[k].index].st;
		v[k - lo] = spreads ? st->spread : st->median;
	}
	ior_svg_sparkline(out, v, hi - lo, at - lo);
}

static void alert_rows(FILE *out, const struct ior_report *r)
{
	char words[1600];
	for (size_t i = 0; i < r->nalert_order; i++) {
		const struct ior_alert *a = &r->alerts[r->alert_order[i]];
		const struct ior_rt_group *g = &r->rt->groups[a->group];
		bool dev = a->kind == IOR_ALERT_DEVICE;
		size_t series = dev ? g->devices[a->index].series : g->cells[a->index].series;
		/* a cell whose repetitions follow a trend says which, not "variance" */
		fprintf(out, "<tr class=\"alert\"><td class=\"l\">%s</td>",
			a->trend.kind != IOR_TREND_NONE ? ior_trend_name(a->trend.kind) : "variance");
		td(out, a->host);
		td(out, a->kernel);
		td(out, a->engine);
		td(out, a->device);
		td(out, dev ? "(all)" : ior_render_sched(a->scheduler));
		fprintf(out, "<td>spread %.1f%%</td><td>threshold %.1f%%</td><td>%.1fx</td><td>%zu</td><td>-</td><td>", a->spread * 100,
			a->threshold * 100, a->severity, a->n);
		spark_of_series(out, r, dev ? &r->rt->dseries[series] : &r->rt->series[series], dev, true, a->group);
		ior_alert_describe(words, sizeof(words), a);
		fputs("</td></tr>\n<tr class=\"alert why\"><td colspan=\"12\" class=\"l\">", out);
		text(out, words);
		if (dev)
			fprintf(out, " <a href=\"#device-%zu\">chart</a> <a href=\"#raw-device-%zu\">samples</a>", series, series);
		else
			fprintf(out, " <a href=\"#cell-%zu\">chart</a> <a href=\"#raw-%zu\">samples</a>", series, series);
		fputs("</td></tr>\n", out);
	}
}

static void regression_rows(FILE *out, const struct ior_report *r)
{
	for (size_t i = 0; i < r->nregression_order; i++) {
		const struct ior_judge_verdict *v = &r->verdicts[r->regression_order[i]];
		const struct ior_rt_series *s = &r->rt->series[v->series];
		const struct ior_comparison *c = &v->c;
		fputs("<tr class=\"reg\"><td class=\"l\">regression</td>", out);
		td(out, v->host);
		td(out, r->candidate);
		td(out, v->engine);
		td(out, v->device);
		td(out, v->metric == IOR_METRIC_VALUE ? ior_render_sched(v->scheduler) : ior_render_metric(v));
		fprintf(out, "<td>%+.1f%%</td><td>%+.1f%% .. %+.1f%%</td><td>p %.3g (MW), %.3g (Welch)</td><td>%zu / %zu</td><td>%.2f &#8594; %.2f</td><td>",
			(c->ratio - 1) * 100, (c->ratio_lo - 1) * 100, (c->ratio_hi - 1) * 100, c->mw.p, c->welch.p, c->na, c->nb,
			c->median_a, c->median_b);
		spark_of_series(out, r, s, false, false, v->cand_group);
		fputs("</td></tr>\n<tr class=\"reg why\"><td colspan=\"12\" class=\"l\">", out);
		text(out, c->reason);
		fprintf(out, " <a href=\"#cell-%zu\">chart</a> <a href=\"#raw-%zu\">samples</a></td></tr>\n", v->series, v->series);
	}
}

static void alerts_section(FILE *out, const struct ior_report *r)
{
	fprintf(out, "<h2 id=\"alerts\">Alerts and regressions, most severe first (%zu regression(s), %zu variance alert(s))</h2>\n",
		r->nregression_order, r->nalert_order);
	if (!r->nregression_order && !r->nalert_order) {
		fputs("<p class=\"ok\">None.</p>\n", out);
		return;
	}
	fputs("<table class=\"alerts\"><tr><th class=\"l\">kind</th><th class=\"l\">host</th><th class=\"l\">kernel</th><th class=\"l\">engine</th>"
	      "<th class=\"l\">device</th><th class=\"l\">scheduler</th><th>effect</th><th>interval / threshold</th>"
	      "<th>p / severity</th><th>samples</th><th>medians</th><th>kernels</th></tr>\n", out);
	regression_rows(out, r);
	alert_rows(out, r);
	fputs("</table>\n", out);
}

/* --- overview: median per kernel x cell, coloured where a verdict says it differs ------ */

/* Which squares of a series (kept row) a verdict or change point shows to differ, and by how much:
 * a verdict's candidate (with --baseline) by its ratio; a kernel after a change point by the
 * product of the changes since the series' first kernel; on VM data a kernel whose boot-level verdict
 * against the one before it says it differs, by its ratio. Issue 22: the map coloured differences no
 * test supported; the rest stay grey, measured but not shown to differ. */
static void real_squares(const struct ior_report *r, size_t series, const char *const *cols, size_t ncols,
			 double *ratio, bool *real)
{
	const struct ior_rt_series *x = &r->rt->series[series];
	/* VM data: a change point is no verdict, so only the boot-level verdicts colour (issue 22): without
	 * --baseline each kernel's against the one before it, by its change */
	bool boots = false;
	for (size_t i = 0; i < r->npairs; i++)
		for (size_t k = 0; k < r->pairs[i].ncells; k++) {
			const struct ior_judge_pair_cell *pc = &r->pairs[i].cells[k];
			if (pc->series != series || !pc->by_boot)
				continue;
			boots = true;
			if (r->pairs_baseline || (pc->verdict != IOR_VERDICT_REGRESSION && pc->verdict != IOR_VERDICT_IMPROVEMENT))
				continue;
			for (size_t c = 0; c < ncols; c++)
				if (cols[c] == r->pairs[i].b)
					ratio[c] = pc->ratio, real[c] = true;
		}
	for (size_t i = 0; !boots && i < r->view.nchanges; i++) {
		const struct ior_series_changes *sc = &r->changes[r->view.changes[i]];
		if (sc->series != series || !sc->ncp)
			continue;
		for (size_t m = 0, c = 0; m < x->n; m++) {
			const char *kernel = r->rt->groups[x->m[m].group].kernel;
			while (c < ncols && cols[c] != kernel)
				c++;
			double since = 1;
			bool after = false;
			for (size_t k = 0; k < sc->ncp; k++)
				if (sc->cp[k].index <= m)
					since *= sc->cp[k].ratio, after = true;
			if (c < ncols && after)
				ratio[c] = since, real[c] = true;
		}
	}
	for (size_t i = 0; r->baseline && r->axis == IOR_AXIS_KERNEL && i < r->view.nverdicts; i++) {
		const struct ior_judge_verdict *v = &r->verdicts[r->view.verdicts[i]];
		if (v->series != series || v->metric != IOR_METRIC_VALUE ||
		    (v->c.verdict != IOR_VERDICT_REGRESSION && v->c.verdict != IOR_VERDICT_IMPROVEMENT))
			continue;
		for (size_t c = 0; c < ncols; c++)
			if (cols[c] == r->rt->groups[v->cand_group].kernel)
				ratio[c] = v->c.ratio, real[c] = true;
	}
}

static void heat_title(FILE *out, const struct ior_rt_series *s)
{
	fputs("<h3>", out);
	text(out, s->host);
	fputs(", ", out);
	text(out, s->engine);
	if (s->params) {
		fputs(" [", out);
		text(out, s->params);
		fputc(']', out);
	}
	fputs("</h3>\n", out);
}

/* One kernel: devices by schedulers, each square a scheduler's median against its device's best,
 * coloured where the verdict of the two says they differ (ior_rt_cell.vs_best, model_best.c). */
static int one_kernel_map(FILE *out, const struct ior_report *r, const struct ior_rt_group *g, size_t gi)
{
	const char **devs = calloc(g->ndevices ? g->ndevices : 1, sizeof(*devs));
	const char **scheds = calloc(g->ncells ? g->ncells : 1, sizeof(*scheds));
	bool *low = calloc(g->ndevices ? g->ndevices : 1, sizeof(*low));
	size_t cells = (g->ndevices ? g->ndevices : 1) * (g->ncells ? g->ncells : 1);
	double *ratio = malloc(cells * sizeof(*ratio));
	bool *real = calloc(cells, sizeof(*real));
	if (!devs || !scheds || !low || !ratio || !real) {
		free(devs), free(scheds), free(low), free(ratio), free(real);
		return ior_error_set(IOR_ERROR, "out of memory");
	}
	const struct ior_report_view *v = &r->view;
	size_t nd = 0, ns = 0;
	for (size_t i = 0; i < v->ncells[gi]; i++) {
		const struct ior_rt_cell *c = &g->cells[v->cells[gi][i]];
		size_t s = 0;
		while (s < ns && ior_rt_strcmp(scheds[s], c->scheduler))
			s++;
		if (s == ns)
			scheds[ns++] = c->scheduler ? c->scheduler : "-";
	}
	for (size_t d = 0; d < v->ndevices[gi]; d++) {
		devs[nd] = g->devices[v->devices[gi][d]].name;
		low[nd] = g->higher_is_better;
		for (size_t s = 0; s < ns; s++)
			ratio[nd * ns + s] = NAN;
		for (size_t i = 0; i < v->ncells[gi]; i++) {
			const struct ior_rt_cell *c = &g->cells[v->cells[gi][i]];
			if (ior_rt_strcmp(c->device, devs[nd]) || !(c->vs_best > 0))
				continue;
			for (size_t s = 0; s < ns; s++)
				if (!strcmp(scheds[s], c->scheduler ? c->scheduler : "-"))
					ratio[nd * ns + s] = c->vs_best, real[nd * ns + s] = c->vs_best_real;
		}
		nd++;
	}
	if (nd && ns) {
		char id[48];
		snprintf(id, sizeof(id), "heat-one-%zu", gi);
		ior_svg_heatmap(out, id, devs, low, nd, scheds, ns, ratio, real);
	}
	free(devs), free(scheds), free(low), free(ratio), free(real);
	return IOR_OK;
}

static size_t kernels_of(const struct ior_report *r, const char *host, const char **cols, size_t max)
{
	size_t n = 0;
	for (size_t k = 0; k < r->view.nkernels && n < max; k++)
		if (r->kernels[r->view.kernels[k]].host == host)
			cols[n++] = r->kernels[r->view.kernels[k]].release;
	return n;
}

static const char heat_legend[] =
	"<span style=\"background:#ff0000\"></span>20% worse <span style=\"background:#ffffff;border:1px solid #ccc\"></span>"
	"equal <span style=\"background:#0000ff\"></span>20% better <span style=\"background:#e4e4e4\"></span>measured, "
	"not shown to differ.</p>\n";

static int heatmaps(FILE *out, const struct ior_report *r)
{
	const struct ior_tables *rt = r->rt;
	fputs("<h2 id=\"overview\">Overview</h2>\n<p class=\"legend\">With several kernels each square is a cell's median on a "
	      "kernel, coloured only where a verdict (against --baseline) or a change point says it differs: by the verdict's "
	      "change, or by the changes since the cell's first kernel; on VM data only a verdict on boots colours (without "
	      "--baseline, each kernel's against the one before it). With one kernel there is nothing to follow across "
	      "kernels: each square is a scheduler against its device's best, coloured only where their verdict says they "
	      "differ. ", out);
	fputs(heat_legend, out);
	for (size_t i = 0; i < rt->nseries;) {
		size_t j = i;
		while (j < rt->nseries && rt->series[j].host == rt->series[i].host &&
		       !ior_rt_strcmp(rt->series[j].engine, rt->series[i].engine) &&
		       !ior_rt_strcmp(rt->series[j].params, rt->series[i].params))
			j++;
		const char *cols[4096];
		size_t ncols = kernels_of(r, rt->series[i].host, cols, 4096);
		if (ncols == 1) {
			const struct ior_rt_member *m = rt->series[i].n ? &rt->series[i].m[0] : NULL;
			if (m && r->group_in_view[m->group]) {
				heat_title(out, &rt->series[i]);
				if (one_kernel_map(out, r, &rt->groups[m->group], m->group))
					return IOR_ERROR;
			}
			i = j;
			continue;
		}
		size_t nrows = j - i;
		const char **rows = calloc(nrows, sizeof(*rows));
		char (*names)[160] = calloc(nrows, sizeof(*names));
		bool *low = calloc(nrows, sizeof(*low));
		size_t cells = nrows * ncols;
		double *ratio = malloc((cells ? cells : 1) * sizeof(*ratio));
		bool *real = calloc(cells ? cells : 1, sizeof(*real));
		if (!rows || !names || !low || !ratio || !real) {
			free(rows), free(names), free(low), free(ratio), free(real);
			return ior_error_set(IOR_ERROR, "out of memory");
		}
		size_t kept = 0;
		for (size_t s = i; s < j; s++) {
			const struct ior_rt_series *x = &rt->series[s];
			if ((r->opts.device && ior_rt_strcmp(r->opts.device, x->device)) ||
			    (r->opts.scheduler && ior_rt_strcmp(r->opts.scheduler, x->scheduler)))
				continue;
			snprintf(names[kept], sizeof(names[kept]), "%s %s", x->device, ior_render_sched(x->scheduler));
			rows[kept] = names[kept];
			low[kept] = x->higher_is_better;
			for (size_t c = 0; c < ncols; c++)
				ratio[kept * ncols + c] = NAN;
			for (size_t m = 0, c = 0; m < x->n; m++) {
				const struct ior_rt_group *g = &rt->groups[x->m[m].group];
				while (c < ncols && cols[c] != g->kernel)
					c++;
				if (c < ncols)
					ratio[kept * ncols + c] = 1;  /* measured; coloured only if shown to differ */
			}
			real_squares(r, s, cols, ncols, ratio + kept * ncols, real + kept * ncols);
			kept++;
		}
		if (kept && ncols) {
			heat_title(out, &rt->series[i]);
			char id[48];
			snprintf(id, sizeof(id), "heat-%zu", i);
			ior_svg_heatmap(out, id, rows, low, kept, cols, ncols, ratio, real);
		}
		free(rows), free(names), free(low), free(ratio), free(real);
		i = j;
	}
	return IOR_OK;
}

/* --- raw samples of the charted cells -------------------------------------------- */

/* A charted device's samples per kernel (all its schedulers), around the alert's kernel. */
static void raw_device(FILE *out, const struct ior_report *r, size_t di)
{
	const struct ior_rt_series *s = &r->rt->dseries[di];
	size_t at = s->n - 1, lo, hi;
	for (size_t k = 0; k < s->n; k++)
		if (device_alert_at(r, s->m[k].group, s->m[k].index))
			at = k;
	window(s->n, at, &lo, &hi);
	fprintf(out, "<h3 id=\"raw-device-%zu\">", di);
	text(out, s->host);
	fputs(", ", out);
	text(out, s->engine);
	fputs(", device ", out);
	text(out, s->device);
	fputs(" (every scheduler)</h3><table><tr><th class=\"l\">kernel</th><th>n</th><th>min</th><th>max</th><th>spread</th>"
	      "<th class=\"l\">samples in cell, run and repetition order</th></tr>\n", out);
	for (size_t k = lo; k < hi; k++) {
		const struct ior_rt_group *g = &r->rt->groups[s->m[k].group];
		const struct ior_rt_device *d = &g->devices[s->m[k].index];
		fputs(device_alert_at(r, s->m[k].group, s->m[k].index) ? "<tr class=\"alert\">" : "<tr>", out);
		td(out, g->kernel);
		fprintf(out, "<td>%zu</td><td>%.2f</td><td>%.2f</td><td>%.1f%%</td><td class=\"l\">", d->n, d->st.min, d->st.max,
			d->st.spread * 100);
		for (size_t v = 0; v < d->n; v++)
			fprintf(out, "%s%.2f", v ? " " : "", d->values[v]);
		fputs("</td></tr>\n", out);
	}
	fputs("</table>\n", out);
}

static void raw_samples(FILE *out, const struct ior_report *r, const struct marks *m)
{
	fputs("<h2 id=\"raw\">Raw samples of the charted cells</h2>\n", out);
	for (size_t si = 0; si < r->rt->nseries; si++) {
		if (!m->cell[si])
			continue;
		const struct ior_rt_series *s = &r->rt->series[si];
		char name[600];
		series_name(name, sizeof(name), s);
		fprintf(out, "<h3 id=\"raw-%zu\">", si);
		text(out, name);
		size_t lo, hi;
		window(s->n, focus(r, si), &lo, &hi);
		fputs("</h3>", out);
		if (hi - lo < s->n) {
			fprintf(out, "<p>The %zu kernels the chart shows, of %zu; every sample of every kernel: "
				"<code>ioregress report --format csv --device ", hi - lo, s->n);
			text(out, s->device);
			fputs(" --engine ", out);
			text(out, s->engine);
			fputs("</code>.</p>", out);
		}
		fputs("<table><tr><th class=\"l\">kernel</th><th>n</th><th>median</th><th class=\"l\">samples in run and repetition order</th></tr>\n", out);
		for (size_t k = lo; k < hi; k++) {
			const struct ior_rt_group *g = &r->rt->groups[s->m[k].group];
			const struct ior_rt_cell *c = &g->cells[s->m[k].index];
			fputs("<tr>", out);
			td(out, g->kernel);
			fprintf(out, "<td>%zu</td><td>%.2f</td><td class=\"l\">", c->n, c->st.median);
			for (size_t v = 0; v < c->n; v++)
				fprintf(out, "%s%.2f", v ? " " : "", c->values[v]);
			fputs("</td></tr>\n", out);
		}
		fputs("</table>\n", out);
	}
	for (size_t di = 0; di < r->rt->ndseries; di++)
		if (m->device[di])
			raw_device(out, r, di);
}

/* --- the tables ------------------------------------------------------------------ */

static void group_table(FILE *out, const struct ior_report *r, size_t gi)
{
	const struct ior_rt_group *g = &r->rt->groups[gi];
	char title[1024];
	ior_render_group_title(title, sizeof(title), g);
	fputs("<h3>", out);
	text(out, title);
	fputs("</h3>\n<table><tr><th class=\"l\">device</th><th class=\"l\">scheduler</th>", out);
	for (size_t k = 0; k < g->max_n; k++)
		fprintf(out, "<th>#%zu</th>", k + 1);
	fputs("<th>total</th><th>share</th><th>best</th></tr>\n", out);
	for (size_t i = 0; i < r->view.ncells[gi]; i++) {
		const struct ior_rt_cell *c = &g->cells[r->view.cells[gi][i]];
		fputs("<tr>", out);
		td(out, c->device);
		td(out, ior_render_sched(c->scheduler));
		static const struct ior_row_syntax html = { .open = "<td>", .close = "</td>", .best = "<td>*</td></tr>\n",
							    .not_best = "<td></td></tr>\n" };
		ior_render_figures(out, g, c, &html);
	}
	fputs("</table>\n", out);
	for (size_t i = 0; i < r->view.ndevices[gi]; i++) {
		const struct ior_rt_device *dev = &g->devices[r->view.devices[gi][i]];
		char words[400];
		ior_render_best_words(words, sizeof(words), dev);
		if (!*words)
			continue;
		fputs("<p>", out);
		text(out, dev->name);
		fputs(": ", out);
		text(out, words);
		fputs("</p>\n", out);
	}
	fputs("<table><tr><th class=\"l\">device</th><th>min</th><th>max</th><th>spread</th><th>CoV</th><th>n</th><th class=\"l\">fill</th></tr>\n", out);
	for (size_t i = 0; i < r->view.ndevices[gi]; i++) {
		size_t d = r->view.devices[gi][i];
		const struct ior_rt_device *dev = &g->devices[d];
		fputs(device_alert_at(r, gi, d) ? "<tr class=\"alert\">" : "<tr>", out);
		td(out, dev->name);
		fprintf(out, "<td>%.2f</td><td>%.2f</td><td>%.1f%%</td><td>%.1f%%</td><td>%zu</td>", dev->st.min, dev->st.max,
			dev->st.spread * 100, dev->st.cov * 100, dev->st.n);
		td(out, dev->fill ? dev->fill : "-");
		fputs("</tr>\n", out);
	}
	fputs("</table>\n", out);
}

static void tables(FILE *out, const struct ior_report *r)
{
	size_t n = r->view.ngroups;
	fprintf(out, "<h2 id=\"tables\">Tables per kernel (%zu)</h2>\n", n);
	if (n > FULL_TABLES_MAX) {
		fprintf(out, "<p>%zu tables are more than a page should hold: the overview above has every cell's median per kernel; "
			"narrow the report with --kernel, --device or --engine, or take every figure from --format json or csv.</p>\n", n);
		return;
	}
	for (size_t g = 0; g < r->view.ngroups; g++)
		group_table(out, r, r->view.groups[g]);
}

/* A section as a table under its heading (a row that needs a look coloured, a commit id as code, a
 * list's items a line each) or as a list; then its notes. */
static void section(FILE *out, const struct ior_section *s)
{
	if (!s->nrows && !s->listed && !s->always)
		return;
	char line[2048];
	fprintf(out, "<h2 id=\"%s\">", s->id);
	text(out, s->title);
	fputs("</h2>\n", out);
	if (s->intro) {
		fputs("<p>", out);
		text(out, s->intro);
		fputs("</p>\n", out);
	}
	if (s->list) {
		fputs("<ul>\n", out);
		static const struct ior_sentence_syntax html = { .put = ior_esc_xml, .strong = "<b>", .unstrong = "</b>",
								 .item = "<br>" };
		for (size_t i = 0; i < s->nrows; i++) {
			fputs("<li>", out);
			ior_section_sentence(out, s, &s->v[i * s->ncols], &html);
			fputs("</li>\n", out);
		}
		fputs("</ul>\n", out);
		return;
	}
	fputs("<table><tr>", out);
	for (size_t c = 0; c < s->ncols; c++) {
		fputs(ior_column_right(&s->cols[c]) ? "<th>" : "<th class=\"l\">", out);
		text(out, s->cols[c].name);
		fputs("</th>", out);
	}
	fputs("</tr>\n", out);
	for (size_t i = 0; i < s->nrows; i++) {
		fputs(s->marked[i] ? "<tr class=\"alert\">" : "<tr>", out);
		for (size_t c = 0; c < s->ncols; c++) {
			const struct ior_column *col = &s->cols[c];
			char num[64];
			const char *x = ior_section_value(num, sizeof(num), col, &s->v[i * s->ncols + c]);
			fputs(ior_column_right(col) ? "<td>" : "<td class=\"l\">", out);
			fputs(col->type == IOR_COL_CODE ? "<code>" : "", out);
			for (size_t k = 0; ior_section_line(&x, line, sizeof(line)); k++) {
				fputs(k ? "<br>" : "", out);
				text(out, line);
			}
			if (c + 1 == s->ncols && s->chart[i] != SIZE_MAX)
				fprintf(out, " <a href=\"#cell-%zu\">chart</a>", s->chart[i]);
			fputs(col->type == IOR_COL_CODE ? "</code></td>" : "</td>", out);
		}
		fputs("</tr>\n", out);
	}
	fputs("</table>\n", out);
	for (const char *p = s->notes; ior_section_line(&p, line, sizeof(line));) {
		fputs("<p>", out);
		text(out, line);
		fputs("</p>\n", out);
	}
}

static int charts(FILE *out, const struct ior_report *r, const struct marks *m)
{
	size_t cells = 0, devices = 0;
	for (size_t i = 0; i < r->rt->nseries; i++)
		cells += m->cell[i];
	for (size_t i = 0; i < r->rt->ndseries; i++)
		devices += m->device[i];
	fprintf(out, "<h2 id=\"charts\">Charts</h2>\n<p id=\"chart-count\" data-charts=\"%zu\" data-cells=\"%zu\" data-devices=\"%zu\">"
		"%zu chart(s): for each of the %zu cell(s) with an alert, a change point or a verdict, every sample per kernel "
		"as dots over a box (quartiles, median, whiskers to min and max) and the median per kernel with change points "
		"dashed; for each of the %zu device(s) with an alert, its spread per kernel with the alert floor.</p>\n",
		m->ncharts, cells, devices, m->ncharts, cells, devices);
	for (size_t i = 0; i < r->rt->ndseries; i++)
		if (m->device[i] && device_chart(out, r, i))
			return IOR_ERROR;
	for (size_t i = 0; i < r->rt->nseries; i++)
		if (m->cell[i] && cell_charts(out, r, i))
			return IOR_ERROR;
	return IOR_OK;
}

static void head(FILE *out, const struct ior_report *r)
{
	const struct ior_report_opts *o = &r->opts;
	fprintf(out, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
		"<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">"
		"<title>ioregress report</title><style>%s</style></head><body>\n<h1>ioregress report</h1>\n<p>", style);
	const char *names[] = { "host", "kernel", "device", "scheduler", "engine", "since" };
	const char *vals[] = { o->host, o->kernel, o->device, o->scheduler, o->engine, o->since };
	bool any = false;
	for (size_t i = 0; i < 6; i++)
		if (vals[i]) {
			fprintf(out, "%s%s ", any ? ", " : "Filters: ", names[i]);
			text(out, vals[i]);
			any = true;
		}
	size_t groups = r->view.ngroups;
	fprintf(out, "%s%zu table(s), %zu kernel(s), %zu stored cell(s) of which %zu did not run or finish. "
		"<a href=\"#alerts\">alerts</a> · <a href=\"#overview\">overview</a> · <a href=\"#charts\">charts</a> · "
		"<a href=\"#tables\">tables</a> · <a href=\"#schedulers\">schedulers</a> · <a href=\"#notrun\">not run</a> · "
		"<a href=\"#changes\">change points</a>%s</p>\n", any ? ". " : "", groups, r->nkernels, r->stored.ncells, r->nnot_ok,
		r->baseline ? " · <a href=\"#verdicts\">verdicts</a>" : "");
}

/* The kernel answer first (render_answer.c); the alerts follow it. */
static void kernel_answer(FILE *out, const struct ior_report *r)
{
	struct ior_answer_lines k;
	ior_render_kernel_answer(&k, r);
	if (!k.n)
		return;
	fputs("<h2 id=\"answer\">Answer</h2>\n<ul class=\"answer\">\n", out);
	for (size_t i = 0; i < k.n; i++) {
		fputs("<li>", out);
		text(out, k.line[i]);
		fputs("</li>\n", out);
	}
	fputs("</ul>\n", out);
}

static int render_html(FILE *out, const struct ior_report *r)
{
	struct marks m = { 0 };
	int rc = mark(&m, r);
	if (!rc) {
		head(out, r);
		if (!r->opts.alerts_only) {
			kernel_answer(out, r);
			section(out, &r->sections->s[IOR_SECTION_ANSWERS]);
		}
		alerts_section(out, r);
		if (!r->opts.alerts_only)
			rc = heatmaps(out, r);
	}
	if (!rc)
		rc = charts(out, r, &m);
	if (!rc) {
		raw_samples(out, r, &m);
		if (!r->opts.alerts_only)
			tables(out, r);
		for (size_t i = IOR_SECTION_SCHEDULERS; i < IOR_SECTION_COUNT; i++)
			section(out, &r->sections->s[i]);
		fputs("</body></html>\n", out);
	}
	free(m.cell);
	free(m.device);
	return rc;
}

const struct ior_renderer ior_renderer_html = {
	.name = "html",
	.summary = "one self-contained page with inline SVG charts",
	.parts = IOR_REPORT_ALL,
	.render = render_html,
};
