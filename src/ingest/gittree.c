// SPDX-License-Identifier: GPL-2.0-only
/*
 * ingest: the tracked tree read with libgit2 (gittree.h): branches to
 * commits, ancestry, sha prefixes, and the walk of the commits a branch
 * gained. bisect_range.c, the other file that uses libgit2, lists a
 * bisection's candidates through gittree_internal.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <git2.h>

#include "perfbot/ingest/gittree.h"
#include "gittree_internal.h"

const char *gittree_why(const char *dflt)
{
	const git_error *e = git_error_last();

	return e && e->message ? e->message : dflt;
}

int gittree_open(struct gittree **out, const char *path, struct pb_err *err)
{
	struct gittree *t;

	*out = NULL;
	if (git_libgit2_init() < 0)
		return pb_fail(err, EX_SOFTWARE, "tracking.repo: libgit2 did "
			       "not start: %s", gittree_why("unknown error"));
	t = calloc(1, sizeof(*t));
	if (!t || !(t->path = strdup(path))) {
		free(t);
		git_libgit2_shutdown();
		return pb_fail(err, EX_OSERR, "out of memory");
	}
	/* the repository itself: never one found in a parent directory */
	if (git_repository_open_ext(&t->repo, path,
				    GIT_REPOSITORY_OPEN_NO_SEARCH, NULL)) {
		pb_fail(err, EX_CONFIG, "tracking.repo: '%s': not a git "
			"repository: %s", path, gittree_why("cannot open"));
		gittree_close(t);
		return -1;
	}
	*out = t;
	return 0;
}

void gittree_close(struct gittree *t)
{
	if (!t)
		return;
	git_repository_free(t->repo);
	free(t->path);
	free(t);
	git_libgit2_shutdown();
}

static void hex_of(const git_oid *id, char out[GIT_SHA_HEX])
{
	git_oid_tostr(out, GIT_SHA_HEX, id);
}

/*
 * The commit a name points at (peeling tags): 0; -1 when there is no
 * such reference; -2 when there is, but what it points at cannot be read
 * (a damaged repository: 'id' is then what it points at, or zero).
 */
static int commit_of_ref(git_repository *repo, const char *name, git_oid *id)
{
	static const char *const forms[] = { "refs/heads/%s",
		"refs/remotes/%s", "%s" };
	git_object *obj = NULL;
	git_reference *ref = NULL;
	char full[1024];
	size_t i;
	int rc = -1;

	for (i = 0; i < 3 && rc; i++) {
		if ((size_t)snprintf(full, sizeof(full), forms[i], name) >=
		    sizeof(full))
			return -1;
		rc = git_reference_lookup(&ref, repo, full);
	}
	if (rc)
		return -1;
	rc = git_reference_peel(&obj, ref, GIT_OBJECT_COMMIT);
	if (!rc)
		git_oid_cpy(id, git_object_id(obj));
	else if (git_reference_target(ref))
		git_oid_cpy(id, git_reference_target(ref));
	else
		memset(id, 0, sizeof(*id));
	git_object_free(obj);
	git_reference_free(ref);
	return rc ? -2 : 0;
}

int gittree_tip(struct gittree *t, const char *branch, char tip[GIT_SHA_HEX],
		struct pb_err *err)
{
	git_oid id;
	int rc;

	tip[0] = '\0';
	rc = commit_of_ref(t->repo, branch, &id);
	if (rc == -1)
		return pb_fail(err, EX_CONFIG, "tracking.branches: '%s': no "
			       "such branch in '%s'", branch, t->path);
	hex_of(&id, tip);
	if (!rc)
		return 0;
	/* the branch is there, its commit is not */
	pb_fail(err, EX_DATAERR, "tracking.repo: '%s': branch '%s' points at "
		"%s, which cannot be read (a damaged repository?): %s",
		t->path, branch, tip, gittree_why("no such object"));
	tip[0] = '\0';
	return -1;
}

int gittree_ref(struct gittree *t, const char *name, char full[GIT_SHA_HEX],
		struct pb_err *err)
{
	git_object *obj = NULL;
	git_reference *ref = NULL;
	char tag[1024];
	git_oid id;
	int rc = -1;

	full[0] = '\0';
	/* a tag first, as the robot's bases are release tags */
	if ((size_t)snprintf(tag, sizeof(tag), "refs/tags/%s", name) <
	    sizeof(tag) && !git_reference_lookup(&ref, t->repo, tag)) {
		rc = git_reference_peel(&obj, ref, GIT_OBJECT_COMMIT);
		if (!rc)
			git_oid_cpy(&id, git_object_id(obj));
		else
			rc = -2;
	} else {
		rc = commit_of_ref(t->repo, name, &id);
	}
	git_object_free(obj);
	git_reference_free(ref);
	if (rc == -1)
		return pb_fail(err, EX_DATAERR, "no tag or branch '%s' in "
			       "tracking.repo '%s' (git fetch --tags?)", name,
			       t->path);
	if (rc)
		return pb_fail(err, EX_DATAERR, "tracking.repo '%s': '%s' "
			       "points at no readable commit: %s", t->path,
			       name, gittree_why("no such object"));
	hex_of(&id, full);
	return 0;
}

int gittree_commit_id(git_repository *repo, const char *sha, git_oid *id)
{
	git_commit *c = NULL;

	if (!sha || strlen(sha) != GIT_SHA_HEX - 1 || git_oid_fromstr(id, sha) ||
	    git_commit_lookup(&c, repo, id))
		return -1;
	git_commit_free(c);
	return 0;
}

int gittree_contains(struct gittree *t, const char *tip, const char *sha,
		     int *yes, struct pb_err *err)
{
	git_oid a, b;
	int rc;

	*yes = 0;
	if (gittree_commit_id(t->repo, tip, &a))
		return pb_fail(err, EX_SOFTWARE, "tracking.repo: '%s': no "
			       "commit %.40s", t->path, tip);
	if (gittree_commit_id(t->repo, sha, &b))
		return 0;	/* gone: not on the branch */
	if (git_oid_equal(&a, &b)) {
		*yes = 1;
		return 0;
	}
	rc = git_graph_descendant_of(t->repo, &a, &b);
	if (rc < 0)
		return pb_fail(err, EX_SOFTWARE, "tracking.repo: '%s': %s",
			       t->path, gittree_why("history unreadable"));
	*yes = rc;
	return 0;
}

int gittree_resolve(struct gittree *t, const char *prefix,
		    char full[GIT_SHA_HEX], int *found, struct pb_err *err)
{
	git_object *obj = NULL;
	size_t n = strlen(prefix);
	git_oid id;
	int rc;

	(void)err;
	*found = 0;
	full[0] = '\0';
	if (n < 7 || n > GIT_SHA_HEX - 1 || git_oid_fromstrn(&id, prefix, n))
		return 0;
	rc = git_object_lookup_prefix(&obj, t->repo, &id, n,
				      GIT_OBJECT_COMMIT);
	if (!rc) {
		hex_of(git_object_id(obj), full);
		*found = 1;
	}
	git_object_free(obj);
	return 0;	/* none, or ambiguous: not found */
}

/* One commit of the walk, handed to 'fn'. */
static int visit(git_repository *repo, const git_oid *id, time_t since,
		 gittree_fn fn, void *arg, int *older, struct pb_err *err)
{
	struct git_commit_info ci;
	git_commit *c = NULL;
	int rc;

	*older = 0;
	if (git_commit_lookup(&c, repo, id))
		return pb_fail(err, EX_DATAERR, "tracking.repo: %s (a "
			       "damaged repository?)",
			       gittree_why("a commit is unreadable"));
	ci.time = (time_t)git_commit_time(c);
	if (since && ci.time < since) {
		*older = 1;
		git_commit_free(c);
		return 0;
	}
	hex_of(id, ci.sha);
	ci.message = git_commit_message(c);
	ci.len = ci.message ? strlen(ci.message) : 0;
	if (!ci.message)
		ci.message = "";
	rc = fn(arg, &ci, err);
	git_commit_free(c);
	return rc;
}

int gittree_commit(struct gittree *t, const char *sha, gittree_fn fn,
		   void *arg, struct pb_err *err)
{
	git_oid id;
	int older;

	if (gittree_commit_id(t->repo, sha, &id))
		return pb_fail(err, EX_SOFTWARE, "tracking.repo: '%s': no "
			       "commit %.40s", t->path, sha);
	return visit(t->repo, &id, 0, fn, arg, &older, err);
}

int gittree_walk(struct gittree *t, const char *tip, const char *hide,
		 time_t since, size_t max, gittree_fn fn, void *arg,
		 size_t *walked, int *hidden, struct pb_err *err)
{
	git_revwalk *w = NULL;
	git_oid id, from;
	int rc = -1, older = 0, r = GIT_ITEROVER;

	*walked = 0;
	*hidden = 0;
	if (gittree_commit_id(t->repo, tip, &id))
		return pb_fail(err, EX_SOFTWARE, "tracking.repo: '%s': no "
			       "commit %.40s", t->path, tip);
	if (git_revwalk_new(&w, t->repo) ||
	    git_revwalk_sorting(w, GIT_SORT_TIME) || git_revwalk_push(w, &id)) {
		pb_fail(err, EX_SOFTWARE, "tracking.repo: '%s': %s", t->path,
			gittree_why("cannot walk"));
		goto out;
	}
	if (hide && !gittree_commit_id(t->repo, hide, &from)) {
		if (git_revwalk_hide(w, &from)) {
			pb_fail(err, EX_SOFTWARE, "tracking.repo: '%s': %s",
				t->path, gittree_why("cannot walk"));
			goto out;
		}
		*hidden = 1;
	}
	while (*walked < max && !older && !(r = git_revwalk_next(&id, w))) {
		if (visit(t->repo, &id, since, fn, arg, &older, err))
			goto out;
		*walked += !older;
	}
	if (!older && *walked < max && r != GIT_ITEROVER) {
		pb_fail(err, EX_DATAERR, "tracking.repo: '%s': %s (a damaged "
			"repository?)", t->path, gittree_why("the walk failed"));
		goto out;
	}
	rc = 0;
out:
	git_revwalk_free(w);
	return rc;
}
