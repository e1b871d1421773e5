// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/act/regression.c: the state machine of a report's
 * record. Every event from every status: what it leaves (the status and
 * the fields it rests on), what is "already so" (nothing to write), what
 * is refused and why; a record refused or unchanged is left as it was.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "perfbot/act/regression.h"

#define SHA "0123456789abcdef0123456789abcdef01234567"
#define SHA2 "89abcdef0123456789abcdef0123456789abcdef"

static char *dup(const char *s)
{
	char *d = s ? strdup(s) : NULL;

	if (s)
		assert_non_null(d);
	return d;
}

/* A record in 'status' ('fix_named' and 'fix_commit' may be NULL). */
static void make(struct record *r, const char *status, const char *named,
		 const char *commit)
{
	memset(r, 0, sizeof(*r));
	r->report_id = dup("r1");
	r->status = dup(status);
	r->fix_named = dup(named);
	r->fix_commit = dup(commit);
	r->fix_summary = commit ? dup("mm: fix it") : NULL;
	r->fix_branch = commit ? dup("master") : NULL;
	r->fix_date = commit ? 1000 : 0;
}

static int next(struct record *r, enum reg_event ev, const char *arg)
{
	struct reg_change ch = { ev, arg, NULL, NULL, NULL, 0 };
	char why[160] = "";

	return regression_next(r, &ch, why, sizeof(why));
}

static int landed(struct record *r, const char *sha)
{
	struct reg_change ch = { REG_EV_LANDED, NULL, sha, "mm: fix it",
				 "next", 2000 };
	char why[160];

	return regression_next(r, &ch, why, sizeof(why));
}

static void t_names(void **state)
{
	int i;

	(void)state;
	for (i = 0; i < REG_NSTATUS; i++)
		assert_int_equal(regression_status_of(
					 regression_status_name(i)), i);
	assert_int_equal(regression_status_of("closed"), -1);
	assert_int_equal(regression_status_of(NULL), -1);
	assert_string_equal(regression_event_name(REG_EV_FIX), "fix:");
	assert_string_equal(regression_event_name(REG_EV_LANDED), "landed");
	assert_true(regression_closed(REG_FIXED));
	assert_true(regression_closed(REG_INVALID));
	assert_true(regression_closed(REG_DUPLICATE));
	assert_false(regression_closed(REG_NOT_FIXED));
	assert_false(regression_closed(REG_FIX_LANDED));
	assert_non_null(strstr(regression_open_json, "\"not fixed\""));
	assert_null(strstr(regression_open_json, "\"fixed\""));
}

/* The whole way: open, fix named, landed, verified fixed. */
static void t_the_way(void **state)
{
	struct record r;

	(void)state;
	make(&r, "open", NULL, NULL);
	assert_int_equal(next(&r, REG_EV_FIX, "mm: fix it"), 0);
	assert_string_equal(r.status, "fix named");
	assert_string_equal(r.fix_named, "mm: fix it");
	assert_int_equal(r.searched, 0);
	/* the same fix again: nothing to write */
	assert_int_equal(next(&r, REG_EV_FIX, "mm: fix it"), 1);
	assert_int_equal(landed(&r, SHA), 0);
	assert_string_equal(r.status, "fix landed");
	assert_string_equal(r.fix_commit, SHA);
	assert_string_equal(r.fix_branch, "next");
	assert_int_equal(r.fix_date, 2000);
	assert_string_equal(r.fix_named, "mm: fix it");
	/* a second branch with the same commit */
	assert_int_equal(landed(&r, SHA), 0 + 1);
	assert_int_equal(next(&r, REG_EV_VERIFIED, "inconclusive"), 0);
	assert_string_equal(r.status, "fix landed");
	assert_string_equal(r.verdict, "inconclusive");
	assert_int_equal(next(&r, REG_EV_VERIFIED, "fixed"), 0);
	assert_string_equal(r.status, "fixed");
	assert_string_equal(r.verdict, "fixed");
	/* verified already; a later landing changes nothing */
	assert_int_equal(next(&r, REG_EV_VERIFIED, "not fixed"), 1);
	assert_int_equal(landed(&r, SHA2), 1);
	assert_string_equal(r.fix_commit, SHA);
	record_release(&r);
}

/* A trailer lands a fix nobody named; a run says it did not fix it. */
static void t_not_fixed(void **state)
{
	struct record r;

	(void)state;
	make(&r, "open", NULL, NULL);
	assert_int_equal(landed(&r, SHA), 0);
	assert_null(r.fix_named);
	assert_int_equal(next(&r, REG_EV_VERIFIED, "partly fixed"), 0);
	assert_string_equal(r.status, "not fixed");
	assert_string_equal(r.verdict, "partly fixed");
	/* another fix lands: followed again */
	assert_int_equal(landed(&r, SHA2), 0);
	assert_string_equal(r.status, "fix landed");
	assert_string_equal(r.fix_commit, SHA2);
	assert_null(r.verdict);
	record_release(&r);
}

/* A revert, a force-push: back to the named fix, or to open. */
static void t_fix_gone(void **state)
{
	struct record r;

	(void)state;
	make(&r, "fix landed", "mm: fix it", SHA);
	r.searched = 1;
	assert_int_equal(next(&r, REG_EV_REVERTED, NULL), 0);
	assert_string_equal(r.status, "fix named");
	assert_null(r.fix_commit);
	assert_null(r.fix_branch);
	assert_int_equal(r.fix_date, 0);
	assert_string_equal(r.fix_named, "mm: fix it");
	assert_int_equal(r.searched, 0);
	/* nothing landed: a revert changes nothing */
	assert_int_equal(next(&r, REG_EV_REVERTED, NULL), 1);
	record_release(&r);

	make(&r, "fixed", NULL, SHA);
	r.verdict = dup("fixed");
	assert_int_equal(next(&r, REG_EV_LEFT, NULL), 0);
	assert_string_equal(r.status, "open");
	assert_null(r.verdict);
	record_release(&r);

	make(&r, "not fixed", NULL, SHA);
	assert_int_equal(next(&r, REG_EV_REVERTED, NULL), 0);
	assert_string_equal(r.status, "open");
	record_release(&r);

	/* a rewritten commit (force-push) replaces the landed one */
	make(&r, "fix landed", NULL, SHA);
	assert_int_equal(landed(&r, SHA2), 0);
	assert_string_equal(r.status, "fix landed");
	assert_string_equal(r.fix_commit, SHA2);
	record_release(&r);
}

static void t_fix_refused(void **state)
{
	struct record r;
	struct reg_change ch = { REG_EV_FIX, "other", NULL, NULL, NULL, 0 };
	char why[160];

	(void)state;
	make(&r, "fix landed", NULL, SHA);
	assert_int_equal(regression_next(&r, &ch, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "has landed already ('unfix' first)"));
	assert_string_equal(r.status, "fix landed");
	assert_null(r.fix_named);
	record_release(&r);
	make(&r, "invalid", NULL, NULL);
	assert_int_equal(regression_next(&r, &ch, why, sizeof(why)), -1);
	assert_string_equal(why, "it is invalid ('reopen' first)");
	record_release(&r);
	/* from not fixed, another fix may be named */
	make(&r, "not fixed", NULL, SHA);
	assert_int_equal(regression_next(&r, &ch, why, sizeof(why)), 0);
	assert_string_equal(r.status, "fix named");
	assert_null(r.fix_commit);
	record_release(&r);
}

static void t_unfix(void **state)
{
	struct record r;
	struct reg_change ch = { REG_EV_UNFIX, NULL, NULL, NULL, NULL, 0 };
	char why[160];

	(void)state;
	make(&r, "fix landed", "mm: fix it", SHA);
	assert_int_equal(regression_next(&r, &ch, why, sizeof(why)), 0);
	assert_string_equal(r.status, "open");
	assert_null(r.fix_named);
	assert_null(r.fix_commit);
	assert_int_equal(regression_next(&r, &ch, why, sizeof(why)), -1);
	assert_string_equal(why, "no fix is named");
	record_release(&r);
}

static void t_dup(void **state)
{
	struct record r;
	struct reg_change ch = { REG_EV_DUP, "r1", NULL, NULL, NULL, 0 };
	char why[160];

	(void)state;
	make(&r, "fix named", "mm: fix it", NULL);
	assert_int_equal(regression_next(&r, &ch, why, sizeof(why)), -1);
	assert_string_equal(why, "a report cannot duplicate itself");
	assert_string_equal(r.status, "fix named");
	ch.arg = "r0";
	assert_int_equal(regression_next(&r, &ch, why, sizeof(why)), 0);
	assert_string_equal(r.status, "duplicate");
	assert_string_equal(r.dup_of, "r0");
	assert_null(r.fix_named);
	assert_int_equal(regression_next(&r, &ch, why, sizeof(why)), 1);
	/* of another one: moved */
	ch.arg = "r2";
	assert_int_equal(regression_next(&r, &ch, why, sizeof(why)), 0);
	assert_string_equal(r.dup_of, "r2");
	/* a duplicate is closed: landing fixes change nothing */
	assert_int_equal(landed(&r, SHA), 1);
	assert_int_equal(next(&r, REG_EV_UNDUP, NULL), 0);
	assert_string_equal(r.status, "open");
	assert_null(r.dup_of);
	ch.ev = REG_EV_UNDUP;
	assert_int_equal(regression_next(&r, &ch, why, sizeof(why)), -1);
	assert_string_equal(why, "it is no duplicate (it is open)");
	record_release(&r);
}

static void t_invalid_reopen(void **state)
{
	struct record r;

	(void)state;
	make(&r, "open", NULL, NULL);
	assert_int_equal(next(&r, REG_EV_REOPEN, NULL), 1);
	assert_int_equal(next(&r, REG_EV_INVALID, "a bad base"), 0);
	assert_string_equal(r.status, "invalid");
	assert_string_equal(r.reason, "a bad base");
	assert_int_equal(next(&r, REG_EV_INVALID, "a bad base"), 1);
	assert_int_equal(next(&r, REG_EV_INVALID, NULL), 1);
	/* a new reason is written */
	assert_int_equal(next(&r, REG_EV_INVALID, "noise"), 0);
	assert_string_equal(r.reason, "noise");
	assert_int_equal(landed(&r, SHA), 1);
	assert_int_equal(next(&r, REG_EV_REOPEN, NULL), 0);
	assert_string_equal(r.status, "open");
	assert_null(r.reason);
	record_release(&r);
	/* a fixed one reopened: its fix is forgotten */
	make(&r, "fixed", "mm: fix it", SHA);
	assert_int_equal(next(&r, REG_EV_REOPEN, NULL), 0);
	assert_string_equal(r.status, "open");
	assert_null(r.fix_commit);
	assert_null(r.fix_named);
	record_release(&r);
	make(&r, "duplicate", NULL, NULL);
	r.dup_of = dup("r0");
	assert_int_equal(next(&r, REG_EV_INVALID, NULL), 0);
	assert_null(r.dup_of);
	assert_null(r.reason);
	record_release(&r);
}

static void t_reminders(void **state)
{
	struct record r;

	(void)state;
	make(&r, "fix named", "x", NULL);
	assert_int_equal(next(&r, REG_EV_REMINDERS, NULL), 1);
	assert_int_equal(next(&r, REG_EV_NO_REMINDERS, NULL), 0);
	assert_int_equal(r.no_reminders, 1);
	assert_string_equal(r.status, "fix named");
	assert_string_equal(r.fix_named, "x");
	assert_int_equal(next(&r, REG_EV_NO_REMINDERS, NULL), 1);
	assert_int_equal(next(&r, REG_EV_REMINDERS, NULL), 0);
	assert_int_equal(r.no_reminders, 0);
	record_release(&r);
}

/* A status this perfbot does not know reads as open. */
static void t_unknown_status(void **state)
{
	struct record r;

	(void)state;
	make(&r, "archived", NULL, NULL);
	assert_int_equal(next(&r, REG_EV_FIX, "x"), 0);
	assert_string_equal(r.status, "fix named");
	record_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_names),
		cmocka_unit_test(t_the_way),
		cmocka_unit_test(t_not_fixed),
		cmocka_unit_test(t_fix_gone),
		cmocka_unit_test(t_fix_refused),
		cmocka_unit_test(t_unfix),
		cmocka_unit_test(t_dup),
		cmocka_unit_test(t_invalid_reopen),
		cmocka_unit_test(t_reminders),
		cmocka_unit_test(t_unknown_status),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
