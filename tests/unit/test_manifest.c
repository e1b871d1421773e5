// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/ingest/manifest.c: a comparison manifest (which two
 * commits, where their result roots are, who gets the report), relative
 * paths resolved against the manifest's directory, and every refusal as
 * EX_DATAERR naming the file, the key and the line; the 'patch' key of a
 * report on a posted patch (Message-IDs, URLs, one-line texts, lists).
 */
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

#include "perfbot/config/config.h"
#include "perfbot/util/fileio.h"
#include "perfbot/ingest/manifest.h"
#include "perfbot/util/strbuf.h"

#include "testutil.h"

#define BASE_SHA "6cccbfebc02395ae7a8c7b44d2d3e9ab9d3c2ad1"
#define HEAD_SHA "70bed0d5447e08702c7595d26c88ca37e8eb88b4"

/* The smallest valid manifest; tests append to it. */
#define MINIMAL                                                    \
	"base:\n  commit: " BASE_SHA "\n  result_root: roots/base\n" \
	"head:\n  commit: " HEAD_SHA "\n  result_root: roots/head\n"

static const char full[] =
	"id: fsmark-2022-07-01\n"
	"base:\n"
	"  commit: " BASE_SHA "\n"
	"  subject: \"block: add a bdev_nonrot helper\"\n"
	"  result_root: roots/base\n"
	"head:\n"
	"  commit: " HEAD_SHA "\n"
	"  subject: \"block: add a bdev_write_cache helper\"\n"
	"  author: \"Christoph Hellwig <hch@lst.de>\"\n"
	"  repo: git://git.infradead.org/users/hch/block.git\n"
	"  branch: block-api\n"
	"  tree: hch-block\n"
	"  result_root: /srv/lkp/result/fsmark/head\n"
	"to: [\"Christoph Hellwig <hch@lst.de>\"]\n"
	"cc:\n"
	"  - linux-block@vger.kernel.org\n"
	"  - lkp@lists.01.org\n"
	"notes:\n"
	"  - first note\n"
	"  - second note\n"
	"materials_url: https://download.01.org/0day-ci/archive/x\n"
	"metrics: rules/fsmark.yaml\n"
	"kconfig_file: /boot/config-5.19\n";

struct fx {
	char dir[64];
	char path[128];		/* <dir>/m.yaml */
	struct manifest m;
	struct pb_err err;
};

static int setup(void **state)
{
	struct fx *f = TU_NEW_FX(struct fx, "test_manifest");

	if (!f)
		return -1;
	tu_path(f->path, sizeof(f->path), f->dir, "m.yaml");
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	manifest_release(&f->m);
	tu_rmtree(f->dir);
	free(f);
	return 0;
}

static void parse_ok(struct fx *f, const char *text)
{
	if (manifest_parse(&f->m, "m.yaml", "/srv/mf", text, strlen(text),
			   &f->err))
		fail_msg("manifest_parse: %s", f->err.msg);
}

/* Parsing fails with EX_DATAERR and exactly 'want'. */
static void parse_fails(struct fx *f, const char *text, const char *want)
{
	assert_int_equal(manifest_parse(&f->m, "m.yaml", "/srv/mf", text,
					strlen(text), &f->err), -1);
	assert_int_equal(f->err.code, EX_DATAERR);
	assert_string_equal(f->err.msg, want);
	manifest_release(&f->m);
}

static void t_full(void **state)
{
	struct fx *f = *state;
	struct manifest *m = &f->m;

	parse_ok(f, full);
	assert_string_equal(m->id, "fsmark-2022-07-01");
	assert_string_equal(m->base.commit, BASE_SHA);
	assert_string_equal(m->base.subject, "block: add a bdev_nonrot helper");
	assert_null(m->base.author);
	assert_null(m->base.repo);
	assert_string_equal(m->base.result_root, "/srv/mf/roots/base");
	assert_string_equal(m->head.commit, HEAD_SHA);
	assert_string_equal(m->head.author, "Christoph Hellwig <hch@lst.de>");
	assert_string_equal(m->head.repo,
			    "git://git.infradead.org/users/hch/block.git");
	assert_string_equal(m->head.branch, "block-api");
	assert_string_equal(m->head.tree, "hch-block");
	/* Absolute paths are kept. */
	assert_string_equal(m->head.result_root,
			    "/srv/lkp/result/fsmark/head");
	assert_int_equal(m->to.n, 1);
	assert_string_equal(m->to.v[0],
			    "Christoph Hellwig <hch@lst.de>");
	assert_int_equal(m->cc.n, 2);
	assert_string_equal(m->cc.v[1],
			    "lkp@lists.01.org");
	assert_int_equal(m->notes.n, 2);
	assert_string_equal(m->notes.v[0],
			    "first note");
	assert_string_equal(m->materials_url,
			    "https://download.01.org/0day-ci/archive/x");
	assert_string_equal(m->metrics, "/srv/mf/rules/fsmark.yaml");
	assert_string_equal(m->kconfig_file, "/boot/config-5.19");
}

static void t_minimal(void **state)
{
	struct fx *f = *state;
	struct manifest *m = &f->m;

	parse_ok(f, MINIMAL);
	assert_null(m->id);
	assert_string_equal(m->base.subject, "");
	assert_string_equal(m->head.subject, "");
	assert_null(m->head.author);
	assert_null(m->head.branch);
	assert_null(m->head.tree);
	assert_null(m->to.v);
	assert_null(m->cc.v);
	assert_null(m->notes.v);
	assert_null(m->materials_url);
	assert_null(m->metrics);
	assert_null(m->kconfig_file);
	assert_string_equal(m->head.result_root, "/srv/mf/roots/head");
}

static void t_flow_style(void **state)
{
	struct fx *f = *state;

	/* The one-line form of doc/design.md. */
	parse_ok(f, "base: { commit: 6cccbfe, subject: \"x\", "
		 "result_root: b }\nhead: { commit: 70BED0D, "
		 "author: \"A <a@b>\", result_root: h }\n");
	assert_string_equal(f->m.base.commit, "6cccbfe");
	assert_string_equal(f->m.head.commit, "70BED0D");
	assert_string_equal(f->m.base.result_root, "/srv/mf/b");
}

static void t_load_resolves_relative(void **state)
{
	struct fx *f = *state;
	char want[192];

	tu_write(f->path, MINIMAL "metrics: my-rules.yaml\n"
		 "kconfig_file: ../config\n", 0600);
	assert_int_equal(manifest_load(&f->m, f->path, &f->err), 0);
	snprintf(want, sizeof(want), "%s/roots/base", f->dir);
	assert_string_equal(f->m.base.result_root, want);
	snprintf(want, sizeof(want), "%s/roots/head", f->dir);
	assert_string_equal(f->m.head.result_root, want);
	snprintf(want, sizeof(want), "%s/my-rules.yaml", f->dir);
	assert_string_equal(f->m.metrics, want);
	snprintf(want, sizeof(want), "%s/../config", f->dir);
	assert_string_equal(f->m.kconfig_file, want);
	assert_string_equal(f->m.doc.name, f->path);
}

static void t_load_errors_name_file(void **state)
{
	struct fx *f = *state;
	char want[192];

	/* Missing. */
	assert_int_equal(manifest_load(&f->m, f->path, &f->err), -1);
	assert_int_equal(f->err.code, EX_NOINPUT);
	assert_memory_equal(f->err.msg, f->path, strlen(f->path));
	manifest_release(&f->m);
	/* A bad key, named with the file's path. */
	tu_write(f->path, MINIMAL "colour: red\n", 0600);
	assert_int_equal(manifest_load(&f->m, f->path, &f->err), -1);
	assert_int_equal(f->err.code, EX_DATAERR);
	snprintf(want, sizeof(want), "%s:7: unknown key 'colour'", f->path);
	assert_string_equal(f->err.msg, want);
}

static void t_load_leaves_nothing_on_error(void **state)
{
	struct fx *f = *state;

	/* A failed load owns nothing: no release needed (valgrind checks
	 * that nothing leaks without one). */
	tu_write(f->path, "base: [unclosed\n", 0600);
	assert_int_equal(manifest_load(&f->m, f->path, &f->err), -1);
	assert_null(f->m.doc.root);
	assert_null(f->m.doc.arena);
	assert_null(f->m.doc.name);
}

static void t_unknown_key_top(void **state)
{
	struct fx *f = *state;

	parse_fails(f, MINIMAL "reviewer: x\n",
		    "m.yaml:7: unknown key 'reviewer'");
	parse_fails(f, "id: x\nmaterial_url: y\n" MINIMAL,
		    "m.yaml:2: unknown key 'material_url'");
}

static void t_unknown_key_head(void **state)
{
	struct fx *f = *state;

	parse_fails(f, "base:\n  commit: " BASE_SHA "\n  result_root: b\n"
		    "head:\n  commit: " HEAD_SHA "\n  result_root: h\n"
		    "  athor: A <a@b>\n",
		    "m.yaml:7: unknown key 'head.athor'");
	parse_fails(f, "base:\n  commit: " BASE_SHA "\n  result_root: b\n"
		    "  to: [x]\nhead:\n  commit: " HEAD_SHA "\n"
		    "  result_root: h\n",
		    "m.yaml:4: unknown key 'base.to'");
}

static void t_wrong_kinds(void **state)
{
	struct fx *f = *state;

	parse_fails(f, "id: [a]\n" MINIMAL, "m.yaml:1: 'id' must be a string");
	parse_fails(f, MINIMAL "metrics: [a, b]\n",
		    "m.yaml:7: 'metrics' must be a string");
	parse_fails(f, "base:\n  commit: " BASE_SHA "\n  result_root: b\n"
		    "  subject: [x]\nhead:\n  commit: " HEAD_SHA "\n"
		    "  result_root: h\n",
		    "m.yaml:4: 'base.subject' must be a string");
}

static void t_bad_commit(void **state)
{
	static const char *const bad[] = {
		"70bed0", "70bed0d5447e08702c7595d26c88ca37e8eb88b4a",
		"70bed0d 5447", "-70bed0d", "v6.13^", "v6.13~1", "a..b",
		"v6.13:x", "x@{1}", "/v6.13", "v6.13/", "x.lock", "tags/.x",
		"v6.13\\", "",
	};
	struct fx *f = *state;
	char text[256];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(text, sizeof(text), "base:\n  commit: '%s'\n"
			 "  result_root: b\nhead:\n  commit: " HEAD_SHA "\n"
			 "  result_root: h\n", bad[i]);
		assert_int_equal(manifest_parse(&f->m, "m.yaml", ".", text,
						strlen(text), &f->err), -1);
		assert_int_equal(f->err.code, EX_DATAERR);
		assert_memory_equal(f->err.msg, "m.yaml:", 7);
		if (!strstr(f->err.msg, "'base.commit' must be 7 to 40 hex "
			    "digits or a ref name"))
			fail_msg("'%s': %s", bad[i], f->err.msg);
		manifest_release(&f->m);
	}
}

static void t_commit_lengths(void **state)
{
	struct fx *f = *state;

	/* 7 and 40 hex digits are the bounds; upper case is hex too. */
	parse_ok(f, "base:\n  commit: 6cccbfe\n  result_root: b\n"
		 "head:\n  commit: 70BED0D5447E08702C7595D26C88CA37E8EB88B4\n"
		 "  result_root: h\n");
	assert_string_equal(f->m.base.commit, "6cccbfe");
}

/*
 * Issue 31 item 4: a base that is a tag or another ref ('v6.13',
 * 'v5.19-rc6', 'linus/master'), printed so, with an optional 'sha';
 * without one and without a tracked tree it cannot be run: said so.
 */
static void t_ref_commit(void **state)
{
	struct fx *f = *state;
	struct config cfg;

	memset(&cfg, 0, sizeof(cfg));
	parse_ok(f, "base:\n  commit: v6.13\n  sha: 6cccbfe\n"
		 "  result_root: b\nhead:\n  commit: " HEAD_SHA "\n"
		 "  result_root: h\n");
	assert_string_equal(f->m.base.commit, "v6.13");
	assert_string_equal(f->m.base.ref, "v6.13");
	assert_string_equal(manifest_side_sha(&f->m.base), "6cccbfe");
	assert_null(f->m.head.ref);
	assert_string_equal(manifest_side_sha(&f->m.head), HEAD_SHA);
	assert_int_equal(manifest_resolve(&f->m, &cfg, &f->err), 0);
	manifest_release(&f->m);
	parse_ok(f, "base:\n  commit: v5.19-rc6\n  result_root: b\n"
		 "head:\n  commit: linus/master\n  result_root: h\n");
	assert_string_equal(f->m.base.ref, "v5.19-rc6");
	assert_null(f->m.base.sha);
	assert_string_equal(f->m.head.ref, "linus/master");
	assert_int_equal(manifest_resolve(&f->m, &cfg, &f->err), -1);
	assert_int_equal(f->err.code, EX_CONFIG);
	assert_string_equal(f->err.msg, "m.yaml: 'base.commit' is the ref "
			    "'v5.19-rc6': give its sha as 'base.sha', or set "
			    "tracking.repo to resolve it");
	manifest_release(&f->m);
	parse_fails(f, "base:\n  commit: " BASE_SHA "\n  sha: 6cccbfe\n"
		    "  result_root: b\nhead:\n  commit: " HEAD_SHA "\n"
		    "  result_root: h\n", "m.yaml:3: 'base.sha' is for a ref "
		    "name in 'base.commit', which is a sha already");
	parse_fails(f, "base:\n  commit: v6.13\n  sha: v6.13\n"
		    "  result_root: b\nhead:\n  commit: " HEAD_SHA "\n"
		    "  result_root: h\n",
		    "m.yaml:3: 'base.sha' must be 7 to 40 hex digits");
}

static void t_missing_commit(void **state)
{
	struct fx *f = *state;

	parse_fails(f, "base:\n  result_root: b\nhead:\n  commit: " HEAD_SHA
		    "\n  result_root: h\n",
		    "m.yaml:1: 'base.commit' must be 7 to 40 hex digits "
		    "or a ref name (a tag such as v6.13)");
	parse_fails(f, "base:\n  commit: [1234567]\n  result_root: b\n"
		    "head:\n  commit: " HEAD_SHA "\n  result_root: h\n",
		    "m.yaml:2: 'base.commit' must be a string");
}

static void t_missing_result_root(void **state)
{
	struct fx *f = *state;

	parse_fails(f, "base:\n  commit: " BASE_SHA "\n  result_root: b\n"
		    "head:\n  commit: " HEAD_SHA "\n  subject: s\n",
		    "m.yaml:4: 'head.result_root' is missing");
}

static void t_missing_side(void **state)
{
	struct fx *f = *state;

	parse_fails(f, "base:\n  commit: " BASE_SHA "\n  result_root: b\n",
		    "m.yaml: 'head' must be a mapping with commit and "
		    "result_root");
	parse_fails(f, "base: " BASE_SHA "\nhead:\n  commit: " HEAD_SHA
		    "\n  result_root: h\n",
		    "m.yaml: 'base' must be a mapping with commit and "
		    "result_root");
}

static void t_not_a_mapping(void **state)
{
	struct fx *f = *state;

	parse_fails(f, "- base\n- head\n", "m.yaml: not a mapping");
	parse_fails(f, "", "m.yaml: not a mapping");
}

/*
 * A file of a source directory may be no manifest at all (issue 21 item
 * 9): manifest_parse_any() says so, manifest_parse() names what is wrong.
 */
static void t_parse_any(void **state)
{
	struct fx *f = *state;
	int is = -1;

	assert_int_equal(manifest_parse_any(&f->m, "m.yaml", ".",
					    "report_allowlist_add: [x]\n", 26,
					    &is, &f->err), 0);
	assert_int_equal(is, 0);
	assert_string_equal(f->err.msg, "m.yaml: not a manifest (no 'base' "
			    "nor 'head', and keys no manifest has)");
	parse_fails(f, "report_allowlist_add: [x]\n",
		    "m.yaml:1: unknown key 'report_allowlist_add'");
	assert_int_equal(manifest_parse_any(&f->m, "m.yaml", "d", MINIMAL,
					    strlen(MINIMAL), &is, &f->err), 0);
	assert_int_equal(is, 1);
	assert_string_equal(f->m.dir, "d");
	manifest_release(&f->m);
	/* a manifest's own keys, but broken: an error */
	assert_int_equal(manifest_parse_any(&f->m, "m.yaml", ".", "id: x\n",
					    6, &is, &f->err), -1);
	assert_int_equal(is, 1);
}

/*
 * Issue 29 item 8: a metric table that starts from another ('base:
 * FILE') is no manifest; the shape decides (a manifest's 'base' is a
 * mapping), not the file's name nor the key alone.
 */
static void t_parse_any_metric_base(void **state)
{
	struct fx *f = *state;
	static const char table[] =
		"base: ../config/metrics.yaml\n"
		"report_allowlist_add:\n  - foo.bar\n";
	static const char only_base[] = "base: metrics.yaml\n";
	static const char str_sides[] = "base: abc\nhead: def\n";
	static const char map_base[] = "base: {commit: x}\nfoo: 1\n";
	int is = -1;

	assert_int_equal(manifest_parse_any(&f->m, "metrics.yaml", ".", table,
					    strlen(table), &is, &f->err), 0);
	assert_int_equal(is, 0);
	assert_string_equal(f->err.msg, "metrics.yaml: not a manifest (its "
			    "'base' is a string, as a metric table's; a "
			    "manifest's is a mapping)");
	assert_int_equal(manifest_parse_any(&f->m, "x.yaml", ".", only_base,
					    strlen(only_base), &is, &f->err), 0);
	assert_int_equal(is, 0);
	/* a manifest's shape, broken: an error, whatever the name */
	assert_int_equal(manifest_parse_any(&f->m, "metrics.yaml", ".",
					    str_sides, strlen(str_sides), &is,
					    &f->err), -1);
	assert_int_equal(is, 1);
	assert_int_equal(manifest_parse_any(&f->m, "metrics.yaml", ".",
					    map_base, strlen(map_base), &is,
					    &f->err), -1);
	assert_int_equal(is, 1);
	assert_non_null(strstr(f->err.msg, "unknown key 'foo'"));
}

static void t_bad_yaml(void **state)
{
	struct fx *f = *state;

	assert_int_equal(manifest_parse(&f->m, "m.yaml", ".", "base: [x\n",
					9, &f->err), -1);
	assert_int_equal(f->err.code, EX_DATAERR);
	assert_memory_equal(f->err.msg, "m.yaml:", 7);
	manifest_release(&f->m);
	parse_fails(f, MINIMAL "to: [a]\nto: [b]\n",
		    "m.yaml:8: duplicate key 'to'");
}

static void t_to_cc(void **state)
{
	struct fx *f = *state;

	parse_ok(f, MINIMAL "to: []\ncc: [\"A <a@x>\", b@y]\n");
	assert_non_null(f->m.to.v);	/* [] is a list, empty */
	assert_int_equal(f->m.to.n, 0);
	assert_int_equal(f->m.cc.n, 2);
	assert_string_equal(f->m.cc.v[0],
			    "A <a@x>");
}

static void t_to_not_list(void **state)
{
	struct fx *f = *state;

	parse_fails(f, MINIMAL "to: someone@example.org\n",
		    "m.yaml:7: 'to' must be a list");
	parse_fails(f, MINIMAL "cc: {a: b}\n", "m.yaml:7: 'cc' must be a list");
}

static void t_list_items_strings(void **state)
{
	struct fx *f = *state;

	parse_fails(f, MINIMAL "cc:\n  - a@x\n  - [b@x]\n",
		    "m.yaml:9: 'cc' must hold strings");
	parse_fails(f, MINIMAL "notes:\n  - ok\n  - k: v\n",
		    "m.yaml:9: 'notes' must hold strings");
}

static void t_notes(void **state)
{
	struct fx *f = *state;

	parse_ok(f, MINIMAL "notes:\n  - |\n    two\n    lines\n  - 'one'\n");
	assert_int_equal(f->m.notes.n, 2);
	assert_string_equal(f->m.notes.v[0],
			    "two\nlines\n");
	assert_string_equal(f->m.notes.v[1],
			    "one");
	manifest_release(&f->m);
	parse_fails(f, MINIMAL "notes: just text\n",
		    "m.yaml:7: 'notes' must be a list");
}

static void t_metrics_kconfig_resolved(void **state)
{
	static const char text[] =
		MINIMAL "metrics: r.yaml\nkconfig_file: k/c\n";
	struct fx *f = *state;

	assert_int_equal(manifest_parse(&f->m, "m.yaml", "rel/dir", text,
					strlen(text), &f->err), 0);
	assert_string_equal(f->m.metrics, "rel/dir/r.yaml");
	assert_string_equal(f->m.kconfig_file, "rel/dir/k/c");
	assert_string_equal(f->m.base.result_root, "rel/dir/roots/base");
}

/* An author is one mailbox: never a list, a group, a header, 100 KB. */
static void t_author_one_address(void **state)
{
	struct fx *f = *state;
	struct strbuf big = STRBUF_INIT;

	parse_fails(f, "base:\n  commit: " BASE_SHA "\n  result_root: b\n"
		    "head:\n  commit: " HEAD_SHA "\n  result_root: h\n"
		    "  author: \"Dev <a@x.example>, b@y.example\"\n",
		    "m.yaml:7: 'head.author' is not one mail address: text "
		    "after the address");
	parse_fails(f, "base:\n  commit: " BASE_SHA "\n  result_root: b\n"
		    "head:\n  commit: " HEAD_SHA "\n  result_root: h\n"
		    "  author: \"Dev <a@x.example>\\nBcc: b@y.example\"\n",
		    "m.yaml:7: 'head.author' is not one mail address: a "
		    "control character");
	parse_fails(f, "base:\n  commit: " BASE_SHA "\n  result_root: b\n"
		    "head:\n  commit: " HEAD_SHA "\n  result_root: h\n"
		    "  author: \"list: a@x.example, b@y.example;\"\n",
		    "m.yaml:7: 'head.author' is not one mail address: not one "
		    "address");
	assert_int_equal(sb_addf(&big, "%s  author: \"", MINIMAL), 0);
	while (big.len < 100 * 1024)
		assert_int_equal(sb_adds(&big, "Dev Dev Dev "), 0);
	assert_int_equal(sb_adds(&big, "<a@x.example>\"\n"), 0);
	parse_fails(f, sb_str(&big), "m.yaml:7: 'head.author' is not one "
		    "mail address: longer than 512 bytes");
	sb_release(&big);
	parse_ok(f, MINIMAL "  author: \"\\\"Li, Wang\\\" <l@x.example>\"\n");
}

/* Values that reach a header hold no control character. */
static void t_header_values_control(void **state)
{
	struct fx *f = *state;

	parse_fails(f, "base:\n  commit: " BASE_SHA "\n  result_root: b\n"
		    "head:\n  commit: " HEAD_SHA "\n  result_root: h\n"
		    "  subject: \"pipe: x\\n--=-perfbot-0\\nContent-Type: "
		    "text/html\"\n",
		    "m.yaml:7: 'head.subject' holds a control character");
	parse_fails(f, "id: \"a\\rb\"\n" MINIMAL,
		    "m.yaml:1: 'id' holds a control character");
	parse_fails(f, MINIMAL "cc: [ok@x.example, \"b@x.example\\nBcc: "
		    "c@y.example\"]\n",
		    "m.yaml:7: 'cc' holds a control character");
	parse_fails(f, MINIMAL "  branch: \"a\\x1b[31m\"\n",
		    "m.yaml:7: 'head.branch' holds a control character");
	/* notes are body text: lines of their own are fine there */
	parse_ok(f, MINIMAL "notes: [\"--=-perfbot-0\"]\n");
}

/* 'reproduce': the job's commands, lines and tabs, nothing else. */
static void t_reproduce(void **state)
{
	struct fx *f = *state;

	parse_ok(f, MINIMAL "reproduce: \"lkp run job.yaml\\n\\techo\\n\"\n");
	assert_string_equal(f->m.reproduce, "lkp run job.yaml\n\techo\n");
	manifest_release(&f->m);
	parse_fails(f, MINIMAL "reproduce: \"a\\x1b[31m\"\n",
		    "m.yaml:7: 'reproduce' holds a control character");
	parse_fails(f, MINIMAL "reproduce: [a]\n",
		    "m.yaml:7: 'reproduce' must be a string");
}

static void t_release_twice(void **state)
{
	struct fx *f = *state;

	parse_ok(f, full);
	manifest_release(&f->m);
	assert_null(f->m.doc.root);
	assert_null(f->m.base.result_root);
	assert_null(f->m.metrics);
	manifest_release(&f->m);
}

/* patch: every field, ids kept without their angle brackets. */
static void t_patch_full(void **state)
{
	struct fx *f = *state;
	const struct manifest_patch *p = &f->m.patch;

	parse_ok(f, MINIMAL
		 "patch:\n"
		 "  message_id: \"<20260623180124.868655-5-a@example.org>\"\n"
		 "  subject: \"[PATCH v4 4/5] mm: convert\"\n"
		 "  link: https://lore.example.org/all/x/\n"
		 "  url: https://github.com/lkp/linux/commits/A/b/2026\n"
		 "  base: \"https://git.kernel.org/akpm/mm.git mm-everything\"\n"
		 "  references: [\"<cover@example.org>\", v3@example.org]\n"
		 "  to: [\"Andrew <akpm@example.org>\"]\n"
		 "  cc: [linux-mm@kvack.example, b@example.org]\n");
	assert_string_equal(p->message_id,
			    "20260623180124.868655-5-a@example.org");
	assert_string_equal(p->subject, "[PATCH v4 4/5] mm: convert");
	assert_string_equal(p->link, "https://lore.example.org/all/x/");
	assert_string_equal(p->url,
			    "https://github.com/lkp/linux/commits/A/b/2026");
	assert_string_equal(p->base,
			    "https://git.kernel.org/akpm/mm.git mm-everything");
	assert_int_equal(p->nreferences, 2);
	assert_null(p->references[2]);
	assert_string_equal(p->references[0],
			    "cover@example.org");
	assert_string_equal(p->references[1],
			    "v3@example.org");
	assert_int_equal(p->to.n, 1);
	assert_int_equal(p->cc.n, 2);
}

/* Only message_id and subject are needed; no patch: no message_id. */
static void t_patch_minimal(void **state)
{
	struct fx *f = *state;

	parse_ok(f, MINIMAL);
	assert_null(f->m.patch.message_id);
	manifest_release(&f->m);
	parse_ok(f, MINIMAL "patch: { message_id: a@b, subject: \"[PATCH] x\" }\n");
	assert_string_equal(f->m.patch.message_id, "a@b");
	assert_null(f->m.patch.link);
	assert_null(f->m.patch.url);
	assert_null(f->m.patch.base);
	assert_int_equal(f->m.patch.nreferences, 0);
	assert_null(f->m.patch.to.v);
	assert_null(f->m.patch.cc.v);
	assert_null(f->m.patch.references);
}

static void t_patch_refused(void **state)
{
	struct fx *f = *state;

#define P(x) MINIMAL "patch:\n  message_id: \"<a@b>\"\n  subject: s\n" x
	parse_fails(f, MINIMAL "patch: [a@b]\n", "m.yaml:7: 'patch' must be "
		    "a mapping with message_id and subject");
	parse_fails(f, MINIMAL "patch: { subject: s }\n",
		    "m.yaml:7: 'patch.message_id' is missing");
	parse_fails(f, MINIMAL "patch: { message_id: a@b }\n",
		    "m.yaml:7: 'patch.subject' is missing");
	parse_fails(f, P("  colour: red\n"),
		    "m.yaml:10: unknown key 'patch.colour'");
	parse_fails(f, P("  url: [https://x]\n"),
		    "m.yaml:10: 'patch.url' must be a string");
	parse_fails(f, P("  references: <c@d>\n"),
		    "m.yaml:10: 'patch.references' must be a list");
	parse_fails(f, P("  cc: a@b\n"), "m.yaml:10: 'patch.cc' must be a list");
	parse_fails(f, P("  to: [a@b, [c@d]]\n"),
		    "m.yaml:10: 'patch.to' must hold one-line strings");
	parse_fails(f, P("  cc:\n    - a@b\n    - \"x\\ny@z\"\n"),
		    "m.yaml:12: 'patch.cc' must hold one-line strings");
	parse_fails(f, P("  references:\n    - <c@d>\n    - <e f@g>\n"),
		    "m.yaml:12: 'patch.references': '<e f@g>' is not a "
		    "Message-ID (<left@right>)");
	parse_fails(f, P("  link: ftp://lore/x\n"),
		    "m.yaml:10: 'patch.link' must be an http(s) URL without "
		    "blanks");
	parse_fails(f, P("  url: \"https://x/a b\"\n"),
		    "m.yaml:10: 'patch.url' must be an http(s) URL without "
		    "blanks");
	parse_fails(f, P("  base: \"https://x\\tmaster\"\n"),
		    "m.yaml:10: 'patch.base' must be one line of text, "
		    "without control characters");
#undef P
}

/* Subjects with control characters: no header or body injection. */
static void t_patch_subject_control(void **state)
{
	struct fx *f = *state;

	parse_fails(f, MINIMAL "patch:\n  message_id: a@b\n"
		    "  subject: \"[PATCH] x\\r\\nBcc: all@example.org\"\n",
		    "m.yaml:9: 'patch.subject' must be one line of text, "
		    "without control characters");
	parse_fails(f, MINIMAL "patch:\n  message_id: a@b\n  subject: \"\"\n",
		    "m.yaml:9: 'patch.subject' must be one line of text, "
		    "without control characters");
}

static void t_patch_bad_ids(void **state)
{
	static const char *const bad[] = {
		"nobrackets", "<>", "<a@b", "a@", "@b", "<a@b@c>", "<a@b>x",
		"a b@c", "a@b>", "<a\\\"q@b>", "<a@[1.2.3.4]>", "<a<b@c>",
		"a@b,c@d",
	};
	struct fx *f = *state;
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		sb_reset(&sb);
		assert_int_equal(sb_addf(&sb, MINIMAL "patch:\n  message_id: \"%s\"\n"
				"  subject: s\n", bad[i]), 0);
		parse_fails(f, sb_str(&sb), "m.yaml:8: 'patch.message_id' is "
			    "not a Message-ID (<left@right>)");
	}
	sb_reset(&sb);
	assert_int_equal(sb_adds(&sb, MINIMAL "patch:\n  message_id: \"<"), 0);
	for (i = 0; i < 250; i++)
		assert_int_equal(sb_addc(&sb, 'x'), 0);
	assert_int_equal(sb_adds(&sb, "@b>\"\n  subject: s\n"), 0);
	parse_fails(f, sb_str(&sb), "m.yaml:8: 'patch.message_id' is not a "
		    "Message-ID (<left@right>)");
	sb_release(&sb);
}

/* 'bisect' (issue 33): a range to blame on one commit, or no bisection. */
static void t_bisect(void **state)
{
	struct fx *f = *state;

	parse_ok(f, MINIMAL);
	assert_int_equal(f->m.bisect, 0);
	manifest_release(&f->m);
	parse_ok(f, MINIMAL "bisect: true\n");
	assert_int_equal(f->m.bisect, 1);
	manifest_release(&f->m);
	parse_ok(f, MINIMAL "bisect: no\n");
	assert_int_equal(f->m.bisect, 0);
	manifest_release(&f->m);
	parse_fails(f, MINIMAL "bisect: maybe\n",
		    "m.yaml:7: 'bisect' must be true or false");
	parse_fails(f, MINIMAL "bisect: [true]\n",
		    "m.yaml:7: 'bisect' must be true or false");
	parse_fails(f, MINIMAL "bisect: true\n"
		    "patch: { message_id: a@b, subject: s }\n",
		    "m.yaml:7: 'bisect' bisects the commits of base..head; a "
		    "manifest with 'patch' has one commit on its base");
	parse_fails(f, "base:\n  commit: " BASE_SHA "\n  result_root: b\n"
		    "head:\n  commit: 6cccbfebc0\n  result_root: h\n"
		    "bisect: yes\n",
		    "m.yaml:7: 'bisect' needs two commits: base and head are "
		    "one");
	/* a patch without bisecting is as it was */
	parse_ok(f, MINIMAL "bisect: false\n"
		 "patch: { message_id: a@b, subject: s }\n");
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(t_full),
		T(t_patch_full),
		T(t_patch_minimal),
		T(t_patch_refused),
		T(t_patch_subject_control),
		T(t_patch_bad_ids),
		T(t_bisect),
		T(t_reproduce),
		T(t_minimal),
		T(t_flow_style),
		T(t_load_resolves_relative),
		T(t_load_errors_name_file),
		T(t_load_leaves_nothing_on_error),
		T(t_unknown_key_top),
		T(t_unknown_key_head),
		T(t_wrong_kinds),
		T(t_bad_commit),
		T(t_commit_lengths),
		T(t_ref_commit),
		T(t_missing_commit),
		T(t_missing_result_root),
		T(t_missing_side),
		T(t_not_a_mapping),
		T(t_parse_any),
		T(t_parse_any_metric_base),
		T(t_bad_yaml),
		T(t_to_cc),
		T(t_to_not_list),
		T(t_list_items_strings),
		T(t_notes),
		T(t_metrics_kconfig_resolved),
		T(t_author_one_address),
		T(t_header_values_control),
		T(t_release_twice),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
