// SPDX-License-Identifier: GPL-2.0-only
/* Unit tests for src/render/chart.c; run from the repository root. */
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "perfbot/render/chart.h"
#include "perfbot/util/fileio.h"

#define GOLDEN_BASIC "fixtures/golden/chart-basic.expected"
#define MAX_LINES (CHART_MAX_HEIGHT + 8)
#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

struct fx {
	struct strbuf out;
	struct pb_err err;
	char *copy;			/* 'out' split at '\n' */
	char *line[MAX_LINES];
	size_t n;
};

/* The samples of the golden chart (an aim7 regression, 10 runs each). */
static const double g_base[] = { 69500, 70100, 68900, 71800, 69200,
				 70600, 67800, 69900, 73900, 68400 };
static const double g_head[] = { 63700, 64100, 63500, 64300, 63900,
				 64000, 63200, 63800, 64500, 63600 };

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	sb_init(&f->out, 0);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	sb_release(&f->out);
	free(f->copy);
	free(f);
	return 0;
}

static void split(struct fx *f)
{
	char *p;

	free(f->copy);
	f->copy = strdup(sb_str(&f->out));
	assert_non_null(f->copy);
	f->n = 0;
	for (p = f->copy; *p; f->n++) {
		assert_true(f->n < MAX_LINES);
		f->line[f->n] = p;
		p = strchr(p, '\n');
		assert_non_null(p);	/* every line ends in '\n' */
		*p++ = '\0';
	}
}

static void render(struct fx *f, const char *title, const double *base,
		   size_t nbase, const double *head, size_t nhead, int width,
		   int height)
{
	sb_reset(&f->out);
	assert_int_equal(chart_render(title, base, nbase, head, nhead, width,
				      height, &f->out, &f->err), 0);
	split(f);
	assert_int_equal(f->n, (size_t)height + 1);
}

static void render_fails(struct fx *f, const char *title, const double *base,
			 size_t nbase, const double *head, size_t nhead,
			 int width, int height, int code, const char *msg)
{
	sb_reset(&f->out);
	assert_int_equal(sb_adds(&f->out, "kept\n"), 0);
	pb_err_clear(&f->err);
	assert_int_equal(chart_render(title, base, nbase, head, nhead, width,
				      height, &f->out, &f->err), -1);
	assert_int_equal(f->err.code, code);
	assert_string_equal(f->err.msg, msg);
	assert_string_equal(sb_str(&f->out), "kept\n");
}

/* Parse the y label of plot line 'i'; 0 when it has none. */
static int label_of(const struct fx *f, size_t i, double *v)
{
	char *end;

	*v = strtod(f->line[i], &end);
	return end != f->line[i] && *end == ' ';
}

/* Column of the left border: just after the label column. */
static size_t left_col(const struct fx *f)
{
	const char *top = f->line[1];
	size_t i = strspn(top, " ");

	i += strcspn(top + i, " ");
	return i + 1;
}

static size_t count_char(const struct fx *f, char c)
{
	size_t i, n = 0;
	const char *p;

	for (i = 1; i < f->n; i++)
		for (p = f->line[i]; *p; p++)
			n += *p == c;
	return n;
}

/* The labels top to bottom; returns how many. */
static size_t labels(const struct fx *f, double *v, size_t max)
{
	size_t i, n = 0;

	for (i = 1; i < f->n; i++)
		if (label_of(f, i, &v[n]) && n < max)
			n++;
	return n;
}

static void test_frame_80x20(void **state)
{
	static const double base[] = { 12, 18, 27 }, head[] = { 14, 22 };
	struct fx *f = *state;
	size_t i, L, R = 76;
	double v;

	render(f, "frame", base, NELEM(base), head, NELEM(head), 80, 20);
	L = left_col(f);
	assert_int_equal(L, 5);		/* "  30 ++---" */
	for (i = 1; i <= 20; i++) {
		const char *s = f->line[i];

		assert_int_equal(strlen(s), R + 1);
		if (i == 1 || i == 20) {
			assert_memory_equal(s + L, "++--", 4);
			assert_memory_equal(s + R - 3, "--++", 4);
			assert_int_equal(strspn(s + L + 2, "-"), R - L - 3);
		} else if (label_of(f, i, &v)) {
			assert_non_null(strchr("+*O", s[L]));
			assert_int_equal(s[L + 1], '+');
			assert_int_equal(s[R - 1], '+');
			assert_non_null(strchr("+*O", s[R]));
		} else {
			assert_non_null(strchr("|*O", s[L]));
			assert_non_null(strchr("|*O", s[R]));
		}
	}
	/* centred over the frame, columns 5..76 */
	assert_int_equal(strspn(f->line[0], " "), 38);
	assert_string_equal(f->line[0] + 38, "frame");
}

static void test_lines_fit_width(void **state)
{
	static const int sizes[][2] = { { 30, 8 }, { 31, 9 }, { 57, 13 },
					{ 80, 20 }, { 200, 100 } };
	static const double data[][3] = {
		{ 1, 2, 3 }, { -1.5e305, 1e306, 0 }, { 1e-300, 2e-300, 0 },
		{ 1e12, 1e12 + 1, 1e12 + 3 }, { -0.001, -0.002, -0.0015 },
	};
	struct fx *f = *state;
	size_t s, d, i;

	for (s = 0; s < NELEM(sizes); s++) {
		for (d = 0; d < NELEM(data); d++) {
			render(f, "perf-stat.i.metric.GHz", data[d], 3, data[d],
			       2, sizes[s][0], sizes[s][1]);
			for (i = 0; i < f->n; i++) {
				size_t len = strlen(f->line[i]);

				assert_true(len <= (size_t)sizes[s][0]);
				assert_true(len > 0);
				assert_int_not_equal(f->line[i][len - 1], ' ');
			}
		}
	}
}

static void test_ticks_descending_nice(void **state)
{
	static const double base[] = { 3.2, 7.9, 5.5 }, head[] = { 9.1 };
	struct fx *f = *state;
	double v[16], step;
	size_t n, i;

	render(f, "t", base, NELEM(base), head, NELEM(head), 80, 20);
	n = labels(f, v, NELEM(v));
	assert_true(n >= 4 && n <= 6);
	assert_true(v[0] >= 9.1 && v[n - 1] <= 3.2);
	step = v[0] - v[1];
	for (i = 1; i < n; i++) {
		assert_true(v[i] < v[i - 1]);
		assert_float_equal(v[i - 1] - v[i], step, 1e-9);
	}
	assert_float_equal(step, 2, 1e-9);	/* 2, 4, 6, 8, 10 */
	assert_float_equal(v[0], 10, 1e-9);
	assert_float_equal(v[n - 1], 2, 1e-9);
}

static void check_labels(struct fx *f, const double *base, size_t nbase,
			 const char *const *want, size_t nwant)
{
	size_t i, k = 0, L;
	double v;

	render(f, "labels", base, nbase, NULL, 0, 80, 20);
	L = left_col(f);
	for (i = 1; i < f->n; i++) {
		if (!label_of(f, i, &v))
			continue;
		assert_true(k < nwant);
		assert_non_null(strstr(f->line[i], want[k]));
		assert_int_equal(strspn(f->line[i], " ") + strlen(want[k]),
				 L - 1);
		k++;
	}
	assert_int_equal(k, nwant);
}

static void test_labels_like_gnuplot(void **state)
{
	static const double cycles[] = { 1.3e13, 1.4e13, 1.55e13, 1.6e13 };
	static const double ipc[] = { 0.43, 0.44, 0.30, 0.28 };
	static const double loads[] = { 1e8, 3.4e8 };
	static const double jobs[] = { 36000, 41000 };
	static const char *const w1[] = { "1.6e+13", "1.5e+13", "1.4e+13",
					  "1.3e+13" };
	static const char *const w2[] = { "0.45", "0.4", "0.35", "0.3",
					  "0.25" };
	static const char *const w3[] = { "3.5e+08", "3e+08", "2.5e+08",
					  "2e+08", "1.5e+08", "1e+08" };
	static const char *const w4[] = { "41000", "40000", "39000", "38000",
					  "37000", "36000" };
	struct fx *f = *state;

	check_labels(f, cycles, NELEM(cycles), w1, NELEM(w1));
	check_labels(f, ipc, NELEM(ipc), w2, NELEM(w2));
	check_labels(f, loads, NELEM(loads), w3, NELEM(w3));
	check_labels(f, jobs, NELEM(jobs), w4, NELEM(w4));
}

static void test_golden_basic(void **state)
{
	struct strbuf want = STRBUF_INIT;
	struct pb_err err;
	struct fx *f = *state;

	assert_int_equal(file_read(GOLDEN_BASIC, 1 << 16, 1, &want, &err), 0);
	render(f, "aim7.jobs-per-min", g_base, NELEM(g_base), g_head,
	       NELEM(g_head), 80, 20);
	assert_int_equal(chart_legend(&f->out), 0);
	assert_int_equal(f->out.len, want.len);
	assert_memory_equal(f->out.buf, want.buf, want.len);
	sb_release(&want);
}

static void test_marker_counts(void **state)
{
	struct fx *f = *state;

	render(f, "aim7.jobs-per-min", g_base, NELEM(g_base), g_head,
	       NELEM(g_head), 80, 20);
	assert_int_equal(count_char(f, '*'), NELEM(g_base));
	assert_int_equal(count_char(f, 'O'), NELEM(g_head));
}

static void test_dots_fill_flat_line(void **state)
{
	static const double base[] = { 5, 5, 5 };
	struct fx *f = *state;
	size_t i, L;
	char *a, *b;

	render(f, "flat", base, NELEM(base), NULL, 0, 80, 20);
	for (i = 1; i < f->n && !strchr(f->line[i], '*'); i++)
		;
	assert_true(i < f->n);
	L = left_col(f);
	a = f->line[i] + L;
	/* 5 is the middle tick: the dots leave its '+' marks alone */
	assert_memory_equal(a, "*+.", 3);
	b = strchr(a + 1, '*');
	assert_non_null(b);
	assert_int_equal(strspn(a + 2, "."), (size_t)(b - a - 2));
	a = b;
	b = strchr(a + 1, '*');
	assert_non_null(b);
	assert_int_equal(strspn(a + 1, "."), (size_t)(b - a - 2));
	assert_string_equal(b - 2, ".+*");	/* the last one on the border */
	assert_int_equal(count_char(f, '*'), 3);
}

static void test_dots_one_per_column(void **state)
{
	static const double base[] = { 0, 10 };
	struct fx *f = *state;
	size_t i, L = 0, c, cols, n;

	render(f, "slope", base, NELEM(base), NULL, 0, 80, 20);
	L = left_col(f);
	cols = strlen(f->line[1]) - L;
	for (c = L + 2; c < L + cols - 2; c++) {
		for (n = 0, i = 1; i < f->n; i++)
			n += f->line[i][c] == '.';
		assert_int_equal(n, 1);
	}
	assert_int_equal(f->line[20][L], '*');
	assert_int_equal(f->line[1][L + cols - 1], '*');
}

static void test_head_has_no_dots(void **state)
{
	struct fx *f = *state;

	render(f, "head", NULL, 0, g_head, NELEM(g_head), 80, 20);
	assert_int_equal(count_char(f, '.'), 0);
	assert_int_equal(count_char(f, '*'), 0);
	assert_int_equal(count_char(f, 'O'), NELEM(g_head));
}

static void test_nan_inf_skipped(void **state)
{
	const double base[] = { 1, NAN, 3, 4, INFINITY };
	const double head[] = { -INFINITY, 2.5 };
	struct fx *f = *state;
	size_t i, c, L, mid;

	render(f, "gaps", base, NELEM(base), head, NELEM(head), 80, 20);
	assert_int_equal(count_char(f, '*'), 3);
	assert_int_equal(count_char(f, 'O'), 1);
	/* sample 1 is NaN: no line from sample 0 to sample 2 */
	L = left_col(f);
	mid = L + (strlen(f->line[1]) - L - 1) / 2;	/* sample 2 of 5 */
	for (i = 2; i < f->n - 1; i++)
		for (c = L + 2; c < mid - 1; c++)
			assert_int_not_equal(f->line[i][c], '.');
	assert_true(count_char(f, '.') > 5);	/* from sample 2 to 3 */
}

static void test_points_on_tick_rows(void **state)
{
	static const double base[] = { 10, 20, 30, 40, 50 };
	struct fx *f = *state;
	size_t i, k = 0;
	double v;

	render(f, "ticks", base, NELEM(base), NULL, 0, 80, 20);
	for (i = 1; i < f->n; i++) {
		if (!label_of(f, i, &v))
			continue;
		assert_float_equal(v, 50 - 10.0 * (double)k, 1e-9);
		assert_non_null(strchr(f->line[i], '*'));
		k++;
	}
	assert_int_equal(k, 5);
}

static void test_single_sample(void **state)
{
	static const double one[] = { 5 };
	struct fx *f = *state;
	double v[16];
	size_t n, i, L, cols;

	render(f, "single", one, 1, NULL, 0, 80, 20);
	assert_int_equal(count_char(f, '*'), 1);
	L = left_col(f);
	cols = strlen(f->line[1]) - L;
	for (i = 1; i < f->n && !strchr(f->line[i], '*'); i++)
		;
	assert_int_equal(strchr(f->line[i], '*') - f->line[i],
			 L + (cols - 1) / 2);
	n = labels(f, v, NELEM(v));
	assert_true(n >= 4 && n <= 6);
	assert_true(v[0] > 5 && v[n - 1] < 5);
}

static void test_all_equal(void **state)
{
	static const double same[] = { 7, 7, 7 };
	struct fx *f = *state;
	double v[16];
	size_t n;

	render(f, "flat", same, NELEM(same), same, NELEM(same), 80, 20);
	assert_int_equal(count_char(f, 'O'), 3);	/* drawn over '*' */
	assert_int_equal(count_char(f, '*'), 0);
	n = labels(f, v, NELEM(v));
	assert_true(n >= 4 && n <= 6);
	assert_true(v[0] > 7 && v[n - 1] < 7);
	assert_true(v[0] - v[n - 1] < 1);
}

static void test_all_zero(void **state)
{
	static const double zero[] = { 0, 0 };
	struct fx *f = *state;
	double v[16];
	size_t n;

	render(f, "zero", zero, NELEM(zero), NULL, 0, 80, 20);
	n = labels(f, v, NELEM(v));
	assert_int_equal(n, 5);
	assert_float_equal(v[0], 1, 0);
	assert_float_equal(v[2], 0, 0);
	assert_float_equal(v[4], -1, 0);
	assert_non_null(strstr(f->line[1], "  1 ++"));
	assert_non_null(strstr(f->line[20], " -1 ++"));
}

static void test_negative_values(void **state)
{
	static const double neg[] = { -5, -3, -8, -1 };
	struct fx *f = *state;
	double v[16];
	size_t n;

	render(f, "neg", neg, NELEM(neg), NULL, 0, 80, 20);
	n = labels(f, v, NELEM(v));
	assert_int_equal(n, 5);
	assert_float_equal(v[0], 0, 0);
	assert_float_equal(v[4], -8, 0);
	assert_string_equal(f->line[20] + strspn(f->line[20], " "),
			    "-8 ++-------------------------------------"
			    "--------*----------------------++");
	assert_int_equal(count_char(f, '*'), 4);
}

static void test_huge_values(void **state)
{
	static const double huge[] = { 1e300, -1e300, 5e299 };
	static const double big[] = { 1, 1e307 };
	static const double max[] = { DBL_MAX };
	struct fx *f = *state;
	double v[16];
	size_t n;

	render(f, "huge", huge, NELEM(huge), NULL, 0, 80, 20);
	n = labels(f, v, NELEM(v));
	assert_true(n >= 4 && n <= 6);
	assert_float_equal(v[0], 1e300, 1e285);
	assert_float_equal(v[n - 1], -1e300, 1e285);
	assert_non_null(strstr(f->line[1], "1e+300 *+"));
	render_fails(f, "big", big, NELEM(big), NULL, 0, 80, 20, EX_DATAERR,
		     "chart 'big': value 1e+307 out of range");
	render_fails(f, "max", NULL, 0, max, 1, 80, 20, EX_DATAERR,
		     "chart 'max': value 1.79769e+308 out of range");
}

static void test_close_values_distinct_labels(void **state)
{
	static const double close[] = { 1e12, 1e12 + 1, 1e12 + 3 };
	struct fx *f = *state;
	double v[16];
	size_t n, i;

	render(f, "close", close, NELEM(close), NULL, 0, 80, 20);
	n = labels(f, v, NELEM(v));
	assert_true(n >= 4);
	for (i = 1; i < n; i++)
		assert_true(v[i] < v[i - 1]);
	assert_non_null(strstr(f->line[1], "1000000000003 ++"));
}

static void test_no_samples(void **state)
{
	static const double none[] = { 0 };
	struct fx *f = *state;

	render_fails(f, "aim7.jobs-per-min", none, 0, none, 0, 80, 20,
		     EX_DATAERR, "chart 'aim7.jobs-per-min': no samples");
	render_fails(f, NULL, NULL, 0, NULL, 0, 80, 20, EX_DATAERR,
		     "chart '': no samples");
}

static void test_no_finite_samples(void **state)
{
	const double bad[] = { NAN, INFINITY, -INFINITY };
	struct fx *f = *state;

	render_fails(f, "nan", bad, NELEM(bad), bad, 1, 80, 20, EX_DATAERR,
		     "chart 'nan': no finite samples");
}

static void test_size_limits(void **state)
{
	static const double d[] = { 1, 2 };
	struct fx *f = *state;

	render_fails(f, "s", d, 2, d, 2, 29, 20, EX_SOFTWARE,
		     "chart size 29x20 too small (min 30x8)");
	render_fails(f, "s", d, 2, d, 2, 80, 7, EX_SOFTWARE,
		     "chart size 80x7 too small (min 30x8)");
	render_fails(f, "s", d, 2, d, 2, -80, -20, EX_SOFTWARE,
		     "chart size -80x-20 too small (min 30x8)");
	render_fails(f, "s", d, 2, d, 2, 201, 20, EX_SOFTWARE,
		     "chart size 201x20 too large (max 200x100)");
	render_fails(f, "s", d, 2, d, 2, 80, 101, EX_SOFTWARE,
		     "chart size 80x101 too large (max 200x100)");
	render(f, "s", d, 2, d, 2, 30, 8);
	render(f, "s", d, 2, d, 2, 200, 100);
	assert_int_equal(strlen(f->line[1]), 197);
}

static void test_bad_arguments(void **state)
{
	static double many[CHART_MAX_SAMPLES + 1];
	struct fx *f = *state;

	render_fails(f, "n", NULL, 3, NULL, 0, 80, 20, EX_SOFTWARE,
		     "chart 'n': NULL samples");
	render_fails(f, "m", many, NELEM(many), NULL, 0, 80, 20, EX_DATAERR,
		     "chart 'm': too many samples (max 10000)");
	render(f, "m", many, CHART_MAX_SAMPLES, many, 1, 80, 20);
}

static void test_title(void **state)
{
	static const double d[] = { 1, 2 };
	char title[100];
	struct fx *f = *state;

	render(f, "a\nb\x7f", d, 2, NULL, 0, 80, 20);
	assert_string_equal(f->line[0] + strspn(f->line[0], " "), "a?b?");
	/* byte by byte: other bytes are kept, UTF-8 or not */
	render(f, "\x01" "caf\xc3\xa9\xff\xe2\x80\xa8\x1f", d, 2, NULL, 0,
	       80, 20);
	assert_string_equal(f->line[0] + strspn(f->line[0], " "),
			    "?caf\xc3\xa9\xff\xe2\x80\xa8?");
	memset(title, 'x', sizeof(title) - 1);
	title[sizeof(title) - 1] = '\0';
	render(f, title, d, 2, NULL, 0, 40, 8);
	assert_int_equal(strlen(f->line[0]), 40);
	assert_int_equal(strspn(f->line[0], "x"), 40);
	render(f, "abc", d, 2, NULL, 0, 40, 8);
	/* centred over the frame: columns 6..36, 31 wide */
	assert_string_equal(f->line[0], "                    abc");
}

static void test_appends_to_out(void **state)
{
	struct fx *f = *state;

	sb_reset(&f->out);
	assert_int_equal(sb_adds(&f->out, "before\n"), 0);
	assert_int_equal(chart_render("x", g_base, 3, g_head, 3, 80, 20,
				      &f->out, &f->err), 0);
	assert_int_equal(chart_legend(&f->out), 0);
	split(f);
	assert_int_equal(f->n, 1 + 21 + 2);
	assert_string_equal(f->line[0], "before");
	assert_string_equal(f->line[22], "[*] bisect-good sample");
	assert_string_equal(f->line[23], "[O] bisect-bad  sample");
}

static void test_output_cap(void **state)
{
	struct fx *f = *state;
	struct strbuf small;

	sb_init(&small, 100);
	assert_int_equal(sb_adds(&small, "x\n"), 0);
	assert_int_equal(chart_render("x", g_base, 3, g_head, 3, 80, 20,
				      &small, &f->err), -1);
	assert_int_equal(f->err.code, EX_OSERR);
	assert_string_equal(sb_str(&small), "x\n");
	sb_release(&small);
	sb_init(&small, 40);
	assert_int_equal(chart_legend(&small), -1);
	assert_int_equal(small.len, 0);
	sb_release(&small);
}

/*
 * A bisection's samples (issue 33): the runs of the commits before the
 * culprit are bisect-good, the culprit's and after bisect-bad, each series
 * in the order the runs came; a commit that did not build has none.
 */
static void test_bisect_samples(void **state)
{
	static const double base[] = { 100, 101 }, head[] = { 90, 91 };
	static const double want_good[] = { 100, 101, 102, 103, 104 };
	static const double want_bad[] = { 90, 91, 92, 93, 94 };
	struct fx *f = *state;
	struct bisect_cand c[4];
	struct bisect_range r = { c, 4 };
	struct bisect_params par;
	struct bisect b = { 0 };
	double *good, *bad, v;
	size_t ng, nb, i;

	memset(c, 0, sizeof(c));
	for (i = 0; i < 4; i++)
		snprintf(c[i].sha, GIT_SHA_HEX, "%040zx", i + 1);
	bisect_params_default(&par);
	assert_int_equal(bisect_init(&b, &par, "m", "00000000000000000000000"
				     "00000000000000000", base, 2, &r, head, 2,
				     &f->err), 0);
	/* no culprit yet: no samples */
	assert_int_equal(chart_bisect_samples(&b, &good, &ng, &bad, &nb,
					      &f->err), -1);
	assert_int_equal(f->err.code, EX_DATAERR);
	assert_null(good);
	assert_null(bad);
	/* round 1: 3 bad, 1 good, 2 skipped; round 2: 1 bad then 1 good */
	v = 92;
	assert_int_equal(bisect_add_runs(&b, 3, &v, 1, &f->err), 0);
	v = 102;
	assert_int_equal(bisect_add_runs(&b, 1, &v, 1, &f->err), 0);
	assert_int_equal(bisect_skip(&b, 2, &f->err), 0);
	v = 93;
	assert_int_equal(bisect_add_runs(&b, 3, &v, 1, &f->err), 0);
	b.rounds = 1;
	v = 94;
	assert_int_equal(bisect_add_runs(&b, 3, &v, 1, &f->err), 0);
	v = 103;
	assert_int_equal(bisect_add_runs(&b, 1, &v, 1, &f->err), 0);
	v = 104;
	assert_int_equal(bisect_add_runs(&b, 0, &v, 1, &f->err), 0);
	b.phase = BISECT_CULPRIT;
	b.culprit = 3;
	assert_int_equal(chart_bisect_samples(&b, &good, &ng, &bad, &nb,
					      &f->err), 0);
	assert_int_equal(ng, NELEM(want_good));
	assert_int_equal(nb, NELEM(want_bad));
	for (i = 0; i < ng; i++)
		assert_true(good[i] == want_good[i]);
	for (i = 0; i < nb; i++)
		assert_true(bad[i] == want_bad[i]);
	/* they chart as the base and head series do */
	assert_int_equal(chart_render("m", good, ng, bad, nb, 80, 20, &f->out,
				      &f->err), 0);
	free(good);
	free(bad);
	bisect_release(&b);
}

#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_frame_80x20),
		T(test_lines_fit_width),
		T(test_ticks_descending_nice),
		T(test_labels_like_gnuplot),
		T(test_golden_basic),
		T(test_marker_counts),
		T(test_dots_fill_flat_line),
		T(test_dots_one_per_column),
		T(test_head_has_no_dots),
		T(test_nan_inf_skipped),
		T(test_points_on_tick_rows),
		T(test_single_sample),
		T(test_all_equal),
		T(test_all_zero),
		T(test_negative_values),
		T(test_huge_values),
		T(test_close_values_distinct_labels),
		T(test_no_samples),
		T(test_no_finite_samples),
		T(test_size_limits),
		T(test_bad_arguments),
		T(test_title),
		T(test_appends_to_out),
		T(test_output_cap),
		T(test_bisect_samples),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
