// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/act/lifecmd.c: the grammar of the record commands
 * (what is a command and what is prose), and acting on them as the poll
 * does, mail by mail: in a report's thread (each transition written with
 * who and which mail, the answer saying the new status, a refusal
 * saying why, a stranger changing nothing) and in a reminder's (each
 * command naming a line, held to that line's report); dup: by id,
 * Message-ID, archive link and subject, its loops and ambiguities.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "perfbot/act/lifecmd.h"
#include "perfbot/state/outbox.h"
#include "testlife.h"

#define RCPTS "[\"dev@example.test\",\"list@example.test\"]"
#define DEV "Dev <dev@example.test>"

static int setup(void **state)
{
	struct tl *t = tl_new("test_lifecmd");

	*state = t;
	if (!t)
		return -1;
	tl_report(t, "r1", "[tree] r1: aim7 -18% regression", RCPTS, TL_T0,
		  "aim7.jobs-per-min", -18, 1);
	tl_report(t, "r2", "[tree] r2: aim7 -7% regression", RCPTS, TL_T0 + 1,
		  "aim7.jobs-per-min", -7, 1);
	tl_report(t, "r3", "[tree] r3: same", "[\"other@example.test\"]",
		  TL_T0 + 2, "fio.bw", -3, 1);
	return 0;
}

static int teardown(void **state)
{
	tl_free(*state);
	return 0;
}

/* 'line' as the syntax step reads it: 1 a command (into 'c'), else 0. */
static int parse(const char *line, struct mail_command *c)
{
	return command_parse_line(line, strlen(line), "#perfbot",
				  command_lookup, c);
}

static void t_grammar(void **state)
{
	struct mail_command c;

	(void)state;
	assert_int_equal(parse("fix: mm: fix the race", &c), 1);
	assert_int_equal(c.kind, CMD_FIX);
	assert_string_equal(c.arg, "mm: fix the race");
	assert_int_equal(parse("Fix:mm: x", &c), 1);
	assert_string_equal(c.arg, "mm: x");
	assert_int_equal(parse("#perfbot fix: <3> 0123abcd", &c), 1);
	assert_int_equal(c.remind_line, 3);
	assert_string_equal(c.arg, "0123abcd");
	/* prose is no command */
	assert_int_equal(parse("fix the race please", &c), 0);
	/* "fix:" alone is a near-miss: answered with the form (issue 29) */
	assert_int_equal(parse("fix:", &c), 1);
	assert_int_equal(c.kind, CMD_UNKNOWN);
	assert_int_equal(c.near, CMD_NEAR_BARE);
	assert_int_equal(parse("Invalid argument passed to the ioctl", &c), 0);
	assert_int_equal(parse("reopen the file", &c), 0);
	assert_int_equal(parse("set it free", &c), 0);
	/* invalid: alone, with a colon and a reason, or after the prefix */
	assert_int_equal(parse("invalid", &c), 1);
	assert_int_equal(c.kind, CMD_INVALID);
	assert_string_equal(c.arg, "");
	assert_int_equal(parse("Invalid: the base was wrong", &c), 1);
	assert_string_equal(c.arg, "the base was wrong");
	assert_int_equal(parse("#perfbot invalid noise", &c), 1);
	assert_string_equal(c.arg, "noise");
	assert_int_equal(parse("invalid <2>", &c), 1);
	assert_int_equal(c.remind_line, 2);
	/* a Message-ID in brackets is no line number */
	assert_int_equal(parse("dup: <1234@example.test>", &c), 1);
	assert_int_equal(c.kind, CMD_DUP);
	assert_int_equal(c.remind_line, 0);
	assert_string_equal(c.arg, "<1234@example.test>");
	assert_int_equal(parse("dup: <2> <1234@example.test>", &c), 1);
	assert_int_equal(c.remind_line, 2);
	assert_int_equal(parse("unfix", &c), 1);
	assert_int_equal(c.kind, CMD_UNFIX);
	assert_int_equal(parse("undup <4>", &c), 1);
	assert_int_equal(c.remind_line, 4);
	assert_int_equal(parse("reopen", &c), 1);
	assert_int_equal(c.kind, CMD_REOPEN);
	assert_int_equal(parse("set no-reminders", &c), 1);
	assert_int_equal(c.kind, CMD_SET);
	assert_int_equal(parse("set <2> no-reminders", &c), 1);
	assert_int_equal(c.remind_line, 2);
	assert_int_equal(parse("Set No-Reminders <7>", &c), 1);
	assert_int_equal(c.remind_line, 7);
	assert_int_equal(parse("unset no-reminders", &c), 1);
	assert_int_equal(c.kind, CMD_UNSET);
	assert_int_equal(parse("set reminders", &c), 0);
	/* after the prefix, a wrong form is answered with the commands */
	assert_int_equal(parse("#perfbot set reminders", &c), 1);
	assert_int_equal(c.kind, CMD_UNKNOWN);
	assert_int_equal(parse("#perfbot reopen <0>", &c), 1);
	assert_int_equal(c.kind, CMD_UNKNOWN);
	/* the old commands as they were: no colon forms */
	assert_int_equal(parse("help:", &c), 0);
	assert_int_equal(parse("retest: 4x", &c), 0);
	assert_int_equal(parse("retest 4x", &c), 1);
}

/* Act on a mail of 'from' in the thread of report 'id'; its outcome. */
static void mail(struct tl *t, const char *msgid, const char *from,
		 const char *id, const char *body, char *outcome)
{
	char irt[128];

	tl_mail(t, msgid, from, tl_msgid(id, irt, sizeof(irt)), body,
		TL_T0 + 3600, outcome, 160);
}

/* The answer to mail 'msgid' (its In-Reply-To), or fail. */
static const char *answer_to(struct tl *t, const char *msgid)
{
	char irt[160];
	const struct outbox_mail *m;

	snprintf(irt, sizeof(irt), "In-Reply-To: <%s>", msgid);
	m = tl_mail_with(t, irt);
	if (!m)
		fail_msg("no answer to <%s>", msgid);
	return m->message;
}

static void t_round_trip(void **state)
{
	struct tl *t = *state;
	struct record_event *ev = NULL;
	char out[160];
	size_t n = 0;

	mail(t, "a1@example.test", DEV, "r1", "fix: mm: fix the race", out);
	assert_string_equal(out, "answered");
	tl_status_is(t, "r1", "fix named");
	assert_non_null(strstr(answer_to(t, "a1@example.test"),
			       "I noted \"mm: fix the race\" as the fix"));
	assert_non_null(strstr(answer_to(t, "a1@example.test"),
			       "The report's status is now \"fix named\"."));
	/* a recipient's command is answered in front of the list */
	assert_non_null(strstr(answer_to(t, "a1@example.test"),
			       "list@example.test"));
	mail(t, "a2@example.test", DEV, "r1", "invalid: the base was wrong",
	     out);
	tl_status_is(t, "r1", "invalid");
	mail(t, "a3@example.test", DEV, "r1", "reopen", out);
	tl_status_is(t, "r1", "open");
	mail(t, "a4@example.test", DEV, "r1", "reopen", out);
	assert_non_null(strstr(answer_to(t, "a4@example.test"),
			       "This report is open still: its status is "
			       "\"open\", and \"reopen\" opens a report"));
	mail(t, "a5@example.test", DEV, "r1", "unfix", out);
	assert_non_null(strstr(answer_to(t, "a5@example.test"),
			       "I could not do \"unfix\": no fix is named."));
	assert_int_equal(state_record_events(t->st, "r1", &ev, &n, &t->err),
			 0);
	assert_int_equal(n, 3);
	assert_string_equal(ev[0].event, "fix:");
	assert_string_equal(ev[0].by, "dev@example.test");
	assert_string_equal(ev[0].source, "a1@example.test");
	assert_string_equal(ev[1].event, "invalid");
	assert_string_equal(ev[1].detail, "the base was wrong");
	assert_string_equal(ev[2].event, "reopen");
	assert_string_equal(ev[2].from, "invalid");
	assert_string_equal(ev[2].to, "open");
	record_events_free(ev, n);
}

static void t_sha_and_reminders(void **state)
{
	struct tl *t = *state;
	struct record r;
	char out[160];

	mail(t, "b1@example.test", DEV, "r1",
	     "fix: 0123ABCDEF99 (\"mm: fix it\")", out);
	tl_record(t, "r1", &r);
	/* the sha, and its title as a second key (act/track.c) */
	assert_string_equal(r.fix_named, "0123abcdef99 (\"mm: fix it\")");
	record_release(&r);
	assert_non_null(strstr(answer_to(t, "b1@example.test"), "I noted "
			       "0123abcdef99 (\"mm: fix it\") as the fix"));
	/* a sha alone, and a title cut short, keep the sha alone */
	mail(t, "b6@example.test", DEV, "r2", "fix: 0123ABCDEF98", out);
	tl_record(t, "r2", &r);
	assert_string_equal(r.fix_named, "0123abcdef98");
	record_release(&r);
	mail(t, "b7@example.test", DEV, "r2", "fix: 0123ABCDEF97 (\"mm: fi",
	     out);
	tl_record(t, "r2", &r);
	assert_string_equal(r.fix_named, "0123abcdef97");
	record_release(&r);
	mail(t, "b2@example.test", DEV, "r1", "set no-reminders", out);
	tl_record(t, "r1", &r);
	assert_int_equal(r.no_reminders, 1);
	assert_string_equal(r.status, "fix named");
	record_release(&r);
	assert_non_null(strstr(answer_to(t, "b2@example.test"),
			       "left out of the reminders"));
	/* reopen on a fix named: what reopen is for, no contradiction */
	mail(t, "b4@example.test", DEV, "r1", "reopen", out);
	assert_null(strstr(answer_to(t, "b4@example.test"), "Nothing to "
			   "change"));
	assert_non_null(strstr(answer_to(t, "b4@example.test"),
			       "This report is open still: its status is "
			       "\"fix named\",\nwith the fix 0123abcdef99 "
			       "(\"mm: fix it\") named, and \"reopen\" opens a report that is\n"
			       "fixed, invalid or a duplicate. To forget the "
			       "fix named, write \"unfix\".\nIt is left out of "
			       "the reminders (\"unset no-reminders\" lists it "
			       "again).\n"));
	tl_status_is(t, "r1", "fix named");
	mail(t, "b3@example.test", DEV, "r1", "unset no-reminders", out);
	tl_record(t, "r1", &r);
	assert_int_equal(r.no_reminders, 0);
	record_release(&r);
	mail(t, "b5@example.test", DEV, "r1", "reopen", out);
	assert_non_null(strstr(answer_to(t, "b5@example.test"), "It is listed "
			       "in the reminders until it is fixed."));
}

/* A stranger's command changes nothing; commands.allow may. */
static void t_who(void **state)
{
	struct tl *t = *state;
	char out[160];

	mail(t, "c1@elsewhere.test", "Mallory <mallory@elsewhere.test>", "r1",
	     "invalid", out);
	assert_string_equal(out, "refused");
	tl_status_is(t, "r1", "open");
	assert_non_null(strstr(answer_to(t, "c1@elsewhere.test"),
			       "I take commands only from"));
	mail(t, "c2@example.test", "Carol <carol@example.test>", "r1",
	     "invalid", out);
	assert_string_equal(out, "answered");
	tl_status_is(t, "r1", "invalid");
}

static void t_dup(void **state)
{
	struct tl *t = *state;
	struct record r;
	char out[160];

	/* by its Message-ID */
	mail(t, "d1@example.test", DEV, "r2", "dup: <r1@example.test>", out);
	tl_record(t, "r2", &r);
	assert_string_equal(r.status, "duplicate");
	assert_string_equal(r.dup_of, "r1");
	record_release(&r);
	assert_non_null(strstr(answer_to(t, "d1@example.test"),
			       "a duplicate of \"[tree] r1: aim7 -18% "
			       "regression\" (report r1)"));
	mail(t, "d2@example.test", DEV, "r2", "undup", out);
	tl_status_is(t, "r2", "open");
	/* by its archive link */
	mail(t, "d3@example.test", DEV, "r2", "dup: " TL_ARCHIVE
	     "r1@example.test", out);
	tl_status_is(t, "r2", "duplicate");
	mail(t, "d4@example.test", DEV, "r2", "undup", out);
	/* by its exact subject, also as a reply writes it */
	mail(t, "d5@example.test", DEV, "r2", "dup: Re: [tree] r1: aim7 -18% "
	     "regression", out);
	tl_status_is(t, "r2", "duplicate");
	/* a duplicate of a duplicate is one of the first */
	mail(t, "d6@example.test", "Carol <carol@example.test>", "r3",
	     "dup: r2", out);
	tl_record(t, "r3", &r);
	assert_string_equal(r.dup_of, "r1");
	record_release(&r);
	/* a loop back to itself */
	mail(t, "d7@example.test", DEV, "r1", "dup: r2", out);
	assert_non_null(strstr(answer_to(t, "d7@example.test"),
			       "that report is a duplicate of this one"));
	tl_status_is(t, "r1", "open");
	mail(t, "d8@example.test", DEV, "r1", "dup: r1", out);
	assert_non_null(strstr(answer_to(t, "d8@example.test"),
			       "a report cannot duplicate itself"));
	/* a refusal goes to its sender alone, never to the list */
	assert_null(strstr(tl_mail_with(t, "In-Reply-To: <d7@example.test>")->
			   recipients, "list@example.test"));
	assert_null(strstr(tl_mail_with(t, "In-Reply-To: <d8@example.test>")->
			   recipients, "list@example.test"));
	mail(t, "d9@example.test", DEV, "r1", "dup: no such thing", out);
	assert_non_null(strstr(answer_to(t, "d9@example.test"),
			       "I know no report with that Message-ID, link or "
			       "subject"));
	tl_status_is(t, "r1", "open");
}

static void t_ambiguous_subject(void **state)
{
	struct tl *t = *state;
	char out[160];

	tl_report(t, "r4", "[tree] r1: aim7 -18% regression", RCPTS,
		  TL_T0 + 3, "aim7.jobs-per-min", -18, 1);
	mail(t, "e1@example.test", DEV, "r2", "dup: [tree] r1: aim7 -18% "
	     "regression", out);
	assert_non_null(strstr(answer_to(t, "e1@example.test"),
			       "2 reports have that subject: name one by its "
			       "Message-ID"));
	tl_status_is(t, "r2", "open");
}

/* A line number outside a reminder's thread is refused. */
static void t_ref_in_report(void **state)
{
	struct tl *t = *state;
	char out[160];

	mail(t, "f1@example.test", DEV, "r1", "invalid <2>", out);
	assert_non_null(strstr(answer_to(t, "f1@example.test"),
			       "a line number (<N>) is for replies to a "
			       "reminder"));
	tl_status_is(t, "r1", "open");
}

/* A reminder of r1 and r3 (lines 1 and 2), and commands naming lines. */
static void t_reminder_lines(void **state)
{
	struct tl *t = *state;
	struct outbox_mail m = { 0 };
	char out[160];

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
					    "[\"r1\", \"r3\"]", TL_T0,
					    &t->err), 0);
	tl_mail(t, "g1@example.test", DEV, "rem-1@example.test",
		"#perfbot invalid <1> not ours\nset <2> no-reminders\nreopen",
		TL_T0 + 60, out, sizeof(out));
	assert_string_equal(out, "answered");
	tl_status_is(t, "r1", "invalid");
	/* line 2 is r3, whose recipients dev is not among */
	tl_status_is(t, "r3", "open");
	assert_non_null(strstr(answer_to(t, "g1@example.test"),
			       "About line <1> of the reminder, the report "
			       "\"[tree] r1: aim7 -18% regression\":"));
	assert_non_null(strstr(answer_to(t, "g1@example.test"),
			       "you are not among the recipients of the report "
			       "of line <2>"));
	assert_non_null(strstr(answer_to(t, "g1@example.test"),
			       "name the line of the reminder"));
	/* to the sender alone: a reminder's list is not copied */
	assert_null(strstr(tl_mail_with(t, "In-Reply-To: <g1@example.test>")->
			   recipients, "list@example.test"));
	/* a stranger naming no line of theirs is refused */
	tl_mail(t, "g2@elsewhere.test", "Mallory <mallory@elsewhere.test>",
		"rem-1@example.test", "invalid <1>", TL_T0 + 70, out,
		sizeof(out));
	assert_string_equal(out, "refused");
	/* commands.allow may act on any line */
	tl_mail(t, "g3@example.test", "Carol <carol@example.test>",
		"rem-1@example.test", "set <2> no-reminders\ninvalid <9>",
		TL_T0 + 80, out, sizeof(out));
	assert_string_equal(out, "answered");
	{
		struct record r;

		tl_record(t, "r3", &r);
		assert_int_equal(r.no_reminders, 1);
		record_release(&r);
	}
	assert_non_null(strstr(answer_to(t, "g3@example.test"),
			       "the reminder has no line <9>"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_grammar),
		cmocka_unit_test_setup_teardown(t_round_trip, setup, teardown),
		cmocka_unit_test_setup_teardown(t_sha_and_reminders, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_who, setup, teardown),
		cmocka_unit_test_setup_teardown(t_dup, setup, teardown),
		cmocka_unit_test_setup_teardown(t_ambiguous_subject, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_ref_in_report, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_reminder_lines, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
