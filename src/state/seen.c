// SPDX-License-Identifier: GPL-2.0-only
/*
 * What ingest has seen (record stage): the manifests already reported or
 * skipped, and the HTTP validators (ETag, Last-Modified) of each source.
 */
#include <stdio.h>
#include <stdlib.h>

#include "perfbot/state/state.h"
#include "perfbot/state/seen.h"
#include "internal.h"

static int sql_seen(struct state *st, const char *id, int *seen,
		       struct pb_err *err)
{
	static const char sql[] =
		"SELECT 1 FROM manifests WHERE id = ?1 UNION ALL "
		"SELECT 1 FROM outbox WHERE kind = 'report' AND id = ?1";
	struct db_stmt *s;
	int rc;

	*seen = 0;
	if (db_query(st, &s, err, sql, "s", id))
		return -1;
	rc = db_step(s);
	db_finalize(s);
	*seen = rc == DB_ROW;
	return rc == DB_ROW || rc == DB_DONE ? 0 :
		db_fail(st, err, "read");
}

static int sql_skip(struct state *st, const char *id, const char *manifest,
		       const char *why, time_t now, struct pb_err *err)
{
	return db_run(st, err, "INSERT INTO manifests (id, manifest, outcome, "
		   "seen) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING", "sssi", id, manifest,
		   why, (long long)now);
}

/*
 * A source is kept under its URL with the password masked
 * ("user:***@"): the state never holds a secret.
 */
static int masked(const char *url, char *buf, size_t n, struct pb_err *err)
{
	if (snprintf(buf, n, "%s", url) >= (int)n)
		return pb_fail(err, EX_CONFIG, "sources: a URL longer than %zu "
			       "bytes", n - 1);
	pb_mask_credentials(buf);
	return 0;
}

static int sql_source_get(struct state *st, const char *url, char **etag,
			     char **last_modified, struct pb_err *err)
{
	struct db_stmt *s;
	char key[4096];
	int rc;

	*etag = *last_modified = NULL;
	if (masked(url, key, sizeof(key), err) ||
	    db_query(st, &s, err, "SELECT etag, last_modified FROM sources "
		  "WHERE url = ?", "s", key))
		return -1;
	rc = db_step(s);
	if (rc == DB_ROW) {
		if (!db_null(s, 0))
			*etag = db_column_dup(s, 0, NULL);
		if (!db_null(s, 1))
			*last_modified = db_column_dup(s, 1, NULL);
	}
	db_finalize(s);
	return rc == DB_ROW || rc == DB_DONE ? 0 :
		db_fail(st, err, "read");
}

static int sql_source_set(struct state *st, const char *url,
			     const char *etag, const char *last_modified,
			     time_t now, struct pb_err *err)
{
	char key[4096];

	return masked(url, key, sizeof(key), err) ||
	       db_run(st, err, "INSERT INTO sources (url, etag, "
		   "last_modified, fetched) VALUES (?, ?, ?, ?) ON CONFLICT "
		   "(url) DO UPDATE SET etag = excluded.etag, last_modified = "
		   "excluded.last_modified, fetched = excluded.fetched", "sssi", key,
		   etag, last_modified, (long long)now) ? -1 : 0;
}

static int sql_manifest_text(struct state *st, const char *report_id,
				char **name, char **text, char **dir,
				struct pb_err *err)
{
	struct db_stmt *s;
	int rc;

	*name = *text = *dir = NULL;
	if (db_query(st, &s, err, "SELECT manifest, text, dir FROM manifests "
		     "WHERE id = ?", "s", report_id))
		return -1;
	rc = db_step(s);
	if (rc == DB_ROW && !db_null(s, 1)) {
		*name = db_column_dup(s, 0, NULL);
		*text = db_column_dup(s, 1, NULL);
		*dir = db_column_dup(s, 2, NULL);
	}
	db_finalize(s);
	return rc == DB_ROW || rc == DB_DONE ? 0 :
		db_fail(st, err, "read");
}

const struct state_seen_ops sql_seen_ops = {
	.seen = sql_seen,
	.skip = sql_skip,
	.manifest_text = sql_manifest_text,
	.source_get = sql_source_get,
	.source_set = sql_source_set,
};
