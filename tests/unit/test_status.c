// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/state/status.c: what 'perfbot status' reads from the
 * state (the outbox counts, queued mail with its next attempt and last
 * error, failures, retests, the mailbox position), the earliest next
 * attempt, 'send --now' making queued mail due once, and the dates;
 * and the text 'perfbot status' prints (src/cli/cmd_status.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "perfbot/cli/cli.h"
#include "perfbot/state/status.h"
#include "perfbot/state/outbox.h"
#include "perfbot/state/inbox.h"

#include "testutil.h"

#define T0 1739548080

struct fx {
	char dir[64];
	char path[128];
	struct state *st;
	struct pb_err err;
};

static int setup(void **state)
{
	struct fx *f = TU_NEW_FX(struct fx, "test_status");

	if (!f)
		return -1;
	tu_path(f->path, sizeof(f->path), f->dir, "state.db");
	if (state_open(&f->st, f->path, STATE_WRITE, &f->err)) {
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

/* The row of the mail queued last: the newest of the queued ones. */
static long long last_row(struct fx *f)
{
	long long *rows = NULL, row;
	size_t n = 0;

	if (state_queued_rows(f->st, &rows, &n, &f->err))
		fail_msg("state_queued_rows: %s", f->err.msg);
	assert_true(n > 0);
	row = rows[n - 1];
	free(rows);
	return row;
}

static long long queue_as(struct fx *f, const char *id, const char *subject,
			  time_t now)
{
	struct outbox_mail m = { 0 };
	char msgid[64];

	snprintf(msgid, sizeof(msgid), "%s@example.test", id);
	m.id = (char *)id;
	m.kind = "report";
	m.message_id = msgid;
	m.sender = "perfbot@example.test";
	m.recipients = "[\"a@example.test\"]";
	m.message = (char *)message;
	m.len = sizeof(message) - 1;
	if (state_queue(f->st, &m, "x.yaml", NULL, NULL, subject, now, &f->err))
		fail_msg("state_queue: %s", f->err.msg);
	return last_row(f);
}

static long long queue(struct fx *f, const char *id, time_t now)
{
	return queue_as(f, id, "subject\001of x", now);
}

static void t_empty(void **state)
{
	struct fx *f = *state;
	struct status_next nx;
	json_t *o = NULL, *ob;

	assert_int_equal(state_status(f->st, T0, &o, &f->err), 0);
	assert_string_equal(json_string_value(json_object_get(o, "state")),
			    f->path);
	assert_int_equal(json_integer_value(json_object_get(o, "now")), T0);
	ob = json_object_get(o, "outbox");
	assert_int_equal(json_integer_value(json_object_get(ob, "queued")), 0);
	assert_int_equal(json_array_size(json_object_get(o, "queued")), 0);
	assert_true(json_is_array(json_object_get(o, "retests")));
	assert_true(json_is_array(json_object_get(o, "mailbox")));
	/* the confirmations held for more runs (none yet) */
	assert_true(json_is_array(json_object_get(o, "confirmations")));
	assert_int_equal(json_array_size(json_object_get(o,
							 "confirmations")), 0);
	json_decref(o);
	assert_int_equal(state_next_attempt(f->st, &nx, &f->err), 0);
	assert_int_equal(nx.when, 0);
	assert_null(nx.last_error);
}

static void t_queued_and_retried(void **state)
{
	struct fx *f = *state;
	struct status_next nx;
	json_t *o = NULL, *q;
	long long r1, r2;
	long n;

	r1 = queue(f, "r1", T0);
	r2 = queue(f, "r2", T0);
	assert_int_equal(state_retry(f->st, r1, "421 busy", T0, &f->err), 0);
	assert_int_equal(state_failed(f->st, r2, "550 no", T0, &f->err), 0);
	assert_int_equal(state_mailbox_set(f->st, "INBOX", 7, 42, &f->err), 0);
	assert_int_equal(state_status(f->st, T0, &o, &f->err), 0);
	assert_int_equal(json_integer_value(json_object_get(
		json_object_get(o, "outbox"), "queued")), 1);
	assert_int_equal(json_integer_value(json_object_get(
		json_object_get(o, "outbox"), "failed")), 1);
	q = json_array_get(json_object_get(o, "queued"), 0);
	assert_string_equal(json_string_value(json_object_get(q, "id")), "r1");
	assert_string_equal(json_string_value(json_object_get(q,
							      "last_error")),
			    "421 busy");
	assert_int_equal(json_integer_value(json_object_get(q, "attempts")), 1);
	assert_int_equal(json_integer_value(json_object_get(q,
							    "next_attempt")),
			 T0 + state_backoff(1));
	/* the message itself is never part of it */
	assert_null(json_object_get(q, "message"));
	q = json_array_get(json_object_get(o, "failed"), 0);
	assert_string_equal(json_string_value(json_object_get(q,
							      "last_error")),
			    "550 no");
	q = json_array_get(json_object_get(o, "mailbox"), 0);
	assert_int_equal(json_integer_value(json_object_get(q, "last_uid")),
			 42);
	json_decref(o);
	assert_int_equal(state_next_attempt(f->st, &nx, &f->err), 0);
	assert_int_equal(nx.when, T0 + state_backoff(1));
	assert_string_equal(nx.last_error, "421 busy");
	status_next_release(&nx);
	/* --now: due at once, once; a mail already due is left alone */
	assert_int_equal(state_retry_now(f->st, T0 + 5, &n, &f->err), 0);
	assert_int_equal(n, 1);
	assert_int_equal(state_next_attempt(f->st, &nx, &f->err), 0);
	assert_int_equal(nx.when, T0 + 5);
	status_next_release(&nx);
	assert_int_equal(state_retry_now(f->st, T0 + 5, &n, &f->err), 0);
	assert_int_equal(n, 0);
}

static void t_when(void **state)
{
	char buf[96];

	(void)state;
	status_when(T0 + 90, T0, buf, sizeof(buf));
	assert_string_equal(buf, "2025-02-14 15:49:30 UTC (in 90 s)");
	status_when(T0 + 300, T0, buf, sizeof(buf));
	assert_string_equal(buf, "2025-02-14 15:53:00 UTC (in 5 min)");
	status_when(T0 + 9000, T0, buf, sizeof(buf));
	assert_string_equal(buf, "2025-02-14 18:18:00 UTC (in 2.5 h)");
	status_when(T0 - 600, T0, buf, sizeof(buf));
	assert_string_equal(buf, "2025-02-14 15:38:00 UTC (10 min ago)");
	status_when(T0, T0, buf, sizeof(buf));
	assert_string_equal(buf, "2025-02-14 15:48:00 UTC (now)");
}

/*
 * 'perfbot status' prints each value on one line: a byte below 0x20 or
 * DEL becomes '?', any other byte is kept (U+2028 too), however long the
 * value.
 */
static void t_cli_text(void **state)
{
	struct fx *f = *state;
	char cfg[PATH_MAX], out[PATH_MAX], line[320], want[320];
	char *argv[] = { "status", "--config", cfg, NULL };
	struct strbuf sb;
	int saved, fd, rc;

	memset(line, 'x', 300);
	memcpy(line, "421 \001\t\177\r\n", 9);
	memcpy(line + 150, "caf\xc3\xa9\x1f\xe2\x80\xa8", 9);
	line[300] = '\0';
	memcpy(want, line, sizeof(want));
	memcpy(want, "421 ?????", 9);
	want[155] = '?';
	queue_as(f, "r1", line, T0);
	tu_path(cfg, sizeof(cfg), f->dir, "perfbot.yaml");
	snprintf(line, sizeof(line), "state: %s\n", f->path);
	tu_write(cfg, line, 0600);
	tu_path(out, sizeof(out), f->dir, "status.out");
	fflush(stdout);
	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	saved = dup(STDOUT_FILENO);
	assert_true(saved >= 0);
	assert_true(dup2(fd, STDOUT_FILENO) >= 0);
	close(fd);
	rc = cmd_status(3, argv);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	assert_int_equal(rc, 0);
	tu_read_text(out, &sb);
	if (!strstr(sb_str(&sb), want))
		fail_msg("no '%s' in:\n%s", want, sb_str(&sb));
	sb_release(&sb);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(t_empty),
		T(t_queued_and_retried),
		cmocka_unit_test(t_when),
		T(t_cli_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
