// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/cycle/prune.c and src/state/prune.c, 'perfbot state
 * prune': the result roots perfbot made under scheduler.results_dir for
 * tests and verify runs over for scheduler.results_keep are removed
 * (with a test's saved patch); nothing else is: a request still queued,
 * one over too recently, a result root outside results_dir, a symbolic
 * link where the directory was (nor what it points to), what is linked
 * from inside a root, a directory no request names. --dry-run removes
 * nothing and counts the same.
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
#include "perfbot/cycle/prune.h"
#include "perfbot/state/records.h"
#include "perfbot/state/requests.h"
#include "perfbot/state/state.h"

#include "testutil.h"
#include "teststate.h"

#define T0 1739548080
#define DAY 86400

struct fx {
	char dir[64];
	char res[128];		/* <dir>/results */
	struct state *st;
	struct config cfg;
	struct pb_err err;
};

static const char *at(struct fx *f, const char *name)
{
	static char buf[4][320];
	static int k;

	k = (k + 1) % 4;
	snprintf(buf[k], sizeof(buf[k]), "%s/%s", f->dir, name);
	return buf[k];
}

static void test_row(struct fx *f, const char *rid, const char *root,
		     const char *end, time_t when)
{
	struct request_new rq = {
		.request_id = rid, .kind = "test", .report_id = "r-1",
		.form = "patch", .runs = 3, .requested_by = "a@example.test",
		.reply_message_id = "<m@x>", .commit = "abc",
		.result_root = root, .status = "queued", .deadline = T0 + DAY,
	};

	if (state_request_add(f->st, &rq, when, &f->err) ||
	    (end && state_request_set(f->st, rid, end, NULL, "x", when,
				      &f->err)))
		fail_msg("%s", f->err.msg);
}

static void mkroot(struct fx *f, const char *name)
{
	char sub[256];

	assert_int_equal(mkdir(at(f, name), 0755), 0);
	snprintf(sub, sizeof(sub), "%s/0", name);
	assert_int_equal(mkdir(at(f, sub), 0755), 0);
	snprintf(sub, sizeof(sub), "%s/matrix.json", name);
	tu_write(at(f, sub), "{\"a\": [1]}\n", 0644);
	snprintf(sub, sizeof(sub), "%s/0/job.yaml", name);
	tu_write(at(f, sub), "testcase: x\n", 0644);
}

static int setup(void **state)
{
	struct fx *f = TU_NEW_FX(struct fx, "test_prune");

	if (!f)
		return -1;
	tu_path(f->res, sizeof(f->res), f->dir, "results");
	assert_int_equal(mkdir(f->res, 0755), 0);
	assert_int_equal(mkdir(at(f, "outside"), 0755), 0);
	tu_write(at(f, "outside/victim"), "keep me\n", 0644);
	if (tu_state_open(&f->st, at(f, "perfbot.db"), STATE_WRITE, &f->err))
		fail_msg("%s", f->err.msg);
	f->cfg.scheduler.results_dir = f->res;
	f->cfg.scheduler.results_keep = 30 * DAY;
	/* over long ago: removed, with its patch; a link inside it */
	mkroot(f, "results/t-old");
	tu_write(at(f, "results/t-old.patch"), "diff\n", 0644);
	assert_int_equal(symlink(at(f, "outside"), at(f, "results/t-old/0/l")),
			 0);
	test_row(f, "t-old", at(f, "results/t-old"), "done", T0);
	/* still queued; over too recently */
	mkroot(f, "results/t-queued");
	test_row(f, "t-queued", at(f, "results/t-queued"), NULL, T0);
	mkroot(f, "results/t-new");
	test_row(f, "t-new", at(f, "results/t-new"), "done", T0 + 50 * DAY);
	/* a root that is not results_dir/ID; a link where the root was */
	mkroot(f, "outside/t-else");
	test_row(f, "t-else", at(f, "outside/t-else"), "done", T0);
	assert_int_equal(symlink(at(f, "outside"), at(f, "results/t-link")),
			 0);
	test_row(f, "t-link", at(f, "results/t-link"), "failed", T0);
	/* a verify run the farm refused */
	{
		char root[256];
		struct request_new v = {
			.request_id = "v-old", .kind = "verify",
			.report_id = "r-1", .commit = "def", .runs = 3,
			.result_root = root, .status = "rejected",
			.detail = "no", .deadline = T0 + DAY,
		};

		snprintf(root, sizeof(root), "%s", at(f, "results/v-old"));
		mkroot(f, "results/v-old");
		if (state_request_add(f->st, &v, T0, &f->err))
			fail_msg("%s", f->err.msg);
	}
	mkroot(f, "results/foreign");
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	state_close(f->st);
	tu_rmtree(f->dir);
	free(f);
	return 0;
}

static int there(struct fx *f, const char *name)
{
	struct stat st;

	return lstat(at(f, name), &st) == 0;
}

static void t_prune(void **state)
{
	struct fx *f = *state;
	struct prune_stats ps;
	time_t now = T0 + 60 * DAY;


	assert_int_equal(results_prune(&f->cfg, f->st, now, 1, &ps, &f->err),
			 0);
	assert_int_equal(ps.removed, 2);
	assert_true(there(f, "results/t-old/0/job.yaml"));
	assert_true(there(f, "results/v-old"));
	assert_int_equal(results_prune(&f->cfg, f->st, now, 0, &ps, &f->err),
			 0);
	assert_int_equal(ps.removed, 2);
	assert_true(ps.bytes > 0);
	assert_int_equal(ps.skipped, 2);	/* t-else, t-link */
	assert_false(there(f, "results/t-old"));
	assert_false(there(f, "results/t-old.patch"));
	assert_false(there(f, "results/v-old"));
	assert_true(there(f, "results/t-queued/matrix.json"));
	assert_true(there(f, "results/t-new/matrix.json"));
	assert_true(there(f, "outside/t-else/matrix.json"));
	assert_true(there(f, "results/t-link"));
	assert_true(there(f, "outside/victim"));
	assert_true(there(f, "results/foreign/matrix.json"));
	/* again: nothing more */
	assert_int_equal(results_prune(&f->cfg, f->st, now, 0, &ps, &f->err),
			 0);
	assert_int_equal(ps.removed, 0);
}

static void t_not_set(void **state)
{
	struct fx *f = *state;
	struct prune_stats ps;

	f->cfg.scheduler.results_keep = 0;
	assert_int_equal(results_prune(&f->cfg, f->st, T0 + 400 * DAY, 0, &ps,
				       &f->err), -1);
	assert_int_equal(f->err.code, EX_CONFIG);
	assert_non_null(strstr(f->err.msg, "scheduler.results_keep: not set"));
	assert_true(there(f, "results/t-old/matrix.json"));
	f->cfg.scheduler.results_keep = DAY;
	f->cfg.scheduler.results_dir = NULL;
	assert_int_equal(results_prune(&f->cfg, f->st, T0 + 400 * DAY, 0, &ps,
				       &f->err), -1);
	assert_true(there(f, "results/t-old/matrix.json"));
}

int main(void)
{
#define T(t) cmocka_unit_test_setup_teardown(t, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(t_prune),
		T(t_not_set),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
