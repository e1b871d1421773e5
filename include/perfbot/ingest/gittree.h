/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_GITTREE_H
#define PERFBOT_GITTREE_H

#include <stddef.h>
#include <time.h>

#include "perfbot/util/err.h"

/*
 * ingest: the tracked tree (tracking.repo), a local git repository the
 * operator keeps fetched, read with libgit2: no git program is run and
 * nothing is written to it. A branch is found as refs/heads/NAME,
 * refs/remotes/NAME or NAME itself ("origin/master", a full ref); the
 * commits of a walk come newest first (by commit time). Shas are 40 hex
 * digits, lower case.
 */

#define GIT_SHA_HEX 41		/* 40 hex digits and a NUL */

struct gittree;

/*
 * Open the repository at 'path' (not its parents: the path is the
 * repository or its work tree). EX_CONFIG naming tracking.repo when it
 * is none; -1 with '*t' NULL on failure.
 */
int gittree_open(struct gittree **t, const char *path, struct pb_err *err);
void gittree_close(struct gittree *t);

/* The commit branch 'branch' points at; EX_CONFIG when there is none. */
int gittree_tip(struct gittree *t, const char *branch, char tip[GIT_SHA_HEX],
		struct pb_err *err);

/*
 * '*yes' 1 when commit 'sha' is 'tip' or one of its ancestors; 0 also
 * when the repository has no such commit (it was dropped).
 */
int gittree_contains(struct gittree *t, const char *tip, const char *sha,
		     int *yes, struct pb_err *err);

/*
 * The commit a tag (peeled), branch or other ref 'name' points at, into
 * 'full'; EX_DATAERR naming it when there is none.
 */
int gittree_ref(struct gittree *t, const char *name, char full[GIT_SHA_HEX],
		struct pb_err *err);
/*
 * The commit whose sha starts with 'prefix' (7 to 40 hex digits) into
 * 'full'; '*found' 0 when there is none or several.
 */
int gittree_resolve(struct gittree *t, const char *prefix,
		    char full[GIT_SHA_HEX], int *found, struct pb_err *err);

/* One commit of a walk; what it points to lives until the next one. */
struct git_commit_info {
	char sha[GIT_SHA_HEX];
	const char *message;	/* the raw message, as committed */
	size_t len;
	time_t time;		/* the commit (committer) time */
};

/* Called for each commit: 0 goes on, -1 stops the walk with 'err'. */
typedef int (*gittree_fn)(void *arg, const struct git_commit_info *c,
			  struct pb_err *err);

/* 'fn' on commit 'sha' (full) alone; EX_SOFTWARE when there is none. */
int gittree_commit(struct gittree *t, const char *sha, gittree_fn fn,
		   void *arg, struct pb_err *err);

/*
 * Each commit reachable from 'tip' and not from 'hide' (NULL: none; a
 * sha the repository no longer has is ignored: '*hidden' 0), newest
 * first, up to the first one older than 'since' (0: no bound) and at
 * most 'max' of them ('*walked' how many).
 */
int gittree_walk(struct gittree *t, const char *tip, const char *hide,
		 time_t since, size_t max, gittree_fn fn, void *arg,
		 size_t *walked, int *hidden, struct pb_err *err);

#endif
