// SPDX-License-Identifier: GPL-2.0-only
/*
 * act: the fixes found in the tracked tree (track.h). Per branch: the
 * commits new since the last walk (and, for a fix named but not looked
 * for yet, the history back to a month before its report) are matched
 * with the records still followed; the findings are then applied in the
 * order of the commits, each transition through act/regression.c with
 * its answer in the report's thread, and the branch's new tip is kept,
 * all in one transaction.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/act/dispatch.h"
#include "perfbot/act/regression.h"
#include "perfbot/act/track.h"
#include "perfbot/compose/identity.h"
#include "perfbot/ingest/gittree.h"
#include "perfbot/ingest/trailers.h"
#include "perfbot/util/addr.h"
#include "perfbot/util/log.h"
#include "perfbot/util/strmap.h"

#define CANDIDATES 64		/* records one commit may name */
#define NAME_BYTES 4096

/* The records a run follows: open, fix named or landed, not fixed, fixed. */
static const char followed_json[] = "[\"open\", \"fix named\", "
	"\"fix landed\", \"not fixed\", \"fixed\"]";

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

/* ---- what names the records ---- */

static int named_sha(const struct record *r)
{
	return r->fix_named && commit_is_sha(r->fix_named,
					     strlen(r->fix_named));
}

static int keys_make(struct tracker *t, struct pb_err *err)
{
	size_t i;

	t->urls = calloc(t->nrecs + 1, sizeof(*t->urls));
	t->keys = calloc(t->nrecs + 1, sizeof(*t->keys));
	if (!t->urls || !t->keys || strmap_reserve(&t->names, 2 * t->nrecs))
		return pb_fail(err, EX_OSERR, "out of memory");
	for (i = 0; i < t->nrecs; i++) {
		struct record *r = &t->recs[i];
		struct report_key *k = &t->keys[i];

		t->urls[i] = identity_closes_url(t->cfg, r->report_id,
						 r->message_id);
		k->url = t->urls[i];
		k->message_id = r->message_id;
		k->sha = named_sha(r) ? r->fix_named : NULL;
		k->title = r->fix_named && !k->sha ? r->fix_named : NULL;
		if ((k->url && strmap_put(&t->names, k->url, i, NULL)) ||
		    (k->message_id && strmap_put(&t->names, k->message_id, i,
						 NULL)) ||
		    (k->title && strmap_put(&t->titles, k->title, i, NULL)))
			return pb_fail(err, EX_OSERR, "out of memory");
	}
	t->bot_from = identity_sender(t->cfg);
	t->bot_rb = addr_spec(t->cfg->identity.reported_by);
	t->bots[0] = t->bot_from;
	t->bots[1] = t->bot_rb;
	return 0;
}

static void hits_clear(struct tracker *t)
{
	size_t i;

	for (i = 0; i < t->nhits; i++) {
		free(t->hits[i].summary);
		free(t->hits[i].reverts);
		free(t->hits[i].revert_title);
	}
	t->nhits = 0;
}

static void tracker_release(struct tracker *t)
{
	size_t i;

	hits_clear(t);
	free(t->hits);
	for (i = 0; t->urls && i < t->nrecs; i++)
		free(t->urls[i]);
	free(t->urls);
	free(t->keys);
	strmap_release(&t->names);
	strmap_release(&t->titles);
	records_free(t->recs, t->nrecs);
	free(t->bot_from);
	free(t->bot_rb);
	gittree_close(t->g);
}

/* ---- the walk ---- */

static struct hit *hit_new(struct tracker *t, const struct git_commit_info *c,
			   const struct commit_msg *m)
{
	struct hit *h, *nv;

	if (t->nhits == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 16;
		nv = realloc(t->hits, t->cap * sizeof(*nv));
		if (!nv)
			return NULL;
		t->hits = nv;
	}
	h = &t->hits[t->nhits];
	memset(h, 0, sizeof(*h));
	memcpy(h->sha, c->sha, sizeof(h->sha));
	h->summary = strdup(m->summary ? m->summary : "");
	h->time = c->time;
	h->seq = t->seq;
	if (!h->summary)
		return NULL;
	t->nhits++;
	return h;
}

struct candidates {
	struct tracker *t;
	size_t v[CANDIDATES];
	size_t n;
};

static void candidate(struct candidates *cs, size_t rec)
{
	size_t i;

	for (i = 0; i < cs->n; i++)
		if (cs->v[i] == rec)
			return;
	if (cs->n < CANDIDATES)
		cs->v[cs->n++] = rec;
}

static int name_seen(const char *name, size_t n, void *arg)
{
	struct candidates *cs = arg;
	char buf[NAME_BYTES + 1];
	size_t rec;

	if (n > NAME_BYTES)
		return 0;
	memcpy(buf, name, n);
	buf[n] = '\0';
	if (!strmap_get(&cs->t->names, buf, &rec))
		candidate(cs, rec);
	return 0;
}

/* The records a commit may name; the matcher then decides. */
static void candidates_of(struct tracker *t, const struct commit_msg *m,
			  struct candidates *cs)
{
	size_t i, rec;
	int by_bot = 0;

	cs->t = t;
	cs->n = 0;
	if (m->summary && !strmap_get(&t->titles, m->summary, &rec))
		candidate(cs, rec);
	for (i = 0; i < t->nrecs; i++)
		if (t->keys[i].sha)
			candidate(cs, i);
	if (t->titles_only)
		return;
	for (i = 0; i < m->ntrailers; i++) {
		const struct trailer *tr = &m->trailers[i];

		if (!strcasecmp(tr->key, "Closes") ||
		    !strcasecmp(tr->key, "Link"))
			commit_names(tr->value, strlen(tr->value), name_seen,
				     cs);
		by_bot |= !strcasecmp(tr->key, "Reported-by");
	}
	if (by_bot)
		commit_names(m->text, m->len, name_seen, cs);
}

/* A record the titles-only pass looks for: named, not looked for yet. */
static int searching(const struct record *r)
{
	return r->fix_named && !r->searched &&
	       !strcmp(r->status, "fix named");
}

static int one_commit(void *arg, const struct git_commit_info *c,
		      struct pb_err *err)
{
	struct tracker *t = arg;
	struct candidates cs;
	struct commit_msg m;
	struct hit *h;
	size_t i;
	int rc = 0;

	t->seq++;
	t->ts->walked++;
	if (commit_msg_parse(&m, c->message, c->len)) {
		commit_msg_release(&m);
		return pb_fail(err, EX_OSERR, "out of memory");
	}
	candidates_of(t, &m, &cs);
	for (i = 0; i < cs.n && !rc; i++) {
		size_t rec = cs.v[i];
		enum commit_match how;

		if (t->titles_only && !searching(&t->recs[rec]))
			continue;
		how = commit_match(&m, c->sha, &t->keys[rec], t->bots, 2);
		if (how == MATCH_NONE)
			continue;
		h = hit_new(t, c, &m);
		if (!h)
			rc = -1;
		else {
			h->rec = rec;
			h->how = how;
		}
	}
	if (!rc && !t->titles_only && (m.reverts || m.revert_title)) {
		h = hit_new(t, c, &m);
		rc = !h || (h->revert = 1,
			    (m.reverts && !(h->reverts = strdup(m.reverts))) ||
			    (m.revert_title &&
			     !(h->revert_title = strdup(m.revert_title))));
	}
	commit_msg_release(&m);
	return rc ? pb_fail(err, EX_OSERR, "out of memory") : 0;
}

/* The oldest report among those 'want' picks, less the slack; 0: none. */
static time_t since_of(const struct tracker *t, int (*want)(const struct record *))
{
	time_t since = 0;
	size_t i;

	for (i = 0; i < t->nrecs; i++)
		if (want(&t->recs[i]) && (!since || t->recs[i].mailed < since))
			since = t->recs[i].mailed;
	return since ? (since > TRACK_SLACK ? since - TRACK_SLACK : 1) : 0;
}

static int not_closed(const struct record *r)
{
	int s = regression_status_of(r->status);

	return s < 0 || !regression_closed(s);
}

static int walk(struct tracker *t, const char *tip, const char *hide,
		time_t since, struct pb_err *err)
{
	size_t walked;
	int hidden;

	return gittree_walk(t->g, tip, hide, since, TRACK_MAX_COMMITS,
			    one_commit, t, &walked, &hidden, err);
}

/* A sha named by fix: and not looked for yet: on the branch already? */
static int look_for_shas(struct tracker *t, const char *tip,
			 struct pb_err *err)
{
	char full[GIT_SHA_HEX];
	size_t i;
	int found, yes, rc = 0;

	t->titles_only = 1;
	for (i = 0; i < t->nrecs && !rc; i++) {
		if (!searching(&t->recs[i]) || !t->keys[i].sha)
			continue;
		rc = gittree_resolve(t->g, t->keys[i].sha, full, &found, err) ||
		     (found && gittree_contains(t->g, tip, full, &yes, err)) ||
		     (found && yes && gittree_commit(t->g, full, one_commit, t,
						     err));
	}
	t->titles_only = 0;
	return rc ? -1 : 0;
}

/* The commits of one branch: the named fixes, then what is new. */
static int walk_branch(struct tracker *t, const char *tip, const char *old,
		       int *rewritten, struct pb_err *err)
{
	time_t since;
	int yes = 1;

	*rewritten = 0;
	if (look_for_shas(t, tip, err))
		return -1;
	since = since_of(t, searching);
	t->titles_only = 1;
	if (since && walk(t, tip, NULL, since, err))
		return -1;
	t->titles_only = 0;
	if (old && !strcmp(old, tip))
		return 0;
	if (old && gittree_contains(t->g, tip, old, &yes, err))
		return -1;
	if (old && !yes) {
		log_warn("tracking: '%s' was rewritten (%.12s is no ancestor "
			 "of %.12s): its new commits are walked again",
			 t->branch, old, tip);
		*rewritten = 1;
	}
	if (old)	/* a tip the repository lost hides nothing: by time */
		return walk(t, tip, old, yes ? 0 : since_of(t, not_closed),
			    err);
	since = since_of(t, not_closed);
	return since ? walk(t, tip, NULL, since, err) : 0;
}

/* ---- applying the findings ---- */

static int by_time(const void *a, const void *b)
{
	const struct hit *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	/* the same second: the walk met the newer first */
	return x->seq > y->seq ? -1 : x->seq < y->seq;
}

int track_answer(struct state *st, const struct config *cfg,
		 const struct record *r, const char *tmpl, json_t *ctx,
		 const char *tag, time_t now, struct pb_err *err)
{
	struct thread_report tr = { r->report_id, r->subject, r->recipients,
				    r->message_id };
	struct answer_thread t = { r->message_id, NULL, NULL, 0, r->subject,
				   NULL, NULL, &tr };
	struct act_ctx a = { st, cfg, now, &t, json_array(), 0, 0, 0, NULL };
	struct addrlist rcpts;
	const char *why;
	int rc;

	addrlist_init(&rcpts);
	if (!r->recipients || addrlist_from_json(&rcpts, r->recipients, &why) ||
	    !rcpts.n) {
		addrlist_release(&rcpts);
		json_decref(ctx);
		json_decref(a.pieces);
		return pb_fail(err, EX_DATAERR, "report '%s': no recipients "
			       "to answer", r->report_id);
	}
	/* To the report's first recipient (its author), Cc the others */
	t.from_addr = rcpts.v[0];
	rc = !a.pieces ? pb_fail(err, EX_OSERR, "out of memory") :
		dispatch_piece(&a, tmpl, ctx, err) ||
		dispatch_answer(st, cfg, &t, tag, a.pieces, now, err);
	if (!a.pieces)
		json_decref(ctx);
	json_decref(a.pieces);
	addrlist_release(&rcpts);
	return rc ? -1 : 0;
}

/* The piece of a transition of the tree: landed, reverted, gone. */
static json_t *tree_ctx(const struct tracker *t, const struct record *before,
			const struct record *r, const struct hit *h,
			int left)
{
	const char *sha = h->revert || left ? before->fix_commit : h->sha;
	struct ctx c;
	json_t *o;

	ctx_init(&c, "answer");
	ctx_bool(&c, "landed", !h->revert && !left);
	ctx_bool(&c, "reverted", h->revert);
	ctx_bool(&c, "left", left);
	if (!sha)
		sha = "";
	ctx_str(&c, "sha", sha);
	ctx_strn(&c, "short", sha, strnlen(sha, 12));
	ctx_str(&c, "summary", h->revert || left ? (before->fix_summary ?
		before->fix_summary : "") : h->summary);
	ctx_str(&c, "branch", t->branch);
	ctx_str(&c, "revert_sha", h->sha);
	ctx_strn(&c, "revert_short", h->sha, strnlen(h->sha, 12));
	ctx_str(&c, "revert_summary", h->summary ? h->summary : "");
	ctx_str(&c, "how", commit_match_name(h->how));
	ctx_bool(&c, "by_trailer", h->how == MATCH_CLOSES ||
		 h->how == MATCH_LINK || h->how == MATCH_REPORTED_BY);
	ctx_str(&c, "status", r->status);
	ctx_bool(&c, "verify", t->cfg->tracking.verify && !h->revert &&
		 !left);
	return ctx_finish(&c, &o, NULL) ? NULL : o;
}

/* Apply one change to record 'i' and answer when its status changed. */
static int apply(struct tracker *t, size_t i, const struct reg_change *ch,
		 const struct hit *h, int left, struct pb_err *err)
{
	struct record *r = &t->recs[i];
	struct record_event ev = { 0 };
	struct record before = { 0 };
	char why[160], tag[128];
	int rc;

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
		json_t *ctx = tree_ctx(t, &before, r, h, left);

		rc = !ctx ? pb_fail(err, EX_OSERR, "out of memory") :
			track_answer(t->st, t->cfg, r, "tracked", ctx, tag,
				     t->now, err);
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
		if (!searching(&t->recs[i]))
			continue;
		t->recs[i].searched = 1;
		if (state_record_put(t->st, &t->recs[i], NULL, t->now, err))
			return -1;
		t->recs[i].stored = 1;
	}
	return 0;
}

static int apply_branch(struct tracker *t, const char *tip, int rewritten,
			struct pb_err *err)
{
	size_t i;
	int rc;

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

static int one_branch(struct tracker *t, const char *branch,
		      struct pb_err *err)
{
	char tip[GIT_SHA_HEX], *old = NULL;
	int rc, rewritten = 0;

	t->branch = branch;
	hits_clear(t);
	if (gittree_tip(t->g, branch, tip, err) ||
	    state_track_tip(t->st, branch, &old, err))
		return -1;
	rc = walk_branch(t, tip, old, &rewritten, err) ||
	     apply_branch(t, tip, rewritten, err);
	free(old);
	t->ts->branches++;
	return rc ? -1 : 0;
}

int track_step(struct state *st, const struct config *cfg, time_t now,
	       struct track_stats *ts, struct pb_err *err)
{
	struct tracker t;
	static const char *const head[] = { "HEAD", NULL };
	const char *const *branches = cfg->tracking.branches.n ?
		cfg->tracking.branches.v : head;
	size_t i;
	int rc;

	memset(ts, 0, sizeof(*ts));
	if (!cfg->tracking.repo)
		return 0;
	memset(&t, 0, sizeof(t));
	t.st = st;
	t.cfg = cfg;
	t.now = now;
	t.ts = ts;
	strmap_init(&t.names);
	strmap_init(&t.titles);
	rc = gittree_open(&t.g, cfg->tracking.repo, err) ||
	     state_records(st, followed_json, 0, &t.recs, &t.nrecs, err) ||
	     keys_make(&t, err);
	for (i = 0; !rc && branches[i]; i++)
		rc = one_branch(&t, branches[i], err);
	tracker_release(&t);
	return rc ? -1 : 0;
}
