// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for the Mustache engine: one test per behaviour of the spec
 * (minus lambdas), plus the limits and error messages of this engine.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "perfbot/util/fileio.h"
#include "perfbot/render/mustache.h"

#include "testutil.h"

#define MAX_PATHS 32

/* A temporary directory of partials, removed with everything put in it. */
struct tmpdir {
	char dir[64];
	char *paths[MAX_PATHS];
	int n;
};

static int setup_dir(void **state)
{
	struct tmpdir *d = TU_NEW_FX(struct tmpdir, "test_mustache");

	if (!d)
		return -1;
	*state = d;
	return 0;
}

static int teardown_dir(void **state)
{
	struct tmpdir *d = *state;

	tu_rmtree(d->dir);
	while (d->n > 0)
		free(d->paths[--d->n]);
	free(d);
	return 0;
}

static char *record(struct tmpdir *d, const char *name)
{
	char *path = path_join(d->dir, name);

	assert_non_null(path);
	assert_true(d->n < MAX_PATHS);
	d->paths[d->n++] = path;
	return path;
}

static const char *put(struct tmpdir *d, const char *name, const char *text)
{
	char *path = record(d, name);

	tu_write(path, text, 0600);
	return path;
}

static void put_dir(struct tmpdir *d, const char *name)
{
	assert_int_equal(mkdir(record(d, name), 0700), 0);
}

static struct mustache_opts dir_opts(const struct tmpdir *d)
{
	struct mustache_opts o = { 0, d->dir, ".txt", 0, 0, 0 };

	return o;
}

static json_t *parse_json(const char *text)
{
	json_error_t jerr;
	json_t *v;

	if (!text)
		return NULL;
	v = json_loads(text, JSON_DECODE_ANY, &jerr);
	if (!v)
		fail_msg("bad test JSON: %s", jerr.text);
	return v;
}

static int run(const char *tmpl, const char *json,
	       const struct mustache_opts *o, struct strbuf *out,
	       struct pb_err *err)
{
	json_t *ctx = parse_json(json);
	int rc;

	rc = mustache_render(tmpl, strlen(tmpl), "t.txt", ctx, o, out, err);
	json_decref(ctx);
	return rc;
}

static void check_opts(const char *tmpl, const char *json,
		       const struct mustache_opts *o, const char *want)
{
	struct strbuf out = STRBUF_INIT;
	struct pb_err err = { 0, "" };

	if (run(tmpl, json, o, &out, &err))
		fail_msg("render failed: %s", err.msg);
	assert_string_equal(sb_str(&out), want);
	sb_release(&out);
}

static void check(const char *tmpl, const char *json, const char *want)
{
	check_opts(tmpl, json, NULL, want);
}

static void check_html(const char *tmpl, const char *json, const char *want)
{
	struct mustache_opts o = { 1, NULL, NULL, 0, 0, 0 };

	check_opts(tmpl, json, &o, want);
}

static void check_err_opts(const char *tmpl, const char *json,
			   const struct mustache_opts *o, int code,
			   const char *want)
{
	struct strbuf out = STRBUF_INIT;
	struct pb_err err = { 0, "" };

	assert_int_equal(run(tmpl, json, o, &out, &err), -1);
	assert_string_equal(err.msg, want);
	assert_int_equal(err.code, code);
	assert_int_equal(out.len, 0);
	sb_release(&out);
}

static void check_err(const char *tmpl, const char *json, const char *want)
{
	check_err_opts(tmpl, json, NULL, EX_DATAERR, want);
}

/* "<dir>/<rest>" in a static buffer, for messages naming a temp file. */
static const char *in_dir(const struct tmpdir *d, const char *rest)
{
	static char buf[256];
	struct strbuf sb = STRBUF_INIT;

	assert_int_equal(sb_addf(&sb, "%s/%s", d->dir, rest), 0);
	assert_true(sb.len < sizeof(buf));
	memcpy(buf, sb.buf, sb.len + 1);
	sb_release(&sb);
	return buf;
}

/* ---- interpolation ---- */

static void t_text_only(void **state)
{
	(void)state;
	check("Hello\nworld { } }}\n", NULL, "Hello\nworld { } }}\n");
	check("", "{}", "");
}

static void t_variable(void **state)
{
	(void)state;
	check("Hello, {{name}}!", "{\"name\":\"Joe\"}", "Hello, Joe!");
}

static void t_variable_padding(void **state)
{
	(void)state;
	check("|{{ name }}|{{&  name }}|{{{ name }}}|{{\nname\n}}|",
	      "{\"name\":\"Joe\"}", "|Joe|Joe|Joe|Joe|");
}

static void t_missing_name_empty(void **state)
{
	(void)state;
	check("[{{nope}}][{{a.b}}][{{{c}}}]", "{}", "[][][]");
	check("[{{x}}][{{.}}]", NULL, "[][]");
}

static void t_length_bounded(void **state)
{
	struct strbuf out = STRBUF_INIT;
	json_t *ctx = parse_json("{\"x\":1}");

	(void)state;
	assert_int_equal(mustache_render("{{x}}{{#oops", 5, "t", ctx, NULL,
					 &out, NULL), 0);
	assert_string_equal(sb_str(&out), "1");
	json_decref(ctx);
	sb_release(&out);
}

static void t_escape_off(void **state)
{
	(void)state;
	check("{{x}}", "{\"x\":\"<a href=\\\"x\\\">&'</a>\"}",
	      "<a href=\"x\">&'</a>");
}

static void t_escape_on(void **state)
{
	(void)state;
	check_html("{{x}}", "{\"x\":\"<a href=\\\"x\\\">&'</a>\"}",
		   "&lt;a href=&quot;x&quot;&gt;&amp;'&lt;/a&gt;");
}

static void t_escape_not_text(void **state)
{
	(void)state;
	check_html("<b>&amp;</b>{{x}}", "{\"x\":\"plain\"}",
		   "<b>&amp;</b>plain");
}

static void t_unescaped_with_html(void **state)
{
	(void)state;
	check_html("{{{x}}} {{&x}} {{x}}", "{\"x\":\"a&<b>\"}",
		   "a&<b> a&<b> a&amp;&lt;b&gt;");
}

static void t_integers(void **state)
{
	(void)state;
	check("{{a}} {{b}} {{c}} {{d}}",
	      "{\"a\":85,\"b\":-3,\"c\":0,\"d\":9007199254740993}",
	      "85 -3 0 9007199254740993");
}

static void t_reals(void **state)
{
	(void)state;
	check("{{a}} {{b}} {{c}} {{d}} {{e}} {{f}}",
	      "{\"a\":1.5,\"b\":2.0,\"c\":0.1,\"d\":1.210,\"e\":-0.25,"
	      "\"f\":100.0}",
	      "1.5 2 0.1 1.21 -0.25 100");
}

static void t_reals_shortest(void **state)
{
	(void)state;
	check("{{a}} {{b}} {{c}} {{d}} {{e}}",
	      "{\"a\":0.3333333333333333,\"b\":1e20,\"c\":-0.0,"
	      "\"d\":123456.789,\"e\":1e-7}",
	      "0.3333333333333333 1e+20 0 123456.789 1e-07");
}

static void t_bool_null(void **state)
{
	(void)state;
	check("{{t}}/{{f}}/{{n}}/", "{\"t\":true,\"f\":false,\"n\":null}",
	      "true/false//");
}

static void t_string_verbatim(void **state)
{
	(void)state;
	check("<{{s}}>", "{\"s\":\"a\\nb \\u00e9 {{x}}\"}",
	      "<a\nb \xc3\xa9 {{x}}>");
}

static void t_interpolate_object_error(void **state)
{
	(void)state;
	check_err("ok\n{{o}}", "{\"o\":{}}",
		  "t.txt:2: 'o' is an object, not a value");
	check_err("{{{l}}}", "{\"l\":[1]}",
		  "t.txt:1: 'l' is a list, not a value");
}

/* ---- dotted names ---- */

static void t_dotted_basic(void **state)
{
	(void)state;
	check("{{a.b.c}} == {{#a}}{{b.c}}{{/a}}",
	      "{\"a\":{\"b\":{\"c\":\"deep\"}}}", "deep == deep");
}

static void t_dotted_broken_chain(void **state)
{
	(void)state;
	check("[{{a.b.c}}][{{a.b.c.name}}]",
	      "{\"a\":{\"b\":{}},\"c\":{\"name\":\"Jim\"}}", "[][]");
	check("[{{a.b}}]", "{\"a\":\"scalar\"}", "[]");
}

static void t_dotted_first_part_in_stack(void **state)
{
	(void)state;
	check("{{#a}}{{b.c.name}}{{/a}}",
	      "{\"a\":{\"b\":{\"c\":{\"name\":\"Phil\"}}},"
	      "\"b\":{\"c\":{\"name\":\"Wrong\"}}}", "Phil");
	check("{{#a}}{{b.c}}{{/a}}", "{\"a\":{\"x\":1},\"b\":{\"c\":\"outer\"}}",
	      "outer");
}

static void t_dotted_no_fallback(void **state)
{
	(void)state;
	check("[{{#a}}{{b.c}}{{/a}}]",
	      "{\"a\":{\"b\":{}},\"b\":{\"c\":\"ERROR\"}}", "[]");
}

static void t_dotted_not_single_key(void **state)
{
	(void)state;
	check("[{{a.b}}]", "{\"a.b\":\"c\"}", "[]");
}

static void t_dotted_section(void **state)
{
	(void)state;
	check("{{#a.b}}yes {{c}}{{/a.b}}{{^a.x}} no{{/a.x}}",
	      "{\"a\":{\"b\":{\"c\":\"1\"}}}", "yes 1 no");
}

/* ---- implicit iterator ---- */

static void t_implicit_list(void **state)
{
	(void)state;
	check("{{#list}}({{.}}){{/list}}",
	      "{\"list\":[\"a\",\"b\",1,1.5,true]}", "(a)(b)(1)(1.5)(true)");
}

static void t_implicit_root(void **state)
{
	(void)state;
	check("Hello, {{.}}!", "\"world\"", "Hello, world!");
	check_html("{{.}}|{{{.}}}", "\"&\"", "&amp;|&");
}

static void t_implicit_root_section(void **state)
{
	(void)state;
	check("{{#.}}<{{v}}>{{/.}}", "[{\"v\":1},{\"v\":2}]", "<1><2>");
}

/* ---- sections ---- */

static void t_section_falsy(void **state)
{
	(void)state;
	check("[{{#f}}F{{/f}}{{#n}}N{{/n}}{{#m}}M{{/m}}{{#e}}E{{/e}}]",
	      "{\"f\":false,\"n\":null,\"e\":[]}", "[]");
}

static void t_section_true(void **state)
{
	(void)state;
	check("[{{#t}}yes {{.}}{{/t}}]", "{\"t\":true}", "[yes true]");
}

static void t_section_truthy_scalars(void **state)
{
	(void)state;
	check("{{#s}}<{{.}}>{{/s}}{{#z}}<{{.}}>{{/z}}{{#es}}<{{.}}>{{/es}}",
	      "{\"s\":\"str\",\"z\":0,\"es\":\"\"}", "<str><0><>");
}

static void t_section_scalar_pushed(void **state)
{
	(void)state;
	check("{{#foo}}{{.}} is {{foo}}{{/foo}}", "{\"foo\":\"bar\"}",
	      "bar is bar");
}

static void t_section_object_context(void **state)
{
	(void)state;
	check("{{#person}}{{name}} is {{age}}{{/person}}",
	      "{\"person\":{\"name\":\"Ann\",\"age\":30}}", "Ann is 30");
}

static void t_section_list(void **state)
{
	(void)state;
	check("{{#items}}{{n}},{{/items}}",
	      "{\"items\":[{\"n\":1},{\"n\":2},{\"n\":3}]}", "1,2,3,");
}

static void t_nested_lists(void **state)
{
	(void)state;
	check("{{#rows}}[{{#cols}}{{.}}{{/cols}}]{{/rows}}",
	      "{\"rows\":[{\"cols\":[1,2]},{\"cols\":[]},{\"cols\":[\"x\"]}]}",
	      "[12][][x]");
	check("{{#m}}({{#.}}{{.}}{{/.}}){{/m}}",
	      "{\"m\":[[1,2,3],[\"a\",\"b\"]]}", "(123)(ab)");
}

static void t_context_stack(void **state)
{
	(void)state;
	check("{{#a}}{{#b}}{{x}}-{{y}}-{{z}}{{/b}}{{/a}}",
	      "{\"x\":\"root\",\"a\":{\"y\":\"a\",\"b\":{\"z\":\"b\"}}}",
	      "root-a-b");
	check("{{#a}}{{x}}{{/a}}{{x}}",
	      "{\"x\":\"outer\",\"a\":{\"x\":\"inner\"}}", "innerouter");
}

static void t_null_key_masks_outer(void **state)
{
	(void)state;
	check("{{#a}}[{{x}}]{{/a}}", "{\"x\":\"outer\",\"a\":{\"x\":null}}",
	      "[]");
}

static void t_list_items_see_outer(void **state)
{
	(void)state;
	check("{{#l}}{{sep}}{{.}}{{/l}}", "{\"sep\":\"-\",\"l\":[1,2]}",
	      "-1-2");
}

/* ---- inverted sections ---- */

static void t_inverted_falsy(void **state)
{
	(void)state;
	check("{{^f}}F{{/f}}{{^n}}N{{/n}}{{^m}}M{{/m}}",
	      "{\"f\":false,\"n\":null}", "FNM");
}

static void t_inverted_empty_list(void **state)
{
	(void)state;
	check("{{#l}}{{.}}{{/l}}{{^l}}none{{/l}}", "{\"l\":[]}", "none");
	check("{{#l}}{{.}}{{/l}}{{^l}}none{{/l}}", "{\"l\":[1,2]}", "12");
}

static void t_inverted_truthy(void **state)
{
	(void)state;
	check("[{{^t}}x{{/t}}{{^l}}x{{/l}}{{^s}}x{{/s}}{{^z}}x{{/z}}]",
	      "{\"t\":true,\"l\":[1],\"s\":\"\",\"z\":0}", "[]");
}

/* ---- comments ---- */

static void t_comment_inline(void **state)
{
	(void)state;
	check("12345{{! Comment Block! }}67890", NULL, "1234567890");
	check("a{{!\n\n}}b", NULL, "ab");
}

static void t_comment_multiline_standalone(void **state)
{
	(void)state;
	check("Begin.\n{{!\nSomething's going on here\n}}\nEnd.\n", NULL,
	      "Begin.\nEnd.\n");
	check("Begin.\n  {{!\n    Indented\n  }}  \nEnd.\n", NULL,
	      "Begin.\nEnd.\n");
}

/* ---- standalone lines ---- */

static void t_standalone_sections(void **state)
{
	(void)state;
	check("Begin.\n{{#b}}\nin\n{{/b}}\nEnd.\n", "{\"b\":true}",
	      "Begin.\nin\nEnd.\n");
	check("Begin.\n{{#b}}\nin\n{{/b}}\nEnd.\n", "{\"b\":false}",
	      "Begin.\nEnd.\n");
}

static void t_standalone_indented(void **state)
{
	(void)state;
	check("|\n  {{#b}}\n|\n  {{/b}}\n|\n", "{\"b\":true}", "|\n|\n|\n");
	check("A\n\t{{^f}} \t\nB\n {{/f}}\n  {{! x }}\nC\n", "{}",
	      "A\nB\nC\n");
}

static void t_standalone_crlf(void **state)
{
	(void)state;
	check("|\r\n{{#b}}\r\n{{/b}}\r\n|", "{\"b\":true}", "|\r\n|");
	check("a\r\n  {{! c }}\r\nb\r\n", NULL, "a\r\nb\r\n");
}

static void t_standalone_first_line(void **state)
{
	(void)state;
	check("  {{#b}}\n#{{/b}}\n/", "{\"b\":true}", "#\n/");
}

static void t_standalone_last_line(void **state)
{
	(void)state;
	check("#{{#b}}\n/\n  {{/b}}", "{\"b\":true}", "#\n/\n");
}

static void t_not_standalone_inline(void **state)
{
	(void)state;
	check(" {{#b}}YES{{/b}}\n {{#b}}GOOD{{/b}}\n", "{\"b\":true}",
	      " YES\n GOOD\n");
	check("  12 {{! 34 }}\n", NULL, "  12 \n");
	check("{{#b}}{{/b}}\nx", "{\"b\":true}", "\nx");
}

static void t_variable_line_kept(void **state)
{
	(void)state;
	check("  {{x}}\n", "{\"x\":\"\"}", "  \n");
	check("{{{x}}}\n", "{}", "\n");
}

/* ---- set delimiters ---- */

static void t_delims_basic(void **state)
{
	(void)state;
	check("{{=<% %>=}}(<%text%>)", "{\"text\":\"Hey!\"}", "(Hey!)");
	check("({{=[ ]=}}[text])", "{\"text\":\"It worked!\"}",
	      "(It worked!)");
}

static void t_delims_switch_back(void **state)
{
	(void)state;
	check("{{=| |=}}|x| {{x}} |={{ }}=|{{x}}", "{\"x\":1}",
	      "1 {{x}} 1");
}

static void t_delims_in_sections(void **state)
{
	(void)state;
	check("[\n{{#section}}\n  {{data}}\n  |data|\n{{/section}}\n\n"
	      "{{= | | =}}\n|#section|\n  {{data}}\n  |data|\n|/section|\n]\n",
	      "{\"section\":true,\"data\":\"I got interpolated.\"}",
	      "[\n  I got interpolated.\n  |data|\n\n  {{data}}\n"
	      "  I got interpolated.\n]\n");
}

static void t_delims_set_inside_section(void **state)
{
	(void)state;
	check("{{#b}}{{=<% %>=}}<%x%><%/b%>,<%x%>", "{\"b\":true,\"x\":7}",
	      "7,7");
}

static void t_delims_standalone(void **state)
{
	(void)state;
	check("Begin.\n{{=@ @=}}\nEnd.\n", NULL, "Begin.\nEnd.\n");
	check("Begin.\n  {{=@ @=}}\r\nEnd.\n", NULL, "Begin.\nEnd.\n");
	check(" | {{=@ @=}}\n", NULL, " | \n");
}

static void t_delims_unescaped(void **state)
{
	(void)state;
	check_html("{{=<% %>=}}<%{x}%> <%& x%> <%x%>", "{\"x\":\"<\"}",
		   "< < &lt;");
}

/* ---- partials ---- */

static void t_partial_basic(void **state)
{
	struct tmpdir *d = *state;
	struct mustache_opts o = dir_opts(d);

	put(d, "p.txt", "[{{x}}]");
	check_opts("a{{>p}}b|{{> p }}|", "{\"x\":1}", &o, "a[1]b|[1]|");
}

static void t_partial_ext_fallback(void **state)
{
	struct tmpdir *d = *state;
	struct mustache_opts o = dir_opts(d);

	put(d, "plain", "P{{x}}");
	put(d, "both.txt", "ext");
	put(d, "both", "bare");
	check_opts("{{>plain}} {{>both}}", "{\"x\":1}", &o, "P1 ext");
	o.partials_ext = NULL;
	check_opts("{{>both}}", NULL, &o, "bare");
}

static void t_partial_subdir(void **state)
{
	struct tmpdir *d = *state;
	struct mustache_opts o = dir_opts(d);

	put_dir(d, "sub");
	put(d, "sub/h.txt", "H");
	check_opts("{{>sub/h}}", NULL, &o, "H");
}

static void t_partial_context(void **state)
{
	struct tmpdir *d = *state;
	struct mustache_opts o = dir_opts(d);

	put(d, "item.txt", "({{name}}{{sep}})");
	check_opts("{{#items}}{{>item}}{{/items}}",
		   "{\"sep\":\";\",\"items\":[{\"name\":\"a\"},{\"name\":\"b\"}]}",
		   &o, "(a;)(b;)");
}

static void t_partial_standalone_indent(void **state)
{
	struct tmpdir *d = *state;
	struct mustache_opts o = dir_opts(d);

	put(d, "p.txt", "|\n{{{content}}}\n|\n");
	check_opts("\\\n {{>p}}\n/\n", "{\"content\":\"<\\n->\"}", &o,
		   "\\\n |\n <\n->\n |\n/\n");
}

static void t_partial_indent_first_line(void **state)
{
	struct tmpdir *d = *state;
	struct mustache_opts o = dir_opts(d);

	put(d, "p.txt", ">\n>");
	check_opts("  {{>p}}\n>", NULL, &o, "  >\n  >>");
}

static void t_partial_indent_skips_empty_lines(void **state)
{
	struct tmpdir *d = *state;
	struct mustache_opts o = dir_opts(d);

	put(d, "p.txt", "a\n\nb\r\n\r\n{{#l}}\n  - {{.}}\n{{/l}}\n");
	check_opts("x\n\t{{> p}} \ny\n", "{\"l\":[1,2]}", &o,
		   "x\n\ta\n\n\tb\r\n\r\n\t  - 1\n\t  - 2\ny\n");
}

static void t_partial_standalone_crlf(void **state)
{
	struct tmpdir *d = *state;
	struct mustache_opts o = dir_opts(d);

	put(d, "p.txt", ">");
	check_opts("|\r\n{{>p}}\r\n|", NULL, &o, "|\r\n>|");
}

static void t_partial_inline_no_indent(void **state)
{
	struct tmpdir *d = *state;
	struct mustache_opts o = dir_opts(d);

	put(d, "p.txt", ">\n>");
	check_opts("  {{x}}  {{>p}}\n", "{\"x\":\"|\"}", &o, "  |  >\n>\n");
}

static void t_partial_recursive_tree(void **state)
{
	struct tmpdir *d = *state;
	struct mustache_opts o = dir_opts(d);

	put(d, "node.txt", "{{content}}<{{#nodes}}{{>node}}{{/nodes}}>");
	check_opts("{{>node}}",
		   "{\"content\":\"X\",\"nodes\":[{\"content\":\"Y\","
		   "\"nodes\":[{\"content\":\"Z\",\"nodes\":[]}]}]}",
		   &o, "X<Y<Z<>>>");
}

static void t_partial_delims_not_inherited(void **state)
{
	struct tmpdir *d = *state;
	struct mustache_opts o = dir_opts(d);

	put(d, "inc.txt", ".{{v}}.");
	put(d, "set.txt", ".{{v}}. {{= | | =}} .|v|.");
	check_opts("[ {{>inc}} ]\n{{= | | =}}\n[ |>inc| ]\n", "{\"v\":\"yes\"}",
		   &o, "[ .yes. ]\n[ .yes. ]\n");
	check_opts("[ {{>set}} ]\n[ .{{v}}.  .|v|. ]\n", "{\"v\":\"yes\"}",
		   &o, "[ .yes.  .yes. ]\n[ .yes.  .|v|. ]\n");
}

static void t_partial_self_recursion(void **state)
{
	struct tmpdir *d = *state;
	struct mustache_opts o = dir_opts(d);
	struct strbuf out = STRBUF_INIT;
	struct pb_err err = { 0, "" };

	put(d, "loop.txt", "x{{>loop}}");
	assert_int_equal(sb_adds(&out, "keep"), 0);
	assert_int_equal(run("{{>loop}}", "{}", &o, &out, &err), -1);
	assert_int_equal(err.code, EX_DATAERR);
	assert_string_equal(err.msg,
			    in_dir(d, "loop.txt:1: nesting deeper than 64"));
	assert_string_equal(sb_str(&out), "keep");
	sb_release(&out);
}

static void t_partial_depth_counts(void **state)
{
	struct tmpdir *d = *state;
	struct mustache_opts o = dir_opts(d);

	put(d, "p.txt", "P");
	o.max_depth = 2;
	check_opts("{{#a}}{{>p}}{{/a}}", "{\"a\":true}", &o, "P");
	check_err_opts("{{#a}}{{#a}}\n{{>p}}{{/a}}{{/a}}", "{\"a\":true}", &o,
		       EX_DATAERR, "t.txt:2: nesting deeper than 2");
}

static void t_partial_missing(void **state)
{
	struct tmpdir *d = *state;
	struct mustache_opts o = dir_opts(d);
	struct strbuf want = STRBUF_INIT;

	assert_int_equal(sb_addf(&want,
				 "t.txt:2: partial 'nope' not found in '%s'",
				 d->dir), 0);
	check_err_opts("\n{{>nope}}", NULL, &o, EX_NOINPUT, want.buf);
	sb_release(&want);
}

/* Spec mode: a missing partial (or no partials directory) is empty. */
static void t_partial_missing_spec(void **state)
{
	struct tmpdir *d = *state;
	struct mustache_opts o = dir_opts(d);

	o.spec = 1;
	put(d, "p.txt", "<{{x}}>");
	check_opts("a{{>nope}}b{{>p}}\n  {{>gone}}\nc", "{\"x\":1}", &o,
		   "ab<1>\nc");
	o.partials_dir = NULL;
	check_opts("[{{>p}}]", NULL, &o, "[]");
}

static void t_partial_not_reached_not_read(void **state)
{
	struct tmpdir *d = *state;
	struct mustache_opts o = dir_opts(d);

	check_opts("[{{#f}}{{>nope}}{{/f}}]", "{\"f\":false}", &o, "[]");
}

static void t_partial_disabled(void **state)
{
	(void)state;
	check_err("{{#a}}\n{{>p}}\n{{/a}}", "{\"a\":1}",
		  "t.txt:2: partial 'p' but no partials directory");
}

static void t_partial_bad_name(void **state)
{
	struct tmpdir *d = *state;
	struct mustache_opts o = dir_opts(d);

	check_err_opts("{{> ../etc/passwd}}", NULL, &o, EX_DATAERR,
		       "t.txt:1: bad partial name '../etc/passwd'");
	check_err_opts("{{>/etc/passwd}}", NULL, &o, EX_DATAERR,
		       "t.txt:1: bad partial name '/etc/passwd'");
}

static void t_partial_error_names_partial(void **state)
{
	struct tmpdir *d = *state;
	struct mustache_opts o = dir_opts(d);

	put(d, "bad.txt", "ok\n{{#x}}\n");
	check_err_opts("{{>bad}}", NULL, &o, EX_DATAERR,
		       in_dir(d, "bad.txt:2: unclosed section 'x'"));
}

static void t_render_file(void **state)
{
	struct tmpdir *d = *state;
	struct strbuf out = STRBUF_INIT;
	struct pb_err err = { 0, "" };
	json_t *ctx = parse_json("{\"x\":1}");
	const char *path;

	put(d, "foot.txt", "F{{x}}");
	put(d, "foot", "wrong");
	path = put(d, "report.txt", "R {{>foot}}\n");
	if (mustache_render_file(path, ctx, NULL, &out, &err))
		fail_msg("render failed: %s", err.msg);
	assert_string_equal(sb_str(&out), "R F1\n");
	json_decref(ctx);
	sb_release(&out);
}

static void t_render_file_errors(void **state)
{
	struct tmpdir *d = *state;
	struct strbuf out = STRBUF_INIT;
	struct pb_err err = { 0, "" };
	const char *path;

	path = put(d, "e.txt", "a\n{{x");
	assert_int_equal(mustache_render_file(path, NULL, NULL, &out, &err),
			 -1);
	assert_int_equal(err.code, EX_DATAERR);
	assert_string_equal(err.msg, in_dir(d, "e.txt:2: unclosed tag"));
	assert_int_equal(mustache_render_file(in_dir(d, "missing.txt"), NULL,
					      NULL, &out, &err), -1);
	assert_int_equal(err.code, EX_NOINPUT);
	assert_int_equal(out.len, 0);
	sb_release(&out);
}

/* ---- error messages ---- */

static void t_err_unclosed_tag(void **state)
{
	(void)state;
	check_err("line1\nline2 {{x\nmore", "{}", "t.txt:2: unclosed tag");
	check_err("{{{x}}", "{}", "t.txt:1: unclosed tag");
	check_err("a\n\n{{", "{}", "t.txt:3: unclosed tag");
}

static void t_err_unclosed_section(void **state)
{
	(void)state;
	check_err("a\n\n{{#metrics}}\n{{x}}\n", "{}",
		  "t.txt:3: unclosed section 'metrics'");
}

static void t_err_mismatched_close(void **state)
{
	(void)state;
	check_err("{{#y}}\n{{#x}}\n\n{{/y}}\n{{/x}}", "{}",
		  "t.txt:4: closing tag 'y' does not match open section 'x'");
}

static void t_err_close_without_open(void **state)
{
	(void)state;
	check_err("a\n{{/x}}", "{}",
		  "t.txt:2: closing tag 'x' without an open section");
}

static void t_err_bad_delimiters(void **state)
{
	(void)state;
	check_err("a\n{{=<%%>=}}", NULL, "t.txt:2: bad delimiters");
	check_err("{{= =}}", NULL, "t.txt:1: bad delimiters");
	check_err("{{=a b c=}}", NULL, "t.txt:1: bad delimiters");
	check_err("{{=<= =>=}}", NULL, "t.txt:1: bad delimiters");
}

static void t_err_nesting_default(void **state)
{
	struct strbuf tmpl = STRBUF_INIT;
	int i;

	(void)state;
	for (i = 0; i < 65; i++)
		assert_int_equal(sb_adds(&tmpl, "{{#a}}\n"), 0);
	for (i = 0; i < 65; i++)
		assert_int_equal(sb_adds(&tmpl, "{{/a}}\n"), 0);
	check_err(tmpl.buf, "{}", "t.txt:65: nesting deeper than 64");
	sb_setlen(&tmpl, 7 * 64);
	for (i = 0; i < 64; i++)
		assert_int_equal(sb_adds(&tmpl, "{{/a}}\n"), 0);
	check(tmpl.buf, "{\"a\":true}", "");
	sb_release(&tmpl);
}

static void t_err_nesting_custom(void **state)
{
	struct mustache_opts o = { 0, NULL, NULL, 2, 0, 0 };

	(void)state;
	check_err_opts("{{#a}}{{#b}}{{^c}}{{/c}}{{/b}}{{/a}}", "{}", &o,
		       EX_DATAERR, "t.txt:1: nesting deeper than 2");
}

static void t_err_empty_tag(void **state)
{
	(void)state;
	check_err("{{}}", NULL, "t.txt:1: empty tag");
	check_err("\n{{# }}{{/ }}", NULL, "t.txt:2: empty tag");
}

static void t_err_bad_name(void **state)
{
	(void)state;
	check_err("{{a b}}", NULL, "t.txt:1: bad tag name 'a b'");
	check_err("{{a..b}}", NULL, "t.txt:1: bad tag name 'a..b'");
	check_err("{{#.a}}{{/.a}}", NULL, "t.txt:1: bad tag name '.a'");
}

static void t_err_line_counts_tags(void **state)
{
	(void)state;
	check_err("{{!\n\n}}\n{{#x}}", "{}", "t.txt:4: unclosed section 'x'");
	check_err("{{#a}}\n{{/a}}\n{{/b}}", "{}",
		  "t.txt:3: closing tag 'b' without an open section");
	check_err("a\r\nb\r\n{{x", "{}", "t.txt:3: unclosed tag");
}

/* ---- output ---- */

static void t_output_appends(void **state)
{
	struct strbuf out = STRBUF_INIT;
	struct pb_err err = { 0, "" };

	(void)state;
	assert_int_equal(sb_adds(&out, "pre:"), 0);
	assert_int_equal(run("{{x}}", "{\"x\":\"y\"}", NULL, &out, &err), 0);
	assert_string_equal(sb_str(&out), "pre:y");
	sb_release(&out);
}

static void t_output_cap(void **state)
{
	struct mustache_opts o = { 0, NULL, NULL, 0, 10, 0 };
	struct strbuf out = STRBUF_INIT;
	struct pb_err err = { 0, "" };

	(void)state;
	check_opts("{{#l}}01234{{/l}}", "{\"l\":[1,2]}", &o, "0123401234");
	assert_int_equal(sb_adds(&out, "keep"), 0);
	assert_int_equal(run("{{#l}}\n01234{{/l}}", "{\"l\":[1,2,3]}", &o,
			     &out, &err), -1);
	assert_int_equal(err.code, EX_DATAERR);
	assert_string_equal(err.msg, "t.txt:2: output larger than 10 bytes");
	assert_string_equal(sb_str(&out), "keep");
	sb_release(&out);
}

static void t_output_cap_escaped(void **state)
{
	struct mustache_opts o = { 1, NULL, NULL, 0, 4, 0 };

	(void)state;
	check_opts("{{x}}", "{\"x\":\"<\"}", &o, "&lt;");
	check_err_opts("{{x}}", "{\"x\":\"<<\"}", &o, EX_DATAERR,
		       "t.txt:1: output larger than 4 bytes");
}

static void t_output_strbuf_cap(void **state)
{
	struct strbuf out;
	struct pb_err err = { 0, "" };

	(void)state;
	sb_init(&out, 6);
	assert_int_equal(sb_adds(&out, "ab"), 0);
	assert_int_equal(run("12345", NULL, NULL, &out, &err), -1);
	assert_string_equal(err.msg, "t.txt:1: output larger than 4 bytes");
	assert_string_equal(sb_str(&out), "ab");
	sb_release(&out);
}

#define DIR_TEST(f) cmocka_unit_test_setup_teardown(f, setup_dir, teardown_dir)

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_text_only),
		cmocka_unit_test(t_variable),
		cmocka_unit_test(t_variable_padding),
		cmocka_unit_test(t_missing_name_empty),
		cmocka_unit_test(t_length_bounded),
		cmocka_unit_test(t_escape_off),
		cmocka_unit_test(t_escape_on),
		cmocka_unit_test(t_escape_not_text),
		cmocka_unit_test(t_unescaped_with_html),
		cmocka_unit_test(t_integers),
		cmocka_unit_test(t_reals),
		cmocka_unit_test(t_reals_shortest),
		cmocka_unit_test(t_bool_null),
		cmocka_unit_test(t_string_verbatim),
		cmocka_unit_test(t_interpolate_object_error),
		cmocka_unit_test(t_dotted_basic),
		cmocka_unit_test(t_dotted_broken_chain),
		cmocka_unit_test(t_dotted_first_part_in_stack),
		cmocka_unit_test(t_dotted_no_fallback),
		cmocka_unit_test(t_dotted_not_single_key),
		cmocka_unit_test(t_dotted_section),
		cmocka_unit_test(t_implicit_list),
		cmocka_unit_test(t_implicit_root),
		cmocka_unit_test(t_implicit_root_section),
		cmocka_unit_test(t_section_falsy),
		cmocka_unit_test(t_section_true),
		cmocka_unit_test(t_section_truthy_scalars),
		cmocka_unit_test(t_section_scalar_pushed),
		cmocka_unit_test(t_section_object_context),
		cmocka_unit_test(t_section_list),
		cmocka_unit_test(t_nested_lists),
		cmocka_unit_test(t_context_stack),
		cmocka_unit_test(t_null_key_masks_outer),
		cmocka_unit_test(t_list_items_see_outer),
		cmocka_unit_test(t_inverted_falsy),
		cmocka_unit_test(t_inverted_empty_list),
		cmocka_unit_test(t_inverted_truthy),
		cmocka_unit_test(t_comment_inline),
		cmocka_unit_test(t_comment_multiline_standalone),
		cmocka_unit_test(t_standalone_sections),
		cmocka_unit_test(t_standalone_indented),
		cmocka_unit_test(t_standalone_crlf),
		cmocka_unit_test(t_standalone_first_line),
		cmocka_unit_test(t_standalone_last_line),
		cmocka_unit_test(t_not_standalone_inline),
		cmocka_unit_test(t_variable_line_kept),
		cmocka_unit_test(t_delims_basic),
		cmocka_unit_test(t_delims_switch_back),
		cmocka_unit_test(t_delims_in_sections),
		cmocka_unit_test(t_delims_set_inside_section),
		cmocka_unit_test(t_delims_standalone),
		cmocka_unit_test(t_delims_unescaped),
		DIR_TEST(t_partial_basic),
		DIR_TEST(t_partial_ext_fallback),
		DIR_TEST(t_partial_subdir),
		DIR_TEST(t_partial_context),
		DIR_TEST(t_partial_standalone_indent),
		DIR_TEST(t_partial_indent_first_line),
		DIR_TEST(t_partial_indent_skips_empty_lines),
		DIR_TEST(t_partial_standalone_crlf),
		DIR_TEST(t_partial_inline_no_indent),
		DIR_TEST(t_partial_recursive_tree),
		DIR_TEST(t_partial_delims_not_inherited),
		DIR_TEST(t_partial_self_recursion),
		DIR_TEST(t_partial_depth_counts),
		DIR_TEST(t_partial_missing),
		DIR_TEST(t_partial_missing_spec),
		DIR_TEST(t_partial_not_reached_not_read),
		cmocka_unit_test(t_partial_disabled),
		DIR_TEST(t_partial_bad_name),
		DIR_TEST(t_partial_error_names_partial),
		DIR_TEST(t_render_file),
		DIR_TEST(t_render_file_errors),
		cmocka_unit_test(t_err_unclosed_tag),
		cmocka_unit_test(t_err_unclosed_section),
		cmocka_unit_test(t_err_mismatched_close),
		cmocka_unit_test(t_err_close_without_open),
		cmocka_unit_test(t_err_bad_delimiters),
		cmocka_unit_test(t_err_nesting_default),
		cmocka_unit_test(t_err_nesting_custom),
		cmocka_unit_test(t_err_empty_tag),
		cmocka_unit_test(t_err_bad_name),
		cmocka_unit_test(t_err_line_counts_tags),
		cmocka_unit_test(t_output_appends),
		cmocka_unit_test(t_output_cap),
		cmocka_unit_test(t_output_cap_escaped),
		cmocka_unit_test(t_output_strbuf_cap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
