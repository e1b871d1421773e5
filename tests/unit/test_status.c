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
#include <jansson.h>

#include "perfbot/cli/cli.h"
#include "perfbot/state/status.h"
#include "perfbot/state/requests.h"
#include "perfbot/state/outbox.h"
#include "perfbot/state/inbox.h"

#include "testbisect.h"
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

/* Row 'r''s column 'col' of part 'name': text, or number. */
static const char *txt(const struct status *so, const char *name, size_t r,
		       const char *col)
{
	const struct status_part *p = status_part(so, name);
	const struct status_value *v = p ? status_cell(p, r, col) : NULL;

	assert_non_null(v);
	assert_int_equal(v->type, STATUS_TEXT);
	return v->s;
}

static long long num(const struct status *so, const char *name, size_t r,
		     const char *col)
{
	const struct status_part *p = status_part(so, name);
	const struct status_value *v = p ? status_cell(p, r, col) : NULL;

	assert_non_null(v);
	assert_int_equal(v->type, STATUS_INT);
	return v->i;
}

static size_t nrows(const struct status *so, const char *name)
{
	const struct status_part *p = status_part(so, name);

	assert_non_null(p);	/* its table is there */
	return p->nrows;
}

static void t_empty(void **state)
{
	struct fx *f = *state;
	struct status_next nx;
	struct status so;

	assert_int_equal(state_status(f->st, T0, &so, &f->err), 0);
	assert_string_equal(so.state, f->path);
	assert_int_equal(so.now, T0);
	assert_int_equal(so.outbox.has_outbox, 1);
	assert_int_equal(so.outbox.queued, 0);
	assert_int_equal(nrows(&so, "queued"), 0);
	assert_int_equal(nrows(&so, "retests"), 0);
	assert_int_equal(nrows(&so, "mailbox"), 0);
	/* the confirmations held for more runs (none yet) */
	assert_int_equal(nrows(&so, "confirmations"), 0);
	assert_null(status_part(&so, "no such part"));
	status_release(&so);
	assert_int_equal(state_next_attempt(f->st, &nx, &f->err), 0);
	assert_int_equal(nx.when, 0);
	assert_null(nx.last_error);
}

static void t_queued_and_retried(void **state)
{
	struct fx *f = *state;
	struct status_next nx;
	struct status so;
	long long r1, r2;
	long n;

	r1 = queue(f, "r1", T0);
	r2 = queue(f, "r2", T0);
	assert_int_equal(state_retry(f->st, r1, "421 busy", T0, &f->err), 0);
	assert_int_equal(state_failed(f->st, r2, "550 no", T0, &f->err), 0);
	assert_int_equal(state_mailbox_set(f->st, "INBOX", 7, 42, &f->err), 0);
	assert_int_equal(state_status(f->st, T0, &so, &f->err), 0);
	assert_int_equal(so.outbox.queued, 1);
	assert_int_equal(so.outbox.failed, 1);
	assert_int_equal(nrows(&so, "queued"), 1);
	assert_string_equal(txt(&so, "queued", 0, "id"), "r1");
	assert_string_equal(txt(&so, "queued", 0, "last_error"), "421 busy");
	assert_int_equal(num(&so, "queued", 0, "attempts"), 1);
	assert_int_equal(num(&so, "queued", 0, "next_attempt"),
			 T0 + state_backoff(1));
	/* the message itself is never part of it */
	assert_null(status_cell(status_part(&so, "queued"), 0, "message"));
	assert_string_equal(txt(&so, "failed", 0, "last_error"), "550 no");
	assert_int_equal(num(&so, "mailbox", 0, "last_uid"), 42);
	status_release(&so);
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
 * Run 'perfbot ARGV...' (its last argument, after --config, the state's
 * configuration) with its stdout in the file 'out'; it must exit 0.
 */
static void run_cli(struct fx *f, int (*cmd)(int, char **), char **argv,
		    int argc, char *out, size_t outlen)
{
	char cfg[PATH_MAX], line[320];
	int saved, fd, rc;

	tu_path(cfg, sizeof(cfg), f->dir, "perfbot.yaml");
	snprintf(line, sizeof(line), "state: %s\n", f->path);
	tu_write(cfg, line, 0600);
	argv[argc - 1] = cfg;
	tu_path(out, outlen, f->dir, "cli.out");
	fflush(stdout);
	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	saved = dup(STDOUT_FILENO);
	assert_true(saved >= 0);
	assert_true(dup2(fd, STDOUT_FILENO) >= 0);
	close(fd);
	rc = cmd(argc, argv);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	assert_int_equal(rc, 0);
}

/*
 * 'perfbot status' prints each value on one line: a byte below 0x20 or
 * DEL becomes '?', any other byte is kept (U+2028 too), however long the
 * value.
 */
static void t_cli_text(void **state)
{
	struct fx *f = *state;
	char out[PATH_MAX], line[320], want[320];
	char *argv[] = { "status", "--config", NULL, NULL };
	struct strbuf sb;

	memset(line, 'x', 300);
	memcpy(line, "421 \001\t\177\r\n", 9);
	memcpy(line + 150, "caf\xc3\xa9\x1f\xe2\x80\xa8", 9);
	line[300] = '\0';
	memcpy(want, line, sizeof(want));
	memcpy(want, "421 ?????", 9);
	want[155] = '?';
	queue_as(f, "r1", line, T0);
	run_cli(f, cmd_status, argv, 3, out, sizeof(out));
	tu_read_text(out, &sb);
	if (!strstr(sb_str(&sb), want))
		fail_msg("no '%s' in:\n%s", want, sb_str(&sb));
	sb_release(&sb);
}

/* Run 'perfbot ARGV...' on the state: its stdout parsed as JSON. */
static json_t *cli_json(struct fx *f, int (*cmd)(int, char **), char **argv,
			int argc)
{
	char out[PATH_MAX];
	json_t *o;

	run_cli(f, cmd, argv, argc, out, sizeof(out));
	o = json_load_file(out, 0, NULL);
	assert_non_null(o);
	return o;
}

/* The request 'id' of a JSON list of requests, or NULL. */
static json_t *request_in(json_t *list, const char *id)
{
	json_t *r;
	size_t i;

	json_array_foreach(list, i, r)
		if (!strcmp(json_string_value(json_object_get(r,
						"request_id")), id))
			return r;
	return NULL;
}

/* The request 'id' of o's "requests" with its status and verdict. */
static json_t *request_is(json_t *o, const char *id, const char *status,
			  const char *verdict)
{
	json_t *r = request_in(json_object_get(o, "requests"), id);

	assert_non_null(r);
	assert_string_equal(json_string_value(json_object_get(r, "status")),
			    status);
	assert_string_equal(json_string_value(json_object_get(r, "verdict")),
			    verdict);
	return r;
}

static void request_add(struct fx *f, const char *id, const char *kind,
			const char *report)
{
	struct request_new rq = { .request_id = id, .kind = kind,
				  .report_id = report, .runs = 3,
				  .deadline = T0 + 86400 };

	assert_int_equal(state_request_add(f->st, &rq, T0, &f->err), 0);
}

/*
 * Every request of every kind, finished ones too, in the one vocabulary:
 * 'status --json' lists them all, and 'show --json' shows a report held
 * for confirmation and never mailed (it was "no such report").
 */
static void t_cli_json(void **state)
{
	struct fx *f = *state;
	char *status_argv[] = { "status", "--json", "--config", NULL, NULL };
	char *show_argv[] = { "show", "cf-1", "--json", "--config", NULL,
			      NULL };
	json_t *o, *r;

	queue(f, "r1", T0);
	request_add(f, "rt-1", "retest", "r1");
	request_add(f, "cf-1-a", "confirm", "cf-1");
	assert_int_equal(state_request_set(f->st, "cf-1-a", "done",
					   "not reproduced", "no change",
					   T0 + 60, &f->err), 0);
	request_add(f, "tt-1", "test", "r1");
	assert_int_equal(state_request_set(f->st, "tt-1", "failed", NULL,
					   "patch does not apply", T0 + 60,
					   &f->err), 0);
	state_close(f->st);	/* as a run leaves it */
	f->st = NULL;

	o = cli_json(f, cmd_status, status_argv, 4);
	assert_int_equal(json_array_size(json_object_get(o, "requests")), 3);
	r = request_in(json_object_get(o, "requests"), "rt-1");
	assert_non_null(r);
	assert_string_equal(json_string_value(json_object_get(r, "status")),
			    "queued");
	r = request_is(o, "cf-1-a", "done", "not reproduced");
	assert_string_equal(json_string_value(json_object_get(r, "kind")),
			    "confirm");
	assert_int_equal(json_integer_value(json_object_get(r, "decided")),
			 T0 + 60);
	r = request_in(json_object_get(o, "requests"), "tt-1");
	assert_string_equal(json_string_value(json_object_get(r, "status")),
			    "failed");
	assert_string_equal(json_string_value(json_object_get(r, "detail")),
			    "patch does not apply");
	assert_int_equal(json_integer_value(json_object_get(
		json_object_get(o, "outbox"), "queued")), 1);
	json_decref(o);

	o = cli_json(f, cmd_show, show_argv, 5);
	r = json_object_get(o, "report");
	assert_string_equal(json_string_value(json_object_get(r, "id")),
			    "cf-1");
	assert_true(json_is_null(json_object_get(r, "message_id")));
	assert_string_equal(json_string_value(json_object_get(r,
							"mail_status")),
			    "never mailed");
	assert_string_equal(json_string_value(json_object_get(
		json_object_get(o, "record"), "status")), "not mailed");
	request_is(o, "cf-1-a", "done", "not reproduced");
	assert_int_equal(json_array_size(json_object_get(o, "requests")), 1);
	json_decref(o);

	/* the text says when each ended, as a date */
	{
		char *argv[] = { "status", "--config", NULL, NULL };
		char out[PATH_MAX];
		struct strbuf sb;

		run_cli(f, cmd_status, argv, 3, out, sizeof(out));
		tu_read_text(out, &sb);
		assert_non_null(strstr(sb_str(&sb), "status: done, verdict: "
				       "not reproduced, detail: no change"));
		assert_non_null(strstr(sb_str(&sb), "decided: 2025-02-14 "
				       "15:49:00 UTC"));
		sb_release(&sb);
	}

	/* and a mailed report's requests, every kind of them */
	show_argv[1] = "r1";
	o = cli_json(f, cmd_show, show_argv, 5);
	assert_int_equal(json_array_size(json_object_get(o, "requests")), 2);
	assert_non_null(request_in(json_object_get(o, "requests"), "rt-1"));
	assert_non_null(request_in(json_object_get(o, "requests"), "tt-1"));
	json_decref(o);
}

/* Bisection 'id' of o's "bisections". */
static json_t *bisection_in(json_t *o, const char *id)
{
	json_t *r;
	size_t i;

	json_array_foreach(json_object_get(o, "bisections"), i, r)
		if (!strcmp(json_string_value(json_object_get(r, "id")), id))
			return r;
	fail_msg("no bisection '%s'", id);
	return NULL;
}

/*
 * The bisections (issue 33) in 'status' and 'status --json': each with
 * its report, phase, commits, rounds, runs, the likeliest commit and its
 * posterior, the culprit once found; one that cannot be read says why.
 */
static void t_cli_bisections(void **state)
{
	struct fx *f = *state;
	char *json_argv[] = { "status", "--json", "--config", NULL, NULL };
	char *argv[] = { "status", "--config", NULL, NULL };
	char out[PATH_MAX], sha[GIT_SHA_HEX], want[256];
	struct strbuf sb;
	json_t *o, *r;

	tb_bisection_add(f->st, "r1", 0, T0);
	tb_bisection_add(f->st, "r2", 2, T0 + 60);
	assert_int_equal(state_bisection_add(f->st, "bisect-r3", "r3",
					     "search", "[]", "/j", NULL,
					     T0 + 3600, T0, &f->err), 0);
	state_close(f->st);
	f->st = NULL;

	o = cli_json(f, cmd_status, json_argv, 4);
	assert_int_equal(json_array_size(json_object_get(o, "bisections")),
			 3);
	r = bisection_in(o, "bisect-r1");
	assert_string_equal(json_string_value(json_object_get(r,
							"report_id")), "r1");
	assert_string_equal(json_string_value(json_object_get(r, "phase")),
			    "search");
	assert_string_equal(json_string_value(json_object_get(r, "metric")),
			    "aim7.jobs-per-min");
	assert_int_equal(json_integer_value(json_object_get(r,
							"candidates")), 3);
	assert_int_equal(json_integer_value(json_object_get(r, "rounds")), 0);
	assert_int_equal(json_integer_value(json_object_get(r, "max_runs")),
			 80);
	assert_true(json_is_string(json_object_get(r, "top")));
	assert_true(json_real_value(json_object_get(r, "top_p")) > 0.3);
	assert_true(json_is_null(json_object_get(r, "culprit")));
	assert_int_equal(json_integer_value(json_object_get(r, "updated")),
			 T0);
	r = bisection_in(o, "bisect-r2");
	tb_sha(sha, 2);
	assert_string_equal(json_string_value(json_object_get(r, "culprit")),
			    sha);
	assert_int_equal(json_integer_value(json_object_get(r, "runs")), 12);
	r = bisection_in(o, "bisect-r3");
	assert_string_equal(json_string_value(json_object_get(r, "phase")),
			    "unreadable");
	assert_non_null(strstr(json_string_value(json_object_get(r, "why")),
			       "bisect"));
	json_decref(o);

	run_cli(f, cmd_status, argv, 3, out, sizeof(out));
	tu_read_text(out, &sb);
	snprintf(want, sizeof(want), "  id: bisect-r2, report_id: r2, phase: "
		 "culprit, metric: aim7.jobs-per-min, candidates: 3, rounds: "
		 "2, runs: 12, max_runs: 80, top: ");
	assert_non_null(strstr(sb_str(&sb), "bisections: 3\n"));
	assert_non_null(strstr(sb_str(&sb), want));
	snprintf(want, sizeof(want), "culprit: %s, why: -, updated: "
		 "2025-02-14 15:49:00 UTC", sha);
	assert_non_null(strstr(sb_str(&sb), want));
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
		T(t_cli_json),
		T(t_cli_bisections),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
