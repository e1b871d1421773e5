// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for the comparison (src/compare/compare.c, src/cli/cmpjson.c): the
 * statistics, compare_roots on result roots built from matrix.json text,
 * comparison_to_json, and the noise filter of
 * doc/lkp-compare.md, one rule per test with a case that
 * passes and one that fails. Every number is worked out by hand in the
 * comments. Tests run from the repository root (config/metrics.yaml).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "perfbot/cli/cmpjson.h"
#include "perfbot/compare/compare.h"
#include "perfbot/util/fileio.h"
#include "perfbot/util/strbuf.h"
#include "perfbot/compare/table.h"

#include "testutil.h"

#define METRICS "config/metrics.yaml"
#define N(a) (sizeof(a) / sizeof((a)[0]))

struct fixture {
	char dir[64];
	char *path;			/* dir/rules.yaml */
	struct rules *r;		/* config/metrics.yaml, or replaced */
	struct result_root root[2];
	struct comparison c;
	json_t *json;
};

static int setup(void **state)
{
	struct fixture *f = TU_NEW_FX(struct fixture, "test_compare");
	struct pb_err err = { 0, "" };

	if (!f)
		return -1;
	f->path = path_join(f->dir, "rules.yaml");
	if (!f->path || rules_load(&f->r, METRICS, &err)) {
		fprintf(stderr, "setup: %s\n", err.msg);
		tu_rmtree(f->dir);
		free(f->path);
		free(f);
		return -1;
	}
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	json_decref(f->json);
	tu_compare_release(&f->c, f->root);
	rules_free(f->r);
	tu_rmtree(f->dir);
	free(f->path);
	free(f);
	return 0;
}

/* Replace the shipped rules by 'text' written to the temp dir. */
static void use_rules(struct fixture *f, const char *text)
{
	tu_load_rules(&f->r, f->path, text);
}

static void compare(struct fixture *f, const char *base, const char *head)
{
	tu_compare(&f->c, f->root, base, head, f->r);
}

static void assert_close(double got, double want)
{
	double tol = fabs(want) * 1e-9 + 1e-9;

	if (fabs(got - want) > tol)
		fail_msg("got %.17g, want %.17g", got, want);
}

/* A matrix.json of one metric (none when 'v' is NULL) and 'n' runs; the
 * values are Floats (written with a '.') unless 'ints'. */
static void matrix_text(struct strbuf *sb, const char *name, const double *v,
			size_t n, int ints)
{
	char num[64];
	size_t i;
	int rc = 0;

	sb_reset(sb);
	rc |= sb_adds(sb, "{");
	if (v) {
		rc |= sb_addf(sb, "\"%s\": [", name);
		for (i = 0; i < n; i++) {
			snprintf(num, sizeof(num), "%.17g", v[i]);
			rc |= sb_addf(sb, "%s%s%s", i ? ", " : "", num,
				      !ints && !strpbrk(num, ".e") ? ".0" : "");
		}
		rc |= sb_adds(sb, "], ");
	} else {
		rc |= sb_adds(sb, "\"other.metric\": [], ");
	}
	rc |= sb_adds(sb, "\"stats_source\": [");
	for (i = 0; i < n; i++)
		rc |= sb_addf(sb, "%s\"r%zu\"", i ? ", " : "", i);
	rc |= sb_adds(sb, "]}");
	assert_int_equal(rc, 0);
}

/*
 * Run the noise filter on one metric through compare_roots and check
 * the outcome: 'want' NULL means shown, else the reason it was dropped.
 */
static void filter_tc(struct fixture *f, const char *name, int in_base,
		      const double *b, size_t nb, const double *h, size_t nh,
		      int ints, const char *want)
{
	struct strbuf sb = STRBUF_INIT, sh = STRBUF_INIT;
	const struct cmp_row *row;

	matrix_text(&sb, name, in_base ? b : NULL, nb, ints);
	matrix_text(&sh, name, h, nh, ints);
	tu_compare_release(&f->c, f->root);
	compare(f, sb.buf, sh.buf);
	sb_release(&sb);
	sb_release(&sh);
	row = comparison_find(&f->c, name);
	assert_non_null(row);
	if (!want) {
		if (!row->shown)
			fail_msg("'%s' dropped (%s), expected shown", name,
				 row->dropped ? row->dropped : "no reason");
		assert_int_equal(row->shown, 1);
		assert_null(row->dropped);
		return;
	}
	if (row->shown)
		fail_msg("'%s' shown, expected dropped: %s", name, want);
	assert_non_null(row->dropped);
	assert_string_equal(row->dropped, want);
}

#define FILTER(f, name, b, h, want) \
	filter_tc(f, name, 1, b, N(b), h, N(h), 0, want)
#define FILTER_INT(f, name, b, h, want) \
	filter_tc(f, name, 1, b, N(b), h, N(h), 1, want)

/* Fill 'v' with 'n' copies of 'x'. */
static void fill(double *v, size_t n, double x)
{
	size_t i;

	for (i = 0; i < n; i++)
		v[i] = x;
}

/* ======================= statistics ======================= */

/* 2 4 4 4 5 5 7 9: mean 40/8 = 5; squares 9+1+1+1+0+0+4+16 = 32, /8 = 4. */
static void t_stats_mean_stddev(void **state)
{
	static const double v[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	struct cmp_stats st;

	(void)state;
	cmp_stats_compute(v, N(v), &st);
	assert_close(st.mean, 5);
	assert_close(st.stddev, 2);
	assert_close(st.pct_stddev, 40);
	assert_int_equal(st.has_stddev, 1);
	assert_close(st.fails, 40);
}

/* 1 3: population stddev sqrt((1+1)/2) = 1 (n-1 would give 1.414). */
static void t_stats_population(void **state)
{
	static const double v[] = { 1, 3 };
	struct cmp_stats st;

	(void)state;
	cmp_stats_compute(v, N(v), &st);
	assert_close(st.mean, 2);
	assert_close(st.stddev, 1);
	assert_close(st.pct_stddev, 50);
	assert_int_equal(st.has_stddev, 1);
}

/* 4800 5000 5200: stddev sqrt(80000/3) = 163.299, 3.266% of 5000. */
static void t_stats_pct_stddev(void **state)
{
	static const double v[] = { 4800, 5000, 5200 };
	struct cmp_stats st;

	(void)state;
	cmp_stats_compute(v, N(v), &st);
	assert_close(st.mean, 5000);
	assert_close(st.stddev, sqrt(80000.0 / 3));
	assert_close(st.pct_stddev, 100 * sqrt(80000.0 / 3) / 5000);
	assert_true(st.pct_stddev > 3.26 && st.pct_stddev < 3.27);
}

static void t_stats_one_value(void **state)
{
	static const double v[] = { 7 };
	struct cmp_stats st;

	(void)state;
	memset(&st, 0x55, sizeof(st));
	cmp_stats_compute(v, N(v), &st);
	assert_close(st.mean, 7);
	assert_int_equal(st.has_stddev, 0);
	assert_true(st.stddev == 0);
	assert_true(st.pct_stddev == 0);
	assert_close(st.fails, 7);
}

static void t_stats_no_values(void **state)
{
	struct cmp_stats st;

	(void)state;
	memset(&st, 0x55, sizeof(st));
	cmp_stats_compute(NULL, 0, &st);
	assert_true(st.mean == 0);
	assert_int_equal(st.has_stddev, 0);
	assert_true(st.fails == 0);
}

/*
 * -1 1: mean 0, stddev 1; LKP does not divide by a zero mean: the
 * "%stddev" is the stddev itself (printed when above 2), never inf/nan.
 */
static void t_stats_mean_zero(void **state)
{
	static const double v[] = { -1, 1 };
	static const double z[] = { 0, 0, 0 };
	struct cmp_stats st;

	(void)state;
	cmp_stats_compute(v, N(v), &st);
	assert_true(st.mean == 0);
	assert_close(st.stddev, 1);
	assert_int_equal(st.has_stddev, 1);
	assert_close(st.pct_stddev, 1);
	cmp_stats_compute(z, N(z), &st);
	assert_true(st.mean == 0 && st.stddev == 0 && st.pct_stddev == 0);
}

/* The mean is over all runs, untrimmed: 1 1 1 1 96 -> 20. */
static void t_stats_no_trim(void **state)
{
	static const double v[] = { 1, 1, 1, 1, 96 };
	struct cmp_stats st;

	(void)state;
	cmp_stats_compute(v, N(v), &st);
	assert_close(st.mean, 20);
	/* squares 4*361 + 76^2 = 1444 + 5776 = 7220, /5 = 1444, sqrt 38 */
	assert_close(st.stddev, 38);
}

/*
 * Ruby's Array#sum: Floats with Kahan-Babuska compensation, so 0.1 + 0.2
 * + 0.3 is exactly 0.6 (a plain loop gives 0.6000000000000001); Integers
 * exactly, then the Floats after them.
 */
static void t_stats_ruby_sum(void **state)
{
	static const double v[] = { 0.1, 0.2, 0.3 };
	static const double big[] = { 9007199254740992.0, 1, 1 };
	static const unsigned char ints[] = { 1, 1, 1 };
	struct cmp_stats st;

	(void)state;
	cmp_stats_compute(v, N(v), &st);
	assert_true(st.fails == 0.6);
	assert_true(st.mean == 0.6 / 3);
	/* as Integers: 2^53 + 1 + 1 exactly (a plain double loop stays at
	 * 2^53, since 2^53 + 1 rounds back down) */
	cmp_stats_compute_typed(big, ints, N(big), &st);
	assert_true(st.fails == 9007199254740994.0);
}

/* ======================= compare_roots ======================= */

/* Rows come in base order, then head-only metrics; names are matched. */
static void t_compare_rows(void **state)
{
	struct fixture *f = *state;

	compare(f, "{\"a.x\": [1, 2, 3], \"b.x\": [4, 5, 6]}",
		"{\"c.x\": [1, 1, 1], \"b.x\": [7, 8, 9], \"a.x\": [3, 2, 1]}");
	assert_int_equal(f->c.nrows, 3);
	assert_string_equal(f->c.rows[0].name, "a.x");
	assert_string_equal(f->c.rows[1].name, "b.x");
	assert_string_equal(f->c.rows[2].name, "c.x");
	assert_int_equal(f->c.runs[BASE], 3);
	assert_int_equal(f->c.runs[HEAD], 3);
	assert_int_equal(f->c.rows[0].in_base, 1);
	assert_int_equal(f->c.rows[2].in_base, 0);
	/* b.x: head samples are the head's b.x, not a.x */
	assert_close(f->c.rows[1].v[HEAD][0], 7);
	assert_close(f->c.rows[1].st[HEAD].mean, 8);
	assert_close(f->c.rows[1].st[BASE].mean, 5);
	/* c.x is missing in the base: zeros */
	assert_close(f->c.rows[2].st[BASE].mean, 0);
	assert_int_equal(f->c.rows[2].n[BASE], 3);
	assert_ptr_equal(comparison_find(&f->c, "b.x"), &f->c.rows[1]);
	assert_null(comparison_find(&f->c, "nope"));
}

/* stats_source gives 4 runs: short lists are padded with 0. */
static void t_compare_padding(void **state)
{
	struct fixture *f = *state;
	const struct cmp_row *row;

	compare(f,
		"{\"stats_source\": [\"r1\", \"r2\", \"r3\", \"r4\"],"
		" \"foo.bar\": [4, 8]}",
		"{\"foo.bar\": [1, 1], \"foo.head\": [2, 2]}");
	assert_int_equal(f->c.runs[BASE], 4);
	assert_int_equal(f->c.runs[HEAD], 2);
	row = tu_row(&f->c, "foo.bar");
	assert_int_equal(row->n[BASE], 4);
	assert_int_equal(row->n[HEAD], 2);
	assert_close(row->v[BASE][2], 0);
	assert_close(row->v[BASE][3], 0);
	/* (4 + 8 + 0 + 0) / 4 = 3 */
	assert_close(row->st[BASE].mean, 3);
	assert_close(row->st[HEAD].mean, 1);
}

/* 100 -> 110 is +10%; a decrease 200000 -> 100000 is -50%. */
static void t_compare_change_relative(void **state)
{
	struct fixture *f = *state;

	compare(f, "{\"foo.up\": [100, 100, 100], \"foo.down\": [200000]}",
		"{\"foo.up\": [110, 110, 110], \"foo.down\": [100000]}");
	assert_close(tu_row(&f->c, "foo.up")->change, 10);
	assert_int_equal(tu_row(&f->c, "foo.up")->absolute, 0);
	assert_close(tu_row(&f->c, "foo.down")->change, -50);
}

/* A base mean of 0 becomes 1e-100: 100 * 5000 / 1e-100 = 5e105. */
static void t_compare_base_zero(void **state)
{
	struct fixture *f = *state;
	const struct cmp_row *row;

	compare(f, "{\"foo.x\": [0, 0, 0]}", "{\"foo.x\": [4800, 5000, 5200]}");
	row = tu_row(&f->c, "foo.x");
	assert_true(isfinite(row->change));
	assert_close(row->change, 5e105);
}

/* perf-profile.* and *% change absolutely: 24.47 -> 17.29 is -7.18. */
static void t_compare_change_absolute(void **state)
{
	struct fixture *f = *state;
	const struct cmp_row *row;

	compare(f,
		"{\"mpstat.cpu.all.soft%\": [24.47, 24.47],"
		" \"perf-profile.calltrace.cycles-pp.foo\": [0, 0]}",
		"{\"mpstat.cpu.all.soft%\": [17.29, 17.29],"
		" \"perf-profile.calltrace.cycles-pp.foo\": [5.26, 5.26]}");
	row = tu_row(&f->c, "mpstat.cpu.all.soft%");
	assert_int_equal(row->absolute, 1);
	assert_close(row->change, 17.29 - 24.47);
	/* absolute: a base of 0 is not replaced by 1e-100 */
	row = tu_row(&f->c, "perf-profile.calltrace.cycles-pp.foo");
	assert_int_equal(row->absolute, 1);
	assert_close(row->change, 5.26);
}

/*
 * %reproduction with different run counts: base 1 fail in 4 runs (25%),
 * head 2 fails in 2 runs (100%): 100 * (2/2 - 1/4) = 75. LKP's bug
 * (head fails / base runs) would give 100 * (2/4 - 1/4) = 25.
 */
static void t_compare_reproduction(void **state)
{
	struct fixture *f = *state;
	const struct cmp_row *row;

	compare(f, "{\"dmesg.WARNING:at_foo\": [1, 0, 0, 0]}",
		"{\"dmesg.WARNING:at_foo\": [1, 1]}");
	row = tu_row(&f->c, "dmesg.WARNING:at_foo");
	assert_int_equal(row->failure, 1);
	assert_close(row->st[BASE].fails, 1);
	assert_close(row->st[HEAD].fails, 2);
	assert_close(row->reproduction, 75);
	/* both maxima are 1: the filter does not call it a change */
	assert_int_equal(row->shown, 0);
	assert_string_equal(row->dropped, "not separated");
}

/* Fewer head runs than base runs, the other way round: -50. */
static void t_compare_reproduction_down(void **state)
{
	struct fixture *f = *state;
	const struct cmp_row *row;

	/* base 2 fails / 2 runs = 1, head 3 fails / 6 runs = 0.5 */
	compare(f, "{\"kmsg.oops\": [1, 1]}",
		"{\"kmsg.oops\": [1, 1, 1, 0, 0, 0]}");
	row = tu_row(&f->c, "kmsg.oops");
	assert_close(row->reproduction, -50);
}

/*
 * A head-only metric is dropped as "not in base", unless it is a failure
 * metric; nshown counts the rows shown.
 */
static void t_compare_head_only(void **state)
{
	struct fixture *f = *state;
	const struct cmp_row *row;

	compare(f, "{\"foo.bar\": [10, 10, 10]}",
		"{\"foo.bar\": [20, 20, 20], \"foo.new\": [5, 5, 5],"
		" \"dmesg.oops\": [1, 1, 1]}");
	row = tu_row(&f->c, "foo.new");
	assert_int_equal(row->shown, 0);
	assert_string_equal(row->dropped, "not in base");
	row = tu_row(&f->c, "dmesg.oops");
	assert_int_equal(row->in_base, 0);
	assert_int_equal(row->shown, 1);
	assert_close(row->reproduction, 100);
	assert_int_equal(tu_row(&f->c, "foo.bar")->shown, 1);
	assert_int_equal(f->c.nshown, 2);
}

/* ======================= comparison_to_json ======================= */

static json_t *json_row(json_t *rows, const char *name)
{
	size_t i;
	json_t *r;

	json_array_foreach(rows, i, r)
		if (!strcmp(json_string_value(json_object_get(r, "metric")),
			    name))
			return r;
	return NULL;
}

static double jnum(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	if (!json_is_number(v))
		fail_msg("'%s' is not a number", key);
	return json_number_value(v);
}

static const char json_base[] =
	"{\"foo.bar\": [100, 100, 100], \"foo.same\": [5, 5, 5],"
	" \"dmesg.oops\": [0, 0, 0], \"perf-profile.x\": [10, 10, 10]}";
static const char json_head[] =
	"{\"foo.bar\": [110, 120, 130], \"foo.same\": [5, 5, 5],"
	" \"dmesg.oops\": [1, 0, 1], \"perf-profile.x\": [12, 12, 12]}";

/* Shown rows only, every number of a row; nothing says 'dropped'. */
static void t_json_fields(void **state)
{
	struct fixture *f = *state;
	json_t *rows, *row, *side, *samples;

	compare(f, json_base, json_head);
	f->json = comparison_to_json(&f->c, 0);
	assert_non_null(f->json);
	assert_close(jnum(f->json, "base_runs"), 3);
	assert_close(jnum(f->json, "head_runs"), 3);
	assert_close(jnum(f->json, "metrics"), 4);
	assert_close(jnum(f->json, "shown"), 3);
	rows = json_object_get(f->json, "rows");
	assert_true(json_is_array(rows));
	assert_int_equal(json_array_size(rows), 3);
	assert_null(json_row(rows, "foo.same"));

	row = json_row(rows, "foo.bar");
	assert_non_null(row);
	assert_true(json_is_true(json_object_get(row, "shown")));
	assert_null(json_object_get(row, "dropped"));
	assert_null(json_object_get(row, "failure"));
	assert_close(jnum(row, "change_percent"), 20);
	assert_null(json_object_get(row, "change_absolute"));
	side = json_object_get(row, "head");
	assert_close(jnum(side, "mean"), 120);
	/* squares 100+0+100, /3, sqrt = 8.165; 6.804% of 120 */
	assert_close(jnum(side, "stddev"), sqrt(200.0 / 3));
	assert_close(jnum(side, "pct_stddev"), 100 * sqrt(200.0 / 3) / 120);
	assert_close(jnum(side, "runs"), 3);
	samples = json_object_get(side, "samples");
	assert_int_equal(json_array_size(samples), 3);
	assert_close(json_number_value(json_array_get(samples, 2)), 130);
	side = json_object_get(row, "base");
	assert_close(jnum(side, "mean"), 100);
	assert_close(jnum(side, "stddev"), 0);

	row = json_row(rows, "dmesg.oops");
	assert_non_null(row);
	assert_true(json_is_true(json_object_get(row, "failure")));
	assert_close(json_number_value(json_array_get(
		json_object_get(row, "fails"), 0)), 0);
	assert_close(json_number_value(json_array_get(
		json_object_get(row, "fails"), 1)), 2);
	/* 100 * (2/3 - 0/3) */
	assert_close(jnum(row, "reproduction"), 200.0 / 3);

	row = json_row(rows, "perf-profile.x");
	assert_non_null(row);
	assert_close(jnum(row, "change_absolute"), 2);
	assert_null(json_object_get(row, "change_percent"));
}

/* With 'all', dropped rows are there too, each naming its rule. */
static void t_json_all_dropped(void **state)
{
	struct fixture *f = *state;
	json_t *rows, *row;

	compare(f,
		"{\"foo.bar\": [100, 100, 100], \"foo.same\": [5, 5, 5],"
		" \"foo.one\": [1]}",
		"{\"foo.bar\": [200, 200, 200], \"foo.same\": [5, 5, 5],"
		" \"foo.one\": [2], \"foo.new\": [1, 1, 1]}");
	f->json = comparison_to_json(&f->c, 1);
	rows = json_object_get(f->json, "rows");
	assert_int_equal(json_array_size(rows), 4);
	assert_close(jnum(f->json, "metrics"), 4);
	assert_close(jnum(f->json, "shown"), 1);

	row = json_row(rows, "foo.bar");
	assert_true(json_is_true(json_object_get(row, "shown")));
	assert_null(json_object_get(row, "dropped"));
	row = json_row(rows, "foo.same");
	assert_true(json_is_false(json_object_get(row, "shown")));
	assert_string_equal(json_string_value(json_object_get(row, "dropped")),
			    "not separated");
	row = json_row(rows, "foo.new");
	assert_string_equal(json_string_value(json_object_get(row, "dropped")),
			    "not in base");
	/* foo.one is padded to 3 runs: 1 0 0 against 2 0 0 overlap */
	row = json_row(rows, "foo.one");
	assert_non_null(row);
	assert_close(jnum(json_object_get(row, "base"), "runs"), 3);
	assert_close(jnum(json_object_get(row, "base"), "mean"), 1.0 / 3);
	assert_string_equal(json_string_value(json_object_get(row, "dropped")),
			    "not separated");
}

/* A side of one run has no stddev: JSON null, not 0. */
static void t_json_no_stddev(void **state)
{
	struct fixture *f = *state;
	json_t *row;

	compare(f, "{\"foo.bar\": [100]}", "{\"foo.bar\": [200]}");
	f->json = comparison_to_json(&f->c, 1);
	row = json_array_get(json_object_get(f->json, "rows"), 0);
	assert_non_null(row);
	assert_true(json_is_null(json_object_get(json_object_get(row, "base"),
						 "stddev")));
	assert_true(json_is_null(json_object_get(json_object_get(row, "head"),
						 "pct_stddev")));
	assert_string_equal(json_string_value(json_object_get(row, "dropped")),
			    "fewer than 3 runs");
	/* without 'all' the dropped row is not listed */
	json_decref(f->json);
	f->json = comparison_to_json(&f->c, 0);
	assert_int_equal(json_array_size(json_object_get(f->json, "rows")), 0);
}

/* ======================= noise filter ======================= */

/* Rule 1: fewer than 3 runs on both sides drops a performance metric. */
static void t_filter_few_runs(void **state)
{
	static const double b2[] = { 1, 1 }, h2[] = { 10, 10 };
	static const double b3[] = { 1, 1, 1 }, h3[] = { 10, 10, 10 };

	FILTER(*state, "foo.bar", b2, h2, "fewer than 3 runs");
	/* 3 runs on one side are enough, either side */
	FILTER(*state, "foo.bar", b3, h2, NULL);
	FILTER(*state, "foo.bar", b2, h3, NULL);
}

/* Rule 2: a head-only metric is dropped unless it is a failure metric. */
static void t_filter_not_in_base(void **state)
{
	static const double zero[] = { 0, 0, 0 }, h[] = { 10, 10, 10 };
	static const double fh[] = { 1, 0, 1 };

	filter_tc(*state, "foo.bar", 0, zero, 3, h, 3, 0, "not in base");
	filter_tc(*state, "foo.bar", 1, zero, 3, h, 3, 0, NULL);
	filter_tc(*state, "dmesg.WARNING:at_foo", 0, zero, 3, fh, 3, 0,
		  NULL);
}

/* Rule 3: head above the base: head min 20 > base median 11, 21 > 12. */
static void t_filter_separated_up(void **state)
{
	static const double b[] = { 10, 11, 12 }, h[] = { 20, 21, 22 };

	FILTER(*state, "foo.bar", b, h, NULL);
}

/* Rule 3, reverse: base min 20 > head median 11 and 21 > head max 12. */
static void t_filter_separated_down(void **state)
{
	static const double b[] = { 20, 21, 22 }, h[] = { 10, 11, 12 };

	FILTER(*state, "foo.bar", b, h, NULL);
}

/* Rule 3: head min 20 > base median 11, but head median 21 < base max 30. */
static void t_filter_overlap(void **state)
{
	static const double b[] = { 10, 11, 30 }, h[] = { 20, 21, 22 };
	static const double b2[] = { 20, 21, 22 }, h2[] = { 10, 11, 30 };
	/* the other half: head median 21 > base max 19, min 5 < median 11 */
	static const double b3[] = { 10, 11, 19 }, h3[] = { 5, 21, 22 };

	FILTER(*state, "foo.bar", b, h, "not separated");
	FILTER(*state, "foo.bar", b2, h2, "not separated");
	FILTER(*state, "foo.bar", b3, h3, "not separated");
}

/*
 * The median is the upper one (element n/2): base 10 11 20 21 has 20.
 * Head 15 30 30 30: min 15 is not above 20 -> dropped (with the lower
 * median 11 it would pass). Head 22 30 30 30: 22 > 20, 30 > 21 -> shown.
 */
static void t_filter_upper_median(void **state)
{
	static const double b[] = { 21, 10, 20, 11 };
	static const double h1[] = { 30, 15, 30, 30 };
	static const double h2[] = { 30, 30, 22, 30 };

	FILTER(*state, "foo.bar", b, h1, "not separated");
	FILTER(*state, "foo.bar", b, h2, NULL);
}

/*
 * Trimming: 32 runs give margin 32 >> 5 = 1. Base 31 x 100 + one 1000:
 * trimmed to 30 x 100, so head 32 x 200 is separated. Untrimmed, base max
 * 1000 > head median 200 and nothing would be shown.
 */
static void t_filter_trim_32(void **state)
{
	double b[32], h[32];

	fill(b, 32, 100);
	fill(h, 32, 200);
	b[7] = 1000;
	FILTER(*state, "foo.bar", b, h, NULL);
	/* a low outlier on the head side is trimmed the same way */
	h[3] = 1;
	FILTER(*state, "foo.bar", b, h, NULL);
	/* two outliers at one end: margin 1 keeps one of them */
	b[9] = 1000;
	FILTER(*state, "foo.bar", b, h, "not separated");
}

/* 31 runs: 31 >> 5 = 0, nothing trimmed, the one outlier stays. */
static void t_filter_trim_31(void **state)
{
	double b[31], h[31];

	fill(b, 31, 100);
	fill(h, 31, 200);
	b[0] = 1000;
	FILTER(*state, "foo.bar", b, h, "not separated");
	b[0] = 100;
	FILTER(*state, "foo.bar", b, h, NULL);
}

/* 128 runs: 128 >> 5 = 4 but the margin is capped at 3. */
static void t_filter_trim_cap(void **state)
{
	double b[128], h[128];

	fill(b, 128, 100);
	fill(h, 128, 200);
	b[1] = b[50] = b[100] = 1000;
	FILTER(*state, "foo.bar", b, h, NULL);
	b[127] = 1000;	/* a 4th outlier survives a margin of 3 */
	FILTER(*state, "foo.bar", b, h, "not separated");
}

/*
 * Base of 3 runs: the head's margin is at most 1. Head 96 runs (margin 3)
 * with two low outliers 50: one survives, min 50 < base median 100.
 */
static void t_filter_head_margin_small_base(void **state)
{
	static const double b3[] = { 100, 100, 100 };
	static const double b4[] = { 100, 100, 100, 100 };
	double h[96];

	fill(h, 96, 200);
	h[10] = 50;
	/* one outlier: trimmed */
	FILTER(*state, "foo.bar", b3, h, NULL);
	h[20] = 50;
	FILTER(*state, "foo.bar", b3, h, "not separated");
	/* base of 4 runs: the head keeps its margin of 3 */
	FILTER(*state, "foo.bar", b4, h, NULL);
}

/* Failure metrics: changed when the maxima differ, even with 1 run. */
static void t_filter_failure_maxima(void **state)
{
	static const double b1[] = { 0 }, h1[] = { 1 };
	static const double b2[] = { 1, 0 }, h2[] = { 0, 1 };
	/* means differ (1/3 vs 1) but the maxima are both 1 */
	static const double b3[] = { 0, 0, 1 }, h3[] = { 1, 1, 1 };
	static const double b4[] = { 2, 2, 2 }, h4[] = { 0, 0, 1 };

	FILTER(*state, "dmesg.WARNING:at_foo", b1, h1, NULL);
	FILTER(*state, "stderr.has_stderr", b2, h2, "not separated");
	FILTER(*state, "kmsg.oops", b3, h3, "not separated");
	/* a fix (maximum going down) is a change too */
	FILTER(*state, "dmesg.BUG:bar", b4, h4, NULL);
	/* a .fail is only compared when the base has its .pass */
	FILTER(*state, "ltp.syscalls.fail", b4, h4,
	       "no matching pass/fail metric in base");
}

/* Failure metrics are not trimmed: one fail in 32 runs counts. */
static void t_filter_failure_no_trim(void **state)
{
	double b[32], h[32];

	fill(b, 32, 0);
	fill(h, 32, 0);
	h[31] = 1;
	FILTER(*state, "dmesg.BUG:foo", b, h, NULL);
	/* the same numbers for a performance metric: the 1 is trimmed */
	FILTER(*state, "foo.bar", b, h, "not separated");
}

/*
 * Failure metrics go through the ratio rules too (LKP's process): the
 * maxima differ, but both medians are 100.
 */
static void t_filter_failure_no_ratio(void **state)
{
	static const double b[] = { 100, 100, 100 }, h[] = { 100, 100, 100.5 };
	static const double h2[] = { 100, 200, 200 };

	FILTER(*state, "last_state.oops.warn", b, h, "ratio within 1%");
	FILTER(*state, "last_state.oops.warn", b, h2, NULL);
}

/*
 * Rule 4, perf metrics need ratio > 1.01: 101.5 / 100 = 1.015 passes;
 * 101 / 100 = 1.01 exactly does not.
 */
static void t_filter_ratio_perf(void **state)
{
	static const double b[] = { 100, 100, 100 };
	static const double h1[] = { 101.5, 101.5, 101.5 };
	static const double h2[] = { 101, 101, 101 };
	static const double h3[] = { 103, 103, 103 };

	FILTER(*state, "perf-stat.i.cycles", b, h1, NULL);
	FILTER(*state, "perf-stat.i.cycles", b, h2, "ratio within 1%");
	/* 3% needs no more than 1.01 for perf metrics */
	FILTER(*state, "perf-stat.i.cycles", b, h3, NULL);
	FILTER(*state, "proc-vmstat.numa_hit", b, h3, "below threshold");
}

/* The benchmark programs of lkp-tests ("<program>.*") are perf metrics. */
static void t_filter_ratio_benchmark(void **state)
{
	static const double b[] = { 100, 100, 100 };
	static const double h[] = { 103, 103, 103 };

	FILTER(*state, "hackbench.throughput", b, h, NULL);
	FILTER(*state, "will-it-scale.per_process_ops", b, h, NULL);
	FILTER(*state, "hackbenchx.throughput", b, h, "ratio within 5%");
	/* a functional test of lkp-tests is not a benchmark */
	FILTER(*state, "ltp.foo", b, h, "ratio within 5%");
}

/*
 * Others need ratio > 1.05: 105 / 100 = 1.05 exactly is dropped, 1.06
 * shown; the ratio is high median / low median in both directions.
 */
static void t_filter_ratio_other(void **state)
{
	static const double b[] = { 100, 100, 100 };
	static const double h105[] = { 105, 105, 105 };
	static const double h106[] = { 106, 106, 106 };
	static const double h103[] = { 103, 103, 103 };

	FILTER(*state, "foo.bar", b, h106, NULL);
	FILTER(*state, "foo.bar", b, h105, "ratio within 5%");
	FILTER(*state, "foo.bar", b, h103, "ratio within 5%");
	FILTER(*state, "foo.bar", h106, b, NULL);
	FILTER(*state, "foo.bar", h105, b, "ratio within 5%");
}

/*
 * When the lower median is <= 0 the ratio is 5: -10 -> -1 has medians
 * -1 / -10 = 0.1 taken literally, which would fail the 1.01 rule.
 */
static void t_filter_ratio_nonpositive(void **state)
{
	static const double bn[] = { -10, -10, -10 }, hn[] = { -2, -2, -2 };
	static const double h1[] = { -1, -1, -1 };
	static const double bz[] = { 0, 0, 0 };
	static const double hz[] = { 0.02, 0.02, 0.02 };
	static const double bp[] = { 0.5, 0.5, 0.5 };
	static const double hp[] = { 0.502, 0.502, 0.502 };

	FILTER(*state, "foo.bar", bn, hn, NULL);
	FILTER(*state, "foo.bar", hn, bn, NULL);
	FILTER(*state, "foo.bar", bz, hz, NULL);
	/* -1 is LKP's "empty data point": a side of only -1 is no data */
	FILTER(*state, "foo.bar", bn, h1, "no values");
	/* positive low median: the real ratio 1.004 is too small */
	FILTER(*state, "foo.bar", bp, hp, "ratio within 1%");
}

/* Thresholds: max < v drops; an integer v also needs delta >= v / 2. */
static void t_filter_threshold_max(void **state)
{
	static const double b[] = { 10, 10, 10 }, h[] = { 50, 50, 50 };
	static const double h2[] = { 100, 100, 100 };

	use_rules(*state,
		  "thresholds:\n  - { match: 'int\\..*', value: 100 }\n");
	FILTER(*state, "int.x", b, h, "below threshold");
	/* max 100 is not below 100; delta 90 >= 50 */
	FILTER(*state, "int.x", b, h2, NULL);
	/* max is the largest value of both sides: the base's 100 here */
	FILTER(*state, "int.x", h2, b, NULL);
	FILTER(*state, "int.x", h, b, "below threshold");
}

/* Integer v = 100: 100 -> 140 has delta 40 < 50; 100 -> 150 is enough. */
static void t_filter_threshold_delta(void **state)
{
	static const double b[] = { 100, 100, 100 };
	static const double h140[] = { 140, 140, 140 };
	static const double h150[] = { 150, 150, 150 };

	use_rules(*state,
		  "thresholds:\n"
		  "  - { match: 'int\\..*', value: 100 }\n"
		  "  - { match: 'dec\\..*', value: 99.5 }\n");
	FILTER(*state, "int.x", b, h140, "below threshold");
	FILTER(*state, "int.x", h140, b, "below threshold");
	FILTER(*state, "int.x", b, h150, NULL);
	/* non-integer v: only the max rule, the same delta 40 passes */
	FILTER(*state, "dec.x", b, h140, NULL);
}

/* A non-integer v: max below it drops, any delta passes. */
static void t_filter_threshold_nonint(void **state)
{
	static const double b[] = { 10, 10, 10 }, h[] = { 99, 99, 99 };
	static const double h2[] = { 99.5, 99.5, 99.5 };

	use_rules(*state,
		  "thresholds:\n  - { match: 'dec\\..*', value: 99.5 }\n");
	FILTER(*state, "dec.x", b, h, "below threshold");
	FILTER(*state, "dec.x", b, h2, NULL);
}

/* The first matching threshold wins. */
static void t_filter_first_threshold(void **state)
{
	static const double b[] = { 100, 100, 100 }, h[] = { 200, 200, 200 };

	use_rules(*state,
		  "thresholds:\n"
		  "  - { match: 'foo\\.special', value: 1 }\n"
		  "  - { match: 'foo\\..*', value: 1000 }\n");
	FILTER(*state, "foo.special", b, h, NULL);
	FILTER(*state, "foo.other", b, h, "below threshold");
}

/* Fallback iostat*: max > 1 (a perf metric, no threshold matches). */
static void t_filter_fallback_iostat(void **state)
{
	static const double b[] = { 0.2, 0.2, 0.2 };
	static const double h1[] = { 0.9, 0.9, 0.9 }, h2[] = { 1.5, 1.5, 1.5 };
	static const double h3[] = { 1, 1, 1 };

	FILTER(*state, "iostat.sda.foo", b, h1, "below threshold");
	FILTER(*state, "iostat.sda.foo", b, h3, "below threshold");
	FILTER(*state, "iostat.sda.foo", b, h2, NULL);
	/* iostat.*.[rw]/s has its threshold, 50 */
	FILTER(*state, "iostat.sda.r/s", b, h2, "below threshold");
}

/* Fallbacks proc-vmstat* and *meminfo*: max > 1000. */
static void t_filter_fallback_vm(void **state)
{
	static const double b[] = { 500, 500, 500 };
	static const double h900[] = { 900, 900, 900 };
	static const double h1000[] = { 1000, 1000, 1000 };
	static const double h1500[] = { 1500, 1500, 1500 };

	FILTER(*state, "proc-vmstat.pgfault", b, h900, "below threshold");
	FILTER(*state, "proc-vmstat.pgfault", b, h1500, NULL);
	FILTER(*state, "meminfo.Active", b, h1000, "below threshold");
	FILTER(*state, "meminfo.Active", b, h1500, NULL);
	FILTER(*state, "numa-meminfo.node0.Active", b, h900,
	       "below threshold");
	FILTER(*state, "numa-meminfo.node0.Active", b, h1500, NULL);
}

/* Fallback softirqs*: max > 10000. */
static void t_filter_fallback_softirqs(void **state)
{
	static const double b[] = { 5000, 5000, 5000 };
	static const double h1[] = { 9000, 9000, 9000 };
	static const double h2[] = { 20000, 20000, 20000 };

	/* softirqs.* are deny-listed; the fallback of a rules file alone */
	FILTER(*state, "softirqs.CPU0.RCU", b, h2,
	       "not reported (stat-denylist)");
	use_rules(*state,
		  "fallbacks:\n"
		  "  - { match: '^interrupts|^softirqs', max_above: 10000 }\n");
	FILTER(*state, "softirqs.CPU0.RCU", b, h1, "below threshold");
	FILTER(*state, "softirqs.CPU0.RCU", b, h2, NULL);
}

/*
 * interrupts.* meets its shipped threshold (100) before the fallback
 * (> 10000): 200 -> 5000 is shown. With the fallback alone it is not.
 */
static void t_filter_fallback_interrupts(void **state)
{
	static const double b[] = { 200, 200, 200 };
	static const double h1[] = { 5000, 5000, 5000 };
	static const double h2[] = { 20000, 20000, 20000 };

	FILTER(*state, "interrupts.CPU0.LOC", b, h1,
	       "not reported (stat-denylist)");
	use_rules(*state,
		  "thresholds:\n"
		  "  - { match: 'interrupts.*', value: 100 }\n");
	FILTER(*state, "interrupts.CPU0.LOC", b, h1, NULL);
	use_rules(*state,
		  "fallbacks:\n"
		  "  - { match: '^interrupts|^softirqs', max_above: 10000 }\n");
	FILTER(*state, "interrupts.CPU0.LOC", b, h1, "below threshold");
	FILTER(*state, "interrupts.CPU0.LOC", b, h2, NULL);
}

/*
 * perf-profile.* skips the ratio and threshold rules: with Float medians
 * only the separation test applies; 60 -> 60.4 is shown.
 */
static void t_filter_perf_profile(void **state)
{
	static const double b[] = { 60, 60, 60 };
	static const double h1[] = { 60.5, 60.5, 60.5 };
	static const double h2[] = { 60.4, 60.4, 60.4 };
	static const double b3[] = { 0.01, 0.01, 0.01 };
	static const double h3[] = { 0.02, 0.02, 0.02 };

	FILTER(*state, "perf-profile.calltrace.cycles-pp.foo", b, h1, NULL);
	FILTER(*state, "perf-profile.calltrace.cycles-pp.foo", b, h2, NULL);
	/* the same numbers under another name fail the ratio rule */
	FILTER(*state, "foo.bar", b, h1, "ratio within 1%");
	/* far below 1 */
	FILTER(*state, "perf-profile.self.cycles-pp.bar", b3, h3, NULL);
	/* ... but the separation rule still applies */
	FILTER(*state, "perf-profile.self.cycles-pp.bar", b3, b3,
	       "not separated");
}

/*
 * An Integer head median: perf-profile is shown exactly when a median is
 * above perf_profile_threshold (5), separated or not.
 */
static void t_filter_perf_profile_integer(void **state)
{
	static const double b[] = { 1, 1, 1 }, h[] = { 2, 2, 2 };
	static const double b6[] = { 6, 6, 6 };

	FILTER_INT(*state, "perf-profile.self.cycles-pp.x", b, h,
		   "perf-profile below the threshold");
	FILTER_INT(*state, "perf-profile.self.cycles-pp.x", b6, b6, NULL);
	FILTER_INT(*state, "perf-profile.self.cycles-pp.x", b6, h, NULL);
	/* the same as Floats: separation, and 6 -> 6 is not */
	FILTER(*state, "perf-profile.self.cycles-pp.x", b6, b6,
	       "not separated");
}

/* Deny-listed families are not shown unless (report) allow-listed. */
static void t_filter_denylist(void **state)
{
	static const double b[] = { 100, 100, 100 }, h[] = { 5000, 5000, 5000 };

	FILTER(*state, "slabinfo.kmalloc-64.num_objs", b, h,
	       "not reported (stat-denylist)");
	FILTER(*state, "diskstats.sda.reads", b, h,
	       "not reported (stat-denylist)");
	/* ^meminfo\. is deny-listed and report-allow-listed */
	FILTER(*state, "meminfo.Active", b, h, NULL);
	/* ^stress-ng\..+\.fail is allow-listed (and paired in the base) */
	FILTER(*state, "aim7.cpu", b, h, "not reported (stat-denylist)");
}

/* time.* and *.time.* are perf metrics (etc/perf-metrics-patterns). */
static void t_filter_time_perf(void **state)
{
	static const double b[] = { 100, 100, 100 }, h[] = { 103, 103, 103 };

	FILTER(*state, "hackbench.time.voluntary_context_switches", b, h,
	       "below threshold");
	FILTER(*state, "time.percent_of_cpu_this_job_got", b, h, NULL);
	FILTER(*state, "boot-time.boot", b, h, NULL);
	/* uptime.* is no perf metric: 3% is within the 5% rule */
	FILTER(*state, "uptime.idle", b, h, "ratio within 5%");
}

/* A .pass metric needs a matching .fail/.error/.warn in the base. */
static void t_filter_pass_pairs(void **state)
{
	struct fixture *f = *state;

	compare(f, "{\"ltp.a.pass\": [1, 1, 1], \"ltp.a.fail\": [0, 0, 0],"
		" \"ltp.b.pass\": [1, 1, 1]}",
		"{\"ltp.a.pass\": [0, 0, 0], \"ltp.a.fail\": [1, 1, 1],"
		" \"ltp.b.pass\": [0, 0, 0]}");
	assert_true(comparison_find(&f->c, "ltp.a.pass")->failure);
	assert_true(comparison_find(&f->c, "ltp.a.pass")->shown);
	assert_true(comparison_find(&f->c, "ltp.a.fail")->shown);
	assert_false(comparison_find(&f->c, "ltp.b.pass")->shown);
}

/*
 * The partner of a .pass is looked up by its literal name first (the
 * documented choice, doc/lkp-compare.md): LKP builds an unescaped regex
 * from the name, so "(udp)" pairs with "udp" there and an unbalanced "("
 * stops it with a RegexpError. A name without its literal partner falls
 * back to LKP's regex, and one whose regex cannot be compiled is dropped.
 */
static void t_filter_pass_regex_characters(void **state)
{
	struct fixture *f = *state;

	compare(f, "{\"ltp.ipv6:_(udp).pass\": [1, 1, 1], "
		"\"ltp.ipv6:_(udp).fail\": [0, 0, 0], "
		"\"ltp.x_(.pass\": [1, 1, 1], \"ltp.x_(.fail\": [0, 0, 0], "
		"\"ltp.y_(.pass\": [1, 1, 1], "
		"\"ltp.caseX1.fail\": [0, 0, 0], \"ltp.case.1.pass\": [1, 1, 1]}",
		"{\"ltp.ipv6:_(udp).pass\": [0, 0, 0], "
		"\"ltp.ipv6:_(udp).fail\": [1, 1, 1], "
		"\"ltp.x_(.pass\": [0, 0, 0], \"ltp.x_(.fail\": [1, 1, 1], "
		"\"ltp.y_(.pass\": [0, 0, 0], "
		"\"ltp.caseX1.fail\": [1, 1, 1], \"ltp.case.1.pass\": [0, 0, 0]}");
	/* literal partners: shown (LKP: unpaired, and a RegexpError) */
	assert_true(comparison_find(&f->c, "ltp.ipv6:_(udp).pass")->shown);
	assert_true(comparison_find(&f->c, "ltp.x_(.pass")->shown);
	/* no partner, and a regex that does not compile: dropped */
	assert_false(comparison_find(&f->c, "ltp.y_(.pass")->shown);
	assert_string_equal(comparison_find(&f->c, "ltp.y_(.pass")->dropped,
			    "no matching pass/fail metric in base");
	/* no literal partner: LKP's regex, '.' any character, pairs them */
	assert_true(comparison_find(&f->c, "ltp.case.1.pass")->shown);
}

/*
 * Runs that did not complete are removed from performance metrics
 * (means and the filter) but not from failure metrics.
 */
static void t_filter_incomplete_runs(void **state)
{
	struct fixture *f = *state;
	const struct cmp_row *r;

	compare(f, "{\"foo.x\": [10, 10, 10, 10],"
		" \"stats_source\": [\"a\", \"b\", \"c\", \"d\"]}",
		"{\"foo.x\": [20, 20, 20, 1000],"
		" \"dmesg.oops\": [0, 0, 0, 1],"
		" \"last_state.is_incomplete_run\": [0, 0, 0, 1],"
		" \"stats_source\": [\"a\", \"b\", \"c\", \"d\"]}");
	assert_int_equal(f->c.runs[HEAD], 3);
	assert_int_equal(f->c.all_runs[HEAD], 4);
	r = comparison_find(&f->c, "foo.x");
	assert_int_equal(r->n[HEAD], 3);
	assert_close(r->st[HEAD].mean, 20);
	assert_true(r->shown);
	r = comparison_find(&f->c, "dmesg.oops");
	assert_int_equal(r->n[HEAD], 4);
	assert_true(r->shown);
	assert_true(comparison_find(&f->c,
				    "last_state.is_incomplete_run")->shown);
}

/*
 * Integers past 2^53 are summed exactly, as Ruby sums them: the double
 * of 458689922128314817 is ...816, and three of them are ...451, not the
 * double sum.
 */
static void t_compare_exact_integers(void **state)
{
	struct fixture *f = *state;
	const struct cmp_row *r;
	struct strbuf sb = STRBUF_INIT;
	const struct rules *rules = f->r;

	compare(f, "{\"dmesg.x\": [458689922128314817, 458689922128314817,"
		" 458689922128314817], \"foo.y\": [1, 2, 3]}",
		"{\"dmesg.x\": [0, 0, 0], \"foo.y\": [1, 2, 3]}");
	r = comparison_find(&f->c, "dmesg.x");
	assert_true(r->st[BASE].fails_exact);
	assert_true(r->st[BASE].ifails == (__int128)458689922128314817LL * 3);
	assert_int_equal(table_format_row(&sb, rules_format(rules), r), 0);
	assert_non_null(strstr(sb_str(&sb), "1376069766384944451:3"));
	sb_release(&sb);
}

/* A list holding strings is never compared. */
static void t_filter_strings(void **state)
{
	struct fixture *f = *state;

	compare(f, "{\"foo.s\": [1, 1, 1], \"foo.t\": [1, 1, 1]}",
		"{\"foo.s\": [5, 5, \"x\"], \"foo.t\": [1, 1, 1]}");
	assert_true(comparison_find(&f->c, "foo.s")->strings);
	assert_false(comparison_find(&f->c, "foo.s")->shown);
}

#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(t_stats_mean_stddev),
		T(t_stats_population),
		T(t_stats_pct_stddev),
		T(t_stats_one_value),
		T(t_stats_no_values),
		T(t_stats_mean_zero),
		T(t_stats_no_trim),
		T(t_stats_ruby_sum),
		T(t_compare_rows),
		T(t_compare_padding),
		T(t_compare_change_relative),
		T(t_compare_base_zero),
		T(t_compare_change_absolute),
		T(t_compare_reproduction),
		T(t_compare_reproduction_down),
		T(t_compare_head_only),
		T(t_json_fields),
		T(t_json_all_dropped),
		T(t_json_no_stddev),
		T(t_filter_few_runs),
		T(t_filter_not_in_base),
		T(t_filter_separated_up),
		T(t_filter_separated_down),
		T(t_filter_overlap),
		T(t_filter_upper_median),
		T(t_filter_trim_32),
		T(t_filter_trim_31),
		T(t_filter_trim_cap),
		T(t_filter_head_margin_small_base),
		T(t_filter_failure_maxima),
		T(t_filter_failure_no_trim),
		T(t_filter_failure_no_ratio),
		T(t_filter_ratio_perf),
		T(t_filter_ratio_benchmark),
		T(t_filter_ratio_other),
		T(t_filter_ratio_nonpositive),
		T(t_filter_threshold_max),
		T(t_filter_threshold_delta),
		T(t_filter_threshold_nonint),
		T(t_filter_first_threshold),
		T(t_filter_fallback_iostat),
		T(t_filter_fallback_vm),
		T(t_filter_fallback_softirqs),
		T(t_filter_fallback_interrupts),
		T(t_filter_perf_profile),
		T(t_filter_perf_profile_integer),
		T(t_filter_denylist),
		T(t_filter_time_perf),
		T(t_filter_pass_pairs),
		T(t_filter_pass_regex_characters),
		T(t_filter_incomplete_runs),
		T(t_filter_strings),
		T(t_compare_exact_integers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
