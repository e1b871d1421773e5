// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/web/feed.c: feed.atom, the newest web.feed_entries
 * reports; ids that never change (mid: URIs of the Message-IDs, a tag:
 * URI or web.base_url for the feed), links relative to the feed or under
 * web.base_url, the updated times, every address hidden.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "perfbot/web/feed.h"

#include "testweb.h"

struct fx {
	char dir[64];
	struct tw w;
	struct archive_report rows[3];
	struct web_summary sums[3];
	struct web_entry e[3];
	struct strbuf out;
};

static int setup(void **state)
{
	struct fx *f = TU_NEW_FX(struct fx, "test_feed");
	size_t i;

	if (!f)
		return -1;
	memcpy(f->w.dir, f->dir, sizeof(f->dir));
	if (!tw_setup(&f->w))
		return -1;
	for (i = 0; i < 3; i++) {
		f->rows[i].id = "r";
		f->rows[i].message_id = i ? "2025.b-perfbot@example.test" :
			"2025.a+x-perfbot@example.test";
		f->rows[i].subject = "to alice@example.test & <bob>";
		f->rows[i].status = "sent";
		f->rows[i].created = TW_T0 - (time_t)(i + 1) * 86400;
		f->rows[i].sent_at = i ? 0 : TW_T0;
		f->sums[i].ok = 1;
		f->sums[i].testcase = "hackbench";
		f->sums[i].metric = "hackbench.throughput";
		f->sums[i].change = "-4.2%";
		f->sums[i].regression = 1;
		f->e[i].row = &f->rows[i];
		f->e[i].sum = &f->sums[i];
		f->e[i].path = "r/r.html";
	}
	sb_init(&f->out, 0);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	sb_release(&f->out);
	tw_teardown(&f->w);
	free(f);
	return 0;
}

static void feed(struct fx *f, size_t n)
{
	struct web_site s;

	sb_reset(&f->out);
	assert_int_equal(web_site_init(&s, &f->w.cfg, TW_T0, &f->w.err), 0);
	if (web_feed(&s, f->e, n, &f->out, &f->w.err))
		fail_msg("%s", f->w.err.msg);
	web_site_release(&s);
}

static int has(struct fx *f, const char *s)
{
	return strstr(sb_str(&f->out), s) != NULL;
}

static void t_relative(void **state)
{
	struct fx *f = *state;

	tw_config(&f->w, "web: {feed_entries: 2}\n");
	feed(f, 3);
	assert_true(has(f, "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<feed "
			"xmlns=\"http://www.w3.org/2005/Atom\">"));
	assert_true(has(f, "<id>tag:example.test,2025-02-11:perfbot</id>"));
	assert_true(has(f, "<updated>2025-02-14T15:48:00Z</updated>"));
	assert_true(has(f, "<id>mid:2025.a+x-perfbot@example.test</id>"));
	assert_true(has(f, "<link rel=\"alternate\" type=\"text/html\" "
			"href=\"r/r.html\"/>"));
	assert_true(has(f, "<title>to [address hidden] &amp; &lt;bob&gt;"
			"</title>"));
	assert_true(has(f, "hackbench.throughput -4.2%, a regression"));
	assert_false(has(f, "rel=\"self\""));
	assert_int_equal(tw_count(sb_str(&f->out), "<entry>"), 2);
	/* the second's time: when it was queued (never sent) */
	assert_true(has(f, "<updated>2025-02-12T15:48:00Z</updated>"));
}

static void t_absolute(void **state)
{
	struct fx *f = *state;

	tw_config(&f->w, "web: {base_url: \"https://perf.example.test/a\"}\n");
	feed(f, 1);
	assert_true(has(f, "<id>https://perf.example.test/a/feed.atom</id>"));
	assert_true(has(f, "rel=\"self\" type=\"application/atom+xml\" "
			"href=\"https://perf.example.test/a/feed.atom\""));
	assert_true(has(f, "href=\"https://perf.example.test/a/r/r.html\""));
	feed(f, 0);
	assert_int_equal(tw_count(sb_str(&f->out), "<entry>"), 0);
	assert_true(has(f, "<updated>2025-02-14T15:48:00Z</updated>"));
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(t_relative),
		T(t_absolute),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
