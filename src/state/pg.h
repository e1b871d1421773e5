/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_STATE_PG_H
#define PERFBOT_STATE_PG_H

/*
 * The PostgreSQL backend's handle, shared by pg.c (opening, migrations,
 * transactions, the lock) and pg_sql.c (its driver, struct db_driver);
 * no other file sees libpq.
 */

#include <libpq-fe.h>

#include "internal.h"

struct pg_handle {
	PGconn *conn;
	/* the last failure: the server's words and its SQLSTATE */
	char error[512];
	char sqlstate[6];
	int lost;	/* the connection broke */
	long changes;	/* rows changed by the last statement */
	int locked;	/* holds the run lock (an advisory lock) */
};

extern const struct db_driver db_pg;

/* The handle of 'st', a state of the PostgreSQL backend. */
static inline struct pg_handle *pg_of(const struct state *st)
{
	return st->pg;
}

/*
 * Run 'sql' (one statement or several, no arguments): 0, or -1 with
 * the failure kept for db_fail() and said in 'err' with 'what'.
 */
int pg_exec(struct state *st, const char *sql, const char *what,
	    struct pb_err *err);
/* Keep 'res''s failure (or the connection's) for pg_fail(). */
void pg_keep_error(struct state *st, const PGresult *res);

#endif
