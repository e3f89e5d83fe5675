/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Student's t distribution: two-sided tail probabilities and quantiles, for Welch's test. */
#ifndef IOR_STATS_TDIST_H
#define IOR_STATS_TDIST_H

/* Regularized incomplete beta function I_x(a, b), a, b > 0. */
double ior_beta_regularized(double x, double a, double b);

/* P(|T| >= |t|) for Student's t with df > 0 degrees of freedom (df need not
 * be an integer: Welch's df is not). */
double ior_t_two_sided_p(double t, double df);

/* The p-quantile of Student's t with df degrees of freedom, 0 < p < 1. */
double ior_t_quantile(double p, double df);

#endif
