/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_STATE_DUMP_H
#define PERFBOT_STATE_DUMP_H

#include <stddef.h>
#include <stdio.h>

#include "perfbot/state/state.h"

/*
 * The state as a neutral dump (src/state/dump.c; 'perfbot state export'
 * and 'import'), to move a state from one backend to another (SQLite to
 * PostgreSQL and back) with nothing lost. The format is text, one line
 * each (doc/state-dump.md):
 *
 *   perfbot-state-dump 1          the format
 *   schema 12                     the state's schema version
 *   table outbox                  then, for each table of the state:
 *   columns attempts created ...  its columns, by name, sorted
 *   i3<TAB>N<TAB>tqueued ...      a row: one cell per column
 *   end outbox 1                  its number of rows
 *   done 15 1234                  tables and rows in all
 *
 * A cell is N (NULL), i<integer>, r<real as %.17g>, t<text> (with \\,
 * \t, \n, \r and \0 escaped) or x<blob in hex>. The rows of a table
 * with a rowid column are in rowid order, the others sorted as lines,
 * so that one state dumps to the same bytes whatever its backend. The
 * backend's own table (meta: SQLite's home name, a server's version
 * bookkeeping) is not dumped.
 */

struct dump_counts {
	long tables, rows;
};

/* The tables a dump holds, in the order it writes (and imports) them. */
size_t state_dump_tables(const char *const **names);

/*
 * Write every table of the open 'st' to 'out', read within one
 * transaction. 0, or -1 with 'err' (EX_IOERR a read or a write failed).
 */
int state_dump_write(struct state *st, FILE *out, struct dump_counts *c,
		     struct pb_err *err);
/*
 * Read the dump 'in' ('name' for messages) into the open 'st', which
 * must hold no row yet (EX_CANTCREAT otherwise), in one transaction: all
 * of it or, on any error, nothing. EX_DATAERR a dump of another schema
 * version or format, or one damaged or cut short.
 */
int state_dump_read(struct state *st, FILE *in, const char *name,
		    struct dump_counts *c, struct pb_err *err);

/*
 * 'perfbot state export DEST': the state 'where' (the 'state:' value)
 * opened read only and dumped into DEST (mode 0600, written beside and
 * renamed over it; "-" is the standard output). EX_NOINPUT no state.
 */
int state_export(const char *where, const char *dest, struct dump_counts *c,
		 struct pb_err *err);
/*
 * 'perfbot state import SRC': the state 'where' opened (made when
 * missing) with the run lock, and SRC ("-": the standard input) read
 * into it; refused when it is not empty.
 */
int state_import(const char *where, const char *src, struct dump_counts *c,
		 struct pb_err *err);

#endif
