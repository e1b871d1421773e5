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
#include "perfbot/state/state.h"
#include "perfbot/state/seen.h"

#include "testutil.h"

#define T0 1739548080

struct fx {
	char dir[64];
	char path[128];		/* <dir>/perfbot.db */
	char dest[128];		/* <dir>/b.db */
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
	if (state_open(&f->st, f->path, STATE_WRITE, &f->err))
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

static void t_copy(void **state)
{
	struct fx *f = *state;
	struct stat sb;
	char wal[160];
	long pages;
	long long bytes;

	assert_int_equal(state_skip(f->st, "m-1", "m.yaml", "why", T0,
				    &f->err), 0);
	assert_int_equal(state_backup(f->path, f->dest, &pages, &bytes,
				      &f->err), 0);
	assert_true(pages > 1);
	assert_int_equal(stat(f->dest, &sb), 0);
	assert_int_equal(sb.st_size, bytes);
	assert_int_equal(sb.st_mode & 0777, 0600);
	snprintf(wal, sizeof(wal), "%s-wal", f->dest);
	assert_int_not_equal(access(wal, F_OK), 0);
	assert_int_equal(seen_in(f->dest, "m-1"), 1);
	/* again, over the older copy, with more in the state */
	assert_int_equal(state_skip(f->st, "m-2", "m.yaml", "why", T0,
				    &f->err), 0);
	assert_int_equal(state_backup(f->path, f->dest, &pages, &bytes,
				      &f->err), 0);
	assert_int_equal(seen_in(f->dest, "m-2"), 1);
}

/* A run writing: its open transaction is not in the copy, nor in its way. */
static void t_snapshot(void **state)
{
	struct fx *f = *state;
	struct state *w = NULL;
	long pages;
	long long bytes;

	assert_int_equal(state_skip(f->st, "before", "m.yaml", "why", T0,
				    &f->err), 0);
	assert_int_equal(state_open(&w, f->path, STATE_WRITE, &f->err), 0);
	assert_int_equal(state_begin(w, &f->err), 0);
	assert_int_equal(state_skip(w, "during", "m.yaml", "why", T0,
				    &f->err), 0);
	assert_int_equal(state_backup(f->path, f->dest, &pages, &bytes,
				      &f->err), 0);
	assert_int_equal(state_commit(w, &f->err), 0);
	state_close(w);
	assert_int_equal(seen_in(f->dest, "before"), 1);
	assert_int_equal(seen_in(f->dest, "during"), 0);
	assert_int_equal(seen_in(f->path, "during"), 1);
}

static void t_refused(void **state)
{
	struct fx *f = *state;
	char hard[160], missing[160], ghost[160];
	struct strbuf names;
	long pages;
	long long bytes;

	assert_int_equal(state_backup(f->path, f->path, &pages, &bytes,
				      &f->err), -1);
	assert_int_equal(f->err.code, EX_USAGE);
	assert_non_null(strstr(f->err.msg, "that is the state itself"));
	snprintf(hard, sizeof(hard), "%s/l.db", f->dir);
	assert_int_equal(link(f->path, hard), 0);
	assert_int_equal(state_backup(f->path, hard, &pages, &bytes,
				      &f->err), -1);
	assert_int_equal(f->err.code, EX_USAGE);
	unlink(hard);
	snprintf(missing, sizeof(missing), "%s/no/b.db", f->dir);
	assert_int_equal(state_backup(f->path, missing, &pages, &bytes,
				      &f->err), -1);
	assert_int_equal(f->err.code, EX_CANTCREAT);
	snprintf(ghost, sizeof(ghost), "%s/none.db", f->dir);
	assert_int_equal(state_backup(ghost, f->dest, &pages, &bytes,
				      &f->err), -1);
	assert_int_equal(f->err.code, EX_NOINPUT);
	/* nothing left behind */
	tu_names(f->dir, NULL, &names);
	assert_null(strstr(sb_str(&names), "backup"));
	assert_null(strstr(sb_str(&names), "b.db"));
	sb_release(&names);
}

int main(void)
{
#define T(t) cmocka_unit_test_setup_teardown(t, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(t_copy),
		T(t_snapshot),
		T(t_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
