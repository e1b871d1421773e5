// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/state/records.c: a report's record (made open as
 * its mail is queued; a report of before the records reads as open),
 * written with its transitions and read back with its report's facts and
 * last activity, found by id, Message-ID or subject, listed by status;
 * the tips of the tracked branches; the reminders, their lines and the
 * threads that answer them; the runs on landed fixes (verifies.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "perfbot/state/requests.h"
#include "perfbot/state/outbox.h"
#include "perfbot/state/inbox.h"
#include "testlife.h"

static int setup(void **state)
{
	*state = tl_new("test_records");
	return *state ? 0 : -1;
}

static int teardown(void **state)
{
	tl_free(*state);
	return 0;
}

#define RCPTS "[\"dev@example.test\",\"list@example.test\"]"

/* A report queued before the records existed: open, headline unknown. */
static void t_report_of_before(void **state)
{
	struct tl *t = *state;
	struct record r;
	int found = 1;

	tl_report(t, "old", "old subject", RCPTS, TL_T0, NULL, 0, 0);
	tl_record(t, "old", &r);
	assert_string_equal(r.status, "open");
	assert_int_equal(r.stored, 0);
	assert_int_equal(r.regression, -1);
	assert_null(r.metric);
	assert_string_equal(r.subject, "old subject");
	assert_string_equal(r.message_id, "old@example.test");
	assert_string_equal(r.recipients, RCPTS);
	assert_string_equal(r.mail_status, "sent");
	assert_int_equal(r.mailed, TL_T0);
	assert_int_equal(r.changed, TL_T0);
	record_release(&r);
	record_release(&r);
	assert_int_equal(state_record_get(t->st, "nonesuch", &r, &found,
					  &t->err), 0);
	assert_int_equal(found, 0);
	record_release(&r);
}

static void t_open_put_events(void **state)
{
	struct tl *t = *state;
	struct record_event ev = { 0, "fix:", "open", "fix named",
		"dev@example.test", "mm: fix it", "m1@example.test" }, *v = NULL;
	struct record r;
	size_t n = 0;

	tl_report(t, "r1", "s1", RCPTS, TL_T0, "aim7.jobs-per-min", -18.0, 1);
	/* a second open leaves the first as it was */
	assert_int_equal(state_record_open(t->st, "r1", "other", 1.0, 0,
					   TL_T0 + 5, &t->err), 0);
	tl_record(t, "r1", &r);
	assert_int_equal(r.stored, 1);
	assert_string_equal(r.metric, "aim7.jobs-per-min");
	assert_true(r.change == -18.0);
	assert_int_equal(r.regression, 1);
	free(r.status);
	r.status = strdup("fix named");
	r.fix_named = strdup("mm: fix it");
	assert_int_equal(state_record_put(t->st, &r, &ev, TL_T0 + 60, &t->err),
			 0);
	record_release(&r);
	tl_record(t, "r1", &r);
	assert_string_equal(r.status, "fix named");
	assert_string_equal(r.fix_named, "mm: fix it");
	assert_int_equal(r.created, TL_T0);
	assert_int_equal(r.changed, TL_T0 + 60);
	assert_int_equal(r.activity, TL_T0 + 60);
	/* the headline is written once: a put does not change it */
	assert_string_equal(r.metric, "aim7.jobs-per-min");
	record_release(&r);
	assert_int_equal(state_record_events(t->st, "r1", &v, &n, &t->err), 0);
	assert_int_equal(n, 1);
	assert_int_equal(v[0].at, TL_T0 + 60);
	assert_string_equal(v[0].event, "fix:");
	assert_string_equal(v[0].from, "open");
	assert_string_equal(v[0].to, "fix named");
	assert_string_equal(v[0].by, "dev@example.test");
	assert_string_equal(v[0].detail, "mm: fix it");
	assert_string_equal(v[0].source, "m1@example.test");
	record_events_free(v, n);
}

/* The last activity: transitions, mails read, answers sent. */
static void t_activity(void **state)
{
	struct tl *t = *state;
	struct inbox_entry e = { "in-1@example.test", 1, 1, "dev@example.test",
				 "r1", "answered", NULL };
	struct record r;

	tl_report(t, "r1", "s1", RCPTS, TL_T0, "m.x", -5, 1);
	assert_int_equal(state_inbox_record(t->st, &e, TL_T0 + 100, &t->err),
			 0);
	tl_record(t, "r1", &r);
	assert_int_equal(r.activity, TL_T0 + 100);
	record_release(&r);
}

static void t_find(void **state)
{
	struct tl *t = *state;
	char *id = NULL, *ids[4];
	size_t n = 0;

	tl_report(t, "r1", "same subject", RCPTS, TL_T0, "m.x", -5, 1);
	tl_report(t, "r2", "same subject", RCPTS, TL_T0 + 1, "m.x", -5, 1);
	tl_report(t, "r3", "its own", RCPTS, TL_T0 + 2, "m.x", -5, 1);
	assert_int_equal(state_record_find(t->st, "r2", &id, &t->err), 0);
	assert_string_equal(id, "r2");
	free(id);
	assert_int_equal(state_record_find(t->st, "r3@example.test", &id,
					   &t->err), 0);
	assert_string_equal(id, "r3");
	free(id);
	assert_int_equal(state_record_find(t->st, "<r1@example.test>", &id,
					   &t->err), 0);
	assert_string_equal(id, "r1");
	free(id);
	assert_int_equal(state_record_find(t->st, "<>", &id, &t->err), 0);
	assert_null(id);
	assert_int_equal(state_record_by_subject(t->st, "same subject", ids,
						 4, &n, &t->err), 0);
	assert_int_equal(n, 2);
	assert_string_equal(ids[0], "r1");
	assert_string_equal(ids[1], "r2");
	free(ids[0]);
	free(ids[1]);
	/* more than asked for: counted, not kept */
	assert_int_equal(state_record_by_subject(t->st, "same subject", ids,
						 1, &n, &t->err), 0);
	assert_int_equal(n, 2);
	free(ids[0]);
}

static void t_list(void **state)
{
	struct tl *t = *state;
	struct record *v = NULL, r;
	size_t n = 0;

	tl_report(t, "r1", "s", RCPTS, TL_T0, "m.x", -5, 1);
	tl_report(t, "r2", "s", RCPTS, TL_T0 + 1, "m.x", 5, 0);
	tl_report(t, "r3", "s", RCPTS, TL_T0 + 2, NULL, 0, 0);
	tl_report(t, "r4", "s", RCPTS, TL_T0 + 3, "m.x", -5, 1);
	tl_record(t, "r4", &r);
	free(r.status);
	r.status = strdup("invalid");
	assert_int_equal(state_record_put(t->st, &r, NULL, TL_T0 + 9,
					  &t->err), 0);
	record_release(&r);
	assert_int_equal(state_records(t->st, NULL, 0, &v, &n, &t->err), 0);
	assert_int_equal(n, 4);
	assert_string_equal(v[0].report_id, "r1");
	assert_string_equal(v[3].report_id, "r4");
	records_free(v, n);
	/* the open regressions: not the improvement, not the invalid one */
	assert_int_equal(state_records(t->st, "[\"open\"]", 1, &v, &n,
				       &t->err), 0);
	assert_int_equal(n, 2);
	assert_string_equal(v[0].report_id, "r1");
	assert_string_equal(v[1].report_id, "r3");
	records_free(v, n);
	assert_int_equal(state_records(t->st, "[\"invalid\", \"fixed\"]", 0,
				       &v, &n, &t->err), 0);
	assert_int_equal(n, 1);
	assert_string_equal(v[0].report_id, "r4");
	records_free(v, n);
}

static void t_tracking(void **state)
{
	struct tl *t = *state;
	char *tip = NULL;

	assert_int_equal(state_track_tip(t->st, "master", &tip, &t->err), 0);
	assert_null(tip);
	assert_int_equal(state_track_set(t->st, "master", "abc", TL_T0,
					 &t->err), 0);
	assert_int_equal(state_track_set(t->st, "master", "def", TL_T0 + 1,
					 &t->err), 0);
	assert_int_equal(state_track_tip(t->st, "master", &tip, &t->err), 0);
	assert_string_equal(tip, "def");
	free(tip);
	assert_int_equal(state_track_tip(t->st, "next", &tip, &t->err), 0);
	assert_null(tip);
}

/* A run on a fix: recorded once, read back, open until it ends. */
static void t_verifies(void **state)
{
	struct tl *t = *state;
	struct request_new rq = {
		.request_id = "verify-1", .kind = "verify", .report_id = "r1",
		.commit = "abc", .runs = 6, .result_root = "/x/verify-1",
		.deadline = TL_T0 + 3600,
	};
	struct request *v = NULL;
	size_t n = 0;

	assert_int_equal(state_request_get(t->st, "verify-1", &v, &t->err), 0);
	assert_null(v);
	assert_int_equal(state_request_add(t->st, &rq, TL_T0, &t->err), 0);
	/* asked again after a crash: the first is kept */
	rq.runs = 9;
	assert_int_equal(state_request_add(t->st, &rq, TL_T0 + 5, &t->err), 0);
	rq = (struct request_new){
		.request_id = "verify-2", .kind = "verify", .report_id = "r2",
		.commit = "def", .runs = 4, .result_root = "/x/v2",
		.status = "rejected", .detail = "exit 1", .deadline = TL_T0,
	};
	assert_int_equal(state_request_add(t->st, &rq, TL_T0 + 1, &t->err), 0);
	/* a request of another kind is not a verify's */
	rq = (struct request_new){
		.request_id = "rt-1", .kind = "retest", .report_id = "r1",
		.runs = 3, .deadline = TL_T0,
	};
	assert_int_equal(state_request_add(t->st, &rq, TL_T0 + 2, &t->err), 0);
	assert_int_equal(state_requests_open(t->st, "verify", &v, &n, &t->err),
			 0);
	assert_int_equal(n, 1);
	assert_string_equal(v[0].request_id, "verify-1");
	assert_string_equal(v[0].kind, "verify");
	assert_string_equal(v[0].status, "queued");
	assert_string_equal(v[0].commit, "abc");
	assert_int_equal(v[0].runs, 6);
	assert_int_equal(v[0].deadline, TL_T0 + 3600);
	assert_int_equal(v[0].created, TL_T0);
	assert_null(v[0].detail);
	assert_null(v[0].verdict);
	request_rows_free(v, n);
	assert_int_equal(state_requests_open(t->st, NULL, &v, &n, &t->err), 0);
	assert_int_equal(n, 2);
	request_rows_free(v, n);
	assert_int_equal(state_request_set(t->st, "verify-1", "done", "fixed",
					   "fixed", TL_T0 + 60, &t->err), 0);
	assert_int_equal(state_requests_open(t->st, "verify", &v, &n, &t->err),
			 0);
	assert_int_equal(n, 0);
	request_rows_free(v, n);
	assert_int_equal(state_request_get(t->st, "verify-1", &v, &t->err), 0);
	assert_string_equal(v->status, "done");
	assert_string_equal(v->verdict, "fixed");
	assert_int_equal(v->decided, TL_T0 + 60);
	request_rows_free(v, 1);
	assert_int_equal(state_request_get(t->st, "verify-2", &v, &t->err), 0);
	assert_string_equal(v->status, "rejected");
	assert_string_equal(v->detail, "exit 1");
	request_rows_free(v, 1);
	/* every request of a report, of every kind, oldest first */
	assert_int_equal(state_requests_of(t->st, "r1", NULL, &v, &n, &t->err),
			 0);
	assert_int_equal(n, 2);
	assert_string_equal(v[0].kind, "verify");
	assert_string_equal(v[1].kind, "retest");
	request_rows_free(v, n);
}

static void t_reminders(void **state)
{
	struct tl *t = *state;
	struct outbox_mail m = { 0 };
	const char *ids[2] = { "other@example.test", "rem-1@example.test" };
	char *id = NULL;
	time_t when = 1;
	long count = 1;

	assert_int_equal(state_reminder_last(t->st, &when, &count, &t->err), 0);
	assert_int_equal(when, 0);
	assert_int_equal(count, 0);
	m.id = "reminder-1";
	m.kind = "reminder";
	m.message_id = "rem-1@example.test";
	m.sender = TL_BOT;
	m.recipients = "[\"list@example.test\"]";
	m.message = "Subject: r\n\nx\n";
	m.len = strlen(m.message);
	assert_int_equal(state_queue(t->st, &m, NULL, NULL, NULL, "r", TL_T0,
				     &t->err), 0);
	assert_int_equal(state_reminder_add(t->st, "reminder-1",
					    "[\"r7\", \"r3\"]", TL_T0,
					    &t->err), 0);
	assert_int_equal(state_reminder_last(t->st, &when, &count, &t->err), 0);
	assert_int_equal(when, TL_T0);
	assert_int_equal(count, 1);
	assert_int_equal(state_reminder_line(t->st, "reminder-1", 2, &id,
					     &t->err), 0);
	assert_string_equal(id, "r3");
	free(id);
	assert_int_equal(state_reminder_line(t->st, "reminder-1", 3, &id,
					     &t->err), 0);
	assert_null(id);
	assert_int_equal(state_reminder_line(t->st, "reminder-1", 0, &id,
					     &t->err), 0);
	assert_null(id);
	assert_int_equal(state_route_reminder(t->st, ids, 2, &id, &t->err), 0);
	assert_string_equal(id, "reminder-1");
	free(id);
	assert_int_equal(state_route_reminder(t->st, ids, 1, &id, &t->err), 0);
	assert_null(id);
	/* one reminder id once */
	assert_int_equal(state_reminder_add(t->st, "reminder-1", "[]", TL_T0,
					    &t->err), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(t_verifies, setup, teardown),
		cmocka_unit_test_setup_teardown(t_report_of_before, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_open_put_events, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_activity, setup, teardown),
		cmocka_unit_test_setup_teardown(t_find, setup, teardown),
		cmocka_unit_test_setup_teardown(t_list, setup, teardown),
		cmocka_unit_test_setup_teardown(t_tracking, setup, teardown),
		cmocka_unit_test_setup_teardown(t_reminders, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
