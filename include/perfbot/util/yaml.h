/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_YAML_H
#define PERFBOT_YAML_H

#include <stddef.h>

#include "perfbot/util/err.h"
#include "perfbot/util/numparse.h"

/*
 * YAML documents (configuration, manifests, job.yaml, metric tables,
 * testcases and hosts) are loaded into perfbot's own typed tree: null,
 * strings, mappings and sequences, every node with its line. Scalars stay
 * strings as written ("0xd000331", "800%", "4"), except a plain null, ~
 * or empty value, which becomes Y_NULL; callers convert with the yaml_as_*
 * helpers. Anchors and aliases, duplicate keys, non-scalar keys, a NUL in
 * a key, nesting deeper than YAML_MAX_DEPTH and more than YAML_MAX_NODES
 * nodes (or than the input's size allows, see below) are refused with the
 * file and line.
 */

#define YAML_MAX_DEPTH 32
#define YAML_MAX_NODES 1000000
/* and at most YAML_MIN_NODES + one per YAML_BYTES_PER_NODE of input */
#define YAML_MIN_NODES 4096
#define YAML_BYTES_PER_NODE 8

enum ykind { Y_NULL, Y_STR, Y_MAP, Y_SEQ };

/*
 * One node. Its line is where it starts, except that a mapping's value
 * has its key's line (a block value starts a line below its key). A
 * Y_MAP's keys are in file order, keys[i] naming items[i]; a mapping of
 * many keys also carries a hash index of them (ymap_get). Everything
 * belongs to the document and lives until ydoc_release().
 */
struct ynode {
	enum ykind kind;
	unsigned line;		/* 1-based */
	const char *str;	/* Y_STR: NUL-terminated, 'len' bytes (which
				 * may hold a NUL); NULL otherwise */
	size_t len;
	int plain;		/* Y_STR: written plain (no quotes): a YAML
				 * 1.1 reader such as Ruby's may type it */
	struct ynode **items;	/* Y_MAP: the values; Y_SEQ: the items */
	const char **keys;	/* Y_MAP only, else NULL */
	size_t n;		/* entries of a Y_MAP or Y_SEQ, else 0 */
};

struct ychunk;		/* ynode.c: a block of the document's arena */

struct ydoc {
	struct ynode *root;	/* NULL for an empty document */
	const char *name;	/* the file's name, for messages */
	struct ychunk *arena;	/* every node, string and list of it */
};

/*
 * Load a document. On failure 'doc' holds nothing (it is zeroed and needs
 * no release, though releasing it is harmless). yaml_load_file() refuses a
 * file over 'max_bytes' or holding a NUL byte.
 */
int yaml_load_file(const char *path, size_t max_bytes, struct ydoc *doc,
		   struct pb_err *err);
int yaml_load_str(const char *name, const char *text, size_t len,
		  struct ydoc *doc, struct pb_err *err);
/* Frees the whole tree at once; safe on a zeroed or released document. */
void ydoc_release(struct ydoc *doc);

/* The value of 'key' in 'map'; NULL when absent or 'map' is no Y_MAP. */
const struct ynode *ymap_get(const struct ynode *map, const char *key);
/* 1 when 'node' is there and of kind 'kind'. */
int ynode_is(const struct ynode *node, enum ykind kind);
/* The string of a Y_STR node, else NULL (also for a NULL node). */
const char *ynode_str(const struct ynode *node);
/* The line of 'node', 0 for NULL. */
int ynode_line(const struct ynode *node);
/*
 * The line a message names for 'node': ynode_line(), but 0 (no line) for
 * a Y_NULL node as well. perfbot's messages about a null value have
 * never named its line (the JSON tree that held these documents before
 * shared one null among them all), and the move to this tree keeps
 * every message byte for byte; use ynode_line() where a line is wanted.
 */
int ynode_msg_line(const struct ynode *node);

/*
 * Replace the value of 'node' with the string 's' (copied into the
 * document), making it a Y_STR: a path resolved when the config loads.
 */
int ydoc_set_str(struct ydoc *doc, struct ynode *node, const char *s,
		 struct pb_err *err);

/*
 * Conversions of a scalar node; each returns 0 on success and -1 with
 * "<file>:<line>: '<key>' <why>" in 'err' otherwise ('key' names the
 * value in the message; no line for a null value, see ynode_msg_line).
 */
int yaml_as_long(const struct ydoc *doc, const struct ynode *node,
		 const char *key, long min, long max, long *out,
		 struct pb_err *err);
int yaml_as_double(const struct ydoc *doc, const struct ynode *node,
		   const char *key, double *out, struct pb_err *err);
int yaml_as_bool(const struct ydoc *doc, const struct ynode *node,
		 const char *key, int *out, struct pb_err *err);
int yaml_as_string(const struct ydoc *doc, const struct ynode *node,
		   const char *key, const char **out, struct pb_err *err);


#endif
