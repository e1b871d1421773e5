// SPDX-License-Identifier: GPL-2.0-only
/*
 * record: learned noise (state/noise.h): the pooled CV of the runs
 * judged, per testcase, machine and metric, pooled as runs come and
 * read back whole for the prior.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/state/noise.h"

#include "internal.h"

static int sql_noise_add(struct state *st, const char *testcase,
			    const char *machine, const char *metric, double cv,
			    long df, time_t now, struct pb_err *err)
{
	double cv0 = 0, df0 = 0;
	struct db_stmt *s;
	int rc;

	if (!(isfinite(cv) && cv > 0 && cv < 1e6) || df < 1 || !testcase ||
	    !machine || !metric)
		return 0;
	if (db_query(st, &s, err, "SELECT cv, df FROM noise WHERE testcase "
		     "= ? AND machine = ? AND metric = ?", "sss", testcase,
		     machine, metric))
		return -1;
	rc = db_step(s);
	if (rc == DB_ROW) {
		cv0 = db_real(s, 0);
		df0 = (double)db_int(s, 1);
	}
	db_finalize(s);
	if (rc != DB_ROW && rc != DB_DONE)
		return db_fail(st, err, "read");
	cv = sqrt((df0 * cv0 * cv0 + (double)df * cv * cv) / (df0 + (double)df));
	return db_run(st, err, "INSERT INTO noise (testcase, machine, metric, "
		      "cv, df, updated) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT "
		      "(testcase, machine, metric) DO UPDATE SET cv = "
		      "excluded.cv, df = excluded.df, updated = excluded.updated", "sssdii", testcase, machine, metric, cv,
		      (long long)(df0 + (double)df), (long long)now);
}

void state_noise_free(struct state_noise *v, size_t n)
{
	size_t i;

	for (i = 0; v && i < n; i++) {
		free(v[i].testcase);
		free(v[i].machine);
		free(v[i].metric);
	}
	free(v);
}

static int row_read(struct db_stmt *s, void *row)
{
	struct state_noise *r = row;
	memset(r, 0, sizeof(*r));
	r->testcase = db_column_dup(s, 0, NULL);
	r->machine = db_column_dup(s, 1, NULL);
	r->metric = db_column_dup(s, 2, NULL);
	r->cv = db_real(s, 3);
	r->df = (long)db_int(s, 4);
	r->updated = (time_t)db_int(s, 5);
	return r->testcase && r->machine && r->metric ? 0 : -1;
}

static void rows_release(void *rows, size_t n)
{
	state_noise_free(rows, n);
}

static int same(const struct state_noise *r, const char *testcase,
		const char *machine, const char *metric)
{
	return testcase && machine && metric && !strcmp(r->testcase,
							testcase) &&
	       !strcmp(r->machine, machine) && !strcmp(r->metric, metric);
}

static int sql_noise_all(struct state *st, const char *testcase,
			    const char *machine, const char *metric,
			    struct state_noise **out, size_t *n, size_t *at,
			    struct pb_err *err)
{
	struct state_noise *v;
	struct db_stmt *s;
	void *rows;

	*out = NULL;
	*n = 0;
	if (db_query(st, &s, err, "SELECT testcase, machine, metric, cv, df, "
		     "updated FROM noise ORDER BY testcase, machine, metric",
		     ""))
		return -1;
	if (db_read_rows(st, s, sizeof(**out), row_read, rows_release,
			 &rows, n, err))
		return -1;
	*out = v = rows;
	if (at) {
		for (*at = 0; *at < *n && !same(&v[*at], testcase, machine,
						metric); (*at)++)
			;
	}
	return 0;
}

const struct state_noise_ops sql_noise_ops = {
	.noise_add = sql_noise_add,
	.noise_all = sql_noise_all,
};
