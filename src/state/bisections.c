// SPDX-License-Identifier: GPL-2.0-only
/*
 * record: the bisections table (bisections.h, issue 33): a bisection's
 * state kept across cron runs as the text judge/bisect_json.c made, its
 * phase beside it so the open ones are found without reading it.
 */
#include <stdlib.h>
#include <string.h>

#include "perfbot/state/bisections.h"

#include "internal.h"

#define BISECTION_COLS \
	"SELECT bisect_id, report_id, phase, state, job, manifest, " \
	"deadline, created, updated FROM bisections "
#define NSTR 6

static void strings_of(struct bisection_row *r, char **str[NSTR])
{
	char **v[NSTR] = { &r->bisect_id, &r->report_id, &r->phase,
			   &r->state, &r->job, &r->manifest };

	memcpy(str, v, sizeof(v));
}

void bisection_rows_free(struct bisection_row *r, size_t n)
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

static int row_read(struct db_stmt *s, void *row)
{
	struct bisection_row *r = row;
	char **str[NSTR];
	int i, rc = 0;

	memset(r, 0, sizeof(*r));
	strings_of(r, str);
	for (i = 0; i < NSTR; i++)
		if (!db_null(s, i) &&
		    !(*str[i] = db_column_dup(s, i, NULL)))
			rc = -1;
	r->deadline = (time_t)db_int(s, NSTR);
	r->created = (time_t)db_int(s, NSTR + 1);
	r->updated = (time_t)db_int(s, NSTR + 2);
	return rc;
}

static void rows_release(void *rows, size_t n)
{
	bisection_rows_free(rows, n);
}

static int read_rows(struct state *st, struct db_stmt *s,
		     struct bisection_row **out, size_t *n,
		     struct pb_err *err)
{
	void *rows;
	int rc = db_read_rows(st, s, sizeof(**out), row_read, rows_release,
			      &rows, n, err);

	*out = rows;
	return rc;
}

static int sql_bisection_add(struct state *st, const char *bisect_id,
				const char *report_id, const char *phase,
				const char *state_json, const char *job,
				const char *manifest, time_t deadline,
				time_t now, struct pb_err *err)
{
	return db_run(st, err, "INSERT INTO bisections (bisect_id, "
		      "report_id, phase, state, job, manifest, deadline, "
		      "created, updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
		      "ON CONFLICT DO NOTHING",
		      "ssssssiii", bisect_id, report_id, phase, state_json,
		      job, manifest, (long long)deadline, (long long)now,
		      (long long)now);
}

static int sql_bisection_set(struct state *st, const char *bisect_id,
				const char *phase, const char *state_json,
				time_t now, struct pb_err *err)
{
	return db_run(st, err, "UPDATE bisections SET phase = ?, state = ?, "
		      "updated = ? WHERE bisect_id = ?", "ssis", phase,
		      state_json, (long long)now, bisect_id);
}

static int sql_bisection_get(struct state *st, const char *bisect_id,
				struct bisection_row **out, struct pb_err *err)
{
	struct db_stmt *s;
	size_t n;

	*out = NULL;
	if (db_query(st, &s, err, BISECTION_COLS "WHERE bisect_id = ?", "s",
		     bisect_id) ||
	    read_rows(st, s, out, &n, err))
		return -1;
	if (!n) {
		free(*out);
		*out = NULL;
	}
	return 0;
}

static int sql_bisections(struct state *st, const char *report_id, int open,
			     struct bisection_row **out, size_t *n,
			     struct pb_err *err)
{
	struct db_stmt *s;

	*out = NULL;
	*n = 0;
	if (db_query(st, &s, err, BISECTION_COLS "WHERE (?1 IS NULL OR "
		     "report_id = ?1) AND (?2 = 0 OR phase IN ('search', "
		     "'verify')) ORDER BY created, rowid", "si", report_id,
		     (long long)open))
		return -1;
	return read_rows(st, s, out, n, err);
}

/* An open bisection's round is one instance's at a time (lease.c). */
static const struct lease_of bisection_lease = {
	.table = "bisections", .key = "bisect_id", .owner = "owner",
	.until = "lease_until", .open = "phase IN ('search', 'verify')",
};

static int sql_bisection_claim(struct state *st, const char *bisect_id,
			       time_t now, long ttl, int *claimed,
			       struct pb_err *err)
{
	return lease_take(st, &bisection_lease, bisect_id, now, ttl, claimed,
			  err);
}

static int sql_bisection_release(struct state *st, const char *bisect_id,
				 struct pb_err *err)
{
	return lease_drop(st, &bisection_lease, bisect_id, err);
}

const struct state_bisections_ops sql_bisections_ops = {
	.bisection_add = sql_bisection_add,
	.bisection_set = sql_bisection_set,
	.bisection_get = sql_bisection_get,
	.bisections = sql_bisections,
	.bisection_claim = sql_bisection_claim,
	.bisection_release = sql_bisection_release,
};
