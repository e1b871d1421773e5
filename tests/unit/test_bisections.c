// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/state/bisections.c (issue 33): a bisection recorded
 * once (the same id again keeps the first), moved on, read back by id,
 * and listed by report and by whether it is open; a phase that is none
 * is refused by the table.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "perfbot/state/bisections.h"
#include "testlife.h"

static int setup(void **state)
{
	*state = tl_new("test_bisections");
	return *state ? 0 : -1;
}

static int teardown(void **state)
{
	tl_free(*state);
	return 0;
}

static void t_add_get_set(void **state)
{
	struct tl *t = *state;
	struct bisection_row *r = NULL;

	assert_int_equal(state_bisection_get(t->st, "bisect-a", &r, &t->err),
			 0);
	assert_null(r);
	assert_int_equal(state_bisection_add(t->st, "bisect-a", "a", "search",
					     "{\"v\":1}", "/j/job.yaml",
					     "/m/a.yaml", 5000, 1000, &t->err),
			 0);
	/* asked again (a crash between asking and recording): kept */
	assert_int_equal(state_bisection_add(t->st, "bisect-a", "a", "search",
					     "{\"v\":2}", "/j/other.yaml",
					     NULL, 6000, 1100, &t->err), 0);
	assert_int_equal(state_bisection_get(t->st, "bisect-a", &r, &t->err),
			 0);
	assert_non_null(r);
	assert_string_equal(r->report_id, "a");
	assert_string_equal(r->phase, "search");
	assert_string_equal(r->state, "{\"v\":1}");
	assert_string_equal(r->job, "/j/job.yaml");
	assert_string_equal(r->manifest, "/m/a.yaml");
	assert_int_equal(r->deadline, 5000);
	assert_int_equal(r->created, 1000);
	bisection_rows_free(r, 1);
	assert_int_equal(state_bisection_set(t->st, "bisect-a", "culprit",
					     "{\"v\":3}", 1200, &t->err), 0);
	assert_int_equal(state_bisection_get(t->st, "bisect-a", &r, &t->err),
			 0);
	assert_string_equal(r->phase, "culprit");
	assert_string_equal(r->state, "{\"v\":3}");
	assert_int_equal(r->updated, 1200);
	assert_int_equal(r->created, 1000);
	bisection_rows_free(r, 1);
	/* no such phase */
	assert_int_equal(state_bisection_set(t->st, "bisect-a", "done", "{}",
					     1300, &t->err), -1);
}

static void t_lists(void **state)
{
	struct tl *t = *state;
	struct bisection_row *r = NULL;
	size_t n = 0;

	assert_int_equal(state_bisection_add(t->st, "b1", "a", "search", "{}",
					     "j", NULL, 9, 1, &t->err), 0);
	assert_int_equal(state_bisection_add(t->st, "b2", "b", "verify", "{}",
					     "j", NULL, 9, 2, &t->err), 0);
	assert_int_equal(state_bisection_add(t->st, "b3", "a", "inconclusive",
					     "{}", "j", NULL, 9, 3, &t->err), 0);
	assert_int_equal(state_bisections(t->st, NULL, 1, &r, &n, &t->err), 0);
	assert_int_equal(n, 2);
	assert_string_equal(r[0].bisect_id, "b1");
	assert_string_equal(r[1].bisect_id, "b2");
	assert_null(r[0].manifest);
	bisection_rows_free(r, n);
	assert_int_equal(state_bisections(t->st, "a", 0, &r, &n, &t->err), 0);
	assert_int_equal(n, 2);
	assert_string_equal(r[0].bisect_id, "b1");
	assert_string_equal(r[1].bisect_id, "b3");
	bisection_rows_free(r, n);
	assert_int_equal(state_bisections(t->st, "c", 0, &r, &n, &t->err), 0);
	assert_int_equal(n, 0);
	assert_null(r);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(t_add_get_set),
		T(t_lists),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
