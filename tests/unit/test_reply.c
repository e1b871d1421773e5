// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for the reply parser (src/parse/reply.c): the facts and the
 * command list of every fixture under fixtures/mail/, the text clean-up
 * rules (quotes, attributions, signature, Outlook, HTML, format=flowed,
 * charsets), the loop-safety rules of reply_must_not_answer(), and
 * hostile input: empty, random and mutated bytes, huge header counts,
 * deep nesting, oversized messages, long lines, NUL bytes, CR/LF tricks.
 * Run from the repository root: fixtures are read by relative path.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <glib.h>

#include "perfbot/act/dispatch.h"
#include "perfbot/util/fileio.h"
#include "perfbot/parse/reply.h"
#include "perfbot/util/strbuf.h"

#define REPORT_ID "202403151058.7048f6a8-lkp@example.org"
#define SUBJECT "Re: [linux-next:master] [pipe]  f017b0a495:  " \
	"hackbench.throughput 10.5% improvement"
#define HDRS "From: Jane Developer <jane@example.test>\n" \
	"To: kernel test robot <lkp@example.org>\n" \
	"Subject: Re: report\n" \
	"Message-ID: <inline-1@example.test>\n" \
	"In-Reply-To: <" REPORT_ID ">\n"

static const struct reply_opts opts = { "#perfbot", command_lookup };

struct want {
	int kind;
	int runs;
	const char *line;
};

static int setup(void **state)
{
	struct reply *r = calloc(1, sizeof(*r));

	*state = r;
	return r ? 0 : -1;
}

static int teardown(void **state)
{
	reply_release(*state);
	free(*state);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Helpers                                                             */

static void assert_no_controls(const char *s, int allow_newline)
{
	if (!s)
		return;
	assert_true(g_utf8_validate(s, -1, NULL));
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (allow_newline && (ch == '\n' || ch == '\t'))
			continue;
		assert_false(ch < 0x20 || ch == 0x7f);
	}
}

static void assert_id(const char *id)
{
	if (!id)
		return;
	assert_true(*id);
	assert_null(strpbrk(id, " \t\r\n<>"));
}

/* What every successful parse must guarantee, whatever the input. */
static void assert_sane(const struct reply *r)
{
	size_t i;

	assert_non_null(r->text);
	assert_no_controls(r->text, 1);
	assert_no_controls(r->subject, 0);
	assert_no_controls(r->from_name, 0);
	assert_no_controls(r->from_addr, 0);
	assert_no_controls(r->reply_to_addr, 0);
	assert_no_controls(r->auto_submitted, 0);
	assert_id(r->message_id);
	assert_id(r->in_reply_to);
	assert_id(r->dsn_message_id);
	assert_true(r->nrefs <= REPLY_MAX_REFS);
	for (i = 0; i < r->nrefs; i++)
		assert_id(r->references[i]);
	assert_true(r->ncmds <= REPLY_MAX_COMMANDS);
	assert_true(r->ncmds <= r->ncmds_seen);
	for (i = 0; i < r->ncmds; i++) {
		assert_true(strlen(r->cmds[i].line) < CMD_LINE_MAX);
		assert_no_controls(r->cmds[i].line, 0);
	}
}

static void parse_buf(const char *raw, size_t len, struct reply *r)
{
	struct pb_err err = { 0, "" };

	assert_int_equal(reply_parse(raw, len, &opts, r, &err), 0);
	assert_sane(r);
}

static void parse_str(const char *raw, struct reply *r)
{
	parse_buf(raw, strlen(raw), r);
}

static void read_fixture(const char *name, struct strbuf *sb)
{
	struct pb_err err = { 0, "" };
	char path[256];

	snprintf(path, sizeof(path), "fixtures/mail/%s.eml", name);
	sb_init(sb, REPLY_MAX_BYTES);
	assert_int_equal(file_read(path, REPLY_MAX_BYTES, 0, sb, &err), 0);
}

static void parse_fixture(const char *name, struct reply *r)
{
	struct strbuf sb;

	read_fixture(name, &sb);
	parse_buf(sb.buf, sb.len, r);
	sb_release(&sb);
}

static void assert_cmds(const struct reply *r, const struct want *w,
			size_t n)
{
	size_t i;

	assert_int_equal(r->ncmds, n);
	assert_int_equal(r->ncmds_seen, n);
	for (i = 0; i < n; i++) {
		assert_int_equal(r->cmds[i].kind, w[i].kind);
		assert_int_equal(r->cmds[i].runs, w[i].runs);
		assert_string_equal(r->cmds[i].line, w[i].line);
	}
}

static void assert_contains(const char *hay, const char *needle)
{
	if (!strstr(hay, needle))
		fail_msg("'%s' not in '%s'", needle, hay);
}

static void assert_lacks(const char *hay, const char *needle)
{
	if (strstr(hay, needle))
		fail_msg("'%s' unexpectedly in '%s'", needle, hay);
}

/* No line of the text is quoted. */
static void assert_no_quotes(const char *text)
{
	const char *p = text;

	while (*p) {
		while (*p == ' ' || *p == '\t')
			p++;
		assert_int_not_equal(*p, '>');
		p = strchr(p, '\n');
		if (!p)
			break;
		p++;
	}
}

static void assert_report_thread(const struct reply *r)
{
	assert_string_equal(r->in_reply_to, REPORT_ID);
	assert_int_equal(r->nrefs, 1);
	assert_string_equal(r->references[0], REPORT_ID);
	assert_string_equal(r->subject, SUBJECT);
}

static int answerable(const struct reply *r)
{
	const char *why = "unset";
	int rc = reply_must_not_answer(r, NULL, 0, &why);

	assert_true(rc ? why != NULL : why == NULL);
	return !rc;
}

/* ------------------------------------------------------------------ */
/* Fixtures                                                            */

static void t_bottom_posted(void **state)
{
	static const struct want w[] = { { CMD_RETEST, 4, "retest 4x" } };
	struct reply *r = *state;

	parse_fixture("bottom-posted", r);
	assert_string_equal(r->message_id,
			    "ZfQ2c1Ab3cD4eF5g@jane-laptop.example.test");
	assert_report_thread(r);
	assert_string_equal(r->from_addr, "jane@example.test");
	assert_string_equal(r->from_name, "Jane Developer");
	assert_null(r->reply_to_addr);
	assert_null(r->auto_submitted);
	assert_false(r->null_sender);
	assert_false(r->is_dsn);
	assert_false(r->list_mail);
	assert_cmds(r, w, 1);
	assert_no_quotes(r->text);
	/* The two-line attribution and the signature are gone. */
	assert_string_equal(r->text,
		"Nice, that is the result I hoped for. The numbers look a "
		"bit noisy though:\n\nretest 4x\n\nThanks,\nJane\n");
	assert_true(answerable(r));
}

static void t_outlook_top_posted(void **state)
{
	static const struct want w[] = { { CMD_RETEST, 3, "retest 3x" } };
	struct reply *r = *state;

	parse_fixture("outlook-top-posted", r);
	assert_string_equal(r->message_id, "DM6PR11MB4107A1B2C3D4E5F6A7B8C9D0"
			    "E1F2A@DM6PR11MB4107.namprd11.prod.example.test");
	assert_report_thread(r);
	assert_string_equal(r->from_addr, "bob.smith@example.test");
	assert_string_equal(r->from_name, "Bob Smith");
	/* The quoted report under "Original Message" holds "retest 2x". */
	assert_cmds(r, w, 1);
	assert_lacks(r->text, "Original Message");
	assert_lacks(r->text, "retest 2x");
	assert_lacks(r->text, "\r");
	assert_contains(r->text, "nr_threads=100% if that is easy?\n");
	assert_contains(r->text, "Regards,\nBob\n");
}

static void t_outlook_header_block(void **state)
{
	static const struct want w[] = { { CMD_HELP, 0, "help" } };
	struct reply *r = *state;

	parse_fixture("outlook-header-block", r);
	assert_cmds(r, w, 1);
	assert_string_equal(r->text, "help\n\nCarol\n");
}

/*
 * A reply with an inline `git format-patch` above its command: the
 * patch's From:/Date:/Subject: are no Outlook original and its "-- " is
 * no signature, so "retest 4x" below it is found; the patch is no text.
 */
static void t_inline_patch(void **state)
{
	static const struct want w[] = { { CMD_RETEST, 4, "retest 4x" } };
	struct reply *r = *state;

	parse_fixture("inline-patch", r);
	assert_cmds(r, w, 1);
	assert_lacks(r->text, "diff --git");
	assert_lacks(r->text, "Subject: [PATCH]");
	assert_contains(r->text, "could you check whether the patch below "
			"helps?");
	assert_contains(r->text, "retest 4x\n\nThanks,\nJane\n");
}

/*
 * Issue 22's replies as their clients send them: French Outlook in
 * iso-8859-1 quoted-printable, Chinese Outlook in gb2312 base64,
 * Japanese Outlook's HTML in iso-2022-jp, an Apple Mail forward, a
 * pasted patch with an escaped ">From" and a " retest 9x" context line,
 * a byte order mark, U+3000 and a trailing U+200B. Each original below
 * holds "retest 9x"; only the sender's command counts.
 */
static void t_client_fixtures(void **state)
{
	static const struct {
		const char *name;
		struct want w;
	} c[] = {
		{ "outlook-french", { CMD_RETEST, 3, "retest 3x" } },
		{ "outlook-chinese", { CMD_RETEST, 3, "retest 3x" } },
		{ "outlook-japanese-html", { CMD_RETEST, 3, "retest 3x" } },
		{ "apple-forward", { CMD_HELP, 0, "help" } },
		{ "pasted-patch", { CMD_RETEST, 3, "retest 3x" } },
		{ "invisible", { CMD_RETEST, 3, "retest 3x" } },
	};
	struct reply *r = *state;
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		parse_fixture(c[i].name, r);
		if (r->ncmds != 1)
			fail_msg("%s: %zu commands; text:\n%s", c[i].name,
				 r->ncmds, r->text);
		assert_cmds(r, &c[i].w, 1);
		assert_lacks(r->text, "retest 9x");
		assert_lacks(r->text, "noticed");
		assert_true(answerable(r));
		reply_release(r);
	}
	parse_fixture("outlook-chinese", r);
	assert_string_equal(r->from_name, "\xe7\x8e\x8b\xe8\x8a\xb3");
	assert_string_equal(r->text, "retest 3x\n\n\xe8\xb0\xa2\xe8\xb0\xa2"
			    "\n\xe7\x8e\x8b\xe8\x8a\xb3\n");
}

/* A no-break space inside and after "retest 4x" (Thunderbird). */
static void t_nbsp(void **state)
{
	static const struct want w[] = { { CMD_RETEST, 4, "retest 4x" } };
	struct reply *r = *state;

	parse_fixture("nbsp", r);
	assert_cmds(r, w, 1);
}

/* "Am ... schrieb ...:" over an original without '>' (Apple Mail). */
static void t_schrieb_unquoted(void **state)
{
	static const struct want w[] = { { CMD_HELP, 0, "help" } };
	struct reply *r = *state;

	parse_fixture("schrieb", r);
	assert_cmds(r, w, 1);
	assert_string_equal(r->text, "help\n\nGr\xc3\xbc\xc3\x9f" "e\n"
			    "J\xc3\xb6rg\n");
}

/* "Le ..., X a\nécrit :" wrapped, over an original without '>'. */
static void t_ecrit_unquoted(void **state)
{
	static const struct want w[] = { { CMD_RETEST, 2, "retest 2x" } };
	struct reply *r = *state;

	parse_fixture("ecrit", r);
	assert_cmds(r, w, 1);
	assert_lacks(r->text, "noticed");
	assert_lacks(r->text, "retest 9x");
}

/* Outlook in German: Von: / Gesendet: / An: / Cc: / Betreff:. */
static void t_von_gesendet(void **state)
{
	static const struct want w[] = { { CMD_RETEST, 3, "retest 3x" } };
	struct reply *r = *state;

	parse_fixture("von-gesendet", r);
	assert_cmds(r, w, 1);
	assert_lacks(r->text, "Gesendet");
	assert_lacks(r->text, "retest 9x");
	assert_string_equal(r->from_name, "M\xc3\xbcller, Hanna");
}

/* A tab in a command is echoed as a blank, not as '?'. */
static void t_tab_echo(void **state)
{
	static const struct want w[] = {
		{ CMD_UNKNOWN, 0, "#perfbot: retest 2x please" },
	};
	struct reply *r = *state;

	parse_fixture("tab", r);
	assert_cmds(r, w, 1);
}

/* An attribution mid-text over a real quote is not an unquoted original. */
static void t_attribution_then_quote(void **state)
{
	static const struct want w[] = { { CMD_RETEST, 0, "retest" } };
	struct reply *r = *state;

	parse_str(HDRS "\nAm Montag schrieb Dev:\n> retest 9x\n\nretest\n",
		  r);
	assert_cmds(r, w, 1);
	reply_release(r);
	/* prose that reads like one, without a date: nothing is cut */
	parse_str(HDRS "\nOn second thought, as Dave wrote:\nthe numbers "
		  "are noisy.\nretest\n", r);
	assert_cmds(r, w, 1);
}

static void t_html_only(void **state)
{
	static const struct want w[] = { { CMD_RETEST, 5, "retest 5x" } };
	struct reply *r = *state;

	parse_fixture("html-only", r);
	assert_string_equal(r->from_addr, "dan.brown@example.test");
	assert_report_thread(r);
	/* Quoted (blockquote), script and title commands do not count. */
	assert_cmds(r, w, 1);
	assert_contains(r->text, "R&D <3 caf\xc3\xa9 na\xc3\xafve "
			"\"quoted\" it's\n");
	assert_contains(r->text, "Thanks,\nDan\n");
	assert_lacks(r->text, "wrote:");
	assert_lacks(r->text, "<div");
	assert_lacks(r->text, "color: red");
	assert_lacks(r->text, "retest 2x");
	assert_lacks(r->text, "retest 6x");
	assert_lacks(r->text, "retest 7x");
	assert_lacks(r->text, "retest 9x");
	assert_no_quotes(r->text);
}

static void t_alternative_prefers_plain(void **state)
{
	static const struct want w[] = { { CMD_RETEST, 3, "retest 3x" } };
	struct reply *r = *state;

	parse_fixture("alternative", r);
	assert_cmds(r, w, 1);
	assert_string_equal(r->text, "retest 3x\n");
}

static void t_base64(void **state)
{
	static const struct want w[] = { { CMD_RETEST, 2, "retest 2x" } };
	struct reply *r = *state;

	parse_fixture("base64", r);
	assert_string_equal(r->from_name, "\xc5\x81ukasz Nowak");
	assert_cmds(r, w, 1);
	assert_contains(r->text, "Dzi\xc4\x99ki, \xc5\x81ukasz \xe2\x80\x94 "
			"the numbers look great.\n");
	assert_lacks(r->text, "wrote:");
	assert_no_quotes(r->text);
}

static void t_quoted_printable(void **state)
{
	static const struct want w[] = { { CMD_RETEST, 2, "retest 2x" } };
	struct reply *r = *state;

	parse_fixture("quoted-printable", r);
	/* "re=\ntest 2x": the soft line break is inside the command. */
	assert_cmds(r, w, 1);
	assert_contains(r->text, "I\xe2\x80\x99" "d like to see more samples");
	assert_contains(r->text, "the baseline looked noisy");
	assert_lacks(r->text, "=E2");
	assert_lacks(r->text, "retest 5x");
}

static void t_latin1(void **state)
{
	static const struct want w[] = { { CMD_RETEST, 3, "retest 3x" } };
	struct reply *r = *state;

	parse_fixture("latin1", r);
	assert_string_equal(r->from_name, "Ren\xc3\xa9 Dupr\xc3\xa9");
	assert_cmds(r, w, 1);
	assert_string_equal(r->text, "Bonjour,\n\nR\xc3\xa9sultat "
			    "int\xc3\xa9ressant, merci.\n\nretest 3x\n");
}

static void t_koi8r(void **state)
{
	static const struct want w[] = { { CMD_RETEST, 2, "retest 2x" } };
	struct reply *r = *state;

	parse_fixture("koi8r", r);
	assert_cmds(r, w, 1);
	/* "Спасибо за отчёт." */
	assert_contains(r->text, "\xd0\xa1\xd0\xbf\xd0\xb0\xd1\x81\xd0\xb8"
			"\xd0\xb1\xd0\xbe \xd0\xb7\xd0\xb0 \xd0\xbe\xd1\x82"
			"\xd1\x87\xd1\x91\xd1\x82.\n");
}

static void t_cp1252(void **state)
{
	static const struct want w[] = { { CMD_RETEST, 2, "retest 2x" } };
	struct reply *r = *state;

	parse_fixture("cp1252", r);
	assert_cmds(r, w, 1);
	assert_contains(r->text, "It\xe2\x80\x99s a \xe2\x80\x9cgood\xe2\x80"
			"\x9d result, worth \xe2\x82\xac" "0.02.\n");
}

static void t_flowed_delsp(void **state)
{
	static const struct want w[] = { { CMD_RETEST, 4, "retest 4x" } };
	struct reply *r = *state;

	parse_fixture("flowed", r);
	/* "retest  \n4x" joins into one command; the sentence is prose. */
	assert_cmds(r, w, 1);
	assert_contains(r->text, "and I would like you to please retest 4x "
			"as a sentence, which is not a command.\n");
	/* Space-stuffed " From" is unstuffed. */
	assert_contains(r->text, "\nFrom the numbers above it looks real.\n");
	assert_lacks(r->text, "wrote:");
	assert_no_quotes(r->text);
}

static void t_signed(void **state)
{
	static const struct want w[] = { { CMD_RETEST, 6, "retest 6x" } };
	struct reply *r = *state;

	parse_fixture("signed", r);
	assert_string_equal(r->from_addr, "ivy@example.test");
	assert_cmds(r, w, 1);
	assert_string_equal(r->text, "retest 6x\n");
}

static void t_quoted_only(void **state)
{
	struct reply *r = *state;

	parse_fixture("quoted-only", r);
	assert_int_equal(r->ncmds, 0);
	assert_int_equal(r->ncmds_seen, 0);
	assert_string_equal(r->text, "Good to know, thanks.\n");
}

static void t_signature_command(void **state)
{
	struct reply *r = *state;

	parse_fixture("signature-command", r);
	assert_int_equal(r->ncmds_seen, 0);
	assert_string_equal(r->text,
			    "Thanks for the report, I will look into it.\n");
}

static void t_out_of_office(void **state)
{
	static const struct want w[] = { { CMD_HELP, 0, "help" } };
	struct reply *r = *state;
	const char *why = NULL;

	parse_fixture("out-of-office", r);
	assert_string_equal(r->auto_submitted, "auto-replied");
	assert_true(r->list_mail);	/* Precedence: bulk */
	/* The text is parsed as any other; the caller must not answer. */
	assert_cmds(r, w, 1);
	assert_int_equal(reply_must_not_answer(r, NULL, 0, &why), 1);
	assert_string_equal(why, "auto-submitted mail");
}

static void t_dsn(void **state)
{
	struct reply *r = *state;

	parse_fixture("dsn", r);
	assert_true(r->is_dsn);
	assert_string_equal(r->dsn_message_id, REPORT_ID);
	assert_string_equal(r->message_id,
			    "20240315030002.4TwZ0000001@mx.example.test");
	assert_true(r->null_sender);
	assert_string_equal(r->from_addr, "mailer-daemon@mx.example.test");
	assert_string_equal(r->auto_submitted, "auto-replied");
	assert_null(r->in_reply_to);
	assert_int_equal(r->nrefs, 0);
	assert_int_equal(r->ncmds_seen, 0);
	assert_contains(r->text, "could not\nbe delivered");
	assert_false(answerable(r));
}

/*
 * Auto-replies that do not say so with Auto-Submitted (RFC 3834 3.1.7;
 * procmail's and Exim's vacation rules): the responders' headers,
 * Precedence: auto_reply, an out-of-office subject in the languages of
 * the major clients, Precedence junk/bulk/list without a reply's shape.
 */
static void t_auto_reply_marks(void **state)
{
	static const char *const autos[] = {
		"X-Autoreply: yes\nSubject: Re: report\n",
		"X-Autorespond: Out of office\nSubject: Re: report\n",
		"X-MS-Exchange-Inbox-Rules-Loop: jane@example.test\n"
		"Subject: Re: report\n",
		"Precedence: auto_reply\nSubject: Re: report\n",
		"Precedence: junk\nSubject: I am away\n",
		"Precedence: bulk\nSubject: Away until Monday\n",
		"Subject: Automatic reply: Re: report\n",
		"Subject: Out of Office: Re: report\n",
		"Subject: Abwesend: AW: report\n",
		"Subject: R\xc3\xa9ponse automatique : Re: report\n",
		"Subject: =?utf-8?b?6Ieq5Yqo5Zue5aSNOiByZXBvcnQ=?=\n", /* 自动回复: */
	};
	struct reply *r = *state;
	struct strbuf sb = STRBUF_INIT;
	const char *why = NULL;
	size_t i;

	for (i = 0; i < sizeof(autos) / sizeof(autos[0]); i++) {
		sb_reset(&sb);
		assert_int_equal(sb_addf(&sb, "From: jane@example.test\n"
					 "Message-ID: <a%zu@example.test>\n"
					 "In-Reply-To: <" REPORT_ID ">\n%s\n"
					 "I am out of the office.\nhelp\n", i,
					 autos[i]), 0);
		parse_buf(sb.buf, sb.len, r);
		assert_null(r->auto_submitted);
		if (reply_must_not_answer(r, NULL, 0, &why) != 1)
			fail_msg("answered: %s", autos[i]);
		assert_string_equal(why, "an auto-reply");
		reply_release(r);
	}
	/* Precedence on an otherwise normal reply drops nothing */
	parse_str("Precedence: bulk\n" HDRS "\nhelp\n", r);
	assert_true(answerable(r));
	reply_release(r);
	parse_str("Precedence: list\nX-Autoreply: no\n" HDRS "\nhelp\n", r);
	assert_true(answerable(r));
	reply_release(r);
	parse_str("Subject: Re: Automatic reply: report\n" HDRS "\nhelp\n", r);
	assert_true(answerable(r));
	sb_release(&sb);
}

/*
 * A mail gateway that returns the report in plain text (no DSN) is a
 * bounce of it, never a reply to refuse.
 */
static void t_gateway_bounce(void **state)
{
	struct reply *r = *state;
	const char *why = NULL;

	parse_str("Return-Path: <mail-gateway@mx.example.test>\n"
		  "From: Mail Gateway <mail-gateway@mx.example.test>\n"
		  "To: perfbot@example.test\nSubject: Message blocked\n"
		  "Message-ID: <gw-1@mx.example.test>\n\n"
		  "Your message could not be delivered to\n"
		  "linux-kernel@vger.example.test: policy.\n\n"
		  "----- The message follows -----\n"
		  "From: perfbot <perfbot@example.test>\n"
		  "Subject: [pipe] f017b0a495: hackbench.throughput 10.5% "
		  "improvement\n"
		  "Message-ID: <" REPORT_ID ">\n\n"
		  "Hello,\n\nCommands I understand:\n\n  help\n", r);
	assert_true(r->is_dsn);
	assert_string_equal(r->dsn_message_id, REPORT_ID);
	assert_int_equal(reply_must_not_answer(r, NULL, 0, &why), 1);
	assert_string_equal(why, "delivery status notification");
	reply_release(r);
	/* a gateway's mail holding no mail is not answered either */
	parse_str("From: mail-gateway@mx.example.test\nSubject: Re: x\n"
		  "Message-ID: <gw-2@mx.example.test>\n\nhelp\n", r);
	assert_false(r->is_dsn);
	assert_int_equal(reply_must_not_answer(r, NULL, 0, &why), 1);
	assert_string_equal(why, "sent by a mail system");
	reply_release(r);
	/* a person's mail quoting a Message-ID line is no bounce */
	parse_str(HDRS "\n> Message-ID: <" REPORT_ID ">\nretest\n", r);
	assert_false(r->is_dsn);
	assert_true(answerable(r));
}

static void t_dsn_rfc822(void **state)
{
	struct reply *r = *state;
	const char *why = NULL;

	parse_fixture("dsn-rfc822", r);
	assert_true(r->is_dsn);
	assert_string_equal(r->dsn_message_id, REPORT_ID);
	assert_false(r->null_sender);
	assert_null(r->auto_submitted);
	/* The returned message's "retest 2x" is not the DSN's text. */
	assert_int_equal(r->ncmds_seen, 0);
	assert_int_equal(reply_must_not_answer(r, NULL, 0, &why), 1);
	assert_string_equal(why, "delivery status notification");
}

static void t_ten_commands(void **state)
{
	static const struct want w[] = {
		{ CMD_RETEST, 0, "retest" },
		{ CMD_RETEST, 2, "retest 2x" },
		{ CMD_RETEST, 3, "retest 3" },
		{ CMD_RETEST, 4, "retest 4 x" },
		{ CMD_RETEST, 5, "RETEST 5X" },
		{ CMD_HELP, 0, "help" },
		{ CMD_RETEST, 6, "#perfbot retest 6x" },
		{ CMD_HELP, 0, "#perfbot: help" },
		{ CMD_UNKNOWN, 0, "#perfbot frobnicate" },
		{ CMD_RETEST, 30, "retest 30x" },
	};
	struct reply *r = *state;

	parse_fixture("ten-commands", r);
	assert_cmds(r, w, 10);
}

static void t_list_reply(void **state)
{
	static const struct want w[] = {
		{ CMD_RETEST, 3, "#perfbot retest 3" },
	};
	struct reply *r = *state;

	parse_fixture("list-reply", r);
	assert_true(r->list_mail);
	assert_string_equal(r->in_reply_to, "list-parent-1@noah.example.test");
	assert_int_equal(r->nrefs, 2);
	assert_string_equal(r->references[0], REPORT_ID);
	assert_string_equal(r->references[1], "list-parent-1@noah.example.test");
	assert_cmds(r, w, 1);
	/* List mail is recorded, never a reason to stay silent. */
	assert_true(answerable(r));
}

static void t_prefixed_unknown(void **state)
{
	static const struct want w[] = {
		{ CMD_UNKNOWN, 0, "#perfbot frobnicate" },
	};
	struct reply *r = *state;

	parse_fixture("prefixed-unknown", r);
	assert_cmds(r, w, 1);
}

static void t_prefixed_help(void **state)
{
	static const struct want w[] = { { CMD_HELP, 0, "#perfbot: help" } };
	struct reply *r = *state;

	parse_fixture("prefixed-help", r);
	assert_cmds(r, w, 1);
}

static void t_mixed_case(void **state)
{
	static const struct want w[] = { { CMD_RETEST, 2, "RETEST 2X" } };
	struct reply *r = *state;

	parse_fixture("mixed-case", r);
	assert_cmds(r, w, 1);
}

static void t_reply_to(void **state)
{
	static const struct want w[] = { { CMD_RETEST, 0, "retest" } };
	static const char *const own[] = { "attacker@example.org" };
	struct reply *r = *state;
	const char *why = "unset";

	parse_fixture("reply-to", r);
	assert_string_equal(r->from_addr, "rita@example.test");
	assert_string_equal(r->reply_to_addr, "attacker@example.org");
	assert_cmds(r, w, 1);
	/* Reply-To is never the identity: only From is compared. */
	assert_int_equal(reply_must_not_answer(r, own, 1, &why), 0);
	assert_null(why);
}

static void t_malformed(void **state)
{
	static const struct want w[] = { { CMD_RETEST, 2, "retest 2x" } };
	struct reply *r = *state;

	parse_fixture("malformed", r);
	assert_string_equal(r->message_id, "malformed-8@sam.example.test");
	assert_string_equal(r->from_addr, "sam@example.test");
	assert_cmds(r, w, 1);
}

static void t_prose(void **state)
{
	struct reply *r = *state;

	parse_fixture("prose", r);
	assert_int_equal(r->ncmds_seen, 0);
	assert_contains(r->text, "retest the patch please\n");
}

static void t_no_prefix_configured(void **state)
{
	static const struct reply_opts none = { NULL, command_lookup };
	struct reply *r = *state;
	struct pb_err err = { 0, "" };
	struct strbuf sb;

	read_fixture("ten-commands", &sb);
	assert_int_equal(reply_parse(sb.buf, sb.len, &none, r, &err), 0);
	sb_release(&sb);
	/* The three "#perfbot" lines are prose without a prefix. */
	assert_int_equal(r->ncmds, 7);
	assert_int_equal(r->cmds[6].runs, 30);
}

/* ------------------------------------------------------------------ */
/* Headers                                                             */

static void t_missing_headers(void **state)
{
	static const struct want w[] = { { CMD_RETEST, 0, "retest" } };
	struct reply *r = *state;
	const char *why = NULL;

	parse_str("X-Nothing: here\n\nretest\n", r);
	assert_null(r->message_id);
	assert_null(r->in_reply_to);
	assert_int_equal(r->nrefs, 0);
	assert_null(r->from_addr);
	assert_null(r->from_name);
	assert_null(r->subject);
	assert_null(r->auto_submitted);
	assert_false(r->null_sender);
	assert_cmds(r, w, 1);
	assert_int_equal(reply_must_not_answer(r, NULL, 0, &why), 1);
	assert_string_equal(why, "no usable From address");
}

static void t_header_crlf_tricks(void **state)
{
	struct reply *r = *state;

	parse_str("From: =?utf-8?q?Eve=0D=0ABcc=3A_x=40example=2Etest?= "
		  "<eve@example.test>\n"
		  "Subject: =?utf-8?q?hi=0D=0ABcc:_victim@example.test?=\r\n"
		  "Auto-Submitted: no\r\n\tBcc: x@example.test\n"
		  "Message-ID: <a b@example.test>\n"
		  "In-Reply-To: <ok@example.test\r\nBcc: y@example.test>\n"
		  "\nhelp\n", r);
	assert_string_equal(r->from_addr, "eve@example.test");
	assert_null(strpbrk(r->from_name, "\r\n"));
	assert_null(strpbrk(r->subject, "\r\n"));
	assert_contains(r->subject, "hi");
	assert_null(strpbrk(r->auto_submitted, "\r\n"));
	/* Folded, "no ... Bcc:" still starts with "no". */
	assert_true(answerable(r));
	assert_null(r->message_id);
}

static void t_from_without_domain(void **state)
{
	struct reply *r = *state;
	const char *why = NULL;

	parse_str("From: MAILER-DAEMON (Mail Delivery System)\n"
		  "Subject: Undelivered Mail\n\nhelp\n", r);
	assert_string_equal(r->from_addr, "mailer-daemon");
	assert_int_equal(reply_must_not_answer(r, NULL, 0, &why), 1);
	assert_string_equal(why, "sent by a mailer daemon or postmaster");
}

static void t_references_cap(void **state)
{
	struct reply *r = *state;
	struct strbuf sb = STRBUF_INIT;
	int i;

	assert_int_equal(sb_adds(&sb, HDRS "References:"), 0);
	for (i = 0; i < 150; i++)
		assert_int_equal(sb_addf(&sb, "\n <ref%d@example.test>", i), 0);
	assert_int_equal(sb_adds(&sb, "\n\nhelp\n"), 0);
	parse_buf(sb.buf, sb.len, r);
	sb_release(&sb);
	assert_int_equal(r->nrefs, REPLY_MAX_REFS);
	assert_string_equal(r->references[0], "ref0@example.test");
	assert_string_equal(r->references[99], "ref99@example.test");
}

static void t_in_reply_to_first(void **state)
{
	struct reply *r = *state;

	parse_str("From: jane@example.test\n"
		  "In-Reply-To: <first@example.test> (Robot's message of "
		  "\"Fri, 15 Mar 2024\") <second@example.test>\n\nhelp\n", r);
	assert_string_equal(r->in_reply_to, "first@example.test");
	assert_null(r->from_name);
}

static void t_null_sender(void **state)
{
	static const char *const paths[] = { "<>", "< >", "", " <>  " };
	struct reply *r = *state;
	struct strbuf sb = STRBUF_INIT;
	const char *why = NULL;
	size_t i;

	for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		sb_reset(&sb);
		assert_int_equal(sb_addf(&sb, "Return-Path: %s\n" HDRS
					 "\nhelp\n", paths[i]), 0);
		parse_buf(sb.buf, sb.len, r);
		assert_true(r->null_sender);
		assert_int_equal(reply_must_not_answer(r, NULL, 0, &why), 1);
		assert_string_equal(why, "null return path");
		reply_release(r);
	}
	sb_release(&sb);
	parse_str("Return-Path: <jane@example.test>\n" HDRS "\nhelp\n", r);
	assert_false(r->null_sender);
	reply_release(r);
	parse_str(HDRS "\nhelp\n", r);
	assert_false(r->null_sender);
}

static void t_precedence(void **state)
{
	struct reply *r = *state;

	parse_str("Precedence: bulk\n" HDRS "\nhelp\n", r);
	assert_true(r->list_mail);
	assert_true(answerable(r));
	reply_release(r);
	parse_str("Precedence: first-class\n" HDRS "\nhelp\n", r);
	assert_false(r->list_mail);
}

static void t_mbox_from_line(void **state)
{
	struct reply *r = *state;

	parse_str("From jane@example.test Fri Mar 15 11:42:07 2024\n" HDRS
		  "\nretest 2x\n", r);
	assert_string_equal(r->from_addr, "jane@example.test");
	assert_string_equal(r->message_id, "inline-1@example.test");
	assert_int_equal(r->ncmds, 1);
}

/* ------------------------------------------------------------------ */
/* Text rules                                                          */

static void t_attribution_variants(void **state)
{
	struct reply *r = *state;

	parse_str(HDRS "\nFirst.\n\nkernel test robot <lkp@example.org> "
		  "wrote:\n\n> quoted\n\nSecond.\n"
		  "On Fri, 15 Mar 2024, kernel test robot wrote:\n> more\n"
		  "Third, a line that says somebody wrote: stays.\n", r);
	assert_string_equal(r->text, "First.\n\nSecond.\nThird, a line that "
			    "says somebody wrote: stays.\n");
}

static void t_signature_without_space(void **state)
{
	struct reply *r = *state;

	parse_str(HDRS "\nretest 2x\n--\nJane\nhelp\n", r);
	assert_int_equal(r->ncmds, 1);
	assert_string_equal(r->text, "retest 2x\n");
}

static void t_outlook_separator_only(void **state)
{
	struct reply *r = *state;

	parse_str(HDRS "\nhelp\n\n  ----- Original Message -----\n"
		  "retest 2x\n", r);
	assert_int_equal(r->ncmds, 1);
	assert_int_equal(r->cmds[0].kind, CMD_HELP);
}

/*
 * One text case: the body under HDRS, the commands the sender wrote (the
 * originals below each hold "retest 9x", which is not theirs).
 */
struct text_case {
	const char *what, *body;
	struct want w[2];
	size_t n;
};

static void text_cases(struct reply *r, const struct text_case *c, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i, k;

	for (i = 0; i < n; i++) {
		sb_reset(&sb);
		assert_int_equal(sb_addf(&sb, HDRS "\n%s\n", c[i].body), 0);
		parse_buf(sb.buf, sb.len, r);
		if (r->ncmds != c[i].n)
			fail_msg("%s: %zu commands, want %zu; text:\n%s",
				 c[i].what, r->ncmds, c[i].n, r->text);
		for (k = 0; k < c[i].n; k++)
			if (r->cmds[k].kind != c[i].w[k].kind ||
			    r->cmds[k].runs != c[i].w[k].runs ||
			    strcmp(r->cmds[k].line, c[i].w[k].line))
				fail_msg("%s: command %zu is '%s'", c[i].what,
					 k, r->cmds[k].line);
		assert_lacks(r->text, "retest 9x");
		reply_release(r);
	}
	sb_release(&sb);
}

#define R3 { { CMD_RETEST, 3, "retest 3x" } }, 1
#define HELP { { CMD_HELP, 0, "help" } }, 1

/*
 * Item 1 of issue 22: French Outlook's header block ("De :", with the
 * space or a no-break space before the colon) ends the sender's text.
 */
static void t_original_french(void **state)
{
	static const struct text_case c[] = {
		{ "French Outlook", "retest 3x\n\nDe : Carol <carol@example."
		  "test>\nEnvoy\xc3\xa9 : vendredi 15 mars 2024 03:58\n"
		  "\xc3\x80 : perfbot <perfbot@example.test>\nObjet : RE: "
		  "[pipe] report\n\nretest 9x", R3 },
		{ "French, no-break spaces", "retest 3x\n\nDe\xc2\xa0: Carol"
		  "\nEnvoy\xc3\xa9\xe2\x80\xaf: vendredi\n\xc3\x80\xc2"
		  "\xa0: x\nObjet\xc2\xa0: y\n\nretest 9x", R3 },
	};

	text_cases(*state, c, sizeof(c) / sizeof(c[0]));
}

/*
 * Item 2: Chinese Outlook's original, under "-----邮件原件-----" or not,
 * ASCII or fullwidth colons.
 */
static void t_original_chinese(void **state)
{
	static const struct text_case c[] = {
		{ "Chinese Outlook", "retest 3x\n\n-----\xe9\x82\xae\xe4"
		  "\xbb\xb6\xe5\x8e\x9f\xe4\xbb\xb6-----\n\xe5\x8f\x91"
		  "\xe4\xbb\xb6\xe4\xba\xba: Carol\n\xe5\x8f\x91\xe9\x80"
		  "\x81\xe6\x97\xb6\xe9\x97\xb4: 2024\xe5\xb9\xb4\n\xe6"
		  "\x94\xb6\xe4\xbb\xb6\xe4\xba\xba: x\n\xe6\x8a\x84\xe9"
		  "\x80\x81: y\n\xe4\xb8\xbb\xe9\xa2\x98: z\n\nretest 9x",
		  R3 },
		{ "Chinese, fullwidth colons, no separator", "retest 3x\n"
		  "\xe5\x8f\x91\xe4\xbb\xb6\xe4\xba\xba\xef\xbc\x9a "
		  "Carol\n\xe6\x94\xb6\xe4\xbb\xb6\xe4\xba\xba\xef\xbc"
		  "\x9a x\n\xe4\xb8\xbb\xe9\xa2\x98\xef\xbc\x9a z\n"
		  "retest 9x", R3 },
	};

	text_cases(*state, c, sizeof(c) / sizeof(c[0]));
}

/*
 * Item 5: forwards (Apple Mail, Thunderbird, Gmail, mutt, whose end
 * line gives the text back) are not the sender's text.
 */
static void t_forwards(void **state)
{
	static const struct text_case c[] = {
		{ "Apple Mail forward", "retest 3x\n\nBegin forwarded message:"
		  "\n\nFrom: Carol <carol@example.test>\nSubject: Re: report"
		  "\nDate: 15 March 2024 at 03:58:00 CET\nTo: perfbot\n\n"
		  "retest 9x", R3 },
		{ "Apple Mail forward, its line alone", "retest 3x\n\nBegin "
		  "forwarded message:\n\nretest 9x", R3 },
		{ "Thunderbird forward", "retest 3x\n\n-------- Forwarded "
		  "Message --------\nSubject: \tRe: report\nDate: \tFri, 15 "
		  "Mar 2024\nFrom: \tCarol\nTo: \tperfbot\n\nretest 9x", R3 },
		{ "Gmail forward", "retest 3x\n\n---------- Forwarded message "
		  "---------\nFrom: Carol\nDate: Fri\nSubject: report\nTo: x"
		  "\n\nretest 9x", R3 },
		{ "mutt forward, text after its end", "help\n\n----- Forwarded "
		  "message from Carol <carol@example.test> -----\n\nDate: Fri"
		  "\nFrom: Carol\nTo: perfbot\nSubject: report\n\nretest 9x"
		  "\n\n----- End forwarded message -----\n\nretest 3x",
		  { { CMD_HELP, 0, "help" }, { CMD_RETEST, 3, "retest 3x" } },
		  2 },
		{ "mutt forward without its end", "help\n----- Forwarded "
		  "message from Carol <carol@example.test> -----\nretest 9x",
		  HELP },
	};

	text_cases(*state, c, sizeof(c) / sizeof(c[0]));
}

/*
 * Item 6: one rule for the header blocks: three or more header lines of
 * the major clients' languages, From among them, in any order, maybe
 * under a separator (German, Hotmail's order, Russian, Japanese, Korean,
 * Outlook's bold with a wrapped To); and what is no original stays.
 */
static void t_header_blocks(void **state)
{
	static const struct text_case c[] = {
		{ "Japanese", "retest 3x\n\xe5\xb7\xae\xe5\x87\xba\xe4"
		  "\xba\xba: Carol\n\xe9\x80\x81\xe4\xbf\xa1\xe6\x97\xa5"
		  "\xe6\x99\x82: 2024\n\xe5\xae\x9b\xe5\x85\x88: x\n\xe4"
		  "\xbb\xb6\xe5\x90\x8d: y\n\nretest 9x", R3 },
		{ "Korean", "retest 3x\n\xeb\xb3\xb4\xeb\x82\xb8 \xec\x82"
		  "\xac\xeb\x9e\x8c: Carol\n\xeb\xb0\x9b\xeb\x8a\x94 "
		  "\xec\x82\xac\xeb\x9e\x8c: x\n\xec\xa0\x9c\xeb\xaa\xa9"
		  ": y\n\nretest 9x", R3 },
		{ "German, another order", "retest 3x\n\n-----Urspr\xc3\xbc"
		  "ngliche Nachricht-----\nVon: Carol\nAn: perfbot\n"
		  "Betreff: report\nDatum: Fr 15.03.2024\n\nretest 9x", R3 },
		{ "Hotmail order", "retest 3x\n\nDate: Fri, 15 Mar 2024\n"
		  "Subject: report\nFrom: carol@example.test\nTo: perfbot\n"
		  "\nretest 9x", R3 },
		{ "Russian", "retest 3x\n\n\xd0\x9e\xd1\x82: Carol\n\xd0"
		  "\x9e\xd1\x82\xd0\xbf\xd1\x80\xd0\xb0\xd0\xb2\xd0\xbb"
		  "\xd0\xb5\xd0\xbd\xd0\xbe: 15 \xd0\xbc\xd0\xb0\xd1\x80"
		  "\xd1\x82\xd0\xb0\n\xd0\x9a\xd0\xbe\xd0\xbc\xd1\x83: x"
		  "\n\nretest 9x", R3 },
		{ "Danish, under its separator", "retest 3x\n\n-------- "
		  "Oprindelig besked --------\nFra: Dev <d@example.test>\nDato: "
		  "04.07.2024  17.45\nTil: x@example.test\nEmne: report\n\n"
		  "retest 9x", R3 },
		{ "Outlook, From wrapped", "retest 3x\n\nFrom: Human Resources\n"
		  "<hr-automated@example.test>\nSent: Monday, August 26, 2019\n"
		  "To: x\nSubject: y\n\nretest 9x", R3 },
		{ "Outlook bold, wrapped To", "retest 3x\n*From:* Carol\n"
		  "*Sent:* Friday\n*To:* a@example.test; b@example.test;\n"
		  "c@example.test\n*Subject:* x\nretest 9x", R3 },
		/* what is no original */
		{ "two header lines", "From: the numbers\nTo: me it looks "
		  "real\nretest 3x", R3 },
		{ "three lines, no From", "Date: today\nTo: all\nSubject: the "
		  "run\nretest 3x", R3 },
		{ "trailers", "Cc: a@example.test\nCc: b@example.test\nCc: c@"
		  "example.test\nretest 3x", R3 },
		{ "a separator of no client", "---- cut here ----\nretest 3x",
		  R3 },
		{ "quoted headers", "> From: Carol\n> Sent: Fri\n> To: x\n"
		  "> Subject: y\n\nretest 3x", R3 },
	};

	text_cases(*state, c, sizeof(c) / sizeof(c[0]));
}

/*
 * Item 4: unquoted originals under the attributions that open with the
 * date (Chinese, Japanese, Russian clients), and the like: Gmail's dated
 * address, wrapped ones, Zoho's, a phone's "Sent from my iPhone".
 */
static void t_dated_attributions(void **state)
{
	static const struct text_case c[] = {
		{ "Chinese", "retest 3x\n\n2024\xe5\xb9\xb4" "3\xe6\x9c\x88"
		  "15\xe6\x97\xa5 03:58\xef\xbc\x8c" "Carol <carol@example."
		  "test> \xe5\x86\x99\xe9\x81\x93\xef\xbc\x9a\n\nHello,"
		  "\nretest 9x", R3 },
		{ "Japanese", "retest 3x\n\n2024/03/15 3:58\xe3\x80\x81"
		  "Carol <carol@example.test>\xe3\x81\xae\xe3\x83\xa1\xe3"
		  "\x83\xbc\xe3\x83\xab\xef\xbc\x9a\n\nHello,\nretest 9x",
		  R3 },
		{ "Russian", "retest 3x\n\n15.03.2024 03:58, Carol \xd0\xbf"
		  "\xd0\xb8\xd1\x88\xd0\xb5\xd1\x82:\nHello,\nretest 9x",
		  R3 },
		{ "Chinese over a quote", "retest 3x\n\n2024\xe5\xb9\xb4 "
		  "03:58 Carol <c@example.test> \xe5\x86\x99\xe9\x81\x93:\n"
		  "> retest 9x\n\nhelp", { { CMD_RETEST, 3, "retest 3x" },
					    { CMD_HELP, 0, "help" } }, 2 },
		{ "Italian, opening with 'In data'", "retest 3x\n\nIn data 11 "
		  "ottobre 2017 21:11:31 \"Dev\" <d@example.test> ha "
		  "scritto:\n\nretest 9x", R3 },
		{ "Portuguese, wrapped before the address", "retest 3x\n\nEm 10 "
		  "de julho de 2017 \xc3\xa0s 16:32:35, Dev (\nd@example.test) "
		  "escreveu:\n\nretest 9x", R3 },
		{ "Finnish, wrapped, no opening word", "retest 3x\n\npe 20. "
		  "lokakuuta 2017 klo 17.50 Dev\n<d@example.test> kirjoitti:\n"
		  "\nretest 9x", R3 },
		{ "Gmail's dated address", "retest 3x\n\n\xd1\x81\xd1\x80, 30 "
		  "\xd0\xb0\xd0\xbf\xd1\x80. 2025 \xd0\xb3. \xd0\xb2 15:19, "
		  "Dev <d@example.test>:\n\nretest 9x", R3 },
		{ "Zoho's dashed one", "retest 3x\n\n---- On Wed, 24 Feb 2021 "
		  "14:02:50 +0530 d@example.test wrote ----\n\nretest 9x", R3 },
		{ "under a phone's line", "retest 3x\n\nSent from my iPhone\n\n"
		  "retest 9x", R3 },
		{ "a phone's line in prose stays", "Sent from my desk, which is "
		  "easier.\nretest 3x", R3 },
		/* undated prose ending so stays */
		{ "undated", "\xe6\x88\x91\xe5\x86\x99\xe9\x81\x93\xef"
		  "\xbc\x9a\nretest 3x", R3 },
	};

	text_cases(*state, c, sizeof(c) / sizeof(c[0]));
}

/* Item 8: a byte order mark, U+3000, a trailing U+200B around commands. */
static void t_invisible_characters(void **state)
{
	static const struct text_case c[] = {
		{ "a byte order mark", "\xef\xbb\xbfretest 3x", R3 },
		{ "ideographic spaces", "\xe3\x80\x80retest\xe3\x80\x80" "3x"
		  "\xe3\x80\x80", R3 },
		{ "a trailing zero-width space", "Thanks.\nretest 3x\xe2\x80"
		  "\x8b\n", R3 },
	};

	text_cases(*state, c, sizeof(c) / sizeof(c[0]));
}

#define SHA "From 3f2c1d0e9b8a7f6e5d4c3b2a1f0e9d8c7b6a5f4e Mon Sep 17 " \
	"00:00:00 2001\n"
#define PATCH_HDR "From: Jane <jane@example.test>\nDate: Mon, 18 Mar 2024 " \
	"09:01:12 +0100\nSubject: [PATCH] pipe: take the lock once\n\n" \
	"Taking it per page regressed.\n\nSigned-off-by: Jane <jane@" \
	"example.test>\n---\n fs/pipe.c | 2 +-\n 1 file changed\n\n"
#define DIFF "diff --git a/fs/pipe.c b/fs/pipe.c\nindex 1a2b..7a8b 100644\n" \
	"--- a/fs/pipe.c\n+++ b/fs/pipe.c\n@@ -1,4 +1,4 @@\n retest 9x\n" \
	"-\tmutex_lock(&pipe->mutex);\n+\tmutex_unlock(&pipe->mutex);\n" \
	"\n help\n"

/*
 * Item 7: a pasted patch is the sender's: its header ends nothing, its "-- " is
 * no signature, a command below it counts, and no line of it (a " retest
 * 9x" context line of a hunk) is a command.
 */
static void t_pasted_patches(void **state)
{
	static const struct text_case c[] = {
		{ "escaped >From", "see below\n\n>" SHA PATCH_HDR DIFF
		  "-- \n2.43.0\n\nretest 3x", R3 },
		{ "from its header lines", "see below\n\n" PATCH_HDR DIFF
		  "-- \n2.43.0\n\nretest 3x\n", R3 },
		{ "its header, no trailer, command right under", PATCH_HDR
		  DIFF "retest 3x", R3 },
		{ "two patches", SHA PATCH_HDR DIFF "-- \n2.39.3 (Apple "
		  "Git-145)\n\n" SHA PATCH_HDR DIFF "-- \n2.43.0\nretest 3x",
		  R3 },
		{ "a bare diff", "try this:\n\n" DIFF "\nretest 3x", R3 },
		{ "a unified diff without git", "--- a/x.c\n+++ b/x.c\n@@ -1,2"
		  " +1,2 @@\n retest 9x\n-a\n+b\nretest 3x", R3 },
		{ "a diff under a '--' line", "does this help?\n--\n" DIFF
		  "\nretest 3x", R3 },
		{ "a diff under a version trailer", "-- \n2.43.0\n\n" DIFF
		  "retest 3x", R3 },
		{ "a hunk that lost its blank lines' blank", "--- a/x\n+++ b/x"
		  "\n@@ -1,3 +1,3 @@\n\n retest 9x\n-a\n+b\nretest 3x", R3 },
		{ "a cover letter's trailer", "[PATCH 0/2] pipe fixes\n\n"
		  " fs/pipe.c | 8 ++++++++\n 1 file changed\n\n-- \n2.7.4\n\n"
		  "retest 3x", R3 },
		{ "a binary patch", "diff --git a/x.png b/x.png\nnew file mode "
		  "100644\nindex 0000000..9710347\nGIT binary patch\nliteral "
		  "142\nzcmZ?r?PGv|E+AC{#Eft(0hV9^lFE7z3>E+r\n\nliteral 0\n"
		  "HcmV?d00001\n\n-- \n2.35.3\n\nretest 3x", R3 },
		/* a signature is still one */
		{ "a signature after a diff", DIFF "retest 3x\n-- \nJane\n"
		  "help", R3 },
		/* a quoted patch is quoted */
		{ "a quoted patch", "> " SHA "> diff --git a/x b/x\n> @@ -1 +1 "
		  "@@\n> retest 9x\n\nretest 3x", R3 },
	};

	text_cases(*state, c, sizeof(c) / sizeof(c[0]));
}

static void t_html_rules(void **state)
{
	struct reply *r = *state;

	parse_str(HDRS "Content-Type: text/html; charset=utf-8\n\n"
		  "<p>A&#0;B&#x110000;C&bogus;D&amp</p>"
		  "<!-- retest 3x --><STYLE>retest 4x</STYLE>"
		  "<pre>  keep\n  lines</pre>"
		  "<table><tr><td>x</td><td>y</td></tr></table>"
		  "<img alt=\"a > b\" src='x>y'>after"
		  "<blockquote><p>retest 5x</p></blockquote>"
		  "<div>retest\n   2x</div>"
		  "3 < 4 <div retest 7x", r);
	assert_cmds(r, (const struct want[]){ { CMD_RETEST, 2, "retest 2x" } },
		    1);
	assert_contains(r->text, "A\xef\xbf\xbd" "B\xef\xbf\xbd" "C&bogus;D&amp\n");
	assert_contains(r->text, "keep\n  lines\n");
	assert_contains(r->text, "x y\n");
	assert_contains(r->text, "after\n");
	assert_contains(r->text, "3 < 4");
	assert_lacks(r->text, "retest 3x");
	assert_lacks(r->text, "retest 4x");
	assert_lacks(r->text, "retest 5x");
	assert_lacks(r->text, "retest 7x");
}

static void t_html_outlook(void **state)
{
	struct reply *r = *state;

	parse_str(HDRS "Content-Type: text/html; charset=us-ascii\n\n"
		  "<html><body><div class=WordSection1><p class=MsoNormal>"
		  "retest 3x<o:p></o:p></p><div><div style='border:none;"
		  "border-top:solid #E1E1E1 1.0pt'><p class=MsoNormal><b>From:"
		  "</b> kernel test robot &lt;lkp@example.org&gt; <br><b>Sent:"
		  "</b> Friday, March 15, 2024 3:58 AM<br><b>To:</b> Bob "
		  "&lt;bob@example.test&gt;<br><b>Subject:</b> [pipe] "
		  "f017b0a495<o:p></o:p></p></div></div><p>retest 2x</p>"
		  "</div></body></html>", r);
	assert_cmds(r, (const struct want[]){ { CMD_RETEST, 3, "retest 3x" } },
		    1);
	assert_string_equal(r->text, "retest 3x\n");
}

/* An HTML reply (text/html only) whose commands are 'want'. */
static void html_case(struct reply *r, const char *what, const char *html,
		      const struct want *w, size_t n)
{
	struct strbuf sb = STRBUF_INIT;

	assert_int_equal(sb_addf(&sb, HDRS "Content-Type: text/html; charset="
				 "utf-8\n\n%s", html), 0);
	parse_buf(sb.buf, sb.len, r);
	sb_release(&sb);
	if (r->ncmds != n)
		fail_msg("%s: %zu commands; text:\n%s", what, r->ncmds, r->text);
	assert_cmds(r, w, n);
	assert_lacks(r->text, "retest 9x");
	reply_release(r);
}

/*
 * Items 1, 3 and 6 in HTML: Outlook's header blocks, French with
 * "De&nbsp;:", Japanese (差出人 / 送信日時 / 宛先 / 件名), under an <hr>.
 */
static void t_html_header_blocks(void **state)
{
	static const struct want w[] = { { CMD_RETEST, 3, "retest 3x" } };
	struct reply *r = *state;

	html_case(r, "French", "<p>retest 3x</p><div style='border-top:solid'>"
		  "<p><b>De&nbsp;:</b> Carol &lt;carol@example.test&gt;<br>"
		  "<b>Envoy&eacute;&nbsp;:</b> vendredi 15 mars 2024 03:58<br>"
		  "<b>&Agrave;&nbsp;:</b> perfbot<br><b>Objet&nbsp;:</b> RE: "
		  "report</p></div><p>retest 9x</p>", w, 1);
	html_case(r, "Japanese", "<div>retest 3x</div><div><b>\xe5\xb7\xae"
		  "\xe5\x87\xba\xe4\xba\xba:</b> Carol<br><b>\xe9\x80\x81"
		  "\xe4\xbf\xa1\xe6\x97\xa5\xe6\x99\x82:</b> 2024\xe5\xb9"
		  "\xb4" "3\xe6\x9c\x88" "15\xe6\x97\xa5<br><b>\xe5\xae"
		  "\x9b\xe5\x85\x88:</b> perfbot<br><b>\xe4\xbb\xb6\xe5\x90"
		  "\x8d:</b> RE: report</div><div>retest 9x</div>", w, 1);
	html_case(r, "under an <hr>", "<div>retest 3x</div><hr><div><b>From:"
		  "</b> Carol<br><b>To:</b> perfbot<br><b>Sent:</b> Friday<br>"
		  "<b>Subject:</b> report</div><div>retest 9x</div>", w, 1);
	html_case(r, "Gmail's forward", "<div>retest 3x</div><div class="
		  "\"gmail_quote\"><div class=\"gmail_attr\">---------- "
		  "Forwarded message ---------<br>From: <b>Carol</b><br>Date: "
		  "Fri<br>Subject: report<br>To: x<br></div><br>retest 9x</div>",
		  w, 1);
	html_case(r, "an entity in a command", "<p>retest&#32;3x&#8203;</p>",
		  w, 1);
}

static void t_flowed_no_delsp(void **state)
{
	struct reply *r = *state;

	parse_str(HDRS "Content-Type: text/plain; format=flowed\n\n"
		  "retest \n4x\n>> retest \n>> 3x\n> \n-- \nhelp\n", r);
	assert_cmds(r, (const struct want[]){ { CMD_RETEST, 4, "retest 4x" } },
		    1);
	assert_string_equal(r->text, "retest 4x\n");
}

static void t_flowed_quote_depth(void **state)
{
	struct reply *r = *state;

	/* A soft break does not join lines of different quote depth. */
	parse_str(HDRS "Content-Type: text/plain; format=flowed\n\n"
		  "> quoted \nhelp\n", r);
	assert_cmds(r, (const struct want[]){ { CMD_HELP, 0, "help" } }, 1);
}

static void t_charset_fallbacks(void **state)
{
	struct reply *r = *state;

	/* No charset, not UTF-8: read as windows-1252. */
	parse_str(HDRS "\ncaf\xe9 retest\n", r);
	assert_contains(r->text, "caf\xc3\xa9 retest\n");
	reply_release(r);
	/* Declared UTF-8 with invalid bytes: replaced. */
	parse_str(HDRS "Content-Type: text/plain; charset=utf-8\n\n"
		  "a\xff\xfe" "b\nhelp\n", r);
	assert_contains(r->text, "a\xef\xbf\xbd");
	assert_int_equal(r->ncmds, 1);
	reply_release(r);
	/* Unknown charset: treated as UTF-8, still no crash. */
	parse_str(HDRS "Content-Type: text/plain; charset=x-no-such\n\n"
		  "ok\xc3\n\nhelp\n", r);
	assert_int_equal(r->ncmds, 1);
	reply_release(r);
	/* A charset iconv knows but the bytes break: replaced. */
	parse_str(HDRS "Content-Type: text/plain; charset=shift_jis\n\n"
		  "\x82\nhelp\n", r);
	assert_int_equal(r->ncmds, 1);
}

static void t_utf16_base64(void **state)
{
	struct reply *r = *state;
	gchar *b64;
	struct strbuf sb = STRBUF_INIT;
	static const char u16[] = "r\0e\0t\0e\0s\0t\0 \0" "2\0x\0\n\0";

	b64 = g_base64_encode((const guchar *)u16, sizeof(u16) - 1);
	assert_int_equal(sb_addf(&sb, HDRS "Content-Type: text/plain; "
				 "charset=utf-16le\nContent-Transfer-Encoding:"
				 " base64\n\n%s\n", b64), 0);
	g_free(b64);
	parse_buf(sb.buf, sb.len, r);
	sb_release(&sb);
	assert_cmds(r, (const struct want[]){ { CMD_RETEST, 2, "retest 2x" } },
		    1);
}

static void t_attachment_skipped(void **state)
{
	struct reply *r = *state;

	parse_str(HDRS "MIME-Version: 1.0\n"
		  "Content-Type: multipart/mixed; boundary=b\n\n"
		  "--b\nContent-Type: text/plain\n"
		  "Content-Disposition: attachment; filename=cmds.txt\n\n"
		  "retest 9x\n"
		  "--b\nContent-Type: application/pgp-encrypted\n\nx\n"
		  "--b\nContent-Type: text/plain\n\nhelp\n--b--\n", r);
	assert_cmds(r, (const struct want[]){ { CMD_HELP, 0, "help" } }, 1);
}

static void t_forwarded_message_not_entered(void **state)
{
	struct reply *r = *state;

	parse_str(HDRS "MIME-Version: 1.0\n"
		  "Content-Type: multipart/mixed; boundary=b\n\n"
		  "--b\nContent-Type: message/rfc822\n\n"
		  "From: other@example.test\n\nretest 9x\n"
		  "--b--\n", r);
	assert_int_equal(r->ncmds_seen, 0);
	assert_string_equal(r->text, "");
}

static void t_commands_cap(void **state)
{
	struct reply *r = *state;
	struct strbuf sb = STRBUF_INIT;
	int i;

	assert_int_equal(sb_adds(&sb, HDRS "\n"), 0);
	for (i = 0; i < 40; i++)
		assert_int_equal(sb_adds(&sb, "help\n"), 0);
	parse_buf(sb.buf, sb.len, r);
	sb_release(&sb);
	assert_int_equal(r->ncmds, REPLY_MAX_COMMANDS);
	assert_int_equal(r->ncmds_seen, 40);
}

/* ------------------------------------------------------------------ */
/* reply_must_not_answer()                                             */

static int robot(const char *from, const char *as, const char **why)
{
	struct reply r;

	memset(&r, 0, sizeof(r));
	r.from_addr = (char *)from;
	r.auto_submitted = (char *)as;
	return reply_must_not_answer(&r, NULL, 0, why);
}

static void t_rule_auto_submitted(void **state)
{
	const char *why = NULL;

	(void)state;
	assert_int_equal(robot("jane@example.test", "auto-generated", &why), 1);
	assert_string_equal(why, "auto-submitted mail");
	assert_int_equal(robot("jane@example.test", "auto-replied", &why), 1);
	assert_int_equal(robot("jane@example.test", "", &why), 1);
	assert_int_equal(robot("jane@example.test", "nope", &why), 1);
	assert_int_equal(robot("jane@example.test", "no", &why), 0);
	assert_null(why);
	assert_int_equal(robot("jane@example.test", "No (by hand)", &why), 0);
	assert_int_equal(robot("jane@example.test", " no; x=y", &why), 0);
}

static void t_rule_local_parts(void **state)
{
	static const char *const bad[] = {
		"MAILER-DAEMON@mx.example.test", "mailer-daemon",
		"Postmaster@example.test", "linux-kernel-request@vger.example.test",
		"owner-linux-kernel@vger.example.test", "OWNER-x@example.org",
		"noreply@example.test", "No-Reply@example.test",
		"do-not-reply@example.test", "mail-gateway@mx.example.test",
	};
	static const char *const good[] = {
		"request@example.test", "postmasters@example.test",
		"jane.owner-@example.test", "daemon@example.test",
		"jane-requests@example.test", "noreplyjane@example.test",
		"gateway@example.test",
	};
	const char *why = NULL;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(robot(bad[i], NULL, &why), 1);
		assert_non_null(why);
	}
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		assert_int_equal(robot(good[i], NULL, &why), 0);
	robot("x-request@example.org", NULL, &why);
	assert_string_equal(why, "sent by a list robot (-request)");
}

static void t_rule_own_address(void **state)
{
	static const char *const own[] = { "perfbot@example.org",
		"lkp@example.org" };
	struct reply r;
	const char *why = NULL;

	(void)state;
	memset(&r, 0, sizeof(r));
	r.from_addr = (char *)"lkp@example.org";
	assert_int_equal(reply_must_not_answer(&r, own, 2, &why), 1);
	assert_string_equal(why, "sent by the bot itself");
	r.from_addr = (char *)"jane@example.org";
	assert_int_equal(reply_must_not_answer(&r, own, 2, &why), 0);
	/* Addresses compare without regard to case. */
	assert_int_equal(reply_must_not_answer(&r, (const char *const[]){
		"JANE@Example.ORG" }, 1, NULL), 1);
}

static void t_rule_null_dsn_nofrom(void **state)
{
	struct reply r;
	const char *why = NULL;

	(void)state;
	memset(&r, 0, sizeof(r));
	r.from_addr = (char *)"jane@example.test";
	assert_int_equal(reply_must_not_answer(&r, NULL, 0, &why), 0);
	r.null_sender = 1;
	assert_int_equal(reply_must_not_answer(&r, NULL, 0, &why), 1);
	assert_string_equal(why, "null return path");
	r.null_sender = 0;
	r.is_dsn = 1;
	assert_int_equal(reply_must_not_answer(&r, NULL, 0, &why), 1);
	assert_string_equal(why, "delivery status notification");
	r.is_dsn = 0;
	r.list_mail = 1;
	assert_int_equal(reply_must_not_answer(&r, NULL, 0, &why), 0);
	r.from_addr = NULL;
	assert_int_equal(reply_must_not_answer(&r, NULL, 0, &why), 1);
	assert_string_equal(why, "no usable From address");
}

/* ------------------------------------------------------------------ */
/* Hostile input                                                       */

static uint32_t rnd(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

static void t_empty(void **state)
{
	struct reply *r = *state;
	struct pb_err err = { 0, "" };

	assert_int_equal(reply_parse("", 0, &opts, r, &err), -1);
	assert_int_equal(err.code, EX_DATAERR);
	assert_string_equal(err.msg, "empty message");
	assert_null(r->text);
	reply_release(r);
	assert_int_equal(reply_parse("From x@y Fri\n", 13, &opts, r, &err), -1);
	assert_int_equal(err.code, EX_DATAERR);
	reply_release(r);
	assert_int_equal(reply_parse("\n", 1, NULL, r, &err), 0);
	assert_string_equal(r->text, "");
}

/* The parse either fails cleanly or gives a sane reply; 1 when parsed. */
static int parse_any(const char *raw, size_t len, struct reply *r)
{
	struct pb_err err = { 0, "" };
	int ok = reply_parse(raw, len, &opts, r, &err) == 0;

	if (ok)
		assert_sane(r);
	else
		assert_int_not_equal(err.code, 0);
	reply_release(r);
	return ok;
}

#define MIXED HDRS "MIME-Version: 1.0\n" \
	"Content-Type: multipart/mixed; boundary=b\n\n--b\n"

static void t_random_bytes(void **state)
{
	static const char *const words[] = { "\n", "\r\n", ": ", "--b\n",
		"Content-Type: multipart/mixed; boundary=b\n", "=?utf-8?q?",
		"?=", "<", ">", "&#x", ";", "retest 4x\n", "> ", "-- \n",
		"Content-Transfer-Encoding: base64\n", "=\n", "\0" };
	struct reply *r = *state;
	char buf[4096];
	uint32_t seed = 0x9e3779b9u;
	size_t len, i, k, n;
	int it, parsed = 0;

	for (it = 0; it < 200; it++) {
		len = rnd(&seed) % sizeof(buf);
		i = 0;
		/* Half the iterations: real headers, then garbage MIME. */
		if (it % 2 && len > sizeof(MIXED)) {
			memcpy(buf, MIXED, sizeof(MIXED) - 1);
			i = sizeof(MIXED) - 1;
		}
		for (; i < len; i++) {
			/* Half the iterations mix in mail-like tokens. */
			if (it % 2 && rnd(&seed) % 8 == 0) {
				k = rnd(&seed) % (sizeof(words) / sizeof(words[0]));
				n = strlen(words[k]) ? strlen(words[k]) : 1;
				if (i + n > len)
					n = len - i;
				memcpy(buf + i, words[k], n);
				i += n - 1;
			} else {
				buf[i] = (char)rnd(&seed);
			}
		}
		parsed += parse_any(buf, len, r);
	}
	print_message("random: %d of 200 parsed\n", parsed);
	/* Both paths were taken: clean refusals and sane replies. */
	assert_true(parsed > 0 && parsed < 200);
}

static void t_mutated_fixtures(void **state)
{
	static const char *const names[] = { "html-only", "signed", "dsn",
		"flowed", "alternative", "malformed", "latin1", "base64" };
	struct reply *r = *state;
	uint32_t seed = 12345;
	struct strbuf sb;
	size_t f, i, pos;
	char *copy;
	int it, parsed = 0;

	for (f = 0; f < sizeof(names) / sizeof(names[0]); f++) {
		read_fixture(names[f], &sb);
		copy = malloc(sb.len);
		assert_non_null(copy);
		for (it = 0; it < 25; it++) {
			memcpy(copy, sb.buf, sb.len);
			for (i = 0; i < 1 + (size_t)it; i++) {
				pos = rnd(&seed) % sb.len;
				copy[pos] = (char)rnd(&seed);
			}
			parsed += parse_any(copy, sb.len - rnd(&seed) %
					    (sb.len / 2), r);
		}
		free(copy);
		sb_release(&sb);
	}
	print_message("mutated: %d of 200 parsed\n", parsed);
	assert_true(parsed > 100);
}

static void t_many_headers(void **state)
{
	struct reply *r = *state;
	struct strbuf sb = STRBUF_INIT;
	int i;

	for (i = 0; i < 10000; i++)
		assert_int_equal(sb_addf(&sb, "X-Header-%d: value %d\n", i, i), 0);
	assert_int_equal(sb_adds(&sb, HDRS "\nretest 2x\n"), 0);
	parse_buf(sb.buf, sb.len, r);
	sb_release(&sb);
	assert_string_equal(r->from_addr, "jane@example.test");
	assert_string_equal(r->in_reply_to, REPORT_ID);
	assert_int_equal(r->ncmds, 1);
}

static void nested(struct strbuf *sb, int depth)
{
	int i;

	assert_int_equal(sb_adds(sb, HDRS "MIME-Version: 1.0\n"), 0);
	for (i = 0; i < depth; i++)
		assert_int_equal(sb_addf(sb, "Content-Type: multipart/mixed; "
					 "boundary=\"b%d\"\n\n--b%d\n", i, i), 0);
	assert_int_equal(sb_adds(sb, "Content-Type: text/plain\n\nhelp\n"), 0);
	for (i = depth - 1; i >= 0; i--)
		assert_int_equal(sb_addf(sb, "--b%d--\n", i), 0);
}

static void t_deep_nesting(void **state)
{
	struct reply *r = *state;
	struct strbuf sb = STRBUF_INIT;

	/* Within the depth cap the text is found... */
	nested(&sb, REPLY_MAX_DEPTH);
	parse_buf(sb.buf, sb.len, r);
	assert_int_equal(r->ncmds, 1);
	reply_release(r);
	/* ...50 deep it is not looked for, and nothing breaks. */
	sb_reset(&sb);
	nested(&sb, 50);
	parse_buf(sb.buf, sb.len, r);
	sb_release(&sb);
	assert_string_equal(r->from_addr, "jane@example.test");
	assert_int_equal(r->ncmds_seen, 0);
	assert_string_equal(r->text, "");
}

static void t_many_parts(void **state)
{
	struct reply *r = *state;
	struct strbuf sb = STRBUF_INIT;
	int i;

	assert_int_equal(sb_adds(&sb, HDRS "MIME-Version: 1.0\nContent-Type:"
				 " multipart/mixed; boundary=b\n\n"), 0);
	for (i = 0; i < 10000; i++)
		assert_int_equal(sb_adds(&sb, "--b\nContent-Type: image/png\n\n"
					 "x\n"), 0);
	assert_int_equal(sb_adds(&sb, "--b\n\nhelp\n--b--\n"), 0);
	parse_buf(sb.buf, sb.len, r);
	sb_release(&sb);
	assert_int_equal(r->ncmds, 1);
}

static void t_oversized(void **state)
{
	struct reply *r = *state;
	struct pb_err err = { 0, "" };
	struct strbuf sb;
	char *big;

	big = malloc((size_t)REPLY_MAX_BYTES + 1);
	assert_non_null(big);
	memset(big, 'a', (size_t)REPLY_MAX_BYTES + 1);
	assert_int_equal(reply_parse(big, (size_t)REPLY_MAX_BYTES + 1, &opts, r,
				     &err), -1);
	assert_int_equal(err.code, EX_DATAERR);
	assert_string_equal(err.msg, "message larger than 10485760 bytes");
	reply_release(r);
	/* At the limit it is read: a 10 MiB body of short lines. */
	sb_init(&sb, (size_t)REPLY_MAX_BYTES);
	assert_int_equal(sb_adds(&sb, HDRS "\nhelp\n"), 0);
	while (sb.len + 8 <= (size_t)REPLY_MAX_BYTES)
		assert_int_equal(sb_adds(&sb, "a b c.\n"), 0);
	parse_buf(sb.buf, sb.len, r);
	assert_int_equal(r->ncmds, 1);
	sb_release(&sb);
	free(big);
}

/*
 * Issue 29 item 5: what list mail holds that is no command, in the shapes
 * of real mails (written for this test): Kconfig's "help" in a combined
 * diff of a merge fixup and pasted without a diff, a line of prose
 * wrapped so that it starts with "fix:", a commit message as git log
 * indents it, the last word of a shell line ended by '\', "Test 30" as a
 * heading, shell's "test ... || {", and a "Test" under an attribution
 * that opens with the date and writes the time "18.30".
 */
static void t_list_mail_shapes(void **state)
{
	static const char *const bodies[] = {
		"Hi all,\n\nthe merge of the foo tree needed this:\n\n"
		"diff --cc drivers/foo/Kconfig\n"
		"index 1111111,2222222..3333333\n"
		"--- a/drivers/foo/Kconfig\n+++ b/drivers/foo/Kconfig\n"
		"@@@ -10,6 -10,7 +10,8 @@@ config FOO\n"
		"  \tbool \"Foo support\"\n  \tdepends on BAR\n ++\tselect BAZ\n"
		"  \thelp\n  \t  Say Y here.\n  \n\nCheers,\nSam\n",
		"The new symbol reads:\n\nconfig FOO_BAR\n\tbool \"Foo bar\"\n"
		"\tdefault n\n\thelp\n\t  Enables foo bar.\n\nRegards\n",
		"The new symbol reads:\n\nconfig FOO_BAR\n        tristate \"Foo\"\n"
		"        help\n          Enables foo.\n",
		"This looks like the problem that was reported earlier in the thread at\n"
		"fix: https://lore.example.test/r/20240101.abc@example.test/ which\n"
		"was never merged.\n",
		"commit 0123456789abcdef0123456789abcdef01234567\n"
		"Author: Dev <dev@example.test>\nDate:   Mon Jan 1 00:00:00 2024\n\n"
		"    foo: do the thing\n\n    Fix: the thing was broken\n    test\n\n"
		"    Signed-off-by: Dev <dev@example.test>\n",
		"I built it with\n\n  make -C tools/perf O=/tmp/build \\\n    test\n\n"
		"and it failed.\n",
		"Hi,\n\nTest 30\n\nIt passes now.\n",
		"The script does:\n\ntest /sys/kernel/debug/foo || {\n\techo gone\n}\n",
		"Thanks!\n\n30.09.2017, 18.30, \"Sam - Doe\" <sam@example.test>:\n"
		"Test\n\nthe rest of the original\n",
		/* a commit message's "Fix:" over what it fixes: no near-miss */
		"---\nFrom: Dev <dev@example.test>\n\nFix:\n\n"
		"  Documentation/foo.rst:9: ERROR: Unexpected indentation\n\n"
		"when building the docs.\n",
	};
	struct reply *r = *state;
	struct strbuf sb;
	size_t i;

	for (i = 0; i < sizeof(bodies) / sizeof(bodies[0]); i++) {
		sb_init(&sb, REPLY_MAX_BYTES);
		assert_int_equal(sb_adds(&sb, HDRS "\n"), 0);
		assert_int_equal(sb_adds(&sb, bodies[i]), 0);
		parse_buf(sb.buf, sb.len, r);
		if (r->ncmds)
			fail_msg("body %zu: a command '%s'", i, r->cmds[0].line);
		reply_release(r);
		sb_release(&sb);
	}
}

/* The commands people write around such text are still found. */
static void t_list_mail_commands_kept(void **state)
{
	static const struct want w[] = {
		{ CMD_RETEST, 3, "retest 3x" }, { CMD_TEST, 8, "test 8x" },
		{ CMD_FIX, 0, "fix: foo: take the lock once" },
	};
	struct reply *r = *state;

	parse_str(HDRS "\nThis looks odd to me, could you run it again and then\n"
		  "try the fix?\nretest 3x\n  test 8x\n"
		  "fix: foo: take the lock once\n\n"
		  "diff --cc x/Kconfig\n@@@ -1,2 -1,2 +1,3 @@@\n  \thelp\n"
		  " +\tx\n", r);
	assert_cmds(r, w, 3);
	assert_int_equal(r->cmds[1].form, TEST_PATCH);
}

static void t_one_megabyte_line(void **state)
{
	struct reply *r = *state;
	struct strbuf sb = STRBUF_INIT;

	assert_int_equal(sb_adds(&sb, HDRS "\n#perfbot retest "), 0);
	assert_int_equal(sb_addn(&sb, 'x', (size_t)1 << 20), 0);
	assert_int_equal(sb_adds(&sb, "\n"), 0);
	assert_int_equal(sb_addn(&sb, 'y', (size_t)1 << 20), 0);
	assert_int_equal(sb_adds(&sb, "\nretest 2x\n"), 0);
	parse_buf(sb.buf, sb.len, r);
	sb_release(&sb);
	assert_int_equal(r->ncmds, 2);
	assert_int_equal(r->cmds[0].kind, CMD_UNKNOWN);
	assert_int_equal(strlen(r->cmds[0].line), CMD_LINE_MAX - 1);
	assert_int_equal(r->cmds[1].runs, 2);
}

static void t_too_many_lines(void **state)
{
	struct reply *r = *state;
	struct strbuf sb = STRBUF_INIT;

	assert_int_equal(sb_adds(&sb, HDRS "\nhelp\n"), 0);
	assert_int_equal(sb_addn(&sb, '\n', REPLY_MAX_LINES), 0);
	assert_int_equal(sb_adds(&sb, "retest 2x\n"), 0);
	parse_buf(sb.buf, sb.len, r);
	sb_release(&sb);
	/* Lines past the cap are not looked at. */
	assert_cmds(r, (const struct want[]){ { CMD_HELP, 0, "help" } }, 1);
}

static void t_nul_bytes(void **state)
{
	static const char raw[] = HDRS "\nretest 2x\n\0\0hello\0world\n"
		"retest\0 3x\nhelp\n";
	struct reply *r = *state;

	parse_buf(raw, sizeof(raw) - 1, r);
	assert_int_equal(r->ncmds, 2);
	assert_int_equal(r->cmds[0].runs, 2);
	assert_int_equal(r->cmds[1].kind, CMD_HELP);
	assert_contains(r->text, "hello");
	assert_contains(r->text, "world\n");
	assert_contains(r->text, "help\n");
}

static void t_bad_base64(void **state)
{
	struct reply *r = *state;

	parse_str(HDRS "Content-Transfer-Encoding: base64\n\n"
		  "!!!!cmV0ZXN0IDJ4Cg==####\x80\x81====\n", r);
	assert_non_null(r->text);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(t_bottom_posted),
		T(t_outlook_top_posted),
		T(t_outlook_header_block),
		T(t_inline_patch),
		T(t_nbsp),
		T(t_client_fixtures),
		T(t_schrieb_unquoted),
		T(t_ecrit_unquoted),
		T(t_von_gesendet),
		T(t_tab_echo),
		T(t_attribution_then_quote),
		T(t_html_only),
		T(t_alternative_prefers_plain),
		T(t_base64),
		T(t_quoted_printable),
		T(t_latin1),
		T(t_koi8r),
		T(t_cp1252),
		T(t_flowed_delsp),
		T(t_signed),
		T(t_quoted_only),
		T(t_signature_command),
		T(t_out_of_office),
		T(t_dsn),
		T(t_dsn_rfc822),
		T(t_auto_reply_marks),
		T(t_gateway_bounce),
		T(t_ten_commands),
		T(t_list_reply),
		T(t_prefixed_unknown),
		T(t_prefixed_help),
		T(t_mixed_case),
		T(t_reply_to),
		T(t_malformed),
		T(t_prose),
		T(t_no_prefix_configured),
		T(t_missing_headers),
		T(t_header_crlf_tricks),
		T(t_from_without_domain),
		T(t_references_cap),
		T(t_in_reply_to_first),
		T(t_null_sender),
		T(t_precedence),
		T(t_mbox_from_line),
		T(t_attribution_variants),
		T(t_signature_without_space),
		T(t_outlook_separator_only),
		T(t_original_french),
		T(t_original_chinese),
		T(t_forwards),
		T(t_header_blocks),
		T(t_dated_attributions),
		T(t_pasted_patches),
		T(t_invisible_characters),
		T(t_html_rules),
		T(t_html_outlook),
		T(t_html_header_blocks),
		T(t_flowed_no_delsp),
		T(t_flowed_quote_depth),
		T(t_charset_fallbacks),
		T(t_utf16_base64),
		T(t_attachment_skipped),
		T(t_forwarded_message_not_entered),
		T(t_commands_cap),
		cmocka_unit_test(t_rule_auto_submitted),
		cmocka_unit_test(t_rule_local_parts),
		cmocka_unit_test(t_rule_own_address),
		cmocka_unit_test(t_rule_null_dsn_nofrom),
		T(t_empty),
		T(t_random_bytes),
		T(t_mutated_fixtures),
		T(t_many_headers),
		T(t_deep_nesting),
		T(t_many_parts),
		T(t_oversized),
		T(t_one_megabyte_line),
		T(t_list_mail_shapes),
		T(t_list_mail_commands_kept),
		T(t_too_many_lines),
		T(t_nul_bytes),
		T(t_bad_base64),
	};
#undef T

	return cmocka_run_group_tests(tests, NULL, NULL);
}
