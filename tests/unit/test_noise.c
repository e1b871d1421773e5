// SPDX-License-Identifier: GPL-2.0-only
/*
 * Learned noise: the empirical-Bayes prior recovers the s0 and d0 of
 * cells drawn from its own model (variances scaled inverse chi-square,
 * each cell's CV a chi-square sample of its variance); cells that agree
 * beyond their sampling give d0 infinite; one cell is its own prior;
 * unusable cells are left out or refused. A cell's moderated CV lies
 * between its own and the prior's, the more its own the more runs it
 * has. The fixed-sample runs match the textbook (64 a side for half a
 * standard deviation at alpha 2.5%, power 80%). The plan gives a quiet
 * benchmark fewer runs than a noisy one, raises the shift when the cap
 * cannot decide it, and refuses what it cannot plan.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "perfbot/compare/noise.h"
#include "perfbot/util/prng.h"

#define CELLS 20000

static double chi2(struct prng *r, long df)
{
	double s = 0;
	long i;

	for (i = 0; i < df; i++) {
		double z = prng_normal(r);

		s += z * z;
	}
	return s;
}

/* sigma^2 = d0 s0^2 / chi2(d0); the cell's s^2 = sigma^2 chi2(d) / d */
static void draw_cells(struct noise_cell *c, size_t n, double s0, long d0,
		       long d, uint64_t seed)
{
	struct prng r;
	size_t i;

	prng_seed(&r, seed);
	for (i = 0; i < n; i++) {
		double var = (double)d0 * s0 * s0 / chi2(&r, d0);

		c[i].cv = sqrt(var * chi2(&r, d) / (double)d);
		c[i].df = d;
	}
}

static void t_fit_recovers(void **state)
{
	static struct noise_cell c[CELLS];
	struct noise_prior pr;
	struct pb_err err = { 0, "" };

	(void)state;
	draw_cells(c, CELLS, 0.02, 10, 6, 1);
	assert_int_equal(noise_prior_fit(c, CELLS, &pr, &err), 0);
	assert_int_equal(pr.cells, CELLS);
	assert_true(fabs(pr.cv / 0.02 - 1) < 0.03);
	assert_true(pr.df > 8 && pr.df < 12.5);
	/* cells that differ more: fewer prior degrees of freedom */
	draw_cells(c, CELLS, 0.02, 4, 6, 2);
	assert_int_equal(noise_prior_fit(c, CELLS, &pr, &err), 0);
	assert_true(pr.df > 3 && pr.df < 5);
	assert_true(fabs(pr.cv / 0.02 - 1) < 0.05);
}

static void t_fit_edges(void **state)
{
	struct noise_cell c[4] = { { 0.02, 1000 }, { 0.02, 1000 },
				   { 0.02, 1000 }, { 0.02, 1000 } };
	struct noise_cell bad[3] = { { 0, 5 }, { NAN, 5 }, { 0.03, 0 } };
	struct noise_prior pr;
	struct pb_err err = { 0, "" };

	(void)state;
	/* the same CV everywhere: less spread than sampling alone gives */
	assert_int_equal(noise_prior_fit(c, 4, &pr, &err), 0);
	assert_true(isinf(pr.df));
	assert_true(fabs(pr.cv / 0.02 - 1) < 0.01);
	/* one usable cell among unusable ones: it is the prior */
	c[0].cv = 0.035;
	memcpy(c + 1, bad, sizeof(bad));
	assert_int_equal(noise_prior_fit(c, 4, &pr, &err), 0);
	assert_int_equal(pr.cells, 1);
	assert_true(pr.cv == 0.035 && pr.df == 0);
	assert_int_equal(noise_prior_fit(bad, 3, &pr, &err), -1);
	assert_int_equal(err.code, EX_DATAERR);
	assert_non_null(strstr(err.msg, "noise"));
	assert_int_equal(noise_prior_fit(c, NOISE_MAX_CELLS + 1UL, &pr, &err),
			 -1);
}

static void t_moderated(void **state)
{
	struct noise_prior pr = { 0.02, 10, 100 };
	struct noise_cell few = { 0.05, 2 }, many = { 0.05, 1000 };
	struct noise_cell none = { 0.05, 0 };
	double df, a, b;

	(void)state;
	a = noise_cv(&pr, &few, &df);
	assert_true(df == 12);
	/* (10 x 0.02^2 + 2 x 0.05^2) / 12 */
	assert_true(fabs(a - sqrt((10 * 4e-4 + 2 * 25e-4) / 12)) < 1e-15);
	b = noise_cv(&pr, &many, NULL);
	assert_true(a > 0.02 && a < b && b < 0.05 && b > 0.049);
	assert_true(noise_cv(&pr, &none, &df) == 0.02 && df == 10);
	assert_true(noise_cv(&pr, NULL, NULL) == 0.02);
	/* the design's noise: above the estimate, by less the more is known */
	assert_true(noise_design_cv(&pr, &few) > a);
	assert_true(noise_design_cv(&pr, &few) / a >
		    noise_design_cv(&pr, &many) / b);
	pr.df = INFINITY;
	assert_true(noise_cv(&pr, &many, NULL) == 0.02);
	assert_true(noise_design_cv(&pr, &many) == 0.02);
}

static void t_fixed_runs(void **state)
{
	(void)state;
	/* 2 (1.96 + 0.8416)^2 / 0.5^2 + 1.96^2 / 4 = 63.8 */
	assert_true(fabs(noise_fixed_runs(0.025, 0.8, 0.5, 1) - 63.75) < 0.05);
	/* the same in percent: 5% at CV 10% is half a deviation */
	assert_true(fabs(noise_fixed_runs(0.025, 0.8, 0.05, 0.1) - 63.75) <
		    0.05);
	assert_true(noise_fixed_runs(0.01, 0.96, 0.05, 0.02) < 7);
}

static void plan(double cv, double shift, long least, long cap,
		 struct seq_params *p)
{
	struct noise_prior pr = { cv, INFINITY, 1 };
	struct pb_err err = { 0, "" };

	seq_params_default(p);
	assert_int_equal(noise_plan(&pr, NULL, shift, least, cap, p, &err), 0);
	assert_true(p->looks[p->nlooks - 1] == cap);
}

static void t_plan(void **state)
{
	struct seq_params quiet, mid, noisy, retest;
	struct noise_prior pr = { 0.02, INFINITY, 1 };
	struct pb_err err = { 0, "" };
	struct seq_design d;

	(void)state;
	plan(0.01, 0.05, 3, 13, &quiet);
	plan(0.02, 0.05, 3, 13, &mid);
	plan(0.05, 0.05, 3, 13, &noisy);
	/* the anchor: 3, 5, 8 at CV 2% */
	assert_int_equal(mid.looks[0], 3);
	assert_int_equal(mid.looks[1], 5);
	assert_int_equal(mid.looks[2], 8);
	assert_true(mid.shift == 0.05 && mid.cv == 0.02);
	assert_int_equal(quiet.looks[0], 3);
	assert_true(quiet.shift == 0.05);
	/* noisy: a later first look, and 13 runs cannot decide 5% */
	assert_true(noisy.looks[0] > mid.looks[0]);
	assert_true(noisy.shift > 0.08 && noisy.shift < 0.11);
	assert_true(seq_design_init(&d, &noisy, &err) == 0);
	/* and the quiet design stops sooner than the anchor's */
	assert_true(seq_design_init(&d, &quiet, &err) == 0);
	assert_true(d.look[d.nlooks - 1].n < 8);
	/* a developer's 'retest 8x': the first look is 8 */
	plan(0.02, 0.05, 8, 20, &retest);
	assert_int_equal(retest.looks[0], 8);
	/* refused */
	seq_params_default(&quiet);
	assert_int_equal(noise_plan(&pr, NULL, 0.05, 1, 20, &quiet, &err), -1);
	assert_int_equal(noise_plan(&pr, NULL, 0.05, 9, 8, &quiet, &err), -1);
	assert_int_equal(noise_plan(&pr, NULL, 0, 3, 8, &quiet, &err), -1);
	assert_int_equal(noise_plan(&pr, NULL, 0.05, 3, SEQ_MAX_RUNS + 1,
				    &quiet, &err), -1);
	assert_non_null(strstr(err.msg, "noise plan"));
}

/*
 * Issue 32 item 5: the first look at the learned noise. A quiet cell's
 * confirmation asks fewer runs first than the policy's own (6 a side in
 * all on 3 held), down to one new run a side; at the noise the design
 * assumes it keeps the policy's looks; a noisy one goes to the cap at
 * once. A retest's N is the least; a noisy cell asks more first.
 */
static void t_first_look(void **state)
{
	struct noise_prior quiet = { 0.01, INFINITY, 5 };
	struct noise_prior usual = { 0.02, INFINITY, 5 };
	struct noise_prior noisy = { 0.05, INFINITY, 5 };
	struct seq_params p;

	(void)state;
	seq_params_confirm(&p, 3, 16, 0);
	p.direction = 1;
	assert_int_equal(p.looks[0], 6);
	assert_int_equal(noise_first_confirm(&quiet, NULL, &p, 3, 16), 4);
	assert_int_equal(noise_first_confirm(&usual, NULL, &p, 3, 16), 6);
	assert_int_equal(noise_first_confirm(&noisy, NULL, &p, 3, 16), 16);
	/* never below one new run a side, nor the least of the design */
	assert_int_equal(noise_first_confirm(&quiet, NULL, &p, 1, 16), 2);
	seq_params_retest(&p, 4, 20, 0, 0.05, 0.02);
	assert_int_equal(noise_first_look(&quiet, NULL, &p, 4, 20), 4);
	assert_int_equal(noise_first_look(&usual, NULL, &p, 4, 20), 5);
	assert_int_equal(noise_first_look(&noisy, NULL, &p, 4, 20), 20);
	assert_int_equal(noise_first_look(&noisy, NULL, &p, 4, 12), 12);
	/* a design that cannot say: the least */
	p.shift = 0;
	assert_int_equal(noise_first_look(&noisy, NULL, &p, 4, 20), 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_fit_recovers),
		cmocka_unit_test(t_fit_edges),
		cmocka_unit_test(t_moderated),
		cmocka_unit_test(t_fixed_runs),
		cmocka_unit_test(t_plan),
		cmocka_unit_test(t_first_look),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
