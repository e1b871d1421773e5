// SPDX-License-Identifier: GPL-2.0-only
/*
 * util: YAML read with libyaml into perfbot's typed tree (yaml.h, built
 * by ynode.c), strictly: no aliases, duplicate or non-scalar keys, no
 * runaway nesting or node count, every error with its real line. The
 * config, manifests, job.yaml, the metric rules, testcases and hosts are
 * all read through it.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <yaml.h>

#include "yaml_internal.h"
#include "perfbot/util/fileio.h"
#include "perfbot/util/strbuf.h"

/*
 * The entries of the open mappings and sequences wait in two stacks,
 * innermost last, until their container ends and takes a copy into the
 * arena: 8 bytes an entry while loading, none after.
 */
struct loader {
	yaml_parser_t parser;
	struct ydoc *doc;
	size_t nodes, max_nodes;
	const char *text;	/* the input, to turn an offset into a line */
	size_t len;
	struct pb_err *err;
	struct ynode **items;	/* the values and items */
	size_t nitems, capitems;
	const char **keys;	/* the keys, of the mappings only */
	size_t nkeys, capkeys;
};

/* Room for one more of 'n' elements of 'size' bytes in '*v'. */
static void *room(void *v, size_t n, size_t *cap, size_t size)
{
	size_t want = *cap ? 2 * *cap : 64;

	if (n < *cap)
		return v;
	v = realloc(v, want * size);
	if (v)
		*cap = want;
	return v;
}

static int push_item(struct loader *l, struct ynode *node)
{
	struct ynode **v = room(l->items, l->nitems, &l->capitems,
				sizeof(*v));

	if (!v)
		return -1;
	l->items = v;
	l->items[l->nitems++] = node;
	return 0;
}

static int push_key(struct loader *l, const char *key)
{
	const char **v = room(l->keys, l->nkeys, &l->capkeys, sizeof(*v));

	if (!v)
		return -1;
	l->keys = v;
	l->keys[l->nkeys++] = key;
	return 0;
}

/* libyaml counts lines from 0, messages from 1. */
static unsigned line_of(size_t line0)
{
	return line0 >= UINT_MAX ? UINT_MAX : (unsigned)(line0 + 1);
}

static int fail_at(struct loader *l, size_t line0, const char *why,
		   const char *key)
{
	return pb_fail(l->err, EX_DATAERR, "%s:%zu: %s%s%.64s%s", l->doc->name,
		       line0 + 1, why, key ? " '" : "", key ? key : "",
		       key ? "'" : "");
}

static int no_memory(struct loader *l)
{
	return pb_fail(l->err, EX_OSERR, "%s: out of memory", l->doc->name);
}

/*
 * libyaml's reader (bad UTF-8, a control character) reports a byte
 * offset and leaves problem_mark unset: count the lines up to it.
 */
static size_t problem_line(const struct loader *l)
{
	const yaml_parser_t *p = &l->parser;
	size_t off, line = 0, i;

	if (p->error != YAML_READER_ERROR)
		return p->problem_mark.line + 1;
	off = p->problem_offset < l->len ? p->problem_offset : l->len;
	for (i = 0; i < off; i++)
		line += l->text[i] == '\n';
	return line + 1;
}

static int next_event(struct loader *l, yaml_event_t *ev)
{
	if (yaml_parser_parse(&l->parser, ev))
		return 0;
	return pb_fail(l->err, EX_DATAERR, "%s:%zu: %s", l->doc->name,
		       problem_line(l),
		       l->parser.problem ? l->parser.problem : "bad YAML");
}

/* A plain null, ~ or empty value is null; any other stays a string. */
static struct ynode *scalar(struct loader *l, const yaml_event_t *ev)
{
	const char *v = (const char *)ev->data.scalar.value;
	size_t line0 = ev->start_mark.line;
	struct ynode *n;

	if (ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE &&
	    (!*v || !strcmp(v, "~") || !strcasecmp(v, "null")))
		return ydoc_node(l->doc, Y_NULL, line_of(line0));
	n = ydoc_node(l->doc, Y_STR, line_of(line0));
	if (n) {
		n->len = ev->data.scalar.length;
		n->str = ydoc_strndup(l->doc, v, n->len);
		n->plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
	}
	return n && n->str ? n : NULL;
}

static int load_node(struct loader *l, yaml_event_t *ev, int depth,
		     struct ynode **out);

/* A key event: a plain value, new in its mapping, pushed on the stack. */
static int take_key(struct loader *l, yaml_event_t *ev, size_t base,
		    struct ykeyset *ks)
{
	size_t line0 = ev->start_mark.line;
	const char *k;
	char *copy;

	if (ev->type != YAML_SCALAR_EVENT)
		return fail_at(l, line0, "mapping keys must be plain values",
			       NULL);
	k = (const char *)ev->data.scalar.value;
	if (strlen(k) != ev->data.scalar.length)
		return fail_at(l, line0, "NUL in a key", NULL);
	if (ykeyset_has(ks, l->keys + base, l->nkeys - base, k))
		return fail_at(l, line0, "duplicate key", k);
	copy = ydoc_strndup(l->doc, k, ev->data.scalar.length);
	if (!copy || push_key(l, copy) ||
	    ykeyset_add(ks, l->keys + base, l->nkeys - base))
		return no_memory(l);
	return 0;
}

/* Keys and their values up to the end of the mapping. */
static int load_pairs(struct loader *l, int depth, size_t base,
		      struct ykeyset *ks)
{
	yaml_event_t ev;
	struct ynode *val;
	size_t kline;
	int rc;

	for (;;) {
		if (next_event(l, &ev))
			return -1;
		if (ev.type == YAML_MAPPING_END_EVENT) {
			yaml_event_delete(&ev);
			return 0;
		}
		kline = ev.start_mark.line;
		rc = take_key(l, &ev, base, ks);
		yaml_event_delete(&ev);
		if (rc || next_event(l, &ev) ||
		    load_node(l, &ev, depth + 1, &val))
			return -1;
		/* a block value starts a line below its key */
		val->line = line_of(kline);
		if (push_item(l, val))
			return no_memory(l);
	}
}

static int load_mapping(struct loader *l, int depth, struct ynode *map)
{
	size_t ibase = l->nitems, kbase = l->nkeys;
	struct ykeyset ks = { NULL, 0 };
	int rc = load_pairs(l, depth, kbase, &ks);

	if (!rc && ynode_set_entries(l->doc, map, l->items + ibase,
				     l->keys + kbase, l->nitems - ibase, &ks))
		rc = no_memory(l);
	ykeyset_release(&ks);
	l->nitems = ibase;
	l->nkeys = kbase;
	return rc;
}

/* Items up to the end of the sequence. */
static int load_items(struct loader *l, int depth)
{
	yaml_event_t ev;
	struct ynode *val;

	for (;;) {
		if (next_event(l, &ev))
			return -1;
		if (ev.type == YAML_SEQUENCE_END_EVENT) {
			yaml_event_delete(&ev);
			return 0;
		}
		if (load_node(l, &ev, depth + 1, &val))
			return -1;
		if (push_item(l, val))
			return no_memory(l);
	}
}

static int load_sequence(struct loader *l, int depth, struct ynode *seq)
{
	size_t base = l->nitems;
	int rc = load_items(l, depth);

	if (!rc && ynode_set_entries(l->doc, seq, l->items + base, NULL,
				     l->nitems - base, NULL))
		rc = no_memory(l);
	l->nitems = base;
	return rc;
}

/* The node an event starts (its entries still to come) in *out. */
static int start_node(struct loader *l, const yaml_event_t *ev, int depth,
		      struct ynode **out)
{
	size_t line0 = ev->start_mark.line;

	if (depth > YAML_MAX_DEPTH || ++l->nodes > l->max_nodes)
		return fail_at(l, line0, depth > YAML_MAX_DEPTH ?
			       "nesting too deep" :
			       l->nodes > YAML_MAX_NODES ? "too many values" :
			       "too many values for the size of the file (one "
			       "per 8 bytes at most)", NULL);
	if (ev->type == YAML_ALIAS_EVENT)
		return fail_at(l, line0, "aliases are not supported", NULL);
	if (ev->type == YAML_SCALAR_EVENT)
		*out = scalar(l, ev);
	else if (ev->type == YAML_MAPPING_START_EVENT)
		*out = ydoc_node(l->doc, Y_MAP, line_of(line0));
	else if (ev->type == YAML_SEQUENCE_START_EVENT)
		*out = ydoc_node(l->doc, Y_SEQ, line_of(line0));
	else
		return fail_at(l, line0, "unexpected YAML event", NULL);
	return *out ? 0 : no_memory(l);
}

/*
 * Takes ownership of 'ev'. On failure *out is NULL; the nodes made so
 * far stay in the arena, which the failed load frees.
 */
static int load_node(struct loader *l, yaml_event_t *ev, int depth,
		     struct ynode **out)
{
	yaml_event_type_t type = ev->type;
	int rc;

	*out = NULL;
	rc = start_node(l, ev, depth, out);
	yaml_event_delete(ev);
	if (rc)
		return -1;
	if (type == YAML_MAPPING_START_EVENT)
		rc = load_mapping(l, depth, *out);
	else if (type == YAML_SEQUENCE_START_EVENT)
		rc = load_sequence(l, depth, *out);
	if (rc)
		*out = NULL;
	return rc;
}

/* Stream start, document start, the node, then nothing but the end. */
static int load_stream(struct loader *l)
{
	yaml_event_t ev;
	int rc;

	do {
		if (next_event(l, &ev))
			return -1;
		if (ev.type == YAML_STREAM_END_EVENT) {
			yaml_event_delete(&ev);
			return 0;
		}
		rc = ev.type == YAML_DOCUMENT_START_EVENT;
		yaml_event_delete(&ev);
	} while (!rc);
	if (next_event(l, &ev))
		return -1;
	if (ev.type == YAML_DOCUMENT_END_EVENT) {
		yaml_event_delete(&ev);
		return 0;
	}
	if (load_node(l, &ev, 0, &l->doc->root))
		return -1;
	if (next_event(l, &ev))
		return -1;
	yaml_event_delete(&ev);
	if (next_event(l, &ev))
		return -1;
	rc = ev.type == YAML_STREAM_END_EVENT ? 0 :
		fail_at(l, ev.start_mark.line, "more than one document", NULL);
	yaml_event_delete(&ev);
	return rc;
}

int yaml_load_str(const char *name, const char *text, size_t len,
		  struct ydoc *doc, struct pb_err *err)
{
	struct loader l = { .doc = doc, .err = err, .text = text, .len = len };
	int rc = -1;

	/* a value per 8 bytes at most (real files have one per 12 or more),
	 * so that memory stays a small multiple of the input */
	l.max_nodes = YAML_MIN_NODES + len / YAML_BYTES_PER_NODE;
	if (l.max_nodes > YAML_MAX_NODES)
		l.max_nodes = YAML_MAX_NODES;
	memset(doc, 0, sizeof(*doc));
	doc->name = ydoc_strndup(doc, name, strlen(name));
	/* the stacks are never NULL, not even empty (NULL + 0 is undefined) */
	l.items = room(NULL, 0, &l.capitems, sizeof(*l.items));
	l.keys = room(NULL, 0, &l.capkeys, sizeof(*l.keys));
	if (!doc->name || !l.items || !l.keys ||
	    !yaml_parser_initialize(&l.parser)) {
		pb_fail(err, EX_OSERR, "%s: out of memory", name);
		goto out;
	}
	yaml_parser_set_input_string(&l.parser, (const unsigned char *)text,
				     len);
	rc = load_stream(&l);
	yaml_parser_delete(&l.parser);
out:
	free(l.items);
	free(l.keys);
	if (rc)
		ydoc_release(doc);
	return rc;
}

int yaml_load_file(const char *path, size_t max_bytes, struct ydoc *doc,
		   struct pb_err *err)
{
	struct strbuf sb = STRBUF_INIT;
	int rc;

	memset(doc, 0, sizeof(*doc));
	if (file_read(path, max_bytes, 1, &sb, err)) {
		sb_release(&sb);
		return -1;
	}
	rc = yaml_load_str(path, sb_str(&sb), sb.len, doc, err);
	sb_release(&sb);
	return rc;
}
