/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_WEB_LIFE_H
#define PERFBOT_WEB_LIFE_H

#include "perfbot/render/context.h"
#include "perfbot/state/archive.h"

/*
 * Where a report is in its life, as the web archive shows it: the status
 * of its record (state/records.h: fix named, fix landed, fixed, not
 * fixed, invalid, duplicate) when it is not open; for an open one, what
 * the state knows of its runs: the confirmation runs' verdict, the
 * retests' verdicts, or only the runs it was mailed on. web_life_of()
 * is the one place that decides it; the words are
 * templates/web/life.html's.
 */

enum web_life_state {
	LIFE_TESTED,		/* mailed on the runs it had */
	LIFE_CONFIRMED,		/* confirmation runs confirmed it first */
	LIFE_UNCONFIRMED,	/* mailed when its confirmation runs were late */
	LIFE_RETESTING,		/* a retest is running */
	LIFE_RETESTED,		/* a retest ended with 'verdict' */
};

struct web_life {
	enum web_life_state state;
	const char *verdict;	/* the newest retest's: "stable", "not
				 * reproduced", "inconclusive"; or NULL */
	int confirmed;		/* its confirmation runs confirmed it */
	const char *record;	/* its record's status when not "open" */
	const char *fix_verdict;	/* the run on its landed fix's, or
					 * NULL */
	int open;		/* still to look at (open.html): its record
				 * not closed, and no retest that did not
				 * reproduce it */
};

/* Decide 'l' from what the state holds of report 'r' (borrowed). */
void web_life_of(const struct archive_report *r, struct web_life *l);

/*
 * {state, tested, confirmed, unconfirmed, retesting, retested, verdict,
 *  was_confirmed, record, fix_verdict, open} under 'key'.
 */
void ctx_life(struct ctx *c, const char *key, const struct web_life *l);

#endif
