// SPDX-License-Identifier: GPL-2.0-only
/*
 * record: the reply side of the state (declared in inbox.h): where the
 * poll stopped in each mailbox, the mails handled and their outcomes,
 * the counts behind authorize's budgets, the lookup that routes a thread
 * to its report.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "perfbot/state/inbox.h"

static int sql_mailbox_get(struct state *st, const char *mailbox,
			      unsigned long *uidvalidity,
			      unsigned long *last_uid, struct pb_err *err)
{
	struct db_stmt *s;
	int rc;

	*uidvalidity = *last_uid = 0;
	if (db_query(st, &s, err, "SELECT uidvalidity, last_uid FROM mailbox "
		     "WHERE name = ?", "s", mailbox))
		return -1;
	rc = db_step(s);
	if (rc == DB_ROW) {
		*uidvalidity = (unsigned long)db_int(s, 0);
		*last_uid = (unsigned long)db_int(s, 1);
	}
	db_finalize(s);
	return rc == DB_ROW || rc == DB_DONE ? 0 :
		db_fail(st, err, "read");
}

static int sql_mailbox_set(struct state *st, const char *mailbox,
			      unsigned long uidvalidity, unsigned long last_uid,
			      struct pb_err *err)
{
	/* a new position forgets the mail that kept failing */
	return db_run(st, err, "INSERT INTO mailbox (name, uidvalidity, "
		      "last_uid) VALUES (?, ?, ?) ON CONFLICT (name) DO UPDATE "
		      "SET uidvalidity = excluded.uidvalidity, last_uid = "
		      "excluded.last_uid, stuck_uid = NULL, stuck_count = NULL",
		      "sii",
		      mailbox, (long long)uidvalidity, (long long)last_uid);
}

static int sql_inbox_seen(struct state *st, const char *message_id,
			     int *seen, struct pb_err *err)
{
	struct db_stmt *s;
	int rc;

	*seen = 0;
	if (db_query(st, &s, err, "SELECT 1 FROM inbox WHERE message_id = ?",
		     "s", message_id))
		return -1;
	rc = db_step(s);
	db_finalize(s);
	*seen = rc == DB_ROW;
	return rc == DB_ROW || rc == DB_DONE ? 0 :
		db_fail(st, err, "read");
}

static int sql_inbox_record(struct state *st, const struct inbox_entry *e,
			       time_t now, struct pb_err *err)
{
	return db_run(st, err, "INSERT INTO inbox (message_id, "
		      "uidvalidity, uid, sender, report_id, outcome, commands,"
		      " received) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO "
		      "NOTHING", "siissssi",
		      e->message_id, (long long)e->uidvalidity,
		      (long long)e->uid, e->sender, e->report_id, e->outcome,
		      e->commands, (long long)now);
}

static int sql_inbox_count(struct state *st, const char *sender,
			      time_t since, const char *prefix, long *n,
			      struct pb_err *err)
{
	return db_count(st, n, err, "SELECT count(*) FROM inbox WHERE sender "
			"= ? AND received >= ? AND substr(outcome, 1, "
			"length(?)) = ?", "siss", sender, (long long)since,
			prefix, prefix);
}

static int sql_inbox_count_report(struct state *st, const char *report_id,
				     time_t since, const char *outcome, long *n,
				     struct pb_err *err)
{
	return db_count(st, n, err, "SELECT count(*) FROM inbox WHERE "
			"report_id = ? AND received >= ? AND outcome = ?",
			"sis", report_id, (long long)since, outcome);
}

static int sql_inbox_count_exact(struct state *st, const char *sender,
				    time_t since, const char *outcome, long *n,
				    struct pb_err *err)
{
	return db_count(st, n, err, "SELECT count(*) FROM inbox WHERE (?1 IS "
			"NULL OR sender = ?1) AND received >= ?2 AND outcome = "
			"?3", "sis", sender, (long long)since, outcome);
}

static int route_one(struct state *st, const char *id,
		     struct thread_report *tr, int *found, struct pb_err *err)
{
	struct db_stmt *s;
	int rc;

	if (db_query(st, &s, err, "SELECT r.id, r.subject, r.recipients, "
		     "r.message_id FROM "
		     "outbox m JOIN outbox r ON r.kind = 'report' AND r.id = "
		     "m.report_id WHERE m.message_id = ?", "s", id))
		return -1;
	rc = db_step(s);
	if (rc == DB_ROW) {
		tr->report_id = db_column_dup(s, 0, NULL);
		tr->subject = db_column_dup(s, 1, NULL);
		tr->recipients = db_column_dup(s, 2, NULL);
		tr->message_id = db_column_dup(s, 3, NULL);
		*found = 1;
	}
	db_finalize(s);
	if (rc == DB_ROW && (!tr->report_id || !tr->subject ||
				 !tr->recipients || !tr->message_id))
		return pb_fail(err, EX_OSERR, "out of memory");
	return rc == DB_ROW || rc == DB_DONE ? 0 :
		db_fail(st, err, "read");
}

static int sql_route(struct state *st, const char *const *ids, size_t n,
			struct thread_report *tr, int *found,
			struct pb_err *err)
{
	size_t i;

	memset(tr, 0, sizeof(*tr));
	*found = 0;
	for (i = 0; i < n && !*found; i++)
		if (ids[i] && route_one(st, ids[i], tr, found, err))
			return -1;
	return 0;
}

void thread_report_release(struct thread_report *tr)
{
	free(tr->report_id);
	free(tr->subject);
	free(tr->recipients);
	free(tr->message_id);
	memset(tr, 0, sizeof(*tr));
}

const struct state_inbox_ops sql_inbox_ops = {
	.mailbox_get = sql_mailbox_get,
	.mailbox_set = sql_mailbox_set,
	.inbox_seen = sql_inbox_seen,
	.inbox_record = sql_inbox_record,
	.inbox_count = sql_inbox_count,
	.inbox_count_report = sql_inbox_count_report,
	.inbox_count_exact = sql_inbox_count_exact,
	.route = sql_route,
};
