/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_ROOTCACHE_INTERNAL_H
#define PERFBOT_ROOTCACHE_INTERNAL_H

/*
 * Shared by result.c and rootcache.c only: a root that borrows a cached
 * one (struct result_root's 'shared') gives it back here when released.
 */

struct root_entry;

void root_entry_put(struct root_entry *e);

#endif
