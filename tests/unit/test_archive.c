// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/state/archive.c: the reports as the web archive
 * lists them (newest first, the counts and statuses of their threads)
 * and one report's whole thread (its mail, manifest, replies, answers,
 * retests, confirmation), and the stamp that changes with each of them
 * and only then.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "perfbot/state/archive.h"
#include "perfbot/state/requests.h"
#include "perfbot/state/outbox.h"
#include "perfbot/state/inbox.h"

#include "testutil.h"
#include "teststate.h"

#define T0 1739548080

struct fx {
	char dir[64];
	char path[128];
	struct state *st;
	struct pb_err err;
};

static int setup(void **state)
{
	struct fx *f = TU_NEW_FX(struct fx, "test_archive");

	if (!f)
		return -1;
	tu_path(f->path, sizeof(f->path), f->dir, "state.db");
	if (tu_state_open(&f->st, f->path, STATE_WRITE, &f->err)) {
		free(f);
		return -1;
	}
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	state_close(f->st);
	tu_rmtree(f->dir);
	free(f);
	return 0;
}

static const char message[] = "From: perfbot <perfbot@example.test>\n"
	"Subject: x\n\nbody\n";

/* A mail of 'kind' ("report", "answer") with id 'id' queued at 'now'. */
static void queue(struct fx *f, const char *kind, const char *id,
		  const char *report_id, time_t now)
{
	struct outbox_mail m = { 0 };
	int report = !strcmp(kind, "report");
	char msgid[64];

	snprintf(msgid, sizeof(msgid), "%s@example.test", id);
	m.id = (char *)id;
	m.kind = (char *)kind;
	m.report_id = (char *)report_id;
	m.message_id = msgid;
	m.sender = "perfbot@example.test";
	m.recipients = "[\"a@example.test\"]";
	m.message = (char *)message;
	m.len = sizeof(message) - 1;
	if (state_queue(f->st, &m, report ? "x.yaml" : NULL,
			report ? "id: x\n" : NULL, report ? "/m" : NULL,
			report ? "subject of x" : NULL, now, &f->err))
		fail_msg("state_queue: %s", f->err.msg);
}

static void reply(struct fx *f, const char *msgid, const char *report_id,
		  const char *commands, time_t now)
{
	struct inbox_entry e = { msgid, 1, 1, "alice@example.test",
				 report_id, "answered", commands };

	assert_int_equal(state_inbox_record(f->st, &e, now, &f->err), 0);
}

static void retest(struct fx *f, const char *rid, const char *report_id,
		   time_t now)
{
	struct request_new rq = {
		.request_id = rid, .kind = "retest", .report_id = report_id,
		.runs = 4, .requested_by = "alice@example.test",
		.reply_message_id = "m1@example.test", .thread = "{}",
		.status = "queued", .base_runs = 6, .head_runs = 6,
		.deadline = now + 3600,
	};

	assert_int_equal(state_request_add(f->st, &rq, now, &f->err), 0);
}

/* The list, which the caller frees. */
static struct archive_report *list(struct fx *f, size_t *n)
{
	struct archive_report *r = NULL;

	assert_int_equal(state_archive_reports(f->st, &r, n, &f->err), 0);
	return r;
}

static char *stamp_of(struct fx *f, const char *id)
{
	struct archive_report *r;
	char *s = NULL;
	size_t i, n;

	r = list(f, &n);
	for (i = 0; i < n; i++)
		if (!strcmp(r[i].id, id))
			s = strdup(r[i].stamp);
	archive_reports_free(r, n);
	assert_non_null(s);
	return s;
}

static void t_empty(void **state)
{
	struct fx *f = *state;
	struct archive_thread t;
	size_t n = 7;
	int found = 1;

	archive_reports_free(list(f, &n), n);
	assert_int_equal(n, 0);
	assert_int_equal(state_archive_thread(f->st, "r1", &t, &found,
					      &f->err), 0);
	assert_int_equal(found, 0);
	archive_thread_release(&t);
	archive_thread_release(&t);
}

/* Newest first; answers are no reports; each thread counted. */
static void t_reports(void **state)
{
	struct fx *f = *state;
	struct archive_report *r;
	size_t n;

	queue(f, "report", "r1", NULL, T0);
	queue(f, "report", "r2", NULL, T0 + 60);
	queue(f, "answer", "a-1", "r1", T0 + 120);
	reply(f, "m1@example.test", "r1", "[\"retest 4x\"]", T0 + 100);
	retest(f, "rt-1", "r1", T0 + 100);
	assert_int_equal(state_request_set(f->st, "rt-1", "done", "stable",
					   "stable", T0, &f->err), 0);
	retest(f, "rt-2", "r1", T0 + 200);
	r = list(f, &n);
	assert_int_equal(n, 2);
	assert_string_equal(r[0].id, "r2");
	assert_string_equal(r[1].id, "r1");
	assert_string_equal(r[1].subject, "subject of x");
	assert_string_equal(r[1].status, "queued");
	assert_int_equal(r[1].created, T0);
	assert_int_equal(r[1].sent_at, 0);
	assert_int_equal(r[1].replies, 1);
	assert_int_equal(r[1].retests, 2);
	assert_int_equal(r[1].retests_open, 1);
	assert_string_equal(r[1].verdict, "stable");
	assert_string_equal(r[1].retest_status, "queued");
	assert_null(r[1].confirm);
	assert_int_equal(r[0].replies, 0);
	assert_null(r[0].verdict);
	assert_null(r[0].retest_status);
	archive_reports_free(r, n);
	archive_reports_free(NULL, 0);
}

/* The stamp moves with the mail, a reply, an answer, a retest. */
static void t_stamp(void **state)
{
	struct fx *f = *state;
	char *s[6];
	size_t i, j;

	queue(f, "report", "r1", NULL, T0);
	queue(f, "report", "r2", NULL, T0);
	s[0] = stamp_of(f, "r1");
	assert_int_equal(state_sent(f->st, 1, T0 + 5, &f->err), 0);
	s[1] = stamp_of(f, "r1");
	reply(f, "m1@example.test", "r1", NULL, T0 + 10);
	s[2] = stamp_of(f, "r1");
	queue(f, "answer", "a-1", "r1", T0 + 20);
	s[3] = stamp_of(f, "r1");
	retest(f, "rt-1", "r1", T0 + 30);
	s[4] = stamp_of(f, "r1");
	assert_int_equal(state_request_set(f->st, "rt-1", "done",
					   "not reproduced", "not reproduced",
					   T0, &f->err), 0);
	s[5] = stamp_of(f, "r1");
	for (i = 0; i < 6; i++)
		for (j = 0; j < i; j++)
			assert_string_not_equal(s[i], s[j]);
	/* the other report did not move */
	for (i = 0; i < 6; i++)
		free(s[i]);
	s[0] = stamp_of(f, "r2");
	s[1] = stamp_of(f, "r2");
	assert_string_equal(s[0], s[1]);
	free(s[0]);
	free(s[1]);
}

static void t_thread(void **state)
{
	struct fx *f = *state;
	struct request_new c = {
		.request_id = "confirm-r1", .kind = "confirm",
		.report_id = "r1", .status = "asking", .runs = 16,
		.base_runs = 4, .head_runs = 4, .deadline = T0 + 3600,
		.metric = "m", .reported_change = 10.5,
	};
	struct archive_thread t;
	int found = 0;

	queue(f, "report", "r1", NULL, T0);
	queue(f, "answer", "a-1", "r1", T0 + 20);
	queue(f, "answer", "a-2", "r2", T0 + 20);
	reply(f, "m1@example.test", "r1", "[\"retest 4x\"]", T0 + 10);
	reply(f, "m2@example.test", "r2", NULL, T0 + 10);
	retest(f, "rt-1", "r1", T0 + 30);
	assert_int_equal(state_confirm_hold(f->st, &c, "x.yaml", "id: x\n",
					    "/m", T0, &f->err), 0);
	assert_int_equal(state_confirm_set(f->st, &(struct request){
		.request_id = "confirm-r1", .report_id = "r1" }, "done",
					   "confirmed", "yes", T0 + 40,
					   &f->err), 0);
	assert_int_equal(state_archive_thread(f->st, "r1", &t, &found,
					      &f->err), 0);
	assert_int_equal(found, 1);
	assert_string_equal(t.report.id, "r1");
	assert_string_equal(t.report.message_id, "r1@example.test");
	assert_int_equal(t.report.len, sizeof(message) - 1);
	assert_memory_equal(t.report.message, message, t.report.len);
	assert_string_equal(t.report.recipients, "[\"a@example.test\"]");
	assert_string_equal(t.text, "id: x\n");
	assert_string_equal(t.dir, "/m");
	assert_int_equal(t.nreplies, 1);
	assert_string_equal(t.replies[0].commands, "[\"retest 4x\"]");
	assert_string_equal(t.replies[0].sender, "alice@example.test");
	assert_int_equal(t.replies[0].received, T0 + 10);
	assert_int_equal(t.nanswers, 1);
	assert_string_equal(t.answers[0].id, "a-1");
	assert_int_equal(t.nretests, 1);
	assert_string_equal(t.retests[0].status, "queued");
	assert_int_equal(t.retests[0].base_runs, 6);
	assert_int_equal(t.retests[0].runs, 4);
	assert_string_equal(t.confirm_status, "confirmed");
	assert_string_equal(t.confirm_detail, "yes");
	assert_int_equal(t.confirm_decided, T0 + 40);
	archive_thread_release(&t);
	archive_thread_release(&t);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(t_empty),
		T(t_reports),
		T(t_stamp),
		T(t_thread),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
