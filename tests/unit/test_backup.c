// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/state/backup.c, 'perfbot state backup': the copy
 * holds what the state holds, as one moment saw it (a transaction still
 * open in another connection is not in it, and does not stop it); it is
 * one file of mode 0600 with no -wal beside it, passes its check and
 * opens as a state; it replaces an older backup at once; the state
 * itself, a missing state and a directory that is not there are refused
 * and leave nothing behind.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "perfbot/state/backup.h"
#include "perfbot/state/dump.h"
#include "perfbot/state/state.h"
#include "perfbot/state/seen.h"

#include "testutil.h"

#define T0 1739548080

struct fx {
	char dir[64];
	char path[128];		/* <dir>/perfbot.db */
	char dest[128];		/* <dir>/b.db */
	char where[1024];	/* the state: 'path' or a server's schema */
	struct state *st;
	struct pb_err err;
};

static int setup(void **state)
{
	struct fx *f = TU_NEW_FX(struct fx, "test_backup");

	if (!f)
		return -1;
	tu_path(f->path, sizeof(f->path), f->dir, "perfbot.db");
	tu_path(f->dest, sizeof(f->dest), f->dir, "b.db");
	tu_state(f->where, sizeof(f->where), f->path);
	if (state_open(&f->st, f->where, STATE_WRITE, &f->err))
		fail_msg("%s", f->err.msg);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	state_close(f->st);
	tu_rmtree(f->dir);
	free(f);
	return 0;
}

static int seen_in(const char *path, const char *id)
{
	struct pb_err err = { 0, "" };
	struct state *st = NULL;
	int seen = -1;

	if (state_open(&st, path, STATE_READ, &err) ||
	    state_seen(st, id, &seen, &err))
		fail_msg("%s", err.msg);
	state_close(st);
	return seen;
}

/*
 * Whether the backup in 'dest' has seen 'id': opened as the state it is
 * (a copy of SQLite's file), or imported into a new SQLite state first
 * (a dump).
 */
static int seen_in_backup(struct fx *f, const struct backup_counts *b,
			  const char *id)
{
	static int n;
	struct dump_counts c;
	char restored[160];

	if (!b->dump)
		return seen_in(f->dest, id);
	/* a state of its own each time (a state removed is one in use) */
	snprintf(restored, sizeof(restored), "%s/restored-%d.db", f->dir,
		 ++n);
	if (state_import(restored, f->dest, &c, &f->err))
		fail_msg("import: %s", f->err.msg);
	assert_int_equal(c.tables, b->tables);
	assert_int_equal(c.rows, b->rows);
	return seen_in(restored, id);
}

static void t_copy(void **state)
{
	struct fx *f = *state;
	struct stat sb;
	char wal[160];
	struct backup_counts b;

	TU_SQLITE_ONLY("a copy of SQLite's file");
	assert_int_equal(state_skip(f->st, "m-1", "m.yaml", "why", T0,
				    &f->err), 0);
	assert_int_equal(state_backup(f->path, f->dest, &b,
				      &f->err), 0);
	assert_int_equal(b.dump, 0);
	assert_true(b.pages > 1);
	assert_int_equal(stat(f->dest, &sb), 0);
	assert_int_equal(sb.st_size, b.bytes);
	assert_int_equal(sb.st_mode & 0777, 0600);
	snprintf(wal, sizeof(wal), "%s-wal", f->dest);
	assert_int_not_equal(access(wal, F_OK), 0);
	assert_int_equal(seen_in(f->dest, "m-1"), 1);
	/* again, over the older copy, with more in the state */
	assert_int_equal(state_skip(f->st, "m-2", "m.yaml", "why", T0,
				    &f->err), 0);
	assert_int_equal(state_backup(f->path, f->dest, &b,
				      &f->err), 0);
	assert_int_equal(seen_in(f->dest, "m-2"), 1);
}

/* A run writing: its open transaction is not in the copy, nor in its way. */
static void t_snapshot(void **state)
{
	struct fx *f = *state;
	struct state *w = NULL;
	struct backup_counts b;

	assert_int_equal(state_skip(f->st, "before", "m.yaml", "why", T0,
				    &f->err), 0);
	assert_int_equal(state_open(&w, f->where, STATE_WRITE, &f->err), 0);
	assert_int_equal(state_begin(w, &f->err), 0);
	assert_int_equal(state_skip(w, "during", "m.yaml", "why", T0,
				    &f->err), 0);
	assert_int_equal(state_backup(f->where, f->dest, &b,
				      &f->err), 0);
	assert_int_equal(state_commit(w, &f->err), 0);
	state_close(w);
	assert_int_equal(b.dump, tu_pg() != NULL);
	assert_int_equal(seen_in_backup(f, &b, "before"), 1);
	assert_int_equal(seen_in_backup(f, &b, "during"), 0);
	assert_int_equal(seen_in(f->where, "during"), 1);
}

static void t_refused(void **state)
{
	struct fx *f = *state;
	char hard[160], missing[160], ghost[160];
	struct strbuf names;
	struct backup_counts b;

	TU_SQLITE_ONLY("a state file and its links");
	assert_int_equal(state_backup(f->path, f->path, &b,
				      &f->err), -1);
	assert_int_equal(f->err.code, EX_USAGE);
	assert_non_null(strstr(f->err.msg, "that is the state itself"));
	snprintf(hard, sizeof(hard), "%s/l.db", f->dir);
	assert_int_equal(link(f->path, hard), 0);
	assert_int_equal(state_backup(f->path, hard, &b,
				      &f->err), -1);
	assert_int_equal(f->err.code, EX_USAGE);
	unlink(hard);
	snprintf(missing, sizeof(missing), "%s/no/b.db", f->dir);
	assert_int_equal(state_backup(f->path, missing, &b,
				      &f->err), -1);
	assert_int_equal(f->err.code, EX_CANTCREAT);
	snprintf(ghost, sizeof(ghost), "%s/none.db", f->dir);
	assert_int_equal(state_backup(ghost, f->dest, &b,
				      &f->err), -1);
	assert_int_equal(f->err.code, EX_NOINPUT);
	/* nothing left behind */
	tu_names(f->dir, NULL, &names);
	assert_null(strstr(sb_str(&names), "backup"));
	assert_null(strstr(sb_str(&names), "b.db"));
	sb_release(&names);
}

/*
 * On PostgreSQL the backup is the neutral dump of 'state export' (no
 * file of its own to copy): mode 0600, its first line the format's, and
 * what it holds imported again; on SQLite that is t_copy's.
 */
static void t_server_dump(void **state)
{
	struct fx *f = *state;
	struct strbuf text = STRBUF_INIT;
	struct backup_counts b;
	struct stat sb;

	if (!tu_pg()) {
		print_message("skipped on SQLite: a server's backup\n");
		skip();
	}
	assert_int_equal(state_skip(f->st, "m-1", "m.yaml", "why", T0,
				    &f->err), 0);
	assert_int_equal(state_backup(f->where, f->dest, &b, &f->err), 0);
	assert_int_equal(b.dump, 1);
	assert_true(b.tables > 1);
	assert_true(b.rows >= 1);
	assert_int_equal(stat(f->dest, &sb), 0);
	assert_int_equal(sb.st_size, b.bytes);
	assert_int_equal(sb.st_mode & 0777, 0600);
	tu_read_text(f->dest, &text);
	assert_int_equal(strncmp(sb_str(&text), "perfbot-state-dump 1\n", 21),
			 0);
	sb_release(&text);
	assert_int_equal(seen_in_backup(f, &b, "m-1"), 1);
	assert_int_equal(seen_in_backup(f, &b, "m-2"), 0);
}

int main(void)
{
#define T(t) cmocka_unit_test_setup_teardown(t, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(t_copy),
		T(t_snapshot),
		T(t_refused),
		T(t_server_dump),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
