// SPDX-License-Identifier: GPL-2.0-only
/*
 * record: waking the instances on one state (wake.h) by the backend's
 * wake_* (PostgreSQL's NOTIFY and LISTEN, pg_wake.c); nothing to say on
 * SQLite, whose wait is a sleep.
 */
#include <time.h>

#include "perfbot/state/wake.h"
#include "internal.h"

int state_wake_notify(struct state *st, struct pb_err *err)
{
	return st->be->wake_notify ? st->be->wake_notify(st, err) : 0;
}

int state_wake_listen(struct state *st, struct pb_err *err)
{
	return st->be->wake_listen ? st->be->wake_listen(st, err) : 0;
}

int state_wake_wait(struct state *st, long ms, int *woken,
		    struct pb_err *err)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	*woken = 0;
	if (st->be->wake_wait)
		return st->be->wake_wait(st, ms, woken, err);
	nanosleep(&ts, NULL);	/* a signal ends it early: the loop stops */
	return 0;
}
