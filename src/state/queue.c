// SPDX-License-Identifier: GPL-2.0-only
/*
 * The outbox table (record stage, for send/outbox.c): mails queued with
 * their bytes (a report also marks its manifest seen), the mails due, a
 * claim before a mail is sent so that two runs never send it twice, and
 * each outcome (sent, retried with a backoff, failed, per recipient).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/state/state.h"
#include "perfbot/state/outbox.h"
#include "internal.h"

#define BACKOFF_BASE 60
#define BACKOFF_MAX (6 * 3600)

long state_backoff(int attempts)
{
	long d = BACKOFF_BASE;

	while (attempts-- > 1 && d < BACKOFF_MAX)
		d *= 2;
	return d < BACKOFF_MAX ? d : BACKOFF_MAX;
}

static int sql_queue(struct state *st, const struct outbox_mail *m,
			const char *manifest, const char *text, const char *dir,
			const char *subject, time_t now, struct pb_err *err)
{
	/* an answer due twice (a fix that lands again under the same
	 * commit) is queued once: the row there is left as it is */
	if (db_run(st, err, "INSERT INTO outbox (id, kind, report_id, "
		   "manifest, subject, message_id, sender, recipients, message, "
		   "created) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
		   "ON CONFLICT (kind, id) DO NOTHING",
		   "ssssssssbi", m->id, m->kind,
		   m->report_id ? m->report_id : m->id, manifest, subject,
		   m->message_id, m->sender, m->recipients, m->message, m->len,
		   (long long)now))
		return -1;
	if (manifest)
		return db_run(st, err, "INSERT INTO manifests (id, manifest, "
			      "outcome, seen, text, dir) VALUES (?, ?, "
			      "'queued', ?, ?, ?) ON CONFLICT DO NOTHING", "ssiss", m->id, manifest,
			      (long long)now, text, dir);
	return 0;
}

static int read_mail(struct db_stmt *s, struct outbox_mail *m)
{
	memset(m, 0, sizeof(*m));
	m->rowid = db_int(s, 0);
	m->id = db_column_dup(s, 1, NULL);
	m->kind = db_column_dup(s, 2, NULL);
	m->message_id = db_column_dup(s, 3, NULL);
	m->sender = db_column_dup(s, 4, NULL);
	m->recipients = db_column_dup(s, 5, NULL);
	m->message = db_column_dup(s, 6, &m->len);
	m->attempts = (int)db_int(s, 7);
	return m->id && m->kind && m->message_id && m->sender &&
	       m->recipients && m->message ? 0 : -1;
}

static int select_mails(struct state *st, struct db_stmt *s,
			struct outbox_mail **out, size_t *n,
			struct pb_err *err)
{
	struct outbox_mail *v = NULL, *nv;
	size_t cap = 0;
	int rc;

	*n = 0;
	while ((rc = db_step(s)) == DB_ROW) {
		if (*n == cap) {
			cap = cap ? cap * 2 : 16;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv)
				break;
			v = nv;
		}
		if (read_mail(s, &v[*n])) {
			outbox_free(v, *n + 1);
			v = NULL;
			*n = 0;
			break;
		}
		(*n)++;
	}
	db_finalize(s);
	*out = v;
	if (rc != DB_DONE) {
		outbox_free(v, *n);
		*out = NULL;
		*n = 0;
		return rc == DB_ROW ? pb_fail(err, EX_OSERR, "out of memory")
			: db_fail(st, err, "read");
	}
	return 0;
}

#define MAIL_COLUMNS "rowid, id, kind, message_id, sender, recipients, " \
		     "message, attempts"
/*
 * The mail due at ?1 and at most ?3 of it, oldest first (a next attempt
 * past ?2, the longest backoff, means the clock went back); every queued
 * mail. Each for the mails and for their rowids alike.
 */
#define DUE_WHERE "status = 'queued' AND (next_attempt <= ? OR " \
		  "next_attempt > ?) ORDER BY rowid LIMIT ?"
#define QUEUED_WHERE "status = 'queued' ORDER BY rowid"

static int sql_due(struct state *st, time_t now, size_t max,
		      struct outbox_mail **out, size_t *n, struct pb_err *err)
{
	struct db_stmt *s;

	if (db_query(st, &s, err, "SELECT " MAIL_COLUMNS " FROM outbox WHERE "
		  DUE_WHERE, "iii", (long long)now,
		  (long long)now + BACKOFF_MAX, (long long)max))
		return -1;
	return select_mails(st, s, out, n, err);
}

static int sql_due_rows(struct state *st, time_t now, size_t max,
			   long long **rows, size_t *n, struct pb_err *err)
{
	struct db_stmt *s;

	if (db_query(st, &s, err, "SELECT rowid FROM outbox WHERE " DUE_WHERE,
		  "iii", (long long)now, (long long)now + BACKOFF_MAX,
		  (long long)max))
		return -1;
	return db_read_keys(st, s, "read", rows, n, err);
}

static int sql_queued_rows(struct state *st, long long **rows, size_t *n,
			      struct pb_err *err)
{
	struct db_stmt *s;

	if (db_query(st, &s, err, "SELECT rowid FROM outbox WHERE "
		  QUEUED_WHERE, ""))
		return -1;
	return db_read_keys(st, s, "read", rows, n, err);
}

static int sql_mail(struct state *st, long long rowid, struct outbox_mail *m,
		       int *found, struct pb_err *err)
{
	struct outbox_mail *v = NULL;
	struct db_stmt *s;
	size_t n = 0;

	*found = 0;
	memset(m, 0, sizeof(*m));
	if (db_query(st, &s, err, "SELECT " MAIL_COLUMNS " FROM outbox WHERE "
		  "rowid = ?", "i", rowid) || select_mails(st, s, &v, &n, err))
		return -1;
	if (n) {
		*m = v[0];
		*found = 1;
	}
	free(v);
	return 0;
}

static int sql_queued(struct state *st, struct outbox_mail **out, size_t *n,
			 struct pb_err *err)
{
	struct db_stmt *s;

	if (db_query(st, &s, err, "SELECT " MAIL_COLUMNS " FROM outbox WHERE "
		  QUEUED_WHERE, ""))
		return -1;
	return select_mails(st, s, out, n, err);
}

void outbox_mail_release(struct outbox_mail *m)
{
	free(m->id);
	free(m->kind);
	free(m->message_id);
	free(m->sender);
	free(m->recipients);
	free(m->message);
	memset(m, 0, sizeof(*m));
}

void outbox_free(struct outbox_mail *m, size_t n)
{
	size_t i;

	for (i = 0; m && i < n; i++)
		outbox_mail_release(&m[i]);
	free(m);
}

/*
 * A mail is claimed by one conditional UPDATE (lease.c): still queued,
 * and no other live sender's claim; the attempt written with it.
 */
const struct lease_of outbox_claim = {
	.table = "outbox", .key = "rowid", .int_key = 1,
	.owner = "claim_owner", .until = "claim_expires",
	.open = "status = 'queued'", .also = ", last_attempt = ?3",
};

static int sql_claim(struct state *st, long long rowid, time_t now, long ttl,
			int *claimed, struct pb_err *err)
{
	char id[32];

	snprintf(id, sizeof(id), "%lld", rowid);
	return lease_take(st, &outbox_claim, id, now, ttl, claimed, err);
}

/* Due as DUE_WHERE says, ?3 the time and ?6 the longest backoff past. */
static int sql_claim_due(struct state *st, time_t now, long long after,
			 size_t max, long ttl, long long **rows, size_t *n,
			 struct pb_err *err)
{
	return lease_take_some(st, &outbox_claim, "(next_attempt <= ?3 OR "
			       "next_attempt > ?6)", (long long)now +
			       BACKOFF_MAX, after, max, now, ttl, rows, n,
			       err);
}

static int sql_unclaim(struct state *st, long long rowid, struct pb_err *err)
{
	char id[32];

	snprintf(id, sizeof(id), "%lld", rowid);
	return lease_drop(st, &outbox_claim, id, err);
}

static int sql_sent(struct state *st, long long rowid, time_t now,
		       struct pb_err *err)
{
	return db_run(st, err, "UPDATE outbox SET status = 'sent', sent_at = ?, "
		   "attempts = attempts + 1, last_error = NULL, claim_owner = "
		   "NULL WHERE rowid = ?",
		   "ii", (long long)now, rowid);
}

static int sql_retry(struct state *st, long long rowid, const char *why,
			time_t now, struct pb_err *err)
{
	struct db_stmt *s;
	int attempts = 0;

	if (db_query(st, &s, err, "SELECT attempts FROM outbox WHERE rowid = ?",
		  "i", rowid))
		return -1;
	if (db_step(s) == DB_ROW)
		attempts = (int)db_int(s, 0);
	db_finalize(s);
	attempts++;
	return db_run(st, err, "UPDATE outbox SET attempts = ?, next_attempt = ?,"
		   " last_error = ?, claim_owner = NULL WHERE rowid = ?", "iisi",
		   (long long)attempts,
		   (long long)(now + state_backoff(attempts)), why, rowid);
}

static int sql_failed(struct state *st, long long rowid, const char *why,
			 time_t now, struct pb_err *err)
{
	(void)now;
	return db_run(st, err, "UPDATE outbox SET status = 'failed', "
		   "attempts = attempts + 1, last_error = ?, claim_owner = NULL "
		   "WHERE rowid = ?",
		   "si", why, rowid);
}

static int sql_recipient(struct state *st, long long rowid, const char *addr,
			    const char *status, const char *reply,
			    struct pb_err *err)
{
	return db_run(st, err, "INSERT INTO outbox_recipients (mail, address, "
		   "status, reply) VALUES (?, ?, ?, ?) ON CONFLICT (mail, "
		   "address) DO UPDATE SET status = excluded.status, reply = "
		   "excluded.reply", "isss",
		   rowid, addr, status, reply);
}

static int sql_rcpt_finals(struct state *st, long long rowid,
			      struct addrlist *accepted,
			      struct addrlist *rejected, struct pb_err *err)
{
	struct db_stmt *s;
	const char *addr, *status;
	int rc, bad = 0;

	if (db_query(st, &s, err, "SELECT address, status FROM "
		     "outbox_recipients WHERE mail = ? AND status IN "
		     "('accepted', 'rejected') ORDER BY rowid", "i", rowid))
		return -1;
	while ((rc = db_step(s)) == DB_ROW && !bad) {
		addr = db_text(s, 0);
		status = db_text(s, 1);
		if (addr && status)
			bad = addrlist_add(!strcmp(status, "accepted") ?
					   accepted : rejected, addr);
	}
	db_finalize(s);
	if (bad)
		return pb_fail(err, EX_OSERR, "out of memory");
	return rc == DB_DONE ? 0 : db_fail(st, err, "read");
}

static int sql_message_id_used(struct state *st, const char *message_id,
				  int *used, struct pb_err *err)
{
	long n = 0;
	int rc = db_count(st, &n, err, "SELECT count(*) FROM outbox WHERE "
			  "message_id = ?", "s", message_id ? message_id : "");

	*used = n > 0;
	return rc;
}

static int sql_counts(struct state *st, long *queued, long *failed,
			 struct pb_err *err)
{
	return db_count(st, queued, err, "SELECT count(*) FROM outbox WHERE "
			"status = 'queued'", "") ||
	       db_count(st, failed, err, "SELECT count(*) FROM outbox WHERE "
			"status = 'failed'", "") ? -1 : 0;
}

static int sql_sent_clock(struct state *st, long long rowid,
			     const struct clock_mono *m, struct pb_err *err)
{
	if (!m->ok)
		return 0;
	return db_run(st, err, "UPDATE outbox SET sent_boot = ?, sent_mono = ? "
		      "WHERE rowid = ?", "sii", m->boot, m->secs, rowid);
}

static int sql_sent_within(struct state *st, time_t now, long secs,
			      const struct clock_mono *m, long *n,
			      struct pb_err *err)
{
	/*
	 * This boot's mails by the monotonic clock; the others by the wall
	 * clock, never counting one "sent" in its future (a clock that went
	 * back would else hold the limit until it caught up).
	 */
	return db_count(st, n, err, "SELECT count(*) FROM outbox WHERE status "
			"= 'sent' AND CASE WHEN ? != 0 AND sent_boot = ? THEN "
			"sent_mono >= ? ELSE sent_at >= ? AND sent_at <= ? END",
			"isiii", (long long)m->ok, m->ok ? m->boot : "",
			m->secs - secs, (long long)now - secs, (long long)now);
}

static int sql_sent_since(struct state *st, time_t since, long *n,
			     struct pb_err *err)
{
	return db_count(st, n, err, "SELECT count(*) FROM outbox WHERE status "
			"= 'sent' AND sent_at >= ?", "i", (long long)since);
}

static int sql_outbox_has(struct state *st, const char *message_id,
			     int *sent, struct pb_err *err)
{
	long n;

	*sent = 0;
	if (db_count(st, &n, err, "SELECT count(*) FROM outbox WHERE "
		     "message_id = ?", "s", message_id))
		return -1;
	*sent = n > 0;
	return 0;
}

const struct state_outbox_ops sql_outbox_ops = {
	.queue = sql_queue,
	.due = sql_due,
	.due_rows = sql_due_rows,
	.queued_rows = sql_queued_rows,
	.mail = sql_mail,
	.queued = sql_queued,
	.claim = sql_claim,
	.claim_due = sql_claim_due,
	.unclaim = sql_unclaim,
	.sent = sql_sent,
	.retry = sql_retry,
	.failed = sql_failed,
	.recipient = sql_recipient,
	.rcpt_finals = sql_rcpt_finals,
	.message_id_used = sql_message_id_used,
	.counts = sql_counts,
	.sent_clock = sql_sent_clock,
	.sent_within = sql_sent_within,
	.sent_since = sql_sent_since,
	.outbox_has = sql_outbox_has,
};
