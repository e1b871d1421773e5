// SPDX-License-Identifier: GPL-2.0-only
/*
 * The statistics against reference values: scipy's (fixtures/stats/
 * reference.txt, written by scripts/gen-stats-reference: Welch's t, df
 * and p, the 95% interval of the %change, Mann-Whitney U and p exact with
 * and without ties and asymptotic, t quantiles; to 1e-9 relative), the
 * published t table, the Mann-Whitney critical-value table, the worked
 * Welch example (two samples of 15: t = -2.46, df = 25.0, p = 0.021); and
 * one test for each defect of issue 10 (constant samples of unequal size,
 * n < 2, a negative or zero base mean, non-finite values, the verdict's
 * use of Mann-Whitney).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "perfbot/compare/stats.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const double welch_a1[] = {
	27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1, 21.9, 22.6, 23.1,
	19.6, 19.0, 21.7, 21.4,
};
static const double welch_a2[] = {
	27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0, 24.8, 20.2, 21.9,
	22.1, 22.9, 20.5, 24.4,
};

/* Seed 003's retest: 8 runs per commit, as the thread quotes them. */
static const double seed_base[] = {
	40239.65, 40163.33, 40353.32, 39976.9, 40185.75, 40411.3, 40213.58,
	39900.69,
};
static const double seed_head[] = {
	32964.01, 32938.68, 33068.18, 32886.32, 32843.72, 32798.83, 32898.34,
	32952.55,
};

static void t_t_table(void **state)
{
	(void)state;
	/* two-sided 95% and 99% critical values of the t table */
	assert_true(fabs(stats_t_quantile(0.975, 1) - 12.706) < 0.001);
	assert_true(fabs(stats_t_quantile(0.975, 10) - 2.228) < 0.001);
	assert_true(fabs(stats_t_quantile(0.975, 30) - 2.042) < 0.001);
	assert_true(fabs(stats_t_quantile(0.995, 5) - 4.032) < 0.001);
	assert_true(fabs(stats_t_quantile(0.95, 20) - 1.725) < 0.001);
	assert_true(fabs(stats_t_cdf(2.228, 10) - 0.975) < 1e-4);
	assert_true(fabs(stats_t_cdf(-2.228, 10) - 0.025) < 1e-4);
	assert_true(fabs(stats_t_cdf(0, 7) - 0.5) < 1e-12);
}

static void t_betai(void **state)
{
	(void)state;
	/* I_x(1, 1) = x; I_x(a, 1) = x^a; I_0.5(a, a) = 0.5 */
	assert_true(fabs(stats_betai(1, 1, 0.3) - 0.3) < 1e-12);
	assert_true(fabs(stats_betai(3, 1, 0.5) - 0.125) < 1e-12);
	assert_true(fabs(stats_betai(4.5, 4.5, 0.5) - 0.5) < 1e-12);
	assert_true(stats_betai(2, 3, 0) == 0);
	assert_true(stats_betai(2, 3, 1) == 1);
}

static void t_welch_reference(void **state)
{
	struct welch w;

	(void)state;
	assert_int_equal(stats_welch(welch_a2, N(welch_a2), welch_a1,
				     N(welch_a1), &w), 0);
	assert_true(fabs(w.t - -2.4554) < 1e-3);
	assert_true(fabs(w.df - 24.99) < 0.01);
	assert_true(fabs(w.p - 0.0214) < 2e-4);
}

static void t_welch_symmetric_and_degenerate(void **state)
{
	const double a[] = { 5, 5, 5 }, b[] = { 7, 7, 7 }, one[] = { 1 };
	struct welch w, x;

	(void)state;
	stats_welch(welch_a1, N(welch_a1), welch_a2, N(welch_a2), &w);
	stats_welch(welch_a2, N(welch_a2), welch_a1, N(welch_a1), &x);
	assert_true(fabs(w.t + x.t) < 1e-12 && fabs(w.p - x.p) < 1e-12);
	/* two constants: no test, but known to differ */
	assert_int_equal(stats_welch(a, 3, b, 3, &w), 0);
	assert_true(!w.ok && w.constant && !w.same && w.p == 1 && w.diff == 2);
	assert_int_equal(stats_welch(a, 3, a, 3, &w), 0);
	assert_true(!w.ok && w.same && w.p == 1);
	assert_int_equal(stats_welch(one, 1, a, 3, &w), 0);
	assert_true(!w.ok && w.p == 1 && w.why);
}

static void t_mwu_exact_distribution(void **state)
{
	const double lo[] = { 1, 2, 3, 4 }, hi[] = { 5, 6, 7, 8 };
	const double lo3[] = { 1, 2, 3 }, hi3[] = { 4, 5, 6 };
	struct mann_whitney m;

	(void)state;
	/* complete separation: 2 / C(8, 4) and 2 / C(6, 3) */
	assert_int_equal(stats_mann_whitney(lo, 4, hi, 4, &m), 0);
	assert_true(m.exact && m.u == 16);
	assert_true(fabs(m.p - 2.0 / 70) < 1e-12);
	stats_mann_whitney(lo3, 3, hi3, 3, &m);
	assert_true(fabs(m.p - 0.1) < 1e-12);
}

/* Critical value table, n1 = n2 = 8, two-sided 0.05: U <= 13. */
static void t_mwu_critical_value(void **state)
{
	/* head takes ranks {1,2,3,4,5,6,12,16} (U = 13), then U = 14 */
	const double h13[] = { 1, 2, 3, 4, 5, 6, 12, 16 };
	const double b13[] = { 7, 8, 9, 10, 11, 13, 14, 15 };
	const double h14[] = { 1, 2, 3, 4, 5, 7, 12, 16 };
	const double b14[] = { 6, 8, 9, 10, 11, 13, 14, 15 };
	struct mann_whitney m;

	(void)state;
	stats_mann_whitney(b13, 8, h13, 8, &m);
	assert_true(m.u == 13 && m.p <= 0.05);
	assert_true(fabs(m.p - 0.0498834) < 1e-6);
	stats_mann_whitney(b14, 8, h14, 8, &m);
	assert_true(m.u == 14 && m.p > 0.05);
	assert_true(fabs(m.p - 0.0649573) < 1e-6);
}

static void t_mwu_ties(void **state)
{
	const double a[] = { 1, 2, 2, 3, 3, 3, 4, 5 };
	const double b[] = { 3, 4, 4, 5, 5, 6, 7, 7 };
	double x[60], y[60];
	struct mann_whitney m, e;
	int i;

	(void)state;
	/* ties, few runs: still exact */
	assert_int_equal(stats_mann_whitney(a, 8, b, 8, &m), 0);
	assert_true(m.exact);
	assert_true(m.p > 0 && m.p < 0.05);
	/* beyond 50 a side: the normal approximation, close to exact */
	for (i = 0; i < 60; i++) {
		x[i] = i * 2.0;
		y[i] = i * 2.0 + 19.5;
	}
	stats_mann_whitney(x, 50, y, 50, &e);
	x[0] = x[1];
	stats_mann_whitney(x, 60, y, 60, &m);
	assert_true(e.exact && !m.exact);
	stats_mann_whitney(x, 50, y, 50, &e);
	assert_true(e.exact);
	assert_true(m.p > 0 && m.p < 1);
}

static void t_change_ci(void **state)
{
	struct change_ci ci;

	(void)state;
	assert_int_equal(stats_change_ci(seed_base, 8, seed_head, 8, 0.95,
					 &ci), 0);
	/* the seed's -18.0% lies inside a tight interval */
	assert_true(ci.ok && ci.lo < -18.07 && ci.hi > -18.08 &&
		    ci.hi - ci.lo < 1);
	assert_true(ci.lo > -18.5 && ci.hi < -17.6);
}

/*
 * A throughput that collapsed, noisily: the linear interval of the
 * %change reaches below -100% (-108% here), which no throughput can
 * fall to; on the log scale it stays above it and holds the change.
 */
static void t_change_ci_above_minus_100(void **state)
{
	const double b[] = { 1000, 1300, 700 };
	const double h[] = { 80, 10, 150 };
	struct change_ci ci;

	(void)state;
	assert_int_equal(stats_change_ci(b, 3, h, 3, 0.95, &ci), 0);
	assert_true(ci.ok);
	assert_true(ci.lo > -100 && ci.lo < -92 && ci.hi > -92 &&
		    ci.hi < 0);
}

static void t_verdicts(void **state)
{
	const double c5[] = { 5, 5, 5, 5 }, c7[] = { 7, 7, 7, 7 };
	struct evidence ev;

	(void)state;
	stats_evidence(seed_base, 8, seed_head, 8, &ev);
	assert_true(ev.w.ok && ev.w.p < 1e-10 && ev.mw.p < 0.05);
	assert_int_equal(stats_verdict(&ev, 1, -18.0, -18.07), VERDICT_STABLE);
	assert_int_equal(stats_verdict(&ev, 0, -18.0, -18.07),
			 VERDICT_INCONCLUSIVE);
	assert_int_equal(stats_verdict(&ev, 1, 18.0, -18.07),
			 VERDICT_NOT_REPRODUCED);
	ev.w.p = 0.2;
	assert_int_equal(stats_verdict(&ev, 1, -18.0, -3.0),
			 VERDICT_NOT_REPRODUCED);
	ev.w.p = 0.03;
	assert_int_equal(stats_verdict(&ev, 1, -18.0, -3.0),
			 VERDICT_INCONCLUSIVE);
	/* constants that differ the reported way are stable, equal ones not */
	stats_evidence(c5, 4, c7, 4, &ev);
	assert_int_equal(stats_verdict(&ev, 1, 40.0, 40.0), VERDICT_STABLE);
	assert_int_equal(stats_verdict(&ev, 1, -40.0, 40.0),
			 VERDICT_NOT_REPRODUCED);
	stats_evidence(c5, 4, c5, 4, &ev);
	assert_int_equal(stats_verdict(&ev, 1, 40.0, 0), VERDICT_NOT_REPRODUCED);
	assert_string_equal(stats_verdict_name(VERDICT_STABLE), "stable");
	assert_string_equal(stats_verdict_name(VERDICT_NOT_REPRODUCED),
			    "not reproduced");
}

/* ---- scipy's values (fixtures/stats/reference.txt) ---- */

#define REFERENCE "fixtures/stats/reference.txt"
#define REF_MAX 200

struct ref {
	char kind[8];
	double num[5];
	size_t nnum;
	double v[2][REF_MAX];
	size_t n[2];
};

static int parse_ref(char *line, struct ref *r)
{
	char *tok, *save = NULL;
	int part = 0;
	size_t want[2];

	memset(r, 0, sizeof(*r));
	tok = strtok_r(line, " \n", &save);
	if (!tok || strlen(tok) >= sizeof(r->kind))
		return -1;
	memcpy(r->kind, tok, strlen(tok) + 1);
	if (!strcmp(r->kind, "tq")) {
		for (; (tok = strtok_r(NULL, " \n", &save)) && r->nnum < 5;)
			r->num[r->nnum++] = strtod(tok, NULL);
		return r->nnum == 3 ? 0 : -1;
	}
	want[0] = strtoul(strtok_r(NULL, " ", &save), NULL, 10);
	want[1] = strtoul(strtok_r(NULL, " ", &save), NULL, 10);
	while ((tok = strtok_r(NULL, " \n", &save))) {
		if (!strcmp(tok, ":")) {
			part++;
			continue;
		}
		if (part == 0 && r->nnum < 5)
			r->num[r->nnum++] = strtod(tok, NULL);
		else if (part >= 1 && part <= 2 && r->n[part - 1] < REF_MAX)
			r->v[part - 1][r->n[part - 1]++] = strtod(tok, NULL);
		else
			return -1;
	}
	return r->n[0] == want[0] && r->n[1] == want[1] ? 0 : -1;
}

/* 'got' within 1e-9 relative of 'want' (absolute below 1e-300). */
static void near(const char *what, long line, double got, double want)
{
	double tol = 1e-9 * fmax(fabs(want), 1e-300);

	if (!(fabs(got - want) <= tol))
		fail_msg("%s:%ld: %s is %.17g, scipy says %.17g", REFERENCE,
			 line, what, got, want);
}

static void check_ref(const struct ref *r, long line, long *counts)
{
	struct welch w;
	struct mann_whitney m;
	struct change_ci ci;

	if (!strcmp(r->kind, "welch")) {
		assert_int_equal(stats_welch(r->v[0], r->n[0], r->v[1], r->n[1],
					     &w), 0);
		assert_true(w.ok);
		near("t", line, w.t, r->num[0]);
		near("df", line, w.df, r->num[1]);
		near("p", line, w.p, r->num[2]);
		counts[0]++;
	} else if (!strcmp(r->kind, "ci")) {
		assert_int_equal(stats_change_ci(r->v[0], r->n[0], r->v[1],
						 r->n[1], 0.95, &ci), 0);
		assert_true(ci.ok);
		near("ci low", line, ci.lo, r->num[0]);
		near("ci high", line, ci.hi, r->num[1]);
		counts[1]++;
	} else if (!strcmp(r->kind, "mwu")) {
		assert_int_equal(stats_mann_whitney(r->v[0], r->n[0], r->v[1],
						    r->n[1], &m), 0);
		assert_true(m.ok);
		near("U", line, m.u, r->num[0]);
		near("p", line, m.p, r->num[1]);
		assert_int_equal(m.exact, (int)r->num[2]);
		counts[2]++;
	} else if (!strcmp(r->kind, "tq")) {
		near("t quantile", line, stats_t_quantile(r->num[0], r->num[1]),
		     r->num[2]);
		counts[3]++;
	} else {
		fail_msg("%s:%ld: unknown line", REFERENCE, line);
	}
}

static void t_scipy_reference(void **state)
{
	FILE *f = fopen(REFERENCE, "r");
	static char line[65536];
	static struct ref r;
	long no = 0, counts[4] = { 0, 0, 0, 0 };

	(void)state;
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		no++;
		if (line[0] == '#')
			continue;
		if (parse_ref(line, &r))
			fail_msg("%s:%ld: unreadable", REFERENCE, no);
		check_ref(&r, no, counts);
	}
	fclose(f);
	/* every kind is there, in numbers */
	assert_true(counts[0] >= 100 && counts[1] >= 100 && counts[2] >= 25 &&
		    counts[3] >= 30);
}

/* ---- the defects of issue 10, one test each ---- */

/* {0.1, 0.1} against eleven 0.1: rounding in a mean is no change. */
static void t_constant_unequal_sizes(void **state)
{
	const double two[] = { 0.1, 0.1 };
	double eleven[11];
	struct evidence ev;
	int i;

	(void)state;
	for (i = 0; i < 11; i++)
		eleven[i] = 0.1;
	assert_int_equal(stats_evidence(two, 2, eleven, 11, &ev), 0);
	assert_false(ev.w.ok);
	assert_true(ev.w.same && ev.w.p == 1);
	assert_false(ev.ci.ok);
	assert_true(ev.mw.ok && ev.mw.p == 1);
	assert_int_equal(stats_verdict(&ev, 1, 5.0, -1.4e-14),
			 VERDICT_NOT_REPRODUCED);
}

/* n < 2 is no test, and never a p of 0 the verdict would take as proof. */
static void t_too_few_runs(void **state)
{
	const double one[] = { 1 }, three[] = { 5, 6, 7 };
	struct evidence ev;

	(void)state;
	assert_int_equal(stats_evidence(one, 1, three, 3, &ev), 0);
	assert_true(!ev.w.ok && ev.w.p == 1 && ev.w.why);
	assert_true(!ev.mw.ok && ev.mw.p == 1 && ev.mw.why);
	assert_true(!ev.ci.ok && ev.ci.why);
	assert_int_equal(stats_verdict(&ev, 1, 500.0, 500.0),
			 VERDICT_INCONCLUSIVE);
}

/* A negative base mean: the interval has the sign of the %change. */
static void t_negative_base_mean(void **state)
{
	const double b[] = { -100, -101, -99, -100.5 };
	const double h[] = { -90, -91, -89, -90.5 };	/* change +10% */
	struct change_ci ci;

	(void)state;
	assert_int_equal(stats_change_ci(b, 4, h, 4, 0.95, &ci), 0);
	/* 100 (mh - mb) / mb = 100 * 10 / -100.125 = -9.99% */
	assert_true(ci.lo < ci.hi && ci.hi < 0);
	assert_true(ci.lo < -9.98 && ci.hi > -10.0);
}

/* A base mean of 0 gives no interval, never "+nan%". */
static void t_zero_base_mean(void **state)
{
	const double b[] = { -1, 1, -2, 2 }, h[] = { 3, 4, 5, 4 };
	struct change_ci ci;

	(void)state;
	assert_int_equal(stats_change_ci(b, 4, h, 4, 0.95, &ci), 0);
	assert_false(ci.ok);
	assert_non_null(ci.why);
	assert_true(ci.lo == 0 && ci.hi == 0);
}

/* Values that overflow the mean or variance are refused, not NaN. */
static void t_non_finite(void **state)
{
	const double big[] = { 1e308, 1.7e308, -1.7e308 };
	const double h[] = { 1, 2, 3 }, nan_[] = { 1, NAN, 2 };
	struct evidence ev;

	(void)state;
	stats_evidence(big, 3, h, 3, &ev);
	assert_true(!ev.w.ok && ev.w.p == 1 && !isnan(ev.w.t));
	assert_false(ev.ci.ok);
	stats_evidence(nan_, 3, h, 3, &ev);
	assert_true(!ev.w.ok && !ev.mw.ok && !ev.ci.ok);
	assert_true(ev.mw.p == 1 && ev.w.p == 1);
}

/* A Mann-Whitney p that disagrees keeps the verdict from "stable". */
static void t_verdict_uses_mann_whitney(void **state)
{
	/* one outlier run makes Welch strong and the ranks weak */
	const double b[] = { 100, 100.1, 99.9, 100.05, 99.95, 100.02 };
	const double h[] = { 99.9, 100.1, 95, 95.1, 94.9, 95.05 };
	struct evidence ev;

	(void)state;
	stats_evidence(b, 6, h, 6, &ev);
	ev.w.p = 0.001;	/* as if Welch were sure */
	ev.mw.p = 0.09;
	assert_int_equal(stats_verdict(&ev, 1, -3.0, -3.0),
			 VERDICT_INCONCLUSIVE);
	ev.mw.p = 0.01;
	assert_int_equal(stats_verdict(&ev, 1, -3.0, -3.0), VERDICT_STABLE);
	/* 3 runs a side cannot reach 0.05: Welch alone decides */
	assert_true(stats_mw_min_p(3, 3) >= 0.05);
	assert_true(fabs(stats_mw_min_p(4, 4) - 2.0 / 70) < 1e-15);
	stats_evidence(b, 3, h + 3, 3, &ev);
	assert_true(ev.w.ok && ev.w.p < 0.01 && ev.mw.p >= 0.05);
	assert_int_equal(stats_verdict(&ev, 1, -5.0, -5.0), VERDICT_STABLE);
}

/* Exact with ties agrees with counting every arrangement by hand. */
static void t_mwu_exact_ties_small(void **state)
{
	/* base {1, 2}, head {2, 3}: ranks 1, 2.5, 2.5, 4; C(4, 2) = 6
	 * arrangements, head rank sums 3.5 3.5 5 5 6.5 6.5 (U 0.5..3.5);
	 * observed 6.5: P(>= 6.5) = 2/6, two-sided 4/6 */
	const double b[] = { 1, 2 }, h[] = { 2, 3 };
	struct mann_whitney m;

	(void)state;
	assert_int_equal(stats_mann_whitney(b, 2, h, 2, &m), 0);
	assert_true(m.exact && m.u == 3.5);
	assert_true(fabs(m.p - 4.0 / 6) < 1e-15);
}

/* The verdict on a fix: a 10% regression, tested runs at each level. */
static enum fix_verdict fix(const double *t, size_t n)
{
	static const double base[] = { 100, 101, 99, 100.5, 99.5, 100 };
	static const double head[] = { 90, 90.9, 89.1, 90.45, 89.55, 90 };
	struct evidence vb, vh;
	double mt = 0, mb = 100, mh = 90;
	size_t i;

	for (i = 0; i < n; i++)
		mt += t[i] / (double)n;
	assert_int_equal(stats_evidence(base, 6, t, n, &vb), 0);
	assert_int_equal(stats_evidence(head, 6, t, n, &vh), 0);
	return stats_fix_verdict(&vb, 100 * (mt - mb) / mb, &vh,
				 100 * (mt - mh) / mh, -10);
}

static void t_fix_verdict(void **state)
{
	static const double back[] = { 100.2, 99.1, 100.9, 99.8, 100.4, 99.6 };
	static const double half[] = { 95, 95.9, 94.1, 95.4, 94.6, 95.2 };
	static const double none[] = { 90.2, 89.3, 90.8, 89.9, 90.5, 89.7 };
	static const double past[] = { 110, 111, 109, 110.5, 109.5, 110 };
	static const double noisy[] = { 80, 104 };

	(void)state;
	assert_int_equal(fix(back, 6), FIX_FIXED);
	assert_int_equal(fix(past, 6), FIX_FIXED);	/* better than base */
	assert_int_equal(fix(half, 6), FIX_PARTLY);
	assert_int_equal(fix(none, 6), FIX_NOT_FIXED);
	assert_int_equal(fix(noisy, 2), FIX_INCONCLUSIVE);
	assert_string_equal(stats_fix_verdict_name(FIX_PARTLY),
			    "partly fixed");
}

/* The normal and chi-square quantiles, the t quantile's far tails. */
static void t_quantiles(void **state)
{
	static const double ps[] = { 1e-300, 1e-12, 1e-4, 0.01, 0.3, 0.5,
				     0.7, 0.99, 1 - 1e-12 };
	static const double dfs[] = { 1, 1.5, 2, 3.1, 7, 30, 1000 };
	size_t i, j;

	(void)state;
	/* the printed table: 1.959964, 2.326348, 3.090232 */
	assert_true(fabs(stats_norm_quantile(0.975) - 1.959964) < 1e-6);
	assert_true(fabs(stats_norm_quantile(0.01) + 2.326348) < 1e-6);
	assert_true(fabs(stats_norm_quantile(0.999) - 3.090232) < 1e-6);
	assert_true(fabs(stats_norm_quantile(0.5)) < 1e-15);
	assert_true(isinf(stats_norm_quantile(0)) &&
		    stats_norm_quantile(0) < 0);
	for (i = 0; i < N(ps); i++) {
		double z = stats_norm_quantile(ps[i]), back = stats_norm_cdf(z);

		assert_true(isfinite(z));
		assert_true(fabs(back - ps[i]) <= 1e-12 * fmin(ps[i], 1) +
			    1e-15 || fabs(back / ps[i] - 1) < 1e-10);
	}
	/* the Cauchy quantile is tan(pi (p - 1/2)) = -1 / tan(pi p) */
	assert_true(fabs(stats_t_quantile(1e-10, 1) *
			 -tan(M_PI * 1e-10) - 1) < 1e-10);
	for (i = 1; i < N(ps) - 1; i++)
		for (j = 0; j < N(dfs); j++) {
			double t = stats_t_quantile(ps[i], dfs[j]);
			double back = ps[i] < 0.5 ? stats_t_cdf(t, dfs[j]) :
				1 - stats_t_cdf(t, dfs[j]);
			double want = ps[i] < 0.5 ? ps[i] : 1 - ps[i];

			assert_true(fabs(back / want - 1) < 1e-8);
		}
	/* chi-square table: 18.307 (0.95, 10), 3.247 (0.025, 10), 37.566
	 * (0.99, 20); Wilson and Hilferty within 1% */
	assert_true(fabs(stats_chi2_quantile(0.95, 10) / 18.307 - 1) < 0.01);
	assert_true(fabs(stats_chi2_quantile(0.025, 10) / 3.247 - 1) < 0.01);
	assert_true(fabs(stats_chi2_quantile(0.99, 20) / 37.566 - 1) < 0.01);
	assert_true(stats_chi2_quantile(0, 4) == 0);
	assert_true(isinf(stats_chi2_quantile(1, 4)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_t_table),
		cmocka_unit_test(t_betai),
		cmocka_unit_test(t_welch_reference),
		cmocka_unit_test(t_welch_symmetric_and_degenerate),
		cmocka_unit_test(t_mwu_exact_distribution),
		cmocka_unit_test(t_mwu_critical_value),
		cmocka_unit_test(t_mwu_ties),
		cmocka_unit_test(t_change_ci),
		cmocka_unit_test(t_change_ci_above_minus_100),
		cmocka_unit_test(t_verdicts),
		cmocka_unit_test(t_scipy_reference),
		cmocka_unit_test(t_constant_unequal_sizes),
		cmocka_unit_test(t_too_few_runs),
		cmocka_unit_test(t_negative_base_mean),
		cmocka_unit_test(t_zero_base_mean),
		cmocka_unit_test(t_non_finite),
		cmocka_unit_test(t_verdict_uses_mann_whitney),
		cmocka_unit_test(t_mwu_exact_ties_small),
		cmocka_unit_test(t_fix_verdict),
		cmocka_unit_test(t_quantiles),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
