/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_CYCLE_STEPS_H
#define PERFBOT_CYCLE_STEPS_H

/*
 * The steps of the cycle that live beside cycle.c (internal to
 * src/cycle/): each returns 0, or -1 with 'err' to stop the cycle.
 */

#include "perfbot/cycle/cycle.h"

/* ingest.c: every source's manifests judged, queued, held or skipped. */
int cycle_ingest(struct cycle *cy, struct pb_err *err);

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
