// SPDX-License-Identifier: GPL-2.0-only
/*
 * record: the life of each report (records.h): its record read with the
 * report's own facts (a report without a row reads as open), written with
 * its transition, the transitions read back, the tips of the tracked
 * branches, the reminders and the report of each of their lines.
 */
#include <stdlib.h>
#include <string.h>

#include "perfbot/util/addr.h"

#include "perfbot/state/records.h"

#include "internal.h"

/*
 * A record and its report: a report without a row reads as open, its
 * headline unknown. Its last activity is the newest of its transitions,
 * the mails read in its thread and the answers sent there (each table
 * grouped once, not once a report), the newest taken in C (SQLite's
 * max() of several arguments is its own).
 */
#define RECORD_SQL \
	"SELECT o.id, coalesce(r.status, 'open'), r.metric, r.change, " \
	"  coalesce(r.regression, -1), r.fix_named, r.fix_commit, " \
	"  r.fix_summary, r.fix_branch, coalesce(r.fix_date, 0), r.dup_of, " \
	"  r.reason, r.verify_request, r.verdict, " \
	"  coalesce(r.no_reminders, 0), coalesce(r.searched, 0), " \
	"  coalesce(r.created, o.created), coalesce(r.changed, o.created), " \
	"  r.report_id IS NOT NULL, o.subject, o.message_id, o.recipients, " \
	"  o.status, o.created, coalesce(r.changed, o.created), " \
	"  coalesce(i.at, 0), coalesce(a.at, 0) " \
	"FROM outbox o LEFT JOIN records r ON r.report_id = o.id " \
	"LEFT JOIN (SELECT report_id, max(received) at FROM inbox " \
	"  WHERE report_id IS NOT NULL GROUP BY report_id) i " \
	"  ON i.report_id = o.id " \
	"LEFT JOIN (SELECT report_id, max(created) at FROM outbox " \
	"  WHERE kind = 'answer' GROUP BY report_id) a " \
	"  ON a.report_id = o.id " \
	"WHERE o.kind = 'report' "

static char *col(struct db_stmt *s, int i, int *oom)
{
	char *v;

	if (db_null(s, i))
		return NULL;
	v = db_column_dup(s, i, NULL);
	*oom |= !v;
	return v;
}

static time_t col_time(struct db_stmt *s, int i)
{
	return (time_t)db_int(s, i);
}

/* One row of RECORD_SQL; -1 when out of memory. */
static int record_row(struct db_stmt *s, struct record *r)
{
	int oom = 0;

	memset(r, 0, sizeof(*r));
	r->report_id = col(s, 0, &oom);
	r->status = col(s, 1, &oom);
	r->metric = col(s, 2, &oom);
	r->change = db_real(s, 3);
	r->regression = (int)db_int(s, 4);
	r->fix_named = col(s, 5, &oom);
	r->fix_commit = col(s, 6, &oom);
	r->fix_summary = col(s, 7, &oom);
	r->fix_branch = col(s, 8, &oom);
	r->fix_date = col_time(s, 9);
	r->dup_of = col(s, 10, &oom);
	r->reason = col(s, 11, &oom);
	r->verify_request = col(s, 12, &oom);
	r->verdict = col(s, 13, &oom);
	r->no_reminders = (int)db_int(s, 14);
	r->searched = (int)db_int(s, 15);
	r->created = col_time(s, 16);
	r->changed = col_time(s, 17);
	r->stored = (int)db_int(s, 18);
	r->subject = col(s, 19, &oom);
	r->message_id = col(s, 20, &oom);
	r->recipients = col(s, 21, &oom);
	r->mail_status = col(s, 22, &oom);
	r->mailed = col_time(s, 23);
	r->activity = col_time(s, 24);
	if (col_time(s, 25) > r->activity)
		r->activity = col_time(s, 25);
	if (col_time(s, 26) > r->activity)
		r->activity = col_time(s, 26);
	return oom || !r->report_id || !r->status ? -1 : 0;
}

void record_release(struct record *r)
{
	char **s[] = { &r->report_id, &r->status, &r->metric, &r->fix_named,
		&r->fix_commit, &r->fix_summary, &r->fix_branch, &r->dup_of,
		&r->reason, &r->verify_request, &r->verdict, &r->subject,
		&r->message_id, &r->recipients, &r->mail_status };
	size_t i;

	for (i = 0; i < sizeof(s) / sizeof(s[0]); i++)
		free(*s[i]);
	memset(r, 0, sizeof(*r));
}

void records_free(struct record *r, size_t n)
{
	size_t i;

	for (i = 0; r && i < n; i++)
		record_release(&r[i]);
	free(r);
}

static int sql_record_open(struct state *st, const char *report_id,
			      const char *metric, double change, int regression,
			      time_t now, struct pb_err *err)
{
	return db_run(st, err, "INSERT INTO records (report_id, status, "
		      "metric, change, regression, created, changed) VALUES "
		      "(?, 'open', ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING", "ssdiii", report_id,
		      metric, change, (long long)regression, (long long)now,
		      (long long)now);
}

static int sql_record_get(struct state *st, const char *report_id,
			     struct record *r, int *found, struct pb_err *err)
{
	struct db_stmt *s;
	int rc;

	memset(r, 0, sizeof(*r));
	*found = 0;
	if (db_query(st, &s, err, RECORD_SQL "AND o.id = ?", "s", report_id))
		return -1;
	rc = db_step(s);
	if (rc == DB_ROW) {
		*found = 1;
		if (record_row(s, r)) {
			db_finalize(s);
			record_release(r);
			return pb_fail(err, EX_OSERR, "out of memory");
		}
	}
	db_finalize(s);
	return rc == DB_ROW || rc == DB_DONE ? 0 :
		db_fail(st, err, "read");
}

/* The first column of the first row as a new string, NULL when none. */
static int one_string(struct state *st, struct db_stmt *s, char **out,
		      struct pb_err *err)
{
	int rc = db_step(s), oom = 0;

	*out = NULL;
	if (rc == DB_ROW)
		*out = col(s, 0, &oom);
	db_finalize(s);
	if (oom)
		return pb_fail(err, EX_OSERR, "out of memory");
	return rc == DB_ROW || rc == DB_DONE ? 0 :
		db_fail(st, err, "read");
}

static int sql_record_find(struct state *st, const char *key,
			      char **report_id, struct pb_err *err)
{
	size_t n = strlen(key);
	struct db_stmt *s;
	char *bare;
	int rc;

	*report_id = NULL;
	/* a Message-ID as mail headers write it */
	bare = n > 2 && key[0] == '<' && key[n - 1] == '>' ?
		strndup(key + 1, n - 2) : strdup(key);
	if (!bare)
		return pb_fail(err, EX_OSERR, "out of memory");
	/* a report never mailed is known by its requests (a confirmation) */
	rc = db_query(st, &s, err, "SELECT id FROM (SELECT id, CASE WHEN id "
		      "= ?1 THEN 1 ELSE 0 END AS exact, 0 AS held FROM outbox "
		      "WHERE kind = 'report' AND (id = ?1 OR message_id = ?2) "
		      "UNION ALL SELECT report_id, 1, 1 FROM requests WHERE "
		      "report_id = ?1) f ORDER BY held, exact DESC LIMIT 1",
		      "ss", key, bare) ||
	     one_string(st, s, report_id, err);
	free(bare);
	return rc ? -1 : 0;
}

static int sql_record_by_subject(struct state *st, const char *subject,
				    char **ids, size_t max, size_t *n,
				    struct pb_err *err)
{
	struct db_stmt *s;
	int rc, oom = 0;

	*n = 0;
	if (db_query(st, &s, err, "SELECT id FROM outbox WHERE kind = "
		     "'report' AND subject = ? ORDER BY rowid", "s", subject))
		return -1;
	while ((rc = db_step(s)) == DB_ROW) {
		if (*n < max)
			ids[*n] = col(s, 0, &oom);
		(*n)++;
	}
	db_finalize(s);
	if (oom) {
		for (; *n; (*n)--)
			if (*n <= max)
				free(ids[*n - 1]);
		return pb_fail(err, EX_OSERR, "out of memory");
	}
	return rc == DB_DONE ? 0 : db_fail(st, err, "read");
}

/* 'status' is one of 'want'. */
static int listed(const struct addrlist *want, const char *status)
{
	size_t i;

	for (i = 0; status && i < want->n; i++)
		if (!strcmp(want->v[i], status))
			return 1;
	return 0;
}

static int sql_records(struct state *st, const char *statuses,
			  int regressions_only, struct record **out, size_t *n,
			  struct pb_err *err)
{
	struct addrlist want = ADDRLIST_INIT;
	const char *why;
	struct record *v = NULL, *nv;
	size_t cap = 0;
	struct db_stmt *s;
	int rc, oom = 0;

	*out = NULL;
	*n = 0;
	/* the statuses matched in C: SQLite's json_each() is its own */
	if (statuses && addrlist_from_json(&want, statuses, &why))
		return pb_fail(err, EX_SOFTWARE, "records: statuses: %s", why);
	if (db_query(st, &s, err, RECORD_SQL "AND (?1 = 0 OR "
		     "coalesce(r.regression, -1) != 0) ORDER BY o.created, "
		     "o.rowid", "i", (long long)regressions_only)) {
		addrlist_release(&want);
		return -1;
	}
	while (!oom && (rc = db_step(s)) == DB_ROW) {
		if (statuses && !listed(&want, db_text(s, 1)))
			continue;
		if (*n == cap) {
			cap = cap ? 2 * cap : 16;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv) {
				oom = 1;
				break;
			}
			v = nv;
		}
		oom = record_row(s, &v[*n]) != 0;
		(*n)++;
	}
	db_finalize(s);
	addrlist_release(&want);
	if (oom) {
		records_free(v, *n);
		*n = 0;
		return pb_fail(err, EX_OSERR, "out of memory");
	}
	*out = v;
	return rc == DB_DONE ? 0 : db_fail(st, err, "read");
}

static int sql_record_put(struct state *st, const struct record *r,
			     const struct record_event *ev, time_t now,
			     struct pb_err *err)
{
	if (db_run(st, err, "INSERT INTO records (report_id, status, metric, "
		   "change, regression, fix_named, fix_commit, fix_summary, "
		   "fix_branch, fix_date, dup_of, reason, verify_request, "
		   "verdict, no_reminders, searched, created, changed) VALUES "
		   "(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, "
		   "?14, ?15, ?16, ?17, ?18) ON CONFLICT (report_id) DO UPDATE "
		   "SET status = ?2, fix_named = ?6, fix_commit = ?7, "
		   "fix_summary = ?8, fix_branch = ?9, fix_date = ?10, "
		   "dup_of = ?11, reason = ?12, verify_request = ?13, "
		   "verdict = ?14, no_reminders = ?15, searched = ?16, "
		   "changed = ?18", "sssdissssissssiiii", r->report_id,
		   r->status, r->metric, r->change, (long long)r->regression,
		   r->fix_named, r->fix_commit, r->fix_summary, r->fix_branch,
		   (long long)r->fix_date, r->dup_of, r->reason,
		   r->verify_request, r->verdict, (long long)r->no_reminders,
		   (long long)r->searched, (long long)(r->stored ? r->created :
						       now), (long long)now))
		return -1;
	if (!ev)
		return 0;
	return db_run(st, err, "INSERT INTO record_events (report_id, at, "
		      "event, from_status, to_status, by, detail, source) "
		      "VALUES (?, ?, ?, ?, ?, ?, ?, ?)", "sissssss",
		      r->report_id, (long long)now, ev->event, ev->from,
		      ev->to, ev->by, ev->detail, ev->source);
}

void record_events_free(struct record_event *e, size_t n)
{
	size_t i;

	for (i = 0; e && i < n; i++) {
		free(e[i].event);
		free(e[i].from);
		free(e[i].to);
		free(e[i].by);
		free(e[i].detail);
		free(e[i].source);
	}
	free(e);
}

static int sql_record_events(struct state *st, const char *report_id,
				struct record_event **out, size_t *n,
				struct pb_err *err)
{
	struct record_event *v = NULL, *nv;
	struct db_stmt *s;
	int rc, oom = 0;

	*out = NULL;
	*n = 0;
	if (db_query(st, &s, err, "SELECT at, event, from_status, to_status, "
		     "by, detail, source FROM record_events WHERE report_id = "
		     "? ORDER BY rowid", "s", report_id))
		return -1;
	while (!oom && (rc = db_step(s)) == DB_ROW) {
		nv = realloc(v, (*n + 1) * sizeof(*v));
		if (!nv) {
			oom = 1;
			break;
		}
		v = nv;
		memset(&v[*n], 0, sizeof(*v));
		v[*n].at = col_time(s, 0);
		v[*n].event = col(s, 1, &oom);
		v[*n].from = col(s, 2, &oom);
		v[*n].to = col(s, 3, &oom);
		v[*n].by = col(s, 4, &oom);
		v[*n].detail = col(s, 5, &oom);
		v[*n].source = col(s, 6, &oom);
		(*n)++;
	}
	db_finalize(s);
	if (oom) {
		record_events_free(v, *n);
		*n = 0;
		return pb_fail(err, EX_OSERR, "out of memory");
	}
	*out = v;
	return rc == DB_DONE ? 0 : db_fail(st, err, "read");
}

static int sql_track_tip(struct state *st, const char *branch, char **tip,
			    struct pb_err *err)
{
	struct db_stmt *s;

	*tip = NULL;
	if (db_query(st, &s, err, "SELECT tip FROM tracking WHERE branch = ?",
		     "s", branch))
		return -1;
	return one_string(st, s, tip, err);
}

static int sql_track_set(struct state *st, const char *branch,
			    const char *tip, time_t now, struct pb_err *err)
{
	return db_run(st, err, "INSERT INTO tracking (branch, tip, walked) "
		      "VALUES (?, ?, ?) ON CONFLICT (branch) DO UPDATE SET tip "
		      "= excluded.tip, walked = excluded.walked", "ssi", branch, tip,
		      (long long)now);
}

static int sql_reminder_last(struct state *st, time_t *when, long *count,
				struct pb_err *err)
{
	long at;

	*when = 0;
	if (db_count(st, count, err, "SELECT count(*) FROM reminders", "") ||
	    db_count(st, &at, err, "SELECT coalesce(max(created), 0) FROM "
		     "reminders", ""))
		return -1;
	*when = (time_t)at;
	return 0;
}

static int sql_reminder_add(struct state *st, const char *id,
			       const char *lines, time_t now,
			       struct pb_err *err)
{
	return db_run(st, err, "INSERT INTO reminders (id, lines, created) "
		      "VALUES (?, ?, ?)", "ssi", id, lines, (long long)now);
}

static int sql_route_reminder(struct state *st, const char *const *ids,
				 size_t n, char **reminder_id,
				 struct pb_err *err)
{
	struct db_stmt *s;
	size_t i;

	*reminder_id = NULL;
	for (i = 0; i < n && !*reminder_id; i++) {
		if (!ids[i])
			continue;
		if (db_query(st, &s, err, "SELECT r.id FROM outbox m JOIN "
			     "reminders r ON r.id = m.id WHERE m.kind = "
			     "'reminder' AND m.message_id = ?", "s", ids[i]) ||
		    one_string(st, s, reminder_id, err))
			return -1;
	}
	return 0;
}

static int sql_reminder_line(struct state *st, const char *id, long line,
				char **report_id, struct pb_err *err)
{
	struct db_stmt *s;
	struct addrlist ids = ADDRLIST_INIT;
	char *lines = NULL;
	const char *why;

	*report_id = NULL;
	if (line < 1)
		return 0;
	/* the list read in C: SQLite's json_extract() is its own */
	if (db_query(st, &s, err, "SELECT lines FROM reminders WHERE id = ?",
		     "s", id) || one_string(st, s, &lines, err))
		return -1;
	/* a list of at most 1000 ids (act/remind.c's REMIND_MAX_LINES) */
	if (lines && !addrlist_from_json(&ids, lines, &why) &&
	    (size_t)line <= ids.n && !(*report_id = strdup(ids.v[line - 1]))) {
		free(lines);
		addrlist_release(&ids);
		return pb_fail(err, EX_OSERR, "out of memory");
	}
	free(lines);
	addrlist_release(&ids);
	return 0;
}

const struct state_records_ops sql_records_ops = {
	.record_open = sql_record_open,
	.record_get = sql_record_get,
	.record_find = sql_record_find,
	.record_by_subject = sql_record_by_subject,
	.records = sql_records,
	.record_put = sql_record_put,
	.record_events = sql_record_events,
	.track_tip = sql_track_tip,
	.track_set = sql_track_set,
	.reminder_last = sql_reminder_last,
	.reminder_add = sql_reminder_add,
	.route_reminder = sql_route_reminder,
	.reminder_line = sql_reminder_line,
};
