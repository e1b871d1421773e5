// SPDX-License-Identifier: GPL-2.0-only
/*
 * The mailing decision: weak evidence waits for confirmation runs,
 * strong evidence is mailed at once, a key metric the filter hides may
 * still be worth confirming, and the confirmation decides on new runs.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "perfbot/judge/trigger.h"

static const struct confirm_policy on = { 1, 16, 8 };
static const struct confirm_policy off = { 0, 16, 8 };

/* n values around 'mean' (a fixed, symmetric spread of 'sd'). */
static void fill(double *v, size_t n, double mean, double sd)
{
	size_t i;

	for (i = 0; i < n; i++)
		v[i] = mean + sd * ((double)(i % 5) - 2) / 2;
}

static void t_weak_and_strong(void **state)
{
	double b[12], h[12];
	struct evidence ev;

	(void)state;
	/* a clear change on 3 runs: too few runs, weak */
	fill(b, 3, 1000, 10);
	fill(h, 3, 1100, 10);
	stats_evidence(b, 3, h, 3, &ev);
	assert_true(ev.w.ok && ev.w.p < 0.01);
	assert_int_equal(trigger_weak(&on, &ev), 1);
	/* the same on 10 runs: strong */
	fill(b, 10, 1000, 10);
	fill(h, 10, 1100, 10);
	stats_evidence(b, 10, h, 10, &ev);
	assert_int_equal(trigger_weak(&on, &ev), 0);
	/* 10 runs of a small change: Welch's p not below 0.001 */
	fill(h, 10, 1006, 10);
	stats_evidence(b, 10, h, 10, &ev);
	assert_true(ev.w.p >= TRIGGER_P_STRONG);
	assert_int_equal(trigger_weak(&on, &ev), 1);
}

static void t_actions(void **state)
{
	double b[10], h[10];
	struct evidence weak, strong;

	(void)state;
	fill(b, 3, 1000, 10);
	fill(h, 3, 1100, 10);
	stats_evidence(b, 3, h, 3, &weak);
	fill(b, 10, 1000, 10);
	fill(h, 10, 1100, 10);
	stats_evidence(b, 10, h, 10, &strong);
	assert_int_equal(trigger_action(&off, 1, 0, &weak), TRIGGER_MAIL);
	assert_int_equal(trigger_action(&off, 0, 1, &weak), TRIGGER_SKIP);
	assert_int_equal(trigger_action(&on, 1, 0, &weak), TRIGGER_CONFIRM);
	assert_int_equal(trigger_action(&on, 1, 0, &strong), TRIGGER_MAIL);
	assert_int_equal(trigger_action(&on, 0, 1, &strong), TRIGGER_CONFIRM);
	assert_int_equal(trigger_action(&on, 0, 0, &strong), TRIGGER_SKIP);
}

static void t_runs_asked(void **state)
{
	(void)state;
	assert_int_equal(confirm_runs(&on, 3), 13);
	assert_int_equal(confirm_runs(&on, 8), 8);
	assert_int_equal(confirm_runs(&on, 14), CONFIRM_LEAST_RUNS);
}

static struct cmp_row row(const double *b, const double *h, size_t n,
			  int shown)
{
	struct cmp_row r;

	memset(&r, 0, sizeof(r));
	r.name = "x.y";
	r.v[BASE] = b;
	r.v[HEAD] = h;
	r.n[BASE] = r.n[HEAD] = n;
	r.shown = shown;
	r.change = 100 * (h[0] - b[0]) / b[0];
	return r;
}

static void t_candidate(void **state)
{
	double b[4], h[4], c[4], m[4];
	struct cmp_row r;
	struct evidence ev;

	(void)state;
	fill(b, 4, 1000, 10);
	fill(h, 4, 1015, 10);
	fill(c, 4, 1000.5, 10);
	r = row(b, h, 4, 0);
	assert_int_equal(trigger_candidate(&r), 1);
	r.shown = 1;	/* shown: a report, not a candidate */
	assert_int_equal(trigger_candidate(&r), 0);
	r = row(b, c, 4, 0);	/* p near 1 */
	assert_int_equal(trigger_candidate(&r), 0);
	/* p about 0.4: confirmed since the sequential confirmation (with
	 * fewer candidates, 4% of real 5% changes at CV 2% and 3 runs went
	 * unconfirmed) */
	fill(m, 4, 1004, 10);
	stats_evidence(b, 4, m, 4, &ev);
	assert_true(ev.w.ok && ev.w.p > 0.35 && ev.w.p < 0.45);
	r = row(b, m, 4, 0);
	assert_int_equal(trigger_candidate(&r), 1);
	assert_int_equal(trigger_candidate(NULL), 0);
}

static void t_confirm_verdict(void **state)
{
	double b[8], h[8], same[8];
	struct cmp_row r;

	(void)state;
	fill(b, 8, 1000, 10);
	fill(h, 8, 1050, 10);
	memcpy(same, b, sizeof(same));
	/* the filter is not asked again: a hidden row still confirms */
	r = row(b, h, 8, 0);
	assert_int_equal(confirm_verdict(&r, 5.0), VERDICT_STABLE);
	assert_int_equal(confirm_verdict(&r, -5.0), VERDICT_NOT_REPRODUCED);
	r = row(b, same, 8, 0);
	assert_int_equal(confirm_verdict(&r, 5.0), VERDICT_NOT_REPRODUCED);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_weak_and_strong),
		cmocka_unit_test(t_actions),
		cmocka_unit_test(t_runs_asked),
		cmocka_unit_test(t_candidate),
		cmocka_unit_test(t_confirm_verdict),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
