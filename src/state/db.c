// SPDX-License-Identifier: GPL-2.0-only
/*
 * record: the statements every table's operations use (internal.h),
 * whatever the backend: prepare and bind, step, read a column, run,
 * count, copy a column, read every row into an array. Each calls the
 * open state's driver (SQLite's in sqlite_sql.c).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/state/state.h"
#include "internal.h"

static const struct db_driver *driver(const struct state *st)
{
	return st->be->sql;
}

int db_fail(struct state *st, struct pb_err *err, const char *what)
{
	return driver(st)->fail(st, err, what);
}

int db_query(struct state *st, struct db_stmt **s, struct pb_err *err,
	     const char *sql, const char *types, ...)
{
	va_list ap;
	int rc;

	*s = NULL;
	va_start(ap, types);
	rc = driver(st)->prepare(st, s, sql, types, ap, err);
	va_end(ap);
	return rc;
}

int db_step(struct db_stmt *s)
{
	return s->drv->step(s);
}

enum db_type db_type(struct db_stmt *s, int col)
{
	return s->drv->type(s, col);
}

int db_null(struct db_stmt *s, int col)
{
	return s->drv->type(s, col) == DB_NULL;
}

long long db_int(struct db_stmt *s, int col)
{
	return s->drv->int64(s, col);
}

double db_real(struct db_stmt *s, int col)
{
	return s->drv->real(s, col);
}

const char *db_text(struct db_stmt *s, int col)
{
	size_t len;

	return s->drv->bytes(s, col, &len);
}

int db_columns(struct db_stmt *s)
{
	return s->drv->columns(s);
}

const char *db_name(struct db_stmt *s, int col)
{
	return s->drv->name(s, col);
}

void db_finalize(struct db_stmt *s)
{
	if (s)
		s->drv->finalize(s);
}

long db_changes(struct state *st)
{
	return driver(st)->changes(st);
}

int db_in_transaction(struct state *st)
{
	return driver(st)->in_transaction(st);
}

int db_has_table(struct state *st, const char *name)
{
	return driver(st)->has_table(st, name);
}

/* Run a statement that returns no rows. */
int db_run(struct state *st, struct pb_err *err, const char *sql,
	   const char *types, ...)
{
	struct db_stmt *s;
	va_list ap;
	int rc;

	va_start(ap, types);
	rc = driver(st)->prepare(st, &s, sql, types, ap, err);
	va_end(ap);
	if (rc)
		return -1;
	rc = db_step(s);
	db_finalize(s);
	return rc == DB_DONE ? 0 : db_fail(st, err, "write");
}

int db_count(struct state *st, long *n, struct pb_err *err,
	     const char *sql, const char *types, ...)
{
	struct db_stmt *s;
	va_list ap;
	int rc;

	*n = 0;
	va_start(ap, types);
	rc = driver(st)->prepare(st, &s, sql, types, ap, err);
	va_end(ap);
	if (rc)
		return -1;
	rc = db_step(s);
	if (rc == DB_ROW)
		*n = (long)db_int(s, 0);
	db_finalize(s);
	return rc == DB_ROW ? 0 : db_fail(st, err, "read");
}

char *db_column_dup(struct db_stmt *s, int col, size_t *len)
{
	size_t n = 0;
	const void *p = s->drv->bytes(s, col, &n);
	char *c;

	if (!p)
		n = 0;
	c = malloc(n + 1);
	if (!c)
		return NULL;
	if (n)
		memcpy(c, p, n);
	c[n] = '\0';
	if (len)
		*len = n;
	return c;
}

int db_read_keys(struct state *st, struct db_stmt *s, const char *what,
		 long long **out, size_t *n, struct pb_err *err)
{
	long long *v = NULL, *nv;
	size_t cap = 0;
	int rc;

	*n = 0;
	while ((rc = db_step(s)) == DB_ROW) {
		if (*n == cap) {
			cap = cap ? cap * 2 : 64;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv)
				break;
			v = nv;
		}
		v[(*n)++] = db_int(s, 0);
	}
	db_finalize(s);
	if (rc != DB_DONE) {
		free(v);
		*out = NULL;
		*n = 0;
		return rc == DB_ROW ? pb_fail(err, EX_OSERR, "out of memory")
			: db_fail(st, err, what);
	}
	*out = v;
	return 0;
}

int db_read_rows(struct state *st, struct db_stmt *s, size_t size,
		 int (*read)(struct db_stmt *s, void *row),
		 void (*release)(void *rows, size_t n), void **out,
		 size_t *n, struct pb_err *err)
{
	char *v = NULL, *nv;
	size_t cap = 0;
	int rc = DB_DONE, oom = 0;

	*out = NULL;
	*n = 0;
	while (!oom && (rc = db_step(s)) == DB_ROW) {
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
	if (oom || rc != DB_DONE) {
		release(v, *n);
		*n = 0;
		if (!oom)
			db_fail(st, err, "read");
		db_finalize(s);
		return oom ? pb_fail(err, EX_OSERR, "out of memory") : -1;
	}
	db_finalize(s);
	*out = v;
	return 0;
}
