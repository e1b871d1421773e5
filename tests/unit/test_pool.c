// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/web/pool.c: items made in worker processes (or
 * here, when there are few or one worker), every result taken once in
 * this process, a worker's failure (its error, its crash) and a take's
 * failure each failing the run, and how many workers a build uses.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "perfbot/web/pool.h"

#define N 100

struct job {
	int taken[N];
	pid_t maker[N];		/* who made it (as its result says) */
	int started;
	long fail_at;		/* make fails on this item (-1: none) */
	long crash_at;
	long refuse_at;		/* take fails on it */
};

static int start(void *arg, struct pb_err *err)
{
	struct job *j = arg;

	(void)err;
	j->started++;
	return 0;
}

static int make(void *arg, size_t i, json_t **r, struct pb_err *err)
{
	struct job *j = arg;

	if ((long)i == j->crash_at)
		raise(SIGKILL);
	if ((long)i == j->fail_at)
		return pb_fail(err, EX_DATAERR, "item %zu is bad", i);
	*r = json_pack("{s:I, s:I}", "square", (json_int_t)(i * i), "pid",
		       (json_int_t)getpid());
	return 0;
}

static int take(void *arg, size_t i, json_t *r, struct pb_err *err)
{
	struct job *j = arg;

	if ((long)i == j->refuse_at)
		return pb_fail(err, EX_SOFTWARE, "not %zu", i);
	assert_int_equal(json_integer_value(json_object_get(r, "square")),
			 i * i);
	j->maker[i] = (pid_t)json_integer_value(json_object_get(r, "pid"));
	j->taken[i]++;
	return 0;
}

static const struct pool_ops ops = { start, make, take };

static struct job *job(void)
{
	static struct job j;

	memset(&j, 0, sizeof(j));
	j.fail_at = j.crash_at = j.refuse_at = -1;
	return &j;
}

static size_t items[N];

static void t_workers(void **state)
{
	struct pb_err err = { 0, "" };
	struct job *j = job();
	int others = 0;
	size_t i;

	(void)state;
	for (i = 0; i < N; i++)
		items[i] = i;
	assert_int_equal(pool_run(&ops, j, items, N, 3, &err), 0);
	for (i = 0; i < N; i++) {
		assert_int_equal(j->taken[i], 1);
		others += j->maker[i] != getpid();
	}
	assert_int_equal(others, N);	/* all made elsewhere */
	assert_int_equal(j->started, 0);	/* in the workers' copies */
}

/* One worker, or too few items for more: here, without a fork. */
static void t_here(void **state)
{
	struct pb_err err = { 0, "" };
	struct job *j = job();
	size_t i;

	(void)state;
	assert_int_equal(pool_run(&ops, j, items, N, 1, &err), 0);
	assert_int_equal(pool_run(&ops, job(), items, 10, 4, &err), 0);
	j = job();
	assert_int_equal(pool_run(&ops, j, items, 10, 4, &err), 0);
	for (i = 0; i < 10; i++)
		assert_true(j->maker[i] == getpid());
	assert_int_equal(pool_run(&ops, job(), items, 0, 4, &err), 0);
}

static void t_failures(void **state)
{
	struct pb_err err = { 0, "" };
	struct job *j = job();

	(void)state;
	j->fail_at = 57;
	assert_int_equal(pool_run(&ops, j, items, N, 2, &err), -1);
	assert_int_equal(err.code, EX_DATAERR);
	assert_string_equal(err.msg, "item 57 is bad");
	j = job();
	j->crash_at = 12;
	pb_err_clear(&err);
	assert_int_equal(pool_run(&ops, j, items, N, 2, &err), -1);
	assert_non_null(strstr(err.msg, "a worker ended badly"));
	j = job();
	j->refuse_at = 3;
	pb_err_clear(&err);
	assert_int_equal(pool_run(&ops, j, items, N, 2, &err), -1);
	assert_string_equal(err.msg, "not 3");
	j = job();
	j->fail_at = 3;
	assert_int_equal(pool_run(&ops, j, items, 5, 2, &err), -1);
	assert_string_equal(err.msg, "item 3 is bad");
}

static void t_how_many(void **state)
{
	long cores = sysconf(_SC_NPROCESSORS_ONLN);

	(void)state;
	assert_int_equal(pool_workers(3), 3);
	assert_int_equal(pool_workers(1000), 64);
	assert_int_equal(pool_workers(0), cores > 8 ? 8 : cores);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_workers),
		cmocka_unit_test(t_here),
		cmocka_unit_test(t_failures),
		cmocka_unit_test(t_how_many),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
