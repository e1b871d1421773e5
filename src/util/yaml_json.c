// SPDX-License-Identifier: GPL-2.0-only
/*
 * util: for the move to the typed tree only, a YAML document as the
 * jansson tree its readers walked before (yaml_json.h), converted from
 * the typed tree (yaml.h) with the line of every node in a hash table.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "perfbot/util/yaml_json.h"

/*
 * Lines are kept in a hash table of 64-bit keys: a node's address, or a
 * hash of (mapping, key) or (sequence, index).
 */
struct yline {
	uint64_t key;	/* 0: empty slot */
	uint32_t line;
};

#define KEY_NODE 0x9e3779b97f4a7c15ULL
#define KEY_MAP 0xc2b2ae3d27d4eb4fULL
#define KEY_SEQ 0x165667b19e3779f9ULL

static uint64_t mix(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 33;
	return h ? h : 1;
}

static uint64_t node_key(const void *node)
{
	return mix((uint64_t)(uintptr_t)node ^ KEY_NODE);
}

static uint64_t map_key(const void *map, const char *k)
{
	uint64_t h = (uint64_t)(uintptr_t)map ^ KEY_MAP;

	for (; *k; k++)
		h = (h ^ (unsigned char)*k) * 0x100000001b3ULL;
	return mix(h);
}

static uint64_t seq_key(const void *seq, size_t i)
{
	return mix(((uint64_t)(uintptr_t)seq ^ KEY_SEQ) + mix(i + 1));
}

static struct yline *slot(struct yline *t, size_t cap, uint64_t key)
{
	size_t i = (size_t)key & (cap - 1);

	while (t[i].key && t[i].key != key)
		i = (i + 1) & (cap - 1);
	return &t[i];
}

static int put_line(struct jydoc *doc, uint64_t key, unsigned line)
{
	struct yline *s;

	if (4 * (doc->nlines + 1) > 3 * doc->cap) {
		size_t cap = doc->cap ? doc->cap * 2 : 64, i;
		struct yline *t = calloc(cap, sizeof(*t));

		if (!t)
			return -1;
		for (i = 0; i < doc->cap; i++)
			if (doc->lines[i].key)
				*slot(t, cap, doc->lines[i].key) =
					doc->lines[i];
		free(doc->lines);
		doc->lines = t;
		doc->cap = cap;
	}
	s = slot(doc->lines, doc->cap, key);
	doc->nlines += !s->key;
	s->key = key;
	s->line = line;
	return 0;
}

static int get_line(const struct jydoc *doc, uint64_t key)
{
	const struct yline *s;

	if (!doc->cap)
		return 0;
	s = slot(doc->lines, doc->cap, key);
	return s->key ? (int)s->line : 0;
}

/* null is a jansson singleton: its line is kept under its key only. */
static int note_line(struct jydoc *doc, json_t *node, unsigned line)
{
	if (json_is_null(node))
		return 0;
	return put_line(doc, node_key(node), line);
}

static json_t *convert(struct jydoc *doc, const struct ynode *n)
{
	json_t *out, *v;
	size_t i;

	if (n->kind == Y_NULL)
		return json_null();
	if (n->kind == Y_STR)
		out = json_stringn(n->str, n->len);
	else
		out = n->kind == Y_MAP ? json_object() : json_array();
	if (!out || note_line(doc, out, n->line))
		goto fail;
	for (i = 0; i < n->n; i++) {
		/* a null's line is under its key or index */
		if (n->kind == Y_MAP ?
		    put_line(doc, map_key(out, n->keys[i]), n->items[i]->line) :
		    n->items[i]->kind == Y_NULL &&
		    put_line(doc, seq_key(out, i), n->items[i]->line))
			goto fail;
		v = convert(doc, n->items[i]);
		if (!v || (n->kind == Y_MAP ?
			   json_object_set_new(out, n->keys[i], v) :
			   json_array_append_new(out, v)))
			goto fail;
	}
	return out;
fail:
	json_decref(out);
	return NULL;
}

int jyaml_load_str(const char *name, const char *text, size_t len,
		  struct jydoc *doc, struct pb_err *err)
{
	struct ydoc y;

	memset(doc, 0, sizeof(*doc));
	if (yaml_load_str(name, text, len, &y, err))
		return -1;
	doc->name = strdup(name);
	if (doc->name && y.root)
		doc->root = convert(doc, y.root);
	if (!doc->name || (y.root && !doc->root)) {
		ydoc_release(&y);
		jydoc_release(doc);
		return pb_fail(err, EX_OSERR, "%s: out of memory", name);
	}
	ydoc_release(&y);
	return 0;
}

int jyaml_load_file(const char *path, size_t max_bytes, struct jydoc *doc,
		   struct pb_err *err)
{
	struct ydoc y;

	memset(doc, 0, sizeof(*doc));
	if (yaml_load_file(path, max_bytes, &y, err))
		return -1;
	doc->name = strdup(path);
	if (doc->name && y.root)
		doc->root = convert(doc, y.root);
	if (!doc->name || (y.root && !doc->root)) {
		ydoc_release(&y);
		jydoc_release(doc);
		return pb_fail(err, EX_OSERR, "%s: out of memory", path);
	}
	ydoc_release(&y);
	return 0;
}

void jydoc_release(struct jydoc *doc)
{
	json_decref(doc->root);
	free(doc->lines);
	free(doc->name);
	memset(doc, 0, sizeof(*doc));
}

int jydoc_line(const struct jydoc *doc, const json_t *node)
{
	if (!node || json_is_null(node))
		return 0;
	return get_line(doc, node_key(node));
}

int jydoc_key_line(const struct jydoc *doc, const json_t *map, const char *k)
{
	return k ? get_line(doc, map_key(map, k)) : 0;
}

int jydoc_item_line(const struct jydoc *doc, const json_t *seq, size_t i)
{
	const json_t *v = json_array_get(seq, i);

	return v && !json_is_null(v) ? jydoc_line(doc, v) :
		get_line(doc, seq_key(seq, i));
}

static int bad(const struct jydoc *doc, const json_t *node, const char *key,
	       struct pb_err *err, const char *why)
{
	int line = jydoc_line(doc, node);

	if (!line)
		return pb_fail(err, EX_CONFIG, "%s: '%s' %s", doc->name, key,
			       why);
	return pb_fail(err, EX_CONFIG, "%s:%d: '%s' %s", doc->name, line,
		       key, why);
}

int jyaml_as_string(const struct jydoc *doc, const json_t *node, const char *key,
		   const char **out, struct pb_err *err)
{
	if (!json_is_string(node))
		return bad(doc, node, key, err, "must be a string");
	*out = json_string_value(node);
	return 0;
}

int jyaml_as_long(const struct jydoc *doc, const json_t *node, const char *key,
		 long min, long max, long *out, struct pb_err *err)
{
	char why[96];

	if (json_is_string(node) &&
	    !parse_long(json_string_value(node), min, max, out))
		return 0;
	snprintf(why, sizeof(why), "must be a whole number from %ld to %ld",
		 min, max);
	return bad(doc, node, key, err, why);
}

int jyaml_as_double(const struct jydoc *doc, const json_t *node, const char *key,
		   double *out, struct pb_err *err)
{
	if (json_is_string(node) && !parse_double(json_string_value(node), out))
		return 0;
	return bad(doc, node, key, err, "must be a number");
}

int jyaml_as_bool(const struct jydoc *doc, const json_t *node, const char *key,
		 int *out, struct pb_err *err)
{
	const char *s = json_string_value(node);

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
