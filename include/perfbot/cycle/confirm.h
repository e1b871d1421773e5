/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_CONFIRM_H
#define PERFBOT_CONFIRM_H

#include <time.h>

#include "perfbot/act/kind.h"
#include "perfbot/compare/sequential.h"
#include "perfbot/config/config.h"
#include "perfbot/render/report.h"
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

/*
 * The sequential design of a report held with 'base' and 'head' runs
 * and reported as 'change' (%) (hold.c, for the hold and each look), its
 * first look at 'first' runs a side in all (kept with the request when
 * the learned noise chose it: followup_first_read(thread, "confirm")), or
 * 0: the policy's own.
 */
int confirm_design(const struct confirm_policy *p, long base, long head,
		   double change, long first, struct seq_design *d,
		   struct pb_err *err);

/* Hold 'r': record it ('asking'); the kind's follow-up asks the farm. */
int confirm_hold(struct state *st, const struct confirm_config *cc,
		 const struct report *r, const struct manifest_text *mt,
		 time_t now, struct pb_err *err);

struct confirm_stats {
	long asked, confirmed, not_reproduced, expired, waiting, failed;
};

/*
 * The kind of the confirmation requests (act/kind.h): each run's confirm
 * step asks for what is held and decides what has landed.
 */
extern const struct kind kind_confirm;

#endif
