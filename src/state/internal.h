/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_STATE_INTERNAL_H
#define PERFBOT_STATE_INTERNAL_H

/*
 * The state's handle and the SQLite backend's statement helpers, shared
 * by the files of the state module only (backend.h says which are the
 * front and which the SQLite backend's).
 */

#include <sqlite3.h>

#include "perfbot/state/state.h"
#include "backend.h"

/*
 * An open state: its backend first (backend.c calls through it), then
 * the SQLite backend's handle; another backend adds its own.
 */
struct state {
	const struct state_backend *be;
	sqlite3 *db;
	char *path;
	int lock_fd;
	int full;	/* a write found the disk full */
};

/*
 * The SQLite handle, for test_state.c only: the SQLite backend's own test
 * (its file's migrations, pragmas, pages); every other test goes through
 * the state API.
 */
static inline sqlite3 *state_db(struct state *st)
{
	return st->db;
}

/* The SQLite backend's handle operations (db.c), and its tables'. */
int sqlite_check(struct state *st, struct pb_err *err);
int sqlite_reserve(struct state *st, struct pb_err *err);
int sqlite_unreserve(struct state *st);
int sqlite_full(const struct state *st);
extern const struct state_archive_ops sqlite_archive_ops;
extern const struct state_noise_ops sqlite_noise_ops;
extern const struct state_bisections_ops sqlite_bisections_ops;
extern const struct state_inbox_ops sqlite_inbox_ops;
extern const struct state_marks_ops sqlite_marks_ops;
extern const struct state_outbox_ops sqlite_outbox_ops;
extern const struct state_admin_ops sqlite_admin_ops;
extern const struct state_prune_ops sqlite_prune_ops;
extern const struct state_records_ops sqlite_records_ops;
extern const struct state_requests_ops sqlite_requests_ops;
extern const struct state_seen_ops sqlite_seen_ops;
extern const struct state_status_ops sqlite_status_ops;

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
 * Every row of the prepared 's' (finalized here) into '*out', a new
 * array of '*n' elements of 'size' bytes: each zeroed, then filled by
 * 'read' (-1: out of memory, the element still counted); on failure the
 * elements read are given to 'release' with the array, and '*n' is 0.
 */
int db_read_rows(struct state *st, sqlite3_stmt *s, size_t size,
		 int (*read)(sqlite3_stmt *s, void *row),
		 void (*release)(void *rows, size_t n), void **out,
		 size_t *n, struct pb_err *err);

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
/* The place of a state file usable by a run (files.c: state_usable()). */
int sqlite_usable(const char *path, int *made, struct pb_err *err);
/* The reserve of files.c: made (its room kept), or given back. */
int state_reserve_make(const char *path, struct pb_err *err);
int state_reserve_free(const char *path);

#endif
