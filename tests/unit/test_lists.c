// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/web/lists.c: the lists of reports, newest first, in
 * pages of web.per_page lines (index.html, index-2.html, ...), open.html
 * without what a retest found gone, a list per testcase (t/NAME.html,
 * t/NAME~p2.html) and the links to them, every address hidden.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "perfbot/web/lists.h"

#include "testweb.h"

#define N 5

struct fx {
	char dir[64];
	struct tw w;
	struct archive_report rows[N];
	struct web_summary sums[N];
	struct web_entry e[N];
	char out[PATH_MAX];
};

static int setup(void **state)
{
	static const char *const tc[N] = { "hackbench", "aim7", "hackbench",
		NULL, "hackbench" };
	static const char *const ids[N] = { "r5", "r4", "r3", "r2", "r1" };
	static const char *const paths[N] = { "r/r5.html", "r/r4.html",
		"r/r3.html", "r/r2.html", "r/r1.html" };
	struct fx *f = TU_NEW_FX(struct fx, "test_lists");
	size_t i;

	if (!f)
		return -1;
	memcpy(f->w.dir, f->dir, sizeof(f->dir));
	if (!tw_setup(&f->w))
		return -1;
	tw_config(&f->w, "web: {per_page: 2}\n");
	for (i = 0; i < N; i++) {
		f->rows[i].id = (char *)ids[i];
		f->rows[i].message_id = "m@example.test";
		f->rows[i].subject = i == 1 ? "by evil@elsewhere.test <b>" :
			"a subject";
		f->rows[i].status = i == 4 ? "queued" : "sent";
		f->rows[i].created = TW_T0 - (time_t)i * 3600;
		f->sums[i].ok = tc[i] != NULL;
		f->sums[i].testcase = (char *)tc[i];
		f->sums[i].metric = tc[i] ? "hackbench.throughput" : NULL;
		f->sums[i].change = "10.5%";
		f->sums[i].base_n = f->sums[i].head_n = 6;
		f->e[i].row = &f->rows[i];
		f->e[i].sum = &f->sums[i];
		f->e[i].path = paths[i];
	}
	f->rows[2].verdict = "not reproduced";
	tu_path(f->out, sizeof(f->out), f->dir, "site");
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	tw_teardown(&f->w);
	free(f);
	return 0;
}

static void build(struct fx *f)
{
	struct site_tree t;
	struct web_site s;

	assert_int_equal(web_site_init(&s, &f->w.cfg, TW_T0, &f->w.err), 0);
	assert_int_equal(site_open(&t, f->out, &f->w.err), 0);
	if (web_lists(&s, &t, f->e, N, &f->w.err))
		fail_msg("%s", f->w.err.msg);
	assert_int_equal(site_commit(&t, &f->w.err), 0);
	site_release(&t);
	web_site_release(&s);
}

static void t_lists(void **state)
{
	struct fx *f = *state;
	struct strbuf sb;

	build(f);
	tu_names(f->out, ".perfbot-web.json", &sb);
	assert_string_equal(sb.buf, "index-2.html|index-3.html|index.html|"
			    "open-2.html|open.html|r|t");
	sb_release(&sb);
	tw_read(f->out, "index.html", &sb);
	assert_non_null(strstr(sb.buf, "<a href=\"r/r5.html\">"));
	assert_non_null(strstr(sb.buf, "<a href=\"r/r4.html\">"));
	assert_null(strstr(sb.buf, "r/r3.html"));	/* page 2 */
	assert_non_null(strstr(sb.buf, "5 reports, newest first"));
	assert_non_null(strstr(sb.buf, "<strong>1</strong> <a href=\"index-2"
			       ".html\">2</a> <a href=\"index-3.html\">3</a>"));
	assert_non_null(strstr(sb.buf, "by [address hidden] &lt;b&gt;"));
	assert_null(strstr(sb.buf, "evil@"));
	assert_non_null(strstr(sb.buf, "<a href=\"t/hackbench.html\">hackbench"
			       "</a> (3)"));
	sb_release(&sb);
	tw_read(f->out, "index-3.html", &sb);
	assert_non_null(strstr(sb.buf, "r/r1.html"));
	assert_non_null(strstr(sb.buf, "(not sent yet)"));
	sb_release(&sb);
	/* open: r3's change was not reproduced */
	tw_read(f->out, "open.html", &sb);
	assert_non_null(strstr(sb.buf, "4 reports"));
	sb_release(&sb);
	tw_read(f->out, "open-2.html", &sb);
	assert_null(strstr(sb.buf, "r/r3.html"));
	assert_non_null(strstr(sb.buf, "r/r2.html"));
	sb_release(&sb);
	/* per testcase: r2 has none */
	tw_read(f->out, "t/hackbench.html", &sb);
	assert_non_null(strstr(sb.buf, "<a href=\"../r/r5.html\">"));
	assert_non_null(strstr(sb.buf, "href=\"../style.css\""));
	assert_non_null(strstr(sb.buf, "<a href=\"hackbench~p2.html\">2</a>"));
	sb_release(&sb);
	tw_read(f->out, "t/hackbench~p2.html", &sb);
	assert_non_null(strstr(sb.buf, "r/r1.html"));
	sb_release(&sb);
	tw_read(f->out, "t/aim7.html", &sb);
	assert_non_null(strstr(sb.buf, "1 report, newest first"));
	sb_release(&sb);
}

static void t_empty(void **state)
{
	struct fx *f = *state;
	struct site_tree t;
	struct web_site s;
	struct strbuf sb;

	assert_int_equal(web_site_init(&s, &f->w.cfg, TW_T0, &f->w.err), 0);
	assert_int_equal(site_open(&t, f->out, &f->w.err), 0);
	assert_int_equal(web_lists(&s, &t, NULL, 0, &f->w.err), 0);
	assert_int_equal(site_commit(&t, &f->w.err), 0);
	site_release(&t);
	web_site_release(&s);
	tw_read(f->out, "index.html", &sb);
	assert_non_null(strstr(sb.buf, "No report yet."));
	sb_release(&sb);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(t_lists),
		T(t_empty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
