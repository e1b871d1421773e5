// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/state/duty.c (issue 34 item 3): on SQLite every
 * singleton duty is the run's and nothing is written of it; on a
 * backend whose duty lock another instance may hold (SQLite's table with
 * a stand-in lock, as PostgreSQL's advisory lock answers), a duty not
 * held is said so, one held is written with its owner and since when
 * (kept while the same owner holds it), and the instances seen are
 * listed; 'perfbot status' shows the instances, the duties and the
 * leases taken.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "perfbot/state/duty.h"
#include "perfbot/state/requests.h"
#include "perfbot/state/state.h"
#include "perfbot/state/status.h"
#include "../../src/state/internal.h"

#include "testutil.h"
#include "teststate.h"

#define T0 1739548080

struct fx {
	char dir[64];
	char path[128];
	struct state *st;
	struct pb_err err;
};

/* The stand-in lock: held by this test when 'free_duty' names it. */
static const char *free_duty;

static int fake_lock(struct state *st, const char *duty, int *held,
		     struct pb_err *err)
{
	(void)st;
	(void)err;
	*held = free_duty && !strcmp(duty, free_duty);
	return 0;
}

static struct state_backend with_lock;

static int setup(void **state)
{
	struct fx *f = TU_NEW_FX(struct fx, "test_duty");

	if (!f)
		return -1;
	tu_path(f->path, sizeof(f->path), f->dir, "state.db");
	if (state_open(&f->st, f->path, STATE_WRITE, &f->err))
		return -1;
	with_lock = state_sqlite;
	with_lock.duty_lock = fake_lock;
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

static const struct status_part *part(struct status *s, const char *name)
{
	const struct status_part *p = status_part(s, name);

	assert_non_null(p);
	return p;
}

static const char *text(const struct status_part *p, size_t row,
			const char *col)
{
	const struct status_value *v = status_cell(p, row, col);

	assert_non_null(v);
	assert_int_equal(v->type, STATUS_TEXT);
	return v->s;
}

static long long number(const struct status_part *p, size_t row,
			const char *col)
{
	const struct status_value *v = status_cell(p, row, col);

	assert_non_null(v);
	assert_int_equal(v->type, STATUS_INT);
	return v->i;
}

static void t_sqlite_holds_all(void **state)
{
	struct fx *f = *state;
	struct status s;
	int held = 0;

	assert_int_equal(state_duty_hold(f->st, "poll", T0, 1, &held, &f->err),
			 0);
	assert_int_equal(held, 1);
	assert_int_equal(state_instance_seen(f->st, T0, &f->err), 0);
	assert_int_equal(state_status(f->st, T0, &s, &f->err), 0);
	assert_int_equal(part(&s, "duties")->nrows, 0);
	assert_int_equal(part(&s, "instances")->nrows, 0);
	status_release(&s);
}

static void t_held_by_one(void **state)
{
	struct fx *f = *state;
	const struct status_part *p;
	struct status s;
	int held = 1;

	f->st->be = &with_lock;
	assert_int_equal(state_owner_set(f->st, "host-a:1", &f->err), 0);
	free_duty = "track";
	assert_int_equal(state_duty_hold(f->st, "poll", T0, 1, &held, &f->err),
			 0);
	assert_int_equal(held, 0);
	assert_int_equal(state_duty_hold(f->st, "track", T0, 1, &held,
					 &f->err), 0);
	assert_int_equal(held, 1);
	/* held again later: since when kept, seen moved on */
	assert_int_equal(state_duty_hold(f->st, "track", T0 + 60, 1, &held,
					 &f->err), 0);
	/* not noted (a dry run) */
	assert_int_equal(state_duty_hold(f->st, "track", T0 + 90, 0, &held,
					 &f->err), 0);
	assert_int_equal(held, 1);
	assert_int_equal(state_instance_seen(f->st, T0 + 60, &f->err), 0);
	assert_int_equal(state_status(f->st, T0 + 60, &s, &f->err), 0);
	p = part(&s, "duties");
	assert_int_equal(p->nrows, 1);
	assert_string_equal(text(p, 0, "name"), "track");
	assert_string_equal(text(p, 0, "owner"), "host-a:1");
	assert_int_equal(number(p, 0, "since"), T0);
	assert_int_equal(number(p, 0, "seen"), T0 + 60);
	p = part(&s, "instances");
	assert_int_equal(p->nrows, 1);
	assert_string_equal(text(p, 0, "name"), "host-a:1");
	assert_int_equal(number(p, 0, "seen"), T0 + 60);
	status_release(&s);
	/* another owner takes it: since when is its own */
	assert_int_equal(state_owner_set(f->st, "host-b:2", &f->err), 0);
	assert_int_equal(state_duty_hold(f->st, "track", T0 + 120, 1, &held,
					 &f->err), 0);
	/* an instance not seen for a day is forgotten */
	assert_int_equal(state_instance_seen(f->st, T0 + 2 * 86400, &f->err),
			 0);
	assert_int_equal(state_status(f->st, T0, &s, &f->err), 0);
	p = part(&s, "duties");
	assert_string_equal(text(p, 0, "owner"), "host-b:2");
	assert_int_equal(number(p, 0, "since"), T0 + 120);
	p = part(&s, "instances");
	assert_int_equal(p->nrows, 1);
	assert_string_equal(text(p, 0, "name"), "host-b:2");
	status_release(&s);
	f->st->be = &state_sqlite;
}

static void t_status_leases(void **state)
{
	struct fx *f = *state;
	struct request_new rq = {
		.request_id = "retest-1", .kind = "retest", .report_id = "r1",
		.runs = 2, .deadline = T0 + 86400,
	};
	const struct status_part *p;
	struct status s;
	int c;

	assert_int_equal(state_owner_set(f->st, "host-a:1", &f->err), 0);
	assert_int_equal(state_request_add(f->st, &rq, T0, &f->err), 0);
	assert_int_equal(state_request_claim(f->st, "retest-1", T0, 600, &c,
					     &f->err), 0);
	assert_int_equal(state_status(f->st, T0, &s, &f->err), 0);
	p = part(&s, "leases");
	assert_int_equal(p->nrows, 1);
	assert_string_equal(text(p, 0, "of"), "request");
	assert_string_equal(text(p, 0, "id"), "retest-1");
	assert_string_equal(text(p, 0, "owner"), "host-a:1");
	assert_int_equal(number(p, 0, "lease_until"), T0 + 600);
	status_release(&s);
}

/*
 * On PostgreSQL (PERFBOT_TEST_STATE): a duty is one session's; when that
 * session ends, the other takes it.
 */
static void t_pg_session_lock(void **state)
{
	struct fx *f = *state;
	struct state *a = NULL, *b = NULL;
	char where[1024];
	int held, i;

	if (!tu_pg()) {
		print_message("skipped: no PostgreSQL (PERFBOT_TEST_STATE)\n");
		skip();
	}
	tu_state(where, sizeof(where), f->path);
	assert_int_equal(state_open(&a, where, STATE_WRITE, &f->err), 0);
	assert_int_equal(state_open(&b, where, STATE_WRITE, &f->err), 0);
	assert_int_equal(state_duty_hold(a, "poll", T0, 1, &held, &f->err), 0);
	assert_int_equal(held, 1);
	assert_int_equal(state_duty_hold(a, "poll", T0, 1, &held, &f->err), 0);
	assert_int_equal(held, 1);
	assert_int_equal(state_duty_hold(b, "poll", T0, 1, &held, &f->err), 0);
	assert_int_equal(held, 0);
	assert_int_equal(state_duty_hold(b, "track", T0, 1, &held, &f->err),
			 0);
	assert_int_equal(held, 1);
	state_close(a);
	/*
	 * the server lets a's lock go once it has ended a's session, a
	 * moment after the close (under a loaded machine, not at once)
	 */
	for (i = 0; i < 100; i++) {
		assert_int_equal(state_duty_hold(b, "poll", T0, 1, &held,
						 &f->err), 0);
		if (held)
			break;
		usleep(50000);
	}
	assert_int_equal(held, 1);
	state_close(b);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(t_sqlite_holds_all),
		T(t_held_by_one),
		T(t_status_leases),
		T(t_pg_session_lock),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
