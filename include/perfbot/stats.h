/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_STATS_H
#define PERFBOT_STATS_H

#include <stddef.h>

/*
 * Significance tests for a retest: is the head's headline metric really
 * different from the base's? Welch's t-test (unequal variances), the
 * Mann-Whitney U test (exact null distribution for small samples without
 * ties, else the normal approximation with tie and continuity
 * corrections), and a t-based 95% confidence interval of the %change:
 * the Welch interval of the difference of the means divided by the base
 * mean (the base mean's own uncertainty is not propagated, which makes the
 * interval slightly narrow when the base is noisy).
 */

struct welch {
	double diff;	/* mean(head) - mean(base) */
	double se;	/* standard error of the difference */
	double t;
	double df;	/* Welch-Satterthwaite degrees of freedom */
	double p;	/* two-sided */
};

struct mann_whitney {
	double u;	/* U of the head sample */
	double p;	/* two-sided */
	int exact;	/* p from the exact distribution */
};

/* Each needs at least 2 values per side; -1 otherwise. */
int stats_welch(const double *base, size_t nb, const double *head,
		size_t nh, struct welch *w);
int stats_mann_whitney(const double *base, size_t nb, const double *head,
		       size_t nh, struct mann_whitney *m);
/* 'level' 0.95: [lo, hi] of the %change; -1 when the base mean is 0. */
int stats_change_ci(const double *base, size_t nb, const double *head,
		    size_t nh, double level, double *lo, double *hi);

/* Student's t distribution: P(T <= t) and its inverse. */
double stats_t_cdf(double t, double df);
double stats_t_quantile(double p, double df);
/* The regularized incomplete beta function I_x(a, b). */
double stats_betai(double a, double b, double x);

enum verdict { VERDICT_STABLE, VERDICT_NOT_REPRODUCED, VERDICT_INCONCLUSIVE };

/*
 * The retest's verdict: stable when the noise filter still shows the
 * change and Welch's p < 0.01 in the direction of the report; not
 * reproduced when p > 0.05 or the direction flipped; else inconclusive.
 */
enum verdict stats_verdict(int shown, double reported_change,
			   double change, double p);
const char *stats_verdict_name(enum verdict v);

#endif
