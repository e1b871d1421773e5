// SPDX-License-Identifier: GPL-2.0-only
/*
 * util: the typed tree of a YAML document (yaml.h), which yaml.c builds
 * from libyaml's events: the document's arena (every node, string and
 * list, freed in one call), the index of a large mapping's keys, the
 * lookups, and the conversions of scalars and strict number parsers that
 * the readers of the config, manifests, job.yaml and metric tables use.
 */
#include <errno.h>
#include <math.h>
#include <stdalign.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "yaml_internal.h"
#include "perfbot/util/strmap.h"

/*
 * The arena: blocks of growing size, each allocation taken from the
 * newest. A node costs its 48 bytes and its string, a list 8 bytes an
 * entry, with no malloc header or rounding of its own: a 1 MiB job.yaml
 * at the densest the loader allows (a value per 8 bytes) holds 8.7 MB.
 */
struct ychunk {
	struct ychunk *next;
	size_t used, size;
	unsigned char data[];
};

#define CHUNK_MIN ((size_t)1 << 10)
#define CHUNK_MAX ((size_t)256 << 10)

/* 'c' has room for 'size' bytes aligned to 'align' at data + *at. */
static int fits(const struct ychunk *c, size_t size, size_t align,
		size_t *at)
{
	uintptr_t p = (uintptr_t)(c->data + c->used);
	size_t pad = (size_t)(-p & (align - 1));

	if (pad > c->size - c->used || size > c->size - c->used - pad)
		return 0;
	*at = c->used + pad;
	return 1;
}

/*
 * A new block: twice the last (up to CHUNK_MAX), or one of its own for a
 * large list, put behind the newest so that its free room stays in use.
 */
static struct ychunk *grow(struct ydoc *doc, size_t size, size_t align)
{
	struct ychunk *head = doc->arena, *c;
	size_t want = head ? head->size * 2 : CHUNK_MIN;
	int own;

	if (want > CHUNK_MAX)
		want = CHUNK_MAX;
	own = size > want / 4;
	if (own) {
		if (size > SIZE_MAX - sizeof(*c) - align)
			return NULL;
		want = size + align;
	}
	c = malloc(sizeof(*c) + want);
	if (!c)
		return NULL;
	c->used = 0;
	c->size = want;
	if (own && head) {
		c->next = head->next;
		head->next = c;
	} else {
		c->next = head;
		doc->arena = c;
	}
	return c;
}

static void *take(struct ydoc *doc, size_t size, size_t align)
{
	struct ychunk *c = doc->arena;
	size_t at;

	if (!c || !fits(c, size, align, &at)) {
		c = grow(doc, size, align);
		if (!c || !fits(c, size, align, &at))
			return NULL;
	}
	c->used = at + size;
	return c->data + at;
}

char *ydoc_strndup(struct ydoc *doc, const char *s, size_t len)
{
	char *p = len < SIZE_MAX ? take(doc, len + 1, 1) : NULL;

	if (p) {
		memcpy(p, s, len);
		p[len] = '\0';
	}
	return p;
}

struct ynode *ydoc_node(struct ydoc *doc, enum ykind kind, unsigned line)
{
	struct ynode *n = take(doc, sizeof(*n), alignof(struct ynode));

	if (n) {
		memset(n, 0, sizeof(*n));
		n->kind = kind;
		n->line = line;
	}
	return n;
}

void ydoc_release(struct ydoc *doc)
{
	struct ychunk *c = doc->arena, *next;

	for (; c; c = next) {
		next = c->next;
		free(c);
	}
	memset(doc, 0, sizeof(*doc));
}

int ydoc_set_str(struct ydoc *doc, struct ynode *node, const char *s,
		 struct pb_err *err)
{
	size_t len = strlen(s);
	char *copy = ydoc_strndup(doc, s, len);

	if (!copy)
		return pb_fail(err, EX_OSERR, "%s: out of memory", doc->name);
	node->kind = Y_STR;
	node->str = copy;
	node->len = len;
	node->items = NULL;
	node->keys = NULL;
	node->n = 0;
	return 0;
}

/* ---- the keys of a mapping ---- */

/*
 * Up to SMALL_MAP keys are compared one by one; past that a mapping has
 * an open-addressed index of uint32 positions, at most half full, right
 * behind its keys in the arena: 8 to 16 bytes a key.
 */
#define SMALL_MAP 8

static size_t index_cap(size_t n)
{
	size_t cap = 32;

	if (n <= SMALL_MAP)
		return 0;
	while (cap < 2 * n)
		cap *= 2;
	return cap;
}

static size_t first_slot(const char *key, size_t cap)
{
	return (size_t)hash_fnv1a(key, strlen(key), 0) & (cap - 1);
}

/* The position of 'key' in keys[], or -1. */
static long probe(const uint32_t *slot, size_t cap, const char *const *keys,
		  const char *key)
{
	size_t i = first_slot(key, cap);

	for (; slot[i]; i = (i + 1) & (cap - 1))
		if (!strcmp(keys[slot[i] - 1], key))
			return (long)slot[i] - 1;
	return -1;
}

static void put(uint32_t *slot, size_t cap, const char *const *keys,
		size_t pos)
{
	size_t i = first_slot(keys[pos], cap);

	while (slot[i])
		i = (i + 1) & (cap - 1);
	slot[i] = (uint32_t)(pos + 1);
}

int ykeyset_has(const struct ykeyset *ks, const char *const *keys, size_t n,
		const char *key)
{
	size_t i;

	if (ks->slot)
		return probe(ks->slot, ks->cap, keys, key) >= 0;
	for (i = 0; i < n; i++)
		if (!strcmp(keys[i], key))
			return 1;
	return 0;
}

int ykeyset_add(struct ykeyset *ks, const char *const *keys, size_t n)
{
	size_t cap = index_cap(n), i;
	uint32_t *slot;

	if (cap == ks->cap) {
		if (cap)
			put(ks->slot, cap, keys, n - 1);
		return 0;
	}
	/* a larger index (the size is a function of n: see ymap_get) */
	slot = calloc(cap, sizeof(*slot));
	if (!slot)
		return -1;
	for (i = 0; i < n; i++)
		put(slot, cap, keys, i);
	free(ks->slot);
	ks->slot = slot;
	ks->cap = cap;
	return 0;
}

void ykeyset_release(struct ykeyset *ks)
{
	free(ks->slot);
	ks->slot = NULL;
	ks->cap = 0;
}

int ynode_set_entries(struct ydoc *doc, struct ynode *node,
		      struct ynode *const *items, const char *const *keys,
		      size_t n, const struct ykeyset *ks)
{
	size_t cap = keys ? index_cap(n) : 0;
	size_t klen = keys ? n * sizeof(*keys) : 0;

	if (!n)
		return 0;
	node->items = take(doc, n * sizeof(*items), alignof(struct ynode *));
	node->keys = keys ? take(doc, klen + cap * sizeof(uint32_t),
				 alignof(const char *)) : NULL;
	if (!node->items || (keys && !node->keys))
		return -1;
	memcpy(node->items, items, n * sizeof(*items));
	if (keys)
		memcpy(node->keys, keys, klen);
	if (cap)
		memcpy((char *)node->keys + klen, ks->slot,
		       cap * sizeof(uint32_t));
	node->n = n;
	return 0;
}

/* ---- lookups ---- */

const struct ynode *ymap_get(const struct ynode *map, const char *key)
{
	size_t cap, i;
	long pos;

	if (!ynode_is(map, Y_MAP) || !key)
		return NULL;
	cap = index_cap(map->n);
	if (cap) {
		pos = probe((const uint32_t *)(map->keys + map->n), cap,
			    map->keys, key);
		return pos < 0 ? NULL : map->items[pos];
	}
	for (i = 0; i < map->n; i++)
		if (!strcmp(map->keys[i], key))
			return map->items[i];
	return NULL;
}

int ynode_is(const struct ynode *node, enum ykind kind)
{
	return node && node->kind == kind;
}

const char *ynode_str(const struct ynode *node)
{
	return ynode_is(node, Y_STR) ? node->str : NULL;
}

int ynode_line(const struct ynode *node)
{
	return node ? (int)node->line : 0;
}

int ynode_msg_line(const struct ynode *node)
{
	return ynode_is(node, Y_NULL) ? 0 : ynode_line(node);
}

/* ---- conversions ---- */

static int bad(const struct ydoc *doc, const struct ynode *node,
	       const char *key, struct pb_err *err, const char *why)
{
	int line = ynode_msg_line(node);

	if (!line)
		return pb_fail(err, EX_CONFIG, "%s: '%s' %s", doc->name, key,
			       why);
	return pb_fail(err, EX_CONFIG, "%s:%d: '%s' %s", doc->name, line,
		       key, why);
}

int yaml_as_string(const struct ydoc *doc, const struct ynode *node,
		   const char *key, const char **out, struct pb_err *err)
{
	if (!ynode_is(node, Y_STR))
		return bad(doc, node, key, err, "must be a string");
	*out = node->str;
	return 0;
}

int yaml_as_long(const struct ydoc *doc, const struct ynode *node,
		 const char *key, long min, long max, long *out,
		 struct pb_err *err)
{
	char why[96];

	if (ynode_is(node, Y_STR) && !parse_long(node->str, min, max, out))
		return 0;
	snprintf(why, sizeof(why), "must be a whole number from %ld to %ld",
		 min, max);
	return bad(doc, node, key, err, why);
}

int yaml_as_double(const struct ydoc *doc, const struct ynode *node,
		   const char *key, double *out, struct pb_err *err)
{
	if (ynode_is(node, Y_STR) && !parse_double(node->str, out))
		return 0;
	return bad(doc, node, key, err, "must be a number");
}

int yaml_as_bool(const struct ydoc *doc, const struct ynode *node,
		 const char *key, int *out, struct pb_err *err)
{
	const char *s = ynode_str(node);

	if (s && (!strcasecmp(s, "true") || !strcasecmp(s, "yes") ||
		  !strcasecmp(s, "on")))
		*out = 1;
	else if (s && (!strcasecmp(s, "false") || !strcasecmp(s, "no") ||
		       !strcasecmp(s, "off")))
		*out = 0;
	else
		return bad(doc, node, key, err, "must be true or false");
	return 0;
}
