// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/act/learned.c (issue 32 item 5): the learned noise
 * of a testcase, machine and metric read from a state, the first look it
 * calls for (a confirmation's and a retest's), the new runs kept, and
 * the first look kept with a request's thread and read back.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "perfbot/act/followup.h"
#include "perfbot/act/learned.h"
#include "perfbot/state/noise.h"

#include "testutil.h"

#define T0 1739548080
#define TC "hackbench"
#define BOX "lkp-icl-2sp2"
#define KPI "hackbench.throughput"

static int setup(void **state)
{
	return tu_state_setup(state, "test_learned");
}

static void confirm_params(struct seq_params *p)
{
	seq_params_confirm(p, 3, 16, 0);
	p->direction = 1;
}

/* Nothing learned: the policy's first look, the retest's N. */
static void t_nothing_learned(void **state)
{
	struct tu_state_fx *f = *state;
	struct seq_params p;
	struct learned l;

	confirm_params(&p);
	learned_noise(f->st, TC, BOX, KPI, 0.05, 10, &l);
	assert_int_equal(l.df, 0);
	assert_int_equal(learned_first_confirm(&l, &p, 3, 16), 6);
	assert_int_equal(learned_first_look(&l, &p, 4, 20), 4);
	/* the own runs' noise is what a design assumes then */
	assert_true(learned_design_cv(&l, 0.05) == 0.05);
	learned_noise(f->st, NULL, BOX, KPI, 0, 0, &l);
	assert_int_equal(l.fitted, 0);
}

/*
 * A quiet cell (CV 1% on 40 degrees of freedom) and a noisy one (5%):
 * the quiet one's confirmation asks one new run a side first, the noisy
 * one's goes to the cap; another machine's cell is not theirs.
 */
static void t_quiet_noisy(void **state)
{
	struct tu_state_fx *f = *state;
	struct seq_params p;
	struct learned l;

	confirm_params(&p);
	assert_int_equal(learned_keep(f->st, TC, BOX, KPI, 0.01, 40, T0,
				      &f->err), 0);
	assert_int_equal(learned_keep(f->st, TC, "noisy-box", KPI, 0.05, 40,
				      T0, &f->err), 0);
	learned_noise(f->st, TC, BOX, KPI, 0, 0, &l);
	assert_true(l.fitted);
	assert_int_equal(l.df, 40);
	assert_int_equal(learned_first_confirm(&l, &p, 3, 16), 4);
	learned_noise(f->st, TC, "noisy-box", KPI, 0, 0, &l);
	assert_int_equal(learned_first_confirm(&l, &p, 3, 16), 16);
	seq_params_retest(&p, 4, 20, 0, 0.05, learned_design_cv(&l, 0.02));
	assert_int_equal(learned_first_look(&l, &p, 4, 20), 20);
	learned_noise(f->st, TC, "third-box", KPI, 0, 0, &l);
	assert_int_equal(l.df, 0);
	/* no key: kept as nothing */
	assert_int_equal(learned_keep(f->st, NULL, BOX, KPI, 0.01, 4, T0,
				      &f->err), 0);
}

/* The first look kept with a request's thread, its other keys kept. */
static void t_first_kept(void **state)
{
	char *t = NULL;

	(void)state;
	assert_int_equal(followup_first_keep(&t, "confirm", 4), 0);
	assert_string_equal(t, "{\"confirm\":{\"first\":4}}");
	assert_int_equal(followup_first_read(t, "confirm", 0), 4);
	assert_int_equal(followup_first_read(t, "retest", 7), 7);
	free(t);
	t = strdup("{\"from\":\"a@example.test\"}");
	assert_int_equal(followup_first_keep(&t, "confirm", 11), 0);
	assert_string_equal(t, "{\"from\":\"a@example.test\",\"confirm\":"
			    "{\"first\":11}}");
	free(t);
	/* what is no first look reads as none */
	assert_int_equal(followup_first_read(NULL, "confirm", 0), 0);
	assert_int_equal(followup_first_read("{", "confirm", 0), 0);
	assert_int_equal(followup_first_read("{\"confirm\":{\"first\":0}}",
					    "confirm", 0), 0);
	assert_int_equal(followup_first_read("{\"confirm\":{\"first\":\"4\"}}",
					    "confirm", 0), 0);
	t = strdup("[]");
	assert_int_equal(followup_first_keep(&t, "confirm", 4), -1);
	assert_string_equal(t, "[]");
	free(t);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, tu_state_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(t_nothing_learned),
		T(t_quiet_noisy),
		cmocka_unit_test(t_first_kept),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
