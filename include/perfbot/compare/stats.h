/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_STATS_H
#define PERFBOT_STATS_H

#include <stddef.h>

/*
 * Is the head's metric really different from the base's? Welch's t-test
 * (unequal variances), the Mann-Whitney U test (the exact null
 * distribution, ties included, up to STATS_MW_EXACT_MAX runs a side, else
 * the normal approximation with tie and continuity corrections, as
 * scipy's mannwhitneyu), and a t-based 95% confidence interval of the
 * %change: the Welch interval of the difference of the means divided by
 * the base mean (the base mean's own uncertainty is not propagated, which
 * makes the interval slightly narrow when the base is noisy).
 *
 * A test that cannot be made says so: 'ok' is 0 and 'why' names the
 * reason (fewer than 2 runs, both samples constant, a base mean of 0,
 * values that are not finite); its p is then 1 and must not be shown.
 * A sample is constant when its standard deviation is below
 * STATS_REL_TOL of the larger mean, so that rounding in a mean
 * ({0.1, 0.1} against eleven 0.1) is never taken for a change.
 */

#define STATS_MW_EXACT_MAX 50
#define STATS_REL_TOL 1e-9

struct welch {
	double diff;	/* mean(head) - mean(base) */
	double se;	/* standard error of the difference */
	double t;
	double df;	/* Welch-Satterthwaite degrees of freedom */
	double p;	/* two-sided; 1 when !ok */
	int ok;
	int constant;	/* !ok because both samples are constant */
	int same;	/* ... and equal: no difference at all */
	const char *why;	/* when !ok */
};

struct mann_whitney {
	double u;	/* U of the head sample */
	double p;	/* two-sided; 1 when !ok */
	int exact;	/* p from the exact distribution */
	int ok;
	const char *why;
};

struct change_ci {
	double lo, hi;	/* % of the base mean, lo <= hi */
	int ok;
	const char *why;
};

/* All of it for one metric. */
struct evidence {
	size_t n[2];	/* runs: base, head */
	struct welch w;
	struct mann_whitney mw;
	struct change_ci ci;
};

/*
 * Each returns 0, with 'ok' 1 when the test was made and 0 when it could
 * not be ('why' set), or -1 when memory ran out.
 */
int stats_welch(const double *base, size_t nb, const double *head,
		size_t nh, struct welch *w);
int stats_mann_whitney(const double *base, size_t nb, const double *head,
		       size_t nh, struct mann_whitney *m);
/*
 * 'level' 0.95: the interval of the %change 100 (head - base) / base; of
 * two positive means on the log scale (the ratio's delta-method interval,
 * never below -100%), else linear in the difference of the means.
 */
int stats_change_ci(const double *base, size_t nb, const double *head,
		    size_t nh, double level, struct change_ci *ci);
/* The three together; -1 only when memory ran out. */
int stats_evidence(const double *base, size_t nb, const double *head,
		   size_t nh, struct evidence *ev);

/* The smallest two-sided p the exact Mann-Whitney test can reach. */
double stats_mw_min_p(size_t nb, size_t nh);

/* Student's t distribution: P(T <= t) and its inverse. */
double stats_t_cdf(double t, double df);
double stats_t_quantile(double p, double df);
/* The standard normal distribution: P(Z <= z) and its inverse. */
double stats_norm_cdf(double z);
double stats_norm_quantile(double p);
/* The chi-square quantile (Wilson and Hilferty's approximation). */
double stats_chi2_quantile(double p, double df);
/* The regularized incomplete beta function I_x(a, b). */
double stats_betai(double a, double b, double x);

enum verdict { VERDICT_STABLE, VERDICT_NOT_REPRODUCED, VERDICT_INCONCLUSIVE };

/*
 * The verdict on a change, from evidence gathered on runs that did not
 * take part in selecting it ('shown': the noise filter shows the change
 * on those runs). Stable: Welch's p < 0.01 in the reported direction, the
 * filter shows it, and the Mann-Whitney test agrees (p < 0.05, unless so
 * few runs cannot reach 0.05); two constant samples that differ in the
 * reported direction are stable too. Not reproduced: the direction
 * flipped, no change, or Welch's p > 0.05. Else (no test possible, or in
 * between) inconclusive.
 */
enum verdict stats_verdict(const struct evidence *ev, int shown,
			   double reported_change, double change);
const char *stats_verdict_name(enum verdict v);

enum fix_verdict { FIX_FIXED, FIX_PARTLY, FIX_NOT_FIXED, FIX_INCONCLUSIVE };

/*
 * The verdict on a fix of a reported change (a 'test' of a patch, a
 * tree or a commit, a landed fix verified): the tested runs against the
 * base ('vs_base', 'change_base' the %change from the base to them) and
 * against the reported commit ('vs_head', 'change_head' from the reported
 * commit to them); 'reported' is the report's change, whose sign tells
 * which way is back.
 *   fixed: significantly back from the reported commit (Welch's p < 0.01
 *          the way back, the Mann-Whitney test agreeing, as for a retest)
 *          and no longer significantly away from the base the reported
 *          way (Welch's p > 0.05 there, or away the other way);
 *   partly fixed: significantly back, still significantly away from the
 *          base the reported way (p < 0.01);
 *   not fixed: not back (Welch's p > 0.05 the way back, or the other
 *          way) and still significantly away from the base (p < 0.01);
 *   inconclusive: anything else, e.g. too few runs to tell.
 * Two constant samples count as a difference of p 0 when they differ.
 */
enum fix_verdict stats_fix_verdict(const struct evidence *vs_base,
				   double change_base,
				   const struct evidence *vs_head,
				   double change_head, double reported);
/* "fixed", "partly fixed", "not fixed", "inconclusive". */
const char *stats_fix_verdict_name(enum fix_verdict v);

#endif
