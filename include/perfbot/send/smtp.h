/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_SMTP_H
#define PERFBOT_SMTP_H

#include <stddef.h>

#include "perfbot/config/config.h"
#include "perfbot/util/err.h"
#include "perfbot/util/strbuf.h"
#include "perfbot/send/smtpreply.h"

/*
 * Sending with libcurl's SMTP: smtp:// with STARTTLS required (default),
 * smtps:// (implicit TLS) or plain smtp:// when tls is "none"; AUTH when
 * a user is configured; the server certificate is always verified when
 * TLS is on. One struct smtp is one connection that libcurl reuses for
 * every message of a batch.
 */

struct smtp;

/*
 * Set up a sender from the 'smtp' section (url, tls, user, password*,
 * ca_file, connect_timeout, timeout). 'reuse' 0 forces a new connection
 * per message (for the benchmark). No network traffic happens here.
 */
int smtp_new(struct smtp **out, const struct config *cfg, int reuse,
	     struct pb_err *err);
void smtp_free(struct smtp *s);

/*
 * Send one message to 'rcpts' (addr-specs): 'res' says how it went
 * (smtpreply.h: the outcome by the reply rule, each recipient's reply).
 * An address whose local part needs SMTPUTF8 goes only to a server that
 * offers it; else it is refused here with a 553 of perfbot's own.
 */
void smtp_send(struct smtp *s, const char *sender, const char *const *rcpts,
	       size_t nrcpts, const char *msg, size_t len,
	       struct smtp_result *res);

/*
 * The one error line of an SMTP_SESSION outcome: "SETTING: host:port:
 * what it means: the server's reply", with the outcome's exit code.
 */
int smtp_session_error(const struct smtp *s, const struct smtp_result *r,
		       struct pb_err *err);

/*
 * Log in and say what the server offers, for 'perfbot check --connect':
 * one line appended to 'out' (TLS, AUTH, the EHLO capabilities). No mail
 * is sent (the session is EHLO, STARTTLS, AUTH, NOOP). Errors as for a
 * mail's SMTP_SESSION (smtp_session_error()); a login that could not
 * even be tried (no AUTH offered) is EX_CONFIG. The password never
 * appears in 'out' or 'err'.
 */
int smtp_probe(struct smtp *s, struct strbuf *out, struct pb_err *err);

#endif
