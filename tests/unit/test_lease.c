// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/state/lease.c (issue 34 item 2: work claimed exactly
 * once): two handles on one state, each an instance of its own name,
 * claim the same outbox mails, farm requests and bisections: never both
 * get one; a lease over is taken over by the other; a lease given back
 * is free again; a row no longer open (a mail sent, a request done, a
 * bisection decided) is claimed by nobody; only the owner gives a lease
 * back; a follow-up's open requests leave out those another instance
 * holds. On PostgreSQL (PERFBOT_TEST_STATE) the two handles are two
 * connections to one schema. A second process claiming the same rows at the same time as this
 * one gets the others: each row is taken once.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "perfbot/state/bisections.h"
#include "perfbot/state/outbox.h"
#include "perfbot/state/requests.h"
#include "perfbot/state/state.h"

#include "testutil.h"
#include "teststate.h"

#define T0 1739548080
#define NROWS 40

struct fx {
	char dir[64];
	char path[128];
	char where[1024];	/* the state: the file, or a server's schema */
	struct state *a, *b;	/* two instances on one state */
	struct pb_err err;
};

static int setup(void **state)
{
	struct fx *f = TU_NEW_FX(struct fx, "test_lease");

	if (!f)
		return -1;
	tu_path(f->path, sizeof(f->path), f->dir, "state.db");
	tu_state(f->where, sizeof(f->where), f->path);
	if (state_open(&f->a, f->where, STATE_WRITE, &f->err) ||
	    state_open(&f->b, f->where, STATE_WRITE, &f->err) ||
	    state_owner_set(f->a, "instance-a", &f->err) ||
	    state_owner_set(f->b, "instance-b", &f->err))
		return -1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	state_close(f->a);
	state_close(f->b);
	tu_rmtree(f->dir);
	free(f);
	return 0;
}

static void add_mail(struct state *st, int i)
{
	struct outbox_mail m = { 0 };
	struct pb_err err = { 0, "" };
	char id[32], mid[64];

	snprintf(id, sizeof(id), "r%d", i);
	snprintf(mid, sizeof(mid), "<r%d@example.test>", i);
	m.kind = "report";
	m.id = id;
	m.report_id = id;
	m.message_id = mid;
	m.sender = "perfbot@example.test";
	m.recipients = "[\"a@example.test\"]";
	m.message = "x";
	m.len = 1;
	assert_int_equal(state_queue(st, &m, NULL, NULL, NULL, "s", T0, &err),
			 0);
}

static void add_request(struct state *st, const char *id)
{
	struct request_new rq = {
		.request_id = id, .kind = "retest", .report_id = "r1",
		.runs = 2, .deadline = T0 + 86400,
	};
	struct pb_err err = { 0, "" };

	assert_int_equal(state_request_add(st, &rq, T0, &err), 0);
}

static int mail_claim(struct state *st, long long row, time_t now)
{
	struct pb_err err = { 0, "" };
	int c = -1;

	if (state_claim(st, row, now, 600, &c, &err))
		fail_msg("%s", err.msg);
	return c;
}

static int request_claim(struct state *st, const char *id, time_t now)
{
	struct pb_err err = { 0, "" };
	int c = -1;

	if (state_request_claim(st, id, now, 600, &c, &err))
		fail_msg("%s", err.msg);
	return c;
}

static int bisection_claim(struct state *st, const char *id, time_t now)
{
	struct pb_err err = { 0, "" };
	int c = -1;

	if (state_bisection_claim(st, id, now, 600, &c, &err))
		fail_msg("%s", err.msg);
	return c;
}

static void t_outbox(void **state)
{
	struct fx *f = *state;

	add_mail(f->a, 1);
	assert_int_equal(mail_claim(f->a, 1, T0), 1);
	assert_int_equal(mail_claim(f->b, 1, T0 + 1), 0);
	/* its own again (a retry in the same run) */
	assert_int_equal(mail_claim(f->a, 1, T0 + 2), 1);
	/* the lease over: taken over, and no more the first's */
	assert_int_equal(mail_claim(f->b, 1, T0 + 603), 1);
	assert_int_equal(mail_claim(f->a, 1, T0 + 604), 0);
	/* sent: nobody's */
	assert_int_equal(state_sent(f->b, 1, T0 + 605, &f->err), 0);
	assert_int_equal(mail_claim(f->a, 1, T0 + 5000), 0);
	assert_int_equal(mail_claim(f->b, 1, T0 + 5000), 0);
}

static void t_requests(void **state)
{
	struct fx *f = *state;

	add_request(f->a, "retest-1");
	assert_int_equal(request_claim(f->a, "retest-1", T0), 1);
	assert_int_equal(request_claim(f->b, "retest-1", T0 + 1), 0);
	/* only the owner gives it back */
	assert_int_equal(state_request_release(f->b, "retest-1", &f->err), 0);
	assert_int_equal(request_claim(f->b, "retest-1", T0 + 2), 0);
	assert_int_equal(state_request_release(f->a, "retest-1", &f->err), 0);
	assert_int_equal(request_claim(f->b, "retest-1", T0 + 3), 1);
	assert_int_equal(request_claim(f->a, "retest-1", T0 + 4), 0);
	/* over: taken over */
	assert_int_equal(request_claim(f->a, "retest-1", T0 + 604), 1);
	/* done: nobody's */
	assert_int_equal(state_request_set(f->a, "retest-1", "done", "ok",
					   NULL, T0 + 700, &f->err), 0);
	assert_int_equal(state_request_release(f->a, "retest-1", &f->err), 0);
	assert_int_equal(request_claim(f->b, "retest-1", T0 + 9999), 0);
	/* no such request */
	assert_int_equal(request_claim(f->b, "retest-none", T0), 0);
}

static void t_bisections(void **state)
{
	struct fx *f = *state;

	assert_int_equal(state_bisection_add(f->a, "bisect-1", "r1", "search",
					     "{}", "j", NULL, T0 + 99, T0,
					     &f->err), 0);
	assert_int_equal(bisection_claim(f->b, "bisect-1", T0), 1);
	assert_int_equal(bisection_claim(f->a, "bisect-1", T0), 0);
	assert_int_equal(state_bisection_release(f->b, "bisect-1", &f->err),
			 0);
	assert_int_equal(bisection_claim(f->a, "bisect-1", T0 + 1), 1);
	assert_int_equal(state_bisection_set(f->a, "bisect-1", "culprit",
					     "{}", T0 + 2, &f->err), 0);
	assert_int_equal(state_bisection_release(f->a, "bisect-1", &f->err),
			 0);
	assert_int_equal(bisection_claim(f->b, "bisect-1", T0 + 3), 0);
}

/* A follow-up's rows: those another instance holds are left out. */
static void t_requests_claim(void **state)
{
	struct fx *f = *state;
	struct request *ra = NULL, *rb = NULL;
	size_t na = 0, nb = 0;

	add_request(f->a, "rq-1");
	add_request(f->a, "rq-2");
	assert_int_equal(request_claim(f->b, "rq-2", T0), 1);
	assert_int_equal(state_requests_claim(f->a, "retest", T0 + 1, 600, &ra,
					      &na, &f->err), 0);
	assert_int_equal(na, 1);
	assert_string_equal(ra[0].request_id, "rq-1");
	assert_int_equal(state_requests_claim(f->b, "retest", T0 + 2, 600, &rb,
					      &nb, &f->err), 0);
	assert_int_equal(nb, 1);
	assert_string_equal(rb[0].request_id, "rq-2");
	state_requests_release(f->a, ra, na);
	request_rows_free(ra, na);
	request_rows_free(rb, nb);
	assert_int_equal(state_requests_claim(f->b, "retest", T0 + 3, 600, &rb,
					      &nb, &f->err), 0);
	assert_int_equal(nb, 2);
	request_rows_free(rb, nb);
	assert_int_equal(state_requests_claim(f->a, "retest", T0 + 4, 600, &ra,
					      &na, &f->err), 0);
	assert_int_equal(na, 0);
	request_rows_free(ra, na);
}

/*
 * 'st' claims every row, mails and requests in turn; the bits of those
 * it got, into 'got' (NROWS mails, then NROWS requests).
 */
static void claim_all(struct state *st, unsigned char *got)
{
	char id[32];
	int i;

	for (i = 0; i < NROWS; i++) {
		got[i] = (unsigned char)mail_claim(st, i + 1, T0);
		snprintf(id, sizeof(id), "rq-%d", i);
		got[NROWS + i] = (unsigned char)request_claim(st, id, T0);
	}
}

/* Two processes claiming the same rows at once: each row taken once. */
static void t_two_processes(void **state)
{
	struct fx *f = *state;
	unsigned char mine[2 * NROWS], theirs[2 * NROWS];
	int fds[2], status, i, taken = 0;
	char id[32];
	pid_t pid;

	for (i = 0; i < NROWS; i++) {
		add_mail(f->a, i + 1);
		snprintf(id, sizeof(id), "rq-%d", i);
		add_request(f->a, id);
	}
	state_close(f->b);
	f->b = NULL;
	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct state *st = NULL;
		struct pb_err err = { 0, "" };

		close(fds[0]);
		if (state_open(&st, f->where, STATE_WRITE, &err) ||
		    state_owner_set(st, "instance-child", &err))
			_exit(1);
		claim_all(st, theirs);
		if (write(fds[1], theirs, sizeof(theirs)) !=
		    (ssize_t)sizeof(theirs))
			_exit(1);
		state_close(st);
		_exit(0);
	}
	close(fds[1]);
	claim_all(f->a, mine);
	assert_int_equal(read(fds[0], theirs, sizeof(theirs)),
			 sizeof(theirs));
	close(fds[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	for (i = 0; i < 2 * NROWS; i++) {
		if (mine[i] && theirs[i])
			fail_msg("row %d claimed by both", i);
		taken += mine[i] + theirs[i];
	}
	assert_int_equal(taken, 2 * NROWS);
}

/* 'st' claims due mails 'chunk' at a time until none is left: bits. */
static size_t claim_due_all(struct state *st, size_t chunk,
			    unsigned char *got)
{
	struct pb_err err = { 0, "" };
	long long *rows, last = 0;
	size_t n, i, total = 0;

	do {
		if (state_claim_due(st, T0, last, chunk, 600, &rows, &n, &err))
			fail_msg("%s", err.msg);
		for (i = 0; i < n; i++) {
			if (rows[i] < 1 || rows[i] > NROWS || got[rows[i] - 1])
				fail_msg("row %lld: not due or twice",
					 rows[i]);
			if (i && rows[i] <= rows[i - 1])
				fail_msg("rows out of order");
			got[rows[i] - 1] = 1;
			last = rows[i];
		}
		total += n;
		free(rows);
	} while (n);
	return total;
}

/*
 * Due mails claimed several at once, oldest first: another instance's
 * are left out, those over the cursor only, a lease over or given back
 * taken again, a sent mail never.
 */
static void t_claim_due(void **state)
{
	struct fx *f = *state;
	long long *rows;
	size_t n;
	int i;

	for (i = 0; i < NROWS; i++)
		add_mail(f->a, i + 1);
	assert_int_equal(state_claim_due(f->a, T0, 0, 8, 600, &rows, &n,
					 &f->err), 0);
	assert_int_equal(n, 8);
	assert_int_equal(rows[0], 1);
	assert_int_equal(rows[7], 8);
	free(rows);
	/* b gets the next ones, a's left out */
	assert_int_equal(state_claim_due(f->b, T0, 0, 8, 600, &rows, &n,
					 &f->err), 0);
	assert_int_equal(n, 8);
	assert_int_equal(rows[0], 9);
	free(rows);
	/* over the cursor only */
	assert_int_equal(state_claim_due(f->b, T0, 38, 8, 600, &rows, &n,
					 &f->err), 0);
	assert_int_equal(n, 2);
	assert_int_equal(rows[0], 39);
	free(rows);
	/* a gives 2 back, sends 3: b takes the 2, never the 3; its own
	 * again */
	assert_int_equal(state_unclaim(f->a, 1, &f->err), 0);
	assert_int_equal(state_unclaim(f->a, 2, &f->err), 0);
	assert_int_equal(state_unclaim(f->b, 4, &f->err), 0);	/* not b's */
	assert_int_equal(state_sent(f->a, 3, T0, &f->err), 0);
	assert_int_equal(state_claim_due(f->b, T0, 0, 8, 600, &rows, &n,
					 &f->err), 0);
	assert_int_equal(n, 8);
	assert_int_equal(rows[0], 1);
	assert_int_equal(rows[1], 2);
	assert_int_equal(rows[2], 9);
	free(rows);
	/* a's leases over: b takes 4.. */
	assert_int_equal(state_claim_due(f->b, T0 + 601, 0, 1, 600, &rows, &n,
					 &f->err), 0);
	assert_int_equal(n, 1);
	assert_int_equal(rows[0], 1);	/* its own, again */
	free(rows);
	assert_int_equal(state_claim_due(f->b, T0 + 601, 3, 1, 600, &rows,
					 &n, &f->err), 0);
	assert_int_equal(n, 1);
	assert_int_equal(rows[0], 4);
	free(rows);
}

/*
 * A killed process's mails, claimed several at once, are taken over at
 * once by a process of this host; two processes claiming the due mails
 * at once, 4 at a time, share them out: each claimed once.
 */
static void t_claim_due_processes(void **state)
{
	struct fx *f = *state;
	unsigned char mine[NROWS] = { 0 }, theirs[NROWS] = { 0 };
	long long *rows;
	size_t n, got;
	int fds[2], status, i;
	pid_t pid;

	for (i = 0; i < NROWS; i++)
		add_mail(f->a, i + 1);
	state_close(f->a);
	state_close(f->b);
	f->a = f->b = NULL;
	/* a killed run of this host ("host:pid"), 10 mails claimed */
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct state *st = NULL;
		struct pb_err err = { 0, "" };

		if (state_open(&st, f->where, STATE_WRITE, &err) ||
		    state_claim_due(st, T0, 0, 10, 600, &rows, &n, &err) ||
		    n != 10)
			_exit(1);
		raise(SIGKILL);
		_exit(1);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(state_open(&f->a, f->where, STATE_WRITE, &f->err), 0);
	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct state *st = NULL;
		struct pb_err err = { 0, "" };

		close(fds[0]);
		if (state_open(&st, f->where, STATE_WRITE, &err))
			_exit(1);
		claim_due_all(st, 4, theirs);
		_exit(write(fds[1], theirs, sizeof(theirs)) ==
		      (ssize_t)sizeof(theirs) ? 0 : 1);
	}
	close(fds[1]);
	got = claim_due_all(f->a, 4, mine);
	assert_int_equal(read(fds[0], theirs, sizeof(theirs)),
			 sizeof(theirs));
	close(fds[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	for (i = 0; i < NROWS; i++) {
		if (mine[i] == theirs[i])
			fail_msg("row %d claimed %s", i + 1,
				 mine[i] ? "twice" : "by nobody");
		got += theirs[i];
	}
	assert_int_equal(got, NROWS);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(t_outbox),
		T(t_requests),
		T(t_bisections),
		T(t_requests_claim),
		T(t_two_processes),
		T(t_claim_due),
		T(t_claim_due_processes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
