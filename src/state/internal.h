/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_STATE_INTERNAL_H
#define PERFBOT_STATE_INTERNAL_H

/*
 * The state's handle and the statement helpers, shared by the files of
 * the state module only (backend.h says which files are the front and
 * which a backend's).
 *
 * The tables' operations (queue.c, inbox.c, requests.c, status.c...) are
 * written once, in SQL that SQLite and PostgreSQL both accept (doc/
 * state-sql.md says which), against the statements below; each backend
 * that speaks SQL gives a driver (struct db_driver) that prepares, binds
 * and reads them: SQLite's in sqlite_sql.c.
 */

#include <stdarg.h>

#include "perfbot/state/state.h"
#include "backend.h"

struct sqlite3;
struct pg_handle;

/*
 * An open state: its backend first (backend.c calls through it), then
 * each backend's handle (NULL when another backend's).
 */
struct state {
	const struct state_backend *be;
	struct sqlite3 *db;
	struct pg_handle *pg;	/* PostgreSQL's (pg.h) */
	char *path;	/* the file, or the URI without its password */
	int lock_fd;
	int full;	/* a write found the disk full */
	char *owner;	/* the owner of its leases, NULL: "host:pid" */
};

/* db_step()'s answers */
enum { DB_ERROR = -1, DB_DONE = 0, DB_ROW = 1 };

/* A column's type as the driver holds it (db_type()). */
enum db_type { DB_NULL, DB_INT, DB_REAL, DB_TEXT, DB_BLOB };

/*
 * A statement being read: each driver's begins with this (its driver,
 * the state it runs on), so the db_* functions below reach the driver.
 */
struct db_stmt {
	const struct db_driver *drv;
	struct state *st;
};

/*
 * A driver: the statements of one SQL backend. 'prepare' binds by
 * 'types' as db_query() says; the SQL uses '?' (or '?N') for arguments.
 * A column read is valid until the next step or the finalize. 'fail'
 * says the driver's last error as perfbot's one line (what it means:
 * locked, the disk full, a damaged or unreachable state).
 */
struct db_driver {
	int (*prepare)(struct state *st, struct db_stmt **s, const char *sql,
		       const char *types, va_list ap, struct pb_err *err);
	int (*step)(struct db_stmt *s);
	enum db_type (*type)(struct db_stmt *s, int col);
	long long (*int64)(struct db_stmt *s, int col);
	double (*real)(struct db_stmt *s, int col);
	/* text or blob bytes, '*len' set; NULL for NULL */
	const void *(*bytes)(struct db_stmt *s, int col, size_t *len);
	int (*columns)(struct db_stmt *s);
	const char *(*name)(struct db_stmt *s, int col);
	void (*finalize)(struct db_stmt *s);
	int (*fail)(struct state *st, struct pb_err *err, const char *what);
	/* rows changed by the last statement run */
	long (*changes)(struct state *st);
	int (*in_transaction)(struct state *st);
	int (*has_table)(struct state *st, const char *name);
	/*
	 * What a subquery that picks rows to take ends with so that those
	 * another transaction is taking are passed over rather than waited
	 * for: " FOR UPDATE SKIP LOCKED" (PostgreSQL), "" where one writer
	 * at a time has the database (SQLite).
	 */
	const char *skip_locked;
	/*
	 * The statement that begins a read of one snapshot of every table
	 * (a dump); NULL: "BEGIN" gives one (SQLite's, in WAL mode).
	 */
	const char *begin_snapshot;
};

extern const struct db_driver db_sqlite;

/*
 * The SQLite handle, for test_state.c only: the SQLite backend's own test
 * (its file's migrations, pragmas, pages); every other test goes through
 * the state API.
 */
static inline struct sqlite3 *state_db(struct state *st)
{
	return st->db;
}

/* The SQLite backend's handle operations (sqlite_sql.c). */
int sqlite_check(struct state *st, struct pb_err *err);
int sqlite_reserve(struct state *st, struct pb_err *err);
int sqlite_unreserve(struct state *st);
int sqlite_full(const struct state *st);
/* The tables' operations in SQL, for every backend with a driver. */
extern const struct state_archive_ops sql_archive_ops;
extern const struct state_noise_ops sql_noise_ops;
extern const struct state_bisections_ops sql_bisections_ops;
extern const struct state_inbox_ops sql_inbox_ops;
extern const struct state_marks_ops sql_marks_ops;
extern const struct state_outbox_ops sql_outbox_ops;
extern const struct state_admin_ops sql_admin_ops;
extern const struct state_prune_ops sql_prune_ops;
extern const struct state_records_ops sql_records_ops;
extern const struct state_requests_ops sql_requests_ops;
extern const struct state_seen_ops sql_seen_ops;
extern const struct state_status_ops sql_status_ops;

/*
 * Leases on rows of work (lease.c): 'table' whose 'key' (an integer
 * when 'int_key') names a row, its columns 'owner' and 'until', the
 * condition 'open' of a row still to be worked on, and 'also' (NULL or
 * ", col = ?3": more set when taken, ?3 the time).
 */
struct lease_of {
	const char *table, *key, *owner, *until, *open, *also;
	int int_key;
};

/* The owner of 'st''s leases: its own name, or "host:pid". */
int lease_owner(const struct state *st, char *buf, size_t n);
/*
 * Take the lease on the row 'id' of 'l' for 'ttl' seconds, in one
 * conditional UPDATE: '*taken' 1, or 0 when the row is not open or
 * another live owner's lease is not over.
 */
int lease_take(struct state *st, const struct lease_of *l, const char *id,
	       time_t now, long ttl, int *taken, struct pb_err *err);
/* Give the lease back (only one's own). */
int lease_drop(struct state *st, const struct lease_of *l, const char *id,
	       struct pb_err *err);
/*
 * Take the leases of up to 'max' open rows of 'l' (an integer key) above
 * 'after' that 'pick' selects (SQL on its columns: ?3 is 'now', ?6
 * 'arg'), the lowest keys first, for 'ttl' seconds each: their keys,
 * sorted, into '*keys' (free()); one's own leases are taken again. One
 * UPDATE of the rows picked once with the driver's skip_locked, so that
 * takers at once share the rows out instead of waiting on each other;
 * the leases of dead processes of this host are given back first.
 */
int lease_take_some(struct state *st, const struct lease_of *l,
		    const char *pick, long long arg, long long after,
		    size_t max, time_t now, long ttl, long long **keys,
		    size_t *n, struct pb_err *err);
/* The lease of the outbox's mails (queue.c) */
extern const struct lease_of outbox_claim;

/* PostgreSQL's NOTIFY, LISTEN and wait on the socket (pg_wake.c). */
int pg_wake_notify(struct state *st, struct pb_err *err);
int pg_wake_listen(struct state *st, struct pb_err *err);
int pg_wake_wait(struct state *st, long ms, int *woken, struct pb_err *err);
/* After an import: PostgreSQL's rowid sequences past the rows (pg_rowids.c). */
int pg_rowids_go_on(struct state *st, struct pb_err *err);

/*
 * PostgreSQL's lock of a singleton duty (duty.c), for its struct
 * state_backend's duty_lock: pg_try_advisory_lock() of the duty's key
 * on the session, held until the session ends.
 */
int pg_duty_lock(struct state *st, const char *duty, int *held,
		 struct pb_err *err);

/* Every table's operations of a struct state_backend, in SQL. */
#define SQL_TABLES_OPS							\
	.archive = &sql_archive_ops, .noise = &sql_noise_ops,		\
	.bisections = &sql_bisections_ops, .inbox = &sql_inbox_ops,	\
	.marks = &sql_marks_ops, .outbox = &sql_outbox_ops,		\
	.admin = &sql_admin_ops, .prune = &sql_prune_ops,		\
	.records = &sql_records_ops, .requests = &sql_requests_ops,	\
	.seen = &sql_seen_ops, .status = &sql_status_ops

/*
 * The migrations (schema.c): entry N moves version N to N + 1; 'sql' is
 * SQLite's, 'pg' PostgreSQL's when it differs in more than the types'
 * words (NULL: 'sql'), 'pg_rowid' the tables it makes that PostgreSQL
 * gives a rowid column (space-separated; SQLite's rowid is implicit).
 */
struct state_migration {
	const char *sql;
	const char *pg;
	const char *pg_rowid;
};

extern const struct state_migration state_migrations[];
extern const int state_nmigrations;

/* The driver's last error as perfbot's one line; -1. */
int db_fail(struct state *st, struct pb_err *err, const char *what);
/*
 * Prepare 'sql' and bind by 'types': 's' text (NULL binds NULL), 'i'
 * long long, 'd' double, 'b' blob (pointer, size_t).
 */
int db_query(struct state *st, struct db_stmt **s, struct pb_err *err,
	     const char *sql, const char *types, ...);
/* The next row: DB_ROW, DB_DONE, or DB_ERROR (then db_fail() says it). */
int db_step(struct db_stmt *s);
enum db_type db_type(struct db_stmt *s, int col);
int db_null(struct db_stmt *s, int col);
long long db_int(struct db_stmt *s, int col);
double db_real(struct db_stmt *s, int col);
/* a column's text, NULL for NULL (valid until the next step) */
const char *db_text(struct db_stmt *s, int col);
int db_columns(struct db_stmt *s);
const char *db_name(struct db_stmt *s, int col);
void db_finalize(struct db_stmt *s);
long db_changes(struct state *st);
int db_in_transaction(struct state *st);
int db_has_table(struct state *st, const char *name);
/* Run a statement that returns no rows. */
int db_run(struct state *st, struct pb_err *err, const char *sql,
	   const char *types, ...);
/* The first column of the first row, as a number. */
int db_count(struct state *st, long *n, struct pb_err *err,
	     const char *sql, const char *types, ...);
/* A column's bytes, newly allocated and NUL-ended ("" for NULL). */
char *db_column_dup(struct db_stmt *s, int col, size_t *len);
/*
 * Every row of the prepared 's' (finalized here) into '*out', a new
 * array of '*n' elements of 'size' bytes: each zeroed, then filled by
 * 'read' (-1: out of memory, the element still counted); on failure the
 * elements read are given to 'release' with the array, and '*n' is 0.
 */
int db_read_rows(struct state *st, struct db_stmt *s, size_t size,
		 int (*read)(struct db_stmt *s, void *row),
		 void (*release)(void *rows, size_t n), void **out,
		 size_t *n, struct pb_err *err);
/*
 * The first column of every row of the prepared 's' (finalized here) as
 * numbers (rowids, keys) into '*out', '*n' of them; 'what' names the
 * statement in a failure.
 */
int db_read_keys(struct state *st, struct db_stmt *s, const char *what,
		 long long **out, size_t *n, struct pb_err *err);

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
/*
 * A file made in full beside 'dest' (backup.c): a new, empty one of mode
 * 0600 (its name, or NULL with 'err'); then synced and renamed over
 * 'dest', its directory synced, '*bytes' its size.
 */
char *state_new_beside(const char *dest, struct pb_err *err);
int state_publish(const char *tmp, const char *dest, long long *bytes,
		  struct pb_err *err);
struct dump_counts;
/*
 * The neutral dump of the open 'st' (dump.h) written into the file 'tmp'
 * made by state_new_beside() for 'dest' (messages name 'dest'); not
 * published. 'perfbot state export', and the backup of a backend that
 * has no copy of its own (backup.c).
 */
int state_dump_file(struct state *st, const char *tmp, const char *dest,
		    struct dump_counts *c, struct pb_err *err);
/* SQLite's online backup of the open 'st' into 'tmp' (backend.h). */
int sqlite_backup(struct state *st, const char *tmp, const char *dest,
		  struct backup_counts *b, struct pb_err *err);

#endif
