// SPDX-License-Identifier: GPL-2.0-only
/*
 * New runs on their own: a result root cut to its later runs, and two
 * cuts compared with the ordinary comparison.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "perfbot/judge/runs.h"

static void parse(struct result_root *rr, const char *text)
{
	struct pb_err err = { 0, "" };

	memset(rr, 0, sizeof(*rr));
	assert_int_equal(result_root_parse_matrix(rr, "m", text, strlen(text),
						  &err), 0);
}

static void t_cut(void **state)
{
	struct result_root rr, cut;
	struct pb_err err = { 0, "" };
	const struct metric *m;

	(void)state;
	parse(&rr, "{\"a.x\": [1, 2, 3, 4, 5], \"b\": [10, 20, 30, 40, 50]}");
	assert_int_equal(runs_cut(&cut, &rr, 3, &err), 0);
	assert_int_equal(cut.runs, 2);
	m = result_root_find(&cut, "b");
	assert_non_null(m);
	assert_true(metric_values(&cut, m)[0] == 40 &&
		    metric_values(&cut, m)[1] == 50);
	result_root_release(&cut);
	assert_int_equal(runs_cut(&cut, &rr, 5, &err), -1);
	assert_int_equal(err.code, EX_DATAERR);
	result_root_release(&rr);
}

/* The old runs differ a lot, the new ones not at all. */
static void t_compare_new(void **state)
{
	struct result_root b, h;
	struct pb_err err = { 0, "" };
	struct runs_new rn;
	const struct cmp_row *row;
	const size_t from[2] = { 2, 2 };

	struct rules *rules = NULL;

	(void)state;
	assert_int_equal(rules_load(&rules, "config/metrics.yaml", &err), 0);
	parse(&b, "{\"m\": [100, 101, 200, 201, 199]}");
	parse(&h, "{\"m\": [150, 151, 200, 201, 199]}");
	assert_int_equal(runs_compare_new(&rn, &b, &h, from, rules,
					  &err), 0);
	assert_int_equal(rn.cmp.runs[0], 3);
	row = comparison_find(&rn.cmp, "m");
	assert_non_null(row);
	assert_true(row->n[1] == 3 && fabs(row->change) < 1e-12);
	runs_new_release(&rn);
	result_root_release(&b);
	result_root_release(&h);
	rules_free(rules);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_cut),
		cmocka_unit_test(t_compare_new),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
