/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_STATE_H
#define PERFBOT_STATE_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "perfbot/util/addr.h"
#include "perfbot/util/clock.h"
#include "perfbot/util/err.h"
#include "perfbot/util/strbuf.h"

/*
 * perfbot's state in SQLite (WAL): the outbox of every mail the bot sends
 * (reports and answers alike, so they share one delivery path), each
 * recipient's outcome, the manifests already seen, and HTTP validators of
 * the sources. The schema version is PRAGMA user_version; opening a file
 * applies the migrations it lacks in one transaction.
 *
 * A mail is composed once, when it is queued, and its bytes are stored:
 * a retry sends the very same message with the same Message-ID.
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

/* An open state: opaque (src/state/internal.h), made by state_open(). */
struct state;

enum state_mode {
	STATE_WRITE,	/* create when missing, migrate */
	STATE_READ,	/* read only (--dry-run): no write of any kind */
	STATE_LOCKED,	/* STATE_WRITE with the run lock taken first */
};

/*
 * Open and migrate into a new '*st' (NULL on failure). EX_CANTCREAT /
 * EX_IOERR / EX_NOINPUT.
 */
int state_open(struct state **st, const char *path, enum state_mode mode,
	       struct pb_err *err);
/* Close and free; NULL is fine. */
void state_close(struct state *st);

/*
 * Take the run lock (an flock on the database file itself, so that every
 * name of the file, symlink or hard link, shares it) so that overlapping
 * cron runs never work on the same state at once; EX_TEMPFAIL when
 * another perfbot holds it. STATE_LOCKED takes it before SQLite opens the
 * file; state_lock() on a state opened so is a no-op.
 */
int state_lock(struct state *st, struct pb_err *err);

/*
 * SQLite's quick check of every page of the state (PRAGMA quick_check:
 * the pages and their records, not the indexes' contents; a few ms for a
 * state of thousands of mails): 0, or -1 with EX_IOERR naming the first
 * problem, so that a run refuses a damaged state at its open rather than
 * when a step meets the bad page.
 */
int state_check(struct state *st, struct pb_err *err);

/*
 * Room on the disk for the records of mail handed to the server: the
 * reserve (a file of 1 MiB beside the state) is made before sending
 * (EX_IOERR when the disk has no room: nothing is to be sent); a record
 * that finds the disk full (state_full()) gives it back with
 * state_unreserve() and is written again, and the sending stops.
 */
int state_reserve(struct state *st, struct pb_err *err);
int state_unreserve(struct state *st);
int state_full(const struct state *st);

int state_begin(struct state *st, struct pb_err *err);
int state_commit(struct state *st, struct pb_err *err);
void state_rollback(struct state *st);

/* '*seen' 1 when a manifest with this id was seen before, else 0. */
int state_seen(struct state *st, const char *id, int *seen,
	       struct pb_err *err);

/* Record a manifest that is not worth a mail, so it is not judged again. */
int state_skip(struct state *st, const char *id, const char *manifest,
	       const char *why, time_t now, struct pb_err *err);

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

/* The manifest text and directory a report came from (NULL: unknown). */
int state_manifest_text(struct state *st, const char *report_id,
			char **name, char **text, char **dir,
			struct pb_err *err);

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

/* HTTP validators of a url source (NULL when unknown). */
int state_source_get(struct state *st, const char *url, char **etag,
		     char **last_modified, struct pb_err *err);
int state_source_set(struct state *st, const char *url, const char *etag,
		     const char *last_modified, time_t now,
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

/* ---- replies (inbox.c) ---- */

/* Where the last poll stopped in 'mailbox' (0 and 0 when never). */
int state_mailbox_get(struct state *st, const char *mailbox,
		      unsigned long *uidvalidity, unsigned long *last_uid,
		      struct pb_err *err);
int state_mailbox_set(struct state *st, const char *mailbox,
		      unsigned long uidvalidity, unsigned long last_uid,
		      struct pb_err *err);

/*
 * The marks still to be made on the server (marks.c): a handled mail's
 * UID is added in the transaction that records it and done once \Seen
 * (or the move) is made; state_marks() lists those of 'uidvalidity' (at
 * most 'max', free() the list) and forgets those of an older one.
 */
int state_mark_add(struct state *st, const char *mailbox,
		   unsigned long uidvalidity, unsigned long uid,
		   struct pb_err *err);
int state_mark_done(struct state *st, const char *mailbox,
		    unsigned long uidvalidity, unsigned long uid,
		    struct pb_err *err);
int state_marks(struct state *st, const char *mailbox,
		unsigned long uidvalidity, size_t max, uint32_t **uids,
		size_t *n, struct pb_err *err);
/*
 * One more failure to download 'uid' ('*count': how many in a row for
 * it); moving the mailbox position on clears it.
 */
int state_mailbox_stuck(struct state *st, const char *mailbox,
			unsigned long uidvalidity, unsigned long uid,
			long *count, struct pb_err *err);

/* '*seen' 1 when a mail with this Message-ID was handled before. */
int state_inbox_seen(struct state *st, const char *message_id, int *seen,
		     struct pb_err *err);

struct inbox_entry {
	const char *message_id;
	unsigned long uidvalidity, uid;
	const char *sender;	/* addr-spec or NULL */
	const char *report_id;	/* the report of the thread, or NULL */
	const char *outcome;	/* "answered", "ignored: auto-submitted"... */
	const char *commands;	/* JSON list of the command lines, or NULL */
};
int state_inbox_record(struct state *st, const struct inbox_entry *e,
		       time_t now, struct pb_err *err);

/* Mails from 'sender' since 'since' whose outcome starts with 'prefix'. */
int state_inbox_count(struct state *st, const char *sender, time_t since,
		      const char *prefix, long *n, struct pb_err *err);

/* Mails in the thread of report 'report_id' since 'since' with 'outcome'. */
int state_inbox_count_report(struct state *st, const char *report_id,
			     time_t since, const char *outcome, long *n,
			     struct pb_err *err);

/* Mails from 'sender' (NULL: anybody) since 'since' with this outcome. */
int state_inbox_count_exact(struct state *st, const char *sender,
			    time_t since, const char *outcome, long *n,
			    struct pb_err *err);

/* The report a thread is about, found through the bot's own mails. */
struct thread_report {
	char *report_id;
	char *subject;		/* the report's subject */
	char *recipients;	/* JSON list of the report's recipients */
	char *message_id;	/* the report's own, or NULL when unknown */
};
/*
 * Look up 'ids' (Message-IDs without brackets, the closest first) among
 * every mail the bot sent, reports and answers; 0 with *found 0 when
 * none is the bot's.
 */
int state_route(struct state *st, const char *const *ids, size_t n,
		struct thread_report *tr, int *found, struct pb_err *err);
void thread_report_release(struct thread_report *tr);

/* '*sent' 1 when the bot queued a mail with this Message-ID, else 0. */
int state_outbox_has(struct state *st, const char *message_id, int *sent,
		     struct pb_err *err);

/* Backoff after 'attempts' failures: 60 s doubling, at most 6 hours. */
long state_backoff(int attempts);

#endif
