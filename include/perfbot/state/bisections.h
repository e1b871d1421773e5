/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_BISECTIONS_H
#define PERFBOT_BISECTIONS_H

#include <stddef.h>
#include <time.h>

#include "perfbot/state/state.h"

/*
 * The bisections of ranges (record stage, src/state/bisections.c; issue
 * 33): one row each, its state the JSON form of judge/bisect_json.c
 * (rounds, points, runs; the state keeps it as text and knows no
 * bisection), its phase ("search", "verify" open; "culprit",
 * "inconclusive" done), the job its runs run and the range's manifest.
 * Its farm runs are rows of the requests table of kind "bisect" whose
 * report_id is the bisection's id.
 */

struct bisection_row {
	char *bisect_id, *report_id, *phase, *state, *job, *manifest;
	time_t deadline, created, updated;
};
void bisection_rows_free(struct bisection_row *r, size_t n);

/* Record a bisection; one already recorded under its id is kept. */
int state_bisection_add(struct state *st, const char *bisect_id,
			const char *report_id, const char *phase,
			const char *state_json, const char *job,
			const char *manifest, time_t deadline, time_t now,
			struct pb_err *err);

/* Its phase and state move on at 'now'. */
int state_bisection_set(struct state *st, const char *bisect_id,
			const char *phase, const char *state_json,
			time_t now, struct pb_err *err);

/* Bisection 'bisect_id' into '*out' (NULL when there is none). */
int state_bisection_get(struct state *st, const char *bisect_id,
			struct bisection_row **out, struct pb_err *err);

/*
 * The bisections of report 'report_id' (NULL: every one) whose phase is
 * open ('open' 1: "search", "verify") or any ('open' 0), oldest first.
 * Free with bisection_rows_free().
 */
int state_bisections(struct state *st, const char *report_id, int open,
		     struct bisection_row **out, size_t *n,
		     struct pb_err *err);

/*
 * Take an open bisection's round for 'ttl' seconds, as
 * state_request_claim() does a request; released when the round is done.
 */
int state_bisection_claim(struct state *st, const char *bisect_id, time_t now,
			  long ttl, int *claimed, struct pb_err *err);
int state_bisection_release(struct state *st, const char *bisect_id,
			    struct pb_err *err);

#endif
