// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/compose/values.c: every string of a context, at any
 * depth, one line without control characters; perfbot's own blocks keep
 * their line feeds, and the items of a list take their key's rule.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "perfbot/compose/values.h"

static const char *str(json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

static void t_lines_and_blocks(void **state)
{
	struct pb_err err = { 0, "" };
	json_t *c = json_pack("{s:s, s:{s:s, s:[s, s]}, s:s, s:[s], s:i}",
			      "name", "a\r\nb\tc\x1b[1m\x07\x08\x7f"
			      "\xc2\x85" "d\xe2\x80\xa8" "e\xc3\xa9",
			      "commits", "head", "x\ny", "said", "one\ntwo",
			      "three\x1b", "table", "  a\n  b\x07\n",
			      "pieces", "Hi,\n\nI queued it.\r\n", "runs", 3);
	json_t *s;

	(void)state;
	assert_non_null(c);
	s = json_stringn("nul\0byte", 8);
	json_object_set_new(c, "nul", s);
	assert_int_equal(values_scrub(c, &err), 0);
	assert_string_equal(str(c, "name"), "a  b c [1m    d e\xc3\xa9");
	assert_string_equal(str(json_object_get(c, "commits"), "head"),
			    "x y");
	assert_string_equal(json_string_value(json_array_get(json_object_get(
		json_object_get(c, "commits"), "said"), 0)), "one two");
	assert_string_equal(str(c, "table"), "  a\n  b \n");
	assert_string_equal(json_string_value(json_array_get(
		json_object_get(c, "pieces"), 0)), "Hi,\n\nI queued it. \n");
	assert_string_equal(str(c, "nul"), "nul byte");
	assert_int_equal(json_integer_value(json_object_get(c, "runs")), 3);
	json_decref(c);
	assert_int_equal(values_scrub(NULL, &err), 0);
	assert_true(values_block("chart"));
	assert_false(values_block("name"));
	assert_false(values_block(NULL));
}

/* A context nested deeper than any perfbot builds is refused. */
static void t_too_deep(void **state)
{
	struct pb_err err = { 0, "" };
	json_t *c = json_string("x"), *o;
	int i;

	(void)state;
	for (i = 0; i < 40; i++) {
		o = json_array();
		json_array_append_new(o, c);
		c = o;
	}
	assert_int_equal(values_scrub(c, &err), -1);
	assert_int_equal(err.code, EX_SOFTWARE);
	assert_non_null(strstr(err.msg, "nested"));
	json_decref(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_lines_and_blocks),
		cmocka_unit_test(t_too_deep),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
