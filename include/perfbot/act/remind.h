/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_REMIND_H
#define PERFBOT_REMIND_H

#include <time.h>

#include "perfbot/config/config.h"
#include "perfbot/state/state.h"

/*
 * act: the reminders (reminders.every, .to, .min_age). At most once every
 * 'every', one mail to reminders.to lists the regressions still open
 * (open, fix named, fix landed, not fixed; not an improvement, not one
 * set no-reminders, mailed at least 'min_age' ago), grouped by testcase
 * (the headline metric's first word, as LKP names a testcase's metrics),
 * the oldest first: the number of each line, its age, subject, headline
 * change, status, last activity and link. Nothing is mailed when nothing
 * is open. The mail and the record of its lines (which report each
 * "<N>" of a reply names) are one transaction: a crash mails no
 * reminder twice.
 */

struct remind_stats {
	long listed;		/* lines of the reminder queued, 0: none */
};

int remind_step(struct state *st, const struct config *cfg, time_t now,
		struct remind_stats *rs, struct pb_err *err);

#endif
