// SPDX-License-Identifier: GPL-2.0-only
/*
 * record: the PostgreSQL backend's driver (internal.h: struct db_driver)
 * over libpq: a statement's '?' and '?N' renumbered to PostgreSQL's $n
 * (outside its string literals), its arguments sent typed (text, int8,
 * float8, bytea), its rows read whole; its failures said by what they
 * mean: a server gone or unreachable is "try again later" (EX_TEMPFAIL),
 * anything else EX_IOERR. A message never holds the password: the
 * state's printable name is its URI without one (pg.c).
 */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/state/state.h"
#include "pg.h"

/* The types of PostgreSQL's catalog (pg_type.h), as libpq reports them. */
enum {
	OID_BOOL = 16, OID_BYTEA = 17, OID_INT8 = 20, OID_INT2 = 21,
	OID_INT4 = 23, OID_TEXT = 25, OID_FLOAT4 = 700, OID_FLOAT8 = 701,
	OID_NUMERIC = 1700
};

struct pg_stmt {
	struct db_stmt base;
	PGresult *res;
	int row;	/* the current row, -1 before the first step */
	int rows;
	/* a bytea column of the current row, unescaped */
	unsigned char *blob;
	int blob_col;
	size_t blob_len;
};

static struct pg_stmt *pgs(struct db_stmt *s)
{
	return (struct pg_stmt *)s;
}

void pg_keep_error(struct state *st, const PGresult *res)
{
	struct pg_handle *h = pg_of(st);
	const char *msg = res ? PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY)
			      : NULL;
	const char *code = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE)
			       : NULL;
	size_t n;

	if (!msg)
		msg = h->conn ? PQerrorMessage(h->conn) : "no connection";
	snprintf(h->error, sizeof(h->error), "%s", msg && *msg ? msg :
		 "failed");
	/* libpq's own messages end in a newline, and may hold several */
	n = strcspn(h->error, "\n");
	h->error[n] = '\0';
	snprintf(h->sqlstate, sizeof(h->sqlstate), "%s", code ? code : "");
	h->lost = !h->conn || PQstatus(h->conn) != CONNECTION_OK ||
		  !strncmp(h->sqlstate, "08", 2) ||
		  !strcmp(h->sqlstate, "57P01") ||
		  !strcmp(h->sqlstate, "57P02") ||
		  !strcmp(h->sqlstate, "57P03");
}

static int pg_fail(struct state *st, struct pb_err *err, const char *what)
{
	struct pg_handle *h = pg_of(st);
	const char *c = h->sqlstate;

	if (h->lost)
		return pb_fail(err, EX_TEMPFAIL, "%s: %s: the database server "
			       "is unreachable (%s); try again later", st->path,
			       what, h->error);
	/* a deadlock, a lock not free, a serialization conflict */
	if (!strcmp(c, "40P01") || !strcmp(c, "55P03") ||
	    !strcmp(c, "40001"))
		return pb_fail(err, EX_TEMPFAIL, "%s: %s: the state is locked "
			       "by another program; try again later", st->path,
			       what);
	if (!strcmp(c, "53100")) {
		st->full = 1;
		return pb_fail(err, EX_IOERR, "%s: %s: the database server's "
			       "disk is full: the state cannot be written "
			       "(queued mail stays queued)", st->path, what);
	}
	return pb_fail(err, EX_IOERR, "%s: %s: %s", st->path, what, h->error);
}

/*
 * 'sql' with SQLite's '?' and '?N' as PostgreSQL's $n, newly allocated:
 * a bare '?' is one more than the largest number used before it, as
 * SQLite numbers them. String literals, quoted names and comments are
 * copied as they are.
 */
static char *renumber(const char *sql)
{
	size_t len = strlen(sql), o = 0, cap = len * 4 + 16;
	char *out = malloc(cap);
	long top = 0, n;
	const char *p = sql;
	char *end;

	if (!out)
		return NULL;
	while (*p) {
		if (*p == '\'' || *p == '"') {
			char q = *p;

			out[o++] = *p++;
			while (*p && *p != q)
				out[o++] = *p++;
			if (*p)
				out[o++] = *p++;
		} else if (p[0] == '-' && p[1] == '-') {
			while (*p && *p != '\n')
				out[o++] = *p++;
		} else if (*p == '?') {
			p++;
			if (isdigit((unsigned char)*p)) {
				n = strtol(p, &end, 10);
				p = end;
			} else {
				n = top + 1;
			}
			if (n > top)
				top = n;
			o += (size_t)snprintf(out + o, cap - o, "$%ld", n);
		} else {
			out[o++] = *p++;
		}
	}
	out[o] = '\0';
	return out;
}

/* The arguments of 'types' as libpq takes them (text, or bytea binary). */
struct args {
	int n;
	Oid *oid;
	char **val;
	int *len;
	int *fmt;
	char (*num)[32];
};

static void args_free(struct args *a)
{
	free(a->oid);
	free(a->val);
	free(a->len);
	free(a->fmt);
	free(a->num);
}

static int args_make(struct args *a, const char *types, va_list ap)
{
	int i;

	memset(a, 0, sizeof(*a));
	a->n = (int)strlen(types);
	if (!a->n)
		return 0;
	a->oid = calloc((size_t)a->n, sizeof(*a->oid));
	a->val = calloc((size_t)a->n, sizeof(*a->val));
	a->len = calloc((size_t)a->n, sizeof(*a->len));
	a->fmt = calloc((size_t)a->n, sizeof(*a->fmt));
	a->num = calloc((size_t)a->n, sizeof(*a->num));
	if (!a->oid || !a->val || !a->len || !a->fmt || !a->num)
		return -1;
	for (i = 0; i < a->n; i++) {
		switch (types[i]) {
		case 's':
			a->oid[i] = OID_TEXT;
			a->val[i] = (char *)va_arg(ap, const char *);
			break;
		case 'i':
			a->oid[i] = OID_INT8;
			snprintf(a->num[i], sizeof(a->num[i]), "%lld",
				 va_arg(ap, long long));
			a->val[i] = a->num[i];
			break;
		case 'd': {
			double d = va_arg(ap, double);

			a->oid[i] = OID_FLOAT8;
			if (isnan(d))
				snprintf(a->num[i], sizeof(a->num[i]), "NaN");
			else if (isinf(d))
				snprintf(a->num[i], sizeof(a->num[i]), "%s",
					 d > 0 ? "Infinity" : "-Infinity");
			else
				snprintf(a->num[i], sizeof(a->num[i]), "%.17g",
					 d);
			a->val[i] = a->num[i];
			break;
		}
		default:
			a->oid[i] = OID_BYTEA;
			a->val[i] = (char *)va_arg(ap, const void *);
			a->len[i] = (int)va_arg(ap, size_t);
			a->fmt[i] = 1;
			if (!a->val[i])
				a->val[i] = (char *)"";
			break;
		}
	}
	return 0;
}

static int ok_result(const PGresult *res)
{
	ExecStatusType t = res ? PQresultStatus(res) : PGRES_FATAL_ERROR;

	return t == PGRES_COMMAND_OK || t == PGRES_TUPLES_OK;
}

static void count_changes(struct pg_handle *h, const PGresult *res)
{
	const char *n = PQcmdTuples((PGresult *)res);

	h->changes = n && *n ? strtol(n, NULL, 10) : 0;
}

static int pq_prepare(struct state *st, struct db_stmt **out,
		      const char *sql, const char *types, va_list ap,
		      struct pb_err *err)
{
	struct pg_handle *h = pg_of(st);
	struct pg_stmt *ps;
	struct args a;
	PGresult *res;
	char *q;

	*out = NULL;
	q = renumber(sql);
	if (!q || args_make(&a, types, ap)) {
		free(q);
		if (q)
			args_free(&a);
		return pb_fail(err, EX_OSERR, "out of memory");
	}
	res = PQexecParams(h->conn, q, a.n, a.oid,
			   (const char *const *)a.val, a.len, a.fmt, 0);
	free(q);
	args_free(&a);
	if (!ok_result(res)) {
		pg_keep_error(st, res);
		PQclear(res);
		return pg_fail(st, err, "sql");
	}
	count_changes(h, res);
	ps = calloc(1, sizeof(*ps));
	if (!ps) {
		PQclear(res);
		return pb_fail(err, EX_OSERR, "out of memory");
	}
	ps->base.drv = &db_pg;
	ps->base.st = st;
	ps->res = res;
	ps->row = -1;
	ps->rows = PQresultStatus(res) == PGRES_TUPLES_OK ? PQntuples(res) : 0;
	ps->blob_col = -1;
	*out = &ps->base;
	return 0;
}

static int pq_step(struct db_stmt *s)
{
	struct pg_stmt *ps = pgs(s);

	PQfreemem(ps->blob);
	ps->blob = NULL;
	ps->blob_col = -1;
	if (ps->row + 1 >= ps->rows) {
		ps->row = ps->rows;
		return DB_DONE;
	}
	ps->row++;
	return DB_ROW;
}

static int in_row(struct pg_stmt *ps, int col)
{
	return ps->row >= 0 && ps->row < ps->rows && col >= 0 &&
	       col < PQnfields(ps->res);
}

static enum db_type pq_type(struct db_stmt *s, int col)
{
	struct pg_stmt *ps = pgs(s);

	if (!in_row(ps, col) || PQgetisnull(ps->res, ps->row, col))
		return DB_NULL;
	switch (PQftype(ps->res, col)) {
	case OID_BOOL:
	case OID_INT2:
	case OID_INT4:
	case OID_INT8:
		return DB_INT;
	case OID_NUMERIC:
		/* sum() of integers: whole, unless it says otherwise */
		return strpbrk(PQgetvalue(ps->res, ps->row, col), ".eE") ?
			DB_REAL : DB_INT;
	case OID_FLOAT4:
	case OID_FLOAT8:
		return DB_REAL;
	case OID_BYTEA:
		return DB_BLOB;
	default:
		return DB_TEXT;
	}
}

static const char *value(struct pg_stmt *ps, int col)
{
	if (!in_row(ps, col) || PQgetisnull(ps->res, ps->row, col))
		return NULL;
	return PQgetvalue(ps->res, ps->row, col);
}

/* A column as a number's text: a boolean as 1 or 0, NULL as 0. */
static const char *number(struct pg_stmt *ps, int col)
{
	const char *v = value(ps, col);

	if (v && PQftype(ps->res, col) == OID_BOOL)
		return *v == 't' ? "1" : "0";
	return v ? v : "0";
}

/* As SQLite reads a column as a number: its leading number, else 0. */
static long long pq_int(struct db_stmt *s, int col)
{
	const char *v = number(pgs(s), col);

	return strpbrk(v, ".eE") ? (long long)strtod(v, NULL) :
		strtoll(v, NULL, 10);
}

static double pq_real(struct db_stmt *s, int col)
{
	return strtod(number(pgs(s), col), NULL);
}

static const void *pq_bytes(struct db_stmt *s, int col, size_t *len)
{
	struct pg_stmt *ps = pgs(s);
	const char *v = value(ps, col);

	*len = 0;
	if (!v)
		return NULL;
	if (PQftype(ps->res, col) != OID_BYTEA) {
		*len = (size_t)PQgetlength(ps->res, ps->row, col);
		return v;
	}
	if (ps->blob_col != col) {
		PQfreemem(ps->blob);
		ps->blob = PQunescapeBytea((const unsigned char *)v,
					   &ps->blob_len);
		ps->blob_col = ps->blob ? col : -1;
		if (!ps->blob)
			return NULL;
	}
	*len = ps->blob_len;
	return ps->blob_len ? (const void *)ps->blob : "";
}

static int pq_columns(struct db_stmt *s)
{
	return PQnfields(pgs(s)->res);
}

static const char *pq_name(struct db_stmt *s, int col)
{
	return PQfname(pgs(s)->res, col);
}

static void pq_finalize(struct db_stmt *s)
{
	struct pg_stmt *ps = pgs(s);

	PQfreemem(ps->blob);
	PQclear(ps->res);
	free(ps);
}

static long pq_changes(struct state *st)
{
	return pg_of(st)->changes;
}

static int pq_in_transaction(struct state *st)
{
	PGTransactionStatusType t = PQtransactionStatus(pg_of(st)->conn);

	return t == PQTRANS_INTRANS || t == PQTRANS_INERROR;
}

static int pq_has_table(struct state *st, const char *name)
{
	const char *v[1] = { name };
	Oid t[1] = { OID_TEXT };
	PGresult *res;
	int found;

	res = PQexecParams(pg_of(st)->conn, "SELECT 1 FROM "
			   "information_schema.tables WHERE table_schema = "
			   "current_schema() AND table_name = $1", 1, t, v,
			   NULL, NULL, 0);
	found = res && PQresultStatus(res) == PGRES_TUPLES_OK &&
		PQntuples(res) > 0;
	PQclear(res);
	return found;
}

int pg_exec(struct state *st, const char *sql, const char *what,
	    struct pb_err *err)
{
	struct pg_handle *h = pg_of(st);
	PGresult *res = PQexec(h->conn, sql);

	if (!ok_result(res)) {
		pg_keep_error(st, res);
		PQclear(res);
		return pg_fail(st, err, what);
	}
	count_changes(h, res);
	PQclear(res);
	return 0;
}

const struct db_driver db_pg = {
	.prepare = pq_prepare,
	.step = pq_step,
	.type = pq_type,
	.int64 = pq_int,
	.real = pq_real,
	.bytes = pq_bytes,
	.columns = pq_columns,
	.name = pq_name,
	.finalize = pq_finalize,
	.fail = pg_fail,
	.changes = pq_changes,
	.in_transaction = pq_in_transaction,
	.has_table = pq_has_table,
	.skip_locked = " FOR UPDATE SKIP LOCKED",
	/* READ COMMITTED's BEGIN would see each table at another moment */
	.begin_snapshot = "BEGIN ISOLATION LEVEL REPEATABLE READ",
};
