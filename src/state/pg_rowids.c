// SPDX-License-Identifier: GPL-2.0-only
/*
 * record: the PostgreSQL backend's part of an import (dump.h, its
 * state_backend's rowids_go_on): the identity columns' sequences set
 * after the rowids the dump gave.
 */
#include <stdio.h>
#include <string.h>

#include "perfbot/state/dump.h"
#include "dump_internal.h"
#include "internal.h"

/*
 * After an import gave rows their rowids: PostgreSQL's identity columns
 * go on after the largest (SQLite's rowid does by itself).
 */
int pg_rowids_go_on(struct state *st, struct pb_err *err)
{
	const char *const *tables;
	size_t t, ntables = state_dump_tables(&tables);
	char sql[256];
	long v;

	for (t = 0; t < ntables; t++) {
		if (strcmp(tables[t], "outbox") &&
		    strcmp(tables[t], "record_events") &&
		    !dump_has_rowid(tables[t]))
			continue;
		snprintf(sql, sizeof(sql), "SELECT setval(pg_get_serial_"
			 "sequence('%s', 'rowid'), (SELECT coalesce(max(rowid), "
			 "0) + 1 FROM %s), false)", tables[t], tables[t]);
		if (db_count(st, &v, err, sql, ""))
			return -1;
	}
	return 0;
}

