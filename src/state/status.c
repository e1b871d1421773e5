// SPDX-License-Identifier: GPL-2.0-only
/*
 * record: what the state holds, read back (status.h): the outbox, the
 * requests of the farm (in flight, and every one) and the mailbox
 * position as one JSON object for 'perfbot status'; the next attempt for
 * the send step's summary, and 'send --now'.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/state/status.h"

#include "internal.h"

/*
 * The parts of 'perfbot status': a JSON key, the table it needs and the
 * query (its column names become the JSON keys). A part whose table does
 * not exist (an older state, a feature not used) is left out.
 */
static const struct section {
	const char *name;
	const char *table;
	const char *sql;
} sections[] = {
	{ "queued", "outbox",
	  "SELECT id, kind, subject, attempts, next_attempt, last_error, "
	  "created FROM outbox WHERE status = 'queued' ORDER BY rowid "
	  "LIMIT 1000" },
	{ "failed", "outbox",
	  "SELECT id, kind, subject, attempts, last_error, created FROM "
	  "outbox WHERE status = 'failed' ORDER BY rowid DESC LIMIT 20" },
	{ "dropped", "outbox",
	  "SELECT id, kind, subject, attempts, last_error, created FROM "
	  "outbox WHERE status = 'dropped' ORDER BY rowid DESC LIMIT 20" },
	{ "actions", "actions",
	  "SELECT at, id, action, detail, by FROM actions ORDER BY rowid "
	  "DESC LIMIT 20" },
	/* the requests of the farm in flight, by kind (the status page's) */
	{ "retests", "requests",
	  "SELECT request_id, report_id, runs, requested_by, status, "
	  "deadline, created FROM requests WHERE kind = 'retest' AND status "
	  "IN ('asking', 'queued') ORDER BY created, rowid LIMIT 1000" },
	{ "tests", "requests",
	  "SELECT request_id, report_id, form, runs, requested_by, repo, ref, "
	  "status, deadline, created FROM requests WHERE kind = 'test' AND "
	  "status IN ('asking', 'queued') ORDER BY created, rowid LIMIT 1000" },
	/* the tests over, newest first: what 'tests_per_report' counts
	 * can be seen (issue 29 item 10) */
	{ "finished_tests", "requests",
	  "SELECT request_id, report_id, form, runs, requested_by, repo, ref, "
	  "status, detail, created, decided FROM requests WHERE kind = 'test' "
	  "AND status NOT IN ('asking', 'queued') ORDER BY coalesce(decided, "
	  "created) DESC, request_id LIMIT 100" },
	{ "confirmations", "requests",
	  "SELECT report_id, metric, reported_change, runs, base_runs, "
	  "head_runs, status, deadline, "
	  "detail, created FROM requests WHERE kind = 'confirm' AND status "
	  "IN ('asking', 'queued') ORDER BY created, rowid LIMIT 1000" },
	{ "mailbox", "mailbox",
	  "SELECT name, uidvalidity, last_uid FROM mailbox ORDER BY name" },
	/* the regressions still followed (records.h): a report of before
	 * the records, without a row, is open */
	{ "regressions", "records",
	  "SELECT o.id AS report_id, coalesce(r.status, 'open') AS status, "
	  "o.subject, r.fix_named, r.fix_commit, r.fix_branch, "
	  "r.verify_request, r.verdict, "
	  "coalesce(r.changed, o.created) AS changed, o.created FROM outbox o "
	  "LEFT JOIN records r ON r.report_id = o.id WHERE o.kind = 'report' "
	  "AND coalesce(r.status, 'open') IN ('open', 'fix named', "
	  "'fix landed', 'not fixed') AND coalesce(r.regression, 1) != 0 "
	  "ORDER BY o.created, o.rowid LIMIT 1000" },
	/* every request of every kind: in flight, then the newest ended */
	{ "requests", "requests",
	  "SELECT request_id, kind, report_id, runs, status, verdict, "
	  "detail, requested_by, commit_sha, deadline, created, decided FROM "
	  "requests ORDER BY status IN ('asking', 'queued') DESC, created "
	  "DESC, rowid DESC LIMIT 1000" },
	{ "transitions", "record_events",
	  "SELECT at, report_id, event, from_status, to_status, by, detail "
	  "FROM record_events ORDER BY rowid DESC LIMIT 20" },
};

#define NSECTIONS (sizeof(sections) / sizeof(sections[0]))

static int db_error(struct state *st, struct pb_err *err, const char *what)
{
	return pb_fail(err, EX_IOERR, "%s: %s: %s", st->path, what,
		       sqlite3_errmsg(st->db));
}

static int has_table(struct state *st, const char *name)
{
	sqlite3_stmt *s;
	int found = 0;

	if (sqlite3_prepare_v2(st->db, "SELECT 1 FROM sqlite_master WHERE "
			       "type = 'table' AND name = ?", -1, &s,
			       NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_text(s, 1, name, -1, SQLITE_STATIC);
	found = sqlite3_step(s) == SQLITE_ROW;
	sqlite3_finalize(s);
	return found;
}

static json_t *column(sqlite3_stmt *s, int i)
{
	switch (sqlite3_column_type(s, i)) {
	case SQLITE_INTEGER:
		return json_integer(sqlite3_column_int64(s, i));
	case SQLITE_FLOAT:
		return json_real(sqlite3_column_double(s, i));
	case SQLITE_TEXT:
		return json_stringn((const char *)sqlite3_column_text(s, i),
				    (size_t)sqlite3_column_bytes(s, i));
	default:	/* NULL, and a blob is never shown */
		return json_null();
	}
}

/* The rows of one query as a list of objects. */
static int rows(struct state *st, const char *sql, json_t *list,
		struct pb_err *err)
{
	sqlite3_stmt *s;
	json_t *row;
	int i, n, rc;

	if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL) != SQLITE_OK)
		return db_error(st, err, "status");
	n = sqlite3_column_count(s);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		row = json_object();
		for (i = 0; row && i < n; i++)
			json_object_set_new(row, sqlite3_column_name(s, i),
					    column(s, i));
		if (!row || json_array_append_new(list, row)) {
			sqlite3_finalize(s);
			return pb_fail(err, EX_OSERR, "out of memory");
		}
	}
	sqlite3_finalize(s);
	return rc == SQLITE_DONE ? 0 : db_error(st, err, "status");
}

static long long count(struct state *st, const char *sql, long long arg)
{
	sqlite3_stmt *s;
	long long n = -1;

	if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL) != SQLITE_OK)
		return -1;
	if (strchr(sql, '?'))
		sqlite3_bind_int64(s, 1, arg);
	if (sqlite3_step(s) == SQLITE_ROW)
		n = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	return n;
}

static json_t *counts(struct state *st, time_t now)
{
	return json_pack("{s:I, s:I, s:I, s:I, s:I}",
		"dropped", count(st, "SELECT count(*) FROM outbox WHERE status "
				 "= 'dropped'", 0),
		"queued", count(st, "SELECT count(*) FROM outbox WHERE status "
				"= 'queued'", 0),
		"sent", count(st, "SELECT count(*) FROM outbox WHERE status = "
			      "'sent'", 0),
		"failed", count(st, "SELECT count(*) FROM outbox WHERE status "
				"= 'failed'", 0),
		"sent_last_hour", count(st, "SELECT count(*) FROM outbox WHERE "
					"status = 'sent' AND sent_at >= ?",
					(long long)now - 3600));
}

static int sqlite_status(struct state *st, time_t now, json_t **out,
			 struct pb_err *err)
{
	json_t *o = json_pack("{s:s, s:I}", "state", st->path, "now",
			      (json_int_t)now), *list;
	size_t i;

	*out = NULL;
	if (!o)
		return pb_fail(err, EX_OSERR, "out of memory");
	if (has_table(st, "outbox") &&
	    json_object_set_new(o, "outbox", counts(st, now))) {
		json_decref(o);
		return pb_fail(err, EX_OSERR, "out of memory");
	}
	for (i = 0; i < NSECTIONS; i++) {
		if (!has_table(st, sections[i].table))
			continue;
		list = json_array();
		if (!list || json_object_set_new(o, sections[i].name, list) ||
		    rows(st, sections[i].sql, list, err)) {
			json_decref(o);
			return err && err->code ? -1 :
				pb_fail(err, EX_OSERR, "out of memory");
		}
	}
	*out = o;
	return 0;
}

static int sqlite_next_attempt(struct state *st, struct status_next *nx,
			       struct pb_err *err)
{
	sqlite3_stmt *s;
	int rc;

	memset(nx, 0, sizeof(*nx));
	if (sqlite3_prepare_v2(st->db, "SELECT next_attempt, last_error FROM "
			       "outbox WHERE status = 'queued' ORDER BY "
			       "next_attempt, rowid LIMIT 1", -1, &s,
			       NULL) != SQLITE_OK)
		return db_error(st, err, "next attempt");
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		nx->when = (time_t)sqlite3_column_int64(s, 0);
		if (sqlite3_column_type(s, 1) == SQLITE_TEXT)
			nx->last_error = strdup((const char *)
						sqlite3_column_text(s, 1));
	}
	sqlite3_finalize(s);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 :
		db_error(st, err, "next attempt");
}

void status_next_release(struct status_next *nx)
{
	free(nx->last_error);
	memset(nx, 0, sizeof(*nx));
}

static int sqlite_retry_now(struct state *st, time_t now, long *n,
			    struct pb_err *err)
{
	sqlite3_stmt *s;
	int rc;

	*n = 0;
	if (sqlite3_prepare_v2(st->db, "UPDATE outbox SET next_attempt = ? "
			       "WHERE status = 'queued' AND next_attempt > ?",
			       -1, &s, NULL) != SQLITE_OK)
		return db_error(st, err, "send --now");
	sqlite3_bind_int64(s, 1, (sqlite3_int64)now);
	sqlite3_bind_int64(s, 2, (sqlite3_int64)now);
	rc = sqlite3_step(s);
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		return db_error(st, err, "send --now");
	*n = (long)sqlite3_changes(st->db);
	return 0;
}

/* "4 min", "59 s", "2.5 h" */
static void span(long d, char *buf, size_t len)
{
	if (d < 120)
		snprintf(buf, len, "%ld s", d);
	else if (d < 2 * 3600)
		snprintf(buf, len, "%ld min", (d + 59) / 60);
	else
		snprintf(buf, len, "%.1f h", (double)d / 3600);
}

void status_when(time_t when, time_t now, char *buf, size_t len)
{
	char stamp[32], d[32];
	struct tm tm;

	gmtime_r(&when, &tm);
	strftime(stamp, sizeof(stamp), "%Y-%m-%d %H:%M:%S UTC", &tm);
	span(when > now ? (long)(when - now) : (long)(now - when), d,
	     sizeof(d));
	if (when == now)
		snprintf(buf, len, "%s (now)", stamp);
	else
		snprintf(buf, len, "%s (%s%s%s)", stamp, when > now ? "in " : "",
			 d, when > now ? "" : " ago");
}

const struct state_status_ops sqlite_status_ops = {
	.status = sqlite_status,
	.next_attempt = sqlite_next_attempt,
	.retry_now = sqlite_retry_now,
};
