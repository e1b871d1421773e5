// SPDX-License-Identifier: GPL-2.0-only
/*
 * judge: the trigger (trigger.h): whether a new comparison is mailed at
 * once, held for confirmation runs or dropped, how many runs to ask for,
 * and whether the confirmation runs confirm; for act/confirm.c and the
 * report's candidate metric.
 */
#include "perfbot/judge/trigger.h"

int trigger_weak(const struct confirm_policy *p, const struct evidence *ev)
{
	int mw_agrees = (ev->mw.ok && ev->mw.p < 0.05) ||
		stats_mw_min_p(ev->n[0], ev->n[1]) >= 0.05;

	if ((long)ev->n[0] < p->min_runs || (long)ev->n[1] < p->min_runs)
		return 1;
	/* two constants that differ: no doubt a test could add */
	if (!ev->w.ok)
		return !(ev->w.constant && !ev->w.same);
	return !(ev->w.p < TRIGGER_P_STRONG && mw_agrees);
}

enum verdict confirm_verdict(const struct cmp_row *fresh, double reported)
{
	struct evidence ev;

	if (stats_evidence(fresh->v[BASE], fresh->n[BASE], fresh->v[HEAD],
			   fresh->n[HEAD], &ev))
		return VERDICT_INCONCLUSIVE;
	/* the filter picked what to look at; the new runs' tests decide */
	return stats_verdict(&ev, 1, reported, fresh->change);
}

int trigger_candidate(const struct cmp_row *key)
{
	struct evidence ev;

	if (!key || key->failure || key->absolute || key->shown ||
	    stats_evidence(key->v[BASE], key->n[BASE], key->v[HEAD],
			   key->n[HEAD], &ev))
		return 0;
	return ev.w.ok && ev.w.p < TRIGGER_P_CANDIDATE;
}

long confirm_runs(const struct confirm_policy *p, size_t have)
{
	long n = p->total_runs - (long)have;

	return n > CONFIRM_LEAST_RUNS ? n : CONFIRM_LEAST_RUNS;
}

enum trigger_action trigger_action(const struct confirm_policy *p,
				   int worth, int candidate,
				   const struct evidence *ev)
{
	if (!p->enabled)
		return worth ? TRIGGER_MAIL : TRIGGER_SKIP;
	if (!worth && !candidate)
		return TRIGGER_SKIP;
	return !worth || trigger_weak(p, ev) ? TRIGGER_CONFIRM : TRIGGER_MAIL;
}
