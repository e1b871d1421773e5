// SPDX-License-Identifier: GPL-2.0-only
/*
 * send: what the SMTP server's replies mean (smtpreply.h). The commands
 * and replies of libcurl's trace are followed step by step, so that each
 * reply is known as the answer to the greeting, EHLO, STARTTLS, AUTH,
 * MAIL FROM, one RCPT TO, DATA or the message; smtp_judge() then applies
 * the reply rule: session, sender and account replies stop the batch with
 * the exit code of their cause, only a message's or a recipient's 5xx is
 * final.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sysexits.h>

#include "perfbot/send/smtpreply.h"
#include "perfbot/util/text.h"

/* A line of the dialogue kept to show: CR, LF go; other bytes < 0x20 '?'. */
#define SMTP_LINE (TEXT_DROP_CRLF | TEXT_KEEP_DEL)

void smtp_trace_start(struct smtp_trace *t, struct smtp_rcpt *r, size_t n,
		      int reused)
{
	size_t i;

	memset(t, 0, sizeof(*t));
	/* a reused connection starts at MAIL FROM, with no greeting */
	t->phase = reused ? SMTP_PH_OTHER : SMTP_PH_GREETING;
	t->rcpt = -1;
	t->rcpts = r;
	t->nrcpts = n;
	for (i = 0; i < n; i++) {
		r[i].code = 0;
		r[i].reply[0] = '\0';
	}
}

static int starts(const char *d, size_t n, const char *word)
{
	size_t k = strlen(word);

	return n >= k && !strncasecmp(d, word, k);
}

static void note_rcpt(struct smtp_trace *t, const char *d, size_t n)
{
	const char *lt = memchr(d, '<', n), *gt;
	char addr[256];
	size_t i;

	gt = lt ? memchr(lt, '>', n - (size_t)(lt - d)) : NULL;
	if (!lt || !gt)
		return;
	text_scrub_to(addr, sizeof(addr), lt + 1, (size_t)(gt - lt - 1),
		      SMTP_LINE);
	for (i = 0; i < t->nrcpts; i++)
		if (!strcasecmp(t->rcpts[i].addr, addr))
			t->rcpt = (int)i;
}

void smtp_trace_out(struct smtp_trace *t, const char *d, size_t n)
{
	t->rcpt = -1;
	if (starts(d, n, "EHLO") || starts(d, n, "HELO")) {
		t->phase = SMTP_PH_EHLO;
		t->ehlo_line = 0;
		t->caps = 0;
	} else if (starts(d, n, "STARTTLS")) {
		t->phase = SMTP_PH_STARTTLS;
	} else if (starts(d, n, "AUTH ")) {
		t->phase = SMTP_PH_AUTH;
		t->auth_sent = 1;
	} else if (starts(d, n, "MAIL FROM:")) {
		t->phase = SMTP_PH_MAIL;
	} else if (starts(d, n, "RCPT TO:")) {
		t->phase = SMTP_PH_RCPT;
		note_rcpt(t, d, n);
	} else if (starts(d, n, "DATA")) {
		t->phase = SMTP_PH_DATA;
		t->data_go = 0;
	} else if (starts(d, n, "QUIT")) {
		t->phase = SMTP_PH_QUIT;
		t->quitting = 1;
	} else if (t->phase != SMTP_PH_AUTH) {
		/* NOOP, RSET; an AUTH exchange's lines stay AUTH */
		t->phase = SMTP_PH_OTHER;
	}
}

/* A capability line of EHLO ("250-AUTH PLAIN", "250 SMTPUTF8"). */
static void note_cap(struct smtp_trace *t, const char *d, size_t n)
{
	if (t->ehlo_line++ == 0 || n < 4)
		return;	/* the first line is the server's name */
	d += 4;
	n -= 4;
	if (starts(d, n, "AUTH ") || starts(d, n, "AUTH="))
		t->caps |= SMTP_CAP_AUTH;
	else if (starts(d, n, "STARTTLS"))
		t->caps |= SMTP_CAP_STARTTLS;
	else if (starts(d, n, "SMTPUTF8"))
		t->caps |= SMTP_CAP_SMTPUTF8;
}

static void keep(char *buf, const char *d, size_t n)
{
	text_scrub_to(buf, SMTP_REPLY_MAX, d, n, SMTP_LINE);
}

/* The final line of a reply to the command of phase 'ph'. */
static void final_reply(struct smtp_trace *t, int code, const char *d,
			size_t n)
{
	enum smtp_phase ph = t->phase;

	if (ph == SMTP_PH_DATA && t->data_go)
		ph = SMTP_PH_EOD;
	t->replies++;
	if (ph == SMTP_PH_EHLO && code / 100 == 2)
		t->ehlo_done = 1;
	if (ph == SMTP_PH_STARTTLS && code == 220)
		t->tls_ok = 1;
	if (ph == SMTP_PH_AUTH && code / 100 == 2)
		t->auth_ok = 1;
	if (ph == SMTP_PH_DATA && code == 354)
		t->data_go = 1;
	if (ph == SMTP_PH_RCPT && t->rcpt >= 0) {
		t->rcpts[t->rcpt].code = code;
		keep(t->rcpts[t->rcpt].reply, d, n);
	}
	if (ph == SMTP_PH_EOD) {
		t->eod_code = code;
		keep(t->eod_reply, d, n);
	}
	/* a refused recipient is that recipient's, not the session's */
	if (code / 100 >= 4 && !t->fail_code &&
	    (ph != SMTP_PH_RCPT || code == 421)) {
		t->fail_code = code;
		t->fail_at = ph;
		keep(t->fail_reply, d, n);
	}
}

void smtp_trace_in(struct smtp_trace *t, const char *d, size_t n)
{
	int code;

	/* 'd' is not NUL-terminated: read the code digit by digit */
	if (n < 3 || t->quitting || !isdigit((unsigned char)d[0]) ||
	    !isdigit((unsigned char)d[1]) || !isdigit((unsigned char)d[2]))
		return;
	code = (d[0] - '0') * 100 + (d[1] - '0') * 10 + (d[2] - '0');
	if (t->phase == SMTP_PH_EHLO && code == 250)
		note_cap(t, d, n);
	if (n > 3 && d[3] == '-')
		return;	/* more lines of this reply follow */
	final_reply(t, code, d, n);
}

/* ---- the rule ---- */

static void session(struct smtp_result *res, int ex, const char *setting,
		    const char *fmt, const char *a)
{
	res->outcome = SMTP_SESSION;
	res->exit = ex;
	res->setting = setting;
	snprintf(res->why, sizeof(res->why), fmt, a ? a : "");
}

/* An enhanced status code of class 7 (security or policy): "5.7.1". */
static int policy(const char *reply)
{
	return strlen(reply) > 6 && reply[4] == '5' && reply[5] == '.' &&
	       reply[6] == '7';
}

static int all_rcpts(const struct smtp_trace *t, int (*pred)(const
		     struct smtp_rcpt *))
{
	size_t i;

	for (i = 0; i < t->nrcpts; i++)
		if (!pred(&t->rcpts[i]))
			return 0;
	return t->nrcpts > 0;
}

static int refused_policy(const struct smtp_rcpt *r)
{
	return r->code / 100 == 5 && policy(r->reply);
}

static int refused(const struct smtp_rcpt *r)
{
	return r->code / 100 == 5;
}

static int answered(const struct smtp_rcpt *r)
{
	return r->code / 100 >= 4;
}

/* A recipient's reply that is really about the client or the sender. */
static int rcpt_session(const struct smtp_trace *t, const struct smtp_setup
			*su, struct smtp_result *res)
{
	size_t i;

	for (i = 0; i < t->nrcpts; i++) {
		const struct smtp_rcpt *r = &t->rcpts[i];

		if (r->code == 530 || (r->code / 100 == 5 &&
				       strstr(r->reply, "Client host rejected"))) {
			memcpy(res->reply, r->reply, sizeof(res->reply));
			res->code = r->code;
			if (!su->user || !t->auth_ok)
				session(res, EX_CONFIG, "smtp.user", "the "
					"server takes no mail from this client "
					"without a login%s", !su->user ? "" :
					" (none was made)");
			else
				session(res, EX_UNAVAILABLE, NULL, "the server "
					"refuses mail from this client%s",
					NULL);
			return 1;
		}
		if (r->code / 100 == 5 &&
		    strstr(r->reply, "Sender address rejected")) {
			memcpy(res->reply, r->reply, sizeof(res->reply));
			res->code = r->code;
			session(res, EX_CONFIG, "identity.from", "the server "
				"refuses the sender%s", NULL);
			return 1;
		}
	}
	/* every recipient refused on policy: the account may not relay */
	if (!all_rcpts(t, refused_policy))
		return 0;
	memcpy(res->reply, t->rcpts[0].reply, sizeof(res->reply));
	res->code = t->rcpts[0].code;
	if (!t->auth_ok)
		session(res, EX_CONFIG, "smtp.user", "the server refuses every "
			"recipient without a login%s", !su->user ? "" :
			" (none was made: the server offered no AUTH)");
	else
		session(res, EX_NOPERM, "smtp.user", "the server refuses every "
			"recipient for this login%s", NULL);
	return 1;
}

static void at_auth(const struct smtp_trace *t, const struct smtp_setup *su,
		    struct smtp_result *res)
{
	int c = t->fail_code;

	if (c / 100 == 4)
		session(res, EX_TEMPFAIL, NULL, "login failed for now%s", NULL);
	else if (c == 534 || c == 538 || c == 530)
		session(res, EX_CONFIG, "smtp.tls", "the server wants TLS or "
			"another mechanism for this login%s", NULL);
	else
		session(res, EX_NOPERM, "smtp.user", "the login as '%s' was "
			"refused (check smtp.user and its password)",
			su->user);
}

static void at_mail(const struct smtp_trace *t, const struct smtp_setup *su,
		    struct smtp_result *res)
{
	int c = t->fail_code;

	if (c / 100 == 4)
		session(res, EX_TEMPFAIL, NULL, "the server defers the "
			"sender%s", NULL);
	else if (c == 530 && !su->tls)
		session(res, EX_CONFIG, "smtp.tls", "the server wants TLS "
			"first (smtp.tls: none)%s", NULL);
	else if (c == 530)
		session(res, EX_CONFIG, "smtp.user", "the server wants a "
			"login%s", su->user && !(t->caps & SMTP_CAP_AUTH) ?
			" (it offered no AUTH)" : "");
	else
		session(res, EX_CONFIG, "identity.from", "the server refuses "
			"the sender%s", NULL);
}

/* The first failing reply decided; which step it answered says how. */
static void by_phase(const struct smtp_trace *t, const struct smtp_setup *su,
		     struct smtp_result *res)
{
	int temp = t->fail_code / 100 == 4;

	memcpy(res->reply, t->fail_reply, sizeof(res->reply));
	res->code = t->fail_code;
	if (t->fail_code == 421) {
		session(res, EX_TEMPFAIL, NULL, "the server is closing the "
			"session%s", NULL);
		return;
	}
	switch (t->fail_at) {
	case SMTP_PH_GREETING:
	case SMTP_PH_EHLO:
	case SMTP_PH_OTHER:
		session(res, temp ? EX_TEMPFAIL : EX_UNAVAILABLE, NULL,
			temp ? "the server defers the session%s" :
			"the server refuses the session%s", NULL);
		break;
	case SMTP_PH_STARTTLS:
		session(res, temp ? EX_TEMPFAIL : EX_UNAVAILABLE, "smtp.tls",
			"STARTTLS refused%s", NULL);
		break;
	case SMTP_PH_AUTH:
		at_auth(t, su, res);
		break;
	case SMTP_PH_MAIL:
		at_mail(t, su, res);
		break;
	default:	/* DATA or the message: about this mail */
		res->outcome = temp ? SMTP_TEMPORARY : SMTP_PERMANENT;
	}
}

/* No reply decided it: the transport or the library did. */
static void by_transport(enum smtp_transport tr, const struct smtp_setup *su,
			 struct smtp_result *res)
{
	snprintf(res->reply, sizeof(res->reply), "%s",
		 su->libwhy ? su->libwhy : "no reply");
	switch (tr) {
	case SMTP_TR_TLS:
		session(res, EX_UNAVAILABLE, "smtp.tls", "the TLS handshake "
			"failed%s", NULL);
		break;
	case SMTP_TR_CERT:
		session(res, EX_UNAVAILABLE, "smtp.ca_file", "the server's "
			"certificate is not trusted%s", NULL);
		break;
	case SMTP_TR_NOSTARTTLS:
		session(res, EX_CONFIG, "smtp.tls", "the server offers no "
			"STARTTLS (smtp.tls: starttls needs it)%s", NULL);
		break;
	case SMTP_TR_NOAUTH:
		session(res, EX_CONFIG, "smtp.user", "the server offers no "
			"AUTH mechanism perfbot can use%s", NULL);
		break;
	case SMTP_TR_URL:
		session(res, EX_CONFIG, "smtp.url", "cannot be used%s", NULL);
		break;
	default:
		session(res, EX_TEMPFAIL, NULL, "no connection or no "
			"answer%s", NULL);
	}
}

/* RCPT replies only, the transfer stopped: per recipient, or all. */
static void by_rcpts(const struct smtp_trace *t, struct smtp_result *res)
{
	memcpy(res->reply, t->rcpts[0].reply, sizeof(res->reply));
	res->code = t->rcpts[0].code;
	res->outcome = all_rcpts(t, refused) ? SMTP_PERMANENT : SMTP_TEMPORARY;
}

void smtp_judge(const struct smtp_trace *t, enum smtp_transport tr,
		const struct smtp_setup *su, struct smtp_result *res)
{
	res->outcome = SMTP_ACCEPTED;
	res->exit = 0;
	res->setting = NULL;
	res->code = 0;
	res->reply[0] = res->why[0] = '\0';
	/*
	 * The message taken is delivered to the recipients the server took,
	 * whatever it said to others (a 421 to one RCPT, then 250 to the
	 * data) or after it (a QUIT unanswered): sent again, it would reach
	 * them twice. The others keep their own replies. (A refused greeting,
	 * EHLO, AUTH or sender still decides, as the reply rule says.)
	 */
	if (t->eod_code / 100 == 2 &&
	    (!t->fail_code || t->fail_at == SMTP_PH_RCPT)) {
		res->code = t->eod_code;
		memcpy(res->reply, t->eod_reply, sizeof(res->reply));
		return;
	}
	if (rcpt_session(t, su, res))
		return;
	if (t->fail_code) {
		by_phase(t, su, res);
		return;
	}
	if (all_rcpts(t, answered)) {
		by_rcpts(t, res);
		return;
	}
	if (tr == SMTP_TR_OK || tr == SMTP_TR_REFUSED)
		tr = SMTP_TR_NOCONN;	/* the library stopped early */
	by_transport(tr, su, res);
}
