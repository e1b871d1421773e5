/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_REGRESSION_H
#define PERFBOT_REGRESSION_H

#include <stddef.h>
#include <time.h>

#include "perfbot/state/records.h"

/*
 * act: the life of a regression, as a state machine over the record of
 * state/records.h. A report is 'open' when mailed; 'fix:' names a fix
 * ('fix named'); the fix found in a tracked branch makes it 'fix landed'
 * (act/track.c); a run on the fixing commit makes it 'fixed' or 'not
 * fixed'; 'invalid' and 'dup:' close it, 'reopen' and 'undup' open it
 * again, 'unfix' forgets the fix, and a revert of the fix (or a
 * force-push that drops it) takes it back to 'fix named' (when a fix was
 * named) or 'open'. 'set no-reminders' keeps it out of the reminders.
 *
 *   open -fix:-> fix named -landed-> fix landed -verified-> fixed
 *                                               -verified-> not fixed
 *   (open, fix named, not fixed) -landed-> fix landed
 *   (fix landed, fixed, not fixed) -reverted, left-> fix named | open
 *   (any fix) -unfix-> open       (any) -invalid-> invalid
 *   (any) -dup:-> duplicate -undup-> open
 *   (fixed, invalid, duplicate) -reopen-> open
 *
 * regression_next() is the machine: what an event does to a record, with
 * no state touched, so that every caller (the mail commands, the walk of
 * the tracked tree, the verify run) shares one set of rules.
 */

enum reg_status {
	REG_OPEN, REG_FIX_NAMED, REG_FIX_LANDED, REG_FIXED, REG_NOT_FIXED,
	REG_INVALID, REG_DUPLICATE, REG_NSTATUS
};

enum reg_event {
	REG_EV_FIX,		/* 'fix: TITLE|SHA': arg */
	REG_EV_UNFIX,
	REG_EV_DUP,		/* 'dup: ...': arg the report id */
	REG_EV_UNDUP,
	REG_EV_INVALID,		/* arg the reason, or NULL */
	REG_EV_REOPEN,
	REG_EV_NO_REMINDERS,	/* set no-reminders */
	REG_EV_REMINDERS,	/* unset no-reminders */
	REG_EV_LANDED,		/* commit, summary, branch, date */
	REG_EV_REVERTED,	/* commit: the revert */
	REG_EV_LEFT,		/* the fix is no longer on 'branch' */
	REG_EV_VERIFIED,	/* arg the verdict */
	REG_NEVENTS
};

/* What happened, and what it carries (every pointer borrowed). */
struct reg_change {
	enum reg_event ev;
	const char *arg;
	const char *commit, *summary, *branch;
	time_t date;
};

/* The word of a status ("fix landed"), and back (-1 for no status). */
const char *regression_status_name(enum reg_status s);
int regression_status_of(const char *name);

/* The word of an event in the history ("fix:", "landed", ...). */
const char *regression_event_name(enum reg_event ev);

/* 1 for fixed, invalid and duplicate: nothing to follow any more. */
int regression_closed(enum reg_status s);

/* The JSON list of the open statuses, for state_records(). */
extern const char regression_open_json[];

/*
 * Apply 'ch' to 'r' (its strings replaced by copies of the change's):
 * 0 when the record changed, 1 when it is as the event would leave it
 * (already so: nothing to write), -1 when the event is not possible in
 * its status, with the reason in 'why' ("no fix is named"). On -1 and 1
 * 'r' is as it was; -1 with 'why' "out of memory" too.
 */
int regression_next(struct record *r, const struct reg_change *ch,
		    char *why, size_t whylen);

#endif
