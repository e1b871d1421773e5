// SPDX-License-Identifier: GPL-2.0-only
/*
 * record: the reader of the state's dump (dump.h says the format;
 * dump.c writes it): 'perfbot state import' checks the dump's format
 * and schema version and that the state holds no row, then inserts
 * every row in one transaction, through the statements of internal.h,
 * whatever the backend; any error leaves the state as it was.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/state/dump.h"
#include "perfbot/util/strbuf.h"
#include "internal.h"
#include "dump_internal.h"

struct reader {
	FILE *in;
	const char *name;
	char *line;
	size_t cap;
	long lineno;
};

/* The next line, its newline taken off: 1, 0 at the end, -1 cut short. */
static int next_line(struct reader *r, struct pb_err *err)
{
	ssize_t n = getline(&r->line, &r->cap, r->in);

	if (n < 0) {
		if (ferror(r->in))
			return pb_fail(err, EX_IOERR, "%s: read: %s", r->name,
				       strerror(errno));
		return 0;
	}
	r->lineno++;
	if (n == 0 || r->line[n - 1] != '\n')
		return pb_fail(err, EX_DATAERR, "%s: line %ld: cut short",
			       r->name, r->lineno);
	r->line[n - 1] = '\0';
	return 1;
}

static int bad(struct reader *r, struct pb_err *err, const char *what)
{
	return pb_fail(err, EX_DATAERR, "%s: line %ld: %s", r->name,
		       r->lineno, what);
}

/* The next line, which must be there. */
static int need_line(struct reader *r, struct pb_err *err)
{
	int rc = next_line(r, err);

	if (rc == 0 && r->lineno == 0)
		return pb_fail(err, EX_DATAERR, "%s: empty, not a perfbot "
			       "state dump", r->name);
	return rc < 0 ? -1 : rc == 0 ? bad(r, err, "the dump ends here, cut "
					   "short") : 0;
}

static int ident(const char *s)
{
	size_t n = strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_");

	return n > 0 && n < 64 && !s[n];
}

static int header(struct reader *r, struct pb_err *err)
{
	char *end;
	long v;

	if (need_line(r, err))
		return -1;
	if (strncmp(r->line, DUMP_MAGIC, strlen(DUMP_MAGIC)))
		return pb_fail(err, EX_DATAERR, "%s: not a perfbot state dump",
			       r->name);
	v = strtol(r->line + strlen(DUMP_MAGIC), &end, 10);
	if (*end || v != DUMP_FORMAT)
		return pb_fail(err, EX_DATAERR, "%s: a dump of format '%s', "
			       "this perfbot reads format %d", r->name,
			       r->line + strlen(DUMP_MAGIC), DUMP_FORMAT);
	if (need_line(r, err))
		return -1;
	if (strncmp(r->line, "schema ", 7))
		return bad(r, err, "no schema version");
	v = strtol(r->line + 7, &end, 10);
	if (*end || end == r->line + 7)
		return bad(r, err, "no schema version");
	if (v != state_nmigrations)
		return pb_fail(err, EX_DATAERR, "%s: a dump of schema version "
			       "%ld, this perfbot's is %d: import it with the "
			       "perfbot that made it", r->name, v,
			       state_nmigrations);
	return 0;
}

/* 'table' is one of the dump's tables: its index, or -1. */
static int table_index(const char *table)
{
	const char *const *tables;
	size_t t, ntables = state_dump_tables(&tables);

	for (t = 0; t < ntables; t++)
		if (!strcmp(tables[t], table))
			return (int)t;
	return -1;
}

/* Every table of 'st' is empty. */
static int empty(struct state *st, struct pb_err *err)
{
	const char *const *tables;
	size_t t, ntables = state_dump_tables(&tables);
	char sql[128];
	long n;

	for (t = 0; t < ntables; t++) {
		snprintf(sql, sizeof(sql), "SELECT COUNT(*) FROM %s",
			 tables[t]);
		if (db_count(st, &n, err, sql, ""))
			return -1;
		if (n)
			return pb_fail(err, EX_CANTCREAT, "%s: not empty (%s "
				       "has %ld row%s): a dump is imported "
				       "into a new state only", st->path,
				       tables[t], n, n == 1 ? "" : "s");
	}
	return 0;
}

/* A row's cells, decoded in place in the reader's line. */
struct row {
	char tag[DUMP_MAXCOLS];
	char *val[DUMP_MAXCOLS];
	size_t len[DUMP_MAXCOLS];
};

static int unhex(int c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ?
		c - 'a' + 10 : -1;
}

/*
 * Decode the cell 'p' (its tag taken off) of tag 'tag' in place, NUL
 * ended, its length in '*len'; -1 when it is not one.
 */
static int decode(char tag, char *p, size_t *len)
{
	char *start = p, *q = p, *end;
	int hi, lo;

	*len = strlen(p);
	if (tag == 'N')
		return *p ? -1 : 0;
	if (tag == 'i') {
		errno = 0;
		(void)strtoll(p, &end, 10);
		return !*p || *end || errno ? -1 : 0;
	}
	if (tag == 'r') {
		(void)strtod(p, &end);
		return !*p || *end ? -1 : 0;
	}
	if (tag == 'x') {
		for (; p[0] && p[1]; p += 2, q++) {
			if ((hi = unhex(p[0])) < 0 || (lo = unhex(p[1])) < 0)
				return -1;
			*q = (char)(hi << 4 | lo);
		}
		if (*p)
			return -1;
	} else if (tag == 't') {
		for (; *p; p++, q++) {
			if (*p != '\\') {
				*q = *p;
				continue;
			}
			p++;
			if (!*p || !strchr("\\tnr0", *p))
				return -1;
			*q = *p == 't' ? '\t' : *p == 'n' ? '\n' : *p == 'r' ?
				'\r' : *p == '0' ? '\0' : '\\';
		}
	} else {
		return -1;
	}
	*q = '\0';
	*len = (size_t)(q - start);
	return 0;
}

/* Split the reader's line into 'n' cells of 'row'. */
static int split(struct reader *r, int n, struct row *row,
		 struct pb_err *err)
{
	char *p = r->line, *tab;
	int i;

	for (i = 0; i < n; i++) {
		tab = strchr(p, '\t');
		if ((i < n - 1) != (tab != NULL))
			return bad(r, err, "a row of another number of cells "
				   "than the table's columns");
		if (tab)
			*tab = '\0';
		row->tag[i] = *p;
		if (!*p || decode(*p, p + 1, &row->len[i]))
			return bad(r, err, "a cell that is none");
		row->val[i] = p + 1;
		p = tab ? tab + 1 : p + strlen(p);
	}
	return 0;
}

/*
 * The arguments of one row, every one text but the row's real or blob
 * (bound first): db_query() takes its arguments as a list, so they are
 * given as a fixed number of text pointers, of which the types say how
 * many are read (the others are passed and not read).
 */
#define A4(v, i) v[i], v[i + 1], v[i + 2], v[i + 3]
#define A20(v, i) A4(v, i), A4(v, i + 4), A4(v, i + 8), A4(v, i + 12), \
	A4(v, i + 16)
#define ARGS(v) A20(v, 0), A20(v, 20)

static int insert(struct state *st, struct reader *r, const char *table,
		  const struct dump_cols *c, struct row *row, struct pb_err *err)
{
	struct strbuf sql = STRBUF_INIT, vals = STRBUF_INIT;
	const char *arg[DUMP_MAXCOLS] = { NULL };
	char types[DUMP_MAXCOLS + 1];
	struct db_stmt *s = NULL;
	int i, first = -1, na = 0, nt = 0, rc = -1;
	double d = 0;

	for (i = 0; i < c->n; i++) {
		if (row->tag[i] != 'r' && row->tag[i] != 'x')
			continue;
		if (first >= 0) {
			bad(r, err, "more than one real or blob in a row");
			goto out;
		}
		first = i;
	}
	if (sb_addf(&sql, "INSERT INTO %s (", table))
		goto nomem;
	if (first >= 0) {
		types[nt++] = row->tag[first] == 'r' ? 'd' : 'b';
		if (row->tag[first] == 'r')
			d = strtod(row->val[first], NULL);
		if (sb_adds(&sql, c->name[first]) || sb_adds(&vals, "?"))
			goto nomem;
	}
	for (i = 0; i < c->n; i++) {
		const char *v = row->tag[i] == 'N' ? "NULL" :
			row->tag[i] == 'i' ? "CAST(? AS BIGINT)" : "?";

		if (i == first)
			continue;
		if (row->tag[i] == 't' && row->len[i] != strlen(row->val[i])) {
			bad(r, err, "a text with a NUL byte");
			goto out;
		}
		if (row->tag[i] != 'N') {
			types[nt++] = 's';
			arg[na++] = row->val[i];
		}
		if (sb_addf(&sql, "%s%s", sql.buf[sql.len - 1] == '(' ? "" :
			    ", ", c->name[i]) ||
		    sb_addf(&vals, "%s%s", vals.len ? ", " : "", v))
			goto nomem;
	}
	types[nt] = '\0';
	if (sb_addf(&sql, ") VALUES (%s)", sb_str(&vals)))
		goto nomem;
	if (first < 0 ? db_query(st, &s, err, sql.buf, types, ARGS(arg)) :
	    row->tag[first] == 'r' ?
	    db_query(st, &s, err, sql.buf, types, d, ARGS(arg)) :
	    db_query(st, &s, err, sql.buf, types, (const void *)row->val[first],
		     row->len[first], ARGS(arg)))
		goto out;
	rc = db_step(s) == DB_DONE ? 0 : db_fail(st, err, table);
	goto out;
nomem:
	pb_fail(err, EX_OSERR, "out of memory");
out:
	db_finalize(s);
	sb_release(&sql);
	sb_release(&vals);
	return rc;
}

/* "columns a b c" into 'c', each a name of the table's. */
static int read_cols(struct reader *r, struct dump_cols *c, struct pb_err *err)
{
	char *p, *save = NULL;
	int i;

	if (need_line(r, err))
		return -1;
	if (strncmp(r->line, "columns ", 8))
		return bad(r, err, "no columns");
	for (p = strtok_r(r->line + 8, " ", &save); p;
	     p = strtok_r(NULL, " ", &save)) {
		if (c->n == DUMP_MAXCOLS || !ident(p))
			return bad(r, err, "a column that is none");
		for (i = 0; i < c->n; i++)
			if (!strcmp(c->name[i], p))
				return bad(r, err, "a column named twice");
		if (!(c->name[c->n] = strdup(p)))
			return pb_fail(err, EX_OSERR, "out of memory");
		c->n++;
	}
	return c->n ? 0 : bad(r, err, "no columns");
}

/* One table: "table T", its columns, its rows, "end T N". */
static int read_table(struct state *st, struct reader *r, int *seen,
		      long *rows, struct pb_err *err)
{
	struct dump_cols c = { .n = 0 };
	const char *const *tables;
	struct row row;
	char end[128], *e;
	const char *table;
	long n;
	int t, rc = -1;

	*rows = 0;
	state_dump_tables(&tables);
	t = strncmp(r->line, "table ", 6) ? -1 : table_index(r->line + 6);
	if (t < 0)
		return bad(r, err, "not a table of the state");
	if (seen[t])
		return bad(r, err, "a table dumped twice");
	seen[t] = 1;
	table = tables[t];
	if (read_cols(r, &c, err))
		goto out;
	snprintf(end, sizeof(end), "end %s ", table);
	for (;;) {
		if (need_line(r, err))
			goto out;
		if (!strncmp(r->line, end, strlen(end)))
			break;
		if (split(r, c.n, &row, err) ||
		    insert(st, r, table, &c, &row, err))
			goto out;
		(*rows)++;
	}
	n = strtol(r->line + strlen(end), &e, 10);
	if (*e || n != *rows) {
		bad(r, err, "the table's number of rows is not the rows read");
		goto out;
	}
	rc = 0;
out:
	dump_cols_release(&c);
	return rc;
}

static int read_all(struct state *st, struct reader *r,
		    struct dump_counts *cnt, struct pb_err *err)
{
	int seen[DUMP_MAXTABLES] = { 0 };
	const char *const *tables;
	size_t i, ntables = state_dump_tables(&tables);
	long rows, t, n;
	char *e;

	for (;;) {
		if (need_line(r, err))
			return -1;
		if (!strncmp(r->line, "done ", 5))
			break;
		if (read_table(st, r, seen, &rows, err))
			return -1;
		cnt->tables++;
		cnt->rows += rows;
	}
	t = strtol(r->line + 5, &e, 10);
	n = *e == ' ' ? strtol(e + 1, &e, 10) : -1;
	if (*e || t != cnt->tables || n != cnt->rows)
		return bad(r, err, "the dump's counts are not what was read");
	for (i = 0; i < ntables; i++)
		if (!seen[i])
			return pb_fail(err, EX_DATAERR, "%s: no table %s: cut "
				       "short?", r->name, tables[i]);
	switch (next_line(r, err)) {
	case 0:
		return 0;
	case 1:
		return bad(r, err, "more after the end");
	default:
		return -1;
	}
}

int state_dump_read(struct state *st, FILE *in, const char *name,
		    struct dump_counts *cnt, struct pb_err *err)
{
	struct reader r = { in, name, NULL, 0, 0 };
	int rc = -1;

	cnt->tables = cnt->rows = 0;
	if (header(&r, err) || empty(st, err) || state_begin(st, err))
		goto out;
	if (read_all(st, &r, cnt, err) ||
	    (st->be->rowids_go_on && st->be->rowids_go_on(st, err)) ||
	    state_commit(st, err)) {
		state_rollback(st);
		cnt->tables = cnt->rows = 0;
		goto out;
	}
	rc = 0;
out:
	free(r.line);
	return rc;
}

