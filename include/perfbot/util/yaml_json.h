/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_YAML_JSON_H
#define PERFBOT_YAML_JSON_H

#include <stddef.h>
#include <jansson.h>

#include "perfbot/util/err.h"
#include "perfbot/util/yaml.h"

/*
 * For the move to the typed tree only (it goes once every reader walks
 * struct ydoc): a YAML document as the jansson tree the readers walked
 * before, converted from the typed tree, with the line of every node.
 */

struct yline;		/* yaml_json.c: one remembered line */

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

/* The conversions of yaml.h, on a jansson node. */
int jyaml_as_long(const struct jydoc *doc, const json_t *node, const char *key,
		 long min, long max, long *out, struct pb_err *err);
int jyaml_as_double(const struct jydoc *doc, const json_t *node, const char *key,
		   double *out, struct pb_err *err);
int jyaml_as_bool(const struct jydoc *doc, const json_t *node, const char *key,
		 int *out, struct pb_err *err);
int jyaml_as_string(const struct jydoc *doc, const json_t *node, const char *key,
		   const char **out, struct pb_err *err);

#endif
