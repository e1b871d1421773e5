// SPDX-License-Identifier: GPL-2.0-only
/*
 * act: the learned noise of a comparison's testcase, machine and metric
 * (learned.h) as the designs of retests and confirmations use it: read
 * under the prior of every cell, the first look sized by it, the new
 * runs' noise kept, the first look kept with the request.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/act/learned.h"
#include "perfbot/state/noise.h"
#include "perfbot/util/log.h"

static int usable(const struct noise_cell *c)
{
	return isfinite(c->cv) && c->cv > 0 && c->df >= 1;
}

/* 'a' and 'b' pooled: their variances weighted by their df. */
static struct noise_cell pooled(struct noise_cell a, struct noise_cell b)
{
	struct noise_cell c = a;

	if (!usable(&b))
		return a;
	if (!usable(&a))
		return b;
	c.df = a.df + b.df;
	c.cv = sqrt(((double)a.df * a.cv * a.cv + (double)b.df * b.cv * b.cv) /
		    (double)c.df);
	return c;
}

void learned_noise(struct state *st, const char *testcase,
		   const char *machine, const char *metric, double cv,
		   long df, struct learned *out)
{
	struct noise_cell own = { cv, df }, *cells = NULL;
	struct pb_err e = { 0, "" };
	struct state_noise *v = NULL;
	size_t n = 0, at = 0, i;

	memset(out, 0, sizeof(*out));
	out->cell = usable(&own) ? own : (struct noise_cell){ 0, 0 };
	if (!metric || !testcase || !machine)
		return;
	if (state_noise_all(st, testcase, machine, metric, &v, &n, &at, &e)) {
		log_warn("the learned noise: %s", e.msg);
		return;
	}
	cells = n ? calloc(n, sizeof(*cells)) : NULL;
	for (i = 0; cells && i < n; i++) {
		cells[i].cv = v[i].cv;
		cells[i].df = v[i].df;
	}
	if (cells && !noise_prior_fit(cells, n, &out->prior, &e)) {
		out->fitted = 1;
		if (at < n) {
			out->cell = pooled(cells[at], own);
			out->df = cells[at].df;
		}
	}
	free(cells);
	state_noise_free(v, n);
}

double learned_design_cv(const struct learned *l, double dflt)
{
	if (!l->fitted)
		return dflt;
	return noise_design_cv(&l->prior, usable(&l->cell) ? &l->cell : NULL);
}

long learned_first_look(const struct learned *l, const struct seq_params *p,
			long least, long cap)
{
	if (!l->fitted || !l->df)
		return least;
	return noise_first_look(&l->prior, &l->cell, p, least, cap);
}

long learned_first_confirm(const struct learned *l,
			   const struct seq_params *p, long fewer, long cap)
{
	if (!l->fitted || !l->df)
		return p->looks[0];
	return noise_first_confirm(&l->prior, &l->cell, p, fewer, cap);
}

int learned_keep(struct state *st, const char *testcase, const char *machine,
		 const char *metric, double cv, long df, time_t now,
		 struct pb_err *err)
{
	if (!metric || !testcase || !machine)
		return 0;
	return state_noise_add(st, testcase, machine, metric, cv, df, now,
			       err);
}
