/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_ROOTCACHE_H
#define PERFBOT_ROOTCACHE_H

#include <stddef.h>

#include "perfbot/ingest/result.h"
#include "perfbot/util/err.h"

/*
 * Result roots read once per cron cycle: many manifests of a farm share
 * a root (every head of a branch against one base), so the cycle keeps
 * the roots it read, keyed by their directory and the size and
 * modification time of its matrix.json and job.yaml (a root whose runs
 * grew is read again). Callers get a copy that borrows the cached
 * root's data, read only, and give it back with result_root_release().
 * Roots nobody holds are kept, the most recently used first, while they
 * take less than the cache's budget of bytes, so memory stays bounded
 * whatever the number of manifests. Safe to use from several threads at
 * once; a root being read by one thread is waited for by the others.
 * http(s) roots are not cached (their size and time are unknown without
 * fetching them).
 */

struct root_cache;

/* A cache keeping up to 'idle_bytes' of roots nobody holds; NULL: ENOMEM. */
struct root_cache *root_cache_new(size_t idle_bytes);

/* Free the cache; every root it gave must have been released. */
void root_cache_free(struct root_cache *c);

/*
 * '*rr' is the root of 'dir', as result_root_load() reads it, from the
 * cache when it holds that root unchanged, else read and kept. With a
 * NULL cache: result_root_load(). The copy's runs may be cut with
 * result_root_keep_runs(); nothing else of it may be changed. 0, or -1
 * with 'err' as result_root_load() gives it ('*rr' then released).
 */
int root_cache_load(struct root_cache *c, struct result_root *rr,
		    const char *dir, struct pb_err *err);

struct root_cache_stats {
	size_t loads;	/* roots read */
	size_t hits;	/* roots given from the cache */
};

void root_cache_stats(struct root_cache *c, struct root_cache_stats *st);

#endif
