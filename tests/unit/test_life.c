// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/web/life.c: where a report is in its life, from
 * what the state holds (its record's status, a retest running, its
 * verdict, the confirmation, the verdict of the run on its fix), whether
 * it is still open, and the flags
 * the templates read.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "perfbot/web/life.h"

static struct web_life of_record(const char *verdict, long open,
				 const char *confirm, const char *record)
{
	struct archive_report r;
	struct web_life l;

	memset(&r, 0, sizeof(r));
	r.record = (char *)record;
	r.verdict = (char *)verdict;
	r.retests_open = open;
	r.retests = open + (verdict != NULL);
	r.confirm = (char *)confirm;
	web_life_of(&r, &l);
	return l;
}

static struct web_life of(const char *verdict, long open,
			  const char *confirm)
{
	return of_record(verdict, open, confirm, "open");
}

static void t_states(void **state)
{
	struct web_life l;

	(void)state;
	l = of(NULL, 0, NULL);
	assert_int_equal(l.state, LIFE_TESTED);
	assert_true(l.open);
	l = of(NULL, 0, "confirmed");
	assert_int_equal(l.state, LIFE_CONFIRMED);
	assert_true(l.confirmed);
	l = of(NULL, 0, "unconfirmed");
	assert_int_equal(l.state, LIFE_UNCONFIRMED);
	assert_false(l.confirmed);
	l = of("stable", 0, "confirmed");
	assert_int_equal(l.state, LIFE_RETESTED);
	assert_string_equal(l.verdict, "stable");
	assert_true(l.confirmed);
	assert_true(l.open);
	l = of("not reproduced", 0, NULL);
	assert_int_equal(l.state, LIFE_RETESTED);
	assert_false(l.open);
	/* a retest running: its state, the last verdict still said */
	l = of("not reproduced", 1, NULL);
	assert_int_equal(l.state, LIFE_RETESTING);
	assert_string_equal(l.verdict, "not reproduced");
	assert_false(l.open);
	l = of(NULL, 2, NULL);
	assert_int_equal(l.state, LIFE_RETESTING);
	assert_true(l.open);
}

/* The record's status, once it is more than open, says where it is. */
static void t_record(void **state)
{
	struct web_life l;

	(void)state;
	l = of_record(NULL, 0, NULL, "open");
	assert_null(l.record);
	assert_true(l.open);
	l = of_record("stable", 0, NULL, "fix landed");
	assert_string_equal(l.record, "fix landed");
	assert_true(l.open);
	l = of_record(NULL, 0, NULL, "not fixed");
	assert_true(l.open);
	l = of_record(NULL, 0, NULL, "fix named");
	assert_true(l.open);
	l = of_record(NULL, 0, "confirmed", "fixed");
	assert_string_equal(l.record, "fixed");
	assert_false(l.open);
	l = of_record(NULL, 0, NULL, "invalid");
	assert_false(l.open);
	l = of_record(NULL, 0, NULL, "duplicate");
	assert_string_equal(l.record, "duplicate");
	assert_false(l.open);
	/* the run on the landed fix: its verdict beside the record's */
	{
		struct archive_report r;

		memset(&r, 0, sizeof(r));
		r.record = (char *)"not fixed";
		r.record_verdict = (char *)"partly fixed";
		web_life_of(&r, &l);
		assert_string_equal(l.fix_verdict, "partly fixed");
		r.record = (char *)"open";
		web_life_of(&r, &l);
		assert_null(l.fix_verdict);
	}
	/* a word of a newer perfbot: shown, and followed */
	l = of_record(NULL, 0, NULL, "archived");
	assert_null(l.record);
	assert_true(l.open);
}

static void t_context(void **state)
{
	struct web_life l = of("inconclusive", 0, "confirmed");
	struct pb_err err = { 0, "" };
	json_t *o = NULL, *life;
	struct ctx c;

	(void)state;
	ctx_init(&c, "test");
	ctx_life(&c, "life", &l);
	assert_int_equal(ctx_finish(&c, &o, &err), 0);
	life = json_object_get(o, "life");
	assert_string_equal(json_string_value(json_object_get(life, "state")),
			    "retested");
	assert_true(json_is_true(json_object_get(life, "retested")));
	assert_true(json_is_false(json_object_get(life, "tested")));
	assert_true(json_is_false(json_object_get(life, "confirmed")));
	assert_true(json_is_true(json_object_get(life, "was_confirmed")));
	assert_true(json_is_true(json_object_get(life, "open")));
	assert_string_equal(json_string_value(json_object_get(life,
							      "verdict")),
			    "inconclusive");
	json_decref(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_states),
		cmocka_unit_test(t_record),
		cmocka_unit_test(t_context),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
