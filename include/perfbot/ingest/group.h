/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_GROUP_H
#define PERFBOT_GROUP_H

#include <stddef.h>

#include "perfbot/ingest/manifest.h"
#include "perfbot/util/err.h"
#include "perfbot/util/strbuf.h"

/*
 * Which of a cycle's manifests make one report (issue 31 item 2): as
 * the robot adds "In addition to that, the commit also has significant
 * impact on the following tests" to one mail, the manifests with the
 * same base and head commits are one group, the one with the largest
 * headline change its report and the others its additions. A manifest's
 * 'group: NAME' joins the manifests of that name instead (whatever their
 * commits), 'group: none' keeps it apart, and so does a range to bisect
 * ('bisect: true'), whose report names another commit.
 */

#define GROUP_MAX_MEMBERS 16	/* a larger group is cut into several */

/*
 * The key 'm', of directory 'dir', groups by (malloc'd: "group NAME" or
 * "commits BASE HEAD", then the directory: a group is of one directory,
 * the one its kept text has), or NULL when it stays apart; *oom 1 when
 * NULL for lack of memory.
 */
char *manifest_group_key(const struct manifest *m, const char *dir,
			 int *oom);

/*
 * The groups of n manifests whose keys are 'key' (NULL: alone), in the
 * order of their first manifests: group g holds the indexes
 * member[first[g]] .. member[first[g + 1] - 1], in manifest order.
 */
struct manifest_groups {
	size_t *member;		/* n */
	size_t *first;		/* ngroups + 1 */
	size_t ngroups;
};

int manifest_groups_make(struct manifest_groups *g, char *const *key,
			 size_t n, struct pb_err *err);

/*
 * The groups of a batch of manifest texts (sources.h), each parsed for
 * its key: one that is no manifest, or a bad one, is alone (the cycle
 * says why when its turn comes). 0, or -1 out of memory.
 */
struct manifest_text;
int manifest_groups_of(struct manifest_groups *g,
		       const struct manifest_text *mt, size_t n,
		       struct pb_err *err);
void manifest_groups_release(struct manifest_groups *g);

/*
 * The robot's order of a group's comparisons: the largest headline
 * change (its absolute %change) first, equal ones in manifest order.
 * 'order' gets the indexes 0 .. n - 1 of 'change' in that order.
 */
void group_order(const double *change, size_t n, size_t *order);

/*
 * The manifest a grouped report keeps (the state's text of its mail):
 * its own text, then each joined one's after a line MANIFEST_KEPT_SEP,
 * in the robot's order; a text without one is a report's own alone.
 * The joined share the report's directory (their groups are made of the
 * manifests of one directory).
 */
#define MANIFEST_KEPT_SEP "\n--- # perfbot: a test in the same mail\n"

/* The length of the report's own manifest at the start of 'text'. */
size_t manifest_kept_len(const char *text);

/*
 * The next joined manifest of 'text' from '*at' (0 to start): 1 with it
 * at text + *start, *len bytes, '*at' moved past it; 0 when none is left.
 */
int manifest_kept_next(const char *text, size_t *at, size_t *start,
		       size_t *len);

/* Append MANIFEST_KEPT_SEP and 'text' to 'kept': 0, or -1 (too large). */
int manifest_kept_add(struct strbuf *kept, const char *text);

/* The kept text of n texts, the report's first; NULL out of memory. */
char *manifest_kept_join(const char *const *texts, size_t n);

#endif
