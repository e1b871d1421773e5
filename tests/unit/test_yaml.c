// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/ingest/yaml.c: YAML into a jansson tree (scalars stay
 * strings, plain null/~/empty become null), the line of every node, the
 * refusals (syntax, duplicate keys, aliases, depth, several documents,
 * non-scalar keys) with file:line, the yaml_as_* conversions and the
 * strict number parsers.
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
	struct jydoc doc;
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

	jydoc_release(&f->doc);
	if (f->dir[0])
		tu_rmtree(f->dir);
	free(f->path);
	free(f);
	return 0;
}

static json_t *load(struct fx *f, const char *text)
{
	if (jyaml_load_str("t.yaml", text, strlen(text), &f->doc, &f->err))
		fail_msg("load failed: %s", f->err.msg);
	return f->doc.root;
}

static void load_err(struct fx *f, const char *text, const char *want)
{
	assert_int_equal(jyaml_load_str("t.yaml", text, strlen(text), &f->doc,
				       &f->err), -1);
	assert_int_equal(f->err.code, EX_DATAERR);
	assert_string_equal(f->err.msg, want);
	assert_null(f->doc.root);
}

/* The message starts with 'prefix' ("t.yaml:3: "). */
static void load_err_prefix(struct fx *f, const char *text,
			    const char *prefix)
{
	assert_int_equal(jyaml_load_str("t.yaml", text, strlen(text), &f->doc,
				       &f->err), -1);
	assert_int_equal(f->err.code, EX_DATAERR);
	if (strncmp(f->err.msg, prefix, strlen(prefix)))
		fail_msg("'%s' does not start with '%s'", f->err.msg, prefix);
	assert_true(strlen(f->err.msg) > strlen(prefix));
	assert_null(f->doc.root);
}

static const char *str(json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);

	if (!json_is_string(v))
		fail_msg("'%s' is not a string", key);
	return json_string_value(v);
}

/* ---- the data model ---- */

static void t_scalars_stay_strings(void **state)
{
	struct fx *f = *state;
	json_t *r = load(f, "a: 4\nb: 0xd000331\nc: 800%\nd: true\n"
			 "e: 1.50\nf: 'quoted'\ng: \"dq\"\nh: 007\n"
			 "i: no\nj: !!int 5\n");

	assert_true(json_is_object(r));
	assert_int_equal(json_object_size(r), 10);
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
	json_t *r = load(f, "a:\nb: ~\nc: null\nd: Null\ne: NULL\n"
			 "f: 'null'\ng: \"~\"\nh: ''\ni: \"\"\n");

	assert_true(json_is_null(json_object_get(r, "a")));
	assert_true(json_is_null(json_object_get(r, "b")));
	assert_true(json_is_null(json_object_get(r, "c")));
	assert_true(json_is_null(json_object_get(r, "d")));
	assert_true(json_is_null(json_object_get(r, "e")));
	/* Quoted: strings as written. */
	assert_string_equal(str(r, "f"), "null");
	assert_string_equal(str(r, "g"), "~");
	assert_string_equal(str(r, "h"), "");
	assert_string_equal(str(r, "i"), "");
}

static void t_nested(void **state)
{
	struct fx *f = *state;
	json_t *r = load(f, "job:\n  fsmark:\n    filesize: 4K\n"
			 "    list:\n      - x\n      - k: v\n      - [1, 2]\n"
			 "top: [a, {b: c}]\n");
	json_t *fs, *list, *top;

	fs = json_object_get(json_object_get(r, "job"), "fsmark");
	assert_true(json_is_object(fs));
	assert_string_equal(str(fs, "filesize"), "4K");
	list = json_object_get(fs, "list");
	assert_true(json_is_array(list));
	assert_int_equal(json_array_size(list), 3);
	assert_string_equal(json_string_value(json_array_get(list, 0)), "x");
	assert_string_equal(str(json_array_get(list, 1), "k"), "v");
	assert_int_equal(json_array_size(json_array_get(list, 2)), 2);
	assert_string_equal(json_string_value(
		json_array_get(json_array_get(list, 2), 1)), "2");
	top = json_object_get(r, "top");
	assert_int_equal(json_array_size(top), 2);
	assert_string_equal(str(json_array_get(top, 1), "b"), "c");
}

static void t_key_order_kept(void **state)
{
	struct fx *f = *state;
	json_t *r = load(f, "zeta: 1\nalpha: 2\nmid: 3\n");
	const char *want[] = { "zeta", "alpha", "mid" };
	const char *k;
	json_t *v;
	size_t i = 0;

	json_object_foreach(r, k, v) {
		assert_true(i < 3);
		assert_string_equal(k, want[i]);
		i++;
	}
	assert_int_equal(i, 3);
}

static void t_root_kinds(void **state)
{
	struct fx *f = *state;
	json_t *r = load(f, "- a\n- b\n");

	assert_true(json_is_array(r));
	jydoc_release(&f->doc);
	assert_string_equal(json_string_value(load(f, "just text\n")),
			    "just text");
	jydoc_release(&f->doc);
	assert_string_equal(json_string_value(load(f, "--- a\n...\n")), "a");
}

static void t_empty_documents(void **state)
{
	struct fx *f = *state;
	json_t *r;

	assert_null(load(f, ""));
	assert_string_equal(f->doc.name, "t.yaml");
	jydoc_release(&f->doc);
	assert_null(load(f, "# only a comment\n\n"));
	jydoc_release(&f->doc);
	r = load(f, "---\n");
	assert_true(json_is_null(r));
}

static void t_multiline_scalars(void **state)
{
	struct fx *f = *state;
	json_t *r = load(f, "lit: |\n  one\n  two\nfold: >\n  a\n  b\n");

	assert_string_equal(str(r, "lit"), "one\ntwo\n");
	assert_string_equal(str(r, "fold"), "a b\n");
}

/* ---- lines ---- */

static void t_lines(void **state)
{
	struct fx *f = *state;
	json_t *r = load(f, "# comment\na: 1\n\nb:\n  c: x\n  d:\n    - p\n"
			 "    - q\ne: [1,\n  2]\n");
	json_t *b = json_object_get(r, "b");

	assert_int_equal(jydoc_line(&f->doc, r), 2);
	assert_int_equal(jydoc_line(&f->doc, json_object_get(r, "a")), 2);
	assert_int_equal(jydoc_line(&f->doc, json_object_get(b, "c")), 5);
	assert_int_equal(jydoc_line(&f->doc, json_array_get(
		json_object_get(b, "d"), 0)), 7);
	assert_int_equal(jydoc_line(&f->doc, json_array_get(
		json_object_get(b, "d"), 1)), 8);
	assert_int_equal(jydoc_line(&f->doc, json_object_get(r, "e")), 9);
	assert_int_equal(jydoc_line(&f->doc, json_array_get(
		json_object_get(r, "e"), 1)), 10);
}

static void t_line_unknown(void **state)
{
	struct fx *f = *state;
	json_t *other = json_string("x");

	load(f, "a: 1\n");
	assert_int_equal(jydoc_line(&f->doc, NULL), 0);
	assert_int_equal(jydoc_line(&f->doc, other), 0);
	json_decref(other);
}

static void t_line_of_null_values(void **state)
{
	struct fx *f = *state;
	json_t *r = load(f, "a:\nb: 1\nc: ~\n");

	/* null is one shared jansson object: its line is known only through
	 * its key, and jydoc_line() never guesses another null's line. */
	assert_int_equal(jydoc_line(&f->doc, json_object_get(r, "a")), 0);
	assert_int_equal(jydoc_key_line(&f->doc, r, "a"), 1);
	assert_int_equal(jydoc_key_line(&f->doc, r, "b"), 2);
	assert_int_equal(jydoc_key_line(&f->doc, r, "c"), 3);
	assert_int_equal(jydoc_key_line(&f->doc, r, "zz"), 0);
}

/* ---- refusals ---- */

static void t_err_syntax(void **state)
{
	struct fx *f = *state;

	load_err_prefix(f, "a: [1, 2\nb: 3\n", "t.yaml:2: ");
	jydoc_release(&f->doc);
	load_err_prefix(f, "a: 1\nb: 'unterminated\nc: 2\n", "t.yaml:");
	jydoc_release(&f->doc);
	load_err(f, "a: 1\n b: 2\n",
		 "t.yaml:2: mapping values are not allowed in this context");
	jydoc_release(&f->doc);
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
	jydoc_release(&f->doc);
	load_err_prefix(f, "a: 1\nb: 2\nc: 3\nd: 4\ne: x\x01y\n",
			"t.yaml:5: ");
	assert_non_null(strstr(f->err.msg, "control characters"));
	jydoc_release(&f->doc);
	load_err_prefix(f, "a: \xff\n", "t.yaml:1: ");
	jydoc_release(&f->doc);
	load_err_prefix(f, "a: |\n  one\n  two\n  thr\x7f\n", "t.yaml:4: ");
}

/*
 * Memory stays a small multiple of the input: a 1 MiB flow list of
 * one-digit values (some 520,000 nodes, 380 MB before) is refused at
 * once, and the densest file allowed (a value per 8 bytes) costs less
 * than 16 times its size.
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
	assert_int_equal(jyaml_load_str("t.yaml", sb.buf, sb.len, &f->doc,
				       &f->err), -1);
	assert_non_null(strstr(f->err.msg, "too many values for the size"));
	sb_reset(&sb);
	assert_int_equal(sb_adds(&sb, "testcase: x\nlist:\n"), 0);
	while (sb.len < (1u << 20) - 8)
		assert_int_equal(sb_adds(&sb, "- abcde\n"), 0);
	before = mallinfo2();
	assert_int_equal(jyaml_load_str("t.yaml", sb.buf, sb.len, &f->doc,
				       &f->err), 0);
	after = mallinfo2();
	assert_int_equal(json_array_size(json_object_get(f->doc.root,
							 "list")),
			 (sb.len - 18) / 8);
	/* under a sanitizer malloc is not glibc's: nothing to measure */
	if (after.uordblks > before.uordblks)
		assert_true(after.uordblks - before.uordblks < 16 * sb.len);
	assert_int_equal(jydoc_item_line(&f->doc, json_object_get(f->doc.root,
			 "list"), 1000), 1003);
	sb_release(&sb);
}

static void t_err_duplicate_key(void **state)
{
	struct fx *f = *state;

	load_err(f, "a: 1\nb: 2\na: 3\n", "t.yaml:3: duplicate key 'a'");
	jydoc_release(&f->doc);
	load_err(f, "top:\n  x: 1\n  y: 2\n  x: 3\n",
		 "t.yaml:4: duplicate key 'x'");
	jydoc_release(&f->doc);
	load_err(f, "{a: 1, 'a': 2}", "t.yaml:1: duplicate key 'a'");
}

static void t_same_key_different_maps(void **state)
{
	struct fx *f = *state;
	json_t *r = load(f, "a:\n  x: 1\nb:\n  x: 2\n");

	assert_string_equal(str(json_object_get(r, "b"), "x"), "2");
}

static void t_err_duplicate_key_scrubbed(void **state)
{
	struct fx *f = *state;
	char text[400];
	char want[200];

	/* Control characters are not echoed; a long key is cut. */
	load_err(f, "\"a\\eb\\nc\": 1\n\"a\\eb\\nc\": 2\n",
		 "t.yaml:2: duplicate key 'a?b?c'");
	jydoc_release(&f->doc);
	snprintf(text, sizeof(text), "%0150d: 1\n%0150d: 2\n", 0, 0);
	snprintf(want, sizeof(want), "t.yaml:2: duplicate key '%064d'", 0);
	load_err(f, text, want);
}

static void t_err_alias(void **state)
{
	struct fx *f = *state;

	load_err(f, "a: &x 1\nb: *x\n", "t.yaml:2: aliases are not supported");
	jydoc_release(&f->doc);
	load_err(f, "base: &b\n  k: v\nlist:\n  - 1\n  - *b\n",
		 "t.yaml:5: aliases are not supported");
	jydoc_release(&f->doc);
	/* A merge key is an alias too. */
	load_err(f, "a: &x {k: v}\nb:\n  <<: *x\n",
		 "t.yaml:3: aliases are not supported");
}

static void t_anchor_alone_ok(void **state)
{
	struct fx *f = *state;
	json_t *r = load(f, "a: &x 1\n");

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
	json_t *v;
	int i;

	/* The root is depth 0: the scalar inside is at YAML_MAX_DEPTH. */
	v = load(f, ok);
	for (i = 0; i < YAML_MAX_DEPTH; i++) {
		assert_true(json_is_array(v));
		v = json_array_get(v, 0);
	}
	assert_string_equal(json_string_value(v), "x");
	free(ok);
}

static void t_err_too_deep(void **state)
{
	struct fx *f = *state;
	char *deep = nested_lists(YAML_MAX_DEPTH + 1);
	char *very = nested_lists(10000);

	load_err(f, deep, "t.yaml:1: nesting too deep");
	jydoc_release(&f->doc);
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
	jydoc_release(&f->doc);
	load_err(f, "a: 1\n...\n---\nb: 2\n",
		 "t.yaml:3: more than one document");
	jydoc_release(&f->doc);
	load_err(f, "---\na: 1\n---\n", "t.yaml:3: more than one document");
}

static void t_err_nonscalar_key(void **state)
{
	struct fx *f = *state;

	load_err(f, "ok: 1\n? [a, b]\n: c\n",
		 "t.yaml:2: mapping keys must be plain values");
	jydoc_release(&f->doc);
	load_err(f, "{[a]: 1}", "t.yaml:1: mapping keys must be plain values");
	jydoc_release(&f->doc);
	load_err(f, "? {k: v}\n: c\n",
		 "t.yaml:1: mapping keys must be plain values");
}

static void t_err_message_names_source(void **state)
{
	struct fx *f = *state;
	const char *text = "a: 1\na: 2\n";

	assert_int_equal(jyaml_load_str("config/x.yaml", text, strlen(text),
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

	assert_int_equal(jyaml_load_file(p, 1024, &f->doc, &f->err), 0);
	assert_string_equal(str(f->doc.root, "testcase"), "fsmark");
	assert_string_equal(f->doc.name, p);
}

static void t_load_file_errors(void **state)
{
	struct fx *f = *state;
	const char *p = tmp_file(f, "a: 1\nb: [\n", 10);
	char want[128];

	snprintf(want, sizeof(want), "%s:", p);
	assert_int_equal(jyaml_load_file(p, 1024, &f->doc, &f->err), -1);
	assert_int_equal(f->err.code, EX_DATAERR);
	assert_memory_equal(f->err.msg, want, strlen(want));
	jydoc_release(&f->doc);
	/* Over the size limit. */
	assert_int_equal(jyaml_load_file(p, 5, &f->doc, &f->err), -1);
	assert_int_equal(f->err.code, EX_DATAERR);
	assert_memory_equal(f->err.msg, want, strlen(want));
	assert_non_null(strstr(f->err.msg, "limit"));
	jydoc_release(&f->doc);
	/* Missing. */
	assert_int_equal(unlink(p), 0);
	assert_int_equal(jyaml_load_file(p, 1024, &f->doc, &f->err), -1);
	assert_int_equal(f->err.code, EX_NOINPUT);
	assert_memory_equal(f->err.msg, want, strlen(want));
}

static void t_load_file_nul(void **state)
{
	struct fx *f = *state;
	const char *p = tmp_file(f, "a: 1\0b: 2\n", 10);

	assert_int_equal(jyaml_load_file(p, 1024, &f->doc, &f->err), -1);
	assert_int_equal(f->err.code, EX_DATAERR);
	assert_non_null(strstr(f->err.msg, "NUL"));
}

/* ---- conversions ---- */

static const char conv_doc[] =
	"n: 5\nneg: -3\nbig: 99999999999999999999\nword: lots\nfrac: 2.5\n"
	"list: [1]\nempty:\nx: 1.5e3\ninf: inf\nnan: nan\ntrail: 5x\n"
	"t: true\ny: yes\non: on\nf: false\nno: no\noff: off\nmaybe: maybe\n"
	"one: 1\nmap: {a: b}\nempty2:\n";

static json_t *node(struct fx *f, const char *key)
{
	if (!f->doc.root)
		load(f, conv_doc);
	return json_object_get(f->doc.root, key);
}

static void as_long_err(struct fx *f, const char *key, long min, long max,
			const char *want)
{
	long v = 1234;

	assert_int_equal(jyaml_as_long(&f->doc, node(f, key), key, min, max,
				      &v, &f->err), -1);
	assert_int_equal(f->err.code, EX_CONFIG);
	assert_string_equal(f->err.msg, want);
	assert_int_equal(v, 1234);
}

static void t_as_long(void **state)
{
	struct fx *f = *state;
	long v = 0;

	assert_int_equal(jyaml_as_long(&f->doc, node(f, "n"), "n", 0, 10, &v,
				      &f->err), 0);
	assert_int_equal(v, 5);
	assert_int_equal(jyaml_as_long(&f->doc, node(f, "n"), "n", 5, 5, &v,
				      &f->err), 0);
	assert_int_equal(jyaml_as_long(&f->doc, node(f, "neg"), "neg", -10, 10,
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

	/* An empty value is not a number; null has no line of its own, so
	 * the message names no line rather than another null's. */
	as_long_err(f, "empty", 0, 10,
		    "t.yaml: 'empty' must be a whole number from 0 to 10");
}

static void t_as_double(void **state)
{
	struct fx *f = *state;
	double v = 0;

	assert_int_equal(jyaml_as_double(&f->doc, node(f, "frac"), "frac", &v,
					&f->err), 0);
	assert_true(v == 2.5);
	assert_int_equal(jyaml_as_double(&f->doc, node(f, "x"), "x", &v,
					&f->err), 0);
	assert_true(v == 1500.0);
	assert_int_equal(jyaml_as_double(&f->doc, node(f, "neg"), "neg", &v,
					&f->err), 0);
	assert_true(v == -3.0);
	v = 42;
	assert_int_equal(jyaml_as_double(&f->doc, node(f, "word"), "word", &v,
					&f->err), -1);
	assert_int_equal(f->err.code, EX_CONFIG);
	assert_string_equal(f->err.msg, "t.yaml:4: 'word' must be a number");
	assert_int_equal(jyaml_as_double(&f->doc, node(f, "inf"), "inf", &v,
					&f->err), -1);
	assert_string_equal(f->err.msg, "t.yaml:9: 'inf' must be a number");
	assert_int_equal(jyaml_as_double(&f->doc, node(f, "nan"), "nan", &v,
					&f->err), -1);
	assert_string_equal(f->err.msg, "t.yaml:10: 'nan' must be a number");
	assert_int_equal(jyaml_as_double(&f->doc, node(f, "map"), "map", &v,
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
		assert_int_equal(jyaml_as_bool(&f->doc, node(f, yes[i]), yes[i],
					      &v, &f->err), 0);
		assert_int_equal(v, 1);
		v = -1;
		assert_int_equal(jyaml_as_bool(&f->doc, node(f, no[i]), no[i],
					      &v, &f->err), 0);
		assert_int_equal(v, 0);
	}
	v = -1;
	assert_int_equal(jyaml_as_bool(&f->doc, node(f, "maybe"), "maybe", &v,
				      &f->err), -1);
	assert_int_equal(f->err.code, EX_CONFIG);
	assert_string_equal(f->err.msg,
			    "t.yaml:18: 'maybe' must be true or false");
	assert_int_equal(jyaml_as_bool(&f->doc, node(f, "one"), "one", &v,
				      &f->err), -1);
	assert_string_equal(f->err.msg,
			    "t.yaml:19: 'one' must be true or false");
	assert_int_equal(jyaml_as_bool(&f->doc, node(f, "list"), "list", &v,
				      &f->err), -1);
	assert_int_equal(v, -1);
}

static void t_as_string(void **state)
{
	struct fx *f = *state;
	const char *s = NULL;

	assert_int_equal(jyaml_as_string(&f->doc, node(f, "word"), "word", &s,
					&f->err), 0);
	assert_string_equal(s, "lots");
	assert_int_equal(jyaml_as_string(&f->doc, node(f, "map"), "map.x", &s,
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
		T(t_err_syntax),
		T(t_err_reader_line),
		T(t_memory_bounded),
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
