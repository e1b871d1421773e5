/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_STATE_DUMP_INTERNAL_H
#define PERFBOT_STATE_DUMP_INTERNAL_H

/*
 * What the writer (dump.c) and the reader (dump_read.c) of the state's
 * dump share (include/perfbot/state/dump.h says the format).
 */

#define DUMP_FORMAT 1
#define DUMP_MAGIC "perfbot-state-dump "
/* the most columns of a table (requests has 25), the most tables */
#define DUMP_MAXCOLS 40
#define DUMP_MAXTABLES 64

/* A table's columns by name. */
struct dump_cols {
	char *name[DUMP_MAXCOLS];
	int n;
	int rowid;	/* a column is named rowid */
};

void dump_cols_release(struct dump_cols *c);
/*
 * 'table' has a rowid of its own on PostgreSQL (schema.c's pg_rowid),
 * which SQLite's implicit rowid stands for: dumped, in its order.
 */
int dump_has_rowid(const char *table);

#endif
