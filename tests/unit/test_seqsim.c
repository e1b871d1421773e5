// SPDX-License-Identifier: GPL-2.0-only
/*
 * The simulation of a decision rule: rules written here (answer after a
 * fixed number of runs; ask past the cap; ask for nothing) are counted
 * as they answer; the runs drawn have the mean, shift and deviation of
 * the world asked for, normal or t3; the same seed gives the same
 * figures; a world out of range is refused.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "perfbot/compare/seqsim.h"

/* Asks for 'runs' a side, then answers 'answer'; sums what it saw. */
struct fixed_rule {
	long runs;
	enum seq_answer answer;
	double diff, sd, head_sd;	/* sums over the trials */
	long calls;
};

static double mean_of(const double *v, size_t n)
{
	double s = 0;
	size_t i;

	for (i = 0; i < n; i++)
		s += v[i];
	return s / (double)n;
}

static double sd_of(const double *v, size_t n)
{
	double m = mean_of(v, n), q = 0;
	size_t i;

	for (i = 0; i < n; i++)
		q += (v[i] - m) * (v[i] - m);
	return sqrt(q / (double)(n - 1));
}

static void fixed(void *ctx, const double *base, size_t nb,
		  const double *head, size_t nh, struct seq_decision *out)
{
	struct fixed_rule *f = ctx;

	memset(out, 0, sizeof(*out));
	f->calls++;
	if ((long)nb < f->runs || (long)nh < f->runs) {
		out->answer = SEQ_MORE;
		out->more[0] = f->runs - (long)nb;
		out->more[1] = f->runs - (long)nh;
		return;
	}
	f->diff += mean_of(head, nh) - mean_of(base, nb);
	f->sd += sd_of(base, nb);
	f->head_sd += sd_of(head, nh);
	out->answer = f->answer;
}

static void world(struct seq_world *w, double cv, double shift,
		  enum seq_noise noise, long trials)
{
	memset(w, 0, sizeof(*w));
	w->cv = cv;
	w->shift = shift;
	w->noise = noise;
	w->trials = trials;
	w->seed = 99;
	w->cap = 100;
}

static void t_counts_and_draws(void **state)
{
	struct fixed_rule f = { 50, SEQ_CHANGED, 0, 0, 0, 0 };
	struct seq_world w;
	struct seq_oc oc;
	struct pb_err err = { 0, "" };

	(void)state;
	world(&w, 0.03, 0.05, SEQ_NOISE_NORMAL, 2000);
	assert_int_equal(seq_simulate(fixed, &f, &w, &oc, &err), 0);
	assert_int_equal(oc.trials, 2000);
	assert_int_equal(oc.changed, 2000);
	assert_int_equal(oc.not_changed + oc.inconclusive, 0);
	assert_true(oc.runs == 50 && oc.runs_max == 50);
	assert_int_equal(f.calls, 4000);	/* ask, then answer */
	/* base mean 100, the head 5% above, sd 3: the mean difference's
	 * sd over 2000 trials is 0.013 */
	assert_true(fabs(f.diff / 2000 - 5) < 0.06);
	assert_true(fabs(f.sd / 2000 - 3) < 0.05);
	assert_true(fabs(f.head_sd / 2000 - 3) < 0.05);
	assert_true(fabs(seq_oc_share(&oc, oc.changed) - 1) < 1e-15);
}

static void t_t3_draws(void **state)
{
	struct fixed_rule f = { 100, SEQ_NOT_CHANGED, 0, 0, 0, 0 };
	struct seq_world w;
	struct seq_oc oc;
	struct pb_err err = { 0, "" };

	(void)state;
	world(&w, 0.02, 0, SEQ_NOISE_T3, 1000);
	assert_int_equal(seq_simulate(fixed, &f, &w, &oc, &err), 0);
	assert_int_equal(oc.not_changed, 1000);
	assert_true(fabs(f.diff / 1000) < 0.03);
	/* scaled to sd 2; the sample sd of t3 is skewed low (median near
	 * 0.85 of the true), its mean close to it */
	assert_true(f.sd / 1000 > 1.5 && f.sd / 1000 < 2.1);
}

static void t_cap_and_stuck(void **state)
{
	struct fixed_rule past = { 101, SEQ_CHANGED, 0, 0, 0, 0 };
	struct fixed_rule stuck = { 0, SEQ_MORE, 0, 0, 0, 0 };
	struct seq_world w;
	struct seq_oc oc;
	struct pb_err err = { 0, "" };

	(void)state;
	world(&w, 0.02, 0, SEQ_NOISE_NORMAL, 10);
	/* asking past the cap: inconclusive, nothing drawn */
	assert_int_equal(seq_simulate(fixed, &past, &w, &oc, &err), 0);
	assert_int_equal(oc.inconclusive, 10);
	assert_true(oc.runs == 0 && oc.runs_max == 0);
	/* MORE of nothing would never end: inconclusive */
	assert_int_equal(seq_simulate(fixed, &stuck, &w, &oc, &err), 0);
	assert_int_equal(oc.inconclusive, 10);
	assert_int_equal(stuck.calls, 10);
}

static void t_seeded(void **state)
{
	struct seq_params p;
	struct seq_design d;
	struct seq_world w;
	struct seq_oc a, b, c;
	struct pb_err err = { 0, "" };

	(void)state;
	seq_params_default(&p);
	assert_int_equal(seq_design_init(&d, &p, &err), 0);
	world(&w, 0.02, 0.03, SEQ_NOISE_NORMAL, 3000);
	assert_int_equal(seq_simulate(seq_rule_design, &d, &w, &a, &err), 0);
	assert_int_equal(seq_simulate(seq_rule_design, &d, &w, &b, &err), 0);
	w.seed++;
	assert_int_equal(seq_simulate(seq_rule_design, &d, &w, &c, &err), 0);
	assert_true(a.changed == b.changed && a.runs == b.runs);
	assert_true(a.changed != c.changed || a.runs != c.runs);
	assert_int_equal(a.changed + a.not_changed + a.inconclusive, 3000);
	assert_true(a.runs >= 3 && a.runs_max <= 8);
}

static void t_refused(void **state)
{
	struct fixed_rule f = { 3, SEQ_CHANGED, 0, 0, 0, 0 };
	struct seq_world w;
	struct seq_oc oc;
	struct pb_err err = { 0, "" };

	(void)state;
	world(&w, 0, 0, SEQ_NOISE_NORMAL, 10);
	assert_int_equal(seq_simulate(fixed, &f, &w, &oc, &err), -1);
	assert_int_equal(err.code, EX_DATAERR);
	assert_non_null(strstr(err.msg, "simulation"));
	world(&w, 0.02, 0, SEQ_NOISE_NORMAL, 0);
	assert_int_equal(seq_simulate(fixed, &f, &w, &oc, &err), -1);
	world(&w, 0.02, 0, SEQ_NOISE_NORMAL, 10);
	w.cap = SEQ_MAX_RUNS + 1;
	assert_int_equal(seq_simulate(fixed, &f, &w, &oc, &err), -1);
	world(&w, 0.02, NAN, SEQ_NOISE_NORMAL, 10);
	assert_int_equal(seq_simulate(fixed, &f, &w, &oc, &err), -1);
	assert_int_equal(f.calls, 0);
	assert_true(seq_oc_share(&oc, 1) == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_counts_and_draws),
		cmocka_unit_test(t_t3_draws),
		cmocka_unit_test(t_cap_and_stuck),
		cmocka_unit_test(t_seeded),
		cmocka_unit_test(t_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
