// SPDX-License-Identifier: GPL-2.0-only
/*
 * record: the ids derived for manifests that name none (seen.h). Such a
 * manifest's report id is derived from its commits and its job, which
 * takes loading its result roots: kept here under a digest of the
 * manifest's text and folder, a later cycle knows the id of an unchanged
 * manifest, and so whether it was seen, without loading anything.
 */
#include <stdlib.h>

#include "perfbot/state/seen.h"
#include "internal.h"

int state_manifest_id_get(struct state *st, const char *digest, char **id,
			  struct pb_err *err)
{
	struct db_stmt *s;
	int rc;

	*id = NULL;
	if (db_query(st, &s, err, "SELECT id FROM manifest_ids WHERE "
		     "digest = ?", "s", digest))
		return -1;
	rc = db_step(s);
	if (rc == DB_ROW && !(*id = db_column_dup(s, 0, NULL))) {
		db_finalize(s);
		return pb_fail(err, EX_OSERR, "out of memory");
	}
	db_finalize(s);
	return rc == DB_ROW || rc == DB_DONE ? 0 : db_fail(st, err, "read");
}

int state_manifest_id_keep(struct state *st, const char *digest,
			   const char *id, time_t now, struct pb_err *err)
{
	return db_run(st, err, "INSERT INTO manifest_ids (digest, id, seen) "
		      "VALUES (?, ?, ?) ON CONFLICT (digest) DO NOTHING", "ssi",
		      digest, id, (long long)now);
}
