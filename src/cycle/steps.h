/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_CYCLE_STEPS_H
#define PERFBOT_CYCLE_STEPS_H

/*
 * The steps of the cycle that live beside cycle.c (internal to
 * src/cycle/): each returns 0, or -1 with 'err' to stop the cycle.
 */

#include "perfbot/cycle/cycle.h"
#include "perfbot/cycle/report.h"

/* ingest.c: every source's manifests judged, queued, held or skipped. */
int cycle_ingest(struct cycle *cy, struct pb_err *err);

/*
 * ingest.c: a report 'r' already made with o->draw (by a worker thread,
 * without the state) made again with the next draw while 'st' (NULL:
 * none) holds its Message-ID, at most ID_DRAWS times, so a collision
 * never stops the run (o->draw says which one was kept); here, not in
 * report.c, because the front end's 'report' needs no state. 0, or -1
 * with 'err' ('r' then released).
 */
int report_redraw_taken(struct report *r, const struct manifest *m,
			const struct config *cfg, struct report_opts *o,
			struct state *st, struct pb_err *err);

/* deliver.c: --dry-run's mbox: what was queued already, on stdout. */
int cycle_print(struct cycle *cy, struct pb_err *err);

/*
 * deliver.c: one mail of --dry-run's mbox on stdout at once (the new
 * reports are printed as they are made, nothing is kept to the end).
 */
int cycle_print_mail(const char *sender, time_t date, const char *msg,
		     size_t len, struct pb_err *err);

/* deliver.c: what is due goes out (all of it with retry_now). */
int cycle_deliver(struct cycle *cy, struct pb_err *err);

#endif
