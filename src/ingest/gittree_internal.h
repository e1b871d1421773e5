/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_GITTREE_INTERNAL_H
#define PERFBOT_GITTREE_INTERNAL_H

#include <git2.h>

/*
 * Shared by gittree.c and bisect_range.c only (the two files that use
 * libgit2): the open repository and libgit2's last error.
 */

struct gittree {
	git_repository *repo;
	char *path;
};

/* libgit2's last error, or 'dflt'. */
const char *gittree_why(const char *dflt);

/* The commit of a full sha: 0, or -1 when the repository has none. */
int gittree_commit_id(git_repository *repo, const char *sha, git_oid *id);

#endif
