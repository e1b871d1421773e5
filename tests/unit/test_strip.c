// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/web/strip.c: the geometry of a strip plot (a dot per
 * run, inside the plot, the largest value at the top; the means; a
 * constant metric in the middle; one run in the column's centre), the
 * numbers as the SVG takes them, and the ticks' labels (3 significant
 * digits and an SI prefix, short enough for the room left for them).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <math.h>

#include "perfbot/web/strip.h"

/* The strip of a row with these samples, as JSON. */
static json_t *strip(const double *b, size_t nb, const double *h, size_t nh)
{
	struct cmp_row row;
	struct pb_err err = { 0, "" };
	json_t *o = NULL, *s;
	struct ctx c;
	json_t *list;

	memset(&row, 0, sizeof(row));
	row.name = "m";
	row.v[0] = b;
	row.n[0] = nb;
	row.v[1] = h;
	row.n[1] = nh;
	row.complete[0] = (struct cmp_list){ b, NULL, NULL, nb };
	row.complete[1] = (struct cmp_list){ h, NULL, NULL, nh };
	row.all[0] = row.complete[0];
	row.all[1] = row.complete[1];
	ctx_init(&c, "test");
	list = ctx_list(&c, "strips");
	ctx_strip(&c, list, &row, "the <m>", 7);
	assert_int_equal(ctx_finish(&c, &o, &err), 0);
	s = json_incref(json_array_get(json_object_get(o, "strips"), 0));
	json_decref(o);
	return s;
}

static double num(json_t *o, const char *key)
{
	return strtod(json_string_value(json_object_get(o, key)), NULL);
}

static json_t *side(json_t *s, int i)
{
	return json_array_get(json_object_get(s, "sides"), (size_t)i);
}

static void t_geometry(void **state)
{
	static const double b[] = { 10, 20, 30 }, h[] = { 40, 50 };
	json_t *s = strip(b, 3, h, 2), *dots, *d;
	double top, bottom, y;
	size_t i;

	(void)state;
	assert_int_equal(json_integer_value(json_object_get(s, "index")), 7);
	assert_string_equal(json_string_value(json_object_get(s, "metric")),
			    "the <m>");
	assert_string_equal(json_string_value(json_object_get(s, "max")), "50");
	assert_string_equal(json_string_value(json_object_get(s, "min")), "10");
	top = num(s, "top");
	bottom = num(s, "bottom");
	assert_true(top < bottom);
	assert_true(json_is_true(json_object_get(side(s, 0), "base")));
	assert_true(json_is_true(json_object_get(side(s, 1), "head")));
	dots = json_object_get(side(s, 0), "dots");
	assert_int_equal(json_array_size(dots), 3);
	assert_int_equal(json_array_size(json_object_get(side(s, 1), "dots")),
			 2);
	/* 10 at the bottom, the dots left to right, inside the plot */
	d = json_array_get(dots, 0);
	assert_true(num(d, "cy") == bottom);
	assert_string_equal(json_string_value(json_object_get(d, "value")),
			    "10");
	for (i = 1; i < 3; i++) {
		y = num(json_array_get(dots, i), "cy");
		assert_true(y >= top && y < num(json_array_get(dots, i - 1),
						"cy"));
		assert_true(num(json_array_get(dots, i), "cx") >
			    num(json_array_get(dots, i - 1), "cx"));
	}
	assert_true(num(json_array_get(json_object_get(side(s, 1), "dots"), 1),
			"cy") == top);
	/* the parent's mean, 20, halfway; the commit's right of it */
	y = num(json_object_get(side(s, 0), "mean"), "y");
	assert_true(y > top + (bottom - top) * 0.7 &&
		    y < top + (bottom - top) * 0.8);
	assert_true(num(side(s, 1), "label_x") > num(side(s, 0), "label_x"));
	assert_true(num(side(s, 1), "label_x") < STRIP_WIDTH);
	json_decref(s);
}

static void t_flat_and_single(void **state)
{
	static const double b[] = { 5, 5 }, h[] = { 5 };
	json_t *s = strip(b, 2, h, 1), *d;

	(void)state;
	d = json_array_get(json_object_get(side(s, 0), "dots"), 0);
	assert_true(num(d, "cy") == (num(s, "top") + num(s, "bottom")) / 2);
	d = json_array_get(json_object_get(side(s, 1), "dots"), 0);
	assert_true(num(d, "cx") == num(side(s, 1), "label_x"));
	assert_string_equal(json_string_value(json_object_get(
		json_object_get(side(s, 1), "mean"), "value")), "5");
	json_decref(s);
}

static const char *label(double v, int digits)
{
	static char buf[32];

	strip_tick_label(v, digits, buf, sizeof(buf));
	return buf;
}

static void t_tick_labels(void **state)
{
	(void)state;
	assert_string_equal(label(19495600, 3), "19.5M");
	assert_string_equal(label(1.95496e+07, 3), "19.5M");
	assert_string_equal(label(1200, 3), "1.2k");
	assert_string_equal(label(40183, 3), "40.2k");
	assert_string_equal(label(448.6, 3), "449");
	assert_string_equal(label(0.35, 3), "350m");
	assert_string_equal(label(0.59, 3), "590m");
	assert_string_equal(label(1, 3), "1");
	assert_string_equal(label(0, 3), "0");
	assert_string_equal(label(-0.00123, 3), "-1.23m");
	assert_string_equal(label(2.5e-6, 3), "2.5\xc2\xb5");
	assert_string_equal(label(2.147e9, 3), "2.15G");
	assert_string_equal(label(6.694e10, 3), "66.9G");
	/* rounding carries into the next prefix */
	assert_string_equal(label(999.7, 3), "1k");
	assert_string_equal(label(999600, 3), "1M");
	/* more digits when asked */
	assert_string_equal(label(1999000, 4), "1.999M");
	assert_string_equal(label(448.65, 5), "448.65");
	/* past the prefixes */
	assert_string_equal(label(1e22, 3), "1.00e+22");
	assert_string_equal(label(-1.5e-20, 3), "-1.50e-20");
	/* out of range digits: 3 */
	assert_string_equal(label(123456, 1), "123k");
}

/* The room strip.c leaves: 8 characters up to 5 digits, 10 past the
 * prefixes. */
static void t_tick_width(void **state)
{
	static const double m[] = { 1, 1.5, 9.99949, 9.99951, 9.99999,
		1.23456, 4.4444 };
	const unsigned char *p;
	size_t i, chars;
	int e, d, sign;
	char buf[32];

	(void)state;
	for (e = -300; e <= 300; e++)
		for (i = 0; i < sizeof(m) / sizeof(m[0]); i++)
			for (d = 3; d <= 5; d++)
				for (sign = -1; sign <= 1; sign += 2) {
					strip_tick_label(sign * m[i] *
							 pow(10, e), d, buf,
							 sizeof(buf));
					for (p = (const unsigned char *)buf,
					     chars = 0; *p; p++)
						chars += (*p & 0xc0) != 0x80;
					if (chars > (e >= -18 && e < 20 ?
						     8u : 10u))
						fail_msg("%s: %zu characters",
							 buf, chars);
				}
}

/* Ticks that would read the same get more digits (up to 5). */
static void t_ticks_apart(void **state)
{
	static const double b[] = { 448.60, 448.62 }, h[] = { 448.65 };
	static const double fb[] = { 5, 5 }, fh[] = { 5 };
	json_t *s = strip(b, 2, h, 1);

	(void)state;
	assert_string_equal(json_string_value(json_object_get(s, "max")),
			    "448.65");
	assert_string_equal(json_string_value(json_object_get(s, "min")),
			    "448.6");
	assert_string_equal(json_string_value(json_object_get(s,
				"max_value")), "448.65");
	json_decref(s);
	s = strip(fb, 2, fh, 1);
	assert_string_equal(json_string_value(json_object_get(s, "max")), "5");
	assert_string_equal(json_string_value(json_object_get(s, "min")), "5");
	json_decref(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_geometry),
		cmocka_unit_test(t_flat_and_single),
		cmocka_unit_test(t_tick_labels),
		cmocka_unit_test(t_tick_width),
		cmocka_unit_test(t_ticks_apart),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
