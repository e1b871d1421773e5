/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_STATUS_H
#define PERFBOT_STATUS_H

#include <stddef.h>
#include <time.h>

#include "perfbot/state/state.h"

/*
 * What the state holds, for 'perfbot status' and the run summary: the
 * outbox (queued mail, its next attempt and last error; recent failures),
 * the requests of the farm (in flight by kind, and every one of every
 * kind, finished too), the mailbox position. Each
 * part is one query of a table (status.c, sections[]); a part whose table
 * the state does not have is left out, so a new table is one more line.
 */

/* One value of a row: nothing, a number (times: Unix seconds), a text. */
enum status_type { STATUS_NULL, STATUS_INT, STATUS_REAL, STATUS_TEXT };
struct status_value {
	enum status_type type;
	long long i;
	double r;
	char *s;
};

/* One part: 'nrows' rows of the 'ncols' columns named 'cols'. */
struct status_part {
	const char *name;		/* "queued", "requests"... (static) */
	char **cols;
	size_t ncols, nrows;
	struct status_value *cells;	/* row r, column c: [r * ncols + c] */
};

/* The outbox's counts ('has_outbox' 0: no outbox table yet). */
struct status_counts {
	int has_outbox;
	long long queued, sent, sent_last_hour, failed, dropped;
};

/* Everything, as typed rows; cli/ and web/ make text, JSON and pages. */
struct status {
	char *state;			/* where it is */
	time_t now;
	struct status_counts outbox;
	struct status_part *parts;	/* in the order shown */
	size_t nparts;
};
int state_status(struct state *st, time_t now, struct status *out,
		 struct pb_err *err);
void status_release(struct status *s);
/* Part 'name' of 's', or NULL when the state has not its table. */
const struct status_part *status_part(const struct status *s,
				      const char *name);
/* Column 'col' of row 'row' of 'p', or NULL when it has none. */
const struct status_value *status_cell(const struct status_part *p,
				       size_t row, const char *col);

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
