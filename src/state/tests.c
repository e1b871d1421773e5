// SPDX-License-Identifier: GPL-2.0-only
/*
 * record: the tests table (declared in state.h): a "test" of a fix, a
 * tree or a commit recorded with what the farm was asked and the thread
 * to answer in, the queued ones read back for their follow-up, each end
 * with its verdict or reason, and the counts the limits need; all for
 * act/test.c.
 */
#include <stdlib.h>
#include <string.h>

#include "perfbot/state/state.h"
#include "internal.h"

int state_test_add(struct state *st, const struct test_request *rq,
		   time_t now, struct pb_err *err)
{
	return db_run(st, err, "INSERT OR IGNORE INTO tests (request_id, "
		      "report_id, form, runs, requested_by, reply_message_id, "
		      "thread, commit_sha, repo, ref, patch, patch_bytes, "
		      "result_root, status, deadline, detail, created) VALUES "
		      "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
		      "sssisssssssissisi", rq->request_id, rq->report_id,
		      rq->form, (long long)rq->runs, rq->requested_by,
		      rq->reply_message_id, rq->thread, rq->commit, rq->repo,
		      rq->ref, rq->patch, (long long)rq->patch_bytes,
		      rq->result_root, rq->status ? rq->status : "queued",
		      (long long)rq->deadline, rq->detail, (long long)now);
}

/* Row 'r' of the query of state_tests_queued(); -1 when out of memory. */
static int test_row_read(sqlite3_stmt *s, struct test_row *r)
{
	char **str[] = { &r->request_id, &r->report_id, &r->form, &r->thread,
			 &r->commit, &r->repo, &r->ref, &r->patch,
			 &r->result_root };
	size_t i;
	int rc = 0;

	memset(r, 0, sizeof(*r));
	for (i = 0; i < sizeof(str) / sizeof(str[0]); i++)
		if (sqlite3_column_type(s, (int)i) != SQLITE_NULL &&
		    !(*str[i] = db_column_dup(s, (int)i, NULL)))
			rc = -1;
	r->runs = sqlite3_column_int(s, 9);
	r->deadline = (time_t)sqlite3_column_int64(s, 10);
	r->created = (time_t)sqlite3_column_int64(s, 11);
	return rc;
}

int state_tests_queued(struct state *st, struct test_row **out, size_t *n,
		       struct pb_err *err)
{
	struct test_row *v = NULL, *nv;
	sqlite3_stmt *s;
	int rc, oom = 0;

	*out = NULL;
	*n = 0;
	if (db_query(st, &s, err, "SELECT request_id, report_id, form, "
		     "thread, commit_sha, repo, ref, patch, result_root, runs, "
		     "deadline, created FROM tests WHERE status = 'queued' "
		     "ORDER BY created, request_id", ""))
		return -1;
	while (!oom && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		nv = realloc(v, (*n + 1) * sizeof(*v));
		if (!nv) {
			oom = 1;
			break;
		}
		v = nv;
		oom = test_row_read(s, &v[*n]);
		(*n)++;
	}
	sqlite3_finalize(s);
	*out = v;
	if (oom || rc != SQLITE_DONE) {
		test_rows_free(v, *n);
		*out = NULL;
		*n = 0;
		return oom ? pb_fail(err, EX_OSERR, "out of memory") :
			db_fail(st, err, "read");
	}
	return 0;
}

void test_rows_free(struct test_row *r, size_t n)
{
	size_t i;

	for (i = 0; r && i < n; i++) {
		free(r[i].request_id);
		free(r[i].report_id);
		free(r[i].form);
		free(r[i].thread);
		free(r[i].commit);
		free(r[i].repo);
		free(r[i].ref);
		free(r[i].patch);
		free(r[i].result_root);
	}
	free(r);
}

int state_test_finish(struct state *st, const char *request_id,
		      const char *status, const char *detail, time_t now,
		      struct pb_err *err)
{
	return db_run(st, err, "UPDATE tests SET status = ?, detail = ?, "
		      "decided = ? WHERE request_id = ?", "ssis", status,
		      detail, (long long)now, request_id);
}

int state_test_counts(struct state *st, const char *report_id,
		      const char *sender, time_t since, long *of_report,
		      long *of_sender, struct pb_err *err)
{
	/* a test the farm could not build or apply ran nothing: it does not
	 * use up one of the report's tests */
	return db_count(st, of_report, err, "SELECT count(*) FROM tests "
			"WHERE report_id = ? AND status <> 'failed'", "s",
			report_id) ||
	       db_count(st, of_sender, err, "SELECT count(*) FROM tests "
			"WHERE requested_by = ? AND created >= ?", "si",
			sender, (long long)since) ? -1 : 0;
}
