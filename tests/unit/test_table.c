// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for the comparison table (src/compare/table.c): every number
 * format of doc/lkp-compare.md, the six example rows LKP
 * printed, the failure rows, the header byte for byte, and each setting
 * of the 'format' mapping of a rules file. Tests run from the repository
 * root (config/metrics.yaml).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "perfbot/compare/compare.h"
#include "perfbot/util/fileio.h"
#include "perfbot/compare/table.h"

#include "testutil.h"

#define METRICS "config/metrics.yaml"
#define PM "\xc2\xb1"	/* U+00B1 PLUS-MINUS SIGN */

struct fixture {
	char dir[64];
	char *path;			/* dir/rules.yaml */
	struct rules *r;		/* config/metrics.yaml, or replaced */
	struct result_root root[2];
	struct comparison c;
	struct strbuf out;
};

static int setup(void **state)
{
	struct fixture *f = TU_NEW_FX(struct fixture, "test_table");
	struct pb_err err = { 0, "" };

	if (!f)
		return -1;
	sb_init(&f->out, SB_DEFAULT_MAX);
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

	sb_release(&f->out);
	tu_compare_release(&f->c, f->root);
	rules_free(f->r);
	tu_rmtree(f->dir);
	free(f->path);
	free(f);
	return 0;
}

/* The formats of a rules file holding only 'format:' + 'yaml'. */
static const struct table_format *format_of(struct fixture *f,
					    const char *yaml)
{
	tu_load_rules(&f->r, f->path, yaml);
	return rules_format(f->r);
}

static const struct table_format *lkp(struct fixture *f)
{
	return rules_format(f->r);
}

static void compare(struct fixture *f, const char *base, const char *head)
{
	tu_compare(&f->c, f->root, base, head, f->r);
}

/* The output so far equals 'want'; then start again. */
static void expect(struct fixture *f, const char *want)
{
	assert_string_equal(sb_str(&f->out), want);
	sb_reset(&f->out);
}

static void mean_is(struct fixture *f, const struct table_format *fmt,
		    double mean, const char *want)
{
	assert_int_equal(table_format_mean(&f->out, fmt, mean), 0);
	expect(f, want);
}

static void stddev_is(struct fixture *f, const struct table_format *fmt,
		      int has, double mean, double pct, const char *want)
{
	struct cmp_stats st;

	memset(&st, 0, sizeof(st));
	st.has_stddev = has;
	st.mean = mean;
	st.pct_stddev = pct;
	st.stddev = pct * mean / 100;
	assert_int_equal(table_format_stddev(&f->out, fmt, &st), 0);
	expect(f, want);
}

static void change_is(struct fixture *f, const struct table_format *fmt,
		      double change, int absolute, const char *want)
{
	assert_int_equal(table_format_change(&f->out, fmt, change, absolute),
			 0);
	expect(f, want);
}

static void row_is(struct fixture *f, const struct table_format *fmt,
		   const char *name, const char *want)
{
	assert_int_equal(table_format_row(&f->out, fmt, tu_row(&f->c, name)),
			 0);
	expect(f, want);
}

/* ======================= number formats ======================= */

/* |mean| < 1000: %10.2f */
static void t_mean_float(void **state)
{
	struct fixture *f = *state;

	mean_is(f, lkp(f), 880, "    880.00");
	mean_is(f, lkp(f), 0, "      0.00");
	mean_is(f, lkp(f), -6, "     -6.00");
	mean_is(f, lkp(f), 0.005, "      0.01");
	mean_is(f, lkp(f), 999.99, "    999.99");
	mean_is(f, lkp(f), -999.99, "   -999.99");
}

/* 1000 <= |mean| <= 1e8: an integer truncated toward zero. */
static void t_mean_integer(void **state)
{
	struct fixture *f = *state;

	mean_is(f, lkp(f), 7730.67, "      7730");
	mean_is(f, lkp(f), -7730.67, "     -7730");
	mean_is(f, lkp(f), 1000, "      1000");
	mean_is(f, lkp(f), 1999.999, "      1999");
	mean_is(f, lkp(f), 200000, "    200000");
	mean_is(f, lkp(f), 100000000, " 100000000");
	mean_is(f, lkp(f), -100000000, "-100000000");
}

/* |mean| > 1e8: %10.4g */
static void t_mean_exponent(void **state)
{
	struct fixture *f = *state;

	mean_is(f, lkp(f), 6.695e10, " 6.695e+10");
	mean_is(f, lkp(f), 6.9e10, "   6.9e+10");
	mean_is(f, lkp(f), 1.549e8, " 1.549e+08");
	mean_is(f, lkp(f), 100000001, "     1e+08");
	mean_is(f, lkp(f), -2.5e9, "  -2.5e+09");
}

/* ± only when %stddev > 2, truncated, " ±%3d%%"; else 6 spaces. */
static void t_stddev(void **state)
{
	struct fixture *f = *state;

	stddev_is(f, lkp(f), 1, 5000, 17.9, " " PM " 17%");
	stddev_is(f, lkp(f), 1, 5000, 141.4, " " PM "141%");
	stddev_is(f, lkp(f), 1, 5000, 3.2659, " " PM "  3%");
	stddev_is(f, lkp(f), 1, 5000, 2.01, " " PM "  2%");
	stddev_is(f, lkp(f), 1, 5000, 2.0, "      ");
	stddev_is(f, lkp(f), 1, 5000, 1.5, "      ");
	stddev_is(f, lkp(f), 1, 5000, 0, "      ");
	/* no stddev with fewer than 2 values, whatever pct says */
	stddev_is(f, lkp(f), 0, 5000, 50, "      ");
	/* a mean of 0 has no %stddev */
	stddev_is(f, lkp(f), 1, 0, 0, "      ");
}

/* Relative change below 100000: %+10.1f%% followed by a space. */
static void t_change_relative(void **state)
{
	struct fixture *f = *state;

	change_is(f, lkp(f), 10.5, 0, "     +10.5% ");
	change_is(f, lkp(f), -50, 0, "     -50.0% ");
	change_is(f, lkp(f), -100, 0, "    -100.0% ");
	change_is(f, lkp(f), 83.333, 0, "     +83.3% ");
	change_is(f, lkp(f), 3122.9, 0, "   +3122.9% ");
	change_is(f, lkp(f), 99999.9, 0, "  +99999.9% ");
	change_is(f, lkp(f), 0, 0, "      +0.0% ");
}

/* |change| >= 100000: %+10.2g%% */
static void t_change_exponent(void **state)
{
	struct fixture *f = *state;

	change_is(f, lkp(f), 100000, 0, "    +1e+05% ");
	change_is(f, lkp(f), 5e105, 0, "   +5e+105% ");
	change_is(f, lkp(f), 2.9e5, 0, "  +2.9e+05% ");
	change_is(f, lkp(f), 290412.7, 0, "  +2.9e+05% ");
	change_is(f, lkp(f), -2.9e5, 0, "  -2.9e+05% ");
}

/* Absolute changes: the same number, two spaces instead of "% ". */
static void t_change_absolute(void **state)
{
	struct fixture *f = *state;

	change_is(f, lkp(f), 5.26, 1, "      +5.3  ");
	change_is(f, lkp(f), 17.29 - 24.47, 1, "      -7.2  ");
	change_is(f, lkp(f), 0.04, 1, "      +0.0  ");
	change_is(f, lkp(f), 150000, 1, "  +1.5e+05  ");
}

/* "10.5%" in subjects and headlines: %.1f, no '+', %.2g when huge. */
static void t_headline_change(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(table_format_headline_change(&f->out, 10.5), 0);
	expect(f, "10.5%");
	assert_int_equal(table_format_headline_change(&f->out, 92.04), 0);
	expect(f, "92.0%");
	assert_int_equal(table_format_headline_change(&f->out, -8), 0);
	expect(f, "-8.0%");
	assert_int_equal(table_format_headline_change(&f->out, 5e105), 0);
	expect(f, "5e+105%");
}

/* ======================= rows ======================= */

static const char example_base[] =
	"{\"numa-vmstat.node0.nr_foo\": [0, 0, 0],"
	" \"numa-vmstat.node0.nr_bar\": [4800, 5000, 5200],"
	" \"perf-stat.i.cycles\": [6.695e10, 6.695e10, 6.695e10],"
	" \"perf-profile.calltrace.cycles-pp.foo\": [0, 0, 0],"
	" \"time.elapsed_time\": [200000, 200000, 200000],"
	" \"foo.bar\": [-6, -6, -6]}";
static const char example_head[] =
	"{\"numa-vmstat.node0.nr_foo\": [4800, 5000, 5200],"
	" \"numa-vmstat.node0.nr_bar\": [0, 0, 0],"
	" \"perf-stat.i.cycles\": [6.9e10, 6.9e10, 6.9e10],"
	" \"perf-profile.calltrace.cycles-pp.foo\": [5.26, 5.26, 5.26],"
	" \"time.elapsed_time\": [100000, 100000, 100000],"
	" \"foo.bar\": [-11, -11, -11]}";

/*
 * The six rows "produced by LKP itself" in lkp-compare.md. (The reference
 * indents them by 3 spaces in its code block, the rest by 4; the rows
 * below are the example lines without those 3 spaces, which is what the
 * widths 10/6/10+2/10/6 give.) 4800 5000 5200 has %stddev 3.27: "±  3%".
 */
static const char *const example_rows[] = {
	"      0.00         +5e+105%       5000 " PM "  3%  "
	"numa-vmstat.node0.nr_foo\n",
	"      5000 " PM "  3%    -100.0%       0.00        "
	"numa-vmstat.node0.nr_bar\n",
	" 6.695e+10            +3.1%    6.9e+10        perf-stat.i.cycles\n",
	"      0.00            +5.3        5.26        "
	"perf-profile.calltrace.cycles-pp.foo\n",
	"    200000           -50.0%     100000        time.elapsed_time\n",
	"     -6.00           +83.3%     -11.00        foo.bar\n",
};

static void t_lkp_examples(void **state)
{
	static const char *const names[] = {
		"numa-vmstat.node0.nr_foo", "numa-vmstat.node0.nr_bar",
		"perf-stat.i.cycles", "perf-profile.calltrace.cycles-pp.foo",
		"time.elapsed_time", "foo.bar",
	};
	struct fixture *f = *state;
	size_t i;

	compare(f, example_base, example_head);
	for (i = 0; i < 6; i++)
		row_is(f, lkp(f), names[i], example_rows[i]);
}

/* The performance block: its two head lines, then the rows in order. */
static void t_lkp_examples_block(void **state)
{
	struct fixture *f = *state;
	struct strbuf want = STRBUF_INIT;
	size_t i;

	compare(f, example_base, example_head);
	assert_int_equal(sb_adds(&want,
		"         %stddev     %change         %stddev\n"
		"             \\          |                \\  \n"), 0);
	for (i = 0; i < 6; i++)
		assert_int_equal(sb_adds(&want, example_rows[i]), 0);
	assert_int_equal(table_render_rows(&f->c, lkp(f), 1, &f->out), 0);
	assert_string_equal(sb_str(&f->out), sb_str(&want));
	sb_release(&want);
}

/* Rows the filter dropped appear only with 'all'. */
static void t_rows_shown_only(void **state)
{
	struct fixture *f = *state;

	compare(f, "{\"foo.a\": [100, 100, 100], \"foo.b\": [5, 5, 5]}",
		"{\"foo.a\": [200, 200, 200], \"foo.b\": [5, 5, 5]}");
	assert_int_equal(table_render_rows(&f->c, lkp(f), 0, &f->out), 0);
	expect(f, "         %stddev     %change         %stddev\n"
		  "             \\          |                \\  \n"
		  "    100.00          +100.0%     200.00        foo.a\n");
	assert_int_equal(table_render_rows(&f->c, lkp(f), 1, &f->out), 0);
	expect(f, "         %stddev     %change         %stddev\n"
		  "             \\          |                \\  \n"
		  "    100.00          +100.0%     200.00        foo.a\n"
		  "      5.00            +0.0%       5.00        foo.b\n");
}

/*
 * Failure rows: "%11d" fails (blank when 0), ":%-4d" runs,
 * "%10.0f%% " reproduction, the head's fails and runs, 2 spaces, name.
 * dmesg: base 1 fail / 4 runs, head 2 / 2: 100 * (2/2 - 1/4) = 75
 * (LKP's bug, head fails / base runs, would print 25%).
 * kmsg: base 0 / 4, head 1 / 2: 50. stderr: base 4 / 4, head 0 / 2: -100.
 */
static void t_failure_rows(void **state)
{
	struct fixture *f = *state;

	compare(f,
		"{\"dmesg.WARNING:at_foo\": [1, 0, 0, 0],"
		" \"kmsg.oops\": [0, 0, 0, 0], \"stderr.x\": [1, 1, 1, 1]}",
		"{\"dmesg.WARNING:at_foo\": [1, 1], \"kmsg.oops\": [1, 0],"
		" \"stderr.x\": [0, 0]}");
	row_is(f, lkp(f), "dmesg.WARNING:at_foo",
	       "          1:4           75%           2:2     "
	       "dmesg.WARNING:at_foo\n");
	row_is(f, lkp(f), "kmsg.oops",
	       "           :4           50%           1:2     kmsg.oops\n");
	row_is(f, lkp(f), "stderr.x",
	       "          4:4         -100%            :2     stderr.x\n");
}

/* The failure block comes first, with its own head. */
static void t_failure_block(void **state)
{
	struct fixture *f = *state;

	compare(f, "{\"dmesg.oops\": [0, 0, 0], \"foo.a\": [100, 100, 100]}",
		"{\"dmesg.oops\": [1, 1, 0], \"foo.a\": [200, 200, 200]}");
	assert_int_equal(table_render_rows(&f->c, lkp(f), 0, &f->out), 0);
	/* 100 * 2/3 = 66.7 -> "67%" */
	expect(f, "       fail:runs  %reproduction    fail:runs\n"
		  "           |             |             |    \n"
		  "           :3           67%           2:3     dmesg.oops\n"
		  "         %stddev     %change         %stddev\n"
		  "             \\          |                \\  \n"
		  "    100.00          +100.0%     200.00        foo.a\n");
}

/* ======================= the header ======================= */

static const char base_sha[] = "262b2fa99cbe02a7e1b5b39e1c5a1a1c2e6b2b91";
static const char head_sha[] = "f017b0a4951fac8f150232661b2cc0b67e0c57f0";

static void t_header(void **state)
{
	struct fixture *f = *state;
	struct table_head h = {
		"compiler/cpufreq_governor/disk/.../tbox_group/test/testcase",
		"gcc-12/performance/1SSD/.../lkp-icl-2sp2/chown/stress-ng",
		{ base_sha, head_sha },
		{ "pipe: introduce struct file_operations pipeanon_fops",
		  "pipe: don't update {a,c,m}time for anonymous pipes" }, 2,
	};
	struct strbuf want = STRBUF_INIT;

	assert_int_equal(strlen(base_sha), 40);
	assert_int_equal(strlen(head_sha), 40);
	compare(f, "{\"dmesg.oops\": [0, 0, 0], \"foo.a\": [100, 100, 100]}",
		"{\"dmesg.oops\": [1, 1, 0], \"foo.a\": [200, 200, 200]}");
	assert_int_equal(sb_addn(&want, '=', 89), 0);
	assert_int_equal(sb_adds(&want, "\n"
		"compiler/cpufreq_governor/disk/.../tbox_group/test/testcase:\n"
		"  gcc-12/performance/1SSD/.../lkp-icl-2sp2/chown/stress-ng\n"
		"\n"
		"commit: \n"
		"  262b2fa99c (\"pipe: introduce struct file_operations "
		"pipeanon_fops\")\n"
		"  f017b0a495 (\"pipe: don't update {a,c,m}time for anonymous "
		"pipes\")\n"
		"\n"
		"262b2fa99cbe02a7 f017b0a4951fac8f150232661b2 \n"
		"---------------- --------------------------- \n"
		"       fail:runs  %reproduction    fail:runs\n"
		"           |             |             |    \n"
		"           :3           67%           2:3     dmesg.oops\n"
		"         %stddev     %change         %stddev\n"
		"             \\          |                \\  \n"
		"    100.00          +100.0%     200.00        foo.a\n"), 0);
	assert_int_equal(table_render(&f->c, &h, lkp(f), 0, &f->out), 0);
	assert_string_equal(sb_str(&f->out), sb_str(&want));
	sb_release(&want);
}

/* Short shas are right-aligned in their 16 and 27 columns. */
static void t_header_short_sha(void **state)
{
	struct fixture *f = *state;
	struct table_head h = { "testcase", "hackbench", { "abc", "def" },
				{ "a", "b" }, 2 };
	const char *s, *heads;

	compare(f, "{\"foo.a\": [1, 1, 1]}", "{\"foo.a\": [1, 1, 1]}");
	assert_int_equal(table_render(&f->c, &h, lkp(f), 0, &f->out), 0);
	s = sb_str(&f->out);
	assert_non_null(strstr(s,
			       "\ncommit: \n  abc (\"a\")\n  def (\"b\")\n"));
	heads = strstr(s, "\n\n             abc ");
	assert_non_null(heads);
	assert_non_null(strstr(heads, "             abc "
				      "                        def \n"
				      "---------------- "
				      "--------------------------- \n"));
}

/* ======================= the 'format' mapping ======================= */

/* zero_as_int: a mean of exactly 0 prints "0"; nothing else changes. */
static void t_format_zero_as_int(void **state)
{
	struct fixture *f = *state;
	const struct table_format *fmt = format_of(f,
		"format:\n  zero_as_int: true\n");

	mean_is(f, fmt, 0, "         0");
	mean_is(f, fmt, 880, "    880.00");
	mean_is(f, fmt, 0.001, "      0.00");
	mean_is(f, fmt, 7730.67, "      7730");
	mean_is(f, fmt, 6.695e10, " 6.695e+10");
	stddev_is(f, fmt, 1, 5000, 17.9, " " PM " 17%");
	change_is(f, fmt, 10.5, 0, "     +10.5% ");
}

/* stddev_above < 0: the ± column whenever there are 2 values. */
static void t_format_stddev_always(void **state)
{
	struct fixture *f = *state;
	const struct table_format *fmt = format_of(f,
		"format:\n  stddev_above: -1\n");

	stddev_is(f, fmt, 1, 5000, 1.5, " " PM "  1%");
	stddev_is(f, fmt, 1, 5000, 0, " " PM "  0%");
	stddev_is(f, fmt, 1, 5000, 17.9, " " PM " 17%");
	stddev_is(f, fmt, 0, 5000, 0, "      ");
	/* a mean of 0: LKP shows the raw stddev (the era's setting) */
	stddev_is(f, fmt, 1, 0, 0, " " PM "  0%");
	mean_is(f, fmt, 0, "      0.00");
	change_is(f, fmt, 10.5, 0, "     +10.5% ");
	stddev_is(f, format_of(f, "format:\n  stddev_above: -1\n"
			       "  stddev_zero_mean: false\n"), 1, 0, 0,
		  "      ");
	/* the default: 1.5% is not shown */
	stddev_is(f, format_of(f, "failure: []\n"), 1, 5000, 1.5, "      ");
}

/* change_decimals 0, change_sign false: "10%" and "-4%" as in old LKP. */
static void t_format_change_decimals(void **state)
{
	struct fixture *f = *state;
	const struct table_format *fmt = format_of(f,
		"format:\n  change_decimals: 0\n  change_sign: false\n");

	change_is(f, fmt, 10.46, 0, "        10% ");
	change_is(f, fmt, -3.6, 0, "        -4% ");
	change_is(f, fmt, 116.3, 0, "       116% ");
	change_is(f, fmt, 5e105, 0, "    5e+105% ");
	change_is(f, fmt, -2.9e5, 0, "  -2.9e+05% ");
	mean_is(f, fmt, 880, "    880.00");
	stddev_is(f, fmt, 1, 5000, 17.9, " " PM " 17%");
}

/*
 * rules.h documents change_decimals as "relative change: %.Nf" and
 * absolute changes as "%.0e, else %+.1f": with absolute_exponent off an
 * absolute change keeps "+5.3" whatever change_decimals and change_sign
 * say.
 * POSSIBLE BUG (kept failing on purpose if the code differs): table.c
 * formats absolute changes with change_decimals and change_sign too.
 */
static void t_format_change_decimals_absolute(void **state)
{
	struct fixture *f = *state;
	const struct table_format *fmt = format_of(f,
		"format:\n  change_decimals: 0\n  change_sign: false\n");

	change_is(f, fmt, 5.26, 1, "      +5.3  ");
}

/* change_blank_below: smaller changes print as 12 spaces. */
static void t_format_change_blank(void **state)
{
	struct fixture *f = *state;
	const struct table_format *fmt = format_of(f,
		"format:\n  change_blank_below: 1\n");

	change_is(f, fmt, 0.5, 0, "            ");
	change_is(f, fmt, -0.99, 0, "            ");
	change_is(f, fmt, 0.5, 1, "            ");
	change_is(f, fmt, 1, 0, "      +1.0% ");
	change_is(f, fmt, -1.2, 0, "      -1.2% ");
	change_is(f, fmt, 2.9e5, 0, "  +2.9e+05% ");
	mean_is(f, fmt, 880, "    880.00");
	/* the default blanks nothing */
	change_is(f, format_of(f, "failure: []\n"), 0.04, 0, "      +0.0% ");
}

/* absolute_exponent: absolute changes as %10.0e ("-2e+05"). */
static void t_format_absolute_exponent(void **state)
{
	struct fixture *f = *state;
	const struct table_format *fmt = format_of(f,
		"format:\n  absolute_exponent: true\n");

	change_is(f, fmt, -209560, 1, "    -2e+05  ");
	change_is(f, fmt, 5011, 1, "     5e+03  ");
	change_is(f, fmt, -1.4e8, 1, "    -1e+08  ");
	/* relative changes keep their format */
	change_is(f, fmt, -50, 0, "     -50.0% ");
	change_is(f, fmt, 2.9e5, 0, "  +2.9e+05% ");
	mean_is(f, fmt, 209560, "    209560");
}

/* float_below / exp_above / change_exp_above move the bounds. */
static void t_format_bounds(void **state)
{
	struct fixture *f = *state;
	const struct table_format *fmt = format_of(f,
		"format:\n  float_below: 100\n  exp_above: 1e6\n"
		"  change_exp_above: 1000\n");

	mean_is(f, fmt, 99.5, "     99.50");
	mean_is(f, fmt, 880, "       880");
	mean_is(f, fmt, 1000000, "   1000000");
	mean_is(f, fmt, 1549000, " 1.549e+06");
	change_is(f, fmt, 999.9, 0, "    +999.9% ");
	change_is(f, fmt, 3122.9, 0, "  +3.1e+03% ");
}

/* A whole row under old-LKP settings, as in the 2017 reports. */
static void t_format_old_row(void **state)
{
	struct fixture *f = *state;
	const struct table_format *fmt;

	compare(f, "{\"aim7.jobs-per-min\": [68975, 68975, 68975]}",
		"{\"aim7.jobs-per-min\": [63748, 63748, 63748]}");
	fmt = format_of(f, "format:\n  zero_as_int: true\n"
			"  stddev_above: -1\n  change_decimals: 0\n"
			"  change_sign: false\n  change_blank_below: 1\n"
			"  absolute_exponent: true\n");
	/* -7.58% -> "-8%"; stddev 0 with 3 runs: "±  0%" */
	row_is(f, fmt, "aim7.jobs-per-min",
	       "     68975 " PM "  0%        -8%      63748 " PM "  0%  "
	       "aim7.jobs-per-min\n");
}

#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(t_mean_float),
		T(t_mean_integer),
		T(t_mean_exponent),
		T(t_stddev),
		T(t_change_relative),
		T(t_change_exponent),
		T(t_change_absolute),
		T(t_headline_change),
		T(t_lkp_examples),
		T(t_lkp_examples_block),
		T(t_rows_shown_only),
		T(t_failure_rows),
		T(t_failure_block),
		T(t_header),
		T(t_header_short_sha),
		T(t_format_zero_as_int),
		T(t_format_stddev_always),
		T(t_format_change_decimals),
		T(t_format_change_decimals_absolute),
		T(t_format_change_blank),
		T(t_format_absolute_exponent),
		T(t_format_bounds),
		T(t_format_old_row),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
