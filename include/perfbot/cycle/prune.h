/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_PRUNE_H
#define PERFBOT_PRUNE_H

#include <time.h>

#include "perfbot/config/config.h"
#include "perfbot/state/state.h"

struct prune_stats {
	long removed;		/* result roots removed (or, dry, to be) */
	long long bytes;	/* their files' sizes */
	long skipped;		/* not a directory perfbot made: left */
};

/*
 * 'perfbot state prune': remove the result roots perfbot made under
 * scheduler.results_dir for tests and verify runs that have been over for
 * scheduler.results_keep seconds (with a test's REQUEST_ID.patch beside
 * it). Only a directory whose path is exactly results_dir/REQUEST_ID of a
 * request the state holds is touched, never through a symbolic link nor
 * across a mount point; anything else is left and counted in 'skipped'.
 * 'dry' removes nothing and counts what would go. 0, or -1 with 'err'
 * (EX_CONFIG when results_keep or results_dir is not set).
 */
int results_prune(const struct config *cfg, struct state *st, time_t now,
		  int dry, struct prune_stats *ps, struct pb_err *err);

#endif
