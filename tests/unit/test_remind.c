// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/act/remind.c and src/compose/reminder.c: the
 * reminder lists the open regressions (not a fixed or invalid one, not
 * an improvement, not one set no-reminders, not one younger than
 * min_age), grouped by testcase, the oldest first, numbered; at most one
 * every 'every'; nothing when nothing is open or reminders.to is empty;
 * a reply to it that names a line acts on that line's report.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "perfbot/act/remind.h"
#include "perfbot/state/outbox.h"
#include "testlife.h"

#define RCPTS "[\"dev@example.test\",\"list@example.test\"]"
#define REMINDERS "reminders:\n  every: 30d\n  to: [\"Perf <perf@example.test>\"]\n" \
	"  min_age: 14d\n"
#define T1 (TL_T0 + 30 * TL_DAY)

static void set(struct tl *t, const char *id, const char *status, int quiet)
{
	struct record r;

	tl_record(t, id, &r);
	free(r.status);
	r.status = strdup(status);
	r.no_reminders = quiet;
	assert_int_equal(state_record_put(t->st, &r, NULL, TL_T0 + 5, &t->err),
			 0);
	record_release(&r);
}

static int setup(void **state)
{
	struct tl *t = tl_new("test_remind");

	*state = t;
	if (!t)
		return -1;
	tl_config(t, REMINDERS);
	tl_report(t, "r1", "[tree] r1 fio", RCPTS, TL_T0, "fio.write_bw", -9,
		  1);
	tl_report(t, "r2", "[tree] r2 aim7", RCPTS, TL_T0 + 1,
		  "aim7.jobs-per-min", -18, 1);
	tl_report(t, "r3", "[tree] r3 fio fixed", RCPTS, TL_T0 + 2,
		  "fio.write_bw", -4, 1);
	tl_report(t, "r4", "[tree] r4 better", RCPTS, TL_T0 + 3, "fio.iops",
		  12, 0);
	tl_report(t, "r5", "[tree] r5 quiet", RCPTS, TL_T0 + 4, "fio.iops",
		  -5, 1);
	tl_report(t, "r6", "[tree] r6 young", RCPTS, T1 - 5 * TL_DAY,
		  "fio.iops", -5, 1);
	tl_report(t, "r7", "[tree] r7 fio", RCPTS, TL_T0 + 7, "fio.write_bw",
		  -3, 1);
	set(t, "r3", "fixed", 0);
	set(t, "r5", "open", 1);
	set(t, "r7", "fix landed", 0);
	return 0;
}

static int teardown(void **state)
{
	tl_free(*state);
	return 0;
}

static long step(struct tl *t, time_t now)
{
	struct remind_stats rs;

	if (remind_step(t->st, &t->cfg, now, &rs, &t->err))
		fail_msg("remind_step: %s", t->err.msg);
	return rs.listed;
}

static size_t reminders(struct tl *t)
{
	size_t i, n = 0;

	tl_queued(t);
	for (i = 0; i < t->nout; i++)
		n += !strcmp(t->out[i].kind, "reminder");
	return n;
}

static void t_lists_the_open(void **state)
{
	struct tl *t = *state;
	const struct outbox_mail *m;
	const char *b, *fio, *aim7;

	assert_int_equal(step(t, T1), 3);
	assert_int_equal(reminders(t), 1);
	m = tl_mail_with(t, "Testcase fio:");
	assert_non_null(m);
	assert_string_equal(m->id, "reminder-1");
	assert_string_equal(m->recipients, "[\"perf@example.test\"]");
	b = m->message;
	assert_non_null(strstr(b, "Subject: [perfbot] 3 open performance "
			       "regressions"));
	assert_non_null(strstr(b, "Auto-Submitted: auto-generated"));
	assert_non_null(strstr(b, "3 of the performance regressions perfbot "
			       "reported are still open"));
	/* grouped by testcase, the oldest first: r1 and r7 (fio), r2 (aim7) */
	fio = strstr(b, "Testcase fio:");
	aim7 = strstr(b, "Testcase aim7:");
	assert_non_null(aim7);
	assert_true(fio < aim7);
	assert_non_null(strstr(b, "  <1> 30 days old, status \"open\", last "
			       "activity 2025-02-14\n      Report: [tree] r1 fio"
			       "\n      Change: fio.write_bw -9.0%\n      Link: "
			       TL_ARCHIVE "r1@example.test\n"));
	assert_non_null(strstr(b, "  <2> 29 days old, status \"fix landed\""));
	assert_non_null(strstr(b, "Report: [tree] r7 fio"));
	assert_non_null(strstr(b, "  <3> 29 days old, status \"open\""));
	assert_non_null(strstr(b, "Report: [tree] r2 aim7"));
	assert_non_null(strstr(b, "at most once every 30 days"));
	/* not listed: fixed, an improvement, no-reminders, too young */
	assert_null(strstr(b, "r3 fio fixed"));
	assert_null(strstr(b, "r4 better"));
	assert_null(strstr(b, "r5 quiet"));
	assert_null(strstr(b, "r6 young"));
	/* not again before 'every' */
	assert_int_equal(step(t, T1 + 3600), 0);
	assert_int_equal(reminders(t), 1);
	/* then again, with r6 old enough now */
	assert_int_equal(step(t, T1 + 30 * TL_DAY), 4);
	assert_int_equal(reminders(t), 2);
	assert_non_null(tl_mail_with(t, "r6 young"));
}

/* A reply that names a line of it acts on that line's report. */
static void t_reply_names_a_line(void **state)
{
	struct tl *t = *state;
	char out[160], msgid[256];
	const struct outbox_mail *m;

	assert_int_equal(step(t, T1), 3);
	m = tl_mail_with(t, "Testcase fio:");
	assert_non_null(m);
	snprintf(msgid, sizeof(msgid), "%s", m->message_id);
	tl_mail(t, "x1@example.test", "Dev <dev@example.test>", msgid,
		"#perfbot invalid <3> noise\n#perfbot set <1> no-reminders",
		T1 + 60, out, sizeof(out));
	assert_string_equal(out, "answered");
	tl_status_is(t, "r2", "invalid");
	{
		struct record r;

		tl_record(t, "r1", &r);
		assert_int_equal(r.no_reminders, 1);
		record_release(&r);
	}
	assert_non_null(tl_mail_with(t, "About line <3> of the reminder, the "
				     "report \"[tree] r2 aim7\":"));
}

static void t_nothing_open(void **state)
{
	struct tl *t = *state;
	static const char *const ids[] = { "r1", "r2", "r6", "r7" };
	size_t i;

	for (i = 0; i < 4; i++)
		set(t, ids[i], "invalid", 0);
	assert_int_equal(step(t, T1), 0);
	assert_int_equal(reminders(t), 0);
	/* nothing recorded: the first open one is listed at once */
	set(t, "r1", "open", 0);
	assert_int_equal(step(t, T1 + 60), 1);
}

static void t_off(void **state)
{
	struct tl *t = *state;

	tl_config(t, NULL);
	assert_int_equal(step(t, T1), 0);
	assert_int_equal(reminders(t), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(t_lists_the_open, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_reply_names_a_line, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_nothing_open, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_off, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
