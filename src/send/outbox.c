// SPDX-License-Identifier: GPL-2.0-only
/*
 * send: the outbox. outbox_queue() stores what compose made; delivery
 * sends what is due over SMTP and records each outcome in the state.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/util/log.h"
#include "perfbot/compose/mail.h"
#include "perfbot/send/outbox.h"
#include "perfbot/send/smtp.h"
#include "perfbot/util/text.h"

#define BATCH_MAX 100000

int outbox_queue(struct state *st, const struct composed *c, time_t now,
		 struct pb_err *err)
{
	struct outbox_mail m = {
		.id = c->id, .kind = (char *)c->kind,
		.report_id = c->report_id, .message_id = c->message_id,
		.sender = c->sender, .message = c->msg.buf, .len = c->msg.len,
	};
	int rc;

	if (!c->id || !c->kind || !c->message_id || !c->sender ||
	    !c->rcpts.n || !c->msg.len)
		return pb_fail(err, EX_SOFTWARE, "outbox: %s '%s' lacks an id, "
			       "a sender, a recipient or its bytes",
			       c->kind ? c->kind : "mail",
			       c->id ? c->id : "");
	m.recipients = addrlist_to_json(&c->rcpts);
	if (!m.recipients)
		return pb_fail(err, EX_OSERR, "outbox: out of memory");
	rc = state_queue(st, &m, c->manifest, c->manifest_text,
			 c->manifest_dir, c->subject, now, err);
	free(m.recipients);
	return rc;
}

static int record_rcpts(struct state *st, const struct outbox_mail *m,
			const struct smtp_result *r, struct pb_err *err)
{
	size_t i;
	int rc = 0;

	for (i = 0; i < r->nrcpt && !rc; i++) {
		const struct smtp_rcpt *p = &r->rcpt[i];
		int ok = p->code >= 200 && p->code < 300;

		if (!ok && p->code)
			log_warn("'%s': recipient '%s' rejected: %s", m->id,
				 p->addr, p->reply);
		rc = state_recipient(st, m->rowid, p->addr,
				     ok ? "accepted" : p->code ? "rejected" :
				     "unknown", p->reply, err);
	}
	return rc;
}

/* Write one mail's outcome in one transaction. */
static int record(struct state *st, const struct outbox_mail *m,
		  const struct smtp_result *r, time_t now, struct pb_err *err)
{
	int rc;

	if (state_begin(st, err))
		return -1;
	if (r->outcome == SMTP_ACCEPTED)
		rc = state_sent(st, m->rowid, now, err) ||
		     record_rcpts(st, m, r, err);
	else if (r->outcome == SMTP_PERMANENT)
		rc = state_failed(st, m->rowid, r->reply, now, err) ||
		     record_rcpts(st, m, r, err);
	else
		rc = state_retry(st, m->rowid, r->reply, now, err);
	if (rc) {
		state_rollback(st);
		return -1;
	}
	return state_commit(st, err);
}

/*
 * staging.redirect_to: the envelope goes to that one address only, and
 * the message, its headers otherwise as composed, starts with a header
 * that says so and names the real recipients.
 */
static int staged(const char *to, char *const *rcpts, size_t n,
		  const struct outbox_mail *m, struct strbuf *msg)
{
	const char *eol = memmem(m->message, m->len, "\r\n", 2) ? "\r\n" :
		"\n";
	size_t i;
	int rc;

	rc = sb_addf(msg, "X-Perfbot-Staging: sent only to %s; for", to);
	for (i = 0; i < n && !rc; i++) {
		/* one recipient a line: the header folds however many */
		if (i)
			rc = sb_addf(msg, ",%s", eol);
		rc = rc || sb_addc(msg, ' ') ||
			text_scrub_add(msg, rcpts[i], strlen(rcpts[i]),
				       TEXT_SPACE_CTRL);
	}
	return rc || sb_adds(msg, eol) || sb_add(msg, m->message, m->len);
}

/* No recipient that can be sent to: a permanent failure of this mail. */
static void no_rcpts(const char *why, struct smtp_result *r)
{
	memset(r, 0, sizeof(*r));
	r->outcome = SMTP_PERMANENT;
	snprintf(r->reply, sizeof(r->reply), "no recipients%s%s",
		 why ? ": " : "", why ? why : "");
}

static int send_one(struct state *st, struct smtp *smtp,
		    const struct outbox_mail *m, const char *redirect,
		    time_t now, struct smtp_result *r, struct pb_err *err)
{
	struct strbuf msg = STRBUF_INIT;
	struct addrlist rcpts = ADDRLIST_INIT;
	const char *why = NULL;

	if (addrlist_from_json(&rcpts, m->recipients, &why) || !rcpts.n) {
		no_rcpts(why, r);
	} else if (redirect && staged(redirect, rcpts.v, rcpts.n, m, &msg)) {
		addrlist_release(&rcpts);
		return pb_fail(err, EX_OSERR, "out of memory");
	} else if (redirect) {
		smtp_send(smtp, m->sender, &redirect, 1, sb_str(&msg), msg.len,
			  r);
	} else {
		smtp_send(smtp, m->sender, (const char *const *)rcpts.v,
			  rcpts.n, m->message, m->len, r);
	}
	addrlist_release(&rcpts);
	sb_release(&msg);
	if (r->outcome == SMTP_FATAL)
		return pb_fail(err, r->login_refused ? EX_NOPERM :
			       EX_UNAVAILABLE, "smtp: %s", r->reply);
	return record(st, m, r, now, err);
}

static void tell(const struct outbox_mail *m, const struct smtp_result *r)
{
	if (r->outcome == SMTP_ACCEPTED)
		log_info("sent %s '%s' <%s>", m->kind, m->id, m->message_id);
	else if (r->outcome == SMTP_PERMANENT)
		log_warn("%s '%s' failed: %s", m->kind, m->id, r->reply);
	else	/* the backoff state_retry() has just set */
		log_warn("%s '%s' deferred: %s; next attempt in %ld min",
			 m->kind, m->id, r->reply,
			 state_backoff(m->attempts + 1) / 60);
}

static long budget(struct state *st, const struct config *cfg, time_t now,
		   struct pb_err *err)
{
	long cap = cfg->limits.mails_per_hour, n;

	if (state_sent_since(st, now - 3600, &n, err))
		return -1;
	return n >= cap ? 0 : cap - n;
}

int outbox_deliver(struct state *st, const struct config *cfg, time_t now,
		   int reuse, struct send_stats *ss, struct pb_err *err)
{
	const char *staging = cfg->staging.redirect_to;
	struct outbox_mail *due = NULL;
	struct smtp *smtp = NULL;
	char *redirect = NULL;
	struct smtp_result r;
	size_t i, n = 0;
	long left, ttl;
	int rc = -1, c;

	memset(ss, 0, sizeof(*ss));
	if (staging && !(redirect = addr_spec(staging)))
		return pb_fail(err, EX_CONFIG, "staging.redirect_to: '%s' is "
			       "not a mail address", staging);
	/* a claim outlives one mail's SMTP exchange, with room to spare */
	ttl = 2 * cfg->smtp.timeout + 60;
	left = budget(st, cfg, now, err);
	if (left < 0 || state_due(st, now, BATCH_MAX, &due, &n, err))
		return -1;
	log_debug("send: %zu mail%s due, %ld more this hour allowed", n,
		  n == 1 ? "" : "s", left);
	if (n && smtp_new(&smtp, cfg, reuse, err))
		goto out;
	if (n && redirect)
		log_info("staging: %zu mail%s go%s to '%s' only", n,
			 n == 1 ? "" : "s", n == 1 ? "es" : "", redirect);
	for (i = 0; i < n; i++) {
		if (left-- <= 0) {
			log_warn("limits.mails_per_hour reached; %zu mails "
				 "wait for the next run", n - i);
			break;
		}
		if (state_claim(st, due[i].rowid, now, ttl, &c, err))
			goto out;
		if (!c) {
			log_info("%s '%s' is another sender's; skipped",
				 due[i].kind, due[i].id);
			left++;
			continue;
		}
		if (send_one(st, smtp, &due[i], redirect, now, &r, err))
			goto out;
		tell(&due[i], &r);
		ss->sent += r.outcome == SMTP_ACCEPTED;
		ss->failed += r.outcome == SMTP_PERMANENT;
		ss->deferred += r.outcome == SMTP_TEMPORARY;
		if (r.outcome == SMTP_TEMPORARY && r.code == 0)
			break;	/* the server is unreachable: stop here */
	}
	rc = 0;
out:
	smtp_free(smtp);
	outbox_free(due, n);
	free(redirect);
	return rc;
}
