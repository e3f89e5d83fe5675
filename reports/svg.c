/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Inline SVG drawing for the HTML report; every label goes through the XML escape. */
#include "reports/svg.h"

#include "reports/escape.h"

#include <math.h>
#include <string.h>

enum { W = 760, H = 240, LEFT = 64, RIGHT = 16, TOP = 28, BOTTOM = 56 };

struct scale {
	double lo, hi;
	double step;   /* between two ticks: a round number, so a reader can read a value off the axis */
};

/* A round step for about four intervals over span: 1, 2, 2.5 or 5 times a power of ten (the
 * "nice numbers" of hand-drawn axes); min-max quarters gave ticks such as 117.41 and 102.30. */
static double nice_step(double span)
{
	double raw = span / 4, mag = pow(10, floor(log10(raw))), m = raw / mag;
	return mag * (m <= 1 ? 1 : m <= 2 ? 2 : m <= 2.5 ? 2.5 : m <= 5 ? 5 : 10);
}

/* The decimals a tick label needs to show step (and every multiple of it) exactly. */
static int step_decimals(double step)
{
	int d = 0;
	while (d < 6 && fabs(step * pow(10, d) - round(step * pow(10, d))) > 1e-9 * fmax(1, step * pow(10, d)))
		d++;
	return d;
}

static struct scale y_scale(const struct ior_svg_chart *c, bool from_zero)
{
	struct scale s = { INFINITY, -INFINITY, 1 };
	for (size_t i = 0; i < c->ncols; i++) {
		if (c->cols[i].n == 0 && isnan(c->cols[i].median))
			continue;
		s.lo = fmin(s.lo, c->cols[i].min);
		s.hi = fmax(s.hi, c->cols[i].max);
	}
	if (!isnan(c->threshold))
		s.hi = fmax(s.hi, c->threshold);
	if (from_zero || !isfinite(s.lo))
		s.lo = fmin(0, isfinite(s.lo) ? s.lo : 0);
	if (!isfinite(s.hi) || s.hi <= s.lo)
		s.hi = s.lo + 1;
	double pad = (s.hi - s.lo) * 0.05;
	s.lo -= from_zero ? 0 : pad;
	s.hi += pad;
	/* the axis runs between multiples of the step, so its ends are ticks too */
	s.step = nice_step(s.hi - s.lo);
	s.lo = floor(s.lo / s.step + 1e-9) * s.step;
	s.hi = ceil(s.hi / s.step - 1e-9) * s.step;
	return s;
}

static double ypos(struct scale s, double v)
{
	return TOP + (H - TOP - BOTTOM) * (1 - (v - s.lo) / (s.hi - s.lo));
}

static double xpos(size_t i, size_t n)
{
	double step = (double)(W - LEFT - RIGHT) / (double)(n ? n : 1);
	return LEFT + step * ((double)i + 0.5);
}

/* Labels are never cut (issue 22: "6.18.44-fc-v104" lost its end under a chart): the picture grows
 * to hold the longest kernel label, rotated 30 degrees below the axis, and the title. 11px sans-serif
 * averages under CHAR_W pixels a character; UTF-8 bytes overcount, which only adds room. */
#define CHAR_W 6.5

static double label_len(const char *s)
{
	return s ? (double)strlen(s) : 0;
}

static void open_chart(FILE *out, const struct ior_svg_chart *c, const char *kind)
{
	double longest = 0, w = W, h = H;
	for (size_t i = 0; i < c->ncols; i++)
		longest = fmax(longest, label_len(c->cols[i].label));
	if (c->ncols) {
		w = fmax(w, xpos(c->ncols - 1, c->ncols) + longest * CHAR_W * 0.866 + 8);
		h = fmax(h, H - BOTTOM + 14 + longest * CHAR_W * 0.5 + 8);
	}
	w = fmax(w, LEFT + label_len(c->title) * (CHAR_W + 0.5) + 8);  /* the title is bold */
	fprintf(out, "<svg class=\"chart %s\" id=\"", kind);
	ior_esc_xml(out, c->id);
	fprintf(out, "\" viewBox=\"0 0 %.0f %.0f\" width=\"%.0f\" height=\"%.0f\" role=\"img\"><title>", w, h, w, h);
	ior_esc_xml(out, c->title);
	fprintf(out, "</title><text x=\"%d\" y=\"16\" class=\"t\">", LEFT);
	ior_esc_xml(out, c->title);
	fputs("</text>", out);
}

/* Y axis with a tick at every multiple of the step (four to eight of them) and the unit; X labels
 * every kernel, or every k-th when crowded. */
static void axes(FILE *out, const struct ior_svg_chart *c, struct scale s, bool percent)
{
	fprintf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" class=\"ax\"/>", LEFT, TOP, LEFT, H - BOTTOM);
	fprintf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" class=\"ax\"/>", LEFT, H - BOTTOM, W - RIGHT, H - BOTTOM);
	int decimals = step_decimals(percent ? s.step * 100 : s.step);
	size_t ticks = (size_t)llround((s.hi - s.lo) / s.step);
	for (size_t t = 0; t <= ticks; t++) {
		double v = s.lo + s.step * (double)t;
		double y = ypos(s, v), shown = percent ? v * 100 : v;
		if (fabs(shown) < 1e-9 * (percent ? s.step * 100 : s.step))
			shown = 0;   /* not "-0.0" from a sum that missed zero by a rounding */
		fprintf(out, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" class=\"grid\"/>", LEFT, y, W - RIGHT, y);
		fprintf(out, "<text x=\"%d\" y=\"%.1f\" class=\"yl\">%.*f%s</text>", LEFT - 4, y + 4, decimals, shown,
			percent ? "%" : "");
	}
	fprintf(out, "<text x=\"4\" y=\"%d\" class=\"u\">", TOP - 8);
	ior_esc_xml(out, c->unit);
	fputs("</text>", out);
	size_t every = c->ncols > 24 ? (c->ncols + 23) / 24 : 1;
	for (size_t i = 0; i < c->ncols; i++) {
		if (i % every && !c->cols[i].marked)
			continue;
		double x = xpos(i, c->ncols);
		fprintf(out, "<text x=\"%.1f\" y=\"%d\" class=\"xl\" transform=\"rotate(30 %.1f %d)\">", x, H - BOTTOM + 14, x,
			H - BOTTOM + 14);
		ior_esc_xml(out, c->cols[i].label);
		fputs("</text>", out);
	}
}

void ior_svg_dots_box(FILE *out, const struct ior_svg_chart *c)
{
	struct scale s = y_scale(c, false);
	open_chart(out, c, "dots");
	axes(out, c, s, false);
	double half = fmin(18, (double)(W - LEFT - RIGHT) / (double)(c->ncols ? c->ncols : 1) * 0.3);
	for (size_t i = 0; i < c->ncols; i++) {
		const struct ior_svg_column *k = &c->cols[i];
		if (!k->n)
			continue;
		double x = xpos(i, c->ncols);
		fprintf(out, "<g%s><title>", k->marked ? " class=\"mk\"" : "");
		ior_esc_xml(out, k->label);
		fprintf(out, ": median %.2f, %zu samples</title>", k->median, k->n);
		fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"wh\"/>", x, ypos(s, k->min), x,
			ypos(s, k->max));
		fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" class=\"box\"/>", x - half,
			ypos(s, k->q3), 2 * half, fmax(0.5, ypos(s, k->q1) - ypos(s, k->q3)));
		fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"med\"/>", x - half,
			ypos(s, k->median), x + half, ypos(s, k->median));
		/* the dots of a column as one path of zero-length round-capped strokes: one element
		 * instead of one per sample keeps a page of thousands of samples quick to open */
		fputs("<path class=\"dot\" d=\"", out);
		for (size_t j = 0; j < k->n; j++) {
			double jitter = (fmod((double)j * 0.618034, 1.0) - 0.5) * half * 1.4;  /* spread the dots sideways */
			fprintf(out, "M%.1f %.1fh0", x + jitter, ypos(s, k->values[j]));
		}
		fputs("\"/></g>", out);
	}
	fputs("</svg>\n", out);
}

void ior_svg_series(FILE *out, const struct ior_svg_chart *c)
{
	struct scale s = y_scale(c, false);
	open_chart(out, c, "series");
	axes(out, c, s, false);
	for (size_t i = 0; i < c->ncols; i++)
		if (c->cols[i].marked) {
			double x = xpos(i, c->ncols) - (double)(W - LEFT - RIGHT) / (double)c->ncols / 2;
			fprintf(out, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" class=\"cp\"/>", x, TOP, x, H - BOTTOM);
			fprintf(out, "<text x=\"%.1f\" y=\"%d\" class=\"cpl\">change: ", x + 3, TOP + 10);
			ior_esc_xml(out, c->cols[i].label);
			fputs("</text>", out);
		}
	fputs("<polyline class=\"line\" points=\"", out);
	for (size_t i = 0; i < c->ncols; i++)
		if (c->cols[i].n)
			fprintf(out, "%.1f,%.1f ", xpos(i, c->ncols), ypos(s, c->cols[i].median));
	fputs("\"/>", out);
	for (size_t i = 0; i < c->ncols; i++)
		if (c->cols[i].n) {
			fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" class=\"pt\"><title>", xpos(i, c->ncols),
				ypos(s, c->cols[i].median));
			ior_esc_xml(out, c->cols[i].label);
			fprintf(out, ": median %.2f</title></circle>", c->cols[i].median);
		}
	fputs("</svg>\n", out);
}

void ior_svg_spread(FILE *out, const struct ior_svg_chart *c)
{
	struct scale s = y_scale(c, true);
	open_chart(out, c, "spread");
	axes(out, c, s, true);
	double bw = fmax(1, (double)(W - LEFT - RIGHT) / (double)(c->ncols ? c->ncols : 1) * 0.6);
	for (size_t i = 0; i < c->ncols; i++) {
		const struct ior_svg_column *k = &c->cols[i];
		if (isnan(k->median))
			continue;
		double x = xpos(i, c->ncols), y = ypos(s, k->median);
		fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" class=\"%s\"><title>", x - bw / 2, y, bw,
			fmax(0, ypos(s, 0) - y), k->marked ? "bar hot" : "bar");
		ior_esc_xml(out, k->label);
		fprintf(out, ": spread %.1f%%</title></rect>", k->median * 100);
	}
	if (!isnan(c->threshold)) {
		double y = ypos(s, c->threshold);
		fprintf(out, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" class=\"thr\"/>", LEFT, y, W - RIGHT, y);
		fprintf(out, "<text x=\"%d\" y=\"%.1f\" class=\"thl\">", W - RIGHT - 4, y - 4);
		ior_esc_xml(out, c->threshold_label);
		fputs("</text>", out);
	}
	fputs("</svg>\n", out);
}

void ior_svg_sparkline(FILE *out, const double *v, size_t n, size_t mark)
{
	double lo = INFINITY, hi = -INFINITY;
	for (size_t i = 0; i < n; i++)
		if (isfinite(v[i])) {
			lo = fmin(lo, v[i]);
			hi = fmax(hi, v[i]);
		}
	if (!isfinite(lo))
		return;
	if (hi <= lo)
		hi = lo + 1;
	fputs("<svg class=\"spark\" viewBox=\"0 0 100 24\" width=\"100\" height=\"24\"><polyline points=\"", out);
	for (size_t i = 0; i < n; i++)
		if (isfinite(v[i]))
			fprintf(out, "%.1f,%.1f ", n > 1 ? 100.0 * (double)i / (double)(n - 1) : 50.0, 22 - 20 * (v[i] - lo) / (hi - lo));
	fputs("\"/>", out);
	if (mark < n && isfinite(v[mark]))
		fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\"/>", n > 1 ? 100.0 * (double)mark / (double)(n - 1) : 50.0,
			22 - 20 * (v[mark] - lo) / (hi - lo));
	fputs("</svg>", out);
}

/* The colour scale in steps: ratio 0.8 (or 1.2 for lower-is-better) is full "worse" red, 1 is
 * white, the other end full blue; 2 x HEAT_STEPS + 1 buckets, each drawn as one path. */
#define HEAT_STEPS 10
#define HEAT_GREY "#e4e4e4"

static int bucket(double ratio, bool worse_is_low)
{
	double t = fmax(-1, fmin(1, (ratio - 1) / 0.2));
	if (worse_is_low)
		t = -t;
	return (int)lround(t * HEAT_STEPS);  /* -HEAT_STEPS (better) .. +HEAT_STEPS (worse) */
}

static void bucket_colour(FILE *out, int b)
{
	double t = (double)b / HEAT_STEPS;
	int r = t > 0 ? 255 : (int)(255 * (1 + t)), g = (int)(255 * (1 - fabs(t))), bl = t < 0 ? 255 : (int)(255 * (1 - t));
	fprintf(out, "#%02x%02x%02x", r, g, bl);
}

void ior_svg_heatmap(FILE *out, const char *id, const char *const *rows, const bool *worse_is_low, size_t nrows,
		     const char *const *cols, size_t ncols, const double *ratio, const bool *real)
{
	enum { CW_MAX = 36, CH = 16 };   /* a square a reader can point at, its 12px label beside it */
	/* room for the longest labels: row labels end at LABEL, column labels rise at 60 degrees */
	double longest_row = 0, longest_col = 0;
	for (size_t r = 0; r < nrows; r++)
		longest_row = fmax(longest_row, label_len(rows[r]));
	for (size_t c = 0; c < ncols; c++)
		longest_col = fmax(longest_col, label_len(cols[c]));
	double LABEL = fmax(220, longest_row * CHAR_W + 8), HEAD = fmax(70, longest_col * CHAR_W * 0.866 + 10);
	double cw = ncols ? fmin(CW_MAX, fmax(3, 900.0 / (double)ncols)) : CW_MAX;
	double width = LABEL + cw * (double)ncols + 8 + longest_col * CHAR_W * 0.5, height = HEAD + CH * (double)nrows + 8;
	fputs("<svg class=\"heatmap\" id=\"", out);
	ior_esc_xml(out, id);
	fprintf(out, "\" viewBox=\"0 0 %.0f %.0f\" width=\"%.0f\" height=\"%.0f\">", width, height, width, height);
	size_t every = cw < 10 ? (size_t)ceil(10 / cw) : 1;
	for (size_t c = 0; c < ncols; c += every) {
		double x = LABEL + cw * ((double)c + 0.5);
		fprintf(out, "<text x=\"%.1f\" y=\"%.0f\" class=\"hl\" transform=\"rotate(-60 %.1f %.0f)\">", x, HEAD - 4, x, HEAD - 4);
		ior_esc_xml(out, cols[c]);
		fputs("</text>", out);
	}
	for (size_t r = 0; r < nrows; r++) {
		fprintf(out, "<text x=\"%.0f\" y=\"%.1f\" class=\"hr\">", LABEL - 4, HEAD + CH * (double)r + CH - 4);
		ior_esc_xml(out, rows[r]);
		fputs("</text>", out);
	}
	/* one path per colour: 22 elements however many kernels and cells; the first is the grey of a
	 * square measured but not shown to differ (no verdict or change point says it is real) */
	for (int b = -HEAT_STEPS - 1; b <= HEAT_STEPS; b++) {
		bool open = false;
		for (size_t r = 0; r < nrows; r++)
			for (size_t c = 0; c < ncols; c++) {
				double v = ratio[r * ncols + c];
				bool shown = !real || real[r * ncols + c];
				if (isnan(v) || (b < -HEAT_STEPS ? shown : !shown || bucket(v, worse_is_low[r]) != b))
					continue;
				if (!open) {
					fputs("<path fill=\"", out);
					if (b < -HEAT_STEPS)
						fputs(HEAT_GREY, out);
					else
						bucket_colour(out, b);
					fputs("\" d=\"", out);
					open = true;
				}
				fprintf(out, "M%.1f %.1fh%.1fv%dh-%.1fz", LABEL + cw * (double)c, HEAD + CH * (double)r, cw, CH, cw);
			}
		if (open)
			fputs("\"/>", out);
	}
	fputs("</svg>\n", out);
}
