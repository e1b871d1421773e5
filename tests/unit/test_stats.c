// SPDX-License-Identifier: GPL-2.0-only
/*
 * The statistics against published reference values: Student's t table,
 * the Mann-Whitney critical-value table and exact null distribution, and
 * the worked Welch example of the Welch's t-test literature (two samples
 * of 15: t = -2.46, df = 25.0, p = 0.021).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "perfbot/stats.h"

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
	assert_int_equal(stats_welch(a, 3, b, 3, &w), 0);
	assert_true(w.p == 0 && isinf(w.t) && w.t > 0);
	assert_int_equal(stats_welch(a, 3, a, 3, &w), 0);
	assert_true(w.p == 1);
	assert_int_equal(stats_welch(one, 1, a, 3, &w), -1);
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

static void t_mwu_ties_normal(void **state)
{
	const double a[] = { 1, 2, 2, 3, 3, 3, 4, 5 };
	const double b[] = { 3, 4, 4, 5, 5, 6, 7, 7 };
	double x[30], y[30];
	struct mann_whitney m, e;
	int i;

	(void)state;
	assert_int_equal(stats_mann_whitney(a, 8, b, 8, &m), 0);
	assert_false(m.exact);
	assert_true(m.p > 0 && m.p < 0.05);
	/* without ties, large samples: exact and normal agree closely */
	for (i = 0; i < 30; i++) {
		x[i] = i * 2.0;
		y[i] = i * 2.0 + 9.5;
	}
	stats_mann_whitney(x, 30, y, 30, &e);
	x[0] = x[1];	/* one tie: normal approximation */
	stats_mann_whitney(x, 30, y, 30, &m);
	assert_true(e.exact && !m.exact);
	assert_true(fabs(e.p - m.p) < 0.01);
}

static void t_change_ci(void **state)
{
	double lo, hi;

	(void)state;
	assert_int_equal(stats_change_ci(seed_base, 8, seed_head, 8, 0.95, &lo,
					 &hi), 0);
	/* the seed's -18.0% lies inside a tight interval */
	assert_true(lo < -18.07 && hi > -18.08 && hi - lo < 1);
	assert_true(lo > -18.5 && hi < -17.6);
}

static void t_verdicts(void **state)
{
	struct welch w;

	(void)state;
	stats_welch(seed_base, 8, seed_head, 8, &w);
	assert_true(w.p < 1e-10);
	assert_int_equal(stats_verdict(1, -18.0, -18.07, w.p), VERDICT_STABLE);
	assert_int_equal(stats_verdict(0, -18.0, -18.07, w.p),
			 VERDICT_INCONCLUSIVE);
	assert_int_equal(stats_verdict(1, -18.0, 2.0, 0.001),
			 VERDICT_NOT_REPRODUCED);
	assert_int_equal(stats_verdict(1, -18.0, -3.0, 0.2),
			 VERDICT_NOT_REPRODUCED);
	assert_int_equal(stats_verdict(1, -18.0, -3.0, 0.03),
			 VERDICT_INCONCLUSIVE);
	assert_string_equal(stats_verdict_name(VERDICT_STABLE), "stable");
	assert_string_equal(stats_verdict_name(VERDICT_NOT_REPRODUCED),
			    "not reproduced");
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
		cmocka_unit_test(t_mwu_ties_normal),
		cmocka_unit_test(t_change_ci),
		cmocka_unit_test(t_verdicts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
