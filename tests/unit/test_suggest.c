// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/util/suggest.c: the edit distance behind "did you
 * mean" and when a candidate is close enough to be offered.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "perfbot/util/suggest.h"

static void t_distance(void **state)
{
	(void)state;
	assert_int_equal(edit_distance("", ""), 0);
	assert_int_equal(edit_distance("abc", "abc"), 0);
	assert_int_equal(edit_distance("", "abc"), 3);
	assert_int_equal(edit_distance("kitten", "sitting"), 3);
	assert_int_equal(edit_distance("startls", "starttls"), 1);
	/* a swap of neighbours is one edit, not two */
	assert_int_equal(edit_distance("smpt", "smtp"), 1);
	assert_int_equal(edit_distance("max_rnus", "max_runs"), 1);
	assert_int_equal(edit_distance("ab", "ba"), 1);
}

static void t_too_long(void **state)
{
	char a[SUGGEST_MAX_LEN + 2];

	(void)state;
	memset(a, 'a', sizeof(a) - 1);
	a[sizeof(a) - 1] = '\0';
	assert_true(edit_distance(a, "a") == SIZE_MAX);
	assert_false(suggest_close(a, "a"));
	a[SUGGEST_MAX_LEN] = '\0';
	assert_int_equal(edit_distance(a, a), 0);
}

static void t_close(void **state)
{
	(void)state;
	assert_true(suggest_close("startls", "starttls"));
	assert_true(suggest_close("pasword", "password"));
	assert_true(suggest_close("jsno", "json"));
	assert_true(suggest_close("smtpx", "smtp"));
	/* the same word is no correction */
	assert_false(suggest_close("json", "json"));
	/* short words: one typo at most */
	assert_false(suggest_close("ssl", "none"));
	assert_false(suggest_close("lkp", "exec"));
	assert_false(suggest_close("lkp", "http"));
	assert_false(suggest_close("bogus", "all"));
	assert_false(suggest_close("frobnicate", "compare"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_distance),
		cmocka_unit_test(t_too_long),
		cmocka_unit_test(t_close),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
