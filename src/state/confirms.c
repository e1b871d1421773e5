// SPDX-License-Identifier: GPL-2.0-only
/*
 * record: the confirms table (declared in state.h): a report held for
 * confirmation runs, recorded with its manifest in one transaction, the
 * open ones read back, and each change of status with the manifest's
 * outcome along; all for act/confirm.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/state/state.h"
#include "internal.h"

int state_confirm_hold(struct state *st, const struct confirm_row *c,
		       const char *manifest, const char *text,
		       const char *dir, time_t now, struct pb_err *err)
{
	char change[40];

	snprintf(change, sizeof(change), "%.17g", c->reported_change);
	if (state_begin(st, err))
		return -1;
	if (db_run(st, err, "INSERT INTO confirms (report_id, request_id, "
		   "metric, reported_change, runs, base_runs, head_runs, "
		   "status, deadline, created) VALUES (?, ?, ?, ?, ?, ?, ?, "
		   "'asking', ?, ?)", "ssssiiiii", c->report_id, c->request_id,
		   c->metric, change, (long long)c->runs,
		   (long long)c->base_runs, (long long)c->head_runs,
		   (long long)c->deadline, (long long)now) ||
	    db_run(st, err, "INSERT OR IGNORE INTO manifests (id, manifest, "
		   "outcome, seen, text, dir) VALUES (?, ?, 'confirming', ?, "
		   "?, ?)", "ssiss", c->report_id, manifest, (long long)now,
		   text, dir)) {
		state_rollback(st);
		return -1;
	}
	return state_commit(st, err);
}

int state_confirms_open(struct state *st, struct confirm_row **out,
			size_t *n, struct pb_err *err)
{
	struct confirm_row *v = NULL, *nv;
	sqlite3_stmt *s;
	char *change;
	int rc;

	*out = NULL;
	*n = 0;
	if (db_query(st, &s, err, "SELECT report_id, request_id, metric, "
		     "status, reported_change, runs, base_runs, head_runs, "
		     "deadline FROM confirms WHERE status IN ('asking', "
		     "'confirming') ORDER BY created, report_id", ""))
		return -1;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		nv = realloc(v, (*n + 1) * sizeof(*v));
		if (!nv)
			break;
		v = nv;
		memset(&v[*n], 0, sizeof(*v));
		v[*n].report_id = db_column_dup(s, 0, NULL);
		v[*n].request_id = db_column_dup(s, 1, NULL);
		v[*n].metric = db_column_dup(s, 2, NULL);
		v[*n].status = db_column_dup(s, 3, NULL);
		change = db_column_dup(s, 4, NULL);
		v[*n].reported_change = change ? strtod(change, NULL) : 0;
		free(change);
		v[*n].runs = (long)sqlite3_column_int64(s, 5);
		v[*n].base_runs = (long)sqlite3_column_int64(s, 6);
		v[*n].head_runs = (long)sqlite3_column_int64(s, 7);
		v[*n].deadline = (time_t)sqlite3_column_int64(s, 8);
		(*n)++;
	}
	sqlite3_finalize(s);
	*out = v;
	if (rc != SQLITE_DONE) {
		confirm_rows_free(v, *n);
		*out = NULL;
		*n = 0;
		return rc == SQLITE_ROW ? pb_fail(err, EX_OSERR, "out of "
						  "memory") :
			db_fail(st, err, "read");
	}
	return 0;
}

void confirm_rows_free(struct confirm_row *r, size_t n)
{
	size_t i;

	for (i = 0; r && i < n; i++) {
		free(r[i].report_id);
		free(r[i].request_id);
		free(r[i].metric);
		free(r[i].status);
	}
	free(r);
}

int state_confirm_set(struct state *st, const char *report_id,
		      const char *status, const char *detail, int final,
		      time_t now, struct pb_err *err)
{
	if (db_run(st, err, "UPDATE confirms SET status = ?, detail = ?, "
		   "decided = ? WHERE report_id = ?", "ssis",
		   status, detail, final ? (long long)now : 0LL,
		   report_id))
		return -1;
	return db_run(st, err, "UPDATE manifests SET outcome = ? WHERE id = ?",
		      "ss", status, report_id);
}

int state_confirm_more(struct state *st, const char *report_id,
		       const char *request_id, long runs, struct pb_err *err)
{
	return db_run(st, err, "UPDATE confirms SET status = 'asking', "
		      "request_id = ?, runs = ? WHERE report_id = ?", "sis",
		      request_id, (long long)runs, report_id);
}
