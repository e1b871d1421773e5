// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/util/rbfmt.c: Ruby's format() of one Float. Every
 * line of fixtures/rbfmt/ruby-format.txt (Ruby's own output, written by
 * scripts/rbfmt-check --fixture, heavy in near-ties), the examples of the
 * LKP reference, and the spec parser, widths, flags, -0.0, Inf/NaN, huge
 * %d and a full buffer. Run from the repository root.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "perfbot/util/rbfmt.h"
#include "perfbot/util/strbuf.h"

#define FIXTURE "fixtures/rbfmt/ruby-format.txt"

/* rb_format(spec, v) gives exactly 'want' on an empty buffer. */
static void check(const char *spec, double v, const char *want)
{
	struct strbuf sb = STRBUF_INIT;

	if (rb_format(&sb, spec, v) < 0)
		fail_msg("rb_format('%s', %a) failed, want '%s'", spec, v, want);
	if (strcmp(sb_str(&sb), want) != 0) {
		print_error("rb_format('%s', %a) = '%s', want '%s'\n", spec, v,
			    sb_str(&sb), want);
		sb_release(&sb);
		fail();
	}
	sb_release(&sb);
}

/* rb_format(spec, v) refuses and leaves the buffer as it was. */
static void check_bad(const char *spec, double v)
{
	struct strbuf sb = STRBUF_INIT;

	assert_int_equal(sb_adds(&sb, "keep"), 0);
	if (rb_format(&sb, spec, v) != -1)
		fail_msg("rb_format('%s', %a) accepted: '%s'", spec, v,
			 sb_str(&sb));
	assert_string_equal(sb_str(&sb), "keep");
	sb_release(&sb);
}

/* The table of doc/lkp-compare.md, where C's printf
 * differs from Ruby. */
static void t_reference_table(void **state)
{
	char c[32];

	(void)state;
	check("%.1f", 0.35, "0.4");
	check("%.1f", -0.35, "-0.4");
	check("%.1f", 50.74999999999998, "50.8");
	check("%.1f", 31.250000000000004, "31.2");
	check("%.1f", 946.8500000000004, "946.8");
	check("%.2g", 9.05e14, "9.0e+14");
	/* ... and C really prints them otherwise */
	snprintf(c, sizeof(c), "%.1f", 0.35);
	assert_string_equal(c, "0.3");
	snprintf(c, sizeof(c), "%.2g", 9.05e14);
	assert_string_equal(c, "9e+14");
}

/* The numbers of the reference's example rows, in their row formats. */
static void t_reference_rows(void **state)
{
	(void)state;
	check("%10.2f", 0.0, "      0.00");
	check("%+10.2g", 5e105, "   +5e+105");
	check("%d", 5000.0, "5000");
	check("%+10.1f", -100.0, "    -100.0");
	check("%10.4g", 6.695e10, " 6.695e+10");
	check("%+10.1f", 3.1, "      +3.1");
	check("%10.4g", 6.9e10, "   6.9e+10");
	check("%+10.1f", 5.3, "      +5.3");
	check("%10.2f", 5.26, "      5.26");
	check("%d", 200000.0, "200000");
	check("%+10.1f", -50.0, "     -50.0");
	check("%10.2f", -6.0, "     -6.00");
	check("%+10.1f", 83.33333333333334, "     +83.3");
	check("%10.2f", -11.0, "    -11.00");
	check("%d", 7730.67, "7730");
	check("%+10.1f", -7.2, "      -7.2");
	check("%10.2f", 24.47, "     24.47");
	check("%+10.1f", 0.35, "      +0.4");
	check("%+10.1f", -0.35, "      -0.4");
	check("%11d", 3.0, "          3");
	check("%3d", 10.0, " 10");
	check("%10.0f", 2.5, "         2");
	check("%10.0f", 3.5, "         4");
}

/* %g keeps the trailing zero only above the tie; halves go to even. */
static void t_near_ties(void **state)
{
	(void)state;
	check("%.2g", 0.105, "0.1");			/* just below */
	check("%.2g", 0.10500000000000001, "0.10");	/* just above */
	check("%.2f", 0.015, "0.02");	/* 0.01499999999999999944... */
	check("%.2f", 0.025, "0.02");	/* 0.02500000000000000139..., even */
	check("%.0f", 0.5, "0");
	check("%.0f", 1.5, "2");
	check("%.0f", 2.5, "2");
	check("%.1f", 0.25, "0.2");
	check("%.1f", 0.05, "0.1");
	check("%.0e", 2.5, "2e+00");
	check("%.1e", 125.0, "1.2e+02");
	check("%.1f", 9.95, "10.0");	/* 9.94999999999999928..., odd */
	check("%.1f", 99.95, "100.0");
	check("%g", 1e-5, "1e-05");
	check("%g", 100000.0, "100000");
	check("%g", 1e6, "1e+06");
}

static void t_zero_and_sign(void **state)
{
	(void)state;
	check("%.1f", -0.0, "-0.0");
	check("%.1f", -0.04, "-0.0");
	check("%.1f", 0.0, "0.0");
	check("%+.1f", 0.0, "+0.0");
	check("%+.1f", -0.0, "-0.0");
	check("% .1f", 0.0, " 0.0");
	check("%5.1f", -0.0, " -0.0");
	check("%g", -0.0, "-0");
	check("%e", -0.0, "-0.000000e+00");
	check("%#g", 0.0, "0.00000");
	check("%#.3e", 0.0, "0.000e+00");
	check("%.0f", -0.3, "-0");
	check("%d", -0.0, "0");
	check("%d", -0.4, "0");
	check("%+d", -0.0, "+0");
	check("%d", -7.9, "-7");
}

static void t_widths_flags(void **state)
{
	(void)state;
	check("%-10.2f", 1.5, "1.50      ");
	check("%-+10.2f", 1.5, "+1.50     ");
	check("%010.2f", -1.5, "-000001.50");
	check("%010.2e", -1.5, "-01.50e+00");
	check("%-010.2f", 1.5, "1.50      ");
	check("%+ 7.1f", 2.0, "   +2.0");
	check("% 7.1f", 2.0, "    2.0");
	check("%#.0f", 3.0, "3.");
	check("%#g", 3.0, "3.00000");
	check("%#.0e", 2.5, "2.e+00");
	check("%#.0g", 3.0, "3.");
	check("%f", 1e20, "100000000000000000000.000000");
	check("%e", 2.5, "2.500000e+00");
	check("%E", 1e-5, "1.000000E-05");
	check("%G", 1e-5, "1E-05");
	check("%.3E", 12345.0, "1.234E+04");
	check("%.f", 2.5, "2");
	check("%2.1f", 123.456, "123.5");
	check("%05d", -3.2, "-0003");
	check("%+05d", 5.5, "+0005");
	check("%.3d", -5.0, "-005");
	check("%05.3d", -5.0, " -005");
	check("%8.3d", -5.0, "    -005");
	check("%-5d", -5.0, "-5   ");
	check("% d", 5.0, " 5");
	check("%.0d", 0.3, "");
	check("%i", 42.9, "42");
}

static void t_huge_int(void **state)
{
	(void)state;
	check("%d", 1e20, "100000000000000000000");
	check("%+30d", -1e20, "        -100000000000000000000");
	check("%030d", -1e20, "-00000000100000000000000000000");
	check("%d", 9223372036854775808.0, "9223372036854775808");
	check("%d", -9223372036854775808.0, "-9223372036854775808");
	check("%d", 9223372036854774784.0, "9223372036854774784");
	check("%d", 1.7976931348623157e308,
	      "17976931348623157081452742373170435679807056752584499659891747"
	      "68031572607800285387605895586327668781715404589535143824642343"
	      "21326889464182768467546703537516986049910576551282076245490090"
	      "38932894407586850845513394230458323690322294816580855933212334"
	      "8274797826204144723168738177180919299881250404026184124858368");
}

static void t_nonfinite(void **state)
{
	(void)state;
	check("%10.2f", INFINITY, "       Inf");
	check("%010.2f", -INFINITY, "      -Inf");
	check("%-8.1f", -INFINITY, "-Inf    ");
	check("%+f", NAN, "+NaN");
	check("%f", -NAN, "NaN");
	check("% f", INFINITY, " Inf");
	check("%e", INFINITY, "Inf");
	check("%g", NAN, "NaN");
	check_bad("%d", INFINITY);
	check_bad("%d", NAN);
}

static void t_bad_spec(void **state)
{
	static const char *const bad[] = {
		"", "%", "f", "x%f", "%f ", "%10.2fx", "%5", "%5.2", "%.",
		"%q", "%s", "%%", "%ld", "%*d", "%1.2.3f", "%-", "%+-+ #0",
		"%4097f", "%.1025f", "%99999999999f", "%.99999999999f", "%F",
		"%a", "%x", "%10.2f%d",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		check_bad(bad[i], 1.0);
	check_bad(NULL, 1.0);
}

/* The limits themselves are accepted. */
static void t_limits(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	assert_int_equal(rb_format(&sb, "%4096.1f", 1.0), 0);
	assert_int_equal(sb.len, 4096);
	sb_reset(&sb);
	assert_int_equal(rb_format(&sb, "%.1024f", 1.7976931348623157e308), 0);
	assert_int_equal(sb.len, 309 + 1 + 1024);
	sb_reset(&sb);
	assert_int_equal(rb_format(&sb, "%.1024e", 5e-324), 0);
	assert_int_equal(strncmp(sb_str(&sb), "4.9406564584124654", 18), 0);
	sb_reset(&sb);
	assert_int_equal(rb_format(&sb, "%.1024d", -1.0), 0);
	assert_int_equal(sb.len, 1025);
	sb_release(&sb);
}

/* Appends; a buffer that cannot take it is left as it was. */
static void t_strbuf(void **state)
{
	struct strbuf sb;

	(void)state;
	sb_init(&sb, 8);
	assert_int_equal(sb_adds(&sb, "ab"), 0);
	assert_int_equal(rb_format(&sb, "%.1f", 0.35), 0);
	assert_string_equal(sb_str(&sb), "ab0.4");
	assert_int_equal(rb_format(&sb, "%10.2f", 1.0), -1);
	assert_string_equal(sb_str(&sb), "ab0.4");
	assert_int_equal(rb_format(&sb, "%3d", 1.0), 0);
	assert_string_equal(sb_str(&sb), "ab0.4  1");
	assert_int_equal(rb_format(&sb, "%d", 1.0), -1);
	assert_string_equal(sb_str(&sb), "ab0.4  1");
	sb_release(&sb);
}

/* Split "SPEC\tVALUE\tOUTPUT\n" in place; 0 or -1. */
static int split_line(char *line, char **spec, double *v, char **want)
{
	char *t1 = strchr(line, '\t'), *t2, *end;
	size_t n;

	if (!t1 || !(t2 = strchr(t1 + 1, '\t')))
		return -1;
	*t1 = *t2 = '\0';
	n = strlen(t2 + 1);
	if (n == 0 || t2[n] != '\n')
		return -1;
	t2[n] = '\0';
	*v = strtod(t1 + 1, &end);
	if (*end)
		return -1;
	*spec = line;
	*want = t2 + 1;
	return 0;
}

/* Every line of Ruby's fixture. */
static void t_fixture(void **state)
{
	FILE *f = fopen(FIXTURE, "r");
	struct strbuf sb = STRBUF_INIT;
	static char line[8192];
	long lineno = 0, checked = 0, wrong = 0;

	(void)state;
	if (!f)
		fail_msg("cannot open %s (run from the repository root)", FIXTURE);
	while (fgets(line, sizeof(line), f)) {
		char *spec = NULL, *want = NULL;
		double v = 0;

		lineno++;
		if (line[0] == '#')
			continue;
		if (split_line(line, &spec, &v, &want) < 0)
			fail_msg("%s:%ld: not SPEC<TAB>VALUE<TAB>OUTPUT", FIXTURE,
				 lineno);
		sb_reset(&sb);
		if (strcmp(want, "ERROR") == 0 ?
		    rb_format(&sb, spec, v) != -1 :
		    rb_format(&sb, spec, v) < 0 || strcmp(sb_str(&sb), want)) {
			if (wrong++ < 10)
				print_error("%s:%ld: '%s' of %a: '%s', Ruby '%s'\n",
					    FIXTURE, lineno, spec, v, sb_str(&sb),
					    want);
		}
		checked++;
	}
	fclose(f);
	sb_release(&sb);
	assert_int_equal(wrong, 0);
	assert_true(checked >= 30000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_reference_table),
		cmocka_unit_test(t_reference_rows),
		cmocka_unit_test(t_near_ties),
		cmocka_unit_test(t_zero_and_sign),
		cmocka_unit_test(t_widths_flags),
		cmocka_unit_test(t_huge_int),
		cmocka_unit_test(t_nonfinite),
		cmocka_unit_test(t_bad_spec),
		cmocka_unit_test(t_limits),
		cmocka_unit_test(t_strbuf),
		cmocka_unit_test(t_fixture),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
