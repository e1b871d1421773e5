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
#include <stdio.h>
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

/* templates/<name>.txt over the view, without a last newline. */
static char *render_of(const char *name, const struct evidence *ev)
{
	struct pb_err err = { 0, "" };
	struct strbuf sb = STRBUF_INIT;
	char path[64];
	struct ctx c;
	json_t *j, *tests;

	ctx_init(&c, "test");
	ctx_evidence(&c, "tests", ev);
	assert_int_equal(ctx_finish(&c, &j, &err), 0);
	tests = json_object_get(j, "tests");
	snprintf(path, sizeof(path), "templates/%s.txt", name);
	assert_int_equal(mustache_render_file(path, tests, NULL, &sb, &err),
			 0);
	json_decref(j);
	if (sb.len > 0 && sb.buf[sb.len - 1] == '\n')
		sb_setlen(&sb, sb.len - 1);
	return sb_detach(&sb, NULL);
}

/* The line under the headline: templates/evidence.txt over the view. */
static char *line_of(const struct evidence *ev)
{
	return render_of("evidence", ev);
}

/*
 * How a change that holds was decided (templates/decided.txt): the
 * Mann-Whitney test agrees only when it decided; on 3 runs a side its
 * exact p cannot go below 0.1, and the sentence says Welch alone did.
 */
static void t_decided(void **state)
{
	static const double b3[] = { 100000, 101000, 99000 };
	static const double h3[] = { 110000, 111000, 109000 };
	static const double seven[] = { 7, 7, 7 };
	struct evidence ev;
	char *s;

	(void)state;
	assert_int_equal(stats_evidence(b3, 3, h3, 3, &ev), 0);
	assert_true(ev.w.ok && ev.w.p < 0.01 && ev.mw.ok && ev.mw.p >= 0.1);
	s = render_of("decided", &ev);
	assert_string_equal(s, "Welch's p < 0.01; the Mann-Whitney test "
			    "cannot decide on 3 runs a side (its least p is "
			    "0.1000), so Welch's test alone decided");
	free(s);
	stats_evidence(b3, 3, head, 4, &ev);
	s = render_of("decided", &ev);
	assert_non_null(strstr(s, "cannot decide on 3 and 4 runs (its least "
			       "p is 0.0571)"));
	free(s);
	stats_evidence(base, 4, head, 4, &ev);
	s = render_of("decided", &ev);
	assert_string_equal(s, "Welch's p < 0.01, the Mann-Whitney test "
			    "agreeing");
	free(s);
	/* constant sides: no Welch p either */
	stats_evidence(same, 4, seven, 3, &ev);
	s = render_of("decided", &ev);
	assert_string_equal(s, "the runs of each side are all alike, and the "
			    "sides differ");
	free(s);
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
		cmocka_unit_test(t_decided),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
