/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_ACT_TRACK_INTERNAL_H
#define PERFBOT_ACT_TRACK_INTERNAL_H

/*
 * What the walk of the tracked tree (track.c) hands to the applying of
 * its findings (track_apply.c): the records followed with what names
 * them, and the findings of one branch. Internal to src/act/.
 */

#include "perfbot/act/track.h"
#include "perfbot/ingest/gittree.h"
#include "perfbot/ingest/trailers.h"
#include "perfbot/util/strmap.h"

/* A finding of a walk: a commit that names a record, or a revert. */
struct hit {
	size_t rec;		/* the record (a landing) */
	int revert;		/* a revert: applied to the landed records */
	enum commit_match how;
	char sha[GIT_SHA_HEX];
	char *summary;
	char *reverts, *revert_title;
	time_t time;
	size_t seq;		/* the walk's order: newest first */
};

struct tracker {
	struct state *st;
	const struct config *cfg;
	time_t now;
	struct gittree *g;
	struct track_stats *ts;
	/* the records followed, as this run leaves them */
	struct record *recs;
	size_t nrecs;
	char **urls;
	char **named;		/* the sha and title a fix: named, split */
	struct report_key *keys;
	struct strmap names;	/* archive links and Message-IDs */
	struct strmap titles;	/* titles named by fix: */
	const char *bots[2];
	char *bot_from, *bot_rb;
	/* the branch being walked */
	const char *branch;
	int titles_only;	/* the pass that looks for named titles */
	struct hit *hits;
	size_t nhits, cap, seq;
};

/* A named fix not looked for in the history yet. */
int track_searching(const struct record *r);

/*
 * The findings of branch t->branch applied in the order of the commits,
 * then (after a force-push, 'rewritten') the fixes it dropped, the named
 * fixes marked looked for, and its new tip kept: one transaction.
 */
int track_apply_branch(struct tracker *t, const char *tip, int rewritten,
		       struct pb_err *err);

#endif
