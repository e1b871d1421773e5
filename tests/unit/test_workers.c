// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/util/workers.c: every item started, worked on and
 * finished once, start and finish in item order in the caller's thread
 * whatever order the workers end in, at most the slots' worth of items
 * under way, the log of each item printed just before its finish (as one
 * job prints it), a failing start or finish stopping the run with the
 * items before it finished and the others released, and how many
 * workers a setting gives.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "perfbot/util/log.h"
#include "perfbot/util/workers.h"

#include "testutil.h"

#define N 200
#define MAX_SLOTS (2 * WORKERS_MAX)

struct run {
	pthread_t caller;
	size_t nslots;
	size_t slot_item[MAX_SLOTS];	/* the item a slot holds, or N */
	size_t value[MAX_SLOTS];	/* work's result in the slot */
	int started[N], worked[N], finished[N], released[N];
	size_t next_start, next_finish;	/* the order seen */
	size_t under_way, most;		/* started, not yet finished */
	int off_caller;			/* a work ran off the caller's thread */
	long fail_start, fail_finish;	/* -1: none */
	int log;			/* each step logs a line */
	pthread_mutex_t lock;		/* for off_caller only */
};

static void nap(size_t item)
{
	/* later items are quicker: the workers end out of order */
	struct timespec ts = { 0, (long)((N - item) % 4) * 200000L };

	nanosleep(&ts, NULL);
}

static int r_start(void *arg, size_t item, size_t slot, struct pb_err *err)
{
	struct run *r = arg;

	assert_true(pthread_equal(pthread_self(), r->caller));
	assert_int_equal(item, r->next_start);
	assert_true(slot < r->nslots);
	if (r->log)
		log_warn("start %zu", item);
	if ((long)item == r->fail_start)
		return pb_fail(err, EX_IOERR, "start %zu failed", item);
	assert_int_equal(r->slot_item[slot], N);	/* the slot was free */
	r->next_start++;
	r->started[item]++;
	r->slot_item[slot] = item;
	if (++r->under_way > r->most)
		r->most = r->under_way;
	return 0;
}

static void r_work(void *arg, size_t worker, size_t slot)
{
	struct run *r = arg;
	size_t item = r->slot_item[slot];

	/* no cmocka assert off the caller's thread: it longjmps */
	if (worker >= WORKERS_MAX)
		item = N + 1;
	if (!pthread_equal(pthread_self(), r->caller)) {
		pthread_mutex_lock(&r->lock);
		r->off_caller = 1;
		pthread_mutex_unlock(&r->lock);
	}
	nap(item);
	if (r->log)
		log_warn("work %zu", item);
	r->value[slot] = item * item;
	if (item < N)
		r->worked[item]++;
}

static int r_finish(void *arg, size_t item, size_t slot, struct pb_err *err)
{
	struct run *r = arg;

	assert_true(pthread_equal(pthread_self(), r->caller));
	assert_int_equal(item, r->next_finish);
	assert_int_equal(r->slot_item[slot], item);
	assert_int_equal(r->value[slot], item * item);
	r->next_finish++;
	r->finished[item]++;
	r->slot_item[slot] = N;
	r->under_way--;
	if (r->log)
		log_warn("finish %zu", item);
	if ((long)item == r->fail_finish)
		return pb_fail(err, EX_IOERR, "finish %zu failed", item);
	return 0;
}

static void r_release(void *arg, size_t slot)
{
	struct run *r = arg;

	assert_true(pthread_equal(pthread_self(), r->caller));
	assert_true(r->slot_item[slot] < N);
	r->released[r->slot_item[slot]]++;
	r->slot_item[slot] = N;
	r->under_way--;
}

static const struct workers_ops ops = { r_start, r_work, r_finish,
					r_release };

static struct run *new_run(size_t jobs)
{
	struct run *r = calloc(1, sizeof(*r));
	size_t i;

	assert_non_null(r);
	r->caller = pthread_self();
	r->nslots = workers_slots(jobs);
	for (i = 0; i < MAX_SLOTS; i++)
		r->slot_item[i] = N;
	r->fail_start = r->fail_finish = -1;
	pthread_mutex_init(&r->lock, NULL);
	return r;
}

static void free_run(struct run *r)
{
	pthread_mutex_destroy(&r->lock);
	free(r);
}

/* Every item once, in order, for 'jobs' workers. */
static void all_once(size_t jobs)
{
	struct pb_err err = { 0, "" };
	struct run *r = new_run(jobs);
	size_t i;

	assert_int_equal(workers_run(&ops, r, N, jobs, &err), 0);
	for (i = 0; i < N; i++) {
		assert_int_equal(r->started[i], 1);
		assert_int_equal(r->worked[i], 1);
		assert_int_equal(r->finished[i], 1);
		assert_int_equal(r->released[i], 0);
	}
	assert_int_equal(r->under_way, 0);
	assert_true(r->most <= r->nslots);
	assert_int_equal(r->off_caller, jobs > 1);
	if (jobs > 1)	/* the window was used, not one item at a time */
		assert_true(r->most > 1);
	free_run(r);
}

static void t_one_job(void **state)
{
	(void)state;
	all_once(1);
	all_once(0);
}

static void t_many_jobs(void **state)
{
	(void)state;
	all_once(2);
	all_once(4);
	all_once(WORKERS_MAX);
}

static void t_no_items(void **state)
{
	struct pb_err err = { 0, "" };
	struct run *r = new_run(4);

	(void)state;
	assert_int_equal(workers_run(&ops, r, 0, 4, &err), 0);
	assert_int_equal(r->next_start, 0);
	free_run(r);
}

/* A finish fails at item k: up to k finished, nothing after; the rest
 * released, the error that of the finish. */
static void finish_fails(size_t jobs, size_t k)
{
	struct pb_err err = { 0, "" };
	struct run *r = new_run(jobs);
	char want[64];
	size_t i;

	r->fail_finish = (long)k;
	assert_int_equal(workers_run(&ops, r, N, jobs, &err), -1);
	snprintf(want, sizeof(want), "finish %zu failed", k);
	assert_string_equal(err.msg, want);
	for (i = 0; i < N; i++) {
		assert_int_equal(r->finished[i], i <= k);
		assert_int_equal(r->started[i], r->finished[i] +
				 r->released[i]);
	}
	assert_int_equal(r->under_way, 0);
	free_run(r);
}

static void t_finish_fails(void **state)
{
	(void)state;
	finish_fails(1, 7);
	finish_fails(3, 0);
	finish_fails(3, 7);
	finish_fails(3, N - 1);
}

/* A start fails at item k: every item before it finished first, none
 * from k on; nothing left to release. */
static void start_fails(size_t jobs, size_t k)
{
	struct pb_err err = { 0, "" };
	struct run *r = new_run(jobs);
	char want[64];
	size_t i;

	r->fail_start = (long)k;
	assert_int_equal(workers_run(&ops, r, N, jobs, &err), -1);
	snprintf(want, sizeof(want), "start %zu failed", k);
	assert_string_equal(err.msg, want);
	assert_int_equal(err.code, EX_IOERR);
	for (i = 0; i < N; i++) {
		assert_int_equal(r->finished[i], i < k);
		assert_int_equal(r->started[i], i < k);
		assert_int_equal(r->released[i], 0);
	}
	free_run(r);
}

static void t_start_fails(void **state)
{
	(void)state;
	start_fails(1, 5);
	start_fails(4, 0);
	start_fails(4, 5);
	start_fails(4, N - 1);
}

/* What a run printed on stderr, at log level WARN. */
static void logged(size_t jobs, long fail_finish, struct strbuf *out)
{
	char dir[64], path[128];
	struct pb_err err = { 0, "" };
	struct run *r = new_run(jobs);
	enum log_level level = log_get_level();
	int saved = -1;

	assert_non_null(tu_tmpdir(dir, sizeof(dir), "test_workers"));
	tu_path(path, sizeof(path), dir, "stderr");
	r->log = 1;
	r->fail_finish = fail_finish;
	log_set_level(LOG_WARN);
	log_set_timestamps(0);
	tu_stderr_capture(path, &saved);
	workers_run(&ops, r, 40, jobs, &err);
	tu_stderr_restore(&saved);
	log_set_level(level);
	tu_read_text(path, out);
	tu_rmtree(dir);
	free_run(r);
}

/* Each item's lines together, in item order, as with one job. */
static void t_log_in_order(void **state)
{
	struct strbuf one, four;

	(void)state;
	logged(1, -1, &one);
	logged(4, -1, &four);
	assert_string_equal(sb_str(&four), sb_str(&one));
	assert_non_null(strstr(sb_str(&one), "perfbot: start 0\n"
			       "perfbot: work 0\nperfbot: finish 0\n"
			       "perfbot: start 1\n"));
	sb_release(&one);
	sb_release(&four);
	/* stopped at 9: nothing of the items after it is printed */
	logged(1, 9, &one);
	logged(4, 9, &four);
	assert_string_equal(sb_str(&four), sb_str(&one));
	assert_null(strstr(sb_str(&four), "10"));
	sb_release(&one);
	sb_release(&four);
}

/* A thread's captured lines come out on replay, in order. */
static void t_capture(void **state)
{
	struct strbuf sb = STRBUF_INIT, *old;

	(void)state;
	old = log_capture(&sb);
	log_warn("one %d", 1);
	log_error("two");
	log_debug("not at this level");
	assert_ptr_equal(log_capture(old), &sb);
	assert_memory_equal(sb.buf, "one 1\0two\0", sb.len);
	assert_int_equal(sb.len, sizeof("one 1\0two"));
	sb_release(&sb);
}

static void t_count(void **state)
{
	(void)state;
	assert_int_equal(workers_count(3), 3);
	assert_int_equal(workers_count(1), 1);
	assert_int_equal(workers_count(1000), WORKERS_MAX);
	assert_true(workers_count(0) >= 1 && workers_count(0) <= 8);
	assert_int_equal(workers_count(-1), workers_count(0));
	assert_int_equal(workers_slots(1), 1);
	assert_int_equal(workers_slots(4), 8);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_one_job),
		cmocka_unit_test(t_many_jobs),
		cmocka_unit_test(t_no_items),
		cmocka_unit_test(t_finish_fails),
		cmocka_unit_test(t_start_fails),
		cmocka_unit_test(t_log_in_order),
		cmocka_unit_test(t_capture),
		cmocka_unit_test(t_count),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
