// SPDX-License-Identifier: GPL-2.0-only
/*
 * record: what the state holds, read back (status.h): the outbox, the
 * requests of the farm (in flight, and every one) and the mailbox
 * position as typed rows for 'perfbot status' and the status page (their
 * text and JSON are made above); the next attempt for the send step's
 * summary, and 'send --now'.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/state/status.h"

#include "internal.h"

/*
 * The parts of 'perfbot status': a name, the table it needs and the
 * query (its column names name the values). A part whose table does
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
	/* several instances on one state (duty.c, lease.c): who was seen,
	 * who holds which duty, and the leases taken */
	{ "instances", "instances",
	  "SELECT name, host, pid, started, seen FROM instances ORDER BY "
	  "name" },
	{ "duties", "duties",
	  "SELECT name, owner, since, seen FROM duties ORDER BY name" },
	{ "leases", "requests",
	  "SELECT 'request' AS of, request_id AS id, owner, lease_until FROM "
	  "requests WHERE owner IS NOT NULL UNION ALL SELECT 'bisection', "
	  "bisect_id, owner, lease_until FROM bisections WHERE owner IS NOT "
	  "NULL UNION ALL SELECT 'mail', id, claim_owner, claim_expires FROM "
	  "outbox WHERE claim_owner IS NOT NULL AND status = 'queued' UNION "
	  "ALL SELECT 'manifest', id, owner, lease_until FROM "
	  "manifest_claims WHERE owner IS NOT NULL "
	  "ORDER BY 4, 2 LIMIT 1000" },
	{ "transitions", "record_events",
	  "SELECT at, report_id, event, from_status, to_status, by, detail "
	  "FROM record_events ORDER BY rowid DESC LIMIT 20" },
};

#define NSECTIONS (sizeof(sections) / sizeof(sections[0]))

/* Column 'i' of the row 's' is on, typed; -1 when out of memory. */
static int column(struct db_stmt *s, int i, struct status_value *v)
{
	memset(v, 0, sizeof(*v));
	switch (db_type(s, i)) {
	case DB_INT:
		v->type = STATUS_INT;
		v->i = db_int(s, i);
		return 0;
	case DB_REAL:
		v->type = STATUS_REAL;
		v->r = db_real(s, i);
		return 0;
	case DB_TEXT:
		v->type = STATUS_TEXT;
		v->s = db_column_dup(s, i, NULL);
		return v->s ? 0 : -1;
	default:	/* NULL, and a blob is never shown */
		v->type = STATUS_NULL;
		return 0;
	}
}

static void part_release(struct status_part *p)
{
	size_t i;

	for (i = 0; p->cols && i < p->ncols; i++)
		free(p->cols[i]);
	for (i = 0; p->cells && i < p->ncols * p->nrows; i++)
		free(p->cells[i].s);
	free(p->cols);
	free(p->cells);
	memset(p, 0, sizeof(*p));
}

/* Its column names, and one more row's room; -1 when out of memory. */
static int part_grow(struct status_part *p, struct db_stmt *s, size_t *cap)
{
	struct status_value *v;
	size_t i;

	if (!p->cols) {
		p->ncols = (size_t)db_columns(s);
		p->cols = calloc(p->ncols ? p->ncols : 1, sizeof(*p->cols));
		for (i = 0; p->cols && i < p->ncols; i++)
			if (!(p->cols[i] = strdup(db_name(s,
								(int)i))))
				return -1;
		if (!p->cols)
			return -1;
	}
	if (p->nrows < *cap)
		return 0;
	*cap = *cap ? *cap * 2 : 16;
	v = realloc(p->cells, *cap * (p->ncols ? p->ncols : 1) * sizeof(*v));
	if (!v)
		return -1;
	p->cells = v;
	return 0;
}

/* The rows of one query, typed as SQLite holds them. */
static int rows(struct state *st, const char *sql, struct status_part *p,
		struct pb_err *err)
{
	struct db_stmt *s;
	size_t cap = 0, i;
	int rc;

	if (db_query(st, &s, err, sql, ""))
		return -1;
	if (part_grow(p, s, &cap))
		goto oom;
	while ((rc = db_step(s)) == DB_ROW) {
		struct status_value *row;

		if (part_grow(p, s, &cap))
			goto oom;
		row = p->cells + p->nrows * p->ncols;
		for (i = 0; i < p->ncols; i++)
			if (column(s, (int)i, &row[i])) {
				while (++i < p->ncols)	/* freed with it */
					memset(&row[i], 0, sizeof(row[i]));
				p->nrows++;
				goto oom;
			}
		p->nrows++;
	}
	db_finalize(s);
	return rc == DB_DONE ? 0 : db_fail(st, err, "status");
oom:
	db_finalize(s);
	return pb_fail(err, EX_OSERR, "out of memory");
}

static long long count(struct state *st, const char *sql, long long arg)
{
	struct db_stmt *s;
	long long n = -1;

	struct pb_err ignored = { 0 };

	if (db_query(st, &s, &ignored, sql, strchr(sql, '?') ? "i" : "",
		     arg))
		return -1;
	if (db_step(s) == DB_ROW)
		n = db_int(s, 0);
	db_finalize(s);
	return n;
}

static void counts(struct state *st, time_t now, struct status_counts *c)
{
	c->has_outbox = 1;
	c->dropped = count(st, "SELECT count(*) FROM outbox WHERE status = "
			   "'dropped'", 0);
	c->queued = count(st, "SELECT count(*) FROM outbox WHERE status = "
			  "'queued'", 0);
	c->sent = count(st, "SELECT count(*) FROM outbox WHERE status = "
			"'sent'", 0);
	c->failed = count(st, "SELECT count(*) FROM outbox WHERE status = "
			  "'failed'", 0);
	c->sent_last_hour = count(st, "SELECT count(*) FROM outbox WHERE "
				  "status = 'sent' AND sent_at >= ?",
				  (long long)now - 3600);
}

static int sql_status(struct state *st, time_t now, struct status *out,
			 struct pb_err *err)
{
	struct status_part *p;
	size_t i;

	memset(out, 0, sizeof(*out));
	out->now = now;
	out->state = strdup(st->path);
	out->parts = calloc(NSECTIONS, sizeof(*out->parts));
	if (!out->state || !out->parts) {
		status_release(out);
		return pb_fail(err, EX_OSERR, "out of memory");
	}
	if (db_has_table(st, "outbox"))
		counts(st, now, &out->outbox);
	for (i = 0; i < NSECTIONS; i++) {
		if (!db_has_table(st, sections[i].table))
			continue;
		p = &out->parts[out->nparts++];
		p->name = sections[i].name;
		if (rows(st, sections[i].sql, p, err)) {
			status_release(out);
			return -1;
		}
	}
	return 0;
}

void status_release(struct status *s)
{
	size_t i;

	for (i = 0; s->parts && i < s->nparts; i++)
		part_release(&s->parts[i]);
	free(s->parts);
	free(s->state);
	memset(s, 0, sizeof(*s));
}

const struct status_part *status_part(const struct status *s,
				      const char *name)
{
	size_t i;

	for (i = 0; i < s->nparts; i++)
		if (!strcmp(s->parts[i].name, name))
			return &s->parts[i];
	return NULL;
}

const struct status_value *status_cell(const struct status_part *p,
				       size_t row, const char *col)
{
	size_t i;

	for (i = 0; row < p->nrows && i < p->ncols; i++)
		if (!strcmp(p->cols[i], col))
			return &p->cells[row * p->ncols + i];
	return NULL;
}

static int sql_next_attempt(struct state *st, struct status_next *nx,
			       struct pb_err *err)
{
	struct db_stmt *s;
	int rc;

	memset(nx, 0, sizeof(*nx));
	if (db_query(st, &s, err, "SELECT next_attempt, last_error FROM "
		     "outbox WHERE status = 'queued' ORDER BY next_attempt, "
		     "rowid LIMIT 1", ""))
		return -1;
	rc = db_step(s);
	if (rc == DB_ROW) {
		nx->when = (time_t)db_int(s, 0);
		if (db_type(s, 1) == DB_TEXT)
			nx->last_error = strdup(db_text(s, 1));
	}
	db_finalize(s);
	return rc == DB_ROW || rc == DB_DONE ? 0 :
		db_fail(st, err, "next attempt");
}

void status_next_release(struct status_next *nx)
{
	free(nx->last_error);
	memset(nx, 0, sizeof(*nx));
}

static int sql_retry_now(struct state *st, time_t now, long *n,
			 struct pb_err *err)
{
	*n = 0;
	if (db_run(st, err, "UPDATE outbox SET next_attempt = ? WHERE status "
		   "= 'queued' AND next_attempt > ?", "ii", (long long)now,
		   (long long)now))
		return -1;
	*n = db_changes(st);
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

const struct state_status_ops sql_status_ops = {
	.status = sql_status,
	.next_attempt = sql_next_attempt,
	.retry_now = sql_retry_now,
};
