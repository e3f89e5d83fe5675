/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Inline SVG for the HTML report: linear scales, axes and the chart kinds it draws (dots over
 * boxes, kernel-series lines, spreads against a threshold, sparklines, heat maps). */
#ifndef IOR_REPORTS_SVG_H
#define IOR_REPORTS_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* One kernel's column of a chart: its label and its samples with their five-number summary. */
struct ior_svg_column {
	const char *label;
	const double *values;
	size_t n;
	double min, q1, median, q3, max;
	bool marked;            /* a change arrived here, or this is the kernel an alert names */
};

struct ior_svg_chart {
	const char *title, *unit, *id;   /* id: the chart's anchor */
	const struct ior_svg_column *cols;
	size_t ncols;
	double threshold;                /* a horizontal line (spread charts), NAN for none */
	const char *threshold_label;
};

/* Every sample per kernel as dots over a box (quartiles, median, min-max whiskers). */
void ior_svg_dots_box(FILE *out, const struct ior_svg_chart *c);
/* The medians per kernel as a line, with the marked kernels (change points) drawn as dashed rules. */
void ior_svg_series(FILE *out, const struct ior_svg_chart *c);
/* One bar per kernel (its median field holds the spread), with the threshold drawn. */
void ior_svg_spread(FILE *out, const struct ior_svg_chart *c);
/* A small line of values (no axes), for an alert's or a verdict's row. */
void ior_svg_sparkline(FILE *out, const double *v, size_t n, size_t mark);

/* A heat map: rows x cols cells coloured by ratio (1 = the row's usual level), NAN for no data;
 * worse_is_low: the colour for a ratio below 1 is "worse" (rates); row and column labels. real
 * (NULL: all) says which squares a verdict or change point shows to differ: the others are grey. */
void ior_svg_heatmap(FILE *out, const char *id, const char *const *rows, const bool *worse_is_low, size_t nrows,
		     const char *const *cols, size_t ncols, const double *ratio, const bool *real);

#endif
