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
#include "perfbot/state/records.h"
#include "perfbot/state/wake.h"
#include "perfbot/state/outbox.h"
#include "perfbot/util/text.h"

#define BATCH_MAX 100000
/*
 * Mails claimed at once (state_claim_due()): few, so that instances side
 * by side share a queue out and a claim taken long before its mail is
 * sent is no longer than this many mails' exchanges.
 */
#define CLAIM_CHUNK 8

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
	/* a report's record: its life starts open (state/records.h) */
	if (!rc && !strcmp(c->kind, "report"))
		rc = state_record_open(st, c->id, c->metric, c->change,
				       c->metric ? c->regression : -1, now,
				       err);
	/* the instances waiting on a state server hear of it at the
	 * commit (state/wake.h; nothing on SQLite) */
	if (!rc)
		rc = state_wake_notify(st, err);
	free(m.recipients);
	return rc;
}

/* What one attempt did to the recipients, and to the mail. */
struct attempt {
	struct addrlist todo;		/* sent to this time */
	struct addrlist accepted;	/* final: accepted (this or before) */
	struct addrlist rejected;	/* final: refused with a 5xx */
	size_t pending;			/* not final after this attempt */
	char deferred[2 * SMTP_REPLY_MAX + 8];	/* "addr: reply" of one deferred */
};

static void attempt_release(struct attempt *a)
{
	addrlist_release(&a->todo);
	addrlist_release(&a->accepted);
	addrlist_release(&a->rejected);
}

/* A recipient's answer; NULL when this attempt decided nothing for it. */
static const char *rcpt_status(int code, enum smtp_outcome o)
{
	if (o == SMTP_PERMANENT || code / 100 == 5)
		return "rejected";
	if (code / 100 == 2)	/* only the message's 250 makes it so */
		return o == SMTP_ACCEPTED ? "accepted" : NULL;
	return code / 100 == 4 ? "deferred" : NULL;
}

/* Each recipient's reply in the state; what is still to be sent, counted. */
static int record_rcpts(struct state *st, const struct outbox_mail *m,
			const struct smtp_result *r, struct attempt *a,
			struct pb_err *err)
{
	const char *status;
	size_t i;
	int rc = 0;

	a->pending = a->todo.n;
	for (i = 0; i < r->nrcpt && !rc; i++) {
		const struct smtp_rcpt *p = &r->rcpt[i];
		/* a message refused after its RCPT: the message's reply */
		const char *reply = *p->reply && (p->code / 100 == 5 ||
			r->outcome != SMTP_PERMANENT) ? p->reply : r->reply;

		status = rcpt_status(p->code, r->outcome);
		if (!status)
			continue;	/* not reached: tried again later */
		if (p->code / 100 == 5 || r->outcome == SMTP_PERMANENT)
			log_warn("%s '%s': recipient '%s' rejected: %s",
				 m->kind, m->id, p->addr, reply);
		if (!strcmp(status, "deferred"))
			snprintf(a->deferred, sizeof(a->deferred), "%s: %s",
				 p->addr, reply);
		else
			a->pending--;
		rc = state_recipient(st, m->rowid, p->addr, status, reply, err);
		if (!rc && !strcmp(status, "accepted"))
			rc = addrlist_add(&a->accepted, p->addr) ?
				pb_fail(err, EX_OSERR, "out of memory") : 0;
	}
	return rc;
}

/* The mail after this attempt: sent, failed, or tried again later. */
static int settle(struct state *st, const struct outbox_mail *m,
		  const struct smtp_result *r, const struct attempt *a,
		  time_t now, struct pb_err *err)
{
	struct clock_mono mono;

	if (r->outcome == SMTP_SESSION)
		return state_retry(st, m->rowid, r->reply, now, err);
	if (a->pending)
		return state_retry(st, m->rowid, *a->deferred ? a->deferred :
				   r->reply, now, err);
	if (a->accepted.n) {
		clock_mono_now(&mono);
		return state_sent(st, m->rowid, now, err) ||
		       state_sent_clock(st, m->rowid, &mono, err) ? -1 : 0;
	}
	return state_failed(st, m->rowid, r->reply, now, err);
}

/* Write one mail's outcome in one transaction. */
static int record(struct state *st, const struct outbox_mail *m,
		  const struct smtp_result *r, struct attempt *a, time_t now,
		  struct pb_err *err)
{
	if (state_begin(st, err))
		return -1;
	if ((r->outcome != SMTP_SESSION && record_rcpts(st, m, r, a, err)) ||
	    settle(st, m, r, a, now, err)) {
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
static int staged(const char *to, const struct outbox_mail *m,
		  struct strbuf *msg)
{
	const char *eol = memmem(m->message, m->len, "\r\n", 2) ? "\r\n" :
		"\n";
	struct addrlist rcpts = ADDRLIST_INIT;
	const char *why;
	size_t i;
	int rc;

	if (addrlist_from_json(&rcpts, m->recipients, &why))
		return -1;

	rc = sb_addf(msg, "X-Perfbot-Staging: sent only to %s; for", to);
	for (i = 0; i < rcpts.n && !rc; i++) {
		/* one recipient a line: the header folds however many */
		if (i)
			rc = sb_addf(msg, ",%s", eol);
		rc = rc || sb_addc(msg, ' ') ||
			text_scrub_add(msg, rcpts.v[i], strlen(rcpts.v[i]),
				       TEXT_SPACE_CTRL);
	}
	addrlist_release(&rcpts);
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

/*
 * Who this attempt sends to: the envelope (or the staging address) less
 * the recipients that already have a final answer.
 */
static int plan(struct state *st, const struct outbox_mail *m,
		const char *redirect, struct attempt *a, const char **why,
		struct pb_err *err)
{
	struct addrlist all = ADDRLIST_INIT;
	size_t i;
	int rc = 0;

	*why = NULL;
	if (redirect)
		rc = addrlist_add(&all, redirect);
	else if (addrlist_from_json(&all, m->recipients, why))
		return 0;
	if (rc || state_rcpt_finals(st, m->rowid, &a->accepted, &a->rejected,
				    err)) {
		addrlist_release(&all);
		return rc ? pb_fail(err, EX_OSERR, "out of memory") : -1;
	}
	for (i = 0; i < all.n && !rc; i++)
		if (!addrlist_has(&a->accepted, all.v[i]) &&
		    !addrlist_has(&a->rejected, all.v[i]))
			rc = addrlist_add(&a->todo, all.v[i]);
	addrlist_release(&all);
	return rc ? pb_fail(err, EX_OSERR, "out of memory") : 0;
}

static int send_one(struct state *st, struct smtp *smtp,
		    const struct outbox_mail *m, const char *redirect,
		    time_t now, struct smtp_result *r, struct attempt *a,
		    struct pb_err *err)
{
	struct strbuf msg = STRBUF_INIT;
	const char *why = NULL;

	if (plan(st, m, redirect, a, &why, err))
		return -1;
	if (!a->todo.n && !a->accepted.n) {
		no_rcpts(why, r);
	} else if (!a->todo.n) {	/* nothing left: every answer final */
		memset(r, 0, sizeof(*r));
	} else if (redirect && staged(redirect, m, &msg)) {
		return pb_fail(err, EX_OSERR, "out of memory");
	} else {
		smtp_send(smtp, m->sender, (const char *const *)a->todo.v,
			  a->todo.n, redirect ? sb_str(&msg) : m->message,
			  redirect ? msg.len : m->len, r);
	}
	sb_release(&msg);
	if (r->outcome == SMTP_SESSION && r->exit != EX_TEMPFAIL)
		return smtp_session_error(smtp, r, err);
	if (!record(st, m, r, a, now, err))
		return 0;
	if (!state_full(st))
		return -1;
	/* the disk is full: the room kept for this record, then stop */
	state_unreserve(st);
	if (record(st, m, r, a, now, err))
		return -1;
	pb_fail(err, EX_IOERR, "state: the disk is full: %s '%s' was recorded "
		"in the room kept for it; sending stopped (the rest stays "
		"queued)", m->kind, m->id);
	return 1;
}

/* The accepted recipients of this attempt, "a@b, c@d". */
static void accepted_list(const struct smtp_result *r, char *buf, size_t n)
{
	size_t i, k = 0;

	buf[0] = '\0';
	for (i = 0; i < r->nrcpt && k < n; i++)
		if (r->rcpt[i].code / 100 == 2)
			k += (size_t)snprintf(buf + k, n - k, "%s%s",
					      k ? ", " : "", r->rcpt[i].addr);
}

static void tell(const struct outbox_mail *m, const struct smtp_result *r,
		 const struct attempt *a)
{
	char to[512];
	long next = state_backoff(m->attempts + 1) / 60;

	accepted_list(r, to, sizeof(to));
	if (r->outcome == SMTP_ACCEPTED && *to)
		log_info("sent %s '%s' <%s> to %s: %s", m->kind, m->id,
			 m->message_id, to, r->reply);
	if (r->outcome == SMTP_SESSION)	/* only EX_TEMPFAIL comes here */
		log_warn("%s '%s' deferred: %s: %s; next attempt in %ld min",
			 m->kind, m->id, r->why, r->reply, next);
	else if (r->outcome == SMTP_PERMANENT ||
		 (!a->pending && !a->accepted.n))
		log_warn("%s '%s' failed: %s", m->kind, m->id, r->reply);
	else if (r->outcome == SMTP_ACCEPTED && a->pending)
		log_warn("%s '%s': recipient %s; next attempt in %ld min",
			 m->kind, m->id, a->deferred, next);
	else if (r->outcome != SMTP_ACCEPTED && a->pending)
		log_warn("%s '%s' deferred: %s; next attempt in %ld min",
			 m->kind, m->id, *a->deferred ? a->deferred : r->reply,
			 next);
}

static long budget(struct state *st, const struct config *cfg, time_t now,
		   const struct clock_mono *mono, struct pb_err *err)
{
	long cap = cfg->limits.mails_per_hour, n;

	if (state_sent_within(st, now, 3600, mono, &n, err))
		return -1;
	return n >= cap ? 0 : cap - n;
}

/* Give back the claims of a batch that were not sent ('rows' from 'k'). */
static void unclaim_rest(struct state *st, const long long *rows, size_t k,
			 size_t n)
{
	struct pb_err e = { 0, "" };

	for (; k < n; k++)
		if (state_unclaim(st, rows[k], &e))
			log_warn("%s", e.msg);
}

int outbox_deliver(struct state *st, const struct config *cfg, time_t now,
		   int reuse, struct send_stats *ss, struct pb_err *err)
{
	const char *staging = cfg->staging.redirect_to;
	struct outbox_mail m;
	struct smtp *smtp = NULL;
	long long *due = NULL, *mine = NULL, last = 0;
	char *redirect = NULL;
	struct clock_mono mono;
	struct smtp_result r;
	struct attempt a;
	size_t n = 0, k = 0, nmine = 0, done = 0, chunk;
	long left, ttl;
	int rc = -1, c, found;

	memset(ss, 0, sizeof(*ss));
	memset(&m, 0, sizeof(m));
	if (staging && !(redirect = addr_spec(staging)))
		return pb_fail(err, EX_CONFIG, "staging.redirect_to: '%s' is "
			       "not a mail address", staging);
	/* a claim outlives one mail's SMTP exchange, with room to spare */
	ttl = 2 * cfg->smtp.timeout + 60;
	clock_mono_now(&mono);
	left = budget(st, cfg, now, &mono, err);
	/* rowids only: one mail's bytes are in memory at a time */
	if (left < 0 || state_due_rows(st, now, BATCH_MAX, &due, &n, err))
		return -1;
	log_debug("send: %zu mail%s due, %ld more this hour allowed", n,
		  n == 1 ? "" : "s", left);
	/* room for the records of what the server takes, or nothing goes */
	if (n && left > 0 && (state_reserve(st, err) ||
			      smtp_new(&smtp, cfg, reuse, err)))
		goto out;
	if (n && left > 0 && redirect)
		log_info("staging: %zu mail%s go%s to '%s' only", n,
			 n == 1 ? "" : "s", n == 1 ? "es" : "", redirect);
	/*
	 * The due mail claimed a few at a time, oldest first (those another
	 * sender holds are not among them), each claim as long as the
	 * exchanges before it may take.
	 */
	while (n && done < BATCH_MAX) {
		if (k == nmine) {
			free(mine);
			mine = NULL;
			k = nmine = 0;
			if (left <= 0) {
				if (done < n)
					log_warn("limits.mails_per_hour "
						 "reached; %zu mails wait for "
						 "the next run", n - done);
				break;
			}
			chunk = left < CLAIM_CHUNK ? (size_t)left : CLAIM_CHUNK;
			if (state_claim_due(st, now, last, chunk,
					    ttl * (long)chunk, &mine, &nmine,
					    err))
				goto out;
			if (!nmine)
				break;
		}
		last = mine[k++];
		done++;
		outbox_mail_release(&m);
		if (state_mail(st, last, &m, &found, err))
			goto out;
		if (!found)	/* gone meanwhile (dropped) */
			continue;
		left--;
		memset(&a, 0, sizeof(a));
		c = send_one(st, smtp, &m, redirect, now, &r, &a, err);
		if (c >= 0)
			tell(&m, &r, &a);
		/* sent now, not taken by an earlier attempt */
		ss->sent += c >= 0 && !a.pending && a.accepted.n &&
			r.outcome != SMTP_SESSION;
		ss->failed += c >= 0 && !a.pending && !a.accepted.n &&
			r.outcome != SMTP_SESSION;
		ss->deferred += c >= 0 && (a.pending ||
					   r.outcome == SMTP_SESSION);
		attempt_release(&a);
		if (c)	/* > 0: recorded, but nothing more can be */
			goto out;
		if (r.outcome == SMTP_SESSION)
			break;	/* about the session: the rest waits too */
	}
	rc = 0;
out:
	unclaim_rest(st, mine, k, nmine);
	free(mine);
	smtp_free(smtp);
	outbox_mail_release(&m);
	free(due);
	free(redirect);
	return rc;
}
