// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/act/track.c and track_apply.c on a repository the
 * test makes with the git command: a commit with the report's Closes:
 * landing on the tracked branch makes its record 'fix landed' and is
 * answered once in its thread; a walk again finds nothing new; a fix
 * named by title before it landed is looked for in the history; one
 * named by sha; a revert takes the fix away; a force-push that rewrites
 * the fix moves the record quietly, one that drops it takes it back;
 * nothing without tracking.repo; 'perfbot check''s look at the tree.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "perfbot/act/track.h"
#include "perfbot/ingest/gittree.h"
#include "perfbot/state/outbox.h"
#include "testlife.h"

#define RCPTS "[\"dev@example.test\",\"list@example.test\"]"

static int setup(void **state)
{
	struct tl *t = tl_new("test_track");
	char extra[PATH_MAX + 128];

	*state = t;
	if (!t)
		return -1;
	tl_git_init(t, TL_T0 - 10 * TL_DAY);
	snprintf(extra, sizeof(extra), "tracking:\n  repo: %s\n"
		 "  branches: [master]\n", t->repo);
	tl_config(t, extra);
	tl_report(t, "r1", "[tree] r1", RCPTS, TL_T0, "aim7.jobs-per-min", -18,
		  1);
	tl_report(t, "r2", "[tree] r2", RCPTS, TL_T0 + 1, "fio.bw", -7, 1);
	return 0;
}

static int teardown(void **state)
{
	tl_free(*state);
	return 0;
}

static void step(struct tl *t, time_t now, struct track_stats *ts)
{
	if (track_step(t->st, &t->cfg, now, ts, &t->err))
		fail_msg("track_step: %s", t->err.msg);
}

/* How many answers were queued in the thread of report 'id'. */
static size_t answers(struct tl *t, const char *id)
{
	char want[128];
	size_t i, n = 0;

	snprintf(want, sizeof(want), "In-Reply-To: <%s@example.test>", id);
	tl_queued(t);
	for (i = 0; i < t->nout; i++)
		n += !strcmp(t->out[i].kind, "answer") &&
		     strstr(t->out[i].message, want) != NULL;
	return n;
}

static void t_closes_lands_once(void **state)
{
	struct tl *t = *state;
	struct track_stats ts;
	const struct outbox_mail *m;
	char sha[GIT_SHA_HEX];
	struct record r;

	step(t, TL_T0 + 60, &ts);
	assert_int_equal(ts.branches, 1);
	assert_int_equal(ts.landed, 0);
	tl_commit(t, "aim7: fix the regression\n\nWords.\n\n"
		  "Reported-by: perfbot <" TL_BOT ">\n"
		  "Closes: " TL_ARCHIVE "r1@example.test\n"
		  "Signed-off-by: Dev <dev@example.test>\n", TL_T0 + TL_DAY);
	tl_rev(t, "master", sha);
	step(t, TL_T0 + 2 * TL_DAY, &ts);
	assert_int_equal(ts.landed, 1);
	assert_int_equal(ts.walked, 1);
	tl_record(t, "r1", &r);
	assert_string_equal(r.status, "fix landed");
	assert_string_equal(r.fix_commit, sha);
	assert_string_equal(r.fix_summary, "aim7: fix the regression");
	assert_string_equal(r.fix_branch, "master");
	assert_int_equal(r.fix_date, TL_T0 + TL_DAY);
	record_release(&r);
	tl_status_is(t, "r2", "open");
	assert_int_equal(answers(t, "r1"), 1);
	m = tl_mail_with(t, "The fix of this report has landed in master");
	assert_non_null(m);
	assert_non_null(strstr(m->message, "names this report by its Closes: "
			       "trailer"));
	assert_non_null(strstr(m->message, "The report's status is now \"fix "
			       "landed\"."));
	/* without tracking.verify no run is asked */
	assert_null(strstr(m->message, "benchmark farm"));
	/* to the report's recipients, in its thread */
	assert_non_null(strstr(m->recipients, "dev@example.test"));
	assert_non_null(strstr(m->recipients, "list@example.test"));
	assert_non_null(strstr(m->message, "References: <r1@example.test>"));
	/* again: nothing new, nothing said twice */
	step(t, TL_T0 + 3 * TL_DAY, &ts);
	assert_int_equal(ts.walked, 0);
	assert_int_equal(ts.landed, 0);
	assert_int_equal(answers(t, "r1"), 1);
}

/* Record 'id' as 'fix:' leaves it: "fix named", 'named'. */
static void name_fix(struct tl *t, const char *id, const char *named)
{
	struct record r;

	tl_record(t, id, &r);
	free(r.status);
	r.status = strdup("fix named");
	r.fix_named = strdup(named);
	assert_int_equal(state_record_put(t->st, &r, NULL, TL_T0 + 70,
					  &t->err), 0);
	record_release(&r);
}

/* 'fix:' named a commit that had landed already: found in the history. */
static void t_named_title(void **state)
{
	struct tl *t = *state;
	struct track_stats ts;
	struct record r;
	char sha[GIT_SHA_HEX];

	tl_commit(t, "fio: restore the old order\n", TL_T0 - TL_DAY);
	tl_rev(t, "master", sha);
	step(t, TL_T0 + 60, &ts);
	tl_status_is(t, "r2", "open");
	name_fix(t, "r2", "fio: restore the old order");
	step(t, TL_T0 + 120, &ts);
	assert_int_equal(ts.landed, 1);
	tl_record(t, "r2", &r);
	assert_string_equal(r.status, "fix landed");
	assert_string_equal(r.fix_commit, sha);
	record_release(&r);
	assert_non_null(tl_mail_with(t, "by its title."));
	step(t, TL_T0 + 180, &ts);
	assert_int_equal(ts.landed, 0);
	assert_int_equal(answers(t, "r2"), 1);
}

/* A named fix not in the tree: looked for once, then only new commits. */
static void t_named_not_found(void **state)
{
	struct tl *t = *state;
	struct track_stats ts;
	struct record r;

	step(t, TL_T0 + 60, &ts);
	name_fix(t, "r2", "fio: not there yet");
	step(t, TL_T0 + 120, &ts);
	assert_int_equal(ts.walked, 1);
	tl_record(t, "r2", &r);
	assert_string_equal(r.status, "fix named");
	assert_int_equal(r.searched, 1);
	record_release(&r);
	step(t, TL_T0 + 180, &ts);
	assert_int_equal(ts.walked, 0);
	/* it lands later: found among the new commits */
	tl_commit(t, "fio: not there yet\n", TL_T0 + TL_DAY);
	step(t, TL_T0 + 2 * TL_DAY, &ts);
	assert_int_equal(ts.walked, 1);
	tl_status_is(t, "r2", "fix landed");
}

static void t_named_sha(void **state)
{
	struct tl *t = *state;
	struct track_stats ts;
	struct record r;
	char sha[GIT_SHA_HEX], named[13];

	tl_commit(t, "anything\n", TL_T0 - TL_DAY);
	tl_rev(t, "master", sha);
	tl_commit(t, "later\n", TL_T0 - TL_DAY + 10);
	step(t, TL_T0 + 60, &ts);
	snprintf(named, sizeof(named), "%.12s", sha);
	name_fix(t, "r2", named);
	step(t, TL_T0 + 120, &ts);
	tl_record(t, "r2", &r);
	assert_string_equal(r.status, "fix landed");
	assert_string_equal(r.fix_commit, sha);
	record_release(&r);
}

/*
 * 'fix: SHA ("TITLE")' names both: the patch applied again under another
 * sha (as maintainers do) is found by its title, and the answer says it
 * landed under another sha; the sha named still finds its own commit.
 */
static void t_named_sha_and_title(void **state)
{
	struct tl *t = *state;
	struct track_stats ts;
	struct record r;
	char sha[GIT_SHA_HEX];
	const struct outbox_mail *m;

	step(t, TL_T0 + 60, &ts);
	name_fix(t, "r2", "deadbeef0123 (\"fio: skip the time update\")");
	step(t, TL_T0 + 120, &ts);
	tl_status_is(t, "r2", "fix named");
	tl_commit(t, "fio: skip the time update\n\nApplied again.\n",
		  TL_T0 + TL_DAY);
	tl_rev(t, "master", sha);
	step(t, TL_T0 + 2 * TL_DAY, &ts);
	assert_int_equal(ts.landed, 1);
	tl_record(t, "r2", &r);
	assert_string_equal(r.status, "fix landed");
	assert_string_equal(r.fix_commit, sha);
	record_release(&r);
	m = tl_mail_with(t, "by its title.");
	assert_non_null(m);
	assert_non_null(strstr(m->message, "It landed under another sha than "
			       "the one named (deadbeef0123)"));
}

static void t_revert(void **state)
{
	struct tl *t = *state;
	struct track_stats ts;
	char sha[GIT_SHA_HEX], msg[512];

	step(t, TL_T0 + 60, &ts);
	tl_commit(t, "aim7: fix the regression\n\nLink: <" TL_ARCHIVE
		  "r1@example.test>\n", TL_T0 + TL_DAY);
	tl_rev(t, "master", sha);
	step(t, TL_T0 + 2 * TL_DAY, &ts);
	tl_status_is(t, "r1", "fix landed");
	snprintf(msg, sizeof(msg), "Revert \"aim7: fix the regression\"\n\n"
		 "This reverts commit %s.\n", sha);
	tl_commit(t, msg, TL_T0 + 3 * TL_DAY);
	step(t, TL_T0 + 4 * TL_DAY, &ts);
	assert_int_equal(ts.gone, 1);
	tl_status_is(t, "r1", "open");
	assert_non_null(tl_mail_with(t, "was\nreverted in master by commit"));
	assert_int_equal(answers(t, "r1"), 2);
}

/* A fix and its revert in one walk: applied in the order of the commits. */
static void t_fix_and_revert_at_once(void **state)
{
	struct tl *t = *state;
	struct track_stats ts;
	char sha[GIT_SHA_HEX], msg[512];

	step(t, TL_T0 + 60, &ts);
	tl_commit(t, "aim7: fix the regression\n\nCloses: " TL_ARCHIVE
		  "r1@example.test\n", TL_T0 + TL_DAY);
	tl_rev(t, "master", sha);
	snprintf(msg, sizeof(msg), "Revert \"aim7: fix the regression\"\n\n"
		 "This reverts commit %s.\n", sha);
	tl_commit(t, msg, TL_T0 + TL_DAY + 5);
	step(t, TL_T0 + 2 * TL_DAY, &ts);
	assert_int_equal(ts.landed, 1);
	assert_int_equal(ts.gone, 1);
	tl_status_is(t, "r1", "open");
}

static void t_force_push(void **state)
{
	struct tl *t = *state;
	struct track_stats ts;
	char sha[GIT_SHA_HEX], sha2[GIT_SHA_HEX];
	struct record r;

	step(t, TL_T0 + 60, &ts);
	tl_commit(t, "aim7: fix the regression\n\nCloses: " TL_ARCHIVE
		  "r1@example.test\n", TL_T0 + TL_DAY);
	tl_rev(t, "master", sha);
	step(t, TL_T0 + 2 * TL_DAY, &ts);
	/* rewritten: the same fix, a new sha; the record moves, quietly */
	tl_sh("git -C %s reset -q --hard master~1", t->repo);
	tl_commit(t, "aim7: fix the regression (v2)\n\nCloses: " TL_ARCHIVE
		  "r1@example.test\n", TL_T0 + 2 * TL_DAY);
	tl_rev(t, "master", sha2);
	assert_string_not_equal(sha, sha2);
	step(t, TL_T0 + 3 * TL_DAY, &ts);
	tl_record(t, "r1", &r);
	assert_string_equal(r.status, "fix landed");
	assert_string_equal(r.fix_commit, sha2);
	record_release(&r);
	assert_int_equal(answers(t, "r1"), 1);
	/* dropped: back to open, said so */
	tl_sh("git -C %s reset -q --hard master~1", t->repo);
	tl_commit(t, "something else\n", TL_T0 + 3 * TL_DAY);
	step(t, TL_T0 + 4 * TL_DAY, &ts);
	assert_int_equal(ts.gone, 1);
	tl_status_is(t, "r1", "open");
	assert_non_null(tl_mail_with(t, "is no\nlonger in master: the branch "
				     "was rewritten without it."));
	assert_int_equal(answers(t, "r1"), 2);
}

/* An invalid report is not followed: its fix changes nothing. */
static void t_closed_not_followed(void **state)
{
	struct tl *t = *state;
	struct track_stats ts;
	struct record r;

	tl_record(t, "r1", &r);
	free(r.status);
	r.status = strdup("invalid");
	assert_int_equal(state_record_put(t->st, &r, NULL, TL_T0 + 1,
					  &t->err), 0);
	record_release(&r);
	step(t, TL_T0 + 60, &ts);
	tl_commit(t, "aim7: fix\n\nCloses: " TL_ARCHIVE "r1@example.test\n",
		  TL_T0 + TL_DAY);
	step(t, TL_T0 + 2 * TL_DAY, &ts);
	tl_status_is(t, "r1", "invalid");
	assert_int_equal(answers(t, "r1"), 0);
}

/*
 * tracking.verify: the landing asks the farm in its transaction; a report
 * whose manifest was not kept cannot be run, so the request is recorded
 * rejected and the landing's answer says the farm did not take it.
 */
static void t_verify_on_landing(void **state)
{
	struct tl *t = *state;
	struct track_stats ts;
	struct request *v = NULL;
	struct record r;
	char extra[PATH_MAX + 512];

	snprintf(extra, sizeof(extra), "tracking:\n  repo: %s\n"
		 "  branches: [master]\n  verify: true\n"
		 "scheduler:\n  backend: exec\n  argv: [/bin/true]\n"
		 "  results_dir: %s\n", t->repo, t->dir);
	tl_config(t, extra);
	step(t, TL_T0 + 60, &ts);
	tl_commit(t, "aim7: fix the regression\n\nCloses: " TL_ARCHIVE
		  "r1@example.test\n", TL_T0 + TL_DAY);
	step(t, TL_T0 + 2 * TL_DAY, &ts);
	assert_int_equal(ts.landed, 1);
	assert_int_equal(ts.verify, 0);
	tl_record(t, "r1", &r);
	assert_string_equal(r.status, "fix landed");
	assert_non_null(r.verify_request);
	assert_int_equal(state_request_get(t->st, r.verify_request, &v,
					   &t->err), 0);
	assert_non_null(v);
	assert_string_equal(v->status, "rejected");
	assert_non_null(strstr(v->detail, "manifest was not kept"));
	request_rows_free(v, 1);
	record_release(&r);
	assert_non_null(tl_mail_with(t, "I could not have the job run on that "
				     "commit: the benchmark farm did not take"));
	assert_int_equal(answers(t, "r1"), 1);
}

static void t_off_and_check(void **state)
{
	struct tl *t = *state;
	struct track_stats ts;
	char line[512], extra[PATH_MAX + 128];

	assert_int_equal(track_check(&t->cfg, line, sizeof(line), &t->err), 0);
	assert_non_null(strstr(line, "'master' at "));
	snprintf(extra, sizeof(extra), "tracking:\n  repo: %s\n"
		 "  branches: [master, nonesuch]\n", t->repo);
	tl_config(t, extra);
	assert_int_equal(track_check(&t->cfg, line, sizeof(line), &t->err), -1);
	assert_non_null(strstr(t->err.msg, "'nonesuch': no such branch"));
	snprintf(extra, sizeof(extra), "tracking:\n  repo: %s\n"
		 "  verify: true\n", t->repo);
	tl_config(t, extra);
	assert_int_equal(track_check(&t->cfg, line, sizeof(line), &t->err), -1);
	assert_non_null(strstr(t->err.msg, "tracking.verify: "));
	tl_config(t, NULL);
	step(t, TL_T0, &ts);
	assert_int_equal(ts.branches, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(t_closes_lands_once, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_named_title, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_named_not_found, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_named_sha, setup, teardown),
		cmocka_unit_test_setup_teardown(t_named_sha_and_title, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_revert, setup, teardown),
		cmocka_unit_test_setup_teardown(t_fix_and_revert_at_once, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_force_push, setup, teardown),
		cmocka_unit_test_setup_teardown(t_closed_not_followed, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_verify_on_landing, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_off_and_check, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
