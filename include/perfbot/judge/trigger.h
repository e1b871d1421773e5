/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_TRIGGER_H
#define PERFBOT_TRIGGER_H

#include "perfbot/compare/compare.h"
#include "perfbot/compare/stats.h"

/*
 * When is a comparison's evidence too weak to mail at once, and does a
 * confirmation confirm? A report the noise filter would mail is mailed
 * straight away only when its headline metric has at least 'min_runs'
 * runs a side, Welch's p below TRIGGER_P_STRONG and a Mann-Whitney test
 * that agrees; otherwise it is confirmed by the sequential decision
 * (seq_params_confirm(), cycle/confirm.c). confirm_runs() and
 * confirm_verdict() are the fixed rule it replaced (13 new runs a side,
 * "stable" on them alone), kept for the simulation benchmarks (make
 * bench-sim, make bench-seq).
 */

#define TRIGGER_P_STRONG 0.001
#define TRIGGER_P_CANDIDATE 0.5
#define CONFIRM_LEAST_RUNS 4

struct confirm_policy {
	int enabled;
	long total_runs;	/* a side, the confirmation runs included */
	long min_runs;	/* fewer initial runs a side are never enough */
};

/*
 * Runs to ask for a side when the headline has 'have' runs a side (the
 * fewer side): up to total_runs in all, at least CONFIRM_LEAST_RUNS.
 */
long confirm_runs(const struct confirm_policy *p, size_t have);

/* 1 when the evidence 'ev' of a headline is too weak to mail at once. */
int trigger_weak(const struct confirm_policy *p, const struct evidence *ev);

/*
 * 1 when the testcase's key metric 'key', which the noise filter does not
 * show, still looks changed (Welch's p < TRIGGER_P_CANDIDATE): worth
 * confirmation runs, never a mail on its own. With few runs the filter
 * misses real changes; the confirmation keeps the false ones out.
 */
int trigger_candidate(const struct cmp_row *key);

enum trigger_action { TRIGGER_SKIP, TRIGGER_MAIL, TRIGGER_CONFIRM };

/*
 * What to do with a new comparison: 'worth' when the filter gives it a
 * headline, 'candidate' when it does not but trigger_candidate() holds;
 * 'ev' the evidence of the headline (or of the candidate).
 */
enum trigger_action trigger_action(const struct confirm_policy *p,
				   int worth, int candidate,
				   const struct evidence *ev);

/*
 * The verdict of the confirmation runs: 'fresh' is the headline metric
 * compared over the new runs only, 'reported' the change the held report
 * shows. VERDICT_STABLE confirms.
 */
enum verdict confirm_verdict(const struct cmp_row *fresh, double reported);

#endif
