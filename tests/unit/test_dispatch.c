// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/act/dispatch.c: the one command table (every entry
 * has its parse, check and act; the syntax step finds its names), the
 * help answer listing exactly the table, a line that is no command, and
 * the limits of acting: limits.max_runs (the check step),
 * limits.retests_per_report and an open retest (the act step),
 * limits.commands_per_mail; then the answers queued for each verdict. Templates come
 * from templates/, the state is temporary. Run from the repository root.
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
#include "perfbot/state/requests.h"
#include "perfbot/state/outbox.h"
#include "perfbot/state/inbox.h"

#include "testutil.h"
#include "teststate.h"

#define T0 1710500000
#define CONFIG \
	"identity:\n" \
	"  from: \"perfbot <perfbot@example.test>\"\n" \
	"  message_id_domain: example.test\n" \
	"limits:\n" \
	"  commands_per_mail: 2\n" \
	"  retests_per_report: 2\n" \
	"  max_runs: 5\n"

struct fx {
	char dir[64];
	char path[128];
	char db[128];
	struct config cfg;
	int loaded;
	struct state *st;
	int open;
	struct thread_report tr;
	struct answer_thread t;
	struct act_ctx a;
	struct mail_command cmds[4];
	struct pb_err err;
};

static int setup(void **state)
{
	struct fx *f = TU_NEW_FX(struct fx, "test_dispatch");
	static const char *const refs[] = { "report-1@example.test" };

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
	f->tr.recipients = strdup("[\"paul@example.test\"]");
	f->tr.message_id = strdup(refs[0]);
	f->t = (struct answer_thread){ .message_id = "ask-1@example.test",
				       .in_reply_to = refs[0],
				       .references = refs, .nrefs = 1,
				       .subject = "Re: [tree] r1",
				       .from_addr = "paul@example.test",
				       .from_name = "Paul", .report = &f->tr };
	f->a = (struct act_ctx){ .st = f->st, .cfg = &f->cfg, .now = T0,
				 .t = &f->t, };
	*state = f;
	return f->tr.report_id && f->tr.subject &&
		f->tr.recipients && f->tr.message_id ? 0 : -1;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	answer_pieces_release(&f->a.pieces);
	thread_report_release(&f->tr);
	if (f->open)
		state_close(f->st);
	if (f->loaded)
		config_release(&f->cfg);
	tu_rmtree(f->dir);
	free(f);
	return 0;
}

/* cmds[i] = 'line' as the syntax step reads it. */
static void command(struct fx *f, size_t i, const char *line)
{
	if (command_parse_line(line, strlen(line), "#perfbot", command_lookup,
			       &f->cmds[i]) != 1)
		fail_msg("'%s' is no command", line);
}

/* No line of 'text' is a command, with or without the prefix. */
static void assert_no_command_line(const char *text)
{
	struct mail_command c;
	const char *p = text, *nl;

	for (; *p; p = nl ? nl + 1 : p + strlen(p)) {
		nl = strchr(p, '\n');
		if (command_parse_line(p, nl ? (size_t)(nl - p) : strlen(p),
				       "#perfbot", command_lookup, &c))
			fail_msg("a command line in an answer: '%.*s'",
				 (int)(nl ? nl - p : (long)strlen(p)), p);
	}
}

/* Act on the first 'n' commands ('seen' found); the pieces made. */
static size_t act(struct fx *f, size_t n, size_t seen)
{
	answer_pieces_release(&f->a.pieces);
	if (dispatch_commands(&f->a, f->cmds, n, seen, &f->err))
		fail_msg("dispatch_commands: %s", f->err.msg);
	return f->a.pieces.n;
}

static const char *piece(struct fx *f, size_t i)
{
	const char *s = i < f->a.pieces.n ? f->a.pieces.v[i] : NULL;

	assert_non_null(s);
	return s;
}

/* A retest of report r1 asked at 'when'. */
static void retest_at(struct fx *f, const char *rid, const char *status,
		      time_t when)
{
	struct request_new rq = {
		.request_id = rid, .kind = "retest", .report_id = "r1",
		.runs = 2, .requested_by = "paul@example.test",
		.reply_message_id = "ask-0@example.test", .status = status,
		.base_runs = 4, .head_runs = 4, .deadline = T0 + 3600,
	};

	if (state_request_add(f->st, &rq, when, &f->err))
		fail_msg("state_request_add: %s", f->err.msg);
}

static void retest_row(struct fx *f, const char *rid, const char *status)
{
	retest_at(f, rid, status, T0 - 60);
}

static void t_table(void **state)
{
	size_t i, k;

	(void)state;
	assert_int_equal(command_count, 12);
	for (i = 0; i < command_count; i++) {
		const struct command_def *d = &command_table[i];

		assert_non_null(d->name);
		assert_non_null(d->usage);
		assert_non_null(d->summary);
		assert_non_null(d->parse);
		assert_non_null(d->check);
		assert_non_null(d->act);
		assert_int_not_equal(d->kind, CMD_UNKNOWN);
		assert_ptr_equal(command_by_kind(d->kind), d);
		assert_ptr_equal(command_by_name(d->name, strlen(d->name)), d);
		for (k = 0; k < i; k++)
			assert_int_not_equal(command_table[k].kind, d->kind);
	}
	assert_ptr_equal(command_by_name("RETEST", 6), command_by_kind(
			 CMD_RETEST));
	assert_string_equal(command_by_kind(CMD_RETEST)->usage, "retest [N]x");
	assert_string_equal(command_by_kind(CMD_HELP)->name, "help");
	assert_null(command_by_name("retes", 5));
	assert_null(command_by_name("frobnicate", 10));
	assert_null(command_by_kind(CMD_UNKNOWN));
}

/* The syntax step reads a command's words through the table. */
static void t_parse_by_table(void **state)
{
	struct fx *f = *state;
	struct mail_command c;

	command(f, 0, "Retest 3x");
	assert_int_equal(f->cmds[0].kind, CMD_RETEST);
	assert_int_equal(f->cmds[0].runs, 3);
	command(f, 0, "#perfbot: help");
	assert_int_equal(f->cmds[0].kind, CMD_HELP);
	command(f, 0, "#perfbot help me");
	assert_int_equal(f->cmds[0].kind, CMD_UNKNOWN);
	assert_int_equal(command_parse_line("help me", 7, "#perfbot", command_lookup, &c), 0);
	assert_int_equal(command_parse_line("retest 0x", 9, NULL, command_lookup, &c), 0);
}

static void t_help_lists_the_table(void **state)
{
	struct fx *f = *state;
	struct strbuf want = STRBUF_INIT;
	const char *p;
	size_t i, lines = 0;

	command(f, 0, "help");
	assert_int_equal(act(f, 1, 1), 1);
	p = piece(f, 0);
	for (i = 0; i < command_count; i++)
		assert_int_equal(sb_addf(&want, "  - %s: %s\n",
					 command_table[i].usage,
					 command_table[i].summary), 0);
	if (!strstr(p, sb_str(&want)))
		fail_msg("help does not list the table:\n%s", p);
	sb_release(&want);
	/* and nothing else: one "  - usage" line per entry */
	for (; (p = strstr(p, "\n  - ")); p++)
		lines++;
	assert_int_equal(lines, command_count);
	assert_non_null(strstr(piece(f, 0), "up to 5 more times"));
	/* no line of it is a command, "help" least of all */
	assert_no_command_line(piece(f, 0));
}

static void t_unknown(void **state)
{
	struct fx *f = *state;
	size_t i;

	command(f, 0, "#perfbot frobnicate now");
	assert_int_equal(act(f, 1, 1), 1);
	assert_non_null(strstr(piece(f, 0), "I do not know the command "
			       "\"#perfbot frobnicate now\""));
	for (i = 0; i < command_count; i++)
		assert_non_null(strstr(piece(f, 0), command_table[i].usage));
	assert_no_command_line(piece(f, 0));
}

static void t_max_runs(void **state)
{
	struct fx *f = *state;
	char why[128];

	command(f, 0, "retest 6x");
	assert_int_equal(act(f, 1, 1), 1);
	assert_string_equal(piece(f, 0), "I could not do \"retest 6x\": "
			    "retest: N must be between 2 and 5.\n");
	assert_int_equal(command_check(&f->cmds[0], &(struct command_limits){
					 6 }, why, sizeof(why)), 0);
	/* nothing was asked of the farm */
	{
		struct request *rows = NULL;
		size_t n = 1;

		assert_int_equal(state_requests_open(f->st, NULL, &rows, &n,
						     &f->err), 0);
		assert_int_equal(n, 0);
		request_rows_free(rows, n);
	}
}

static void t_retests_per_report(void **state)
{
	struct fx *f = *state;

	command(f, 0, "retest 2x");
	retest_row(f, "rt-a", "done");
	retest_row(f, "rt-b", "queued");
	assert_int_equal(act(f, 1, 1), 1);
	assert_non_null(strstr(piece(f, 0), "A retest of this report is "
			       "already queued"));
	assert_int_equal(state_request_set(f->st, "rt-b", "done", NULL, NULL,
					   T0, &f->err), 0);
	assert_int_equal(act(f, 1, 1), 1);
	assert_non_null(strstr(piece(f, 0), "This report has had its 2 "
			       "retests already"));
}

/*
 * A sender's bisections of the last day, of any report, count against
 * limits.bisects_per_sender_per_day, as a test's do; an older one does
 * not.
 */
static void t_bisects_per_sender(void **state)
{
	struct fx *f = *state;
	struct strbuf y = STRBUF_INIT;
	struct request_new rq = { .request_id = "bisect-old", .kind = "bisect",
				  .report_id = "other",
				  .requested_by = "paul@example.test",
				  .deadline = T0 + 3600 };

	assert_int_equal(sb_addf(&y, CONFIG "  bisects_per_sender_per_day: 1\n"
				 "tracking:\n  repo: %s\nscheduler:\n"
				 "  backend: exec\n  argv: [/bin/true]\n"
				 "  results_dir: %s\n", f->dir, f->dir), 0);
	tu_load_config(&f->cfg, &f->loaded, f->path, sb_str(&y), &f->err);
	sb_release(&y);
	command(f, 0, "bisect");
	assert_int_equal(state_request_add(f->st, &rq, T0 - 25 * 3600,
					   &f->err), 0);
	assert_int_equal(act(f, 1, 1), 1);
	/* not refused for the limit: r1 has no manifest kept to bisect */
	assert_non_null(strstr(piece(f, 0), "I cannot bisect this report's "
			       "range"));
	rq.request_id = "bisect-new";
	assert_int_equal(state_request_add(f->st, &rq, T0 - 3600, &f->err), 0);
	assert_int_equal(act(f, 1, 1), 1);
	assert_non_null(strstr(piece(f, 0), "You have asked for 1 bisections "
			       "in the last day, so I did not\nstart another"));
}

static void t_commands_per_mail(void **state)
{
	struct fx *f = *state;

	command(f, 0, "help");
	command(f, 1, "retest 9x");
	command(f, 2, "help");
	assert_int_equal(act(f, 3, 5), 3);
	assert_non_null(strstr(piece(f, 0), "Commands I understand"));
	assert_non_null(strstr(piece(f, 1), "I could not do \"retest 9x\""));
	assert_string_equal(piece(f, 2), "I read only the first 2 commands of "
			    "a mail; 3 more were ignored.\n");
	assert_int_equal(act(f, 2, 2), 2);
}

/* Parse a reply of Paul's with this Message-ID saying 'body'. */
static void ask_body(struct reply *r, const char *msgid, const char *body)
{
	char raw[512];
	struct reply_opts o = { "#perfbot", command_lookup };
	struct pb_err err = { 0, "" };
	int n = snprintf(raw, sizeof(raw), "From: Paul <paul@example.test>\n"
			 "Message-ID: <%s>\nIn-Reply-To: <report-1@example.test>"
			 "\nSubject: Re: [tree] r1\n\n%s\n", msgid, body);

	reply_release(r);
	if (reply_parse(raw, (size_t)n, &o, r, &err))
		fail_msg("reply_parse: %s", err.msg);
}

/* Parse a reply of Paul's with this Message-ID asking for help. */
static void ask(struct reply *r, const char *msgid)
{
	ask_body(r, msgid, "help");
}

static void t_reply(void **state)
{
	struct fx *f = *state;
	struct route rt = { .kind = ROUTE_REPORT, .found = 1, .tr = f->tr };
	struct auth au = { AUTH_COMMAND, 1, 0, "answered", 1 };
	struct outbox_mail *out = NULL;
	struct reply r;
	size_t n = 0;

	memset(&r, 0, sizeof(r));
	rt.tr.recipients = "[\"paul@example.test\",\"list@example.test\"]";
	ask(&r, "ask-1@example.test");
	assert_int_equal(dispatch_reply(f->st, &f->cfg, T0, &r, &rt, &au,
					&f->err), 0);
	/* not to be told: nothing queued */
	ask(&r, "ask-2@example.test");
	au = (struct auth){ AUTH_REFUSE, 0, 0, "refused (already told today)", 0 };
	assert_int_equal(dispatch_reply(f->st, &f->cfg, T0, &r, &rt, &au,
					&f->err), 0);
	au.tell = 1;
	ask(&r, "ask-3@example.test");
	assert_int_equal(dispatch_reply(f->st, &f->cfg, T0, &r, &rt, &au,
					&f->err), 0);
	rt.kind = ROUTE_NO_REPORT;
	au.verdict = AUTH_NOREPORT;
	ask(&r, "ask-4@example.test");
	assert_int_equal(dispatch_reply(f->st, &f->cfg, T0, &r, &rt, &au,
					&f->err), 0);
	reply_release(&r);
	assert_int_equal(state_queued(f->st, &out, &n, &f->err), 0);
	assert_int_equal(n, 3);
	/* the commands' answer, copied to the report's list */
	assert_string_equal(out[0].kind, "answer");
	assert_non_null(strstr(out[0].message, "Commands I understand"));
	assert_non_null(strstr(out[0].message, "In-Reply-To: "
			       "<ask-1@example.test>"));
	assert_non_null(strstr(out[0].recipients, "list@example.test"));
	/* a refusal: one piece, to the sender alone, in the thread */
	assert_non_null(strstr(out[1].message, "I take commands only from"));
	assert_null(strstr(out[1].message, "Commands I understand"));
	assert_non_null(strstr(out[1].message, "<ask-3@example.test>"));
	assert_string_equal(out[1].recipients, "[\"paul@example.test\"]");
	/* no report */
	assert_non_null(strstr(out[2].message, "I found no report of mine"));
	assert_string_equal(out[2].recipients, "[\"paul@example.test\"]");
	outbox_free(out, n);
}

/*
 * Act on Paul's mail 'msgid' saying 'body' in report r1's thread (its
 * list Cc'd) and record it at 'when' as the poll does; its outcome.
 */
static const char *acted(struct fx *f, struct reply *r, const char *msgid,
			 const char *body, time_t when, struct auth *au)
{
	struct route rt = { .kind = ROUTE_REPORT, .found = 1, .tr = f->tr };
	struct inbox_entry e = { msgid, 1, 0, "paul@example.test", "r1", NULL,
				 NULL };

	rt.tr.recipients = "[\"paul@example.test\",\"list@example.test\"]";
	*au = (struct auth){ AUTH_COMMAND, 1, 0, "answered", 1 };
	ask_body(r, msgid, body);
	if (dispatch_reply(f->st, &f->cfg, when, r, &rt, au, &f->err))
		fail_msg("dispatch_reply: %s", f->err.msg);
	e.outcome = au->outcome;
	if (state_inbox_record(f->st, &e, when, &f->err))
		fail_msg("state_inbox_record: %s", f->err.msg);
	return au->outcome;
}

/*
 * Requests repeated while a retest is open: the first is answered with
 * the open retest's status, to the sender alone; the others are not
 * answered at all, until another retest is open.
 */
static void t_repeats(void **state)
{
	struct fx *f = *state;
	struct outbox_mail *out = NULL;
	struct auth au;
	struct reply r;
	char id[32];
	size_t n = 0;
	int i;

	memset(&r, 0, sizeof(r));
	retest_row(f, "rt-open", "queued");
	assert_string_equal(acted(f, &r, "rep-0@example.test", "retest 2x", T0,
				  &au), DISPATCH_OUT_REPEAT);
	assert_true(au.tell);
	for (i = 1; i <= 18; i++) {
		snprintf(id, sizeof(id), "rep-%d@example.test", i);
		assert_string_equal(acted(f, &r, id, "retest", T0 + i, &au),
				    DISPATCH_OUT_SILENCED);
		assert_false(au.tell);
		assert_int_equal(au.verdict, AUTH_IGNORE);
	}
	/* a mail that asks for more says the rest, to the thread as ever */
	assert_string_equal(acted(f, &r, "rep-h@example.test", "retest\nhelp",
				  T0 + 30, &au), "answered");
	/* the next retest open: its first repeat is answered again */
	assert_int_equal(state_request_set(f->st, "rt-open", "done", NULL, NULL,
					   T0, &f->err), 0);
	retest_at(f, "rt-next", "queued", T0 + 100);
	assert_string_equal(acted(f, &r, "rep-n@example.test", "retest",
				  T0 + 101, &au), DISPATCH_OUT_REPEAT);
	reply_release(&r);
	assert_int_equal(state_queued(f->st, &out, &n, &f->err), 0);
	assert_int_equal(n, 3);
	assert_non_null(strstr(out[0].message, "already queued"));
	assert_non_null(strstr(out[0].message, "<rep-0@example.test>"));
	assert_string_equal(out[0].recipients, "[\"paul@example.test\"]");
	assert_non_null(strstr(out[1].message, "Commands I understand"));
	assert_null(strstr(out[1].message, "already queued"));
	assert_non_null(strstr(out[1].recipients, "list@example.test"));
	assert_non_null(strstr(out[2].message, "<rep-n@example.test>"));
	assert_string_equal(out[2].recipients, "[\"paul@example.test\"]");
	outbox_free(out, n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_table),
		cmocka_unit_test_setup_teardown(t_parse_by_table, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_help_lists_the_table, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_unknown, setup, teardown),
		cmocka_unit_test_setup_teardown(t_max_runs, setup, teardown),
		cmocka_unit_test_setup_teardown(t_retests_per_report, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_bisects_per_sender, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_commands_per_mail, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_reply, setup, teardown),
		cmocka_unit_test_setup_teardown(t_repeats, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
