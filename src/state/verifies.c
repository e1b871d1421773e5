// SPDX-License-Identifier: GPL-2.0-only
/*
 * record: the verifies table (records.h): the farm's run on each landed
 * fix, recorded in the transaction of the landing, the queued ones read
 * back for their follow-up, each end with its verdict or reason; all for
 * act/verify.c, and read by 'perfbot show'.
 */
#include <stdlib.h>
#include <string.h>

#include "perfbot/state/records.h"

#include "internal.h"

#define VERIFY_COLS \
	"SELECT request_id, report_id, commit_sha, result_root, status, " \
	"detail, runs, deadline, created, coalesce(decided, 0) FROM verifies "

int state_verify_add(struct state *st, const struct verify_request *rq,
		     time_t now, struct pb_err *err)
{
	return db_run(st, err, "INSERT OR IGNORE INTO verifies (request_id, "
		      "report_id, commit_sha, runs, result_root, status, "
		      "detail, deadline, created) VALUES (?, ?, ?, ?, ?, ?, ?, "
		      "?, ?)", "sssisssii", rq->request_id, rq->report_id,
		      rq->commit, (long long)rq->runs, rq->result_root,
		      rq->status ? rq->status : "queued", rq->detail,
		      (long long)rq->deadline, (long long)now);
}

/* One row of VERIFY_COLS; -1 when out of memory. */
static int verify_row_read(sqlite3_stmt *s, struct verify_row *v)
{
	char **str[] = { &v->request_id, &v->report_id, &v->commit,
			 &v->result_root, &v->status, &v->detail };
	size_t i;
	int rc = 0;

	memset(v, 0, sizeof(*v));
	for (i = 0; i < sizeof(str) / sizeof(str[0]); i++)
		if (sqlite3_column_type(s, (int)i) != SQLITE_NULL &&
		    !(*str[i] = db_column_dup(s, (int)i, NULL)))
			rc = -1;
	v->runs = sqlite3_column_int(s, 6);
	v->deadline = (time_t)sqlite3_column_int64(s, 7);
	v->created = (time_t)sqlite3_column_int64(s, 8);
	v->decided = (time_t)sqlite3_column_int64(s, 9);
	return rc;
}

void verify_rows_free(struct verify_row *v, size_t n)
{
	size_t i;

	for (i = 0; v && i < n; i++) {
		free(v[i].request_id);
		free(v[i].report_id);
		free(v[i].commit);
		free(v[i].result_root);
		free(v[i].status);
		free(v[i].detail);
	}
	free(v);
}

/* Every row of the prepared 's' into '*out'. */
static int read_rows(struct state *st, sqlite3_stmt *s,
		     struct verify_row **out, size_t *n, struct pb_err *err)
{
	struct verify_row *v = NULL, *nv;
	int rc, oom = 0;

	*out = NULL;
	*n = 0;
	while (!oom && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		nv = realloc(v, (*n + 1) * sizeof(*v));
		if (!nv) {
			oom = 1;
			break;
		}
		v = nv;
		oom = verify_row_read(s, &v[*n]) != 0;
		(*n)++;
	}
	sqlite3_finalize(s);
	if (oom || rc != SQLITE_DONE) {
		verify_rows_free(v, *n);
		*n = 0;
		return oom ? pb_fail(err, EX_OSERR, "out of memory") :
			db_fail(st, err, "read");
	}
	*out = v;
	return 0;
}

int state_verify_get(struct state *st, const char *request_id,
		     struct verify_row **out, struct pb_err *err)
{
	sqlite3_stmt *s;
	size_t n;

	*out = NULL;
	if (db_query(st, &s, err, VERIFY_COLS "WHERE request_id = ?", "s",
		     request_id) ||
	    read_rows(st, s, out, &n, err))
		return -1;
	if (!n) {
		free(*out);
		*out = NULL;
	}
	return 0;
}

int state_verifies_queued(struct state *st, struct verify_row **out,
			  size_t *n, struct pb_err *err)
{
	sqlite3_stmt *s;

	*out = NULL;
	*n = 0;
	if (db_query(st, &s, err, VERIFY_COLS "WHERE status = 'queued' "
		     "ORDER BY created, request_id", ""))
		return -1;
	return read_rows(st, s, out, n, err);
}

int state_verify_finish(struct state *st, const char *request_id,
			const char *status, const char *detail, time_t now,
			struct pb_err *err)
{
	return db_run(st, err, "UPDATE verifies SET status = ?, detail = ?, "
		      "decided = ? WHERE request_id = ?", "ssis", status,
		      detail, (long long)now, request_id);
}
