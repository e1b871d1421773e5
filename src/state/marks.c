// SPDX-License-Identifier: GPL-2.0-only
/*
 * record: the mailbox's loose ends (state.h), for poll.c: the mails
 * handled whose mark on the server (\Seen, or the move) is still to be
 * made, kept in the transaction that handled them so that a poll killed
 * in between makes it the next time; and a mail that keeps failing to
 * download, counted, so that it is passed over after a few tries instead
 * of blocking the replies behind it.
 */
#include <stdlib.h>

#include "internal.h"
#include "perfbot/state/inbox.h"

static int sql_mark_add(struct state *st, const char *mailbox,
			   unsigned long uidvalidity, unsigned long uid,
			   struct pb_err *err)
{
	return db_run(st, err, "INSERT INTO imap_pending (mailbox, "
		      "uidvalidity, uid) VALUES (?, ?, ?) ON CONFLICT DO NOTHING", "sii", mailbox,
		      (long long)uidvalidity, (long long)uid);
}

static int sql_mark_done(struct state *st, const char *mailbox,
			    unsigned long uidvalidity, unsigned long uid,
			    struct pb_err *err)
{
	return db_run(st, err, "DELETE FROM imap_pending WHERE mailbox = ? AND "
		      "uidvalidity = ? AND uid = ?", "sii", mailbox,
		      (long long)uidvalidity, (long long)uid);
}

static int sql_marks(struct state *st, const char *mailbox,
			unsigned long uidvalidity, size_t max, uint32_t **uids,
			size_t *n, struct pb_err *err)
{
	struct db_stmt *s;
	int rc;

	*n = 0;
	*uids = calloc(max + 1, sizeof(**uids));
	if (!*uids)
		return pb_fail(err, EX_OSERR, "out of memory");
	/* those of an older UIDVALIDITY name no mail any more */
	if (db_run(st, err, "DELETE FROM imap_pending WHERE mailbox = ? AND "
		   "uidvalidity != ?", "si", mailbox, (long long)uidvalidity) ||
	    db_query(st, &s, err, "SELECT uid FROM imap_pending WHERE mailbox "
		     "= ? ORDER BY uid LIMIT ?", "si", mailbox,
		     (long long)max)) {
		free(*uids);
		*uids = NULL;
		return -1;
	}
	while ((rc = db_step(s)) == DB_ROW)
		(*uids)[(*n)++] = (uint32_t)db_int(s, 0);
	db_finalize(s);
	return rc == DB_DONE ? 0 : db_fail(st, err, "read");
}

static int sql_mailbox_stuck(struct state *st, const char *mailbox,
				unsigned long uidvalidity, unsigned long uid,
				long *count, struct pb_err *err)
{
	*count = 0;
	if (db_run(st, err, "INSERT INTO mailbox (name, uidvalidity, last_uid, "
		   "stuck_uid, stuck_count) VALUES (?, ?, 0, ?, 1) ON "
		   "CONFLICT (name) DO UPDATE SET stuck_count = CASE WHEN "
		   "mailbox.stuck_uid = excluded.stuck_uid THEN "
		   "coalesce(mailbox.stuck_count, 0) + 1 ELSE 1 END, "
		   "stuck_uid = excluded.stuck_uid", "sii",
		   mailbox, (long long)uidvalidity, (long long)uid))
		return -1;
	return db_count(st, count, err, "SELECT stuck_count FROM mailbox WHERE "
			"name = ?", "s", mailbox);
}

const struct state_marks_ops sql_marks_ops = {
	.mark_add = sql_mark_add,
	.mark_done = sql_mark_done,
	.marks = sql_marks,
	.mailbox_stuck = sql_mailbox_stuck,
};
