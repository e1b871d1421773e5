/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_GROUP_H
#define PERFBOT_GROUP_H

#include <stddef.h>

#include "perfbot/ingest/manifest.h"
#include "perfbot/util/err.h"

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
 * The key 'm' groups by (malloc'd: "group NAME" or "commits BASE HEAD"),
 * or NULL when it stays apart; *oom 1 when NULL for lack of memory.
 */
char *manifest_group_key(const struct manifest *m, int *oom);

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
void manifest_groups_release(struct manifest_groups *g);

/*
 * The robot's order of a group's comparisons: the largest headline
 * change (its absolute %change) first, equal ones in manifest order.
 * 'order' gets the indexes 0 .. n - 1 of 'change' in that order.
 */
void group_order(const double *change, size_t n, size_t *order);

#endif
