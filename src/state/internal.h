/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_STATE_INTERNAL_H
#define PERFBOT_STATE_INTERNAL_H

/*
 * The state's handle and the statement helpers, shared by the files of
 * the state module only (and its unit tests, which look at the tables).
 */

#include <sqlite3.h>

#include "perfbot/state/state.h"

struct state {
	sqlite3 *db;
	char *path;
	int lock_fd;
	int full;	/* a write found the disk full */
};

/* The SQLite handle, for the unit tests' own queries. */
static inline sqlite3 *state_db(struct state *st)
{
	return st->db;
}

/* The migrations (schema.c): entry N moves version N to N + 1. */
extern const char *const state_migrations[];
extern const int state_nmigrations;

int db_fail(struct state *st, struct pb_err *err, const char *what);
/*
 * Prepare 'sql' and bind by 'types': 's' text (NULL binds NULL), 'i'
 * long long, 'd' double, 'b' blob (pointer, size_t).
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

/*
 * The files beside the state (files.c): EX_NOINPUT when 'path' is
 * missing or empty but its marker says it was in use; the marker made
 * when there is none; 'path' as an SQLite URI with 'query' ("file:...",
 * newly allocated); 1 when no run holds the state's lock.
 */
int state_marker_check(const char *path, struct pb_err *err);
int state_marker_keep(const char *path, time_t now, struct pb_err *err);
char *state_uri(const char *path, const char *query);
int state_nobody_writing(const char *path);
/* The reserve of files.c: made (its room kept), or given back. */
int state_reserve_make(const char *path, struct pb_err *err);
int state_reserve_free(const char *path);

#endif
