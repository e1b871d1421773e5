// SPDX-License-Identifier: GPL-2.0-only
/*
 * act: the findings of a walk of the tracked tree applied (track.c walks):
 * in the order of the commits, each through the state machine of
 * act/regression.c, a transition that changes the status answered in
 * the report's thread (templates/tracked.txt), a landed fix handed to the
 * farm for a run on it (tracking.verify, verify.c); the branch's new tip
 * kept in the same transaction.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "perfbot/act/answers.h"
#include "perfbot/act/regression.h"
#include "perfbot/act/verify.h"
#include "perfbot/util/log.h"
#include "perfbot/state/inbox.h"

#include "track_internal.h"

static int by_time(const void *a, const void *b)
{
	const struct hit *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	/* the same second: the walk met the newer first */
	return x->seq > y->seq ? -1 : x->seq < y->seq;
}

int track_answer(struct state *st, const struct config *cfg,
		 const struct record *r, const char *tmpl, struct ctx *c,
		 const char *tag, time_t now, struct pb_err *err)
{
	struct thread_report tr = { .report_id = r->report_id,
				    .subject = r->subject,
				    .recipients = r->recipients,
				    .message_id = r->message_id };
	struct answer_thread t = { .message_id = r->message_id,
				   .subject = r->subject, .report = &tr };
	struct addrlist rcpts;
	const char *why;
	int rc;

	addrlist_init(&rcpts);
	if (!r->recipients || addrlist_from_json(&rcpts, r->recipients, &why) ||
	    !rcpts.n) {
		addrlist_release(&rcpts);
		ctx_release(c);
		return pb_fail(err, EX_DATAERR, "report '%s': no recipients "
			       "to answer", r->report_id);
	}
	/* To the report's first recipient (its author), Cc the others */
	t.from_addr = rcpts.v[0];
	rc = answers_one(st, cfg, &t, tag, tmpl, c, now, err);
	addrlist_release(&rcpts);
	return rc;
}

/*
 * The sha 'fix:' named when the fix landed by its title under another
 * (a patch applied again, as maintainers do), else NULL.
 */
static const char *landed_elsewhere(const struct tracker *t,
				    const struct record *r,
				    const struct hit *h)
{
	const char *named = t->keys[r - t->recs].sha;

	if (h->revert || h->how != MATCH_TITLE || !named ||
	    !strncasecmp(h->sha, named, strlen(named)))
		return NULL;
	return named;
}

/*
 * The piece of a transition of the tree: landed, reverted, gone;
 * 'verify' 1 when the farm was asked for a run on the fix, -1 when it
 * did not take the request, 0 when none was asked.
 */
static void tree_ctx(struct ctx *c, const struct tracker *t,
		     const struct record *before, const struct record *r,
		     const struct hit *h, int left, int verify)
{
	const char *sha = h->revert || left ? before->fix_commit : h->sha;

	ctx_init(c, "answer");
	ctx_bool(c, "landed", !h->revert && !left);
	ctx_bool(c, "reverted", h->revert);
	ctx_bool(c, "left", left);
	if (!sha)
		sha = "";
	ctx_str(c, "sha", sha);
	ctx_strn(c, "short", sha, strnlen(sha, 12));
	ctx_str(c, "summary", h->revert || left ? (before->fix_summary ?
		before->fix_summary : "") : h->summary);
	ctx_str(c, "branch", t->branch);
	ctx_str(c, "revert_sha", h->sha);
	ctx_strn(c, "revert_short", h->sha, strnlen(h->sha, 12));
	ctx_str(c, "revert_summary", h->summary ? h->summary : "");
	ctx_str(c, "how", commit_match_name(h->how));
	ctx_opt(c, "other_sha", landed_elsewhere(t, r, h));
	ctx_bool(c, "by_trailer", h->how == MATCH_CLOSES ||
		 h->how == MATCH_LINK || h->how == MATCH_REPORTED_BY);
	ctx_str(c, "status", r->status);
	ctx_bool(c, "verify", verify > 0);
	ctx_bool(c, "verify_refused", verify < 0);
}

/* Apply one change to record 'i' and answer when its status changed. */
static int apply(struct tracker *t, size_t i, const struct reg_change *ch,
		 const struct hit *h, int left, struct pb_err *err)
{
	struct record *r = &t->recs[i];
	struct record_event ev = { 0 };
	struct record before = { 0 };
	char why[160], tag[128];
	int rc, verify = 0;

	before.fix_commit = r->fix_commit ? strdup(r->fix_commit) : NULL;
	before.fix_summary = r->fix_summary ? strdup(r->fix_summary) : NULL;
	before.status = strdup(r->status);
	if (!before.status)
		return pb_fail(err, EX_OSERR, "out of memory");
	rc = regression_next(r, ch, why, sizeof(why));
	if (rc) {
		record_release(&before);
		return rc < 0 && !strcmp(why, "out of memory") ?
			pb_fail(err, EX_OSERR, "out of memory") : 0;
	}
	/* a fix landed (or rewritten): the farm asked for a run on it */
	if (ch->ev == REG_EV_LANDED && t->cfg->tracking.verify &&
	    regression_status_of(r->status) == REG_FIX_LANDED) {
		if (verify_ask(t->st, t->cfg, r, t->now, &verify, err)) {
			record_release(&before);
			return -1;
		}
		t->ts->verify += verify;
		verify = verify ? 1 : -1;
	}
	ev.event = (char *)regression_event_name(ch->ev);
	ev.from = before.status;
	ev.to = r->status;
	ev.by = (char *)"tracking";
	ev.detail = (char *)(left ? t->branch : h->summary);
	ev.source = (char *)h->sha;
	snprintf(tag, sizeof(tag), "%s:%s:%.40s", left ? "left" : h->revert ?
		 "reverted" : "landed", t->branch, h->sha);
	rc = state_record_put(t->st, r, &ev, t->now, err);
	if (!rc && strcmp(before.status, r->status)) {
		struct ctx c;

		tree_ctx(&c, t, &before, r, h, left, verify);
		rc = track_answer(t->st, t->cfg, r, "tracked", &c, tag, t->now,
				  err);
		if (!rc && left)
			t->ts->gone++;
		else if (!rc)
			*(h->revert ? &t->ts->gone : &t->ts->landed) += 1;
		if (!rc)
			log_info("report '%s': %s (%.12s on '%s')",
				 r->report_id, r->status, h->sha, t->branch);
	}
	record_release(&before);
	return rc;
}

static int landed_here(const struct record *r)
{
	int s = regression_status_of(r->status);

	return r->fix_commit && (s == REG_FIX_LANDED || s == REG_FIXED ||
				 s == REG_NOT_FIXED);
}

static int apply_hit(struct tracker *t, const struct hit *h,
		     struct pb_err *err)
{
	struct reg_change ch = { REG_EV_LANDED, NULL, h->sha, h->summary,
				 t->branch, h->time };
	size_t i;

	if (!h->revert)
		return apply(t, h->rec, &ch, h, 0, err);
	ch.ev = REG_EV_REVERTED;
	for (i = 0; i < t->nrecs; i++)
		if (landed_here(&t->recs[i]) &&
		    commit_reverts(h->reverts, h->revert_title,
				   t->recs[i].fix_commit,
				   t->recs[i].fix_summary) &&
		    apply(t, i, &ch, h, 0, err))
			return -1;
	return 0;
}

/* After a force-push: the fixes of this branch that are no longer on it. */
static int apply_left(struct tracker *t, const char *tip, struct pb_err *err)
{
	struct reg_change ch = { REG_EV_LEFT, NULL, NULL, NULL, NULL, 0 };
	struct hit h = { 0 };
	size_t i;
	int yes;

	memcpy(h.sha, tip, sizeof(h.sha));
	for (i = 0; i < t->nrecs; i++) {
		struct record *r = &t->recs[i];

		if (!landed_here(r) || !r->fix_branch ||
		    strcmp(r->fix_branch, t->branch))
			continue;
		if (gittree_contains(t->g, tip, r->fix_commit, &yes, err))
			return -1;
		if (!yes && apply(t, i, &ch, &h, 1, err))
			return -1;
	}
	return 0;
}

/* The named fixes looked for are marked so (found or not). */
static int mark_searched(struct tracker *t, struct pb_err *err)
{
	size_t i;

	for (i = 0; i < t->nrecs; i++) {
		if (!track_searching(&t->recs[i]))
			continue;
		t->recs[i].searched = 1;
		if (state_record_put(t->st, &t->recs[i], NULL, t->now, err))
			return -1;
		t->recs[i].stored = 1;
	}
	return 0;
}

int track_apply_branch(struct tracker *t, const char *tip, int rewritten,
		       struct pb_err *err)
{
	size_t i;
	int rc;

	if (t->nhits)	/* qsort() takes no NULL, even for nothing */
		qsort(t->hits, t->nhits, sizeof(*t->hits), by_time);
	if (state_begin(t->st, err))
		return -1;
	rc = 0;
	for (i = 0; i < t->nhits && !rc; i++)
		rc = apply_hit(t, &t->hits[i], err);
	rc = rc || (rewritten && apply_left(t, tip, err)) ||
	     mark_searched(t, err) ||
	     state_track_set(t->st, t->branch, tip, t->now, err);
	if (rc) {
		state_rollback(t->st);
		return -1;
	}
	return state_commit(t->st, err);
}

