// SPDX-License-Identifier: GPL-2.0-only
/*
 * record: waking the instances on one state (wake.h): PostgreSQL's
 * NOTIFY and LISTEN (pg_wake.c), taken by the backend's name; nothing
 * to say on SQLite, whose wait is a sleep.
 */
#include <string.h>
#include <time.h>

#include "perfbot/state/wake.h"
#include "internal.h"

static int on_server(const struct state *st)
{
	return !strcmp(st->be->name, "postgresql");
}

int state_wake_notify(struct state *st, struct pb_err *err)
{
	return on_server(st) ? pg_wake_notify(st, err) : 0;
}

int state_wake_listen(struct state *st, struct pb_err *err)
{
	return on_server(st) ? pg_wake_listen(st, err) : 0;
}

int state_wake_wait(struct state *st, long ms, int *woken,
		    struct pb_err *err)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	*woken = 0;
	if (on_server(st))
		return pg_wake_wait(st, ms, woken, err);
	nanosleep(&ts, NULL);	/* a signal ends it early: the loop stops */
	return 0;
}
