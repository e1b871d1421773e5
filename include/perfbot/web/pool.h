/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_WEB_POOL_H
#define PERFBOT_WEB_POOL_H

#include <stddef.h>

#include <jansson.h>

#include "perfbot/util/err.h"

/*
 * Work shared among worker processes: the report pages of a first build
 * of the web archive are thousands of comparisons, each independent. A
 * worker is a fork of the builder, with its own copy of everything; it
 * opens what may not cross a fork (the state's connection) in
 * 'start', makes its share of the items (every nw-th) and sends each
 * item's result (JSON) back over a pipe, where 'take' gets it in the
 * builder. With one worker, or few items, all happens in the builder
 * itself, without a fork.
 */

struct pool_ops {
	/* In a new worker, before its first item. */
	int (*start)(void *arg, struct pb_err *err);
	/* Make item 'index'; '*result' a new JSON value. */
	int (*make)(void *arg, size_t index, json_t **result,
		    struct pb_err *err);
	/* In the builder: the result of item 'index' (borrowed). */
	int (*take)(void *arg, size_t index, json_t *result,
		    struct pb_err *err);
};

/*
 * The 'n' items of 'items' in at most 'nw' workers. 0, or -1 with the
 * first failure (of any worker or of 'take'); every worker is waited
 * for, whatever happened.
 */
int pool_run(const struct pool_ops *ops, void *arg, const size_t *items,
	     size_t n, size_t nw, struct pb_err *err);

/* How many workers a build uses: 'jobs', or (0) one per core, at most 8. */
size_t pool_workers(long jobs);

#endif
