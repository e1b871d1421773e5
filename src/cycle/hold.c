// SPDX-License-Identifier: GPL-2.0-only
/*
 * cycle: a weak report held for confirmation (confirm.h): the policy of
 * the 'confirm' section, whether a report is held, its hold recorded
 * ('asking', the first look's runs, as the noise learned for its
 * testcase, machine and metric calls for) with its manifest, and the
 * sequential design of its looks. What follows the hold is confirm.c's.
 */
#include <string.h>
#include <stdlib.h>

#include "perfbot/act/followup.h"
#include "perfbot/act/learned.h"
#include "perfbot/compare/sequential.h"
#include "perfbot/cycle/confirm.h"
#include "perfbot/state/requests.h"
#include "perfbot/util/id.h"
#include "perfbot/util/log.h"

int confirm_config_load(const struct config *cfg, struct confirm_config *cc,
			struct pb_err *err)
{
	(void)err;
	memset(cc, 0, sizeof(*cc));
	cc->policy.enabled = cfg->confirm.enabled;
	cc->policy.total_runs = cfg->confirm.total_runs;
	cc->policy.min_runs = cfg->confirm.min_runs;
	cc->deadline = cfg->confirm.deadline;
	cc->mail_on_deadline = cfg->confirm.on_deadline == CFG_DEADLINE_MAIL;
	return 0;
}

/*
 * The design of a report held with 'base' and 'head' runs and reported
 * as 'change' (%): the fewer side's runs are look 0; with min_runs, look
 * 0 could have mailed at once (Welch's p < TRIGGER_P_STRONG), which
 * spends half of it a direction. Its first look is at 'first' runs a
 * side in all, or (0) the policy's own.
 */
static void design_params(const struct confirm_policy *p, long base,
			  long head, double change, long first,
			  struct seq_params *sp)
{
	long fewer = base < head ? base : head;
	double spent0 = fewer >= p->min_runs ? TRIGGER_P_STRONG / 2 : 0;

	if (first > 0)
		seq_params_confirm_from(sp, first, p->total_runs, spent0);
	else
		seq_params_confirm(sp, fewer, p->total_runs, spent0);
	sp->direction = change < 0 ? -1 : 1;
}

int confirm_design(const struct confirm_policy *p, long base, long head,
		   double change, long first, struct seq_design *d,
		   struct pb_err *err)
{
	struct seq_params sp;

	design_params(p, base, head, change, first, &sp);
	return seq_design_init(d, &sp, err);
}

/*
 * The first look the noise learned for the report's testcase, machine
 * and metric calls for (act/learned.h): fewer new runs than the policy's
 * own when it is quieter than the design assumes, more when it is
 * noisier, within the cap; 0 when it is the policy's own.
 */
static long learned_first(struct state *st, const struct confirm_policy *p,
			  const struct report *r)
{
	long base = (long)r->runs[BASE], head = (long)r->runs[HEAD];
	long fewer = base < head ? base : head, first;
	struct seq_params sp;
	struct learned l;

	learned_noise(st, r->testcase, r->machine, r->metric, 0, 0, &l);
	design_params(p, base, head, r->change, 0, &sp);
	first = learned_first_confirm(&l, &sp, fewer, p->total_runs >
				      sp.looks[0] ? p->total_runs :
				      sp.looks[0]);
	return first == sp.looks[0] ? 0 : first;
}

int confirm_wanted(const struct confirm_config *cc, const struct report *r)
{
	return r->metric && trigger_action(&cc->policy, r->worth, r->candidate,
					   &r->evidence) == TRIGGER_CONFIRM;
}

int confirm_hold(struct state *st, const struct confirm_config *cc,
		 const struct report *r, const struct manifest_text *mt,
		 time_t now, struct pb_err *err)
{
	char *rid = id_confirm_request(r->id);
	size_t fewer = r->runs[BASE] < r->runs[HEAD] ? r->runs[BASE] :
		r->runs[HEAD];
	struct request_new c = { .kind = "confirm", .status = "asking" };
	long first = learned_first(st, &cc->policy, r);
	char *plan = NULL;
	struct seq_design d;
	int rc = -1;

	if (!rid || (first && followup_first_keep(&plan, "confirm", first))) {
		rc = pb_fail(err, EX_OSERR, "out of memory");
		goto out;
	}
	if (confirm_design(&cc->policy, (long)r->runs[BASE], (long)r->runs[HEAD],
			   r->change, first, &d, err))
		goto out;
	c.thread = plan;	/* the first look kept: each look's design */
	c.report_id = r->id;
	c.request_id = rid;
	c.metric = r->metric;
	c.reported_change = r->change;
	/* the first look's runs (the fixed rule asked confirm_runs()) */
	c.runs = d.look[0].n - (long)fewer;
	c.base_runs = (long)r->runs[BASE];
	c.head_runs = (long)r->runs[HEAD];
	c.deadline = now + cc->deadline;
	rc = state_confirm_hold(st, &c, mt->name, mt->text, mt->dir, now, err);
	if (!rc)
		log_info("report '%s' held for %ld confirmation runs a side "
			 "(%s %+.1f%%%s)", r->id, c.runs, r->metric, r->change,
			 first ? ", as its learned noise calls for" : "");
out:
	free(plan);
	free(rid);
	return rc;
}
