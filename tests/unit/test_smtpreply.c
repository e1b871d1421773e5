// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/send/smtpreply.c: each reply of a dialogue read as
 * the answer to its step, and the reply rule: the session's, the
 * sender's and the account's replies stop the batch with their cause's
 * code and setting; a message's 5xx is final; a recipient's reply is its
 * own; what EHLO offered.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sysexits.h>

#include <cmocka.h>

#include "perfbot/send/smtpreply.h"

struct run {
	struct smtp_rcpt r[2];
	struct smtp_trace t;
	struct smtp_result res;
};

/* Play 'lines' ('>' a command, else a reply) to two recipients. */
static void play(struct run *x, const char *const *lines,
		 enum smtp_transport tr, const char *user)
{
	struct smtp_setup su = { 0, user, "h:25", "lib words" };
	size_t i;

	memset(x, 0, sizeof(*x));
	snprintf(x->r[0].addr, sizeof(x->r[0].addr), "a@example.test");
	snprintf(x->r[1].addr, sizeof(x->r[1].addr), "b@example.test");
	smtp_trace_start(&x->t, x->r, 2, 0);
	for (i = 0; lines[i]; i++)
		if (lines[i][0] == '>')
			smtp_trace_out(&x->t, lines[i] + 1,
				       strlen(lines[i] + 1));
		else
			smtp_trace_in(&x->t, lines[i], strlen(lines[i]));
	smtp_judge(&x->t, tr, &su, &x->res);
}

#define HEAD "220 hi", ">EHLO me", "250-x", "250-AUTH PLAIN", \
	"250 SMTPUTF8", ">AUTH PLAIN secret", "235 ok", \
	">MAIL FROM:<p@x>", "250 ok"

static void t_greeting_refused(void **state)
{
	static const char *const l[] = { "554 5.7.1 go away", NULL };
	struct run x;

	(void)state;
	play(&x, l, SMTP_TR_REFUSED, "perfbot");
	assert_int_equal(x.res.outcome, SMTP_SESSION);
	assert_int_equal(x.res.exit, EX_UNAVAILABLE);
	assert_string_equal(x.res.reply, "554 5.7.1 go away");
}

static void t_auth(void **state)
{
	static const char *const bad[] = { "220 hi", ">EHLO me",
		"250-x", "250 AUTH PLAIN", ">AUTH PLAIN secret",
		"535 5.7.8 no", NULL };
	static const char *const later[] = { "220 hi", ">EHLO me",
		"250-x", "250 AUTH PLAIN", ">AUTH PLAIN secret",
		"454 4.7.0 later", NULL };
	struct run x;

	(void)state;
	play(&x, bad, SMTP_TR_REFUSED, "perfbot");
	assert_int_equal(x.res.outcome, SMTP_SESSION);
	assert_int_equal(x.res.exit, EX_NOPERM);
	assert_string_equal(x.res.setting, "smtp.user");
	/* the AUTH data is never kept */
	assert_null(strstr(x.res.reply, "secret"));
	play(&x, later, SMTP_TR_REFUSED, "perfbot");
	assert_int_equal(x.res.exit, EX_TEMPFAIL);
}

static void t_sender(void **state)
{
	static const char *const l[] = { "220 hi", ">EHLO me", "250 x",
		">MAIL FROM:<p@x>", "553 5.7.1 not yours", NULL };
	static const char *const tls[] = { "220 hi", ">EHLO me", "250 x",
		">MAIL FROM:<p@x>", "530 5.7.0 Must issue a STARTTLS command "
		"first", NULL };
	struct run x;

	(void)state;
	play(&x, l, SMTP_TR_REFUSED, NULL);
	assert_int_equal(x.res.exit, EX_CONFIG);
	assert_string_equal(x.res.setting, "identity.from");
	play(&x, tls, SMTP_TR_REFUSED, "perfbot");
	assert_int_equal(x.res.exit, EX_CONFIG);
	assert_string_equal(x.res.setting, "smtp.tls");
	assert_int_equal(x.t.caps & SMTP_CAP_AUTH, 0);
}

static void t_recipients(void **state)
{
	static const char *const l[] = { HEAD, ">RCPT TO:<a@example.test>",
		"451 4.7.1 greylisted", ">RCPT TO:<b@example.test>", "250 ok",
		">DATA", "354 go", "250 2.0.0 queued as Q", NULL };
	static const char *const mix[] = { HEAD,
		">RCPT TO:<a@example.test>", "452 4.5.3 later",
		">RCPT TO:<b@example.test>", "550 5.1.1 no such", NULL };
	struct run x;

	(void)state;
	play(&x, l, SMTP_TR_OK, "perfbot");
	assert_int_equal(x.res.outcome, SMTP_ACCEPTED);
	assert_int_equal(x.r[0].code, 451);
	assert_int_equal(x.r[1].code, 250);
	assert_string_equal(x.res.reply, "250 2.0.0 queued as Q");
	assert_true(x.t.caps & SMTP_CAP_SMTPUTF8);
	play(&x, mix, SMTP_TR_REFUSED, "perfbot");
	assert_int_equal(x.res.outcome, SMTP_TEMPORARY);
	assert_int_equal(x.r[1].code, 550);
}

static void t_policy_for_all(void **state)
{
	static const char *const l[] = { "220 hi", ">EHLO me", "250 x",
		">MAIL FROM:<p@x>", "250 ok", ">RCPT TO:<a@example.test>",
		"554 5.7.1 Relay access denied", ">RCPT TO:<b@example.test>",
		"554 5.7.1 Relay access denied", NULL };
	struct run x;

	(void)state;
	play(&x, l, SMTP_TR_REFUSED, NULL);
	assert_int_equal(x.res.outcome, SMTP_SESSION);
	assert_int_equal(x.res.exit, EX_CONFIG);
	assert_string_equal(x.res.setting, "smtp.user");
}

static void t_message(void **state)
{
	static const char *const l[] = { HEAD, ">RCPT TO:<a@example.test>",
		"250 ok", ">RCPT TO:<b@example.test>", "250 ok", ">DATA",
		"354 go", "554 5.6.0 content refused", NULL };
	static const char *const closing[] = { HEAD,
		">RCPT TO:<a@example.test>", "421 4.3.2 closing", NULL };
	struct run x;

	(void)state;
	play(&x, l, SMTP_TR_REFUSED, "perfbot");
	assert_int_equal(x.res.outcome, SMTP_PERMANENT);
	assert_string_equal(x.res.reply, "554 5.6.0 content refused");
	play(&x, closing, SMTP_TR_REFUSED, "perfbot");
	assert_int_equal(x.res.outcome, SMTP_SESSION);
	assert_int_equal(x.res.exit, EX_TEMPFAIL);
}

/*
 * A 421 to one RCPT and 250 to the data: the mail went to the other
 * recipient (issue 29 item 20); the 421 is that recipient's, tried again.
 * A refused EHLO still decides, whatever came after it.
 */
static void t_taken_after_421(void **state)
{
	static const char *const l[] = { HEAD, ">RCPT TO:<a@example.test>",
		"421 4.3.2 Service shutting down", ">RCPT TO:<b@example.test>",
		"250 ok", ">DATA", "354 go", "250 2.0.0 Ok: queued as Q9",
		">QUIT", NULL };
	static const char *const ehlo[] = { "220 hi", ">EHLO me",
		"554 5.7.1 not you", ">HELO me", "250 x", ">MAIL FROM:<p@x>",
		"250 ok", ">RCPT TO:<a@example.test>", "250 ok",
		">RCPT TO:<b@example.test>", "250 ok", ">DATA", "354 go",
		"250 ok", NULL };
	struct run x;

	(void)state;
	play(&x, l, SMTP_TR_NOCONN, "perfbot");
	assert_int_equal(x.res.outcome, SMTP_ACCEPTED);
	assert_string_equal(x.res.reply, "250 2.0.0 Ok: queued as Q9");
	assert_int_equal(x.r[0].code, 421);
	assert_string_equal(x.r[0].reply, "421 4.3.2 Service shutting down");
	assert_int_equal(x.r[1].code, 250);
	play(&x, ehlo, SMTP_TR_OK, "perfbot");
	assert_int_equal(x.res.outcome, SMTP_SESSION);
	assert_int_equal(x.res.exit, EX_UNAVAILABLE);
}

static void t_no_reply(void **state)
{
	static const char *const none[] = { NULL };
	struct run x;

	(void)state;
	play(&x, none, SMTP_TR_NOCONN, "perfbot");
	assert_int_equal(x.res.outcome, SMTP_SESSION);
	assert_int_equal(x.res.exit, EX_TEMPFAIL);
	assert_string_equal(x.res.reply, "lib words");
	play(&x, none, SMTP_TR_CERT, "perfbot");
	assert_int_equal(x.res.exit, EX_UNAVAILABLE);
	assert_string_equal(x.res.setting, "smtp.ca_file");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_greeting_refused),
		cmocka_unit_test(t_auth),
		cmocka_unit_test(t_sender),
		cmocka_unit_test(t_recipients),
		cmocka_unit_test(t_policy_for_all),
		cmocka_unit_test(t_message),
		cmocka_unit_test(t_taken_after_421),
		cmocka_unit_test(t_no_reply),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
