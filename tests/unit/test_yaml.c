// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/util/yaml.c and ynode.c: YAML into the typed tree
 * (scalars stay strings, plain null/~/empty become Y_NULL, keys in file
 * order), the line of every node (null items too), large mappings (their
 * index, duplicates found in linear time), the arena released at once,
 * the refusals (syntax, duplicate keys, aliases, depth, several
 * documents, non-scalar keys) with file:line, the yaml_as_* conversions
 * and the strict number parsers.
 */
#include <limits.h>
#include <malloc.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "perfbot/util/fileio.h"
#include "perfbot/util/strbuf.h"
#include "perfbot/util/yaml.h"

#include "testutil.h"

/* Every test owns one document and one error, released on teardown. */
struct fx {
	struct ydoc doc;
	struct pb_err err;
	char dir[64];		/* a temporary directory, or "" */
	char *path;
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	ydoc_release(&f->doc);
	if (f->dir[0])
		tu_rmtree(f->dir);
	free(f->path);
	free(f);
	return 0;
}

static const struct ynode *load(struct fx *f, const char *text)
{
	if (yaml_load_str("t.yaml", text, strlen(text), &f->doc, &f->err))
		fail_msg("load failed: %s", f->err.msg);
	return f->doc.root;
}

static void load_err(struct fx *f, const char *text, const char *want)
{
	assert_int_equal(yaml_load_str("t.yaml", text, strlen(text), &f->doc,
				       &f->err), -1);
	assert_int_equal(f->err.code, EX_DATAERR);
	assert_string_equal(f->err.msg, want);
	assert_null(f->doc.root);
	assert_null(f->doc.arena);
}

/* The message starts with 'prefix' ("t.yaml:3: "). */
static void load_err_prefix(struct fx *f, const char *text,
			    const char *prefix)
{
	assert_int_equal(yaml_load_str("t.yaml", text, strlen(text), &f->doc,
				       &f->err), -1);
	assert_int_equal(f->err.code, EX_DATAERR);
	if (strncmp(f->err.msg, prefix, strlen(prefix)))
		fail_msg("'%s' does not start with '%s'", f->err.msg, prefix);
	assert_true(strlen(f->err.msg) > strlen(prefix));
	assert_null(f->doc.root);
}

static const char *str(const struct ynode *map, const char *key)
{
	const struct ynode *v = ymap_get(map, key);

	if (!ynode_is(v, Y_STR))
		fail_msg("'%s' is not a string", key);
	assert_int_equal(strlen(v->str), v->len);
	return v->str;
}

static int is_null(const struct ynode *map, const char *key)
{
	return ynode_is(ymap_get(map, key), Y_NULL);
}

/* ---- the data model ---- */

static void t_scalars_stay_strings(void **state)
{
	struct fx *f = *state;
	const struct ynode *r = load(f, "a: 4\nb: 0xd000331\nc: 800%\nd: true\n"
			 "e: 1.50\nf: 'quoted'\ng: \"dq\"\nh: 007\n"
			 "i: no\nj: !!int 5\n");

	assert_true(ynode_is(r, Y_MAP));
	assert_int_equal(r->n, 10);
	assert_string_equal(str(r, "a"), "4");
	assert_string_equal(str(r, "b"), "0xd000331");
	assert_string_equal(str(r, "c"), "800%");
	assert_string_equal(str(r, "d"), "true");
	assert_string_equal(str(r, "e"), "1.50");
	assert_string_equal(str(r, "f"), "quoted");
	assert_string_equal(str(r, "g"), "dq");
	assert_string_equal(str(r, "h"), "007");
	assert_string_equal(str(r, "i"), "no");
	assert_string_equal(str(r, "j"), "5");
}

static void t_nulls(void **state)
{
	struct fx *f = *state;
	const struct ynode *r = load(f, "a:\nb: ~\nc: null\nd: Null\ne: NULL\n"
			 "f: 'null'\ng: \"~\"\nh: ''\ni: \"\"\n");

	assert_true(is_null(r, "a"));
	assert_true(is_null(r, "b"));
	assert_true(is_null(r, "c"));
	assert_true(is_null(r, "d"));
	assert_true(is_null(r, "e"));
	assert_null(ynode_str(ymap_get(r, "a")));
	assert_int_equal(ymap_get(r, "a")->n, 0);
	/* Quoted: strings as written. */
	assert_string_equal(str(r, "f"), "null");
	assert_string_equal(str(r, "g"), "~");
	assert_string_equal(str(r, "h"), "");
	assert_string_equal(str(r, "i"), "");
}

static void t_nested(void **state)
{
	struct fx *f = *state;
	const struct ynode *r = load(f, "job:\n  fsmark:\n    filesize: 4K\n"
				     "    list:\n      - x\n      - k: v\n"
				     "      - [1, 2]\ntop: [a, {b: c}]\n");
	const struct ynode *fs, *list, *top;

	fs = ymap_get(ymap_get(r, "job"), "fsmark");
	assert_true(ynode_is(fs, Y_MAP));
	assert_string_equal(str(fs, "filesize"), "4K");
	list = ymap_get(fs, "list");
	assert_true(ynode_is(list, Y_SEQ));
	assert_int_equal(list->n, 3);
	assert_null(list->keys);
	assert_string_equal(ynode_str(list->items[0]), "x");
	assert_string_equal(str(list->items[1], "k"), "v");
	assert_int_equal(list->items[2]->n, 2);
	assert_string_equal(ynode_str(list->items[2]->items[1]), "2");
	top = ymap_get(r, "top");
	assert_int_equal(top->n, 2);
	assert_string_equal(str(top->items[1], "b"), "c");
	/* a lookup in what is not a mapping finds nothing */
	assert_null(ymap_get(top, "b"));
	assert_null(ymap_get(ymap_get(r, "nothing"), "b"));
	assert_null(ymap_get(list->items[0], "x"));
}

static void t_key_order_kept(void **state)
{
	struct fx *f = *state;
	const struct ynode *r = load(f, "zeta: 1\nalpha: 2\nmid: 3\n");
	const char *want[] = { "zeta", "alpha", "mid" };
	size_t i;

	assert_int_equal(r->n, 3);
	for (i = 0; i < r->n; i++) {
		assert_string_equal(r->keys[i], want[i]);
		assert_int_equal(r->items[i]->line, i + 1);
		assert_ptr_equal(ymap_get(r, want[i]), r->items[i]);
	}
}

static void t_root_kinds(void **state)
{
	struct fx *f = *state;
	const struct ynode *r = load(f, "- a\n- b\n");

	assert_true(ynode_is(r, Y_SEQ));
	ydoc_release(&f->doc);
	assert_string_equal(ynode_str(load(f, "just text\n")), "just text");
	ydoc_release(&f->doc);
	assert_string_equal(ynode_str(load(f, "--- a\n...\n")), "a");
}

static void t_empty_documents(void **state)
{
	struct fx *f = *state;
	const struct ynode *r;

	assert_null(load(f, ""));
	assert_string_equal(f->doc.name, "t.yaml");
	ydoc_release(&f->doc);
	assert_null(load(f, "# only a comment\n\n"));
	ydoc_release(&f->doc);
	r = load(f, "---\n");
	assert_true(ynode_is(r, Y_NULL));
	/* where libyaml puts the empty value: past the '---' line */
	assert_int_equal(ynode_line(r), 2);
}

static void t_multiline_scalars(void **state)
{
	struct fx *f = *state;
	const struct ynode *r = load(f, "lit: |\n  one\n  two\n"
				     "fold: >\n  a\n  b\n");

	assert_string_equal(str(r, "lit"), "one\ntwo\n");
	assert_string_equal(str(r, "fold"), "a b\n");
}

/* ---- lines ---- */

static void t_lines(void **state)
{
	struct fx *f = *state;
	const struct ynode *r = load(f, "# comment\na: 1\n\nb:\n  c: x\n"
				     "  d:\n    - p\n    - q\ne: [1,\n  2]\n");
	const struct ynode *b = ymap_get(r, "b");

	assert_int_equal(ynode_line(r), 2);
	assert_int_equal(ynode_line(ymap_get(r, "a")), 2);
	/* a block value has its key's line, not the line it starts on */
	assert_int_equal(ynode_line(b), 4);
	assert_int_equal(ynode_line(ymap_get(b, "c")), 5);
	assert_int_equal(ynode_line(ymap_get(b, "d")->items[0]), 7);
	assert_int_equal(ynode_line(ymap_get(b, "d")->items[1]), 8);
	assert_int_equal(ynode_line(ymap_get(r, "e")), 9);
	assert_int_equal(ynode_line(ymap_get(r, "e")->items[1]), 10);
}

static void t_line_unknown(void **state)
{
	struct fx *f = *state;

	load(f, "a: 1\n");
	assert_int_equal(ynode_line(NULL), 0);
	assert_int_equal(ynode_line(ymap_get(f->doc.root, "zz")), 0);
	assert_int_equal(ynode_msg_line(NULL), 0);
}

/*
 * Every null is a node of its own with its line (a value: its key's);
 * only the line a message names, ynode_msg_line(), leaves it out, as
 * perfbot's messages about a null value always have.
 */
static void t_line_of_null_values(void **state)
{
	struct fx *f = *state;
	const struct ynode *r = load(f, "a:\nb: 1\nc: ~\n");

	assert_int_equal(ynode_line(ymap_get(r, "a")), 1);
	assert_int_equal(ynode_line(ymap_get(r, "b")), 2);
	assert_int_equal(ynode_line(ymap_get(r, "c")), 3);
	assert_ptr_not_equal(ymap_get(r, "a"), ymap_get(r, "c"));
	assert_int_equal(ynode_msg_line(ymap_get(r, "a")), 0);
	assert_int_equal(ynode_msg_line(ymap_get(r, "b")), 2);
}

static void t_line_of_null_items(void **state)
{
	struct fx *f = *state;
	const struct ynode *r = load(f, "list:\n  - a\n  -\n  - ~\n"
				     "  - [x,\n     ~]\n  - null\n"
				     "flow: [1, ~,\n  ~]\n");
	const struct ynode *l = ymap_get(r, "list"), *fl = ymap_get(r, "flow");

	assert_int_equal(l->n, 5);
	assert_true(ynode_is(l->items[1], Y_NULL));
	assert_int_equal(ynode_line(l->items[1]), 3);
	assert_true(ynode_is(l->items[2], Y_NULL));
	assert_int_equal(ynode_line(l->items[2]), 4);
	assert_true(ynode_is(l->items[3]->items[1], Y_NULL));
	assert_int_equal(ynode_line(l->items[3]->items[1]), 6);
	assert_int_equal(ynode_line(l->items[4]), 7);
	assert_int_equal(ynode_line(fl->items[1]), 8);
	assert_int_equal(ynode_line(fl->items[2]), 9);
}

/* A string holds its length: a NUL of a quoted escape is kept. */
static void t_string_with_nul(void **state)
{
	struct fx *f = *state;
	const struct ynode *v = ymap_get(load(f, "a: \"x\\0y\"\n"), "a");

	assert_true(ynode_is(v, Y_STR));
	assert_int_equal(v->len, 3);
	assert_memory_equal(v->str, "x\0y", 4);
}

/* ---- refusals ---- */

static void t_err_syntax(void **state)
{
	struct fx *f = *state;

	load_err_prefix(f, "a: [1, 2\nb: 3\n", "t.yaml:2: ");
	ydoc_release(&f->doc);
	load_err_prefix(f, "a: 1\nb: 'unterminated\nc: 2\n", "t.yaml:");
	ydoc_release(&f->doc);
	load_err(f, "a: 1\n b: 2\n",
		 "t.yaml:2: mapping values are not allowed in this context");
	ydoc_release(&f->doc);
	load_err_prefix(f, "ok: 1\n\tbad: 2\n", "t.yaml:2: ");
}

/*
 * Errors of libyaml's reader (bad UTF-8, a control character) come with
 * a byte offset, not a mark: the line is counted from it.
 */
static void t_err_reader_line(void **state)
{
	struct fx *f = *state;

	load_err_prefix(f, "a: 1\nb: 2\nc: caf\xc3\n", "t.yaml:3: ");
	assert_non_null(strstr(f->err.msg, "UTF-8"));
	ydoc_release(&f->doc);
	load_err_prefix(f, "a: 1\nb: 2\nc: 3\nd: 4\ne: x\x01y\n",
			"t.yaml:5: ");
	assert_non_null(strstr(f->err.msg, "control characters"));
	ydoc_release(&f->doc);
	load_err_prefix(f, "a: \xff\n", "t.yaml:1: ");
	ydoc_release(&f->doc);
	load_err_prefix(f, "a: |\n  one\n  two\n  thr\x7f\n", "t.yaml:4: ");
}

/*
 * Memory stays a small multiple of the input: a 1 MiB flow list of
 * one-digit values (some 520,000 nodes, 380 MB once) is refused at
 * once, and the densest file allowed (a value per 8 bytes) costs less
 * than 10 times its size (the JSON tree it replaced took 15).
 */
static void t_memory_bounded(void **state)
{
	struct fx *f = *state;
	struct strbuf sb = STRBUF_INIT;
	struct mallinfo2 before, after;

	assert_int_equal(sb_adds(&sb, "testcase: x\nflow: ["), 0);
	while (sb.len < (1u << 20) - 8)
		assert_int_equal(sb_adds(&sb, "1,"), 0);
	assert_int_equal(sb_adds(&sb, "1]\n"), 0);
	assert_int_equal(yaml_load_str("t.yaml", sb.buf, sb.len, &f->doc,
				       &f->err), -1);
	assert_non_null(strstr(f->err.msg, "too many values for the size"));
	sb_reset(&sb);
	assert_int_equal(sb_adds(&sb, "testcase: x\nlist:\n"), 0);
	while (sb.len < (1u << 20) - 8)
		assert_int_equal(sb_adds(&sb, "- abcde\n"), 0);
	before = mallinfo2();
	assert_int_equal(yaml_load_str("t.yaml", sb.buf, sb.len, &f->doc,
				       &f->err), 0);
	after = mallinfo2();
	assert_int_equal(ymap_get(f->doc.root, "list")->n, (sb.len - 18) / 8);
	/* under a sanitizer malloc is not glibc's: nothing to measure */
	if (after.uordblks > before.uordblks)
		assert_true(after.uordblks - before.uordblks < 10 * sb.len);
	assert_int_equal(ynode_line(ymap_get(f->doc.root,
					     "list")->items[1000]), 1003);
	sb_release(&sb);
}

/* ---- large mappings ---- */

/* A mapping of 'n' keys "k0: 0", "k1: 1", ... in that order. */
static void many_keys(struct strbuf *sb, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		assert_int_equal(sb_addf(sb, "k%zu: %zu\n", i, i), 0);
}

/*
 * Small mappings are searched, larger ones hashed: around each size
 * where the index appears or grows, every key is found with its own
 * value and line, in file order, and an absent key is not.
 */
static void t_map_sizes(void **state)
{
	static const size_t sizes[] = { 0, 1, 8, 9, 16, 17, 32, 33, 1000 };
	struct fx *f = *state;
	struct strbuf sb = STRBUF_INIT;
	const struct ynode *r;
	char key[32];
	size_t s, i;

	for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		sb_reset(&sb);
		assert_int_equal(sb_adds(&sb, "{}\n"), 0);
		if (sizes[s])
			sb_reset(&sb);
		many_keys(&sb, sizes[s]);
		r = load(f, sb_str(&sb));
		assert_true(ynode_is(r, Y_MAP));
		assert_int_equal(r->n, sizes[s]);
		for (i = 0; i < sizes[s]; i++) {
			snprintf(key, sizeof(key), "k%zu", i);
			assert_string_equal(r->keys[i], key);
			assert_ptr_equal(ymap_get(r, key), r->items[i]);
			assert_int_equal(ynode_line(r->items[i]), i + 1);
			assert_int_equal(strtoul(r->items[i]->str, NULL, 10),
					 i);
		}
		assert_null(ymap_get(r, "k"));
		assert_null(ymap_get(r, "absent"));
		ydoc_release(&f->doc);
	}
	sb_release(&sb);
}

/*
 * 100,000 keys, then one of the first again: refused with its line. Each
 * key is checked against the index, not every key before it, so this is
 * linear (some 5 * 10^9 comparisons otherwise).
 */
static void t_large_map_duplicate(void **state)
{
	struct fx *f = *state;
	struct strbuf sb = STRBUF_INIT;
	const struct ynode *r;

	many_keys(&sb, 100000);
	r = load(f, sb_str(&sb));
	assert_int_equal(r->n, 100000);
	assert_string_equal(str(r, "k99999"), "99999");
	assert_string_equal(str(r, "k12345"), "12345");
	assert_int_equal(ynode_line(ymap_get(r, "k54321")), 54322);
	ydoc_release(&f->doc);
	assert_int_equal(sb_adds(&sb, "k3: again\n"), 0);
	load_err(f, sb_str(&sb), "t.yaml:100001: duplicate key 'k3'");
	ydoc_release(&f->doc);
	/* and in a mapping nested in a large one */
	sb_reset(&sb);
	many_keys(&sb, 50000);
	assert_int_equal(sb_adds(&sb, "in:\n  a: 1\n  b: 2\n  a: 3\n"), 0);
	load_err(f, sb_str(&sb), "t.yaml:50004: duplicate key 'a'");
	sb_release(&sb);
}

/* ---- the arena ---- */

/*
 * A document is one arena: releasing frees all of it (the heap is back
 * where it was), leaves the document zeroed and may be done again; a
 * zeroed document and a failed load need nothing but are safe too.
 */
static void t_arena_release(void **state)
{
	struct fx *f = *state;
	struct strbuf sb = STRBUF_INIT;
	struct mallinfo2 before, after;
	struct ydoc zero;

	memset(&zero, 0, sizeof(zero));
	ydoc_release(&zero);
	ydoc_release(&zero);
	assert_null(zero.root);
	many_keys(&sb, 20000);
	assert_int_equal(sb_adds(&sb, "list: [a, [b, {c: d}], ~]\n"), 0);
	before = mallinfo2();
	load(f, sb_str(&sb));
	assert_non_null(f->doc.arena);
	assert_string_equal(f->doc.name, "t.yaml");
	ydoc_release(&f->doc);
	after = mallinfo2();
	assert_null(f->doc.root);
	assert_null(f->doc.name);
	assert_null(f->doc.arena);
	/* the document (megabytes) is gone; glibc's thread cache keeps a
	 * few small freed chunks counted as in use */
	assert_true(after.uordblks <= before.uordblks + 64 * 1024);
	ydoc_release(&f->doc);
	/* a failed load keeps nothing and is released as well */
	assert_int_equal(sb_adds(&sb, "k7: 1\n"), 0);
	load_err(f, sb_str(&sb), "t.yaml:20002: duplicate key 'k7'");
	assert_null(f->doc.name);
	ydoc_release(&f->doc);
	sb_release(&sb);
}

/* A value replaced (a path resolved) keeps its line; the old stays put. */
static void t_set_str(void **state)
{
	struct fx *f = *state;
	const struct ynode *r = load(f, "a: rel/path\nb: [x, ~]\n");
	struct ynode *b1 = ymap_get(r, "b")->items[1];

	assert_int_equal(ydoc_set_str(&f->doc, r->items[0], "/abs/rel/path",
				      &f->err), 0);
	assert_string_equal(str(r, "a"), "/abs/rel/path");
	assert_int_equal(ynode_line(ymap_get(r, "a")), 1);
	assert_int_equal(ydoc_set_str(&f->doc, b1, "now", &f->err), 0);
	assert_true(ynode_is(b1, Y_STR));
	assert_int_equal(b1->len, 3);
	assert_int_equal(ynode_line(b1), 2);
}

static void t_err_duplicate_key(void **state)
{
	struct fx *f = *state;

	load_err(f, "a: 1\nb: 2\na: 3\n", "t.yaml:3: duplicate key 'a'");
	ydoc_release(&f->doc);
	load_err(f, "top:\n  x: 1\n  y: 2\n  x: 3\n",
		 "t.yaml:4: duplicate key 'x'");
	ydoc_release(&f->doc);
	load_err(f, "{a: 1, 'a': 2}", "t.yaml:1: duplicate key 'a'");
}

static void t_same_key_different_maps(void **state)
{
	struct fx *f = *state;
	const struct ynode *r = load(f, "a:\n  x: 1\nb:\n  x: 2\n");

	assert_string_equal(str(ymap_get(r, "a"), "x"), "1");
	assert_string_equal(str(ymap_get(r, "b"), "x"), "2");
}

static void t_err_duplicate_key_scrubbed(void **state)
{
	struct fx *f = *state;
	char text[400];
	char want[200];

	/* Control characters are not echoed; a long key is cut. */
	load_err(f, "\"a\\eb\\nc\": 1\n\"a\\eb\\nc\": 2\n",
		 "t.yaml:2: duplicate key 'a?b?c'");
	ydoc_release(&f->doc);
	snprintf(text, sizeof(text), "%0150d: 1\n%0150d: 2\n", 0, 0);
	snprintf(want, sizeof(want), "t.yaml:2: duplicate key '%064d'", 0);
	load_err(f, text, want);
}

static void t_err_alias(void **state)
{
	struct fx *f = *state;

	load_err(f, "a: &x 1\nb: *x\n", "t.yaml:2: aliases are not supported");
	ydoc_release(&f->doc);
	load_err(f, "base: &b\n  k: v\nlist:\n  - 1\n  - *b\n",
		 "t.yaml:5: aliases are not supported");
	ydoc_release(&f->doc);
	/* A merge key is an alias too. */
	load_err(f, "a: &x {k: v}\nb:\n  <<: *x\n",
		 "t.yaml:3: aliases are not supported");
}

static void t_anchor_alone_ok(void **state)
{
	struct fx *f = *state;
	const struct ynode *r = load(f, "a: &x 1\n");

	assert_string_equal(str(r, "a"), "1");
}

/* 'n' nested flow lists around "x". */
static char *nested_lists(size_t n)
{
	struct strbuf sb = STRBUF_INIT;

	assert_int_equal(sb_addn(&sb, '[', n), 0);
	assert_int_equal(sb_adds(&sb, "x"), 0);
	assert_int_equal(sb_addn(&sb, ']', n), 0);
	return sb_detach(&sb, NULL);
}

static void t_depth_limit(void **state)
{
	struct fx *f = *state;
	char *ok = nested_lists(YAML_MAX_DEPTH);
	const struct ynode *v;
	int i;

	/* The root is depth 0: the scalar inside is at YAML_MAX_DEPTH. */
	v = load(f, ok);
	for (i = 0; i < YAML_MAX_DEPTH; i++) {
		assert_true(ynode_is(v, Y_SEQ));
		assert_int_equal(v->n, 1);
		v = v->items[0];
	}
	assert_string_equal(ynode_str(v), "x");
	free(ok);
}

static void t_err_too_deep(void **state)
{
	struct fx *f = *state;
	char *deep = nested_lists(YAML_MAX_DEPTH + 1);
	char *very = nested_lists(10000);

	load_err(f, deep, "t.yaml:1: nesting too deep");
	ydoc_release(&f->doc);
	/* Far too deep: refused early, no stack exhaustion. */
	load_err_prefix(f, very, "t.yaml:1: ");
	free(deep);
	free(very);
}

static void t_err_too_deep_block(void **state)
{
	struct fx *f = *state;
	struct strbuf sb = STRBUF_INIT;
	char want[64];
	int i;

	for (i = 0; i <= YAML_MAX_DEPTH; i++) {
		assert_int_equal(sb_addn(&sb, ' ', (size_t)i), 0);
		assert_int_equal(sb_addf(&sb, "k%d:\n", i), 0);
	}
	assert_int_equal(sb_addn(&sb, ' ', (size_t)i), 0);
	assert_int_equal(sb_adds(&sb, "leaf: 1\n"), 0);
	/* The mapping holding 'leaf' is one level too deep. */
	snprintf(want, sizeof(want), "t.yaml:%d: nesting too deep",
		 YAML_MAX_DEPTH + 2);
	load_err(f, sb_str(&sb), want);
	sb_release(&sb);
}

static void t_err_several_documents(void **state)
{
	struct fx *f = *state;

	load_err(f, "a: 1\n---\nb: 2\n", "t.yaml:2: more than one document");
	ydoc_release(&f->doc);
	load_err(f, "a: 1\n...\n---\nb: 2\n",
		 "t.yaml:3: more than one document");
	ydoc_release(&f->doc);
	load_err(f, "---\na: 1\n---\n", "t.yaml:3: more than one document");
}

static void t_err_nonscalar_key(void **state)
{
	struct fx *f = *state;

	load_err(f, "ok: 1\n? [a, b]\n: c\n",
		 "t.yaml:2: mapping keys must be plain values");
	ydoc_release(&f->doc);
	load_err(f, "{[a]: 1}", "t.yaml:1: mapping keys must be plain values");
	ydoc_release(&f->doc);
	load_err(f, "? {k: v}\n: c\n",
		 "t.yaml:1: mapping keys must be plain values");
}

static void t_err_message_names_source(void **state)
{
	struct fx *f = *state;
	const char *text = "a: 1\na: 2\n";

	assert_int_equal(yaml_load_str("config/x.yaml", text, strlen(text),
				       &f->doc, &f->err), -1);
	assert_string_equal(f->err.msg, "config/x.yaml:2: duplicate key 'a'");
}

/* ---- files ---- */

static const char *tmp_file(struct fx *f, const char *text, size_t len)
{
	assert_non_null(tu_tmpdir(f->dir, sizeof(f->dir), "test_yaml"));
	f->path = path_join(f->dir, "job.yaml");
	assert_non_null(f->path);
	tu_write_n(f->path, text, len, 0600);
	return f->path;
}

static void t_load_file(void **state)
{
	struct fx *f = *state;
	const char *p = tmp_file(f, "testcase: fsmark\n", 17);

	assert_int_equal(yaml_load_file(p, 1024, &f->doc, &f->err), 0);
	assert_string_equal(str(f->doc.root, "testcase"), "fsmark");
	assert_string_equal(f->doc.name, p);
}

static void t_load_file_errors(void **state)
{
	struct fx *f = *state;
	const char *p = tmp_file(f, "a: 1\nb: [\n", 10);
	char want[128];

	snprintf(want, sizeof(want), "%s:", p);
	assert_int_equal(yaml_load_file(p, 1024, &f->doc, &f->err), -1);
	assert_int_equal(f->err.code, EX_DATAERR);
	assert_memory_equal(f->err.msg, want, strlen(want));
	ydoc_release(&f->doc);
	/* Over the size limit. */
	assert_int_equal(yaml_load_file(p, 5, &f->doc, &f->err), -1);
	assert_int_equal(f->err.code, EX_DATAERR);
	assert_memory_equal(f->err.msg, want, strlen(want));
	assert_non_null(strstr(f->err.msg, "limit"));
	ydoc_release(&f->doc);
	/* Missing. */
	assert_int_equal(unlink(p), 0);
	assert_int_equal(yaml_load_file(p, 1024, &f->doc, &f->err), -1);
	assert_int_equal(f->err.code, EX_NOINPUT);
	assert_memory_equal(f->err.msg, want, strlen(want));
}

static void t_load_file_nul(void **state)
{
	struct fx *f = *state;
	const char *p = tmp_file(f, "a: 1\0b: 2\n", 10);

	assert_int_equal(yaml_load_file(p, 1024, &f->doc, &f->err), -1);
	assert_int_equal(f->err.code, EX_DATAERR);
	assert_non_null(strstr(f->err.msg, "NUL"));
}

/* ---- conversions ---- */

static const char conv_doc[] =
	"n: 5\nneg: -3\nbig: 99999999999999999999\nword: lots\nfrac: 2.5\n"
	"list: [1]\nempty:\nx: 1.5e3\ninf: inf\nnan: nan\ntrail: 5x\n"
	"t: true\ny: yes\non: on\nf: false\nno: no\noff: off\nmaybe: maybe\n"
	"one: 1\nmap: {a: b}\nempty2:\n";

static const struct ynode *node(struct fx *f, const char *key)
{
	if (!f->doc.root)
		load(f, conv_doc);
	return ymap_get(f->doc.root, key);
}

static void as_long_err(struct fx *f, const char *key, long min, long max,
			const char *want)
{
	long v = 1234;

	assert_int_equal(yaml_as_long(&f->doc, node(f, key), key, min, max,
				      &v, &f->err), -1);
	assert_int_equal(f->err.code, EX_CONFIG);
	assert_string_equal(f->err.msg, want);
	assert_int_equal(v, 1234);
}

static void t_as_long(void **state)
{
	struct fx *f = *state;
	long v = 0;

	assert_int_equal(yaml_as_long(&f->doc, node(f, "n"), "n", 0, 10, &v,
				      &f->err), 0);
	assert_int_equal(v, 5);
	assert_int_equal(yaml_as_long(&f->doc, node(f, "n"), "n", 5, 5, &v,
				      &f->err), 0);
	assert_int_equal(yaml_as_long(&f->doc, node(f, "neg"), "neg", -10, 10,
				      &v, &f->err), 0);
	assert_int_equal(v, -3);
	as_long_err(f, "neg", 0, 10,
		    "t.yaml:2: 'neg' must be a whole number from 0 to 10");
	as_long_err(f, "n", 6, 100,
		    "t.yaml:1: 'n' must be a whole number from 6 to 100");
	as_long_err(f, "big", LONG_MIN, LONG_MAX, "t.yaml:3: 'big' must be a "
		    "whole number from -9223372036854775808 to "
		    "9223372036854775807");
	as_long_err(f, "word", 0, 10,
		    "t.yaml:4: 'word' must be a whole number from 0 to 10");
	as_long_err(f, "frac", 0, 10,
		    "t.yaml:5: 'frac' must be a whole number from 0 to 10");
	as_long_err(f, "list", 0, 10,
		    "t.yaml:6: 'list' must be a whole number from 0 to 10");
	as_long_err(f, "trail", 0, 10,
		    "t.yaml:11: 'trail' must be a whole number from 0 to 10");
}

static void t_as_long_null(void **state)
{
	struct fx *f = *state;

	/* An empty value is not a number; a message about a null value
	 * names no line (ynode_msg_line), as it always has. */
	as_long_err(f, "empty", 0, 10,
		    "t.yaml: 'empty' must be a whole number from 0 to 10");
}

static void t_as_double(void **state)
{
	struct fx *f = *state;
	double v = 0;

	assert_int_equal(yaml_as_double(&f->doc, node(f, "frac"), "frac", &v,
					&f->err), 0);
	assert_true(v == 2.5);
	assert_int_equal(yaml_as_double(&f->doc, node(f, "x"), "x", &v,
					&f->err), 0);
	assert_true(v == 1500.0);
	assert_int_equal(yaml_as_double(&f->doc, node(f, "neg"), "neg", &v,
					&f->err), 0);
	assert_true(v == -3.0);
	v = 42;
	assert_int_equal(yaml_as_double(&f->doc, node(f, "word"), "word", &v,
					&f->err), -1);
	assert_int_equal(f->err.code, EX_CONFIG);
	assert_string_equal(f->err.msg, "t.yaml:4: 'word' must be a number");
	assert_int_equal(yaml_as_double(&f->doc, node(f, "inf"), "inf", &v,
					&f->err), -1);
	assert_string_equal(f->err.msg, "t.yaml:9: 'inf' must be a number");
	assert_int_equal(yaml_as_double(&f->doc, node(f, "nan"), "nan", &v,
					&f->err), -1);
	assert_string_equal(f->err.msg, "t.yaml:10: 'nan' must be a number");
	assert_int_equal(yaml_as_double(&f->doc, node(f, "map"), "map", &v,
					&f->err), -1);
	assert_string_equal(f->err.msg, "t.yaml:20: 'map' must be a number");
	assert_true(v == 42);
}

static void t_as_bool(void **state)
{
	static const char *const yes[] = { "t", "y", "on" };
	static const char *const no[] = { "f", "no", "off" };
	struct fx *f = *state;
	size_t i;
	int v;

	for (i = 0; i < 3; i++) {
		v = -1;
		assert_int_equal(yaml_as_bool(&f->doc, node(f, yes[i]), yes[i],
					      &v, &f->err), 0);
		assert_int_equal(v, 1);
		v = -1;
		assert_int_equal(yaml_as_bool(&f->doc, node(f, no[i]), no[i],
					      &v, &f->err), 0);
		assert_int_equal(v, 0);
	}
	v = -1;
	assert_int_equal(yaml_as_bool(&f->doc, node(f, "maybe"), "maybe", &v,
				      &f->err), -1);
	assert_int_equal(f->err.code, EX_CONFIG);
	assert_string_equal(f->err.msg,
			    "t.yaml:18: 'maybe' must be true or false");
	assert_int_equal(yaml_as_bool(&f->doc, node(f, "one"), "one", &v,
				      &f->err), -1);
	assert_string_equal(f->err.msg,
			    "t.yaml:19: 'one' must be true or false");
	assert_int_equal(yaml_as_bool(&f->doc, node(f, "list"), "list", &v,
				      &f->err), -1);
	assert_int_equal(v, -1);
}

static void t_as_string(void **state)
{
	struct fx *f = *state;
	const char *s = NULL;

	assert_int_equal(yaml_as_string(&f->doc, node(f, "word"), "word", &s,
					&f->err), 0);
	assert_string_equal(s, "lots");
	assert_int_equal(yaml_as_string(&f->doc, node(f, "map"), "map.x", &s,
					&f->err), -1);
	assert_int_equal(f->err.code, EX_CONFIG);
	assert_string_equal(f->err.msg, "t.yaml:20: 'map.x' must be a string");
}

/* ---- strict number parsing ---- */

static void t_parse_long(void **state)
{
	long v = 0;

	(void)state;
	assert_int_equal(parse_long("42", 0, 100, &v), 0);
	assert_int_equal(v, 42);
	assert_int_equal(parse_long("-42", -100, 100, &v), 0);
	assert_int_equal(v, -42);
	assert_int_equal(parse_long("0", 0, 0, &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(parse_long("9223372036854775807", LONG_MIN, LONG_MAX,
				    &v), 0);
	assert_true(v == LONG_MAX);
	assert_int_equal(parse_long("-9223372036854775808", LONG_MIN,
				    LONG_MAX, &v), 0);
	assert_true(v == LONG_MIN);
	/* Bounds are inclusive. */
	assert_int_equal(parse_long("100", 0, 100, &v), 0);
	assert_int_equal(parse_long("101", 0, 100, &v), -1);
	assert_int_equal(parse_long("-1", 0, 100, &v), -1);
}

static void t_parse_long_strict(void **state)
{
	static const char *const bad[] = {
		"", " ", "5x", "5 ", "1.0", "1e3", "0x10", "abc", "--5",
		"9223372036854775808", "-9223372036854775809",
		"99999999999999999999999",
	};
	size_t i;
	long v;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		v = 777;
		if (parse_long(bad[i], LONG_MIN, LONG_MAX, &v) != -1)
			fail_msg("parse_long accepted '%s'", bad[i]);
		assert_int_equal(v, 777);
	}
}

static void t_parse_double(void **state)
{
	double v = 0;

	(void)state;
	assert_int_equal(parse_double("1.5", &v), 0);
	assert_true(v == 1.5);
	assert_int_equal(parse_double("-2e-3", &v), 0);
	assert_true(v == -2e-3);
	assert_int_equal(parse_double("42", &v), 0);
	assert_true(v == 42.0);
	assert_int_equal(parse_double("1e308", &v), 0);
	assert_true(v == 1e308);
	assert_int_equal(parse_double("0", &v), 0);
	assert_true(v == 0.0);
}

static void t_parse_double_strict(void **state)
{
	static const char *const bad[] = {
		"", " ", "1.5x", "1.5 ", "1,5", "abc", "inf", "-inf", "INF",
		"infinity", "nan", "NaN", "-nan", "1e309", "-1e400", "e5",
		"1e", "--1",
	};
	size_t i;
	double v;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		v = 777;
		if (parse_double(bad[i], &v) != -1)
			fail_msg("parse_double accepted '%s'", bad[i]);
		assert_true(v == 777);
	}
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(t_scalars_stay_strings),
		T(t_nulls),
		T(t_nested),
		T(t_key_order_kept),
		T(t_root_kinds),
		T(t_empty_documents),
		T(t_multiline_scalars),
		T(t_lines),
		T(t_line_unknown),
		T(t_line_of_null_values),
		T(t_line_of_null_items),
		T(t_string_with_nul),
		T(t_err_syntax),
		T(t_err_reader_line),
		T(t_memory_bounded),
		T(t_map_sizes),
		T(t_large_map_duplicate),
		T(t_arena_release),
		T(t_set_str),
		T(t_err_duplicate_key),
		T(t_same_key_different_maps),
		T(t_err_duplicate_key_scrubbed),
		T(t_err_alias),
		T(t_anchor_alone_ok),
		T(t_depth_limit),
		T(t_err_too_deep),
		T(t_err_too_deep_block),
		T(t_err_several_documents),
		T(t_err_nonscalar_key),
		T(t_err_message_names_source),
		T(t_load_file),
		T(t_load_file_errors),
		T(t_load_file_nul),
		T(t_as_long),
		T(t_as_long_null),
		T(t_as_double),
		T(t_as_bool),
		T(t_as_string),
		cmocka_unit_test(t_parse_long),
		cmocka_unit_test(t_parse_long_strict),
		cmocka_unit_test(t_parse_double),
		cmocka_unit_test(t_parse_double_strict),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
