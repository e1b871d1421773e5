// SPDX-License-Identifier: GPL-2.0-only
/*
 * record: the SQLite backend's driver (internal.h: struct db_driver):
 * its statements prepared, bound and read; its failures said by what
 * they mean (locked, the disk full, a damaged file); the integrity
 * check; and the room kept for the records of mail the server took
 * (the reserve of files.c).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "perfbot/state/state.h"
#include "internal.h"

struct lite_stmt {
	struct db_stmt base;
	sqlite3_stmt *s;
};

static sqlite3_stmt *lite(struct db_stmt *s)
{
	return ((struct lite_stmt *)s)->s;
}

static int lite_fail(struct state *st, struct pb_err *err, const char *what)
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

static int bind(sqlite3_stmt *s, const char *types, va_list ap)
{
	const char *t;
	int i = 1, rc = SQLITE_OK;

	for (t = types; *t && rc == SQLITE_OK; t++, i++) {
		if (*t == 's') {
			rc = sqlite3_bind_text(s, i, va_arg(ap, const char *),
					       -1, SQLITE_TRANSIENT);
		} else if (*t == 'i') {
			rc = sqlite3_bind_int64(s, i, va_arg(ap, long long));
		} else if (*t == 'd') {
			rc = sqlite3_bind_double(s, i, va_arg(ap, double));
		} else {
			const void *p = va_arg(ap, const void *);
			size_t n = va_arg(ap, size_t);

			rc = sqlite3_bind_blob64(s, i, p, n, SQLITE_TRANSIENT);
		}
	}
	return rc;
}

static int lite_prepare(struct state *st, struct db_stmt **out,
			const char *sql, const char *types, va_list ap,
			struct pb_err *err)
{
	struct lite_stmt *ls;
	sqlite3_stmt *s;

	*out = NULL;
	if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL) != SQLITE_OK)
		return lite_fail(st, err, "prepare");
	if (bind(s, types, ap) != SQLITE_OK) {
		lite_fail(st, err, "bind");
		sqlite3_finalize(s);
		return -1;
	}
	ls = malloc(sizeof(*ls));
	if (!ls) {
		sqlite3_finalize(s);
		return pb_fail(err, EX_OSERR, "out of memory");
	}
	ls->base.drv = &db_sqlite;
	ls->base.st = st;
	ls->s = s;
	*out = &ls->base;
	return 0;
}

static int lite_step(struct db_stmt *s)
{
	int rc = sqlite3_step(lite(s));

	return rc == SQLITE_ROW ? DB_ROW : rc == SQLITE_DONE ? DB_DONE :
		DB_ERROR;
}

static enum db_type lite_type(struct db_stmt *s, int col)
{
	switch (sqlite3_column_type(lite(s), col)) {
	case SQLITE_INTEGER:
		return DB_INT;
	case SQLITE_FLOAT:
		return DB_REAL;
	case SQLITE_TEXT:
		return DB_TEXT;
	case SQLITE_BLOB:
		return DB_BLOB;
	default:
		return DB_NULL;
	}
}

static long long lite_int(struct db_stmt *s, int col)
{
	return sqlite3_column_int64(lite(s), col);
}

static double lite_real(struct db_stmt *s, int col)
{
	return sqlite3_column_double(lite(s), col);
}

static const void *lite_bytes(struct db_stmt *s, int col, size_t *len)
{
	sqlite3_stmt *ss = lite(s);
	const void *p;

	*len = 0;
	if (sqlite3_column_type(ss, col) == SQLITE_NULL)
		return NULL;
	/* text first: a number read as text is made text, then measured */
	if (sqlite3_column_type(ss, col) == SQLITE_BLOB)
		p = sqlite3_column_blob(ss, col);
	else
		p = sqlite3_column_text(ss, col);
	*len = (size_t)sqlite3_column_bytes(ss, col);
	return p ? p : "";
}

static int lite_columns(struct db_stmt *s)
{
	return sqlite3_column_count(lite(s));
}

static const char *lite_name(struct db_stmt *s, int col)
{
	return sqlite3_column_name(lite(s), col);
}

static void lite_finalize(struct db_stmt *s)
{
	sqlite3_finalize(lite(s));
	free(s);
}

static long lite_changes(struct state *st)
{
	return (long)sqlite3_changes(st->db);
}

static int lite_in_transaction(struct state *st)
{
	return !sqlite3_get_autocommit(st->db);
}

static int lite_has_table(struct state *st, const char *name)
{
	sqlite3_stmt *s;
	int found;

	if (sqlite3_prepare_v2(st->db, "SELECT 1 FROM sqlite_master WHERE "
			       "type = 'table' AND name = ?", -1, &s,
			       NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_text(s, 1, name, -1, SQLITE_STATIC);
	found = sqlite3_step(s) == SQLITE_ROW;
	sqlite3_finalize(s);
	return found;
}

const struct db_driver db_sqlite = {
	.prepare = lite_prepare,
	.step = lite_step,
	.type = lite_type,
	.int64 = lite_int,
	.real = lite_real,
	.bytes = lite_bytes,
	.columns = lite_columns,
	.name = lite_name,
	.finalize = lite_finalize,
	.fail = lite_fail,
	.changes = lite_changes,
	.in_transaction = lite_in_transaction,
	.has_table = lite_has_table,
	.skip_locked = "",
};

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

int sqlite_check(struct state *st, struct pb_err *err)
{
	sqlite3_stmt *s = NULL;
	const char *ok;
	int rc = -1;

	if (sqlite3_prepare_v2(st->db, "PRAGMA quick_check(1)", -1, &s,
			       NULL) != SQLITE_OK)
		return lite_fail(st, err, "check");
	if (sqlite3_step(s) != SQLITE_ROW)
		lite_fail(st, err, "check");
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
