// SPDX-License-Identifier: GPL-2.0-only
/*
 * The evidence a report shows: the JSON of every test (numbers, or the
 * reason no test was possible, never NaN) and the plain line under the
 * headline.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "perfbot/compare/evidence.h"

static const double base[] = { 100, 101, 99, 100.5 };
static const double head[] = { 90, 91, 89, 90.5 };

static void t_json_numbers(void **state)
{
	struct evidence ev;
	json_t *j;

	(void)state;
	assert_int_equal(stats_evidence(base, 4, head, 4, &ev), 0);
	j = evidence_json(&ev);
	assert_non_null(j);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(
		j, "runs"), "head")), 4);
	assert_true(fabs(json_real_value(json_object_get(json_object_get(j,
		"welch"), "p")) - ev.w.p) < 1e-18);
	assert_true(json_is_true(json_object_get(json_object_get(j,
		"mann_whitney"), "exact")));
	assert_true(json_real_value(json_object_get(json_object_get(j,
		"ci95"), "high")) < 0);
	json_decref(j);
}

static void t_json_no_test(void **state)
{
	const double c[] = { 3, 3, 3 };
	struct evidence ev;
	json_t *j;
	char *s;

	(void)state;
	stats_evidence(c, 3, c, 2, &ev);
	j = evidence_json(&ev);
	assert_string_equal(json_string_value(json_object_get(json_object_get(
		j, "welch"), "no_test")), "both samples are the same constant");
	assert_null(json_object_get(json_object_get(j, "welch"), "p"));
	assert_non_null(json_object_get(json_object_get(j, "ci95"),
					"no_test"));
	s = json_dumps(j, 0);
	assert_null(strstr(s, "nan"));
	free(s);
	json_decref(j);
}

static void t_line(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct evidence ev;

	(void)state;
	stats_evidence(base, 4, head, 4, &ev);
	assert_int_equal(evidence_line(&ev, &sb), 0);
	assert_non_null(strstr(sb_str(&sb), "evidence: 4 runs per side, "
			       "Welch's t-test p = "));
	assert_non_null(strstr(sb_str(&sb), "Mann-Whitney U test p = 0.0286 "
			       "(exact), 95% confidence interval of the "
			       "change -1"));
	assert_null(strchr(sb_str(&sb), '\n'));
	sb_reset(&sb);
	stats_evidence(base, 1, head, 3, &ev);
	evidence_line(&ev, &sb);
	assert_string_equal(sb_str(&sb), "evidence: 1 run of the parent and "
			    "3 of the commit, Welch's t-test not possible "
			    "(fewer than 2 runs on a side), Mann-Whitney U "
			    "test not possible (fewer than 2 runs on a "
			    "side)");
	sb_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_json_numbers),
		cmocka_unit_test(t_json_no_test),
		cmocka_unit_test(t_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
