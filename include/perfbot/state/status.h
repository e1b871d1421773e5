/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_STATUS_H
#define PERFBOT_STATUS_H

#include <stddef.h>
#include <time.h>

#include <jansson.h>

#include "perfbot/state/state.h"

/*
 * What the state holds, for 'perfbot status' and the run summary: the
 * outbox (queued mail, its next attempt and last error; recent failures),
 * the requests of the farm (in flight by kind, and every one of every
 * kind, finished too), the mailbox position. Each
 * part is one query of a table (status.c, sections[]); a part whose table
 * the state does not have is left out, so a new table is one more line.
 */

/* Everything as one JSON object; times are Unix seconds. */
int state_status(struct state *st, time_t now, json_t **out,
		 struct pb_err *err);

/* The earliest next attempt of the queued mail, and its last error. */
struct status_next {
	time_t when;		/* 0: nothing queued */
	char *last_error;	/* or NULL */
};
int state_next_attempt(struct state *st, struct status_next *nx,
		       struct pb_err *err);
void status_next_release(struct status_next *nx);

/* 'perfbot send --now': every queued mail is due at 'now' (once). */
int state_retry_now(struct state *st, time_t now, long *n,
		    struct pb_err *err);

/*
 * "2026-12-01 09:00:00 UTC (in 4 min)", or "(... ago)", for 'when' seen
 * from 'now'.
 */
void status_when(time_t when, time_t now, char *buf, size_t len);

#endif
