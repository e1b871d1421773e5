// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/state/wake.c and pg_wake.c (issue 34 item 4): on
 * SQLite a wait is the time asked and nothing wakes it; on PostgreSQL
 * (PERFBOT_TEST_STATE) an instance listening wakes within the moment
 * when another says work was queued (at its commit, not before), and
 * waits out its time when nobody does.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "perfbot/state/state.h"
#include "perfbot/state/wake.h"

#include "testutil.h"
#include "teststate.h"

struct fx {
	char dir[64];
	char path[128];
	struct state *a, *b;
	struct pb_err err;
};

static int setup(void **state)
{
	struct fx *f = TU_NEW_FX(struct fx, "test_wake");

	if (!f)
		return -1;
	tu_path(f->path, sizeof(f->path), f->dir, "state.db");
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	state_close(f->a);
	state_close(f->b);
	tu_rmtree(f->dir);
	free(f);
	return 0;
}

static long ms_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void t_sqlite_sleeps(void **state)
{
	struct fx *f = *state;
	long t0;
	int woken = 1;

	assert_int_equal(state_open(&f->a, f->path, STATE_WRITE, &f->err), 0);
	assert_int_equal(state_wake_listen(f->a, &f->err), 0);
	assert_int_equal(state_wake_notify(f->a, &f->err), 0);
	t0 = ms_now();
	assert_int_equal(state_wake_wait(f->a, 120, &woken, &f->err), 0);
	assert_int_equal(woken, 0);
	assert_true(ms_now() - t0 >= 110);
}

static void t_pg_wakes(void **state)
{
	struct fx *f = *state;
	char where[1024];
	long t0;
	int woken = 0;

	if (!tu_pg()) {
		print_message("skipped: no PostgreSQL (PERFBOT_TEST_STATE)\n");
		skip();
	}
	tu_state(where, sizeof(where), f->path);
	assert_int_equal(state_open(&f->a, where, STATE_WRITE, &f->err), 0);
	assert_int_equal(state_open(&f->b, where, STATE_WRITE, &f->err), 0);
	assert_int_equal(state_wake_listen(f->a, &f->err), 0);
	/* nobody says anything: the time runs out */
	t0 = ms_now();
	assert_int_equal(state_wake_wait(f->a, 200, &woken, &f->err), 0);
	assert_int_equal(woken, 0);
	assert_true(ms_now() - t0 >= 190);
	/* said in a transaction: heard at its commit only */
	assert_int_equal(state_begin(f->b, &f->err), 0);
	assert_int_equal(state_wake_notify(f->b, &f->err), 0);
	assert_int_equal(state_wake_wait(f->a, 200, &woken, &f->err), 0);
	assert_int_equal(woken, 0);
	assert_int_equal(state_commit(f->b, &f->err), 0);
	t0 = ms_now();
	assert_int_equal(state_wake_wait(f->a, 5000, &woken, &f->err), 0);
	assert_int_equal(woken, 1);
	assert_true(ms_now() - t0 < 2000);
	/* heard once */
	assert_int_equal(state_wake_wait(f->a, 100, &woken, &f->err), 0);
	assert_int_equal(woken, 0);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(t_sqlite_sleeps),
		T(t_pg_wakes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
