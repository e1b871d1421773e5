// SPDX-License-Identifier: GPL-2.0-only
/*
 * record: the state as a neutral dump (dump.h says the format), written
 * and read (dump_read.c) through the statements of internal.h only, so
 * that it moves a state between any two backends: 'perfbot state export'
 * reads every table in one transaction; 'perfbot state import' fills an
 * empty state in one transaction, all or nothing, and refuses a dump of
 * another schema version.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perfbot/state/dump.h"
#include "perfbot/util/strbuf.h"
#include "internal.h"
#include "dump_internal.h"

/*
 * The tables of the schema (schema.c), those pointed at first. A new
 * table is added here too (test_dump's t_tables_listed checks it); meta
 * is the backend's own.
 */
static const char *const tables[] = {
	"outbox", "outbox_recipients", "manifests", "sources", "inbox",
	"mailbox", "imap_pending", "actions", "records", "record_events",
	"tracking", "reminders", "requests", "bisections", "noise",
	"instances", "duties", "manifest_claims", "manifest_ids",
};

#define NTABLES (sizeof(tables) / sizeof(tables[0]))
_Static_assert(NTABLES <= DUMP_MAXTABLES, "DUMP_MAXTABLES too small");

size_t state_dump_tables(const char *const **names)
{
	*names = tables;
	return NTABLES;
}

void dump_cols_release(struct dump_cols *c)
{
	int i;

	for (i = 0; i < c->n; i++)
		free(c->name[i]);
	c->n = 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int dump_has_rowid(const char *table)
{
	size_t len = strlen(table);
	const char *p;
	int i;

	for (i = 0; i < state_nmigrations; i++) {
		for (p = state_migrations[i].pg_rowid; p && *p;) {
			size_t n = strcspn(p, " ");

			if (n == len && !strncmp(p, table, len))
				return 1;
			p += n;
			p += strspn(p, " ");
		}
	}
	return 0;
}

/*
 * The columns of 'table', sorted by name; with its rowid when PostgreSQL
 * gives it one of its own (SQLite's implicit one is read and written
 * by that name), so that the order of its rows goes with them.
 */
static int table_cols(struct state *st, const char *table, struct dump_cols *c,
		      struct pb_err *err)
{
	struct db_stmt *s;
	char sql[128];
	int i, n, rc;

	c->n = 0;
	c->rowid = 0;
	snprintf(sql, sizeof(sql), "SELECT * FROM %s WHERE 1 = 0", table);
	if (db_query(st, &s, err, sql, ""))
		return -1;
	rc = db_step(s);
	n = db_columns(s);
	if (rc == DB_ERROR || n > DUMP_MAXCOLS) {
		db_finalize(s);
		return rc == DB_ERROR ? db_fail(st, err, table) :
			pb_fail(err, EX_SOFTWARE, "%s: %s: more than %d "
				"columns", st->path, table, DUMP_MAXCOLS);
	}
	for (i = 0; i < n; i++) {
		c->name[i] = strdup(db_name(s, i));
		if (!c->name[i])
			break;
		c->n++;
		if (!strcmp(c->name[i], "rowid"))
			c->rowid = 1;
	}
	db_finalize(s);
	if (c->n == n && !c->rowid && dump_has_rowid(table) &&
	    n < DUMP_MAXCOLS) {
		c->name[c->n] = strdup("rowid");
		if (c->name[c->n])
			c->n++;
		c->rowid = 1;
		n++;
	}
	if (c->n < n) {
		dump_cols_release(c);
		return pb_fail(err, EX_OSERR, "out of memory");
	}
	qsort(c->name, (size_t)c->n, sizeof(c->name[0]), cmp_str);
	return 0;
}

/* ---- writing ---- */

static int put_text(struct strbuf *b, const unsigned char *p, size_t n)
{
	size_t i;
	int rc = 0;

	for (i = 0; i < n && !rc; i++) {
		const char *e = p[i] == '\\' ? "\\\\" : p[i] == '\t' ? "\\t" :
			p[i] == '\n' ? "\\n" : p[i] == '\r' ? "\\r" :
			p[i] == '\0' ? "\\0" : NULL;

		rc = e ? sb_adds(b, e) : sb_addc(b, (char)p[i]);
	}
	return rc;
}

static int put_cell(struct strbuf *b, struct db_stmt *s, int col)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p;
	size_t n, i;
	int rc;

	switch (db_type(s, col)) {
	case DB_NULL:
		return sb_addc(b, 'N');
	case DB_INT:
		return sb_addf(b, "i%lld", db_int(s, col));
	case DB_REAL:
		return sb_addf(b, "r%.17g", db_real(s, col));
	case DB_TEXT:
		p = s->drv->bytes(s, col, &n);
		return sb_addc(b, 't') || put_text(b, p, n);
	default:
		p = s->drv->bytes(s, col, &n);
		rc = sb_addc(b, 'x');
		for (i = 0; i < n && !rc; i++)
			rc = sb_addc(b, hex[p[i] >> 4]) ||
			     sb_addc(b, hex[p[i] & 15]);
		return rc;
	}
}

/* The row 's' is at as one line, newly allocated. */
static char *row_line(struct db_stmt *s, int ncols)
{
	struct strbuf b;
	int i, rc = 0;

	sb_init(&b, SB_DEFAULT_MAX * 16);
	for (i = 0; i < ncols && !rc; i++)
		rc = (i && sb_addc(&b, '\t')) || put_cell(&b, s, i);
	if (rc || sb_addc(&b, '\n')) {
		sb_release(&b);
		return NULL;
	}
	return sb_detach(&b, NULL);
}

static void lines_free(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/*
 * The rows of 'table' as lines: in rowid order straight out, else all
 * read, sorted and then written.
 */
static int write_rows(struct state *st, FILE *out, const char *table,
		      const struct dump_cols *c, long *rows, struct pb_err *err)
{
	struct strbuf sql = STRBUF_INIT;
	struct db_stmt *s = NULL;
	char **v = NULL, **nv, *line;
	size_t n = 0, cap = 0, i;
	int rc = -1, step = DB_DONE;

	*rows = 0;
	if (sb_adds(&sql, "SELECT "))
		goto nomem;
	for (i = 0; i < (size_t)c->n; i++)
		if (sb_addf(&sql, "%s%s", i ? ", " : "", c->name[i]))
			goto nomem;
	if (sb_addf(&sql, " FROM %s%s", table,
		    c->rowid ? " ORDER BY rowid" : ""))
		goto nomem;
	if (db_query(st, &s, err, sb_str(&sql), ""))
		goto out;
	while ((step = db_step(s)) == DB_ROW) {
		line = row_line(s, c->n);
		if (!line)
			goto nomem;
		(*rows)++;
		if (c->rowid) {
			fputs(line, out);
			free(line);
			continue;
		}
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv) {
				free(line);
				goto nomem;
			}
			v = nv;
		}
		v[n++] = line;
	}
	if (step != DB_DONE) {
		db_fail(st, err, table);
		goto out;
	}
	if (n)
		qsort(v, n, sizeof(*v), cmp_str);
	for (i = 0; i < n; i++)
		fputs(v[i], out);
	rc = 0;
	goto out;
nomem:
	pb_fail(err, EX_OSERR, "out of memory");
out:
	db_finalize(s);
	lines_free(v, n);
	sb_release(&sql);
	return rc;
}

int state_dump_write(struct state *st, FILE *out, struct dump_counts *cnt,
		     struct pb_err *err)
{
	struct dump_cols c = { .n = 0 };
	size_t t;
	long rows;
	int i, rc = -1;

	cnt->tables = cnt->rows = 0;
	/* one snapshot of every table */
	if (db_run(st, err, st->be->sql->begin_snapshot ?
		   st->be->sql->begin_snapshot : "BEGIN", ""))
		return -1;
	fprintf(out, DUMP_MAGIC "%d\nschema %d\n", DUMP_FORMAT,
		state_nmigrations);
	for (t = 0; t < NTABLES; t++) {
		if (table_cols(st, tables[t], &c, err))
			goto out;
		fprintf(out, "table %s\ncolumns", tables[t]);
		for (i = 0; i < c.n; i++)
			fprintf(out, " %s", c.name[i]);
		fputc('\n', out);
		if (write_rows(st, out, tables[t], &c, &rows, err))
			goto out;
		fprintf(out, "end %s %ld\n", tables[t], rows);
		dump_cols_release(&c);
		cnt->tables++;
		cnt->rows += rows;
	}
	fprintf(out, "done %ld %ld\n", cnt->tables, cnt->rows);
	if (fflush(out) || ferror(out)) {
		pb_fail(err, EX_IOERR, "dump: write: %s", strerror(errno));
		goto out;
	}
	rc = 0;
out:
	dump_cols_release(&c);
	db_run(st, NULL, "COMMIT", "");
	return rc;
}

int state_dump_file(struct state *st, const char *tmp, const char *dest,
		    struct dump_counts *c, struct pb_err *err)
{
	FILE *out = fopen(tmp, "w");
	int rc;

	if (!out)
		return pb_fail(err, EX_CANTCREAT, "%s: %s", dest,
			       strerror(errno));
	rc = state_dump_write(st, out, c, err);
	if (fclose(out) && !rc)
		rc = pb_fail(err, EX_IOERR, "%s: %s", dest, strerror(errno));
	return rc;
}

int state_export(const char *where, const char *dest, struct dump_counts *c,
		 struct pb_err *err)
{
	struct state *st = NULL;
	char *tmp = NULL;
	long long bytes;
	int rc = -1;

	c->tables = c->rows = 0;
	if (state_missing(where))
		return pb_fail(err, EX_NOINPUT, "%s: no state there (nothing "
			       "has run yet)", where);
	if (state_open(&st, where, STATE_READ, err))
		return -1;
	if (!strcmp(dest, "-"))
		rc = state_dump_write(st, stdout, c, err);
	else if ((tmp = state_new_beside(dest, err)) &&
		 !state_dump_file(st, tmp, dest, c, err) &&
		 !state_publish(tmp, dest, &bytes, err))
		rc = 0;
	if (rc && tmp)
		unlink(tmp);
	free(tmp);
	state_close(st);
	return rc;
}

int state_import(const char *where, const char *src, struct dump_counts *c,
		 struct pb_err *err)
{
	struct state *st = NULL;
	FILE *in = stdin;
	int rc = -1;

	c->tables = c->rows = 0;
	if (strcmp(src, "-") && !(in = fopen(src, "r")))
		return pb_fail(err, EX_NOINPUT, "%s: %s", src,
			       strerror(errno));
	if (!state_open(&st, where, STATE_LOCKED, err))
		rc = state_dump_read(st, in, strcmp(src, "-") ? src :
				     "standard input", c, err);
	if (in != stdin)
		fclose(in);
	state_close(st);
	return rc;
}
