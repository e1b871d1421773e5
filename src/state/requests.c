// SPDX-License-Identifier: GPL-2.0-only
/*
 * record: the requests table (requests.h): every run asked of the farm,
 * of every kind, recorded with what the farm was asked and where to
 * answer, read back (the open ones for their follow-up, a report's for
 * 'show' and the web), each move of its status, and the counts the
 * limits need.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/state/requests.h"

#include "internal.h"

#define REQUEST_COLS \
	"SELECT request_id, kind, report_id, status, verdict, detail, " \
	"result_root, requested_by, reply_message_id, thread, form, " \
	"commit_sha, repo, ref, patch, metric, runs, " \
	"coalesce(base_runs, 0), coalesce(head_runs, 0), " \
	"coalesce(patch_bytes, 0), coalesce(deadline, 0), created, " \
	"coalesce(decided, 0), reported_change FROM requests "

/* 'tail' "" or " ON CONFLICT DO NOTHING" (a request made twice). */
static int insert(struct state *st, const char *tail,
		  const struct request_new *rq, time_t now, struct pb_err *err)
{
	char change[40] = "", sql[700];

	if (rq->metric)
		snprintf(change, sizeof(change), "%.17g", rq->reported_change);
	snprintf(sql, sizeof(sql), "INSERT INTO requests (request_id, "
		 "kind, report_id, runs, status, deadline, detail, "
		 "result_root, requested_by, reply_message_id, thread, "
		 "base_runs, head_runs, created, form, commit_sha, repo, "
		 "ref, patch, patch_bytes, metric, reported_change) "
		 "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
		 "?, ?, ?, ?, ?, ?)%s", tail);
	return db_run(st, err, sql, "sssisisssssiiisssssiss",
		      rq->request_id, rq->kind, rq->report_id,
		      (long long)rq->runs, rq->status ? rq->status : "queued",
		      (long long)rq->deadline, rq->detail, rq->result_root,
		      rq->requested_by, rq->reply_message_id, rq->thread,
		      (long long)rq->base_runs, (long long)rq->head_runs,
		      (long long)now, rq->form, rq->commit, rq->repo, rq->ref,
		      rq->patch, (long long)rq->patch_bytes, rq->metric,
		      rq->metric ? change : NULL);
}

/* One of the NULL-ended 'words' (or NULL, when 'v' may be NULL). */
static int one_of(const char *v, const char *const *words, int null_ok)
{
	if (!v)
		return null_ok;
	for (; *words; words++)
		if (!strcmp(v, *words))
			return 1;
	return 0;
}

/*
 * A request made twice is kept once; one the table's CHECKs refuse (a
 * form or a status it does not know) is not recorded, and that is no
 * error either, as SQLite's INSERT OR IGNORE had it.
 */
static int sql_request_add(struct state *st, const struct request_new *rq,
			      time_t now, struct pb_err *err)
{
	static const char *const forms[] = { "patch", "tree", "commit", NULL };
	static const char *const statuses[] = { "asking", "queued", "done",
		"failed", "expired", "rejected", "dropped", NULL };

	if (!one_of(rq->form, forms, 1) ||
	    !one_of(rq->status ? rq->status : "queued", statuses, 0))
		return 0;
	return insert(st, " ON CONFLICT DO NOTHING", rq, now, err);
}

int state_request_hold(struct state *st, const struct request_new *rq,
		       time_t now, struct pb_err *err)
{
	struct request_new a = *rq;
	int open = db_in_transaction(st);

	a.status = "asking";
	a.detail = NULL;
	if (!open && state_begin(st, err))
		return -1;
	if (insert(st, " ON CONFLICT DO NOTHING", &a, now, err) ||
	    state_commit(st, err)) {
		if (!open)
			state_rollback(st);
		return -1;
	}
	return open ? state_begin(st, err) : 0;
}

/* The strings of 'r', in the order of REQUEST_COLS. */
#define NSTR 16
static void strings_of(struct request *r, char **str[NSTR])
{
	char **v[NSTR] = { &r->request_id, &r->kind, &r->report_id,
			   &r->status, &r->verdict, &r->detail,
			   &r->result_root, &r->requested_by,
			   &r->reply_message_id, &r->thread, &r->form,
			   &r->commit, &r->repo, &r->ref, &r->patch,
			   &r->metric };

	memcpy(str, v, sizeof(v));
}

/* One row of REQUEST_COLS; -1 when out of memory. */
static int request_read(struct db_stmt *s, void *row)
{
	struct request *r = row;
	char **str[NSTR];
	int i, rc = 0;

	memset(r, 0, sizeof(*r));
	strings_of(r, str);
	for (i = 0; i < NSTR; i++)
		if (!db_null(s, i) &&
		    !(*str[i] = db_column_dup(s, i, NULL)))
			rc = -1;
	r->runs = (long)db_int(s, NSTR);
	r->base_runs = (long)db_int(s, NSTR + 1);
	r->head_runs = (long)db_int(s, NSTR + 2);
	r->patch_bytes = (long)db_int(s, NSTR + 3);
	r->deadline = (time_t)db_int(s, NSTR + 4);
	r->created = (time_t)db_int(s, NSTR + 5);
	r->decided = (time_t)db_int(s, NSTR + 6);
	if (!db_null(s, NSTR + 7))
		r->reported_change = strtod(db_text(s, NSTR + 7),
					    NULL);
	return rc;
}

static void request_rows_release(void *rows, size_t n)
{
	request_rows_free(rows, n);
}

/* Every row of the prepared 's' into '*out'. */
static int read_rows(struct state *st, struct db_stmt *s, struct request **out,
		     size_t *n, struct pb_err *err)
{
	void *rows;
	int rc = db_read_rows(st, s, sizeof(**out), request_read,
			      request_rows_release, &rows, n, err);

	*out = rows;
	return rc;
}

void request_rows_free(struct request *r, size_t n)
{
	char **str[NSTR];
	size_t i;
	int j;

	for (i = 0; r && i < n; i++) {
		strings_of(&r[i], str);
		for (j = 0; j < NSTR; j++)
			free(*str[j]);
	}
	free(r);
}

static int sql_requests_open(struct state *st, const char *kind,
				struct request **out, size_t *n,
				struct pb_err *err)
{
	struct db_stmt *s;

	*out = NULL;
	*n = 0;
	if (db_query(st, &s, err, REQUEST_COLS "WHERE status IN ('asking', "
		     "'queued') AND (?1 IS NULL OR kind = ?1) ORDER BY "
		     "created, rowid", "s", kind))
		return -1;
	return read_rows(st, s, out, n, err);
}

static int sql_requests_of(struct state *st, const char *report_id,
			      const char *kind, struct request **out, size_t *n,
			      struct pb_err *err)
{
	struct db_stmt *s;

	*out = NULL;
	*n = 0;
	if (db_query(st, &s, err, REQUEST_COLS "WHERE report_id = ?1 AND "
		     "(?2 IS NULL OR kind = ?2) ORDER BY created, rowid", "ss",
		     report_id, kind))
		return -1;
	return read_rows(st, s, out, n, err);
}

static int sql_request_get(struct state *st, const char *request_id,
			      struct request **out, struct pb_err *err)
{
	struct db_stmt *s;
	size_t n;

	*out = NULL;
	if (db_query(st, &s, err, REQUEST_COLS "WHERE request_id = ?", "s",
		     request_id) ||
	    read_rows(st, s, out, &n, err))
		return -1;
	if (!n) {
		free(*out);
		*out = NULL;
	}
	return 0;
}

static int is_open(const char *status)
{
	return !strcmp(status, "asking") || !strcmp(status, "queued");
}

static int sql_request_set(struct state *st, const char *request_id,
			      const char *status, const char *verdict,
			      const char *detail, time_t now,
			      struct pb_err *err)
{
	return db_run(st, err, "UPDATE requests SET status = ?, verdict = ?, "
		      "detail = ?, decided = ? WHERE request_id = ?", "sssis",
		      status, verdict, detail,
		      is_open(status) ? 0LL : (long long)now, request_id);
}

static int sql_request_tally(struct state *st, const char *kind,
				const char *report_id, const char *sender,
				time_t since, struct request_tally *t,
				struct pb_err *err)
{
	struct db_stmt *s;
	int rc;

	memset(t, 0, sizeof(*t));
	/* one the farm could not build or apply ran nothing: it does not
	 * use up one of the report's */
	if (db_query(st, &s, err, "SELECT (SELECT count(*) FROM requests "
		     "WHERE kind = ?1 AND report_id = ?2 AND status <> "
		     "'failed'), (SELECT count(*) "
		     "FROM requests WHERE kind = ?1 AND requested_by = ?3 AND "
		     "created >= ?4), l.status, l.created FROM (SELECT 1 AS "
		     "one) o LEFT JOIN (SELECT status, created FROM requests "
		     "WHERE kind = ?1 AND report_id = ?2 AND status IN "
		     "('asking', 'queued') ORDER BY created DESC, rowid DESC "
		     "LIMIT 1) l ON 1 = 1", "sssi", kind,
		     report_id, sender, (long long)since))
		return -1;
	rc = db_step(s);
	if (rc == DB_ROW) {
		t->of_report = (long)db_int(s, 0);
		t->of_sender = (long)db_int(s, 1);
		if (!db_null(s, 2) &&
		    !(t->open_status = db_column_dup(s, 2, NULL)))
			rc = -2;
		t->open_since = (time_t)db_int(s, 3);
	}
	db_finalize(s);
	if (rc == -2)
		return pb_fail(err, EX_OSERR, "out of memory");
	return rc == DB_ROW ? 0 : db_fail(st, err, "read");
}

void request_tally_release(struct request_tally *t)
{
	free(t->open_status);
	memset(t, 0, sizeof(*t));
}

static int sql_confirm_hold(struct state *st, const struct request_new *c,
			       const char *manifest, const char *text,
			       const char *dir, time_t now, struct pb_err *err)
{
	if (state_begin(st, err))
		return -1;
	/* one hold a report: a second is refused, not ignored */
	if (insert(st, "", c, now, err) ||
	    db_run(st, err, "INSERT INTO manifests (id, manifest, outcome, "
		   "seen, text, dir) VALUES (?, ?, 'confirming', ?, ?, ?) ON "
		   "CONFLICT DO NOTHING", "ssiss", c->report_id, manifest, (long long)now,
		   text, dir)) {
		state_rollback(st);
		return -1;
	}
	return state_commit(st, err);
}

static int sql_confirm_set(struct state *st, const struct request *c,
			      const char *status, const char *verdict,
			      const char *detail, time_t now,
			      struct pb_err *err)
{
	const char *outcome = verdict ? verdict :
		is_open(status) ? "confirming" : status;

	if (state_request_set(st, c->request_id, status, verdict, detail, now,
			      err))
		return -1;
	return db_run(st, err, "UPDATE manifests SET outcome = ? WHERE id = ?",
		      "ss", outcome, c->report_id);
}

static int sql_confirm_more(struct state *st, const char *report_id,
			       const char *request_id, long runs,
			       struct pb_err *err)
{
	return db_run(st, err, "UPDATE requests SET status = 'asking', "
		      "request_id = ?, runs = ? WHERE kind = 'confirm' AND "
		      "report_id = ?", "sis", request_id, (long long)runs,
		      report_id);
}

static int sql_request_look(struct state *st, const char *request_id,
			       const char *new_id, long runs, time_t deadline,
			       struct pb_err *err)
{
	return db_run(st, err, "UPDATE requests SET status = 'asking', "
		      "request_id = ?, runs = ?, deadline = ? WHERE "
		      "request_id = ? AND status IN ('asking', 'queued')",
		      "siis", new_id, (long long)runs, (long long)deadline,
		      request_id);
}

/* An open request's follow-up is one instance's at a time (lease.c). */
static const struct lease_of request_lease = {
	.table = "requests", .key = "request_id", .owner = "owner",
	.until = "lease_until", .open = "status IN ('asking', 'queued')",
};

static int sql_request_claim(struct state *st, const char *request_id,
			     time_t now, long ttl, int *claimed,
			     struct pb_err *err)
{
	return lease_take(st, &request_lease, request_id, now, ttl, claimed,
			  err);
}

static int sql_request_release(struct state *st, const char *request_id,
			       struct pb_err *err)
{
	return lease_drop(st, &request_lease, request_id, err);
}

const struct state_requests_ops sql_requests_ops = {
	.request_add = sql_request_add,
	.requests_open = sql_requests_open,
	.requests_of = sql_requests_of,
	.request_get = sql_request_get,
	.request_set = sql_request_set,
	.request_tally = sql_request_tally,
	.confirm_hold = sql_confirm_hold,
	.confirm_set = sql_confirm_set,
	.confirm_more = sql_confirm_more,
	.request_look = sql_request_look,
	.request_claim = sql_request_claim,
	.request_release = sql_request_release,
};
