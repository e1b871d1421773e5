/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_STATE_PRUNE_H
#define PERFBOT_STATE_PRUNE_H

#include <stddef.h>
#include <time.h>

#include "perfbot/state/state.h"

/* A result root perfbot asked the farm to make, for a request now over. */
struct done_root {
	char *kind;		/* "test", "verify" */
	char *request_id;
	char *result_root;
	time_t decided;		/* when it was over (else when asked) */
};

/*
 * The result roots of the tests and verify runs that are over (no longer
 * 'queued') since before 'before', oldest first, into a new '*out' of
 * '*n' (free with done_roots_free()). 0, or -1 with 'err'.
 */
int state_done_roots(struct state *st, time_t before, struct done_root **out,
		     size_t *n, struct pb_err *err);
void done_roots_free(struct done_root *v, size_t n);

#endif
