/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_STATE_OUTBOX_H
#define PERFBOT_STATE_OUTBOX_H

#include <stddef.h>
#include <time.h>

#include "perfbot/state/state.h"
#include "perfbot/util/addr.h"
#include "perfbot/util/clock.h"

/*
 * The outbox (src/state/queue.c; the operator's actions in admin.c): every
 * mail the bot sends (reports and answers alike, so they share one
 * delivery path) and each recipient's outcome. A mail is composed once,
 * when it is queued, and its bytes are stored: a retry sends the very
 * same message with the same Message-ID.
 */

enum mail_status { MAIL_QUEUED, MAIL_SENT, MAIL_FAILED, MAIL_DROPPED };

struct outbox_mail {
	long long rowid;
	char *id;		/* report id, or the answer's own id */
	char *kind;		/* "report", "answer" */
	char *report_id;	/* the report an answer is about (queue) */
	char *message_id;
	char *sender;		/* envelope MAIL FROM */
	char *recipients;	/* JSON list of addr-specs */
	char *message;		/* the RFC 5322 bytes */
	size_t len;
	int attempts;
};

/*
 * The row of one composed mail (outbox_queue() of send/outbox.c is the
 * way in): a report's with the manifest's name, text and directory kept
 * (NULL for an answer). A mail of the same kind and id queued before
 * (whatever its status) is left as it is: an answer due twice is
 * queued once, and that is no error.
 */
int state_queue(struct state *st, const struct outbox_mail *m,
		const char *manifest, const char *text, const char *dir,
		const char *subject, time_t now, struct pb_err *err);

/*
 * The queued mails due at 'now' (next attempt reached, or further off
 * than the longest backoff: the wall clock went back), oldest first, at
 * most 'max'. Free with outbox_free().
 */
int state_due(struct state *st, time_t now, size_t max,
	      struct outbox_mail **out, size_t *n, struct pb_err *err);

/*
 * The same mails as rowids only, so that a batch holds one mail's bytes
 * at a time (state_mail() reads each in its turn): those state_due()
 * selects, and every queued one (state_queued()), oldest first. Free
 * with free().
 */
int state_due_rows(struct state *st, time_t now, size_t max,
		   long long **rows, size_t *n, struct pb_err *err);
int state_queued_rows(struct state *st, long long **rows, size_t *n,
		      struct pb_err *err);

/*
 * The mail of outbox row 'rowid' into 'm' (outbox_mail_release() after):
 * '*found' 0 when there is none.
 */
int state_mail(struct state *st, long long rowid, struct outbox_mail *m,
	       int *found, struct pb_err *err);
/* Every queued mail whatever its next attempt (for --dry-run). */
int state_queued(struct state *st, struct outbox_mail **out, size_t *n,
		 struct pb_err *err);
void outbox_free(struct outbox_mail *m, size_t n);
/* One mail's strings freed, 'm' zeroed (not freed itself). */
void outbox_mail_release(struct outbox_mail *m);

/*
 * Claim a queued mail before sending it, in one transaction: '*claimed'
 * 1 (for 'ttl' seconds), 0 when it is no longer queued or another live
 * sender holds it. A claim of a process of this host that no longer
 * exists (a killed run) is taken over at once. Sent/retry/failed clear it.
 */
int state_claim(struct state *st, long long rowid, time_t now, long ttl,
		int *claimed, struct pb_err *err);
/*
 * Claim up to 'max' mails due at 'now' (state_due_rows()'s) whose rowid
 * is above 'after', oldest first, each for 'ttl' seconds, in one
 * statement: their rowids into '*rows' (free()). Several senders at once
 * share the due mail out (on PostgreSQL with FOR UPDATE SKIP LOCKED: none
 * waits on another's rows); another live sender's claims are left, a
 * killed run's of this host taken over.
 */
int state_claim_due(struct state *st, time_t now, long long after,
		    size_t max, long ttl, long long **rows, size_t *n,
		    struct pb_err *err);
/* Give one's own claim of a mail back unsent (the rest of a batch). */
int state_unclaim(struct state *st, long long rowid, struct pb_err *err);

/* The server accepted the mail (a commit of its own). */
int state_sent(struct state *st, long long rowid, time_t now,
	       struct pb_err *err);
/* A temporary failure: try again after an exponential backoff. */
int state_retry(struct state *st, long long rowid, const char *why,
		time_t now, struct pb_err *err);
/* A permanent failure with the server's reason. */
int state_failed(struct state *st, long long rowid, const char *why,
		 time_t now, struct pb_err *err);
/*
 * One recipient's outcome: "accepted", "rejected" (a 5xx: final),
 * "deferred" (a 4xx: tried again with the mail's backoff), with the reply.
 */
int state_recipient(struct state *st, long long rowid, const char *addr,
		    const char *status, const char *reply,
		    struct pb_err *err);

/*
 * The recipients of mail 'rowid' that have a final answer, appended to
 * 'accepted' and 'rejected': the ones a next attempt leaves out.
 */
int state_rcpt_finals(struct state *st, long long rowid,
		      struct addrlist *accepted, struct addrlist *rejected,
		      struct pb_err *err);

/*
 * '*used' 1 when a mail of the outbox has this Message-ID: the caller
 * draws another (util/id.h), at most ID_DRAWS times.
 */
#define ID_DRAWS 8
int state_message_id_used(struct state *st, const char *message_id,
			  int *used, struct pb_err *err);

/* Counts for the summary line: queued and failed mails. */
int state_counts(struct state *st, long *queued, long *failed,
		 struct pb_err *err);

/*
 * The monotonic clock of a mail's sending (util/clock.h; nothing when it
 * has none), and the mails sent in the last 'secs' seconds before 'now'
 * (the hourly budget): by that clock for those of this boot, by the wall
 * clock, capped at 'now', for the others.
 */
int state_sent_clock(struct state *st, long long rowid,
		     const struct clock_mono *m, struct pb_err *err);
int state_sent_within(struct state *st, time_t now, long secs,
		      const struct clock_mono *m, long *n, struct pb_err *err);

/* Mails accepted by the server since 'since' (the hourly budget). */
int state_sent_since(struct state *st, time_t since, long *n,
		     struct pb_err *err);

/* '*sent' 1 when the bot queued a mail with this Message-ID, else 0. */
int state_outbox_has(struct state *st, const char *message_id, int *sent,
		     struct pb_err *err);

/* Backoff after 'attempts' failures: 60 s doubling, at most 6 hours. */
long state_backoff(int attempts);

/*
 * The operator's actions (admin.c), each recorded in 'actions' with the
 * time and 'by' (who asked): requeue the mail 'id' (its id or its
 * Message-ID; NULL: every failed mail) — a failed or dropped one queued
 * again with its refused recipients tried again and a fresh backoff, a
 * queued one due now — and drop one (never sent, kept in the state).
 * '*n' the mails requeued. EX_NOINPUT when there is no such mail,
 * EX_DATAERR when it was sent (requeueing it would send it twice).
 */
int state_requeue(struct state *st, const char *id, time_t now,
		  const char *by, long *n, struct pb_err *err);
int state_drop(struct state *st, const char *id, time_t now, const char *by,
	       struct pb_err *err);

#endif
