// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/web/reportpage.c: the page of a report queued as
 * 'perfbot run' queues one (seed 004): its facts, the comparison, the
 * mail with the report's own addresses (none with web.show_addresses
 * off), links only to http(s) (a javascript: materials URL dropped), the
 * archive link of identity.archive_url; "open" alone for a report
 * nothing ran on since; what its record's status rests on (the fix
 * that landed, the report it duplicates with a link, why it is
 * invalid); the reports' Message-IDs shown in a reply's commands, other
 * addresses not; a report whose roots are gone still has its page; the
 * summary and its JSON; the pages' paths.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "perfbot/state/records.h"
#include "perfbot/state/requests.h"
#include "perfbot/state/inbox.h"
#include "perfbot/web/reportpage.h"

#include "testweb.h"

struct fx {
	char dir[64];
	struct tw w;
	struct strbuf page;
	struct web_summary sum;
};

static int setup(void **state)
{
	struct fx *f = TU_NEW_FX(struct fx, "test_reportpage");

	if (!f)
		return -1;
	memcpy(f->w.dir, f->dir, sizeof(f->dir));
	if (!tw_setup(&f->w))
		return -1;
	sb_init(&f->page, 0);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	web_summary_release(&f->sum);
	sb_release(&f->page);
	tw_teardown(&f->w);
	free(f);
	return 0;
}

/* The page of report 'id' into f->page, its summary into f->sum. */
static void page(struct fx *f, const char *id)
{
	struct archive_report *r = NULL;
	struct inputs_cache cache;
	struct web_site s;
	size_t i, n = 0;

	inputs_cache_init(&cache);
	sb_reset(&f->page);
	assert_int_equal(web_site_init(&s, &f->w.cfg, TW_T0, &f->w.err), 0);
	assert_int_equal(state_archive_reports(f->w.st, &r, &n, &f->w.err), 0);
	assert_int_equal(web_site_ids(&s, r, n, &f->w.err), 0);
	for (i = 0; i < n && strcmp(r[i].id, id); i++)
		;
	assert_true(i < n);
	if (web_report_page(&s, f->w.st, &cache, &r[i], &f->page, &f->sum,
			    &f->w.err))
		fail_msg("%s", f->w.err.msg);
	archive_reports_free(r, n);
	web_site_release(&s);
	inputs_cache_release(&cache);
}

static int has(struct fx *f, const char *s)
{
	return strstr(sb_str(&f->page), s) != NULL;
}

static void t_page(void **state)
{
	struct fx *f = *state;

	tw_report(&f->w, "r1", NULL, "materials_url: \"javascript:alert(1)\"\n"
		  "notes: [\"<script>alert(2)</script>\"]\n", TW_T0);
	page(f, "r1");
	assert_true(has(f, "<title>[linux-next:master]") ||
		    has(f, "<title>["));
	assert_true(has(f, "<strong>hackbench.throughput</strong>"));
	assert_true(has(f, "hackbench.throughput</a> 10.5%, an improvement"));
	assert_true(has(f, "href=\"https://perf.example.test/r/r1.html\""));
	assert_false(has(f, "href=\"javascript:"));
	assert_false(has(f, "<script>"));
	assert_true(has(f, "&lt;script&gt;alert(2)&lt;/script&gt;"));
	assert_true(has(f, "<dd>Dev &lt;dev@example.test&gt;</dd>"));
	assert_true(has(f, "perf-reports@example.test"));
	assert_true(has(f, "<a href=\"../t/hackbench.html\">hackbench</a>"));
	assert_true(has(f, "on 6 runs of the parent and 6 of the commit"));
	assert_true(has(f, "<p>No reply yet.</p>"));
	/* nothing ran on it since it was mailed: no "(tested)" */
	assert_true(has(f, "<dt>Status</dt>\n<dd>open</dd>"));
	assert_false(has(f, "tested"));
	assert_int_equal(tw_count(sb_str(&f->page), "<circle "),
			 tw_count(sb_str(&f->page), "<figure ") * 12);
	assert_true(f->sum.ok);
	assert_string_equal(f->sum.testcase, "hackbench");
	assert_string_equal(f->sum.metric, "hackbench.throughput");
	assert_string_equal(f->sum.change, "10.5%");
	assert_false(f->sum.regression);
	assert_int_equal(f->sum.base_n, 6);
	assert_string_equal(f->sum.welch_p, "3e-11");
}

static void t_no_addresses(void **state)
{
	struct fx *f = *state;

	tw_config(&f->w, "web: {show_addresses: false}\n");
	tw_report(&f->w, "r1", NULL, NULL, TW_T0);
	page(f, "r1");
	assert_false(has(f, "dev@example.test"));
	assert_false(has(f, "perf-reports@example.test"));
	assert_false(has(f, "perfbot <perfbot@example.test>"));
	assert_true(has(f, "Dev &lt;[address hidden]&gt;"));
	/* the Message-ID is no address */
	assert_true(has(f, "-perfbot@example.test&gt;</code>"));
}

/*
 * After a retest the roots have more runs: the table is the report's, on
 * the runs its first retest found (not one refused before looking).
 */
static void t_report_runs(void **state)
{
	struct fx *f = *state;
	struct request_new a = {
		.request_id = "rt-0", .kind = "retest", .report_id = "r1",
		.runs = 4, .requested_by = "dev@example.test",
		.reply_message_id = "m0@x", .thread = "{}",
		.status = "rejected", .deadline = TW_T0,
		.detail = "the farm said no",
	};
	struct request_new b = {
		.request_id = "rt-1", .kind = "retest", .report_id = "r1",
		.runs = 4, .requested_by = "dev@example.test",
		.reply_message_id = "m1@x", .thread = "{}", .status = "queued",
		.base_runs = 4, .head_runs = 5, .deadline = TW_T0,
	};

	tw_report(&f->w, "r1", NULL, NULL, TW_T0);
	assert_int_equal(state_request_add(f->w.st, &a, TW_T0, &f->w.err), 0);
	assert_int_equal(state_request_add(f->w.st, &b, TW_T0 + 1, &f->w.err),
			 0);
	page(f, "r1");
	assert_true(has(f, "on 4 runs of the parent and 5 of the commit (the "
			"runs of the report;"));
	assert_true(has(f, "The benchmark farm did not take the request."));
	assert_false(has(f, "the farm said no"));
	assert_true(has(f, "Running: the runs have not all landed yet."));
	assert_int_equal(f->sum.base_n, 4);
}

/* Report 'id''s record made 'status', with 'fill' filling it. */
static void record(struct fx *f, const char *id, const char *status,
		   void (*fill)(struct record *))
{
	struct record r;
	int found = 0;

	assert_int_equal(state_record_get(f->w.st, id, &r, &found, &f->w.err),
			 0);
	assert_true(found);
	free(r.status);
	r.status = strdup(status);
	fill(&r);
	assert_int_equal(state_record_put(f->w.st, &r, NULL, TW_T0 + 60,
					  &f->w.err), 0);
	record_release(&r);
}

static void landed(struct record *r)
{
	r->fix_named = strdup("pipe: fix it");
	r->fix_commit = strdup("d0f8c0aed1bf61a811108c7b5ee32066a9b4cadf");
	r->fix_summary = strdup("pipe: fix it");
	r->fix_branch = strdup("master");
	r->fix_date = TW_T0 + 1800;
}

static void dup_of_r1(struct record *r)
{
	r->dup_of = strdup("r1");
}

static void misconfigured(struct record *r)
{
	r->reason = strdup("the base kernel was misconfigured");
}

/* A report's id's Message-ID, newly allocated. */
static char *message_id(struct fx *f, const char *id)
{
	struct record r;
	int found = 0;
	char *mid;

	assert_int_equal(state_record_get(f->w.st, id, &r, &found, &f->w.err),
			 0);
	mid = strdup(r.message_id);
	record_release(&r);
	return mid;
}

/* What a record's status rests on, on its page. */
static void t_record_facts(void **state)
{
	struct fx *f = *state;
	char *mid, cmds[512], want[512];
	struct inbox_entry e = { "reply-1@example.test", 1, 1,
				 "bob@example.test", "r2", "answered", cmds };

	tw_report(&f->w, "r1", NULL, NULL, TW_T0);
	tw_report(&f->w, "r2", NULL, NULL, TW_T0);
	tw_report(&f->w, "r3", NULL, NULL, TW_T0);
	record(f, "r1", "fix landed", landed);
	record(f, "r2", "duplicate", dup_of_r1);
	record(f, "r3", "invalid", misconfigured);
	mid = message_id(f, "r1");
	snprintf(cmds, sizeof(cmds), "[\"dup: <%s>\", \"cc <eve@x.test>\"]",
		 mid);
	assert_int_equal(state_inbox_record(f->w.st, &e, TW_T0 + 60,
					    &f->w.err), 0);

	page(f, "r1");
	assert_true(has(f, "<dd>fix landed</dd>"));
	assert_true(has(f, "<dt>Fix</dt>\n<dd><code>d0f8c0aed1bf61a811108c7b5ee"
			"32066a9b4cadf</code> (\"pipe: fix it\") in master, "
			"committed <time datetime=\"2025-02-14T16:18:00Z\">"));
	assert_false(has(f, "<dt>Fix named</dt>"));

	page(f, "r2");
	assert_true(has(f, "<dd>duplicate</dd>"));
	assert_true(has(f, "<dt>Duplicate of</dt>\n<dd><a href=\"../r/r1.html"
			"\">[pipe]  f017b0a495:  hackbench.throughput 10.5% "
			"improvement</a></dd>"));
	/* its Message-ID is no address; the other address is */
	snprintf(want, sizeof(want), "<li><code>dup: &lt;%s&gt;</code></li>",
		 mid);
	assert_true(has(f, want));
	assert_true(has(f, "<li><code>cc &lt;[address hidden]&gt;</code></li>"));
	assert_false(has(f, "eve@x.test"));
	assert_false(has(f, "<dt>Fix</dt>"));

	page(f, "r3");
	assert_true(has(f, "<dt>Why invalid</dt>\n<dd>the base kernel was "
			"misconfigured</dd>"));
	assert_false(has(f, "<dt>Duplicate of</dt>"));
	free(mid);
}

/* Roots gone: the page says so and shows the mail. */
static void t_roots_gone(void **state)
{
	struct fx *f = *state;
	char roots[PATH_MAX + 16], cmd[6 * PATH_MAX];

	snprintf(roots, sizeof(roots), "%s/roots", f->dir);
	snprintf(cmd, sizeof(cmd), "mkdir -p %s && cp -r %s/%s/base %s/%s/head "
		 "%s/", roots, f->w.cwd, TW_SEED4, f->w.cwd, TW_SEED4, roots);
	assert_int_equal(system(cmd), 0);
	tw_report(&f->w, "r1", roots, NULL, TW_T0);
	tu_rmtree(roots);
	page(f, "r1");
	assert_true(has(f, "cannot be read any more"));
	assert_true(has(f, "<pre class=\"mail\">"));
	assert_false(f->sum.ok);
	assert_null(f->sum.testcase);
	assert_null(f->sum.metric);
}

static void t_summary_json(void **state)
{
	struct web_summary a = { 1, "hackbench", "m<x>", "10.5%", 1, 6, 7,
				 NULL }, b;
	json_t *j = web_summary_json(&a), *bad;

	(void)state;
	assert_int_equal(web_summary_from_json(&b, j), 0);
	assert_true(b.ok && b.regression);
	assert_string_equal(b.testcase, "hackbench");
	assert_string_equal(b.metric, "m<x>");
	assert_int_equal(b.head_n, 7);
	assert_null(b.welch_p);
	web_summary_release(&b);
	web_summary_release(&b);
	bad = json_pack("{s:b, s:I, s:I, s:i}", "ok", 1, "base_n",
			(json_int_t)1, "head_n", (json_int_t)1, "testcase", 3);
	assert_int_equal(web_summary_from_json(&b, bad), -1);
	assert_null(b.testcase);
	assert_int_equal(web_summary_from_json(&b, NULL), -1);
	json_decref(bad);
	json_decref(j);
}

static void path_is(char *got, const char *want)
{
	assert_non_null(got);
	assert_string_equal(got, want);
	free(got);
}

static void t_paths(void **state)
{
	(void)state;
	path_is(web_report_path("seed-003"), "r/seed-003.html");
	path_is(web_report_path("../x"), "r/~2e.~2fx.html");
	path_is(web_testcase_path("aim7", 1), "t/aim7.html");
	path_is(web_testcase_path("aim7", 3), "t/aim7~p3.html");
	path_is(web_testcase_path("Aim7", 1), "t/~41im7.html");
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(t_page),
		T(t_no_addresses),
		T(t_report_runs),
		T(t_record_facts),
		T(t_roots_gone),
		cmocka_unit_test(t_summary_json),
		cmocka_unit_test(t_paths),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
