/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_STATE_WAKE_H
#define PERFBOT_STATE_WAKE_H

#include "perfbot/state/state.h"

/*
 * Waking the instances on one state when work is queued (src/state/
 * wake.c; issue 34 item 4). On PostgreSQL an instance that queues work
 * NOTIFYs the channel "perfbot" (delivered when its transaction
 * commits); one that waits has LISTENed on it and wakes within the
 * moment. SQLite has one run at a time: nothing is said, and a wait is
 * the time asked.
 */

/* Work was queued: say so to those listening. */
int state_wake_notify(struct state *st, struct pb_err *err);
/* Listen from now on (a wait hears what is said after this). */
int state_wake_listen(struct state *st, struct pb_err *err);
/*
 * Wait at most 'ms' milliseconds: '*woken' 1 when work was said to be
 * queued meanwhile (the wait then ends at once), 0 when the time ran out.
 */
int state_wake_wait(struct state *st, long ms, int *woken,
		    struct pb_err *err);

#endif
