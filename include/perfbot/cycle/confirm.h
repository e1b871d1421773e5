/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_CONFIRM_H
#define PERFBOT_CONFIRM_H

#include <time.h>

#include "perfbot/config/config.h"
#include "perfbot/render/report.h"
#include "perfbot/ingest/rootcache.h"
#include "perfbot/ingest/sources.h"
#include "perfbot/state/state.h"
#include "perfbot/judge/trigger.h"

/*
 * Confirmation before mailing (the 'confirm' section): a new report
 * whose evidence is weak (trigger.h) is not mailed yet. It is held in the
 * state with a deadline, the scheduler (the 'scheduler' section, as for
 * retests) is asked for more runs of both commits, and once they have
 * landed the new runs alone decide: confirmed (the report, over all runs,
 * is queued with a line saying so), not reproduced (recorded, not
 * mailed), or, when the deadline passes first, mailed marked unconfirmed
 * or dropped (confirm.on_deadline). The hold is recorded before the
 * scheduler is asked and the request id is its idempotency key, so a
 * crash in between asks again with the same id and the farm runs it once;
 * the report's mail and its 'confirmed' status are one transaction.
 */

struct confirm_config {
	struct confirm_policy policy;
	long deadline;		/* seconds */
	int mail_on_deadline;	/* 1: mail marked unconfirmed, 0: drop */
};

/* confirm.enabled, total_runs, min_runs, deadline, on_deadline. */
int confirm_config_load(const struct config *cfg, struct confirm_config *cc,
			struct pb_err *err);

/* 1 when report 'r' (worth a mail, or a candidate) is to be held. */
int confirm_wanted(const struct confirm_config *cc, const struct report *r);

/* Hold 'r': record it ('asking'); confirm_step() asks the scheduler. */
int confirm_hold(struct state *st, const struct confirm_config *cc,
		 const struct report *r, const struct manifest_text *mt,
		 time_t now, struct pb_err *err);

struct confirm_stats {
	long asked, confirmed, not_reproduced, expired, waiting, failed;
};

/*
 * In each run: ask for what is held, decide what has landed. The held
 * reports are loaded, compared and their mails made by 'jobs' threads
 * (util/workers.h), their roots read through 'roots' (NULL: none), and
 * the farm asked and the state written in the order of the holds, so
 * the outcome is that of one job.
 */
int confirm_step(struct state *st, const struct config *cfg, time_t now,
		 size_t jobs, struct root_cache *roots,
		 struct confirm_stats *cs, struct pb_err *err);

#endif
