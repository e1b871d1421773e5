/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_BISECT_INTERNAL_H
#define PERFBOT_BISECT_INTERNAL_H

#include "perfbot/judge/bisect.h"

/*
 * Shared by bisect.c and bisect_json.c only: the checks and allocation a
 * bisection made by bisect_init() and one read back from JSON share.
 */

/* EX_DATAERR naming the parameter out of range. */
int bisect_params_check(const struct bisect_params *p, struct pb_err *err);

/* b->p and b->post for 'n' candidates (1..BISECT_RANGE_MAX), zeroed. */
int bisect_alloc(struct bisect *b, size_t n, struct pb_err *err);

/* Append a batch to b->log (bisect_add_runs() does it). */
int bisect_log(struct bisect *b, size_t at, size_t n, long round,
	       struct pb_err *err);

#endif
