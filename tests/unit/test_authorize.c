// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/act/authorize.c and the headers it reads (reply.c):
 * the envelope sender against From, Authentication-Results of the
 * operator's MTA (only its authserv-id counts; dkim aligned with From,
 * dmarc for From, arc), commands.allow, and authorize() itself: the
 * domain rule, the authserv rule (pass, fail, absent), who may command,
 * and the budgets (per sender, to strangers) over a temporary state.
 * Run from the repository root.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "perfbot/act/authorize.h"
#include "perfbot/state/inbox.h"

#include "testutil.h"
#include "teststate.h"

#define T0 1710500000
#define RCPTS "[\"paul@example.test\",\"list@lists.example.test\"]"

static void parse(struct reply *r, const char *headers)
{
	char buf[4096];
	struct pb_err err = { 0, "" };
	int n = snprintf(buf, sizeof(buf), "%sMessage-ID: <x@example.test>\n"
			 "Subject: Re: r\n\nretest\n", headers);

	if (reply_parse(buf, (size_t)n, NULL, r, &err))
		fail_msg("reply_parse: %s", err.msg);
}

static void t_align(void **state)
{
	(void)state;
	assert_true(authorize_domains_align("example.test", "example.test"));
	assert_true(authorize_domains_align("EXAMPLE.test", "example.TEST"));
	assert_true(authorize_domains_align("lists.example.test", "example.test"));
	assert_true(authorize_domains_align("example.test", "mx.example.test"));
	assert_false(authorize_domains_align("badexample.test", "example.test"));
	assert_false(authorize_domains_align("example.test.evil", "example.test"));
	assert_false(authorize_domains_align("example.org", "example.test"));
	assert_false(authorize_domains_align("", "example.test"));
	assert_false(authorize_domains_align(NULL, "example.test"));
}

static void t_envelope(void **state)
{
	struct reply r;

	(void)state;
	parse(&r, "Return-Path: <Alice@Example.TEST>\n"
		  "From: Alice <alice@example.test>\n");
	assert_string_equal(r.envelope_addr, "alice@example.test");
	assert_true(authorize_aligned(&r));
	reply_release(&r);
	/* the top Return-Path is the delivering server's */
	parse(&r, "Return-Path: <mallory@evil.example>\n"
		  "Return-Path: <alice@example.test>\n"
		  "From: Alice <alice@example.test>\n");
	assert_string_equal(r.envelope_addr, "mallory@evil.example");
	assert_false(authorize_aligned(&r));
	reply_release(&r);
	parse(&r, "From: Alice <alice@example.test>\n");
	assert_null(r.envelope_addr);
	assert_false(authorize_aligned(&r));	/* unknown is not aligned */
	reply_release(&r);
	parse(&r, "Return-Path: <>\nFrom: Alice <alice@example.test>\n");
	assert_null(r.envelope_addr);
	assert_false(authorize_aligned(&r));
	reply_release(&r);
	parse(&r, "Return-Path: <bounce-1@lists.example.test>\n"
		  "From: Alice <alice@example.test>\n");
	assert_true(authorize_aligned(&r));
	reply_release(&r);
}

static int auth(const char *ar)
{
	struct reply r;
	char h[2048];
	int ok;

	snprintf(h, sizeof(h), "From: Alice <alice@example.test>\n%s", ar);
	parse(&r, h);
	ok = authorize_authenticated(&r, "mx.example.test");
	reply_release(&r);
	return ok;
}

static void t_auth_results(void **state)
{
	(void)state;
	assert_true(auth("Authentication-Results: mx.example.test;\n"
			 "\tdkim=pass (2048-bit key) header.d=example.test "
			 "header.s=s1\n"));
	assert_true(auth("Authentication-Results: MX.example.test 1; "
			 "spf=fail smtp.mailfrom=x; dkim=pass "
			 "header.i=@lists.example.test\n"));
	assert_true(auth("Authentication-Results: mx.example.test; "
			 "dmarc=pass (p=none) header.from=example.test\n"));
	/* an intact chain of forwarders says nothing of who wrote it */
	assert_false(auth("Authentication-Results: mx.example.test; arc=pass "
			  "(i=2)\n"));
	assert_false(auth("Authentication-Results: mx.example.test; arc=pass; "
			  "dmarc=fail header.from=example.test\n"));
	/* a dmarc failure outweighs a dkim pass beside it */
	assert_false(auth("Authentication-Results: mx.example.test; dkim=pass "
			  "header.d=example.test; dmarc=fail header.from="
			  "example.test\n"));
	/* another server's result does not count */
	assert_false(auth("Authentication-Results: evil.example; dkim=pass "
			  "header.d=example.test\n"));
	assert_false(auth("Authentication-Results: mx.example.test.evil; "
			  "dkim=pass header.d=example.test\n"));
	/* a signature of another domain, a failure, nothing */
	assert_false(auth("Authentication-Results: mx.example.test; dkim=pass "
			  "header.d=evil.example\n"));
	assert_false(auth("Authentication-Results: mx.example.test; dkim=fail "
			  "header.d=example.test\n"));
	assert_false(auth("Authentication-Results: mx.example.test; "
			  "dkim=passed header.d=example.test\n"));
	assert_false(auth("Authentication-Results: mx.example.test; none\n"));
	assert_false(auth("Authentication-Results: mx.example.test; dmarc=pass "
			  "header.from=evil.example\n"));
	assert_false(auth("Authentication-Results: mx.example.test (dkim=pass "
			  "header.d=example.test); spf=pass\n"));
	assert_false(auth(""));
	/* only the topmost header of the MTA's id counts: a lower one came
	 * with the mail */
	assert_false(auth("Authentication-Results: mx.example.test; spf=pass\n"
			  "Authentication-Results: mx.example.test; dkim=pass "
			  "header.d=example.test\n"));
	assert_false(auth("Authentication-Results: mx.example.test; dkim=fail "
			  "header.d=example.test\n"
			  "Authentication-Results: mx.example.test; dmarc=pass "
			  "header.from=example.test\n"));
	assert_true(auth("Authentication-Results: mx.example.test; dmarc=pass "
			 "header.from=example.test\n"
			 "Authentication-Results: mx.example.test; dkim=fail\n"));
	/* another id's header above it is no matter */
	assert_true(auth("Authentication-Results: other.example; dkim=fail\n"
			 "Authentication-Results: mx.example.test; dkim=pass "
			 "header.d=example.test\n"));
}

/* ---- authorize() ---- */

struct fx {
	char dir[64];
	char path[128];
	char db[128];
	struct config cfg;
	int loaded;
	struct state *st;
	int open;
	struct reply r;
	struct thread_report tr;
	struct auth au;
	struct pb_err err;
	unsigned long uid;
};

#define CONFIG \
	"commands:\n" \
	"  allow: [\"@trusted.test\", \"Boss@Example.org\"]\n" \
	"limits:\n" \
	"  per_sender_per_day: 2\n" \
	"  refusals_per_day: 3\n"

static int setup(void **state)
{
	struct fx *f = TU_NEW_FX(struct fx, "test_authorize");

	if (!f)
		return -1;
	tu_path(f->path, sizeof(f->path), f->dir, "perfbot.yaml");
	tu_path(f->db, sizeof(f->db), f->dir, "perfbot.db");
	tu_load_config(&f->cfg, &f->loaded, f->path, CONFIG, &f->err);
	if (tu_state_open(&f->st, f->db, STATE_WRITE, &f->err)) {
		fprintf(stderr, "setup: %s\n", f->err.msg);
		return -1;
	}
	f->open = 1;
	f->tr.report_id = strdup("r1");
	f->tr.subject = strdup("[tree] r1");
	f->tr.recipients = strdup(RCPTS);
	*state = f;
	return f->tr.report_id && f->tr.subject && f->tr.recipients ? 0 : -1;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	reply_release(&f->r);
	thread_report_release(&f->tr);
	if (f->open)
		state_close(f->st);
	if (f->loaded)
		config_release(&f->cfg);
	tu_rmtree(f->dir);
	free(f);
	return 0;
}

/* A reply to the report from 'from' with envelope 'env' and 'extra'. */
static void mail(struct fx *f, const char *from, const char *env,
		 const char *extra)
{
	char h[2048];

	reply_release(&f->r);
	snprintf(h, sizeof(h), "Return-Path: <%s>\nFrom: <%s>\n%s", env, from,
		 extra ? extra : "");
	parse(&f->r, h);
}

static enum auth_verdict decide(struct fx *f, int with_report)
{
	if (authorize(f->st, &f->cfg, T0, &f->r, with_report ? &f->tr : NULL,
		      &f->au, &f->err))
		fail_msg("authorize: %s", f->err.msg);
	return f->au.verdict;
}

/* Record a handled mail of 'sender' with 'outcome', as the poll does. */
static void handled(struct fx *f, const char *sender, const char *outcome)
{
	char id[64];
	struct inbox_entry e = { id, 1, 0, sender, "r1", outcome, NULL };

	e.uid = ++f->uid;
	snprintf(id, sizeof(id), "m%lu@example.test", f->uid);
	if (state_inbox_record(f->st, &e, T0 - 60, &f->err))
		fail_msg("state_inbox_record: %s", f->err.msg);
}

static void t_allow_list(void **state)
{
	struct fx *f = *state;

	assert_true(authorize_allowed(&f->cfg, "carl@trusted.test"));
	assert_true(authorize_allowed(&f->cfg, "carl@TRUSTED.test"));
	assert_true(authorize_allowed(&f->cfg, "boss@example.org"));
	assert_false(authorize_allowed(&f->cfg, "boss2@example.org"));
	assert_false(authorize_allowed(&f->cfg, "carl@untrusted.test.evil"));
	assert_false(authorize_allowed(&f->cfg, "carl@nottrusted.test"));
	assert_false(authorize_allowed(&f->cfg, "paul@example.test"));
}

static void t_who_commands(void **state)
{
	struct fx *f = *state;

	/* a recipient of the report */
	mail(f, "Paul@Example.test", "paul@example.test", NULL);
	assert_int_equal(decide(f, 1), AUTH_COMMAND);
	assert_true(f->au.tell);
	assert_false(f->au.rekey);
	assert_string_equal(f->au.outcome, "answered");
	/* commands.allow, though no recipient */
	mail(f, "carl@trusted.test", "carl@trusted.test", NULL);
	assert_int_equal(decide(f, 1), AUTH_COMMAND);
	/* anybody else is refused, and told so */
	mail(f, "eve@example.net", "eve@example.net", NULL);
	assert_int_equal(decide(f, 1), AUTH_REFUSE);
	assert_true(f->au.tell);
	assert_string_equal(f->au.outcome, AUTH_OUT_REFUSED);
	/* no report in the thread */
	assert_int_equal(decide(f, 0), AUTH_NOREPORT);
	assert_true(f->au.tell);
	assert_string_equal(f->au.outcome, AUTH_OUT_NOREPORT);
}

static void t_domain_rule(void **state)
{
	struct fx *f = *state;

	mail(f, "paul@example.test", "mallory@evil.example", NULL);
	assert_int_equal(decide(f, 1), AUTH_IGNORE);
	assert_false(f->au.tell);
	assert_true(f->au.rekey);
	assert_string_equal(f->au.outcome, "ignored: From and the envelope "
			    "sender are in different domains");
	/* a list's envelope in a subdomain is the same domain */
	mail(f, "paul@example.test", "bounce-7@lists.example.test", NULL);
	assert_int_equal(decide(f, 1), AUTH_COMMAND);
	/* commands.allow says who may command, not that a mail is theirs:
	 * the envelope must agree for them too */
	mail(f, "carl@trusted.test", "bounce@other.example", NULL);
	assert_int_equal(decide(f, 1), AUTH_IGNORE);
	assert_true(f->au.rekey);
	assert_string_equal(f->au.outcome, "ignored: From and the envelope "
			    "sender are in different domains");
	mail(f, "boss@example.org", "mallory@evil.test", NULL);
	assert_int_equal(decide(f, 1), AUTH_IGNORE);
	assert_int_equal(decide(f, 0), AUTH_IGNORE);
	mail(f, "carl@trusted.test", "carl@trusted.test", NULL);
	assert_int_equal(decide(f, 1), AUTH_COMMAND);
	assert_false(f->au.rekey);
}

/*
 * A mailing list never commands and is never answered: its relayed copy
 * (List-Id, X-Mailing-List, its bounces envelope), a From that is a list
 * (recipients.cc, or by name, or a report recipient a list rewrote into
 * "Name via list"); the copy is recorded under its mailbox position.
 */
static void t_lists_never_command(void **state)
{
	static const struct {
		const char *from, *env, *extra, *outcome;
	} c[] = {
		{ "paul@example.test", "paul@example.test",
		  "List-Id: <perf.lists.example.test>\n",
		  "ignored: came through a mailing list (List-Id)" },
		{ "paul@example.test", "paul@example.test",
		  "X-Mailing-List: linux-kernel@vger.kernel.org\n",
		  "ignored: came through a mailing list (List-Id)" },
		{ "paul@example.test", "list-bounces@example.test", NULL,
		  "ignored: the envelope sender 'list-bounces@example.test' "
		  "is a mailing list's" },
		{ "paul@example.test", "linux-kernel+bounces-1-paul=example."
		  "test@example.test", NULL, NULL },
		{ "list@lists.example.test", "list@lists.example.test", NULL,
		  "ignored: From 'list@lists.example.test' is a mailing "
		  "list" },
		{ "perf@example.test", "perf@example.test", NULL,
		  "ignored: From 'perf@example.test' is a mailing list" },
		{ "\"Mallory via list\" <paul@example.test>",
		  "paul@example.test", NULL, "ignored: From rewritten by a "
		  "mailing list ('Mallory via list')" },
	};
	struct fx *f = *state;
	size_t i;

	tu_load_config(&f->cfg, &f->loaded, f->path, CONFIG
		       "recipients:\n  cc: [\"Perf <PERF@example.test>\"]\n",
		       &f->err);
	free(f->tr.recipients);
	f->tr.recipients = strdup("[\"paul@example.test\",\"list@lists."
				  "example.test\",\"perf@example.test\"]");
	assert_non_null(f->tr.recipients);
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		char h[512];

		reply_release(&f->r);
		snprintf(h, sizeof(h), strchr(c[i].from, '<') ?
			 "Return-Path: <%s>\nFrom: %s\n%s" :
			 "Return-Path: <%s>\nFrom: <%s>\n%s", c[i].env,
			 c[i].from, c[i].extra ? c[i].extra : "");
		parse(&f->r, h);
		assert_int_equal(decide(f, 1), AUTH_IGNORE);
		assert_false(f->au.tell);
		assert_true(f->au.rekey);
		if (c[i].outcome)
			assert_string_equal(f->au.outcome, c[i].outcome);
		/* nor is it told that there is no report */
		assert_int_equal(decide(f, 0), AUTH_IGNORE);
	}
	/* the same person straight to the bot commands */
	mail(f, "paul@example.test", "paul@example.test", NULL);
	assert_int_equal(decide(f, 1), AUTH_COMMAND);
}

static void t_authserv(void **state)
{
	struct fx *f = *state;

	tu_load_config(&f->cfg, &f->loaded, f->path,
		       "commands:\n  authserv_id: mx.example.test\n", &f->err);
	/* pass */
	mail(f, "paul@example.test", "paul@example.test",
	     "Authentication-Results: mx.example.test; dkim=pass "
	     "header.d=example.test\n");
	assert_int_equal(decide(f, 1), AUTH_COMMAND);
	/* fail */
	mail(f, "paul@example.test", "paul@example.test",
	     "Authentication-Results: mx.example.test; dkim=fail "
	     "header.d=example.test\n");
	assert_int_equal(decide(f, 1), AUTH_IGNORE);
	assert_true(f->au.rekey);
	assert_string_equal(f->au.outcome, "ignored: no passing DKIM or DMARC "
			    "result from 'mx.example.test'");
	/* absent, or another server's */
	mail(f, "paul@example.test", "paul@example.test", NULL);
	assert_int_equal(decide(f, 1), AUTH_IGNORE);
	mail(f, "paul@example.test", "paul@example.test",
	     "Authentication-Results: evil.example; dkim=pass "
	     "header.d=example.test\n");
	assert_int_equal(decide(f, 1), AUTH_IGNORE);
	/* without authserv_id nothing is asked of the MTA */
	tu_load_config(&f->cfg, &f->loaded, f->path, CONFIG, &f->err);
	assert_int_equal(decide(f, 1), AUTH_COMMAND);
}

static void t_per_sender_budget(void **state)
{
	struct fx *f = *state;

	mail(f, "paul@example.test", "paul@example.test", NULL);
	handled(f, "paul@example.test", "answered");
	handled(f, "jane@example.test", "answered");
	handled(f, "jane@example.test", "answered");
	assert_int_equal(decide(f, 1), AUTH_COMMAND);
	handled(f, "paul@example.test", "answered: no report in this thread");
	assert_int_equal(decide(f, 1), AUTH_IGNORE);
	assert_false(f->au.rekey);
	assert_string_equal(f->au.outcome,
			    "ignored: limits.per_sender_per_day reached");
	/* a day later the budget is back */
	assert_int_equal(authorize(f->st, &f->cfg, T0 + 24 * 3600, &f->r,
				   &f->tr, &f->au, &f->err), 0);
	assert_int_equal(f->au.verdict, AUTH_COMMAND);
}

static void t_stranger_budget(void **state)
{
	struct fx *f = *state;

	mail(f, "eve@example.net", "eve@example.net", NULL);
	assert_int_equal(decide(f, 1), AUTH_REFUSE);
	assert_true(f->au.tell);
	/* once a day per sender */
	handled(f, "eve@example.net", AUTH_OUT_REFUSED);
	assert_int_equal(decide(f, 1), AUTH_REFUSE);
	assert_false(f->au.tell);
	assert_string_equal(f->au.outcome, "refused (already told today)");
	/* "no report" answers have their own daily one */
	assert_int_equal(decide(f, 0), AUTH_NOREPORT);
	assert_true(f->au.tell);
	handled(f, "eve@example.net", AUTH_OUT_NOREPORT);
	assert_int_equal(decide(f, 0), AUTH_IGNORE);
	assert_false(f->au.tell);
	assert_string_equal(f->au.outcome, "ignored: no report in this thread "
			    "(already told today)");
	/* limits.refusals_per_day (3) counts both, for everybody */
	mail(f, "zed@example.net", "zed@example.net", NULL);
	assert_int_equal(decide(f, 1), AUTH_REFUSE);
	assert_true(f->au.tell);
	handled(f, "ann@example.net", AUTH_OUT_REFUSED);
	assert_int_equal(decide(f, 1), AUTH_REFUSE);
	assert_false(f->au.tell);
	assert_string_equal(f->au.outcome,
			    "refused (limits.refusals_per_day reached)");
	assert_int_equal(decide(f, 0), AUTH_IGNORE);
	/* one who may command is never held by it */
	mail(f, "paul@example.test", "paul@example.test", NULL);
	assert_int_equal(decide(f, 1), AUTH_COMMAND);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_align),
		cmocka_unit_test(t_envelope),
		cmocka_unit_test(t_auth_results),
		cmocka_unit_test_setup_teardown(t_allow_list, setup, teardown),
		cmocka_unit_test_setup_teardown(t_who_commands, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_domain_rule, setup, teardown),
		cmocka_unit_test_setup_teardown(t_lists_never_command, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_authserv, setup, teardown),
		cmocka_unit_test_setup_teardown(t_per_sender_budget, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_stranger_budget, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
