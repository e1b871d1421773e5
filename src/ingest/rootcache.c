// SPDX-License-Identifier: GPL-2.0-only
/*
 * ingest: the result roots of one cron cycle, each read once
 * (rootcache.h). Entries are a list, most recently used first; a mutex
 * guards it and the entries' counts, a condition variable wakes the
 * threads that wait for a root another thread is reading. The roots
 * themselves are only read once they are in the list.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "perfbot/ingest/rootcache.h"
#include "perfbot/util/fileio.h"
#include "rootcache_internal.h"

/* What says a root is the one read: its files' identity, size and time. */
struct root_key {
	dev_t dev[2];
	ino_t ino[2];
	off_t size[2];
	struct timespec mtime[2];
};

struct root_entry {
	struct root_cache *cache;
	struct root_entry *prev, *next;
	char *dir;
	struct root_key key;
	struct result_root root;
	size_t bytes;		/* about what the root holds in memory */
	size_t refs;		/* copies given out and not released */
	int loading;		/* being read by one thread */
};

struct root_cache {
	pthread_mutex_t lock;
	pthread_cond_t loaded;
	struct root_entry *head;
	size_t idle_bytes, idle_max;
	struct root_cache_stats st;
};

/* matrix.json and job.yaml; a missing job.yaml (one in a run) counts
 * as a file of no size. -1: no matrix.json, so nothing to cache. */
static int key_of(const char *dir, struct root_key *k)
{
	static const char *const name[2] = { "matrix.json", "job.yaml" };
	struct stat sb;
	char *path;
	int i, rc;

	memset(k, 0, sizeof(*k));
	for (i = 0; i < 2; i++) {
		path = path_join(dir, name[i]);
		rc = path ? stat(path, &sb) : -1;
		free(path);
		if (rc && i == 0)
			return -1;
		if (rc)
			continue;
		k->dev[i] = sb.st_dev;
		k->ino[i] = sb.st_ino;
		k->size[i] = sb.st_size;
		k->mtime[i] = sb.st_mtim;
	}
	return 0;
}

static int same_key(const struct root_key *a, const struct root_key *b)
{
	int i;

	for (i = 0; i < 2; i++)
		if (a->dev[i] != b->dev[i] || a->ino[i] != b->ino[i] ||
		    a->size[i] != b->size[i] ||
		    a->mtime[i].tv_sec != b->mtime[i].tv_sec ||
		    a->mtime[i].tv_nsec != b->mtime[i].tv_nsec)
			return 0;
	return 1;
}

static size_t root_bytes(const struct result_root *rr, const struct root_key *k)
{
	return (size_t)k->size[0] + (size_t)k->size[1] +
		rr->nmetrics * (rr->runs * 9 + sizeof(struct metric) + 32);
}

static void unlink_entry(struct root_cache *c, struct root_entry *e)
{
	if (e->prev)
		e->prev->next = e->next;
	else
		c->head = e->next;
	if (e->next)
		e->next->prev = e->prev;
	e->prev = e->next = NULL;
}

static void push_front(struct root_cache *c, struct root_entry *e)
{
	e->prev = NULL;
	e->next = c->head;
	if (c->head)
		c->head->prev = e;
	c->head = e;
}

static void entry_free(struct root_entry *e)
{
	if (!e)
		return;
	result_root_release(&e->root);
	free(e->dir);
	free(e);
}

/* Drop the least recently used roots nobody holds past the budget; they
 * are handed back in '*gone' (a list through 'next') to free unlocked. */
static void trim(struct root_cache *c, struct root_entry **gone)
{
	struct root_entry *e = c->head, *last = NULL;

	while (e) {
		last = e;
		e = e->next;
	}
	for (e = last; e && c->idle_bytes > c->idle_max; e = last) {
		last = e->prev;
		if (e->refs || e->loading)
			continue;
		c->idle_bytes -= e->bytes;
		unlink_entry(c, e);
		e->next = *gone;
		*gone = e;
	}
}

static void free_list(struct root_entry *e)
{
	struct root_entry *next;

	for (; e; e = next) {
		next = e->next;
		entry_free(e);
	}
}

void root_entry_put(struct root_entry *e)
{
	struct root_cache *c = e->cache;
	struct root_entry *gone = NULL;

	pthread_mutex_lock(&c->lock);
	if (!--e->refs) {
		c->idle_bytes += e->bytes;
		trim(c, &gone);
	}
	pthread_mutex_unlock(&c->lock);
	free_list(gone);
}

struct root_cache *root_cache_new(size_t idle_bytes)
{
	struct root_cache *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	pthread_mutex_init(&c->lock, NULL);
	pthread_cond_init(&c->loaded, NULL);
	c->idle_max = idle_bytes;
	return c;
}

void root_cache_free(struct root_cache *c)
{
	if (!c)
		return;
	free_list(c->head);
	pthread_mutex_destroy(&c->lock);
	pthread_cond_destroy(&c->loaded);
	free(c);
}

void root_cache_stats(struct root_cache *c, struct root_cache_stats *st)
{
	pthread_mutex_lock(&c->lock);
	*st = c->st;
	pthread_mutex_unlock(&c->lock);
}

/* The copy given out: the cached root's data, borrowed. */
static void lend(struct root_entry *e, struct result_root *rr)
{
	*rr = e->root;
	rr->shared = e;
}

/*
 * Under the lock: the entry of 'dir' with key 'k' (waiting while another
 * thread reads it), taken by the caller; NULL when there is none (a
 * stale one is dropped into '*gone' when nobody holds it).
 */
static struct root_entry *find(struct root_cache *c, const char *dir,
			       const struct root_key *k,
			       struct root_entry **gone)
{
	struct root_entry *e;

again:
	for (e = c->head; e; e = e->next) {
		if (strcmp(e->dir, dir))
			continue;
		if (e->loading) {
			pthread_cond_wait(&c->loaded, &c->lock);
			goto again;	/* the list may have changed */
		}
		if (same_key(&e->key, k))
			break;
		if (!e->refs) {	/* changed since: nobody needs the old one */
			c->idle_bytes -= e->bytes;
			unlink_entry(c, e);
			e->next = *gone;
			*gone = e;
			goto again;
		}
	}
	if (!e)
		return NULL;
	if (!e->refs++)
		c->idle_bytes -= e->bytes;
	unlink_entry(c, e);
	push_front(c, e);
	c->st.hits++;
	return e;
}

/* Read the root of a new entry, unlocked; it stays only when its files
 * did not change meanwhile (else only this copy has it). */
static int fill(struct root_cache *c, struct root_entry *e,
		struct result_root *rr, struct pb_err *err)
{
	struct root_key after;
	int rc = result_root_load(&e->root, e->dir, err), keep;

	keep = !rc && !key_of(e->dir, &after) && same_key(&after, &e->key);
	pthread_mutex_lock(&c->lock);
	e->loading = 0;
	c->st.loads += !rc;
	unlink_entry(c, e);
	if (keep) {
		e->bytes = root_bytes(&e->root, &e->key);
		push_front(c, e);
	}
	pthread_cond_broadcast(&c->loaded);
	pthread_mutex_unlock(&c->lock);
	if (!keep) {
		/* a root of its own, released as any */
		*rr = e->root;
		memset(&e->root, 0, sizeof(e->root));
		entry_free(e);
		return rc;
	}
	lend(e, rr);
	return 0;
}

int root_cache_load(struct root_cache *c, struct result_root *rr,
		    const char *dir, struct pb_err *err)
{
	struct root_entry *e, *gone = NULL;
	struct root_key k;

	if (!c || !strncmp(dir, "http://", 7) || !strncmp(dir, "https://", 8) ||
	    key_of(dir, &k))
		return result_root_load(rr, dir, err);
	pthread_mutex_lock(&c->lock);
	e = find(c, dir, &k, &gone);
	if (e) {
		pthread_mutex_unlock(&c->lock);
		free_list(gone);
		lend(e, rr);
		return 0;
	}
	e = calloc(1, sizeof(*e));
	if (e && !(e->dir = strdup(dir))) {
		free(e);
		e = NULL;
	}
	if (e) {
		e->cache = c;
		e->key = k;
		e->refs = 1;
		e->loading = 1;
		push_front(c, e);
	}
	pthread_mutex_unlock(&c->lock);
	free_list(gone);
	if (!e) {
		memset(rr, 0, sizeof(*rr));
		return pb_fail(err, EX_OSERR, "out of memory");
	}
	return fill(c, e, rr, err);
}
