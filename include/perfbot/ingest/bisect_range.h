/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_BISECT_RANGE_H
#define PERFBOT_BISECT_RANGE_H

#include <stddef.h>

#include "perfbot/ingest/gittree.h"
#include "perfbot/util/err.h"

/*
 * ingest: the candidates of a bisection (issue 33), listed with libgit2
 * from the tracked tree (gittree.h), never with a git program:
 *   - a range: the first-parent walk from 'head' hiding 'base' (the
 *     commits that came onto head's branch after base), oldest first,
 *     head the last;
 *   - inside a merge (when the first bad commit is one): the commits
 *     reachable from its second parent and not from its first, oldest
 *     first in topological order, then the merge itself as the last
 *     (the merge's own resolution may be the culprit). The bisection
 *     takes them as one line; that is exact when the side branch is one.
 * Each candidate is marked as what makes a culprit less certain: a merge,
 * a release tag pointing at it (any tag under refs/tags/, annotated or
 * not), and a no-op (its tree is its first parent's: the diff touches
 * nothing).
 */

#define BISECT_RANGE_MAX 100000	/* candidates a range may hold */
#define BISECT_TAG_MAX 64	/* bytes of a tag's name kept, NUL included */

enum bisect_mark {
	BISECT_MERGE = 1,	/* more than one parent */
	BISECT_TAG = 2,		/* a tag points at it ('tag' its name) */
	BISECT_NOOP = 4,	/* same tree as its first parent */
};

struct bisect_cand {
	char sha[GIT_SHA_HEX];
	unsigned marks;			/* enum bisect_mark */
	char tag[BISECT_TAG_MAX];	/* BISECT_TAG: the first tag by name,
					 * cut to fit; else "" */
};

struct bisect_range {
	struct bisect_cand *c;	/* oldest first */
	size_t n;
};

/*
 * The candidates of base..head on head's first-parent line into 'r'
 * (released first). EX_DATAERR when either commit is missing, when base
 * hides all of head's line (head is base or older), or past
 * BISECT_RANGE_MAX; EX_SOFTWARE when the history is unreadable.
 */
int bisect_range_list(struct gittree *t, const char *base, const char *head,
		      struct bisect_range *r, struct pb_err *err);

/*
 * The candidates inside merge 'merge' (its second parent's side, then
 * the merge) into 'r' (released first). EX_DATAERR when 'merge' is
 * missing or not a merge, or past BISECT_RANGE_MAX.
 */
int bisect_range_merge(struct gittree *t, const char *merge,
		       struct bisect_range *r, struct pb_err *err);

/* Free the list; 'r' is left empty. Safe on an empty or released one. */
void bisect_range_release(struct bisect_range *r);

#endif
