// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/web/strip.c: the geometry of a strip plot (a dot per
 * run, inside the plot, the largest value at the top; the means; a
 * constant metric in the middle; one run in the column's centre) and the
 * numbers as the SVG takes them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_geometry),
		cmocka_unit_test(t_flat_and_single),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
