// SPDX-License-Identifier: GPL-2.0-only
/*
 * ingest: a bisection's candidates from the tracked tree (bisect_range.h),
 * with libgit2's revision walk: head's first-parent line down to base, or
 * a merge's second-parent side; each commit marked merge, tagged or no-op.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/ingest/bisect_range.h"
#include "gittree_internal.h"

/* The tags' commits, sorted by id, each with its first name. */
struct tag_ent {
	git_oid id;
	char name[BISECT_TAG_MAX];
};

struct tags {
	git_repository *repo;
	struct tag_ent *e;
	size_t n, cap;
	int oom;
};

static int tag_cb(const char *name, git_oid *oid, void *arg)
{
	struct tags *tg = arg;
	git_object *obj = NULL, *peeled = NULL;
	struct tag_ent *grown;
	const char *shortname = name;

	if (!strncmp(shortname, "refs/tags/", 10))
		shortname += 10;
	/* a tag of something else than a commit (a tree, a blob) is none */
	if (git_object_lookup(&obj, tg->repo, oid, GIT_OBJECT_ANY) ||
	    git_object_peel(&peeled, obj, GIT_OBJECT_COMMIT))
		goto out;
	if (tg->n == tg->cap) {
		tg->cap = tg->cap ? 2 * tg->cap : 64;
		grown = realloc(tg->e, tg->cap * sizeof(*tg->e));
		if (!grown) {
			tg->oom = 1;
			git_object_free(obj);
			return -1;
		}
		tg->e = grown;
	}
	git_oid_cpy(&tg->e[tg->n].id, git_object_id(peeled));
	snprintf(tg->e[tg->n].name, BISECT_TAG_MAX, "%s", shortname);
	tg->n++;
out:
	git_object_free(peeled);
	git_object_free(obj);
	return 0;
}

/* By commit, then by name: the first of a commit's tags is its smallest. */
static int tag_cmp(const void *a, const void *b)
{
	const struct tag_ent *x = a, *y = b;
	int c = git_oid_cmp(&x->id, &y->id);

	return c ? c : strcmp(x->name, y->name);
}

static int tags_load(struct tags *tg, git_repository *repo,
		     struct pb_err *err)
{
	int rc;

	memset(tg, 0, sizeof(*tg));
	tg->repo = repo;
	rc = git_tag_foreach(repo, tag_cb, tg);
	if (tg->oom)
		return pb_fail(err, EX_OSERR, "out of memory");
	if (rc && rc != GIT_ENOTFOUND)
		return pb_fail(err, EX_SOFTWARE, "tracking.repo: the tags: %s",
			       gittree_why("unreadable"));
	if (tg->n)
		qsort(tg->e, tg->n, sizeof(*tg->e), tag_cmp);
	return 0;
}

static const struct tag_ent *tag_of(const struct tags *tg, const git_oid *id)
{
	size_t lo = 0, hi = tg->n;

	/* the first entry not below 'id' */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (git_oid_cmp(&tg->e[mid].id, id) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < tg->n && git_oid_equal(&tg->e[lo].id, id) ? &tg->e[lo] :
		NULL;
}

/* The marks of one commit. */
static int mark(git_repository *repo, const struct tags *tg,
		const git_oid *id, struct bisect_cand *c, struct pb_err *err)
{
	git_commit *cm = NULL, *parent = NULL;
	git_tree *tree = NULL;
	const struct tag_ent *te;
	int rc = -1;

	memset(c, 0, sizeof(*c));
	git_oid_tostr(c->sha, GIT_SHA_HEX, id);
	if (git_commit_lookup(&cm, repo, id)) {
		pb_fail(err, EX_SOFTWARE, "tracking.repo: commit %s: %s",
			c->sha, gittree_why("unreadable"));
		goto out;
	}
	if (git_commit_parentcount(cm) > 1)
		c->marks |= BISECT_MERGE;
	if (git_commit_parentcount(cm) == 0) {
		/* a root commit touches nothing when its tree is empty */
		if (git_commit_tree(&tree, cm))
			goto unreadable;
		if (git_tree_entrycount(tree) == 0)
			c->marks |= BISECT_NOOP;
	} else {
		if (git_commit_parent(&parent, cm, 0))
			goto unreadable;
		if (git_oid_equal(git_commit_tree_id(cm),
				  git_commit_tree_id(parent)))
			c->marks |= BISECT_NOOP;
	}
	if ((te = tag_of(tg, id))) {
		c->marks |= BISECT_TAG;
		memcpy(c->tag, te->name, sizeof(c->tag));
	}
	rc = 0;
	goto out;
unreadable:
	pb_fail(err, EX_SOFTWARE, "tracking.repo: commit %s: %s", c->sha,
		gittree_why("unreadable"));
out:
	git_tree_free(tree);
	git_commit_free(parent);
	git_commit_free(cm);
	return rc;
}

static int push_cand(struct bisect_range *r, size_t *cap, struct pb_err *err)
{
	struct bisect_cand *grown;

	if (r->n == BISECT_RANGE_MAX)
		return pb_fail(err, EX_DATAERR, "bisect: more than %d commits "
			       "in the range", BISECT_RANGE_MAX);
	if (r->n == *cap) {
		*cap = *cap ? 2 * *cap : 256;
		grown = realloc(r->c, *cap * sizeof(*r->c));
		if (!grown)
			return pb_fail(err, EX_OSERR, "out of memory");
		r->c = grown;
	}
	r->n++;
	return 0;
}

/* Every commit 'w' gives, then 'last' (NULL: none), marked, into 'r'. */
static int collect(git_repository *repo, git_revwalk *w, const git_oid *last,
		   struct bisect_range *r, struct pb_err *err)
{
	size_t cap = 0;
	struct tags tg;
	git_oid id;
	int rc = -1, next;

	if (tags_load(&tg, repo, err))
		goto out;
	while (!(next = git_revwalk_next(&id, w))) {
		if (push_cand(r, &cap, err) ||
		    mark(repo, &tg, &id, &r->c[r->n - 1], err))
			goto out;
	}
	if (next != GIT_ITEROVER) {
		pb_fail(err, EX_SOFTWARE, "tracking.repo: %s",
			gittree_why("the walk failed"));
		goto out;
	}
	if (last && (push_cand(r, &cap, err) ||
		     mark(repo, &tg, last, &r->c[r->n - 1], err)))
		goto out;
	rc = 0;
out:
	free(tg.e);
	return rc;
}

static void reverse(struct bisect_range *r)
{
	size_t i;

	for (i = 0; i < r->n / 2; i++) {
		struct bisect_cand tmp = r->c[i];

		r->c[i] = r->c[r->n - 1 - i];
		r->c[r->n - 1 - i] = tmp;
	}
}

static int walk_fail(struct pb_err *err)
{
	return pb_fail(err, EX_SOFTWARE, "tracking.repo: %s",
		       gittree_why("cannot walk"));
}

int bisect_range_list(struct gittree *t, const char *base, const char *head,
		      struct bisect_range *r, struct pb_err *err)
{
	git_revwalk *w = NULL;
	git_oid b, h;
	int rc = -1;

	bisect_range_release(r);
	if (gittree_commit_id(t->repo, base, &b))
		return pb_fail(err, EX_DATAERR, "bisect: '%s': no commit %.40s",
			       t->path, base);
	if (gittree_commit_id(t->repo, head, &h))
		return pb_fail(err, EX_DATAERR, "bisect: '%s': no commit %.40s",
			       t->path, head);
	/* newest first down head's first parents, then turned around */
	if (git_revwalk_new(&w, t->repo) ||
	    git_revwalk_sorting(w, GIT_SORT_TOPOLOGICAL) ||
	    git_revwalk_simplify_first_parent(w) ||
	    git_revwalk_push(w, &h) || git_revwalk_hide(w, &b)) {
		walk_fail(err);
		goto out;
	}
	if (collect(t->repo, w, NULL, r, err))
		goto out;
	if (!r->n) {
		pb_fail(err, EX_DATAERR, "bisect: %.12s..%.12s: no commit in "
			"the range", base, head);
		goto out;
	}
	reverse(r);
	rc = 0;
out:
	git_revwalk_free(w);
	if (rc)
		bisect_range_release(r);
	return rc;
}

int bisect_range_merge(struct gittree *t, const char *merge,
		       struct bisect_range *r, struct pb_err *err)
{
	git_revwalk *w = NULL;
	git_commit *m = NULL;
	git_oid id;
	int rc = -1;

	bisect_range_release(r);
	if (gittree_commit_id(t->repo, merge, &id) ||
	    git_commit_lookup(&m, t->repo, &id))
		return pb_fail(err, EX_DATAERR, "bisect: '%s': no commit %.40s",
			       t->path, merge);
	if (git_commit_parentcount(m) < 2) {
		pb_fail(err, EX_DATAERR, "bisect: %.12s is not a merge", merge);
		goto out;
	}
	if (git_revwalk_new(&w, t->repo) ||
	    git_revwalk_sorting(w, GIT_SORT_TOPOLOGICAL | GIT_SORT_REVERSE) ||
	    git_revwalk_push(w, git_commit_parent_id(m, 1)) ||
	    git_revwalk_hide(w, git_commit_parent_id(m, 0))) {
		walk_fail(err);
		goto out;
	}
	/* the merge itself, last: the head of the inner range */
	if (collect(t->repo, w, &id, r, err))
		goto out;
	rc = 0;
out:
	git_revwalk_free(w);
	git_commit_free(m);
	if (rc)
		bisect_range_release(r);
	return rc;
}

void bisect_range_release(struct bisect_range *r)
{
	free(r->c);
	r->c = NULL;
	r->n = 0;
}
