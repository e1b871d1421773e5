/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_ACT_BISECT_H
#define PERFBOT_ACT_BISECT_H

#include <stddef.h>
#include <time.h>

#include "perfbot/act/dispatch.h"
#include "perfbot/config/config.h"
#include "perfbot/ingest/gittree.h"
#include "perfbot/judge/bisect.h"
#include "perfbot/state/state.h"
#include "perfbot/state/status.h"
#include "perfbot/util/err.h"

/*
 * act: the rounds driver of a bisection through the farm (issue 33;
 * doc/bisect.md). A bisection is a row of the bisections table (its
 * state, judge/bisect_json.c's form); each round is one farm round trip:
 * its commits are requests of kind "bisect" (report_id the bisection's
 * id), several in flight at once, each into a new result root of
 * scheduler.results_dir. Each cycle bisect_act_round() reads the due
 * round's landed runs into the bisection (the farm's error file a skip,
 * as 'git bisect skip'), and once all of it is in asks the next round
 * (bisect_next(): the posterior's quantiles, then the sandwich of the
 * culprit against its parent) in one go, until one commit holds
 * bisect.confidence and the sandwich says "changed", or the run or round
 * budget or the deadline ends it as inconclusive.
 */

/* What a bisection starts from: the range report's. */
struct bisect_start {
	const char *report_id;	/* the range's report */
	const char *manifest;	/* its manifest, kept for the report */
	const char *job;	/* the job.yaml the farm runs */
	const char *metric;	/* the followed KPI (the headline) */
	int direction;		/* bad against good: -1 lower, +1 higher,
				 * 0 either */
	const char *base, *head;	/* full shas */
	const double *base_runs, *head_runs;
	size_t nbase, nhead;
};

/* The bisection of report 'report_id': "bisect-<report id>", malloc'ed. */
char *bisect_id_of(const char *report_id);

/*
 * Start the bisection of s->base..s->head: the candidates from tracked
 * tree 't' (bisect_range_list()), the parameters of cfg->bisect, its row
 * recorded (deadline: max_rounds times scheduler.deadline from 'now');
 * its first round is asked by the next bisect_act_round() (the cycle's
 * follow-up step), so it may be started inside the caller's transaction
 * (a reply's). A bisection of the report already recorded is left as it
 * is. EX_DATAERR for a range that is none (bisect_range_list()) or runs
 * bisect_init() refuses.
 */
int bisect_act_start(struct state *st, const struct config *cfg,
		     struct gittree *t, const struct bisect_start *s,
		     time_t now, struct pb_err *err);

/* What one bisect_act_round() did. */
struct bisect_round {
	enum bisect_phase phase;	/* after it */
	size_t landed;		/* requests whose runs came in */
	size_t skipped;		/* commits that did not build */
	size_t waiting;		/* requests of the due round still out */
	size_t asked;		/* requests of the next round asked */
	long round;		/* rounds so far */
};

/*
 * One cycle of bisection 'bisect_id': its due round's requests read
 * (runs added, a farm error file a skip, one past its deadline dropped
 * as a skip), and when none is still out the next round asked in one
 * round trip; the state saved. A bisection past its own deadline stops
 * inconclusive. 0 with 'out', or -1 with 'err' (EX_DATAERR when there is
 * no such bisection or its state is broken).
 */
int bisect_act_round(struct state *st, const struct config *cfg,
		     const char *bisect_id, time_t now,
		     struct bisect_round *out, struct pb_err *err);

/*
 * Every bisection as part "bisections" of 'perfbot status' and the web's
 * status page (src/act/bisect_status.c), appended to 'so' (which
 * state_status() filled; status_release() frees the part with the
 * others): one row each, oldest first, with its id, report_id, phase,
 * metric, candidates (the commits of its range), rounds and runs (asked
 * so far), max_runs (its budget), top (the likeliest commit) and top_p
 * (its posterior), culprit (once verified), why (it ended inconclusive)
 * and updated (Unix seconds). A bisection whose state cannot be read has
 * phase "unreadable" and the reason as 'why'.
 */
int bisect_status_add(struct state *st, struct status *so,
		      struct pb_err *err);

/* What bisect_followups() did, over every open bisection. */
struct bisect_stats {
	size_t open, asked, landed, done, answered;
};

/*
 * bisect_act_round() of every open bisection, oldest first, then the
 * threads whose 'bisect' command is done answered (bisect_answers()).
 */
int bisect_followups(struct state *st, const struct config *cfg,
		     time_t now, struct bisect_stats *bs,
		     struct pb_err *err);

/*
 * The 'bisect' mail command (src/act/bisect_reply.c): no argument; in a
 * report's thread it starts the bisection of the report's range, records
 * the asker's thread with a request of kind "bisect" whose id is the
 * bisection's, and says so (templates/bisect-ack.txt), or why not
 * (bisect-refused.txt: not set up, already bisected, no range in the
 * tracked tree). Authorized as 'test' is: the report's recipients and
 * commands.allow.
 */
int bisect_cmd_parse(const char *args, struct mail_command *c);
int bisect_cmd_check(const struct mail_command *c,
		     const struct command_limits *l, char *why, size_t whylen);
int bisect_cmd_act(struct act_ctx *a, const struct mail_command *c,
		   size_t index, struct pb_err *err);

/*
 * The threads whose 'bisect' is done answered (templates/bisect-result.txt:
 * the culprit and how it was found, or the range it is in), each with its
 * request ended, in one transaction each; '*answered' how many.
 */
int bisect_answers(struct state *st, const struct config *cfg, time_t now,
		   size_t *answered, struct pb_err *err);

#endif
