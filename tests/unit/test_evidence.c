// SPDX-License-Identifier: GPL-2.0-only
/*
 * The evidence a report shows: the JSON of every test (numbers, or the
 * reason no test was possible, never NaN) and the plain line under the
 * headline (templates/evidence.txt over render/evidence_view.c).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "perfbot/compare/evidence.h"
#include "perfbot/render/evidence_view.h"
#include "perfbot/render/mustache.h"

static const double base[] = { 100, 101, 99, 100.5 };
static const double head[] = { 90, 91, 89, 90.5 };
static const double same[] = { 5, 5, 5, 5 };

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

/* The line under the headline: templates/evidence.txt over the view. */
static char *line_of(const struct evidence *ev)
{
	struct pb_err err = { 0, "" };
	struct strbuf sb = STRBUF_INIT;
	struct ctx c;
	json_t *j, *tests;

	ctx_init(&c, "test");
	ctx_evidence(&c, "tests", ev);
	assert_int_equal(ctx_finish(&c, &j, &err), 0);
	tests = json_object_get(j, "tests");
	assert_int_equal(mustache_render_file("templates/evidence.txt", tests,
					      NULL, &sb, &err), 0);
	json_decref(j);
	assert_true(sb.len > 0 && sb.buf[sb.len - 1] == '\n');
	sb_setlen(&sb, sb.len - 1);
	return sb_detach(&sb, NULL);
}

static void t_line(void **state)
{
	struct evidence ev;
	char *s;

	(void)state;
	stats_evidence(base, 4, head, 4, &ev);
	s = line_of(&ev);
	assert_non_null(strstr(s, "evidence: 4 runs per side, "
			       "Welch's t-test p = "));
	assert_non_null(strstr(s, "Mann-Whitney U test p = 0.0286 "
			       "(exact), 95% confidence interval of the "
			       "change -1"));
	assert_null(strchr(s, '\n'));
	free(s);
	stats_evidence(base, 1, head, 3, &ev);
	s = line_of(&ev);
	assert_string_equal(s, "evidence: 1 run of the parent and "
			    "3 of the commit, Welch's t-test not possible "
			    "(fewer than 2 runs on a side), Mann-Whitney U "
			    "test not possible (fewer than 2 runs on a "
			    "side)");
	free(s);
	/* a reason of the interval's own is said; the same as Welch's not */
	stats_evidence(same, 4, same, 4, &ev);
	s = line_of(&ev);
	assert_non_null(strstr(s, "Welch's t-test not possible (both "
			       "samples are the same constant)"));
	assert_null(strstr(s, "no confidence interval"));
	free(s);
}

/* A change quoted in an answer reads as the report printed it. */
static void t_percent_as_reported(void **state)
{
	struct pb_err err = { 0, "" };
	struct ctx c;
	json_t *j;

	(void)state;
	ctx_init(&c, "test");
	ctx_percent(&c, "tie", -17.95);	/* C's printf: -17.9 */
	ctx_percent(&c, "plain", 10.04);
	assert_int_equal(ctx_finish(&c, &j, &err), 0);
	assert_string_equal(json_string_value(json_object_get(j, "tie")),
			    "-18.0%");
	assert_string_equal(json_string_value(json_object_get(j, "plain")),
			    "+10.0%");
	json_decref(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_json_numbers),
		cmocka_unit_test(t_percent_as_reported),
		cmocka_unit_test(t_json_no_test),
		cmocka_unit_test(t_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
