/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_SEQUENTIAL_H
#define PERFBOT_SEQUENTIAL_H

#include <stddef.h>

#include "perfbot/compare/stats.h"
#include "perfbot/util/err.h"

/*
 * Decide with the fewest runs: a group-sequential comparison of two
 * commits. The farm runs both sides in batches ("looks": 3, then 5, then
 * 8 runs a side in all); after each batch one call, seq_decide(), says
 * "changed", "not changed", or "run K more a side" (and, at the last look
 * without a decision, "inconclusive").
 *
 * The method (README "Deciding with the fewest runs"):
 *   - the statistic is Welch's t of the runs so far, turned the way the
 *     design looks (head above base for direction +1);
 *   - alpha is spent over the looks by the Hwang-Shih-DeCani function
 *     alpha (1 - e^(-g t)) / (1 - e^(-g)) of the look's share t of the
 *     last look's runs (g = -4 is like O'Brien-Fleming, 1 like Pocock),
 *     and beta = 1 - power the same way under the shift assumed ('shift'
 *     / 'cv' standard deviations of a run);
 *   - the bounds are found look by look by the recursive numerical
 *     integration of Armitage, McPherson and Rowe (Jennison and
 *     Turnbull, "Group Sequential Methods", ch. 19) over the looks'
 *     joint normal law, the t bounds being carried to it through their
 *     law at the look's nominal degrees of freedom (the mean of Welch's
 *     with n runs a side of equal variance, 3.1 for 3): the t law
 *     under no change, the noncentral t under the shift (its law by
 *     quadrature over the chi-square of the variance);
 *   - the efficacy bound is non-binding: alpha is computed as if the
 *     futility bound were not there, so it holds when a caller goes on;
 *   - at a look, "changed" when Welch's one-sided p at its own degrees of
 *     freedom is at most the efficacy bound's p at the nominal ones (so
 *     alpha holds at any df), "not changed" when it is above the
 *     futility bound's;
 *   - the design keeps the fewest looks whose bounds meet (every path
 *     stops by the last), so no alpha is left unspent; when no prefix of
 *     the looks closes, a gap stays at the last look: "inconclusive"
 *     there (the noise assumed is too high for the shift at those runs);
 *   - "not changed" needs the runs no noisier than assumed beyond chance
 *     (the noise gate of seq_decide()).
 * The unit test checks alpha and power of the default design by a seeded
 * simulation over normal and t3 noise (tests/unit/test_sequential.c).
 *
 * Carrying alpha: a design spends at most seq_alpha_spent() of its
 * 'alpha' up to a look; a later test of the same hypothesis (a second
 * retest of one report) starts a design with the budget left, so that the
 * chance of ever saying "changed" on no change stays within the first
 * budget (Bonferroni over the tests).
 */

#define SEQ_MAX_LOOKS 16
#define SEQ_MIN_RUNS 2		/* a side, at the first look: Welch needs 2 */
#define SEQ_MAX_RUNS 1000	/* a side, at the last look */
#define SEQ_NOISE_GATE 0.95	/* see seq_decide() */

struct seq_params {
	double alpha;	/* the type I error to spend, (0, 0.5): one-sided
			 * in 'direction'; split in halves when it is 0 */
	double power;	/* 1 - beta at 'shift': (alpha, 1) */
	double shift;	/* the relative change to detect, > 0: 0.05 = 5% */
	double cv;	/* the noise assumed: a run's sd / mean, > 0 */
	int direction;	/* +1 head above base, -1 below, 0 either way */
	double alpha_shape, beta_shape;	/* Hwang-Shih-DeCani g, [-40, 40] */
	size_t nlooks;	/* 1 to SEQ_MAX_LOOKS */
	long looks[SEQ_MAX_LOOKS];	/* runs a side in all, increasing */
};

/* The default design: alpha 1% one-sided, power 96% on a 5% shift at CV
 * 2%, looks at 3, 5 and 8 runs a side, direction +1, spending shapes -2
 * (alpha) and -1 (beta). */
void seq_params_default(struct seq_params *p);

/*
 * The confirmation's design (issue 32): a held report's own runs
 * ('initial' a side, the fewer side's) are look 0, where the trigger
 * chose to confirm; the looks that follow count every run, the held ones
 * included, from 'initial' + SEQ_CONFIRM_FIRST a side, each about
 * SEQ_CONFIRM_RATIO times the one before, up to 'cap' (confirm.total_runs):
 * 6, 8, 11, 16 for 3 and 16. Look 0 ends the confirmation only by not
 * confirming (a futility stop: it spends no alpha) or, with enough runs,
 * by mailing at once: 'spent0', the alpha that costs a direction, comes
 * off SEQ_CONFIRM_ALPHA. The design is one-sided in the reported
 * direction, chosen at look 0, so a change that is not there is mailed
 * with probability 2 x SEQ_CONFIRM_ALPHA at most for the metric the
 * trigger looks at; the rest is the default's (power 96% on 5% at CV
 * 2%, spending shapes -2 and -1). Why these: README "Deciding with the
 * fewest runs" (make bench-sim). A cap below the first look is raised
 * to it. The caller sets 'direction'.
 */
#define SEQ_CONFIRM_ALPHA 0.005
#define SEQ_CONFIRM_FIRST 3
#define SEQ_CONFIRM_RATIO 1.35
void seq_params_confirm(struct seq_params *p, long initial, long cap,
			double spent0);
/*
 * The same with its first look at 'first' runs a side in all (the held
 * ones included) instead of 'initial' + SEQ_CONFIRM_FIRST: the first
 * look the learned noise calls for (compare/noise.h,
 * noise_first_look()).
 */
void seq_params_confirm_from(struct seq_params *p, long first, long cap,
			     double spent0);

/*
 * A retest's design (issue 32): "retest Nx" runs 'first' (N) a side,
 * then, while undecided, looks up to 'cap' (limits.max_runs; a cap below
 * N is raised to it), seq_looks(). It tests the reported direction (the
 * sign of 'reported', the relative change the report showed: 0.05 = 5%;
 * either way when it is 0 or not finite) for a shift of SEQ_RETEST_SHARE
 * of the reported one (the report's runs were picked for looking
 * changed, so they overstate it; SEQ_RETEST_SHIFT when none), at noise
 * 'cv' (the report's runs', or learned; SEQ_RETEST_CV when not
 * positive), power 96%, spending shapes -2 and -1. Its alpha is
 * seq_retest_alpha('earlier').
 */
#define SEQ_RETEST_ALPHA 0.01
#define SEQ_RETEST_SHARE 0.75
#define SEQ_RETEST_SHIFT 0.05
#define SEQ_RETEST_CV 0.02
void seq_params_retest(struct seq_params *p, long first, long cap,
		       size_t earlier, double reported, double cv);

/*
 * The alpha of a report's retest after 'earlier' others (those the farm
 * took): SEQ_RETEST_ALPHA for the first, then half the one before, so a
 * report's retests together call a change that is not there "stable"
 * with probability 2 x SEQ_RETEST_ALPHA at most (Bonferroni over them;
 * each is counted whole, however early it stopped).
 */
double seq_retest_alpha(size_t earlier);

/*
 * Looks from 'first' to 'cap' runs a side, each about 1.6 times the one
 * before (at least 2 more, none within 2 of the cap): 3, 5, 8, 13, 20
 * for 3 and 20. Returns how many were written (at most 'max', the last
 * always 'cap'), 0 when first < SEQ_MIN_RUNS, cap < first or max is 0.
 */
size_t seq_looks(long first, long cap, long *looks, size_t max);

/*
 * One look. Its bounds are set on the t scale at the look's nominal
 * degrees of freedom; the integration follows each of them on the normal
 * scale of the law it is under: z0_* under no change (the t law), z1_*
 * under the shift (the noncentral t).
 */
struct seq_look {
	long n;			/* runs a side */
	double df;		/* nominal: Welch's mean with equal variances */
	double alpha_spent;	/* up to and with this look */
	double beta_spent;
	double t_upper;		/* efficacy bound at df */
	double t_lower;		/* futility bound at df; -INFINITY: none */
	double p_upper;		/* their one-sided p at df: Welch's p at or */
	double p_lower;		/* below p_upper is "changed", above p_lower
				 * "not changed", whatever its own df */
	double drift;		/* the statistic's mean under the shift */
	double z0_upper, z0_lower;	/* the integration's bounds under */
	double z1_upper, z1_lower;	/* no change and under the shift */
};

struct seq_design {
	struct seq_params par;
	size_t nlooks;	/* the looks used: fewer than par.nlooks when the
			 * bounds meet before the last */
	struct seq_look look[SEQ_MAX_LOOKS];
	/* on the normal scale, futility obeyed (the integration) */
	double alpha;	/* P(changed | no change) */
	double power;	/* P(changed | shift) */
	double runs0, runs1;	/* expected runs a side: no change, shift */
};

/*
 * Compute the design's bounds. Returns 0, or -1 with 'err' (EX_DATAERR)
 * naming the parameter out of range. 'd' is always written.
 */
int seq_design_init(struct seq_design *d, const struct seq_params *p,
		    struct pb_err *err);

/* The alpha spent at most up to and with look 'look' (0-based; past the
 * last, the last's; either way, both halves); 0 for a design with no
 * looks. */
double seq_alpha_spent(const struct seq_design *d, size_t look);

enum seq_answer {
	SEQ_MORE,		/* run 'more' a side, then ask again */
	SEQ_CHANGED,		/* the efficacy bound is crossed */
	SEQ_NOT_CHANGED,	/* the futility bound is crossed */
	SEQ_INCONCLUSIVE,	/* the last look, between the bounds, or no
				 * test possible ('why') */
};

struct seq_decision {
	enum seq_answer answer;
	size_t look;		/* the look decided at (MORE: the next one) */
	int last;		/* that look is the design's last */
	long more[2];		/* MORE: runs to add, base and head */
	size_t n[2];		/* runs seen, base and head */
	double change;		/* % of the base mean, head against base */
	double t, df;		/* Welch's t (head - base) and its df */
	double p;		/* one-sided p of t in the design's direction
				 * (either way: in the observed direction) */
	int way;		/* +1 up, -1 down: the direction tested */
	double t_upper;		/* the bounds on the t scale at this df, */
	double t_lower;		/* 'way' up (t_lower -INFINITY: none) */
	double alpha_spent;	/* the design's up to this look */
	double cv;		/* the runs' pooled sd / base mean */
	int noisy;		/* below the futility bound, but 'cv' above
				 * the noise gate: MORE or INCONCLUSIVE */
	struct change_ci ci;	/* repeated confidence interval of the
				 * %change: covers the true change at every
				 * look at once with 1 - 2 alpha at least */
	const char *why;	/* INCONCLUSIVE for want of a test, or for the
				 * noise gate at the last look: why */
};

/*
 * One look: the runs of both sides so far (every run since the design
 * began; confirmation and retests pass the new runs alone). The look is
 * the last of the design whose runs both sides have; fewer runs than the
 * first look ask for MORE. Runs past the last look are judged at the
 * last. Two constant samples are "changed" when they differ in the
 * direction tested and "not changed" otherwise; values that are not
 * finite, or fewer than 2 runs at a look, are INCONCLUSIVE with 'why'.
 * "Not changed" also needs the runs' pooled CV within the upper
 * SEQ_NOISE_GATE quantile of a sample CV at the design's 'cv' (chi-square
 * at the runs' degrees of freedom): noisier runs would make the futility
 * bound, set for the noise assumed, say "not changed" of real changes;
 * they get MORE instead (no alpha is spent: the efficacy bound does not
 * count on the futility bound), or INCONCLUSIVE at the last look.
 * Nothing is allocated; the same runs always give the same answer.
 */
void seq_decide(const struct seq_design *d, const double *base, size_t nb,
		const double *head, size_t nh, struct seq_decision *out);

/*
 * The runs' noise: their pooled standard deviation (each side about its
 * own mean) over the base mean; NAN with fewer than 3 runs in all, a
 * side without runs, or a base mean of 0.
 */
double seq_runs_cv(const double *base, size_t nb, const double *head,
		   size_t nh);

/*
 * A fix judged by the same rule (issue 32 item 4): a test or a landed
 * fix, its 'nt' runs 'tested' against the parent's ('base') and the
 * reported commit's ('head'), each comparison decided by seq_decide() at
 * one look of the runs both sides have, with a retest's design
 * (seq_params_retest(): alpha 1%, power 96% on SEQ_RETEST_SHARE of the
 * relative change 'reported', at noise 'cv'):
 *   [SEQ_FIX_AWAY] the tested runs against the parent, the reported way:
 *                  "changed" still away, "not changed" not away;
 *   [SEQ_FIX_BACK] against the reported commit, the way back.
 * fixed: back and not away; partly fixed: back and still away; not
 * fixed: not back and still away; else inconclusive (also when
 * 'reported' is 0 or a side has fewer than 2 runs).
 */
enum { SEQ_FIX_AWAY, SEQ_FIX_BACK };
struct seq_fix {
	struct seq_design d[2];
	struct seq_decision dec[2];
	int ok[2];		/* the comparison was made */
	enum fix_verdict v;
};
void seq_fix_judge(struct seq_fix *f, const double *base, size_t nb,
		   const double *head, size_t nh, const double *tested,
		   size_t nt, double reported, double cv);

/* "more runs", "changed", "not changed", "inconclusive". */
const char *seq_answer_name(enum seq_answer a);

#endif
