// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/web/statuspage.c: status.html, what 'perfbot
 * status' shows: the counts, the queued mail with its next attempt and
 * last error, the failures with their reasons, the retests in flight with
 * a link to their report, the mailbox; no address, no state path.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "perfbot/web/statuspage.h"

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
	struct retest_request rq = { "rt-1", "r1", 4, "alice@example.test",
				     "m@x", "{}", "queued", 6, 6,
				     TW_T0 + 3600, NULL };
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
	assert_int_equal(state_retest_add(f->w.st, &rq, TW_T0, &f->w.err), 0);
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

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(t_status),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
