// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/web/statuspage.c: status.html, what 'perfbot
 * status' shows: the counts, the queued mail with its next attempt and
 * last error, the failures with their reasons, the regressions followed
 * with their fixes, the retests and tests with a link to their report,
 * the mailbox; a part without rows says "None." (no empty table); no
 * address, no state path.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "perfbot/state/records.h"
#include "perfbot/state/requests.h"
#include "perfbot/state/outbox.h"
#include "perfbot/state/inbox.h"
#include "perfbot/web/statuspage.h"

#include "testbisect.h"
#include "testweb.h"

struct fx {
	char dir[64];
	struct tw w;
	struct strbuf out;
};

static int setup(void **state)
{
	struct fx *f = TU_NEW_FX(struct fx, "test_statuspage");

	if (!f)
		return -1;
	memcpy(f->w.dir, f->dir, sizeof(f->dir));
	if (!tw_setup(&f->w))
		return -1;
	sb_init(&f->out, 0);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	sb_release(&f->out);
	tw_teardown(&f->w);
	free(f);
	return 0;
}

static int has(struct fx *f, const char *s)
{
	return strstr(sb_str(&f->out), s) != NULL;
}

static void t_status(void **state)
{
	struct fx *f = *state;
	struct request_new rq = {
		.request_id = "rt-1", .kind = "retest", .report_id = "r1",
		.runs = 4, .requested_by = "alice@example.test",
		.reply_message_id = "m@x", .thread = "{}", .status = "queued",
		.base_runs = 6, .head_runs = 6, .deadline = TW_T0 + 3600,
	};
	struct outbox_mail *q = NULL;
	struct web_site s;
	size_t n = 0;

	tw_report(&f->w, "r1", NULL, NULL, TW_T0);
	tw_report(&f->w, "r2", NULL, NULL, TW_T0);
	assert_int_equal(state_queued(f->w.st, &q, &n, &f->w.err), 0);
	assert_int_equal(n, 2);
	assert_int_equal(state_retry(f->w.st, q[0].rowid, "421 busy",
				     TW_T0, &f->w.err), 0);
	assert_int_equal(state_failed(f->w.st, q[1].rowid, "550 <bob@x.test>"
				      ": no such user", TW_T0, &f->w.err), 0);
	outbox_free(q, n);
	assert_int_equal(state_request_add(f->w.st, &rq, TW_T0, &f->w.err), 0);
	assert_int_equal(state_mailbox_set(f->w.st, "INBOX", 7, 42,
					   &f->w.err), 0);
	assert_int_equal(web_site_init(&s, &f->w.cfg, TW_T0, &f->w.err), 0);
	if (web_status(&s, f->w.st, &f->out, &f->w.err))
		fail_msg("%s", f->w.err.msg);
	web_site_release(&s);
	assert_true(has(f, "The outbox: 1 queued, 0 sent (0 in the last hour), "
			"1 failed."));
	assert_true(has(f, "<a href=\"r/r1.html\">r1</a> (report)"));
	assert_true(has(f, "<td>421 busy</td>"));
	assert_true(has(f, "550 &lt;[address hidden]&gt;: no such user"));
	assert_true(has(f, "<time datetime=\"2025-02-14T15:49:00Z\">"));
	assert_true(has(f, "<td>rt-1</td><td><a href=\"r/r1.html\">r1</a></td>"
			"<td class=\"num\">4</td><td>[address hidden]</td>"));
	assert_true(has(f, "<td>INBOX</td><td class=\"num\">7</td>"));
	assert_false(has(f, f->w.state));
	assert_false(has(f, "alice@"));
}

static void render(struct fx *f)
{
	struct web_site s;

	sb_reset(&f->out);
	assert_int_equal(web_site_init(&s, &f->w.cfg, TW_T0, &f->w.err), 0);
	if (web_status(&s, f->w.st, &f->out, &f->w.err))
		fail_msg("%s", f->w.err.msg);
	web_site_release(&s);
}

/* A state with nothing in it: every part says so, no empty table. */
static void t_empty(void **state)
{
	struct fx *f = *state;

	render(f);
	assert_int_equal(tw_count(sb_str(&f->out), "<p>None.</p>"), 8);
	assert_true(has(f, "<h2>The mailbox</h2>\n<p>None read yet.</p>"));
	assert_false(has(f, "<table"));
	assert_true(has(f, "<h2>Regressions followed</h2>\n<p>None.</p>"));
	assert_true(has(f, "<h2>Tests in flight</h2>\n<p>None.</p>"));
}

/* The regressions followed, with their fix, and the tests in flight. */
static void t_regressions_tests(void **state)
{
	struct fx *f = *state;
	struct request_new t = { .request_id = "test-1", .kind = "test",
		.report_id = "r1",
		.form = "tree", .runs = 3, .requested_by = "alice@example.test",
		.reply_message_id = "m@x", .thread = "{}",
		.commit = "f017b0a4951fac8f150232661b2cc0b67e0c57f0",
		.repo = "https://git.example.test/linux.git", .ref = "fix-1",
		.result_root = "/results/test-1", .status = "queued",
		.deadline = TW_T0 + 3600 };
	struct record r;
	int found = 0;

	/* a regression's record (the report queued after keeps it) */
	assert_int_equal(state_record_open(f->w.st, "r1", "hackbench.throughput",
					   -10.5, 1, TW_T0, &f->w.err), 0);
	tw_report(&f->w, "r1", NULL, NULL, TW_T0);
	assert_int_equal(state_record_get(f->w.st, "r1", &r, &found,
					  &f->w.err), 0);
	free(r.status);
	r.status = strdup("fix landed");
	r.fix_commit = strdup("d0f8c0aed1bf61a811108c7b5ee32066a9b4cadf");
	r.fix_branch = strdup("master");
	assert_int_equal(state_record_put(f->w.st, &r, NULL, TW_T0 + 120,
					  &f->w.err), 0);
	record_release(&r);
	assert_int_equal(state_request_add(f->w.st, &t, TW_T0, &f->w.err), 0);
	render(f);
	assert_true(has(f, "<tr><td><a href=\"r/r1.html\">r1</a>: ["));
	assert_true(has(f, "<td>fix landed</td><td><code>d0f8c0aed1bf61a8111"
			"08c7b5ee32066a9b4cadf</code> in master</td><td><time "
			"datetime=\"2025-02-14T15:50:00Z\">"));
	assert_true(has(f, "<tr><td>test-1</td><td><a href=\"r/r1.html\">r1"
			"</a></td><td>tree https://git.example.test/linux.git "
			"fix-1</td><td class=\"num\">3</td><td>[address "
			"hidden]</td><td>queued</td>"));
	assert_false(has(f, "<tbody>\n</tbody>"));
	assert_false(has(f, "alice@"));
}

/*
 * The bisections (issue 33), a part shown only when there is one: each
 * with its report, phase, commits, rounds, runs of its budget, the
 * likeliest commit and its posterior, the culprit once found, or why a
 * bisection cannot be read.
 */
static void t_bisections(void **state)
{
	struct fx *f = *state;
	char sha[GIT_SHA_HEX], want[512];

	render(f);
	assert_false(has(f, "Bisections"));
	tb_bisection_add(f->w.st, "r1", 0, TW_T0);
	tb_bisection_add(f->w.st, "r2", 2, TW_T0);
	assert_int_equal(state_bisection_add(f->w.st, "bisect-r3", "r3",
					     "search", "{", "/j", NULL,
					     TW_T0 + 3600, TW_T0, &f->w.err),
			 0);
	render(f);
	assert_true(has(f, "<h2>Bisections</h2>"));
	assert_true(has(f, "<td><a href=\"r/r1.html\">r1</a></td>"
			"<td>aim7.jobs-per-min</td><td>search</td>"
			"<td class=\"num\">3</td><td class=\"num\">0</td>"
			"<td class=\"num\">0 of 80</td><td><code>"));
	assert_true(has(f, "<td>culprit</td><td class=\"num\">3</td><td "
			"class=\"num\">2</td><td class=\"num\">12 of 80</td>"
			"<td><code>"));
	assert_true(has(f, "</code></td><td class=\"num\">0.3333</td>"));
	tb_sha(sha, 2);
	snprintf(want, sizeof(want), "</td><td><code>%s</code></td></tr>",
		 sha);
	assert_true(has(f, want));
	assert_true(has(f, "<td><a href=\"r/r3.html\">r3</a></td><td></td>"
			"<td>unreadable</td>"));
	assert_true(has(f, "<td>bisect: "));
}

static void request_of(struct fx *f, const char *id, const char *kind,
		       const char *report, const char *commit)
{
	struct request_new rq = {
		.request_id = id, .kind = kind, .report_id = report,
		.runs = 5, .commit = commit, .deadline = TW_T0 + 3600,
	};

	assert_int_equal(state_request_add(f->w.st, &rq, TW_T0, &f->w.err), 0);
}

/*
 * Issue 30: the runs on landed fixes (in flight and over) and the
 * confirmations that are over are listed as the retests and tests are;
 * a confirmation in flight is not among those over.
 */
static void t_verifies_confirmations(void **state)
{
	struct fx *f = *state;

	request_of(f, "vf-1", "verify", "r1",
		   "d0f8c0aed1bf61a811108c7b5ee32066a9b4cadf");
	request_of(f, "vf-2", "verify", "r2", NULL);
	assert_int_equal(state_request_set(f->w.st, "vf-2", "done", "fixed",
					   NULL, TW_T0 + 120, &f->w.err), 0);
	request_of(f, "cf-1", "confirm", "r3", NULL);
	assert_int_equal(state_request_set(f->w.st, "cf-1", "done",
					   "not reproduced", "no change",
					   TW_T0 + 60, &f->w.err), 0);
	request_of(f, "cf-2", "confirm", "r4", NULL);
	render(f);
	assert_true(has(f, "<h2>Runs on landed fixes</h2>\n<div"));
	assert_true(has(f, "<tr><td>vf-1</td><td><a href=\"r/r1.html\">r1"
			"</a></td><td><code>d0f8c0aed1bf61a811108c7b5ee32066a9b4"
			"cadf</code></td><td class=\"num\">5</td><td>queued"
			"</td><td></td><td><time "));
	assert_true(has(f, "<tr><td>vf-2</td><td><a href=\"r/r2.html\">r2"
			"</a></td><td></td><td class=\"num\">5</td><td>done"
			"</td><td>fixed</td>"));
	assert_true(has(f, "<h2>Confirmations over</h2>\n<div"));
	assert_true(has(f, "<tr><td>cf-1</td><td><a href=\"r/r3.html\">r3"
			"</a></td><td class=\"num\">5</td><td>done</td><td>"
			"not reproduced</td><td>no change</td><td><time "
			"datetime=\"2025-02-14T15:49:00Z\">"));
	assert_false(has(f, "<tr><td>cf-2</td>"));
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(t_status),
		T(t_empty),
		T(t_regressions_tests),
		T(t_bisections),
		T(t_verifies_confirmations),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
