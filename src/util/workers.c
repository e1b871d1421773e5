// SPDX-License-Identifier: GPL-2.0-only
/*
 * util: items worked on by threads and used in order (workers.h). The
 * caller's thread starts items into a ring of slots and finishes them in
 * order; the workers take the started items in order and mark them done.
 * One mutex guards the ring's states; a slot's contents belong to
 * whoever the state gives it to (the caller before READY and after
 * DONE, one worker in between), so they need no lock of their own.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perfbot/util/log.h"
#include "perfbot/util/strbuf.h"
#include "perfbot/util/workers.h"

#define LOG_MAX ((size_t)1 << 20)	/* held lines of one item */

enum slot_state { S_FREE, S_READY, S_DONE };

struct ring {
	const struct workers_ops *ops;
	void *arg;
	size_t nslots;
	enum slot_state *state;
	struct strbuf *log;	/* what start() and work() said */
	size_t next_start;	/* items started: 0 .. next_start - 1 */
	size_t next_work;	/* items taken by a worker */
	int quit;
	pthread_mutex_t lock;
	pthread_cond_t work_cv;	/* a slot became READY, or quit */
	pthread_cond_t done_cv;	/* a slot became DONE */
};

struct worker {
	struct ring *r;
	size_t index;
	pthread_t t;
};

size_t workers_count(long jobs)
{
	long n = jobs > 0 ? jobs : sysconf(_SC_NPROCESSORS_ONLN);

	if (n < 1)
		n = 1;
	if (jobs <= 0 && n > 8)
		n = 8;
	return (size_t)(n > WORKERS_MAX ? WORKERS_MAX : n);
}

size_t workers_slots(size_t jobs)
{
	return jobs > 1 ? 2 * jobs : 1;
}

/* One job: the plain loop. */
static int serial(const struct workers_ops *ops, void *arg, size_t n,
		  struct pb_err *err)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (ops->start(arg, i, 0, err))
			return -1;
		ops->work(arg, 0, 0);
		if (ops->finish(arg, i, 0, err))
			return -1;
	}
	return 0;
}

static void *worker_main(void *p)
{
	struct worker *w = p;
	struct ring *r = w->r;
	size_t slot;

	pthread_mutex_lock(&r->lock);
	for (;;) {
		while (!r->quit && r->next_work == r->next_start)
			pthread_cond_wait(&r->work_cv, &r->lock);
		if (r->quit)
			break;
		slot = r->next_work++ % r->nslots;
		pthread_mutex_unlock(&r->lock);
		log_capture(&r->log[slot]);
		r->ops->work(r->arg, w->index, slot);
		log_capture(NULL);
		pthread_mutex_lock(&r->lock);
		r->state[slot] = S_DONE;
		pthread_cond_broadcast(&r->done_cv);
	}
	pthread_mutex_unlock(&r->lock);
	return NULL;
}

/* Start item 'i' into its slot and hand it to the workers. */
static int start_one(struct ring *r, size_t i, struct pb_err *err)
{
	size_t slot = i % r->nslots;
	struct strbuf *old = log_capture(&r->log[slot]);
	int rc = r->ops->start(r->arg, i, slot, err);

	log_capture(old);
	if (rc)
		return -1;	/* its lines wait for those before it */
	pthread_mutex_lock(&r->lock);
	r->state[slot] = S_READY;
	r->next_start = i + 1;
	pthread_cond_signal(&r->work_cv);
	pthread_mutex_unlock(&r->lock);
	return 0;
}

/* Wait for item 'i', print what it said, finish it. */
static int finish_one(struct ring *r, size_t i, struct pb_err *err)
{
	size_t slot = i % r->nslots;
	int rc;

	pthread_mutex_lock(&r->lock);
	while (r->state[slot] != S_DONE)
		pthread_cond_wait(&r->done_cv, &r->lock);
	pthread_mutex_unlock(&r->lock);
	log_replay(&r->log[slot]);
	sb_reset(&r->log[slot]);
	rc = r->ops->finish(r->arg, i, slot, err);
	r->state[slot] = S_FREE;	/* no worker looks at a DONE slot */
	return rc;
}

/*
 * Keep up to 'nslots' items under way, finishing the oldest first. A
 * start() that fails counts after the items before it are finished, as
 * it would with one job. '*left' and '*end': the items started and not
 * finished when it stopped (release() is theirs).
 */
static int drive(struct ring *r, size_t n, size_t *left, size_t *end,
		 struct pb_err *err)
{
	struct pb_err failed;
	size_t fin = 0, next = 0, slot;
	int rc = 0;

	while (fin < n && !rc) {
		if (next == n || next - fin == r->nslots) {
			rc = finish_one(r, fin++, err);
			continue;
		}
		if (!start_one(r, next, &failed)) {
			next++;
			continue;
		}
		while (fin < next && !rc)
			rc = finish_one(r, fin++, err);
		if (!rc) {
			slot = next % r->nslots;
			log_replay(&r->log[slot]);
			sb_reset(&r->log[slot]);
			*err = failed;
			rc = -1;
		}
	}
	*left = fin;
	*end = next;
	return rc;
}

static void ring_release(struct ring *r)
{
	size_t i;

	for (i = 0; r->log && i < r->nslots; i++)
		sb_release(&r->log[i]);
	free(r->log);
	free(r->state);
	pthread_mutex_destroy(&r->lock);
	pthread_cond_destroy(&r->work_cv);
	pthread_cond_destroy(&r->done_cv);
}

static int ring_init(struct ring *r, const struct workers_ops *ops,
		     void *arg, size_t nslots)
{
	size_t i;

	memset(r, 0, sizeof(*r));
	r->ops = ops;
	r->arg = arg;
	r->nslots = nslots;
	pthread_mutex_init(&r->lock, NULL);
	pthread_cond_init(&r->work_cv, NULL);
	pthread_cond_init(&r->done_cv, NULL);
	r->state = calloc(nslots, sizeof(*r->state));
	r->log = calloc(nslots, sizeof(*r->log));
	if (!r->state || !r->log)
		return -1;
	for (i = 0; i < nslots; i++)
		sb_init(&r->log[i], LOG_MAX);
	return 0;
}

/* Let the workers go and wait for them. */
static void stop(struct ring *r, struct worker *w, size_t nw)
{
	size_t i;

	pthread_mutex_lock(&r->lock);
	r->quit = 1;
	pthread_cond_broadcast(&r->work_cv);
	pthread_mutex_unlock(&r->lock);
	for (i = 0; i < nw; i++)
		pthread_join(w[i].t, NULL);
}

int workers_run(const struct workers_ops *ops, void *arg, size_t n,
		size_t jobs, struct pb_err *err)
{
	struct worker w[WORKERS_MAX];
	size_t nw = 0, left = 0, end = 0, i;
	struct ring r;
	int rc;

	if (jobs > WORKERS_MAX)
		jobs = WORKERS_MAX;
	if (jobs <= 1 || n <= 1)
		return serial(ops, arg, n, err);
	if (ring_init(&r, ops, arg, workers_slots(jobs))) {
		ring_release(&r);
		return pb_fail(err, EX_OSERR, "out of memory");
	}
	for (; nw < jobs; nw++) {
		w[nw].r = &r;
		w[nw].index = nw;
		if (pthread_create(&w[nw].t, NULL, worker_main, &w[nw]))
			break;
	}
	if (!nw) {
		ring_release(&r);
		log_warn("no worker thread could start: one job");
		return serial(ops, arg, n, err);
	}
	rc = drive(&r, n, &left, &end, err);
	stop(&r, w, nw);
	/* started, maybe worked on, never finished: a failure stopped it */
	for (i = left; i < end; i++)
		if (ops->release)
			ops->release(arg, i % r.nslots);
	ring_release(&r);
	return rc;
}

static void *aside_main(void *p)
{
	struct workers_aside *a = p;

	a->fn(a->arg);
	return NULL;
}

void workers_aside_start(struct workers_aside *a, void (*fn)(void *arg),
			 void *arg)
{
	a->fn = fn;
	a->arg = arg;
	a->threaded = !pthread_create(&a->t, NULL, aside_main, a);
	if (!a->threaded)
		fn(arg);
}

void workers_aside_wait(struct workers_aside *a)
{
	if (a->threaded)
		pthread_join(a->t, NULL);
	a->threaded = 0;
}
