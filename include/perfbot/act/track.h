/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_TRACK_H
#define PERFBOT_TRACK_H

#include <time.h>

#include "perfbot/render/context.h"
#include "perfbot/config/config.h"
#include "perfbot/state/records.h"
#include "perfbot/state/state.h"

/*
 * act: the fixes found in the tracked tree (tracking.repo,
 * tracking.branches). Each run walks, per branch, only the commits new
 * since the last walk (the tip is remembered; a force-push is seen when
 * the old tip is no ancestor of the new one, and its new commits are
 * walked again), and matches each with the records still followed
 * (ingest/trailers.h: Closes:, Link:, Reported-by: with the link or the
 * Message-ID, the title or sha 'fix:' named). A fix named by 'fix:' is
 * looked for once in the history too (back to a month before its
 * report). A match makes the record 'fix landed'; a revert of the fix,
 * or a force-push that drops it, takes it back. Each branch's findings,
 * their answers in the reports' threads and its new tip are one
 * transaction: a crash walks the same commits again and finds the
 * records as they were, so no transition is answered twice.
 */

#define TRACK_SLACK (30L * 24 * 3600)	/* a fix may predate its report */
#define TRACK_MAX_COMMITS 2000000	/* commits walked a branch and run */

struct track_stats {
	long branches, walked;	/* commits looked at */
	long landed, gone;	/* transitions: fixes found, reverted/dropped */
	long verify;		/* runs asked on the fixes */
};

/*
 * For 'perfbot check': the repository opens and each branch has a tip
 * ('line' says where each points); tracking.verify has a scheduler and
 * scheduler.results_dir to ask. EX_CONFIG naming the key else.
 */
int track_check(const struct config *cfg, char *line, size_t len,
		struct pb_err *err);

/* One run's walk; nothing when tracking.repo is not set. */
int track_step(struct state *st, const struct config *cfg, time_t now,
	       struct track_stats *ts, struct pb_err *err);

/*
 * Queue, in the thread of the report of record 'r', an answer made of the
 * piece templates/<tmpl>.txt with the context built in 'c' (released):
 * To the report's first
 * recipient, Cc the others; 'tag' makes its id (one answer per tag).
 * Opens no transaction.
 */
int track_answer(struct state *st, const struct config *cfg,
		 const struct record *r, const char *tmpl, struct ctx *c,
		 const char *tag, time_t now, struct pb_err *err);

#endif
