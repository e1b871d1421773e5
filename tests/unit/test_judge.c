// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for judging a comparison (src/judge/judge.c): the headline
 * metric LKP would follow (its KPI stats in index-perf order, never a
 * monitor nor '<testcase>.time.*'), the operator's candidates before it,
 * no headline when nothing is worth a mail, and regression, improvement
 * or (no direction known) change. Rows are built in memory; the directions come from the
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

static void run_with(struct fixture *f, const char *const *cands,
		     size_t n, int direction)
{
	struct judge_opts o = { cands, n, direction };

	memset(&f->j, 0x55, sizeof(f->j));
	assert_int_equal(judge(&f->c, f->r, &o, &f->j), 0);
}

static void run(struct fixture *f)
{
	memset(&f->j, 0x55, sizeof(f->j));
	assert_int_equal(judge(&f->c, f->r, NULL, &f->j), 0);
}

static void expect(struct fixture *f, const struct cmp_row *headline,
		   int direction, int regression)
{
	assert_ptr_equal(f->j.headline, headline);
	assert_int_equal(f->j.direction, direction);
	assert_int_equal(f->j.regression, regression);
	assert_int_equal(f->j.unknown, direction == 0);
}

/*
 * The robot's filebench report: sum_operations/s -85% is the headline, a
 * regression, although the run's own time moved more: '<testcase>.time.*'
 * is never a KPI stat (lib/stats.rb kpi_stat?).
 */
static void t_time_never(void **state)
{
	struct fixture *f = *state;
	const struct cmp_row *ops;

	add(f, "filebench.time.elapsed_time", 1831.5, 1);
	add(f, "filebench.time.elapsed_time.max", 1831.5, 1);
	ops = add(f, "filebench.sum_operations/s", -85, 1);
	add(f, "filebench.sum_writes/s", -86, 1);
	run(f);
	expect(f, ops, 1, 1);
	/* only the time moved: nothing to report */
	f->rows[2].shown = f->rows[3].shown = 0;
	run(f);
	assert_null(f->j.headline);
}

/* Monitors (perf-stat, proc-vmstat, ...) never head a report. */
static void t_monitor_never(void **state)
{
	struct fixture *f = *state;
	const struct cmp_row *tp;

	add(f, "perf-stat.i.ipc", 90, 1);
	add(f, "proc-vmstat.nr_active_anon", -50, 1);
	add(f, "turbostat.Avg_MHz", 20, 1);
	add(f, "dmesg.WARNING:at_foo", 100, 1);		/* a failure */
	run(f);
	assert_null(f->j.headline);
	tp = add(f, "hackbench.throughput", 10.5, 1);
	run(f);
	expect(f, tp, 1, 0);
}

/*
 * The index-perf weight first (stress-ng.*_per_sec), a stat of no index
 * last, whatever their changes; a hidden stat is no headline but is the
 * key the judgement follows.
 */
static void t_index_first(void **state)
{
	struct fixture *f = *state;
	const struct cmp_row *ops, *hidden;

	add(f, "stress-ng.metamix.ops", -99, 1);
	ops = add(f, "stress-ng.metamix.ops_per_sec", -98.4, 1);
	run(f);
	expect(f, ops, 1, 1);
	assert_ptr_equal(f->j.key, ops);
	f->rows[1].shown = 0;
	hidden = ops;
	run(f);
	assert_string_equal(f->j.headline->name, "stress-ng.metamix.ops");
	assert_ptr_equal(f->j.key, hidden);
}

/*
 * Equal weights (fio's _iops and _bw_MBps are both 1 in
 * index-perf-all.yaml): index-perf.yaml's order decides, iops first, as
 * the robot's fio reports; an index-latency stat (fio.*%) comes after.
 */
static void t_equal_weights(void **state)
{
	struct fixture *f = *state;
	const struct cmp_row *iops;

	add(f, "fio.write_bw_MBps", -6.5, 1);
	add(f, "fio.write_clat_90%_us", 30, 1);
	iops = add(f, "fio.write_iops", -6.5, 1);
	add(f, "fio.latency_100us%", 40, 1);
	run(f);
	expect(f, iops, 1, 1);
	/* netperf: Throughput_Mbps, not the bigger workload change */
	f->c.nrows = 0;
	add(f, "netperf.workload", 40, 1);
	iops = add(f, "netperf.Throughput_Mbps", 12, 1);
	run(f);
	expect(f, iops, 1, 0);
}

/* lmbench3: a bandwidth (index-perf) before a latency (index-latency)
 * before a stat of no index; lower latency is better. */
static void t_latency(void **state)
{
	struct fixture *f = *state;
	const struct cmp_row *bw, *lat;

	add(f, "lmbench3.Select.100fd.tcp", 50, 1);
	lat = add(f, "lmbench3.TCP.localhost.latency", 20, 1);
	run(f);
	expect(f, lat, -1, 1);
	bw = add(f, "lmbench3.PIPE.bandwidth.MB/sec", 5, 1);
	run(f);
	expect(f, bw, 1, 0);
}

/* No direction known: the change heads as a change, never an
 * improvement; LKP's denylist is never a headline. */
static void t_unknown_direction(void **state)
{
	struct fixture *f = *state;
	const struct cmp_row *med;

	add(f, "vm-scalability.stddev", 300, 1);
	add(f, "vm-scalability.time.user_time", -50, 1);
	med = add(f, "vm-scalability.free_time", 30, 1);
	run(f);
	expect(f, med, 0, 0);
	f->rows[2].change = -30;
	run(f);
	expect(f, med, 0, 0);
}

/*
 * The operator's candidates: the first that names a shown row heads the
 * report; the first that names any row is the key; one that names none
 * is passed over; their direction wins over the rules'.
 */
static void t_candidates(void **state)
{
	struct fixture *f = *state;
	static const char *const cands[] = {
		"^(fio\\.nothing)$", "^(fio\\.write_clat_mean_us)$",
		"^(fio\\.write_bw_MBps)$",
	};
	const struct cmp_row *bw, *clat;

	add(f, "fio.write_iops", -30, 1);
	bw = add(f, "fio.write_bw_MBps", -6.5, 1);
	clat = add(f, "fio.write_clat_mean_us", 7, 0);
	run_with(f, cands, 3, 0);
	expect(f, bw, 1, 1);
	assert_ptr_equal(f->j.key, clat);
	run_with(f, cands, 3, -1);
	expect(f, bw, -1, 0);
	/* no candidate names a row: LKP's choice */
	run_with(f, cands, 1, 0);
	assert_string_equal(f->j.headline->name, "fio.write_iops");
}

/* Nothing shown: no headline, and judge() still succeeds. */
static void t_nothing_shown(void **state)
{
	struct fixture *f = *state;

	add(f, "hackbench.throughput", 10, 0);
	add(f, "hackbench.ops", -30, 0);
	run(f);
	assert_null(f->j.headline);
	assert_string_equal(f->j.key->name, "hackbench.throughput");
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

	run(f);
	assert_null(f->j.headline);
	assert_null(f->j.key);
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
	assert_int_equal(judge(&f->real, f->r, NULL, &f->j), 0);
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
	assert_int_equal(judge(&f->real, f->r, NULL, &f->j), 0);
	assert_non_null(f->j.headline);
	assert_string_equal(f->j.headline->name, "hackbench.throughput");
	assert_int_equal(f->j.regression, 1);
}

#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(t_time_never),
		T(t_monitor_never),
		T(t_index_first),
		T(t_equal_weights),
		T(t_latency),
		T(t_unknown_direction),
		T(t_candidates),
		T(t_nothing_shown),
		T(t_empty),
		T(t_forced),
		T(t_compare_roots_end_to_end),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
