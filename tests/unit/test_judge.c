// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for judging a comparison (src/judge/judge.c): the headline
 * metric (the key metric when shown, else the most changed shown
 * benchmark metric with a direction), no headline when nothing is worth a
 * mail, and regression against improvement for metrics where higher or
 * lower is better. Rows are built in memory; the directions come from the
 * shipped config/metrics.yaml (tests run from the repository root).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "perfbot/compare/compare.h"
#include "perfbot/judge/judge.h"

#include "testutil.h"

#define METRICS "config/metrics.yaml"
#define MAX_ROWS 16

struct fixture {
	struct rules *r;
	struct cmp_row rows[MAX_ROWS];
	struct comparison c;
	struct judgement j;
	struct result_root root[2];
	struct comparison real;		/* from compare_roots */
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct pb_err err = { 0, "" };

	if (!f)
		return -1;
	if (rules_load(&f->r, METRICS, &err)) {
		fprintf(stderr, "setup: %s\n", err.msg);
		free(f);
		return -1;
	}
	f->c.rows = f->rows;
	f->c.runs[BASE] = f->c.runs[HEAD] = 3;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	tu_compare_release(&f->real, f->root);
	rules_free(f->r);
	free(f);
	return 0;
}

/* A row as compare_roots would leave it, for what judge() reads. */
static const struct cmp_row *add(struct fixture *f, const char *name,
				 double change, int shown)
{
	struct cmp_row *row;

	assert_true(f->c.nrows < MAX_ROWS);
	row = &f->rows[f->c.nrows++];
	memset(row, 0, sizeof(*row));
	row->name = name;
	row->change = change;
	row->shown = shown;
	row->in_base = 1;
	row->n[BASE] = row->n[HEAD] = 3;
	row->failure = rules_is_failure(f->r, name);
	row->absolute = rules_is_absolute(f->r, name);
	row->dropped = shown ? NULL : "not separated";
	f->c.nshown += shown != 0;
	return row;
}

static void run(struct fixture *f, const char *key, int key_direction)
{
	memset(&f->j, 0x55, sizeof(f->j));
	assert_int_equal(judge(&f->c, f->r, "hackbench", key, key_direction,
			       &f->j), 0);
}

static void expect(struct fixture *f, const struct cmp_row *headline,
		   int direction, int regression)
{
	assert_ptr_equal(f->j.headline, headline);
	assert_int_equal(f->j.direction, direction);
	assert_int_equal(f->j.regression, regression);
}

/* The key metric is the headline when shown, even if others moved more. */
static void t_key_metric(void **state)
{
	struct fixture *f = *state;
	const struct cmp_row *tp = add(f, "hackbench.throughput", 10.5, 1);

	add(f, "hackbench.ops", -30, 1);
	add(f, "hackbench.latency", 80, 1);
	run(f, "hackbench.throughput", 0);
	expect(f, tp, 1, 0);
}

/* Higher is better: a drop of the key metric is a regression. */
static void t_key_metric_regression(void **state)
{
	struct fixture *f = *state;
	const struct cmp_row *tp = add(f, "hackbench.throughput", -8, 1);

	run(f, "hackbench.throughput", 0);
	expect(f, tp, 1, 1);
}

/* Lower is better (elapsed time, latency): a rise is a regression. */
static void t_key_lower_is_better(void **state)
{
	struct fixture *f = *state;
	const struct cmp_row *up = add(f, "hackbench.time.elapsed_time", 8, 1);
	const struct cmp_row *down = add(f, "hackbench.latency", -20, 1);

	run(f, "hackbench.time.elapsed_time", 0);
	expect(f, up, -1, 1);
	run(f, "hackbench.latency", 0);
	expect(f, down, -1, 0);
}

/* The testcase table's direction wins over the rules' one. */
static void t_key_direction_given(void **state)
{
	struct fixture *f = *state;
	const struct cmp_row *score = add(f, "hackbench.median", 5, 1);
	const struct cmp_row *tp = add(f, "hackbench.throughput", 5, 1);

	/* no direction in the rules for 'median': the table says -1 */
	run(f, "hackbench.median", -1);
	expect(f, score, -1, 1);
	run(f, "hackbench.median", 1);
	expect(f, score, 1, 0);
	/* the table overrides a known direction too */
	run(f, "hackbench.throughput", -1);
	expect(f, tp, -1, 1);
}

/*
 * The key metric not shown: the shown benchmark metric with a direction
 * that changed most. Not a perf-stat metric (not the benchmark's), not
 * one without a direction, not a failure, not a dropped one.
 */
static void t_fallback_most_changed(void **state)
{
	struct fixture *f = *state;
	const struct cmp_row *ops;

	/* the key metric, dropped by the filter */
	add(f, "hackbench.throughput", 50, 0);
	add(f, "hackbench.per_process_ops", 10, 1);
	ops = add(f, "hackbench.ops", -30, 1);
	add(f, "hackbench.latency", 20, 1);
	add(f, "hackbench.median", 80, 1);		/* no direction */
	add(f, "perf-stat.i.ipc", 90, 1);	/* not the benchmark's */
	add(f, "dmesg.WARNING:at_foo", 100, 1);		/* a failure */
	add(f, "hackbench.workload", 200, 0);		/* dropped */
	run(f, "hackbench.throughput", 0);
	expect(f, ops, 1, 1);
}

/* Fallback to a lower-is-better metric: regression when it rises. */
static void t_fallback_lower_is_better(void **state)
{
	struct fixture *f = *state;
	const struct cmp_row *lat = add(f, "hackbench.latency", 20, 1);

	add(f, "hackbench.throughput", -5, 1);
	run(f, "hackbench.nope", 0);
	expect(f, lat, -1, 1);
	f->rows[0].change = -20;
	run(f, "hackbench.nope", 0);
	expect(f, lat, -1, 0);
}

/* No key metric known, or a key that is a failure metric: fallback. */
static void t_fallback_without_key(void **state)
{
	struct fixture *f = *state;
	const struct cmp_row *tp;

	add(f, "dmesg.oops", 100, 1);
	tp = add(f, "hackbench.throughput", 12, 1);
	run(f, NULL, 0);
	expect(f, tp, 1, 0);
	run(f, "dmesg.oops", 0);
	expect(f, tp, 1, 0);
}

/* Nothing shown: no headline, and judge() still succeeds. */
static void t_nothing_shown(void **state)
{
	struct fixture *f = *state;

	add(f, "hackbench.throughput", 10, 0);
	add(f, "hackbench.ops", -30, 0);
	run(f, "hackbench.throughput", 0);
	assert_null(f->j.headline);
	run(f, NULL, 0);
	assert_null(f->j.headline);
}

/* Only changes without a benchmark direction: nothing worth a mail. */
static void t_nothing_with_direction(void **state)
{
	struct fixture *f = *state;

	add(f, "hackbench.median", 10, 1);
	add(f, "perf-stat.i.cycles", -30, 1);
	add(f, "dmesg.oops", 100, 1);
	run(f, "hackbench.throughput", 0);
	assert_null(f->j.headline);
}

/* A confirmed change the filter hides is forced to be the headline. */
static void t_forced(void **state)
{
	struct fixture *f = *state;
	const struct cmp_row *tp = add(f, "hackbench.throughput", -4, 0);

	f->c.nrows++;	/* a second, failure row stays out */
	f->rows[1] = f->rows[0];
	f->rows[1].name = "dmesg.oops";
	f->rows[1].failure = 1;
	assert_int_equal(judge_force(&f->c, f->r, "hackbench.throughput",
				     &f->j), 0);
	assert_ptr_equal(f->j.headline, tp);
	assert_int_equal(f->j.regression, 1);
	assert_int_equal(judge_force(&f->c, f->r, "dmesg.oops", &f->j), 0);
	assert_null(f->j.headline);
	assert_int_equal(judge_force(&f->c, f->r, "no.such", &f->j), 0);
	assert_null(f->j.headline);
}

/* An empty comparison. */
static void t_empty(void **state)
{
	struct fixture *f = *state;

	run(f, "hackbench.throughput", 0);
	assert_null(f->j.headline);
}

/* End to end through compare_roots: the 10.5% of the hackbench report. */
static void t_compare_roots_end_to_end(void **state)
{
	struct fixture *f = *state;
	struct pb_err err = { 0, "" };

	tu_parse_root(&f->root[BASE],
		      "{\"hackbench.throughput\": [200000, 200000, 200000],"
		      " \"hackbench.time.elapsed_time\": [100, 100, 100]}");
	tu_parse_root(&f->root[HEAD],
		      "{\"hackbench.throughput\": [221000, 221000, 221000],"
		      " \"hackbench.time.elapsed_time\": [100.1, 100, 100]}");
	assert_int_equal(compare_roots(&f->real, &f->root[BASE],
				       &f->root[HEAD], f->r,
				       &err), 0);
	assert_int_equal(judge(&f->real, f->r, "hackbench",
			       "hackbench.throughput", 0, &f->j), 0);
	assert_non_null(f->j.headline);
	assert_string_equal(f->j.headline->name, "hackbench.throughput");
	assert_true(f->j.headline->change > 10.49 &&
		    f->j.headline->change < 10.51);
	assert_int_equal(f->j.direction, 1);
	assert_int_equal(f->j.regression, 0);
	/* the same roots the other way round: a 9.5% regression */
	comparison_release(&f->real);
	assert_int_equal(compare_roots(&f->real, &f->root[HEAD],
				       &f->root[BASE], f->r,
				       &err), 0);
	assert_int_equal(judge(&f->real, f->r, "hackbench", NULL, 0, &f->j),
			 0);
	assert_non_null(f->j.headline);
	assert_string_equal(f->j.headline->name, "hackbench.throughput");
	assert_int_equal(f->j.regression, 1);
}

#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(t_key_metric),
		T(t_key_metric_regression),
		T(t_key_lower_is_better),
		T(t_key_direction_given),
		T(t_fallback_most_changed),
		T(t_fallback_lower_is_better),
		T(t_fallback_without_key),
		T(t_nothing_shown),
		T(t_nothing_with_direction),
		T(t_empty),
		T(t_forced),
		T(t_compare_roots_end_to_end),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
