/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_WORKERS_H
#define PERFBOT_WORKERS_H

#include <pthread.h>
#include <stddef.h>

#include "perfbot/util/err.h"

/*
 * A list of items worked on by several threads and used in order: the
 * cron cycle's manifests, confirmations and retests (src/cycle/,
 * src/act/retest.c), compared and rendered in parallel while one thread,
 * the caller's, does everything that writes, in the order of the items.
 *
 * For each item, in the caller's thread and in item order, start() puts
 * it into a slot (reads only: what it found may be stale by the time the
 * item is finished, so finish() checks again what matters); work() then
 * runs in a worker thread on that slot alone, touching nothing shared
 * that is not made for several threads; finish() runs in the caller's
 * thread, in item order, with the slot's result. At most 'slots' items
 * are between start() and finish() at once, so memory does not grow with
 * the number of items. What start() and work() log is held and printed
 * just before that item's finish(), so stderr reads as it would with one
 * job. With one job there are no threads: start, work and finish of each
 * item in turn, as a plain loop.
 *
 * A start() or finish() that returns -1 stops the run: the items before
 * it are finished, those after it never are, and release() is called
 * for every slot that still holds one of those. finish() empties its
 * slot whatever it returns, and a start() that fails leaves it empty.
 */

#define WORKERS_MAX 64

struct workers_ops {
	int (*start)(void *arg, size_t item, size_t slot, struct pb_err *err);
	void (*work)(void *arg, size_t worker, size_t slot);
	int (*finish)(void *arg, size_t item, size_t slot, struct pb_err *err);
	void (*release)(void *arg, size_t slot);	/* may be NULL */
};

/*
 * The number of workers for a setting of 'jobs': itself (at most
 * WORKERS_MAX), or when 0 or less the online processors, 1 to 8.
 */
size_t workers_count(long jobs);

/* The slots a run of 'jobs' workers uses (the caller provides them). */
size_t workers_slots(size_t jobs);

/*
 * Run items 0 .. n - 1 on 'jobs' workers (0 or 1: in the caller's thread
 * alone; when no thread can be made, too). 0 when every item was
 * finished, -1 with 'err' (that of the start() or finish() that stopped
 * it, or out of memory).
 */
int workers_run(const struct workers_ops *ops, void *arg, size_t n,
		size_t jobs, struct pb_err *err);

/*
 * One function run beside the caller: in a thread of its own, or, when
 * none can be made, in the caller's thread at once. workers_aside_wait()
 * returns once it has run (each started one must be waited for).
 */
struct workers_aside {
	void (*fn)(void *arg);
	void *arg;
	int threaded;
	pthread_t t;
};

void workers_aside_start(struct workers_aside *a, void (*fn)(void *arg),
			 void *arg);
void workers_aside_wait(struct workers_aside *a);

#endif
