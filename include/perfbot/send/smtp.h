/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_SMTP_H
#define PERFBOT_SMTP_H

#include <stddef.h>

#include "perfbot/config/config.h"
#include "perfbot/util/err.h"
#include "perfbot/util/strbuf.h"

/*
 * Sending with libcurl's SMTP: smtp:// with STARTTLS required (default),
 * smtps:// (implicit TLS) or plain smtp:// when tls is "none"; AUTH when
 * a user is configured; the server certificate is always verified when
 * TLS is on. One struct smtp is one connection that libcurl reuses for
 * every message of a batch.
 */

enum smtp_outcome {
	SMTP_ACCEPTED,	/* the server took the message */
	SMTP_TEMPORARY,	/* connection trouble or a 4xx: try again later */
	SMTP_PERMANENT,	/* a 5xx for this message: give up on it */
	SMTP_FATAL,	/* login refused, TLS or configuration: stop */
};

#define SMTP_MAX_RCPTS 100
#define SMTP_REPLY_MAX 256

struct smtp_rcpt {
	char addr[256];
	int code;		/* the server's reply to RCPT TO, 0: none */
	char reply[SMTP_REPLY_MAX];
};

struct smtp_result {
	enum smtp_outcome outcome;
	int code;			/* last SMTP reply code, 0 when none */
	int login_refused;		/* AUTH failed */
	char reply[SMTP_REPLY_MAX];	/* the server's last reply, or why */
	struct smtp_rcpt rcpt[SMTP_MAX_RCPTS];
	size_t nrcpt;
};

struct smtp;

/*
 * Set up a sender from the 'smtp' section (url, tls, user, password*,
 * ca_file, connect_timeout, timeout). 'reuse' 0 forces a new connection
 * per message (for the benchmark). No network traffic happens here.
 */
int smtp_new(struct smtp **out, const struct config *cfg, int reuse,
	     struct pb_err *err);
void smtp_free(struct smtp *s);

/* Send one message to 'rcpts' (addr-specs); never fails otherwise. */
void smtp_send(struct smtp *s, const char *sender, const char *const *rcpts,
	       size_t nrcpts, const char *msg, size_t len,
	       struct smtp_result *res);

/*
 * Log in and say what the server offers, for 'perfbot check --connect':
 * one line appended to 'out' (TLS, AUTH, the EHLO capabilities). No mail
 * is sent (the session is EHLO, STARTTLS, AUTH, NOOP). A refused login is
 * EX_NOPERM, a TLS or certificate problem EX_UNAVAILABLE, no connection
 * EX_TEMPFAIL. The password never appears in 'out' or 'err'.
 */
int smtp_probe(struct smtp *s, struct strbuf *out, struct pb_err *err);

#endif
