// SPDX-License-Identifier: GPL-2.0-only
/*
 * record: the statement helpers of internal.h (prepare and bind, run,
 * count, copy a column) that every file of the state module uses, the
 * one error line of SQLite's failures by what they mean (locked, the
 * disk full, a damaged file), and the room kept for the records of mail
 * the server took (the reserve of files.c).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/state/state.h"
#include "internal.h"

/*
 * The one error line of SQLite's failures, by what they mean: locked
 * (another program holds it: try later), the disk full, a damaged file.
 */
int db_fail(struct state *st, struct pb_err *err, const char *what)
{
	int code = st->db ? sqlite3_errcode(st->db) & 0xff : SQLITE_ERROR;
	const char *msg = st->db ? sqlite3_errmsg(st->db) : "no database";

	if (code == SQLITE_BUSY || code == SQLITE_LOCKED)
		return pb_fail(err, EX_TEMPFAIL, "%s: %s: the state is locked "
			       "by another program; try again later", st->path,
			       what);
	if (code == SQLITE_FULL || (code == SQLITE_IOERR && st->db &&
				    sqlite3_system_errno(st->db) == ENOSPC)) {
		st->full = 1;
		return pb_fail(err, EX_IOERR, "%s: %s: the disk is full: the "
			       "state cannot be written (queued mail stays "
			       "queued)", st->path, what);
	}
	if (code == SQLITE_CORRUPT || code == SQLITE_NOTADB)
		return pb_fail(err, EX_IOERR, "%s: %s: damaged, or not a "
			       "perfbot state (%s): restore it from a backup",
			       st->path, what, msg);
	return pb_fail(err, EX_IOERR, "%s: %s: %s", st->path, what, msg);
}

int sqlite_reserve(struct state *st, struct pb_err *err)
{
	return state_reserve_make(st->path, err);
}

int sqlite_unreserve(struct state *st)
{
	st->full = 0;
	return state_reserve_free(st->path);
}

int sqlite_full(const struct state *st)
{
	return st->full;
}

/*
 * Prepare 'sql' and bind arguments by 'types': 's' text (NULL binds
 * NULL), 'i' long long, 'd' double, 'b' blob (pointer, size_t length).
 */
static int prepare(struct state *st, sqlite3_stmt **s, const char *sql,
		   const char *types, va_list ap, struct pb_err *err)
{
	const char *t;
	int i = 1, rc = SQLITE_OK;

	if (sqlite3_prepare_v2(st->db, sql, -1, s, NULL) != SQLITE_OK)
		return db_fail(st, err, "prepare");
	for (t = types; *t && rc == SQLITE_OK; t++, i++) {
		if (*t == 's') {
			rc = sqlite3_bind_text(*s, i, va_arg(ap, const char *),
					       -1, SQLITE_TRANSIENT);
		} else if (*t == 'i') {
			rc = sqlite3_bind_int64(*s, i, va_arg(ap, long long));
		} else if (*t == 'd') {
			rc = sqlite3_bind_double(*s, i, va_arg(ap, double));
		} else {
			const void *p = va_arg(ap, const void *);
			size_t n = va_arg(ap, size_t);

			rc = sqlite3_bind_blob64(*s, i, p, n, SQLITE_TRANSIENT);
		}
	}
	if (rc != SQLITE_OK) {
		sqlite3_finalize(*s);
		return db_fail(st, err, "bind");
	}
	return 0;
}

/* Prepare and bind a statement that returns rows. */
int db_query(struct state *st, sqlite3_stmt **s, struct pb_err *err,
	     const char *sql, const char *types, ...)
{
	va_list ap;
	int rc;

	va_start(ap, types);
	rc = prepare(st, s, sql, types, ap, err);
	va_end(ap);
	return rc;
}

/* Run a statement that returns no rows. */
int db_run(struct state *st, struct pb_err *err, const char *sql,
	   const char *types, ...)
{
	sqlite3_stmt *s;
	va_list ap;
	int rc;

	va_start(ap, types);
	rc = prepare(st, &s, sql, types, ap, err);
	va_end(ap);
	if (rc)
		return -1;
	rc = sqlite3_step(s);
	sqlite3_finalize(s);
	return rc == SQLITE_DONE ? 0 : db_fail(st, err, "write");
}

int db_count(struct state *st, long *n, struct pb_err *err,
	     const char *sql, const char *types, ...)
{
	sqlite3_stmt *s;
	va_list ap;
	int rc;

	*n = 0;
	va_start(ap, types);
	rc = prepare(st, &s, sql, types, ap, err);
	va_end(ap);
	if (rc)
		return -1;
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		*n = (long)sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	return rc == SQLITE_ROW ? 0 : db_fail(st, err, "read");
}

char *db_column_dup(sqlite3_stmt *s, int col, size_t *len)
{
	const void *p = sqlite3_column_blob(s, col);
	size_t n = (size_t)sqlite3_column_bytes(s, col);
	char *c = malloc(n + 1);

	if (!c)
		return NULL;
	if (n)
		memcpy(c, p, n);
	c[n] = '\0';
	if (len)
		*len = n;
	return c;
}

int db_read_rows(struct state *st, sqlite3_stmt *s, size_t size,
		 int (*read)(sqlite3_stmt *s, void *row),
		 void (*release)(void *rows, size_t n), void **out,
		 size_t *n, struct pb_err *err)
{
	char *v = NULL, *nv;
	size_t cap = 0;
	int rc, oom = 0;

	*out = NULL;
	*n = 0;
	while (!oom && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (*n == cap) {
			cap = cap ? 2 * cap : 8;
			nv = realloc(v, cap * size);
			if (!nv) {
				oom = 1;
				break;
			}
			v = nv;
		}
		memset(v + *n * size, 0, size);
		oom = read(s, v + *n * size) != 0;
		(*n)++;
	}
	sqlite3_finalize(s);
	if (oom || rc != SQLITE_DONE) {
		release(v, *n);
		*n = 0;
		return oom ? pb_fail(err, EX_OSERR, "out of memory") :
			db_fail(st, err, "read");
	}
	*out = v;
	return 0;
}

int sqlite_check(struct state *st, struct pb_err *err)
{
	sqlite3_stmt *s = NULL;
	const char *ok;
	int rc = -1;

	if (sqlite3_prepare_v2(st->db, "PRAGMA quick_check(1)", -1, &s,
			       NULL) != SQLITE_OK)
		return db_fail(st, err, "check");
	if (sqlite3_step(s) != SQLITE_ROW)
		db_fail(st, err, "check");
	else if (!(ok = (const char *)sqlite3_column_text(s, 0)) ||
		 strcmp(ok, "ok"))
		pb_fail(err, EX_IOERR, "%s: check: damaged (%s): restore it "
			"from a backup ('perfbot state backup' makes one)",
			st->path, ok ? ok : "no answer");
	else
		rc = 0;
	sqlite3_finalize(s);
	return rc;
}
