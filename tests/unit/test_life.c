// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/web/life.c: where a report is in its life, from
 * what the state holds (its record's status, a retest running, its
 * verdict, the confirmation, the verdict of the run on its fix), whether
 * it is still open, and the flags the templates read; what its record's
 * status rests on (the fix named or landed, the report it duplicates,
 * why it is invalid).
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
	assert_int_equal(l.state, LIFE_MAILED);
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
	assert_true(json_is_false(json_object_get(life, "mailed")));
	assert_true(json_is_false(json_object_get(life, "confirmed")));
	assert_true(json_is_true(json_object_get(life, "was_confirmed")));
	assert_true(json_is_true(json_object_get(life, "open")));
	assert_string_equal(json_string_value(json_object_get(life,
							      "verdict")),
			    "inconclusive");
	json_decref(o);
}

/* The facts of a record, each only in the status it belongs to. */
static json_t *facts(const char *status, const struct record *dup)
{
	struct record r;
	struct pb_err err = { 0, "" };
	struct web_mask m;
	json_t *o = NULL, *f;
	struct ctx c;

	memset(&r, 0, sizeof(r));
	r.report_id = (char *)"r2";
	r.status = (char *)status;
	r.fix_named = (char *)"mm: fix it (thanks to <a@b.test>)";
	r.fix_commit = (char *)"d0f8c0aed1bf61a811108c7b5ee32066a9b4cadf";
	r.fix_summary = (char *)"mm: fix it";
	r.fix_branch = (char *)"master";
	r.fix_date = 1739550000;
	r.dup_of = (char *)"r 1";
	r.reason = (char *)"<b>misconfigured</b>";
	web_mask_init(&m, "[hidden]");
	ctx_init(&c, "test");
	ctx_life_record(&c, "facts", &r, dup, &m);
	assert_int_equal(ctx_finish(&c, &o, &err), 0);
	web_mask_release(&m);
	f = json_incref(json_object_get(o, "facts"));
	json_decref(o);
	return f;
}

static const char *at(json_t *o, const char *a, const char *b)
{
	json_t *v = json_object_get(o, a);

	return json_string_value(b ? json_object_get(v, b) : v);
}

static void t_record_facts(void **state)
{
	struct record d;
	json_t *f;

	(void)state;
	f = facts("fix named", NULL);
	assert_string_equal(at(f, "fix_named", NULL),
			    "mm: fix it (thanks to <[hidden]>)");
	assert_true(json_is_null(json_object_get(f, "fix")));
	assert_true(json_is_null(json_object_get(f, "dup")));
	assert_true(json_is_null(json_object_get(f, "reason")));
	json_decref(f);
	/* a fix that landed: its commit, whatever the verdict after */
	f = facts("fix landed", NULL);
	assert_true(json_is_null(json_object_get(f, "fix_named")));
	assert_string_equal(at(f, "fix", "sha"),
			    "d0f8c0aed1bf61a811108c7b5ee32066a9b4cadf");
	assert_string_equal(at(f, "fix", "subject"), "mm: fix it");
	assert_string_equal(at(f, "fix", "branch"), "master");
	assert_string_equal(json_string_value(json_object_get(json_object_get(
		json_object_get(f, "fix"), "date"), "iso")),
		"2025-02-14T16:20:00Z");
	json_decref(f);
	f = facts("fixed", NULL);
	assert_non_null(at(f, "fix", "sha"));
	json_decref(f);
	f = facts("not fixed", NULL);
	assert_non_null(at(f, "fix", "sha"));
	json_decref(f);
	/* open again (a revert, 'unfix'): no fix shown */
	f = facts("open", NULL);
	assert_true(json_is_null(json_object_get(f, "fix")));
	assert_true(json_is_null(json_object_get(f, "fix_named")));
	json_decref(f);
	/* a duplicate: the report it duplicates, its page and subject */
	memset(&d, 0, sizeof(d));
	d.report_id = (char *)"r 1";
	d.subject = (char *)"[x] a -5% regression";
	f = facts("duplicate", &d);
	assert_string_equal(at(f, "dup", "id"), "r 1");
	assert_string_equal(at(f, "dup", "href"), "r/r~201.html");
	assert_string_equal(at(f, "dup", "subject"), "[x] a -5% regression");
	assert_true(json_is_null(json_object_get(f, "fix")));
	json_decref(f);
	f = facts("duplicate", NULL);
	assert_true(json_is_null(json_object_get(json_object_get(f, "dup"),
						 "subject")));
	json_decref(f);
	f = facts("invalid", NULL);
	assert_string_equal(at(f, "reason", NULL), "<b>misconfigured</b>");
	assert_true(json_is_null(json_object_get(f, "dup")));
	json_decref(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_states),
		cmocka_unit_test(t_record),
		cmocka_unit_test(t_context),
		cmocka_unit_test(t_record_facts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
