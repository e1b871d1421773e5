// SPDX-License-Identifier: GPL-2.0-only
/*
 * judge: the simulation of the bisection (bisectsim.h): planted culprits,
 * build failures and normal runs, each trial driven to its end through
 * bisect_next() as a farm would answer it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/judge/bisectsim.h"
#include "perfbot/util/prng.h"

#define SIM_TRIALS_MAX 10000000L
#define BASE_SHA "0000000000000000000000000000000000000000"

struct trial {
	int heavy;
	struct bisect_range r;
	unsigned char *fails;	/* per point */
	size_t culprit;
	double good, bad, sd;
};

static double draw(struct prng *g, const struct trial *t, size_t at)
{
	return (at >= t->culprit ? t->bad : t->good) + t->sd *
		(t->heavy ? prng_student_unit(g, 3) : prng_normal(g));
}

static int draw_runs(struct bisect *b, struct prng *g, const struct trial *t,
		     size_t at, long n, struct pb_err *err)
{
	double v[BISECT_MAX_RUNS_AT];
	long i;

	if (n > BISECT_MAX_RUNS_AT)
		n = BISECT_MAX_RUNS_AT;
	for (i = 0; i < n; i++)
		v[i] = draw(g, t, at);
	return bisect_add_runs(b, at, v, (size_t)n, err);
}

static void plant(struct prng *g, const struct bisect_world *w,
		  struct trial *t)
{
	size_t n = (size_t)w->commits, k;

	t->culprit = 1 + (size_t)(prng_uniform(g) * (double)n);
	if (t->culprit > n)
		t->culprit = n;
	for (k = 1; k <= n; k++)
		t->fails[k] = k != t->culprit && k != n &&
			prng_uniform(g) < w->fail;
}

/* One bisection from its ends to its verdict, counted into 'oc'. */
static int one(const struct bisect_params *par, const struct seq_design *d,
	       const struct bisect_world *w, struct prng *g, struct trial *t,
	       struct bisect_oc *oc, struct pb_err *err)
{
	struct bisect b = { 0 };
	struct bisect_step st;
	double ends[2][BISECT_MAX_RUNS_AT];
	long i;
	size_t a;
	int rc = -1;

	plant(g, w, t);
	for (i = 0; i < w->end_runs; i++) {
		ends[0][i] = draw(g, t, 0);
		ends[1][i] = draw(g, t, (size_t)w->commits);
	}
	if (bisect_init(&b, par, "sim", BASE_SHA, ends[0],
			(size_t)w->end_runs, &t->r, ends[1],
			(size_t)w->end_runs, err))
		return -1;
	for (;;) {
		if (bisect_next(&b, d, &st, err))
			goto out;
		if (st.phase != BISECT_SEARCH && st.phase != BISECT_VERIFY)
			break;
		for (a = 0; a < st.nask; a++) {
			size_t at = st.ask[a].at;

			if (t->fails[at] ? bisect_skip(&b, at, err) :
			    draw_runs(&b, g, t, at, st.ask[a].runs, err))
				goto out;
		}
	}
	if (st.phase == BISECT_CULPRIT && st.v.culprit == t->culprit)
		oc->exact++;
	else if (st.phase == BISECT_CULPRIT)
		oc->wrong++;
	else {
		oc->inconclusive++;
		oc->covered += st.v.lo < t->culprit && t->culprit <= st.v.hi;
	}
	oc->runs += (double)b.runs;
	oc->rounds += (double)b.rounds;
	if (b.runs > oc->runs_max)
		oc->runs_max = b.runs;
	if (b.rounds > oc->rounds_max)
		oc->rounds_max = b.rounds;
	rc = 0;
out:
	bisect_release(&b);
	return rc;
}

static int world_check(const struct bisect_world *w, struct pb_err *err)
{
	if (w->commits < 1 || w->commits > BISECT_RANGE_MAX ||
	    !(w->shift >= 0) || !(w->cv > 0) || !(w->fail >= 0 &&
						   w->fail < 1) ||
	    w->end_runs < 1 || w->end_runs > BISECT_MAX_RUNS_AT ||
	    w->trials < 1 || w->trials > SIM_TRIALS_MAX)
		return pb_fail(err, EX_DATAERR, "bisect simulation: a world "
			       "out of range");
	return 0;
}

int bisect_simulate(const struct bisect_params *par,
		    const struct seq_design *d, const struct bisect_world *w,
		    struct bisect_oc *oc, struct pb_err *err)
{
	struct trial t = { 0, { NULL, 0 }, NULL, 0, 0, 0, 0 };
	struct prng g;
	long i;
	int rc = -1;

	memset(oc, 0, sizeof(*oc));
	if (world_check(w, err))
		return -1;
	t.r.n = (size_t)w->commits;
	t.r.c = calloc(t.r.n, sizeof(*t.r.c));
	t.fails = calloc(t.r.n + 1, 1);
	if (!t.r.c || !t.fails) {
		pb_fail(err, EX_OSERR, "out of memory");
		goto out;
	}
	for (i = 0; i < w->commits; i++)
		snprintf(t.r.c[i].sha, GIT_SHA_HEX, "%040lx", (unsigned long)i + 1);
	t.heavy = w->heavy;
	t.good = 100;
	t.bad = 100 * (1 + (par->direction ? par->direction : 1) * w->shift);
	t.sd = 100 * w->cv;
	prng_seed(&g, w->seed);
	for (i = 0; i < w->trials; i++) {
		if (one(par, d, w, &g, &t, oc, err))
			goto out;
		oc->trials++;
	}
	oc->runs /= (double)oc->trials;
	oc->rounds /= (double)oc->trials;
	rc = 0;
out:
	free(t.r.c);
	free(t.fails);
	return rc;
}
