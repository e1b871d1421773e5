// SPDX-License-Identifier: GPL-2.0-only
/*
 * The learned noise of the state (state/noise.h, issue 32 item 5): a
 * cell pooled as runs come, the cells read back with the one asked for,
 * nonsense left out.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include <cmocka.h>

#include "perfbot/state/noise.h"
#include "testlife.h"

static int setup(void **state)
{
	*state = tl_new("test_state_noise");
	return *state ? 0 : -1;
}

static int teardown(void **state)
{
	tl_free(*state);
	return 0;
}

static void t_pooled(void **state)
{
	struct tl *t = *state;
	struct state_noise *v = NULL;
	size_t n, at;

	assert_int_equal(state_noise_all(t->st, "hackbench", "lkp-a", "m",
					 &v, &n, &at, &t->err), 0);
	assert_int_equal(n, 0);
	assert_int_equal(at, 0);
	state_noise_free(v, n);
	/* 4 df at 2%, then 12 df at 1%: sqrt((4 x 4 + 12 x 1) / 16) % */
	assert_int_equal(state_noise_add(t->st, "hackbench", "lkp-a", "m",
					 0.02, 4, 100, &t->err), 0);
	assert_int_equal(state_noise_add(t->st, "hackbench", "lkp-a", "m",
					 0.01, 12, 200, &t->err), 0);
	assert_int_equal(state_noise_add(t->st, "hackbench", "lkp-b", "m",
					 0.05, 2, 300, &t->err), 0);
	/* left out: not positive, not finite, no degrees of freedom */
	assert_int_equal(state_noise_add(t->st, "x", "y", "z", 0, 4, 300,
					 &t->err), 0);
	assert_int_equal(state_noise_add(t->st, "x", "y", "z", NAN, 4, 300,
					 &t->err), 0);
	assert_int_equal(state_noise_add(t->st, "x", "y", "z", 0.02, 0, 300,
					 &t->err), 0);
	assert_int_equal(state_noise_all(t->st, "hackbench", "lkp-a", "m",
					 &v, &n, &at, &t->err), 0);
	assert_int_equal(n, 2);
	assert_int_equal(at, 0);
	assert_string_equal(v[0].machine, "lkp-a");
	assert_true(fabs(v[0].cv - sqrt(28.0 / 16) / 100) < 1e-12);
	assert_int_equal(v[0].df, 16);
	assert_int_equal(v[0].updated, 200);
	assert_true(v[1].cv == 0.05 && v[1].df == 2);
	state_noise_free(v, n);
	/* a cell never seen: at == n */
	assert_int_equal(state_noise_all(t->st, "other", "lkp-a", "m", &v,
					 &n, &at, &t->err), 0);
	assert_int_equal(at, n);
	state_noise_free(v, n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(t_pooled, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
