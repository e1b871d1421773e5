// SPDX-License-Identifier: GPL-2.0-only
/*
 * record: the front of the state (backend.h). state_open() chooses the
 * backend by the 'state:' value: a plain path is SQLite's, a URI names
 * its backend by its scheme ("postgresql://..." is PostgreSQL's). Every
 * other state_* function of the public headers calls the open state's
 * backend, and does nothing else (those of the record side in
 * backend_record.c).
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* The backends built in; the one without a scheme opens plain paths. */
static const struct state_backend *const backends[] = {
	&state_sqlite,
	&state_postgresql,
};

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* The scheme of 'where' ("x" of "x://..."), its length in '*len'; NULL. */
static const char *scheme_of(const char *where, size_t *len)
{
	const char *p = strstr(where, "://");
	size_t i;

	if (!p || p == where)
		return NULL;
	for (i = 0; where + i < p; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyz0123456789+.-",
			    where[i]))
			return NULL;
	*len = (size_t)(p - where);
	return where;
}

static int same(const char *name, const char *s, size_t len)
{
	return name && strlen(name) == len && !strncmp(name, s, len);
}

static int choose(const char *where, const struct state_backend **be,
		  struct pb_err *err)
{
	size_t i, len = 0;
	const char *scheme = scheme_of(where, &len);

	for (i = 0; i < ARRAY_LEN(backends); i++)
		if (scheme ? same(backends[i]->scheme, scheme, len) ||
			     same(backends[i]->alias, scheme, len) :
			     !backends[i]->scheme) {
			*be = backends[i];
			return 0;
		}
	return pb_fail(err, EX_CONFIG, "state: '%.*s://': no backend of "
		       "that scheme (a path is SQLite's)", (int)len, where);
}

int state_open(struct state **st, const char *path, enum state_mode mode,
	       struct pb_err *err)
{
	const struct state_backend *be;

	*st = NULL;
	if (choose(path, &be, err))
		return -1;
	/* no duty lock: the backend runs one run at a time (backend.h) */
	if (mode == STATE_SHARED && !be->duty_lock)
		mode = STATE_LOCKED;
	return be->open(st, path, mode, err);
}

int state_missing(const char *path)
{
	const struct state_backend *be;
	struct pb_err err;

	return !choose(path, &be, &err) && be->missing(path);
}

int state_usable(const char *path, int *made, struct pb_err *err)
{
	const struct state_backend *be;

	*made = 0;
	if (choose(path, &be, err))
		return -1;
	return be->usable(path, made, err);
}

int state_is_file(const char *path)
{
	size_t len;

	return !scheme_of(path, &len);
}

void state_close(struct state *st)
{
	if (st) {
		free(st->owner);
		st->owner = NULL;
		st->be->close(st);
	}
}

int state_owner_set(struct state *st, const char *name, struct pb_err *err)
{
	char *o = name ? strdup(name) : NULL;

	if (name && !o)
		return pb_fail(err, EX_OSERR, "out of memory");
	free(st->owner);
	st->owner = o;
	return 0;
}

/* ---- state.h ---- */

int state_lock(struct state *st, struct pb_err *err)
{
	return st->be->lock(st, err);
}

int state_check(struct state *st, struct pb_err *err)
{
	return st->be->check(st, err);
}

int state_describe(struct state *st, char *buf, size_t n, struct pb_err *err)
{
	return st->be->describe(st, buf, n, err);
}

int state_reserve(struct state *st, struct pb_err *err)
{
	return st->be->reserve(st, err);
}

int state_unreserve(struct state *st)
{
	return st->be->unreserve(st);
}

int state_full(const struct state *st)
{
	return st->be->full(st);
}

int state_begin(struct state *st, struct pb_err *err)
{
	return st->be->begin(st, err);
}

int state_commit(struct state *st, struct pb_err *err)
{
	return st->be->commit(st, err);
}

void state_rollback(struct state *st)
{
	st->be->rollback(st);
}

/* ---- inbox.h ---- */

int state_mailbox_get(struct state *st, const char *mailbox,
		      unsigned long *uidvalidity, unsigned long *last_uid,
		      struct pb_err *err)
{
	return st->be->inbox->mailbox_get(st, mailbox, uidvalidity, last_uid,
					  err);
}

int state_mailbox_set(struct state *st, const char *mailbox,
		      unsigned long uidvalidity, unsigned long last_uid,
		      struct pb_err *err)
{
	return st->be->inbox->mailbox_set(st, mailbox, uidvalidity, last_uid,
					  err);
}

int state_inbox_seen(struct state *st, const char *message_id, int *seen,
		     struct pb_err *err)
{
	return st->be->inbox->inbox_seen(st, message_id, seen, err);
}

int state_inbox_record(struct state *st, const struct inbox_entry *e,
		       time_t now, struct pb_err *err)
{
	return st->be->inbox->inbox_record(st, e, now, err);
}

int state_inbox_count(struct state *st, const char *sender, time_t since,
		      const char *prefix, long *n, struct pb_err *err)
{
	return st->be->inbox->inbox_count(st, sender, since, prefix, n, err);
}

int state_inbox_count_report(struct state *st, const char *report_id,
			     time_t since, const char *outcome, long *n,
			     struct pb_err *err)
{
	return st->be->inbox->inbox_count_report(st, report_id, since, outcome,
						 n, err);
}

int state_inbox_count_exact(struct state *st, const char *sender, time_t since,
			    const char *outcome, long *n, struct pb_err *err)
{
	return st->be->inbox->inbox_count_exact(st, sender, since, outcome, n,
						err);
}

int state_route(struct state *st, const char *const *ids, size_t n,
		struct thread_report *tr, int *found, struct pb_err *err)
{
	return st->be->inbox->route(st, ids, n, tr, found, err);
}

int state_mark_add(struct state *st, const char *mailbox,
		   unsigned long uidvalidity, unsigned long uid,
		   struct pb_err *err)
{
	return st->be->marks->mark_add(st, mailbox, uidvalidity, uid, err);
}

int state_mark_done(struct state *st, const char *mailbox,
		    unsigned long uidvalidity, unsigned long uid,
		    struct pb_err *err)
{
	return st->be->marks->mark_done(st, mailbox, uidvalidity, uid, err);
}

int state_marks(struct state *st, const char *mailbox,
		unsigned long uidvalidity, size_t max, uint32_t **uids,
		size_t *n, struct pb_err *err)
{
	return st->be->marks->marks(st, mailbox, uidvalidity, max, uids, n,
				    err);
}

int state_mailbox_stuck(struct state *st, const char *mailbox,
			unsigned long uidvalidity, unsigned long uid,
			long *count, struct pb_err *err)
{
	return st->be->marks->mailbox_stuck(st, mailbox, uidvalidity, uid,
					    count, err);
}

/* ---- outbox.h ---- */

int state_queue(struct state *st, const struct outbox_mail *m,
		const char *manifest, const char *text, const char *dir,
		const char *subject, time_t now, struct pb_err *err)
{
	return st->be->outbox->queue(st, m, manifest, text, dir, subject, now,
				     err);
}

int state_due(struct state *st, time_t now, size_t max,
	      struct outbox_mail **out, size_t *n, struct pb_err *err)
{
	return st->be->outbox->due(st, now, max, out, n, err);
}

int state_due_rows(struct state *st, time_t now, size_t max, long long **rows,
		   size_t *n, struct pb_err *err)
{
	return st->be->outbox->due_rows(st, now, max, rows, n, err);
}

int state_queued_rows(struct state *st, long long **rows, size_t *n,
		      struct pb_err *err)
{
	return st->be->outbox->queued_rows(st, rows, n, err);
}

int state_mail(struct state *st, long long rowid, struct outbox_mail *m,
	       int *found, struct pb_err *err)
{
	return st->be->outbox->mail(st, rowid, m, found, err);
}

int state_queued(struct state *st, struct outbox_mail **out, size_t *n,
		 struct pb_err *err)
{
	return st->be->outbox->queued(st, out, n, err);
}

int state_claim(struct state *st, long long rowid, time_t now, long ttl,
		int *claimed, struct pb_err *err)
{
	return st->be->outbox->claim(st, rowid, now, ttl, claimed, err);
}

int state_claim_due(struct state *st, time_t now, long long after,
		    size_t max, long ttl, long long **rows, size_t *n,
		    struct pb_err *err)
{
	return st->be->outbox->claim_due(st, now, after, max, ttl, rows, n,
					 err);
}

int state_unclaim(struct state *st, long long rowid, struct pb_err *err)
{
	return st->be->outbox->unclaim(st, rowid, err);
}

int state_sent(struct state *st, long long rowid, time_t now,
	       struct pb_err *err)
{
	return st->be->outbox->sent(st, rowid, now, err);
}

int state_retry(struct state *st, long long rowid, const char *why, time_t now,
		struct pb_err *err)
{
	return st->be->outbox->retry(st, rowid, why, now, err);
}

int state_failed(struct state *st, long long rowid, const char *why, time_t now,
		 struct pb_err *err)
{
	return st->be->outbox->failed(st, rowid, why, now, err);
}

int state_recipient(struct state *st, long long rowid, const char *addr,
		    const char *status, const char *reply, struct pb_err *err)
{
	return st->be->outbox->recipient(st, rowid, addr, status, reply, err);
}

int state_rcpt_finals(struct state *st, long long rowid,
		      struct addrlist *accepted, struct addrlist *rejected,
		      struct pb_err *err)
{
	return st->be->outbox->rcpt_finals(st, rowid, accepted, rejected, err);
}

int state_message_id_used(struct state *st, const char *message_id, int *used,
			  struct pb_err *err)
{
	return st->be->outbox->message_id_used(st, message_id, used, err);
}

int state_counts(struct state *st, long *queued, long *failed,
		 struct pb_err *err)
{
	return st->be->outbox->counts(st, queued, failed, err);
}

int state_sent_clock(struct state *st, long long rowid,
		     const struct clock_mono *m, struct pb_err *err)
{
	return st->be->outbox->sent_clock(st, rowid, m, err);
}

int state_sent_within(struct state *st, time_t now, long secs,
		      const struct clock_mono *m, long *n, struct pb_err *err)
{
	return st->be->outbox->sent_within(st, now, secs, m, n, err);
}

int state_sent_since(struct state *st, time_t since, long *n,
		     struct pb_err *err)
{
	return st->be->outbox->sent_since(st, since, n, err);
}

int state_outbox_has(struct state *st, const char *message_id, int *sent,
		     struct pb_err *err)
{
	return st->be->outbox->outbox_has(st, message_id, sent, err);
}

int state_requeue(struct state *st, const char *id, time_t now, const char *by,
		  long *n, struct pb_err *err)
{
	return st->be->admin->requeue(st, id, now, by, n, err);
}

int state_drop(struct state *st, const char *id, time_t now, const char *by,
	       struct pb_err *err)
{
	return st->be->admin->drop(st, id, now, by, err);
}

/* ---- seen.h ---- */

int state_seen(struct state *st, const char *id, int *seen, struct pb_err *err)
{
	return st->be->seen->seen(st, id, seen, err);
}

int state_skip(struct state *st, const char *id, const char *manifest,
	       const char *why, time_t now, struct pb_err *err)
{
	return st->be->seen->skip(st, id, manifest, why, now, err);
}

int state_manifest_text(struct state *st, const char *report_id, char **name,
			char **text, char **dir, struct pb_err *err)
{
	return st->be->seen->manifest_text(st, report_id, name, text, dir, err);
}

int state_source_get(struct state *st, const char *url, char **etag,
		     char **last_modified, struct pb_err *err)
{
	return st->be->seen->source_get(st, url, etag, last_modified, err);
}

int state_source_set(struct state *st, const char *url, const char *etag,
		     const char *last_modified, time_t now, struct pb_err *err)
{
	return st->be->seen->source_set(st, url, etag, last_modified, now, err);
}
