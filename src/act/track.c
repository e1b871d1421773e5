// SPDX-License-Identifier: GPL-2.0-only
/*
 * act: the fixes found in the tracked tree (track.h). Per branch: the
 * commits new since the last walk (and, for a fix named but not looked
 * for yet, the history back to a month before its report) are matched
 * with the records still followed; the findings are then applied
 * (track_apply.c), all in one transaction.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/act/answers.h"
#include "perfbot/act/regression.h"
#include "perfbot/act/track.h"
#include "perfbot/compose/identity.h"
#include "perfbot/ingest/gittree.h"
#include "perfbot/ingest/trailers.h"
#include "perfbot/util/addr.h"
#include "perfbot/util/log.h"
#include "perfbot/util/strmap.h"

#include "track_internal.h"

#define CANDIDATES 64		/* records one commit may name */
#define NAME_BYTES 4096

/* The records a run follows: open, fix named or landed, not fixed, fixed. */
static const char followed_json[] = "[\"open\", \"fix named\", "
	"\"fix landed\", \"not fixed\", \"fixed\"]";

/* ---- what names the records ---- */

/*
 * What 'fix:' named of record 'r', into '*copy' (malloc'd, NULL for a
 * title): a sha, and with git's reference form its title as a second
 * key, so that a patch applied again under another sha is found too.
 */
static int fix_keys(const struct record *r, struct report_key *k,
		    char **copy)
{
	const char *title;
	size_t n, tn;

	*copy = NULL;
	k->sha = k->title = NULL;
	if (!r->fix_named)
		return 0;
	if (!commit_ref(r->fix_named, &n, &title, &tn)) {
		k->title = r->fix_named;
		return 0;
	}
	*copy = strdup(r->fix_named);
	if (!*copy)
		return -1;
	(*copy)[n] = '\0';
	k->sha = *copy;
	if (title) {
		(*copy)[title - r->fix_named + tn] = '\0';
		k->title = *copy + (title - r->fix_named);
	}
	return 0;
}

static int keys_make(struct tracker *t, struct pb_err *err)
{
	size_t i;

	t->urls = calloc(t->nrecs + 1, sizeof(*t->urls));
	t->named = calloc(t->nrecs + 1, sizeof(*t->named));
	t->keys = calloc(t->nrecs + 1, sizeof(*t->keys));
	if (!t->urls || !t->named || !t->keys ||
	    strmap_reserve(&t->names, 2 * t->nrecs))
		return pb_fail(err, EX_OSERR, "out of memory");
	for (i = 0; i < t->nrecs; i++) {
		struct record *r = &t->recs[i];
		struct report_key *k = &t->keys[i];

		t->urls[i] = identity_closes_url(t->cfg, r->report_id,
						 r->message_id);
		k->url = t->urls[i];
		k->message_id = r->message_id;
		if (fix_keys(r, k, &t->named[i]) ||
		    (k->url && strmap_put(&t->names, k->url, i, NULL)) ||
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
	for (i = 0; t->named && i < t->nrecs; i++)
		free(t->named[i]);
	free(t->urls);
	free(t->named);
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
int track_searching(const struct record *r)
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

		if (t->titles_only && !track_searching(&t->recs[rec]))
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
		if (!track_searching(&t->recs[i]) || !t->keys[i].sha)
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
	since = since_of(t, track_searching);
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
	     track_apply_branch(t, tip, rewritten, err);
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

int track_check(const struct config *cfg, char *line, size_t len,
		struct pb_err *err)
{
	static const char *const head[] = { "HEAD", NULL };
	const char *const *branches = cfg->tracking.branches.n ?
		cfg->tracking.branches.v : head;
	struct gittree *g = NULL;
	char tip[GIT_SHA_HEX];
	size_t i, used;
	int rc = 0;

	if (cfg->tracking.verify && (!cfg->scheduler.backend ||
				     !cfg->scheduler.results_dir))
		return pb_fail(err, EX_CONFIG, "tracking.verify: the runs on "
			       "a fix need scheduler.backend and "
			       "scheduler.results_dir");
	if (gittree_open(&g, cfg->tracking.repo, err))
		return -1;
	used = (size_t)snprintf(line, len, "tracking '%s':",
				cfg->tracking.repo);
	for (i = 0; branches[i] && !rc; i++) {
		rc = gittree_tip(g, branches[i], tip, err);
		if (!rc && used < len)
			used += (size_t)snprintf(line + used, len - used,
						 "%s '%s' at %.12s", i ? "," :
						 "", branches[i], tip);
	}
	gittree_close(g);
	return rc;
}
