/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_STATE_INTERNAL_H
#define PERFBOT_STATE_INTERNAL_H

/* Statement helpers shared by the files of the state module only. */

#include <sqlite3.h>

#include "perfbot/state.h"

int db_fail(struct state *st, struct pb_err *err, const char *what);
/*
 * Prepare 'sql' and bind by 'types': 's' text (NULL binds NULL), 'i'
 * long long, 'b' blob (pointer, size_t).
 */
int db_query(struct state *st, sqlite3_stmt **s, struct pb_err *err,
	     const char *sql, const char *types, ...);
/* Run a statement that returns no rows. */
int db_run(struct state *st, struct pb_err *err, const char *sql,
	   const char *types, ...);
/* The first column of the first row, as a number. */
int db_count(struct state *st, long *n, struct pb_err *err,
	     const char *sql, const char *types, ...);
char *db_column_dup(sqlite3_stmt *s, int col, size_t *len);

#endif
