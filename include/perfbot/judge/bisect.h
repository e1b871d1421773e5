/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_BISECT_H
#define PERFBOT_BISECT_H

#include <stddef.h>

#include "perfbot/compare/sequential.h"
#include "perfbot/ingest/bisect_range.h"
#include "perfbot/util/err.h"

/*
 * judge: find the first bad commit of a range by a probabilistic
 * (Bayesian) bisection (issue 33; doc/bisect.md). Pure: no farm, no
 * state file; the caller asks the farm what bisect_next() says and hands
 * back what came (bisect_add_runs(), bisect_skip()).
 *
 * The points of a bisection are p[0] the base (good), then the candidates
 * oldest first, the last of them the head (bad): p[1..n]. Hypothesis k
 * (1 <= k <= n) is "p[k] is the first bad commit": p[0..k-1] run at the
 * good mean, p[k..n] at the bad one. Every run taken feeds the posterior
 * over k: the base's and head's runs and each bisection run. The
 * likelihood of k is the marginal one of a normal model with a good and a
 * bad mean and one noise (flat priors on the means, 1/sigma^2 on the
 * variance, integrated out), so the endpoints' uncertainty is in it and
 * the runs of a commit count as runs of one mean:
 *     L(k) ~ nG^-1/2 nB^-1/2 SS(k)^-(N-2)/2
 * with nG, nB the runs on either side of k, N all of them and SS(k) the
 * sum of squares within the two sides. A commit that failed to build (a
 * skip, as 'git bisect skip') cannot be the first bad commit: its
 * hypothesis has prior 0 and the first bad commit is the first one that
 * builds (bisect_verdict.skipped_before says how many did not before it).
 *
 * Each round asks, in one farm round trip, 'per_round' commits at the
 * posterior's quantiles 1/(m+1) .. m/(m+1), 'runs_each' runs each (a
 * commit picked twice gets the runs of both picks). When one commit holds
 * P >= 'confidence', the sandwich verifies it: seq_decide() on the runs of
 * its parent (the nearest earlier point that builds, the base at worst)
 * against its own, asking more runs of both while it says so. Only
 * "changed" names the culprit. At the run or round budget, or when the
 * sandwich says "not changed" or "inconclusive", the bisection is
 * inconclusive with the shortest range of commits holding 'confidence' of
 * the posterior.
 */

#define BISECT_MAX_ASK 8	/* commits asked in one round */
#define BISECT_MAX_RUNS_AT 1000	/* runs one point may hold */
#define BISECT_METRIC_MAX 256	/* bytes of the metric's name */

struct bisect_params {
	double confidence;	/* (0.5, 1): 0.999 */
	long max_runs;		/* runs the bisection may ask, 1..100000: 80 */
	long max_rounds;	/* farm round trips, 1..1000: 12 */
	int per_round;		/* commits a round, 1..BISECT_MAX_ASK: 3 */
	int runs_each;		/* runs a commit a round, 1..100: 2 */
	int direction;		/* bad against good: +1 higher, -1 lower,
				 * 0 either (the sandwich two-sided) */
};

/* The defaults above, direction -1. */
void bisect_params_default(struct bisect_params *p);

/*
 * The sandwich's design: seq_params_default() (power 96% on 5% at CV 2%,
 * looks at 3, 5, 8 runs a side) at alpha BISECT_SANDWICH_ALPHA one-sided
 * in 'direction': the posterior has already put P >= 'confidence' on the
 * culprit, the sandwich guards against the model being wrong, and at 1%
 * it would need 5 runs a side where 3 do (bench-bisect, doc/bisect.md).
 */
#define BISECT_SANDWICH_ALPHA 0.05
void bisect_sandwich_params(struct seq_params *sp, int direction);

struct bisect_point {
	char sha[GIT_SHA_HEX];
	unsigned marks;			/* enum bisect_mark */
	char tag[BISECT_TAG_MAX];
	int skipped;			/* failed to build */
	double *runs;			/* in the order they came */
	size_t nruns, cap;
};

enum bisect_phase {
	BISECT_SEARCH,		/* asking at the quantiles */
	BISECT_VERIFY,		/* the sandwich of one commit */
	BISECT_CULPRIT,		/* done: the culprit is verified */
	BISECT_INCONCLUSIVE,	/* done: a range, no culprit */
};

/* Why a bisection ended inconclusive. */
enum bisect_why {
	BISECT_WHY_NONE,
	BISECT_WHY_BUDGET,	/* max_runs reached */
	BISECT_WHY_ROUNDS,	/* max_rounds reached */
	BISECT_WHY_SANDWICH,	/* the sandwich: "not changed" */
	BISECT_WHY_UNSURE,	/* the sandwich: "inconclusive" */
	BISECT_WHY_WAY,		/* the ends differ against 'direction' */
	BISECT_WHY_COUNT
};

/* Runs of one point as they came: the order of the charts. */
struct bisect_batch {
	size_t at;		/* the point */
	size_t n;		/* its next n runs */
	long round;		/* asked in round 'round' (0: before the
				 * first, the report's own) */
};

struct bisect {
	struct bisect_params par;
	char metric[BISECT_METRIC_MAX];
	struct bisect_point *p;	/* npoints = n + 1: base, candidates */
	size_t n;		/* candidates; p[n] is the head */
	long runs, rounds;	/* asked so far (not the endpoints' own) */
	enum bisect_phase phase;
	size_t culprit;		/* VERIFY, CULPRIT: the commit at stake */
	int why;		/* INCONCLUSIVE: enum bisect_why */
	double *post;		/* post[k]: P(first bad is p[k]), k 1..n;
				 * as of the last bisect_next() */
	struct bisect_batch *log;	/* every bisect_add_runs(), in order */
	size_t nlog, logcap;
};

/*
 * A new bisection into 'b' (released first): the metric followed, base
 * 'base' with its runs, the candidates 'r' (r->c[r->n - 1] the head) and
 * the head's runs. EX_DATAERR on parameters out of range, fewer than 1
 * run at an end or 2 in all, a value that is not finite, more than
 * BISECT_MAX_RUNS_AT runs or BISECT_RANGE_MAX candidates; EX_OSERR.
 */
int bisect_init(struct bisect *b, const struct bisect_params *par,
		const char *metric, const char *base, const double *base_runs,
		size_t nbase, const struct bisect_range *r,
		const double *head_runs, size_t nhead, struct pb_err *err);

/* Free everything; 'b' is left released (zeroed). Safe twice. */
void bisect_release(struct bisect *b);

/* The point of commit 'sha' (full), 0 for the base; -1 when none. */
long bisect_find(const struct bisect *b, const char *sha);

/*
 * Runs of point 'at' came. EX_DATAERR when 'at' is out of range or
 * skipped, a value is not finite, or past BISECT_MAX_RUNS_AT.
 */
int bisect_add_runs(struct bisect *b, size_t at, const double *v, size_t n,
		    struct pb_err *err);

/*
 * Point 'at' failed to build or boot (a candidate, not the head, with no
 * runs): it is skipped. EX_DATAERR otherwise.
 */
int bisect_skip(struct bisect *b, size_t at, struct pb_err *err);

struct bisect_ask {
	size_t at;		/* the point */
	long runs;
};

struct bisect_verdict {
	size_t culprit, parent;	/* CULPRIT, VERIFY: the points */
	double p;		/* the culprit's posterior */
	unsigned marks;		/* the culprit's */
	size_t skipped_before;	/* commits between parent and culprit
				 * that did not build */
	size_t lo, hi;		/* INCONCLUSIVE: the change is after p[lo]
				 * and at or before p[hi] */
	size_t ncommits;	/* hi - lo */
	struct seq_decision seq;	/* the sandwich's last answer */
	const char *why;	/* INCONCLUSIVE: why */
};

struct bisect_step {
	enum bisect_phase phase;	/* SEARCH, VERIFY: ask; else done */
	size_t nask;
	struct bisect_ask ask[BISECT_MAX_ASK];
	struct bisect_verdict v;
};

/*
 * One round: the posterior of every run so far, then what to ask (counted
 * as a round and its runs: call once a round, after its answers), or the
 * end (CULPRIT or INCONCLUSIVE, then always the same). 'd' is the
 * sandwich's sequential design; its direction must be par.direction
 * (EX_SOFTWARE otherwise). EX_OSERR when memory ran out.
 */
int bisect_next(struct bisect *b, const struct seq_design *d,
		struct bisect_step *st, struct pb_err *err);

/*
 * Recompute b->post from every run (bisect_next() does it first); for
 * showing the candidates' probabilities.
 */
void bisect_posterior(struct bisect *b);

/* The candidate of the highest posterior (the head on ties). */
size_t bisect_top(const struct bisect *b);

/*
 * How the verdict judges point 'at' (for the charts: bisect-good and
 * bisect-bad samples): -1 good (before the culprit), +1 bad (the culprit
 * and after), 0 when there is no culprit yet or 'at' did not build.
 */
int bisect_judged(const struct bisect *b, size_t at);

/*
 * The verdict of a bisection that is done, as bisect_next() gave it last
 * (the posterior recomputed; 'seq' left zero: the sandwich's design is
 * not needed to say what it decided): for a report made once it is over.
 * EX_DATAERR when 'b' is still searching or verifying.
 */
int bisect_verdict_of(struct bisect *b, struct bisect_verdict *v,
		      struct pb_err *err);

/* "search", "verify", "culprit", "inconclusive". */
const char *bisect_phase_name(enum bisect_phase ph);

/* enum bisect_why as a phrase ("the run budget ran out"); "" for none. */
const char *bisect_why_text(int why);

/*
 * The bisection as JSON (every field but the posterior, which
 * bisect_next() recomputes), malloc'ed; NULL when memory ran out.
 */
char *bisect_to_json(const struct bisect *b);

/*
 * A bisection from bisect_to_json()'s text into 'b' (released first).
 * EX_DATAERR naming the field on anything missing, malformed or out of
 * range (the limits of bisect_init()).
 */
int bisect_from_json(struct bisect *b, const char *json, struct pb_err *err);

#endif
