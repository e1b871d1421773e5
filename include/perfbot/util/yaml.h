/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_YAML_H
#define PERFBOT_YAML_H

#include <stddef.h>
#include <jansson.h>

#include "perfbot/util/err.h"

/*
 * YAML documents (configuration, manifests, job.yaml, metric tables) are
 * loaded into a jansson tree so that every module walks one data model.
 * Scalars stay strings as written ("0xd000331", "800%", "4"), except a
 * plain null, ~ or empty value, which becomes JSON null; callers convert
 * with the yaml_as_* helpers. Anchors and aliases, duplicate keys,
 * non-scalar keys, nesting deeper than YAML_MAX_DEPTH and more than
 * YAML_MAX_NODES nodes (or than the input's size allows, see below) are
 * refused. The line of every node is kept so
 * that errors can name it.
 */

#define YAML_MAX_DEPTH 32
#define YAML_MAX_NODES 1000000
/* and at most YAML_MIN_NODES + one per YAML_BYTES_PER_NODE of input */
#define YAML_MIN_NODES 4096
#define YAML_BYTES_PER_NODE 8

struct yline;		/* yaml.c: one remembered line */

struct jydoc {
	json_t *root;	/* NULL for an empty document */
	struct yline *lines;	/* open-addressed: node, key or item ->
				 * 1-based line (16 bytes an entry) */
	size_t nlines, cap;
	char *name;	/* file name, for messages */
};

/* On failure 'doc' holds nothing (no release needed). */
int jyaml_load_file(const char *path, size_t max_bytes, struct jydoc *doc,
		   struct pb_err *err);
int jyaml_load_str(const char *name, const char *text, size_t len,
		  struct jydoc *doc, struct pb_err *err);
void jydoc_release(struct jydoc *doc);

/*
 * The line of 'node' (0 when unknown, and always for null, which jansson
 * shares): a mapping's value has its key's line.
 */
int jydoc_line(const struct jydoc *doc, const json_t *node);
/* The line of item 'i' of sequence 'seq' (0 when unknown). */
int jydoc_item_line(const struct jydoc *doc, const json_t *seq, size_t i);
/* The line of key 'key' in mapping 'map' (0 when unknown). */
int jydoc_key_line(const struct jydoc *doc, const json_t *map,
		  const char *key);

/*
 * Conversions of a scalar node; each returns 0 on success and -1 with
 * "<file>:<line>: '<key>' <why>" in 'err' otherwise ('key' names the
 * value in the message).
 */
int jyaml_as_long(const struct jydoc *doc, const json_t *node, const char *key,
		 long min, long max, long *out, struct pb_err *err);
int jyaml_as_double(const struct jydoc *doc, const json_t *node, const char *key,
		   double *out, struct pb_err *err);
int jyaml_as_bool(const struct jydoc *doc, const json_t *node, const char *key,
		 int *out, struct pb_err *err);
int jyaml_as_string(const struct jydoc *doc, const json_t *node, const char *key,
		   const char **out, struct pb_err *err);

/* Strict number parsing shared by every input reader. */
int parse_long(const char *s, long min, long max, long *out);
int parse_double(const char *s, double *out);

#endif
