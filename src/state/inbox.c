// SPDX-License-Identifier: GPL-2.0-only
/*
 * record: the reply side of the state (declared in state.h): where the
 * poll stopped in each mailbox, the mails handled and their outcomes,
 * the counts behind authorize's budgets, the lookup that routes a thread
 * to its report, the retests table and a report's manifest text.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

int state_mailbox_get(struct state *st, const char *mailbox,
		      unsigned long *uidvalidity, unsigned long *last_uid,
		      struct pb_err *err)
{
	sqlite3_stmt *s;
	int rc;

	*uidvalidity = *last_uid = 0;
	if (db_query(st, &s, err, "SELECT uidvalidity, last_uid FROM mailbox "
		     "WHERE name = ?", "s", mailbox))
		return -1;
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		*uidvalidity = (unsigned long)sqlite3_column_int64(s, 0);
		*last_uid = (unsigned long)sqlite3_column_int64(s, 1);
	}
	sqlite3_finalize(s);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 :
		db_fail(st, err, "read");
}

int state_mailbox_set(struct state *st, const char *mailbox,
		      unsigned long uidvalidity, unsigned long last_uid,
		      struct pb_err *err)
{
	return db_run(st, err, "INSERT OR REPLACE INTO mailbox (name, "
		      "uidvalidity, last_uid) VALUES (?, ?, ?)", "sii",
		      mailbox, (long long)uidvalidity, (long long)last_uid);
}

int state_inbox_seen(struct state *st, const char *message_id, int *seen,
		     struct pb_err *err)
{
	sqlite3_stmt *s;
	int rc;

	*seen = 0;
	if (db_query(st, &s, err, "SELECT 1 FROM inbox WHERE message_id = ?",
		     "s", message_id))
		return -1;
	rc = sqlite3_step(s);
	sqlite3_finalize(s);
	*seen = rc == SQLITE_ROW;
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 :
		db_fail(st, err, "read");
}

int state_inbox_record(struct state *st, const struct inbox_entry *e,
		       time_t now, struct pb_err *err)
{
	return db_run(st, err, "INSERT OR IGNORE INTO inbox (message_id, "
		      "uidvalidity, uid, sender, report_id, outcome, commands,"
		      " received) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", "siissssi",
		      e->message_id, (long long)e->uidvalidity,
		      (long long)e->uid, e->sender, e->report_id, e->outcome,
		      e->commands, (long long)now);
}

int state_inbox_count(struct state *st, const char *sender, time_t since,
		      const char *prefix, long *n, struct pb_err *err)
{
	return db_count(st, n, err, "SELECT count(*) FROM inbox WHERE sender "
			"= ? AND received >= ? AND substr(outcome, 1, "
			"length(?)) = ?", "siss", sender, (long long)since,
			prefix, prefix);
}

int state_inbox_count_report(struct state *st, const char *report_id,
			     time_t since, const char *outcome, long *n,
			     struct pb_err *err)
{
	return db_count(st, n, err, "SELECT count(*) FROM inbox WHERE "
			"report_id = ? AND received >= ? AND outcome = ?",
			"sis", report_id, (long long)since, outcome);
}

int state_inbox_count_exact(struct state *st, const char *sender,
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
	sqlite3_stmt *s;
	int rc;

	if (db_query(st, &s, err, "SELECT r.id, r.subject, r.recipients, "
		     "r.message_id FROM "
		     "outbox m JOIN outbox r ON r.kind = 'report' AND r.id = "
		     "m.report_id WHERE m.message_id = ?", "s", id))
		return -1;
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		tr->report_id = db_column_dup(s, 0, NULL);
		tr->subject = db_column_dup(s, 1, NULL);
		tr->recipients = db_column_dup(s, 2, NULL);
		tr->message_id = db_column_dup(s, 3, NULL);
		*found = 1;
	}
	sqlite3_finalize(s);
	if (rc == SQLITE_ROW && (!tr->report_id || !tr->subject ||
				 !tr->recipients || !tr->message_id))
		return pb_fail(err, EX_OSERR, "out of memory");
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 :
		db_fail(st, err, "read");
}

int state_route(struct state *st, const char *const *ids, size_t n,
		struct thread_report *tr, int *found, struct pb_err *err)
{
	size_t i;

	memset(tr, 0, sizeof(*tr));
	*found = 0;
	for (i = 0; i < n && !*found; i++)
		if (ids[i] && route_one(st, ids[i], tr, found, err))
			return -1;
	return 0;
}

int state_outbox_has(struct state *st, const char *message_id, int *sent,
		     struct pb_err *err)
{
	long n;

	*sent = 0;
	if (db_count(st, &n, err, "SELECT count(*) FROM outbox WHERE "
		     "message_id = ?", "s", message_id))
		return -1;
	*sent = n > 0;
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

int state_retest_add(struct state *st, const struct retest_request *rq,
		     time_t now, struct pb_err *err)
{
	return db_run(st, err, "INSERT OR IGNORE INTO retests (request_id, "
		      "report_id, runs, requested_by, reply_message_id, thread,"
		      " status, base_runs, head_runs, deadline, detail, "
		      "created) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
		      "ssissssiiisi", rq->request_id, rq->report_id,
		      (long long)rq->runs, rq->requested_by,
		      rq->reply_message_id, rq->thread,
		      rq->status ? rq->status : "queued",
		      (long long)rq->base_runs, (long long)rq->head_runs,
		      (long long)rq->deadline, rq->detail, (long long)now);
}

int state_retest_count(struct state *st, const char *report_id, long *n,
		       char **open_status, struct pb_err *err)
{
	sqlite3_stmt *s;
	int rc;

	*open_status = NULL;
	if (db_query(st, &s, err, "SELECT count(*), (SELECT status FROM "
		     "retests WHERE report_id = ?1 AND status IN ('requested', "
		     "'queued') ORDER BY created DESC LIMIT 1) FROM retests "
		     "WHERE report_id = ?1", "s", report_id))
		return -1;
	rc = sqlite3_step(s);
	*n = rc == SQLITE_ROW ? sqlite3_column_int(s, 0) : 0;
	if (rc == SQLITE_ROW && sqlite3_column_type(s, 1) != SQLITE_NULL)
		*open_status = db_column_dup(s, 1, NULL);
	sqlite3_finalize(s);
	return rc == SQLITE_ROW ? 0 : db_fail(st, err, "read");
}

int state_retest_open_since(struct state *st, const char *report_id,
			    time_t *since, struct pb_err *err)
{
	long n;

	*since = 0;
	if (db_count(st, &n, err, "SELECT coalesce(max(created), 0) FROM "
		     "retests WHERE report_id = ? AND status IN ('requested', "
		     "'queued')", "s", report_id))
		return -1;
	*since = (time_t)n;
	return 0;
}

int state_manifest_text(struct state *st, const char *report_id,
			char **name, char **text, char **dir,
			struct pb_err *err)
{
	sqlite3_stmt *s;
	int rc;

	*name = *text = *dir = NULL;
	if (db_query(st, &s, err, "SELECT manifest, text, dir FROM manifests "
		     "WHERE id = ?", "s", report_id))
		return -1;
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW && sqlite3_column_type(s, 1) != SQLITE_NULL) {
		*name = db_column_dup(s, 0, NULL);
		*text = db_column_dup(s, 1, NULL);
		*dir = db_column_dup(s, 2, NULL);
	}
	sqlite3_finalize(s);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 :
		db_fail(st, err, "read");
}

int state_retests_queued(struct state *st, struct retest_row **out,
			 size_t *n, struct pb_err *err)
{
	struct retest_row *v = NULL, *nv;
	sqlite3_stmt *s;
	int rc;

	*out = NULL;
	*n = 0;
	if (db_query(st, &s, err, "SELECT request_id, report_id, thread, runs,"
		     " base_runs, head_runs, deadline FROM retests WHERE "
		     "status = 'queued' ORDER BY created", ""))
		return -1;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		nv = realloc(v, (*n + 1) * sizeof(*v));
		if (!nv)
			break;
		v = nv;
		v[*n].request_id = db_column_dup(s, 0, NULL);
		v[*n].report_id = db_column_dup(s, 1, NULL);
		v[*n].thread = db_column_dup(s, 2, NULL);
		v[*n].runs = sqlite3_column_int(s, 3);
		v[*n].base_runs = (long)sqlite3_column_int64(s, 4);
		v[*n].head_runs = (long)sqlite3_column_int64(s, 5);
		v[*n].deadline = (time_t)sqlite3_column_int64(s, 6);
		(*n)++;
	}
	sqlite3_finalize(s);
	*out = v;
	return rc == SQLITE_DONE ? 0 : db_fail(st, err, "read");
}

void retest_rows_free(struct retest_row *r, size_t n)
{
	size_t i;

	for (i = 0; r && i < n; i++) {
		free(r[i].request_id);
		free(r[i].report_id);
		free(r[i].thread);
	}
	free(r);
}

int state_retest_finish(struct state *st, const char *request_id,
			const char *status, const char *detail,
			struct pb_err *err)
{
	return db_run(st, err, "UPDATE retests SET status = ?, detail = ? "
		      "WHERE request_id = ?", "sss", status, detail,
		      request_id);
}
