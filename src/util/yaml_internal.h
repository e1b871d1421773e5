/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_YAML_INTERNAL_H
#define PERFBOT_YAML_INTERNAL_H

/*
 * Shared by the two files of the YAML reader only: what yaml.c (libyaml's
 * events) needs of ynode.c (the tree) to build a document: the arena, the
 * nodes, and the key set that finds a mapping's duplicate keys in O(1).
 */

#include <stddef.h>
#include <stdint.h>

#include "perfbot/util/yaml.h"

/*
 * A NUL-terminated copy of the 'len' bytes at 's', and a node of 'kind'
 * at 'line' (its string and lists empty), in the arena; NULL when out of
 * memory.
 */
char *ydoc_strndup(struct ydoc *doc, const char *s, size_t len);
struct ynode *ydoc_node(struct ydoc *doc, enum ykind kind, unsigned line);

/*
 * The keys of a mapping being loaded, which sit in an array of the
 * loader's: small mappings are searched, larger ones hashed (the same
 * index that ymap_get() then uses), so that a mapping of 100,000 keys
 * loads in linear time.
 */
struct ykeyset {
	uint32_t *slot;		/* position + 1 of a key, 0 empty; NULL while
				 * the mapping is small */
	size_t cap;
};

/* 1 when 'key' is one of keys[0..n). */
int ykeyset_has(const struct ykeyset *ks, const char *const *keys, size_t n,
		const char *key);
/* keys[n - 1] was added: index it. 0, or -1 when out of memory. */
int ykeyset_add(struct ykeyset *ks, const char *const *keys, size_t n);
void ykeyset_release(struct ykeyset *ks);

/*
 * Give a Y_MAP or Y_SEQ node its 'n' entries (copied into the arena:
 * the arrays are the loader's), and a mapping its keys and, when it has
 * many, the index of 'ks'. 0, or -1 when out of memory.
 */
int ynode_set_entries(struct ydoc *doc, struct ynode *node,
		      struct ynode *const *items, const char *const *keys,
		      size_t n, const struct ykeyset *ks);

#endif
