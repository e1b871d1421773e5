/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_STATE_INBOX_H
#define PERFBOT_STATE_INBOX_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "perfbot/state/state.h"

/*
 * The reply side (src/state/inbox.c; the marks in marks.c): where the poll
 * stopped in each mailbox, the mails handled and their outcomes, the
 * counts behind authorize's budgets, the lookup that routes a thread to
 * its report, and the marks still to be made on the server.
 */

/* Where the last poll stopped in 'mailbox' (0 and 0 when never). */
int state_mailbox_get(struct state *st, const char *mailbox,
		      unsigned long *uidvalidity, unsigned long *last_uid,
		      struct pb_err *err);
int state_mailbox_set(struct state *st, const char *mailbox,
		      unsigned long uidvalidity, unsigned long last_uid,
		      struct pb_err *err);

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

#endif
