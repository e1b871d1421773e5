// SPDX-License-Identifier: GPL-2.0-only
/*
 * The result roots of requests that are over (record stage), for
 * 'perfbot state prune': only the state knows which directories under
 * scheduler.results_dir perfbot made, and for which request.
 */
#include <stdlib.h>
#include <string.h>

#include "perfbot/state/prune.h"
#include "internal.h"

#define ROOTS_MAX 100000

void done_roots_free(struct done_root *v, size_t n)
{
	size_t i;

	for (i = 0; v && i < n; i++) {
		free(v[i].kind);
		free(v[i].request_id);
		free(v[i].result_root);
	}
	free(v);
}

static int take(struct db_stmt *s, struct done_root *r)
{
	r->kind = db_column_dup(s, 0, NULL);
	r->request_id = db_column_dup(s, 1, NULL);
	r->result_root = db_column_dup(s, 2, NULL);
	r->decided = (time_t)db_int(s, 3);
	return r->kind && r->request_id && r->result_root ? 0 : -1;
}

static int sql_done_roots(struct state *st, time_t before,
			     struct done_root **out, size_t *n,
			     struct pb_err *err)
{
	struct db_stmt *s = NULL;
	struct done_root *v = NULL, *nv;
	size_t k = 0;
	int rc = DB_DONE, oom = 0;

	*out = NULL;
	*n = 0;
	if (db_query(st, &s, err,
		     "SELECT kind, request_id, result_root, "
		     "coalesce(nullif(decided, 0), created) AS at FROM "
		     "requests WHERE result_root IS NOT NULL AND status NOT "
		     "IN ('asking', 'queued') AND coalesce(nullif(decided, "
		     "0), created) < ?1 ORDER BY 4, 2",
		     "i", (long long)before))
		return -1;
	while (!oom && k < ROOTS_MAX && (rc = db_step(s)) == DB_ROW) {
		nv = realloc(v, (k + 1) * sizeof(*v));
		oom = !nv;
		if (oom)
			break;
		v = nv;
		memset(&v[k], 0, sizeof(*v));
		oom = take(s, &v[k++]);
	}
	if (k == ROOTS_MAX)	/* the rest the next time */
		rc = DB_DONE;
	db_finalize(s);
	if (oom || rc != DB_DONE) {
		done_roots_free(v, k);
		return oom ? pb_fail(err, EX_OSERR, "out of memory") :
			db_fail(st, err, "result roots");
	}
	*out = v;
	*n = k;
	return 0;
}

const struct state_prune_ops sql_prune_ops = {
	.done_roots = sql_done_roots,
};
