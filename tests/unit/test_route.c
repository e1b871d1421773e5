// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/act/route.c: each route a parsed mail of
 * fixtures/mail/ takes (a bounce of a report and of nothing, a robot's
 * mail, the bot's own, no Message-ID, no commands, commands in a thread
 * of no report and of a report), the thread looked up the closest first,
 * and the answer's thread built from the reply. The reports are mails
 * queued in a temporary state. Run from the repository root.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "perfbot/act/dispatch.h"
#include "perfbot/act/route.h"
#include "perfbot/state/outbox.h"
#include "perfbot/state/inbox.h"

#include "testutil.h"
#include "teststate.h"

#define T0 1710500000
#define REPORT_ID "hackbench-pipe"
#define REPORT_MSGID "202403151058.7048f6a8-lkp@example.org"
#define OTHER_MSGID "other-report@example.org"
#define BOT "lkp@example.org"
#define BOT_SIGNATURE "perfbot performance test service\n"

struct fx {
	char dir[64];
	char db[128];
	struct state *st;
	int open;
	struct reply r;
	struct route rt;
	struct pb_err err;
};

static int setup(void **state)
{
	struct fx *f = TU_NEW_FX(struct fx, "test_route");

	if (!f)
		return -1;
	tu_path(f->db, sizeof(f->db), f->dir, "perfbot.db");
	if (tu_state_open(&f->st, f->db, STATE_WRITE, &f->err)) {
		fprintf(stderr, "setup: %s\n", f->err.msg);
		return -1;
	}
	f->open = 1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	route_release(&f->rt);
	reply_release(&f->r);
	if (f->open)
		state_close(f->st);
	tu_rmtree(f->dir);
	free(f);
	return 0;
}

/* A report mail of the bot with this Message-ID, in the outbox. */
static void report(struct fx *f, const char *id, const char *msgid)
{
	static const char msg[] = "Subject: x\n\nreport\n";
	struct outbox_mail m = { 0 };

	m.id = (char *)id;
	m.kind = "report";
	m.message_id = (char *)msgid;
	m.sender = BOT;
	m.recipients = "[\"paul@example.test\"]";
	m.message = (char *)msg;
	m.len = sizeof(msg) - 1;
	if (state_queue(f->st, &m, NULL, NULL, NULL, "[linux-next:master] report", T0,
			&f->err))
		fail_msg("state_queue: %s", f->err.msg);
}

static void parse_text(struct fx *f, const char *raw, size_t len)
{
	struct reply_opts o = { "#perfbot", command_lookup };

	reply_release(&f->r);
	if (reply_parse(raw, len, &o, &f->r, &f->err))
		fail_msg("reply_parse: %s", f->err.msg);
}

static void parse_str(struct fx *f, const char *raw)
{
	parse_text(f, raw, strlen(raw));
}

/* Parse fixtures/mail/<name>; without its 'drop' header line if set. */
static void parse_fixture(struct fx *f, const char *name, const char *drop)
{
	char path[256];
	struct strbuf sb;
	char *p, *e;

	tu_path(path, sizeof(path), "fixtures/mail", name);
	tu_read_text(path, &sb);
	if (drop && (p = strstr(sb.buf, drop))) {
		e = strchr(p, '\n');
		assert_non_null(e);
		memmove(p, e + 1, strlen(e + 1) + 1);
		sb.len = strlen(sb.buf);
	}
	parse_text(f, sb.buf, sb.len);
	sb_release(&sb);
}

/* Route the parsed mail; the bot's address is 'own' (or none). */
static enum route_kind route(struct fx *f, const char *own)
{
	struct route_self self = { (char *)own, "example.org",
				   (char *)BOT_SIGNATURE, (char *)"Hi" };

	route_release(&f->rt);
	if (route_reply(f->st, &f->r, &self, &f->rt, &f->err))
		fail_msg("route_reply: %s", f->err.msg);
	return f->rt.kind;
}

static void t_bounce(void **state)
{
	struct fx *f = *state;

	parse_fixture(f, "dsn.eml", NULL);
	assert_int_equal(route(f, BOT), ROUTE_BOUNCE);
	assert_false(f->rt.found);
	assert_null(f->rt.tr.report_id);
	assert_string_equal(f->rt.outcome, "bounce: of no mail of the bot");
	report(f, REPORT_ID, REPORT_MSGID);
	assert_int_equal(route(f, BOT), ROUTE_BOUNCE);
	assert_true(f->rt.found);
	assert_string_equal(f->rt.tr.report_id, REPORT_ID);
	assert_string_equal(f->rt.outcome,
			    "bounce: recorded against the report");
	/* a DSN is a bounce even with the report's id quoted in it */
	parse_fixture(f, "dsn-rfc822.eml", NULL);
	assert_int_equal(route(f, BOT), ROUTE_BOUNCE);
	/* a mail gateway's plain text holding the report is one too */
	parse_str(f, "From: mail-gateway@mx.example.test\nSubject: blocked\n"
		  "Message-ID: <gw@mx.example.test>\nIn-Reply-To: <"
		  REPORT_MSGID ">\n\nNot delivered:\n\nMessage-ID: <"
		  REPORT_MSGID ">\nSubject: report\n\nhelp\n");
	assert_int_equal(route(f, BOT), ROUTE_BOUNCE);
	assert_true(f->rt.found);
	assert_string_equal(f->rt.tr.report_id, REPORT_ID);
}

static void t_robot(void **state)
{
	struct fx *f = *state;

	report(f, REPORT_ID, REPORT_MSGID);
	parse_fixture(f, "out-of-office.eml", NULL);
	assert_int_equal(route(f, BOT), ROUTE_ROBOT);
	assert_memory_equal(f->rt.outcome, "ignored: ", 9);
	assert_true(strlen(f->rt.outcome) > 9);
	assert_null(f->rt.tr.report_id);
	/* the bot's own address is never answered */
	parse_fixture(f, "prefixed-help.eml", NULL);
	assert_int_equal(route(f, "PAUL@example.test"), ROUTE_ROBOT);
	assert_int_equal(route(f, NULL), ROUTE_REPORT);
}

/* The bot's answer as a list relays it back: From rewritten, no
 * Auto-Submitted, a footer; 'msgid' its Message-ID, 'sig' its signature. */
static void relayed(struct fx *f, const char *msgid, const char *sig)
{
	char raw[2048];
	int n = snprintf(raw, sizeof(raw),
		"Return-Path: <list-bounces@lists.example.test>\n"
		"From: \"perfbot via list\" <list@lists.example.test>\n"
		"Message-ID: <%s>\nIn-Reply-To: <" REPORT_MSGID ">\n"
		"Subject: Re: report\n\nHi Paul,\n\nCommands I understand:\n"
		"\n  help\n\n-- \n%s\n_______________\nlist mailing list\n",
		msgid, sig);

	parse_text(f, raw, (size_t)n);
}

/*
 * The bot's own mail come back never routes to an answer: its Message-ID
 * (in the outbox, or of its shape on its domain), or its signature.
 */
static void t_own_mail(void **state)
{
	struct fx *f = *state;

	report(f, REPORT_ID, REPORT_MSGID);
	report(f, "answer-1", "a1@example.org");
	relayed(f, "a1@example.org", "somebody else");
	assert_int_equal(route(f, BOT), ROUTE_ROBOT);
	assert_string_equal(f->rt.outcome, "ignored: the bot's own mail (its "
			    "Message-ID)");
	relayed(f, "202502141548.0badcafe-perfbot@EXAMPLE.org", "Jane");
	assert_int_equal(route(f, BOT), ROUTE_ROBOT);
	assert_string_equal(f->rt.outcome, "ignored: the bot's own mail (its "
			    "Message-ID)");
	relayed(f, "new-1@lists.example.test", "perfbot performance test "
		"service");
	assert_int_equal(route(f, BOT), ROUTE_ROBOT);
	assert_string_equal(f->rt.outcome, "ignored: the bot's own text (its "
			    "signature)");
	/* somebody else's: routed as any reply */
	relayed(f, "new-2@lists.example.test", "Paul");
	assert_int_equal(route(f, BOT), ROUTE_REPORT);
	/* a reply with the bot's answer appended without a mark opens with
	 * its sender's own words */
	parse_str(f, "From: paul@example.test\nMessage-ID: <p9@example.test>\n"
		  "In-Reply-To: <" REPORT_MSGID ">\n\nretest 4x\n\nHi Paul,\n\n"
		  "I queued 4 more runs.\n\n-- \nperfbot performance test "
		  "service\n");
	assert_int_equal(route(f, BOT), ROUTE_REPORT);
	relayed(f, "202502141548.0badcafe-perfbot@example.net", "Paul");
	assert_int_equal(route(f, BOT), ROUTE_REPORT);
}

/* route_self_init(): the bot's address and its signature's lines. */
static void t_self(void **state)
{
	struct fx *f = *state;
	struct route_self self;
	struct config cfg;
	char path[128];
	int loaded = 0;

	tu_load_config(&cfg, &loaded, tu_path(path, sizeof(path), f->dir,
					      "perfbot.yaml"),
		       "identity:\n  from: \"Bot <Bot@Example.org>\"\n"
		       "  name: robbie\n  message_id_domain: example.org\n",
		       &f->err);
	assert_int_equal(route_self_init(&self, &cfg, &f->err), 0);
	assert_string_equal(self.addr, "Bot@Example.org");
	assert_string_equal(self.id_domain, "example.org");
	assert_string_equal(self.signature, "robbie performance test "
			    "service\nReply with a line 'retest', 'test' or "
			    "'help' and it answers in this thread.\n");
	assert_string_equal(self.greeting, "Hi");
	route_self_release(&self);
	route_self_release(&self);
	assert_null(self.addr);
	/* templates that cannot be rendered leave the text unknown, no more:
	 * the poll goes on and each answer fails on its own */
	tu_load_config(&cfg, &loaded, path, "templates:\n  dir: /nonexistent\n",
		       &f->err);
	assert_int_equal(route_self_init(&self, &cfg, &f->err), 0);
	assert_non_null(self.addr);
	assert_null(self.signature);
	assert_null(self.greeting);
	route_self_release(&self);
	config_release(&cfg);
}

static void t_no_message_id(void **state)
{
	struct fx *f = *state;

	report(f, REPORT_ID, REPORT_MSGID);
	parse_fixture(f, "prefixed-help.eml", "Message-ID:");
	assert_null(f->r.message_id);
	assert_int_equal(route(f, BOT), ROUTE_NO_ID);
	assert_string_equal(f->rt.outcome, "ignored: no Message-ID");
}

static void t_no_commands(void **state)
{
	struct fx *f = *state;

	report(f, REPORT_ID, REPORT_MSGID);
	parse_fixture(f, "prose.eml", NULL);
	assert_int_equal(route(f, BOT), ROUTE_NO_COMMANDS);
	assert_string_equal(f->rt.outcome, "no commands");
	parse_fixture(f, "quoted-only.eml", NULL);
	assert_int_equal(route(f, BOT), ROUTE_NO_COMMANDS);
}

static void t_commands(void **state)
{
	struct fx *f = *state;

	parse_fixture(f, "prefixed-help.eml", NULL);
	assert_int_equal(route(f, BOT), ROUTE_NO_REPORT);
	assert_null(f->rt.tr.report_id);
	report(f, REPORT_ID, REPORT_MSGID);
	assert_int_equal(route(f, BOT), ROUTE_REPORT);
	assert_string_equal(f->rt.tr.report_id, REPORT_ID);
	assert_string_equal(f->rt.tr.subject, "[linux-next:master] report");
	assert_string_equal(f->rt.tr.recipients, "[\"paul@example.test\"]");
	/* found through References alone */
	parse_fixture(f, "prefixed-help.eml", "In-Reply-To:");
	assert_null(f->r.in_reply_to);
	assert_int_equal(route(f, BOT), ROUTE_REPORT);
	assert_string_equal(f->rt.tr.report_id, REPORT_ID);
}

/*
 * Issue 21 item 3: a thread that holds a Message-ID of the bot's shape the
 * state does not know (a fresh or reset state on an old mailbox) is no
 * "no report" case: it is not answered at all.
 */
static void t_lost_thread(void **state)
{
	struct fx *f = *state;
	char raw[512];

	snprintf(raw, sizeof(raw), "From: Paul <paul@example.test>\n"
		 "Message-ID: <lost-1@example.test>\n"
		 "In-Reply-To: <202502141548.7c8c84477c8c8447-perfbot@"
		 "example.org>\nSubject: Re: [linux-next:master] report\n\n"
		 "retest\n");
	parse_str(f, raw);
	assert_int_equal(route(f, BOT), ROUTE_LOST);
	assert_string_equal(f->rt.outcome, "ignored: a thread of the bot's "
			    "mail the state does not know");
	/* found through References too, an older id of 8 hex digits */
	snprintf(raw, sizeof(raw), "From: Paul <paul@example.test>\n"
		 "Message-ID: <lost-2@example.test>\n"
		 "References: <202502141548.7c8c8447-perfbot@example.org> "
		 "<x@example.test>\nIn-Reply-To: <x@example.test>\n"
		 "Subject: Re: report\n\nretest\n");
	parse_str(f, raw);
	assert_int_equal(route(f, BOT), ROUTE_LOST);
	/* another domain's ids are no thread of this bot's */
	snprintf(raw, sizeof(raw), "From: Paul <paul@example.test>\n"
		 "Message-ID: <lost-3@example.test>\n"
		 "In-Reply-To: <202502141548.7c8c8447-perfbot@example.net>\n"
		 "Subject: Re: report\n\nretest\n");
	parse_str(f, raw);
	assert_int_equal(route(f, BOT), ROUTE_NO_REPORT);
}

/* In-Reply-To first, then References from the newest. */
static void t_closest_first(void **state)
{
	struct fx *f = *state;
	const char *refs[] = { REPORT_MSGID, OTHER_MSGID, "stranger@x.test" };
	struct thread_report tr = { 0 };
	int found = 0;

	report(f, REPORT_ID, REPORT_MSGID);
	report(f, "other", OTHER_MSGID);
	assert_int_equal(route_lookup(f->st, NULL, refs, 3, &tr, &found,
				      &f->err), 0);
	assert_true(found);
	assert_string_equal(tr.report_id, "other");
	thread_report_release(&tr);
	assert_int_equal(route_lookup(f->st, REPORT_MSGID, refs, 3, &tr,
				      &found, &f->err), 0);
	assert_string_equal(tr.report_id, REPORT_ID);
	thread_report_release(&tr);
	assert_int_equal(route_lookup(f->st, "stranger@x.test", refs + 2, 1,
				      &tr, &found, &f->err), 0);
	assert_false(found);
	thread_report_release(&tr);
}

static void t_thread(void **state)
{
	struct fx *f = *state;
	struct answer_thread t;

	report(f, REPORT_ID, REPORT_MSGID);
	parse_fixture(f, "prefixed-help.eml", NULL);
	assert_int_equal(route(f, BOT), ROUTE_REPORT);
	route_thread(&f->r, &f->rt.tr, &t);
	assert_string_equal(t.message_id, "help-5@paul.example.test");
	assert_string_equal(t.in_reply_to, REPORT_MSGID);
	assert_int_equal(t.nrefs, 1);
	assert_string_equal(t.references[0], REPORT_MSGID);
	assert_string_equal(t.from_addr, "paul@example.test");
	assert_string_equal(t.from_name, "Paul Weber");
	assert_non_null(strstr(t.subject, "hackbench.throughput"));
	assert_ptr_equal(t.report, &f->rt.tr);
	route_thread(&f->r, NULL, &t);
	assert_null(t.report);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(t_bounce, setup, teardown),
		cmocka_unit_test_setup_teardown(t_robot, setup, teardown),
		cmocka_unit_test_setup_teardown(t_own_mail, setup, teardown),
		cmocka_unit_test_setup_teardown(t_self, setup, teardown),
		cmocka_unit_test_setup_teardown(t_no_message_id, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_no_commands, setup, teardown),
		cmocka_unit_test_setup_teardown(t_commands, setup, teardown),

		cmocka_unit_test_setup_teardown(t_lost_thread, setup, teardown),
		cmocka_unit_test_setup_teardown(t_closest_first, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_thread, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
