/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_WEB_LIFE_H
#define PERFBOT_WEB_LIFE_H

#include "perfbot/render/context.h"
#include "perfbot/state/archive.h"
#include "perfbot/state/records.h"
#include "perfbot/web/mask.h"

/*
 * Where a report is in its life, as the web archive shows it: the status
 * of its record (state/records.h: fix named, fix landed, fixed, not
 * fixed, invalid, duplicate) when it is not open; for an open one, what
 * the state knows of its runs: the confirmation runs' verdict, the
 * retests' verdicts, or nothing more than that it was mailed (on the
 * runs it had). web_life_of() is the one place that decides it; the
 * words are templates/web/life.html's. What the status rests on (the
 * fix named, the commit that landed, the report it duplicates, why it is
 * invalid) is ctx_life_record()'s.
 */

enum web_life_state {
	LIFE_MAILED,		/* mailed on the runs it had, nothing since */
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
 * {state, mailed, confirmed, unconfirmed, retesting, retested, verdict,
 *  was_confirmed, record, fix_verdict, open} under 'key'.
 */
void ctx_life(struct ctx *c, const char *key, const struct web_life *l);

/*
 * What record 'r''s status rests on, under 'key', each only in the
 * status it belongs to: {fix_named ("fix named"), fix: {sha, subject,
 * branch, date} (a fix that landed: "fix landed", "fixed", "not
 * fixed"), dup: {id, href, subject} ("duplicate"; 'dup' that report's
 * record, or NULL when the state has none), reason ("invalid")}, the
 * others null. Every text from outside goes through 'm'.
 */
void ctx_life_record(struct ctx *c, const char *key, const struct record *r,
		     const struct record *dup, const struct web_mask *m);

#endif
