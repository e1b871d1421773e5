// SPDX-License-Identifier: GPL-2.0-only
/*
 * ingest: YAML read with libyaml into a jansson tree (yaml.h), strictly
 * (no aliases, duplicate keys or runaway nesting), the line of every node
 * kept for messages, and the scalar conversions. The config, manifests,
 * job.yaml and the metric rules are all read through it.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <yaml.h>

#include "perfbot/util/fileio.h"
#include "perfbot/util/strbuf.h"
#include "perfbot/util/yaml.h"

struct loader {
	yaml_parser_t parser;
	struct jydoc *doc;
	size_t nodes, max_nodes;
	const char *text;	/* the input, to turn an offset into a line */
	size_t len;
	struct pb_err *err;
};

/*
 * Lines are kept in a hash table of 64-bit keys: a node's address, or a
 * hash of (mapping, key) or (sequence, index). A jansson object keyed by
 * printed addresses cost some 700 bytes a node (380 MB for a 1 MiB
 * job.yaml); this costs 16 to 21 bytes an entry, and sequence items
 * other than null need none of their own.
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

static int put_line(struct jydoc *doc, uint64_t key, size_t line0)
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
	s->line = line0 + 1 > UINT32_MAX ? UINT32_MAX : (uint32_t)(line0 + 1);
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
static int note_line(struct loader *l, json_t *node, size_t line0)
{
	if (json_is_null(node))
		return 0;
	return put_line(l->doc, node_key(node), line0);
}

static int note_key_line(struct loader *l, json_t *map, const char *k,
			 size_t line0)
{
	return put_line(l->doc, map_key(map, k), line0);
}

static int fail_at(struct loader *l, size_t line0, const char *why,
		   const char *key)
{
	return pb_fail(l->err, EX_DATAERR, "%s:%zu: %s%s%.64s%s", l->doc->name,
		       line0 + 1, why, key ? " '" : "", key ? key : "",
		       key ? "'" : "");
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

static json_t *scalar(const yaml_event_t *ev)
{
	const char *v = (const char *)ev->data.scalar.value;

	if (ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE &&
	    (!*v || !strcmp(v, "~") || !strcasecmp(v, "null")))
		return json_null();
	return json_stringn(v, ev->data.scalar.length);
}

static int load_node(struct loader *l, yaml_event_t *ev, int depth,
		     json_t **out);

static int load_mapping(struct loader *l, int depth, json_t *map)
{
	yaml_event_t ev;
	json_t *val;
	char *key;
	size_t kline;
	int rc;

	for (;;) {
		if (next_event(l, &ev))
			return -1;
		if (ev.type == YAML_MAPPING_END_EVENT) {
			yaml_event_delete(&ev);
			return 0;
		}
		if (ev.type != YAML_SCALAR_EVENT) {
			rc = fail_at(l, ev.start_mark.line,
				     "mapping keys must be plain values", NULL);
			yaml_event_delete(&ev);
			return rc;
		}
		key = strdup((const char *)ev.data.scalar.value);
		kline = ev.start_mark.line;
		if (key && strlen(key) != ev.data.scalar.length) {
			rc = fail_at(l, kline, "NUL in a key", NULL);
			free(key);
			yaml_event_delete(&ev);
			return rc;
		}
		if (!key || json_object_get(map, key)) {
			rc = key ? fail_at(l, ev.start_mark.line,
					   "duplicate key", key) :
				pb_fail(l->err, EX_OSERR, "out of memory");
			free(key);
			yaml_event_delete(&ev);
			return rc;
		}
		yaml_event_delete(&ev);
		if (next_event(l, &ev)) {
			free(key);
			return -1;
		}
		rc = load_node(l, &ev, depth + 1, &val);
		if (!rc) {
			/* a block value starts a line below its key */
			if (note_line(l, val, kline) ||
			    note_key_line(l, map, key, kline))
				rc = pb_fail(l->err, EX_OSERR, "%s: out of "
					     "memory", l->doc->name);
			json_object_set_new(map, key, val);
		}
		free(key);
		if (rc)
			return -1;
	}
}

static int load_sequence(struct loader *l, int depth, json_t *seq)
{
	yaml_event_t ev;
	json_t *val;
	size_t line0;

	for (;;) {
		if (next_event(l, &ev))
			return -1;
		if (ev.type == YAML_SEQUENCE_END_EVENT) {
			yaml_event_delete(&ev);
			return 0;
		}
		line0 = ev.start_mark.line;
		if (load_node(l, &ev, depth + 1, &val))
			return -1;
		/* an item's line is its node's, but null is shared */
		if (json_is_null(val) &&
		    put_line(l->doc, seq_key(seq, json_array_size(seq)),
			     line0)) {
			json_decref(val);
			return pb_fail(l->err, EX_OSERR, "%s: out of memory",
				       l->doc->name);
		}
		json_array_append_new(seq, val);
	}
}

/* Takes ownership of 'ev'. */
static int load_node(struct loader *l, yaml_event_t *ev, int depth,
		     json_t **out)
{
	size_t line0 = ev->start_mark.line;
	yaml_event_type_t type = ev->type;
	int rc = 0;

	*out = NULL;
	if (depth > YAML_MAX_DEPTH || ++l->nodes > l->max_nodes)
		rc = fail_at(l, line0, depth > YAML_MAX_DEPTH ?
			     "nesting too deep" : l->nodes > YAML_MAX_NODES ?
			     "too many values" : "too many values for the "
			     "size of the file (one per 8 bytes at most)",
			     NULL);
	else if (type == YAML_ALIAS_EVENT)
		rc = fail_at(l, line0, "aliases are not supported", NULL);
	else if (type == YAML_SCALAR_EVENT)
		*out = scalar(ev);
	else if (type == YAML_MAPPING_START_EVENT)
		*out = json_object();
	else if (type == YAML_SEQUENCE_START_EVENT)
		*out = json_array();
	else
		rc = fail_at(l, line0, "unexpected YAML event", NULL);
	yaml_event_delete(ev);
	if (rc)
		return -1;
	if (!*out)
		return pb_fail(l->err, EX_OSERR, "%s: out of memory",
			       l->doc->name);
	if (note_line(l, *out, line0)) {
		json_decref(*out);
		*out = NULL;
		return pb_fail(l->err, EX_OSERR, "%s: out of memory",
			       l->doc->name);
	}
	if (type == YAML_MAPPING_START_EVENT)
		rc = load_mapping(l, depth, *out);
	else if (type == YAML_SEQUENCE_START_EVENT)
		rc = load_sequence(l, depth, *out);
	if (rc) {
		json_decref(*out);
		*out = NULL;
	}
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

int jyaml_load_str(const char *name, const char *text, size_t len,
		  struct jydoc *doc, struct pb_err *err)
{
	struct loader l = { .doc = doc, .err = err, .text = text, .len = len };
	int rc;

	/* a value per 8 bytes at most (real files have one per 12 or more),
	 * so that memory stays a small multiple of the input */
	l.max_nodes = YAML_MIN_NODES + len / YAML_BYTES_PER_NODE;
	if (l.max_nodes > YAML_MAX_NODES)
		l.max_nodes = YAML_MAX_NODES;
	doc->root = NULL;
	doc->lines = NULL;
	doc->nlines = doc->cap = 0;
	doc->name = strdup(name);
	if (!doc->name) {
		jydoc_release(doc);
		return pb_fail(err, EX_OSERR, "%s: out of memory", name);
	}
	if (!yaml_parser_initialize(&l.parser)) {
		jydoc_release(doc);
		return pb_fail(err, EX_OSERR, "%s: out of memory", name);
	}
	yaml_parser_set_input_string(&l.parser, (const unsigned char *)text,
				     len);
	rc = load_stream(&l);
	yaml_parser_delete(&l.parser);
	if (rc)
		jydoc_release(doc);
	return rc;
}

int jyaml_load_file(const char *path, size_t max_bytes, struct jydoc *doc,
		   struct pb_err *err)
{
	struct strbuf sb = STRBUF_INIT;
	int rc;

	doc->root = NULL;
	doc->lines = NULL;
	doc->nlines = doc->cap = 0;
	doc->name = NULL;
	if (file_read(path, max_bytes, 1, &sb, err)) {
		sb_release(&sb);
		return -1;
	}
	rc = jyaml_load_str(path, sb_str(&sb), sb.len, doc, err);
	sb_release(&sb);
	return rc;
}

void jydoc_release(struct jydoc *doc)
{
	json_decref(doc->root);
	free(doc->lines);
	free(doc->name);
	doc->root = NULL;
	doc->lines = NULL;
	doc->nlines = doc->cap = 0;
	doc->name = NULL;
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

/* Strict: an optional '-' then digits, nothing else. */
int parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	if (!((*s >= '0' && *s <= '9') || (*s == '-' && s[1] >= '0' &&
					   s[1] <= '9')))
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int parse_double(const char *s, double *out)
{
	char *end;
	double v;

	if (!((*s >= '0' && *s <= '9') || *s == '-' || *s == '.'))
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if ((errno && errno != ERANGE) || end == s || *end || !isfinite(v))
		return -1;
	*out = v;
	return 0;
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
