// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/act/bisect.c (issue 33 item 2): the rounds driver
 * over the fake farm (fake-lkp-run, kind bisect) and a real git
 * repository made with libgit2. A bisection is started from a range
 * report's runs, each cycle its due round lands (a commit that fails to
 * build a skip) and the next is asked in one round trip with several
 * commits in flight, its state kept across cycles in the bisections
 * table, until the planted culprit is named; a farm that refuses
 * everything ends it inconclusive. Run from the repository root after
 * 'make build/tools/fake-lkp-run'.
 */
#include <limits.h>
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
#include <git2.h>

#include "perfbot/act/bisect.h"
#include "perfbot/state/bisections.h"
#include "perfbot/state/requests.h"

#include "testutil.h"
#include "teststate.h"

#define LINE 60			/* commits after the base */
#define CULPRIT 37
#define FAILS 36		/* the culprit's parent does not build */
#define METRIC "bench.score"
#define FARM "[\"%s/scripts/fake-lkp-run\", \"{result_root}\", " \
	"\"{commit}\", \"{runs}\", \"{request_id}\", \"{kind}\", \"{job}\", " \
	"\"{repo}\", \"{ref}\", \"{patch}\"]"

static const char matrix[] =
	"{\"" METRIC "\": [1000, 970, 990, 1010, 1030, 996, 1004, 985, 1015, "
	"1000], \"stats_source\": [\"a\", \"b\", \"c\", \"d\", \"e\", \"f\", "
	"\"g\", \"h\", \"i\", \"j\"]}\n";

struct fx {
	char dir[64];
	char top[PATH_MAX], path[PATH_MAX], repo[PATH_MAX], job[PATH_MAX];
	char results[PATH_MAX];
	char line[LINE + 1][GIT_SHA_HEX];
	struct config cfg;
	int loaded;
	struct state *st;
	struct gittree *t;
	struct pb_err err;
};

static void commit(git_repository *git, const git_oid *parent, int i,
		   git_oid *id)
{
	git_commit *pc = NULL;
	const git_commit *parents[1];
	git_treebuilder *tb = NULL;
	git_signature *sig = NULL;
	git_tree *tree = NULL;
	git_oid blob, tid;
	char text[32];

	snprintf(text, sizeof(text), "%d\n", i);
	assert_int_equal(git_blob_create_from_buffer(&blob, git, text,
						     strlen(text)), 0);
	assert_int_equal(git_treebuilder_new(&tb, git, NULL), 0);
	assert_int_equal(git_treebuilder_insert(NULL, tb, "f", &blob,
						GIT_FILEMODE_BLOB), 0);
	assert_int_equal(git_treebuilder_write(&tid, tb), 0);
	assert_int_equal(git_tree_lookup(&tree, git, &tid), 0);
	if (parent) {
		assert_int_equal(git_commit_lookup(&pc, git, parent), 0);
		parents[0] = pc;
	}
	assert_int_equal(git_signature_new(&sig, "A U Thor", "a@example.test",
					   1739548080 + i, 0), 0);
	assert_int_equal(git_commit_create(id, git, "HEAD", sig, sig, NULL,
					   text, tree, parent ? 1 : 0,
					   parents), 0);
	git_signature_free(sig);
	git_tree_free(tree);
	git_treebuilder_free(tb);
	git_commit_free(pc);
}

static void make_repo(struct fx *f)
{
	git_repository *git = NULL;
	git_oid prev, id;
	int i;

	tu_path(f->repo, sizeof(f->repo), f->dir, "git");
	assert_int_equal(git_repository_init(&git, f->repo, 0), 0);
	commit(git, NULL, 0, &prev);
	git_oid_tostr(f->line[0], GIT_SHA_HEX, &prev);
	for (i = 1; i <= LINE; i++) {
		commit(git, &prev, i, &id);
		prev = id;
		git_oid_tostr(f->line[i], GIT_SHA_HEX, &id);
	}
	git_repository_free(git);
}

static void configure(struct fx *f, const char *argv)
{
	struct strbuf y = STRBUF_INIT, a = STRBUF_INIT;

	if (argv)
		assert_int_equal(sb_adds(&a, argv), 0);
	else
		assert_int_equal(sb_addf(&a, FARM, f->top), 0);
	assert_int_equal(sb_addf(&y, "identity:\n"
				 "  from: \"perfbot <perfbot@example.test>\"\n"
				 "scheduler:\n  backend: exec\n  argv: %s\n"
				 "  results_dir: %s\n  deadline: 3600\n"
				 "tracking:\n  repo: %s\n",
				 sb_str(&a), f->results, f->repo), 0);
	if (f->loaded)
		config_release(&f->cfg);
	f->loaded = 0;
	tu_load_config(&f->cfg, &f->loaded, f->path, sb_str(&y), &f->err);
	sb_release(&y);
	sb_release(&a);
}

static int setup(void **state)
{
	struct fx *f = TU_NEW_FX(struct fx, "test_bisect_act");
	char root[PATH_MAX], db[PATH_MAX], trees[512];

	if (!f)
		return -1;
	*state = f;
	assert_non_null(getcwd(f->top, sizeof(f->top)));
	git_libgit2_init();
	make_repo(f);
	tu_path(root, sizeof(root), f->dir, "template");
	assert_int_equal(mkdir(root, 0755), 0);
	tu_put(root, "matrix.json", matrix, 0644);
	tu_put(root, "job.yaml", "testcase: bench\ntbox_group: lkp-x\n", 0644);
	tu_path(f->job, sizeof(f->job), root, "job.yaml");
	tu_path(f->results, sizeof(f->results), f->dir, "results");
	assert_int_equal(mkdir(f->results, 0755), 0);
	snprintf(trees, sizeof(trees), "%s " METRIC " *0.95\n"
		 "%s build fails\n", f->line[CULPRIT], f->line[FAILS]);
	tu_put(f->results, "fake-lkp-trees", trees, 0644);
	tu_path(f->path, sizeof(f->path), f->dir, "perfbot.yaml");
	configure(f, NULL);
	tu_path(db, sizeof(db), f->dir, "state.db");
	assert_int_equal(tu_state_open(&f->st, db, STATE_WRITE, &f->err), 0);
	assert_int_equal(gittree_open(&f->t, f->repo, &f->err), 0);
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	gittree_close(f->t);
	state_close(f->st);
	if (f->loaded)
		config_release(&f->cfg);
	git_libgit2_shutdown();
	tu_rmtree(f->dir);
	free(f);
	return 0;
}

static void start(struct fx *f)
{
	static const double base[] = { 1000, 985, 1012, 996, 1020, 990, 1005,
				       978, 1010, 1001 };
	double head[10];
	struct bisect_start s;
	size_t i;

	for (i = 0; i < 10; i++)
		head[i] = base[i] * 0.95;
	s = (struct bisect_start){ "r-1", "/m/range.yaml", f->job, METRIC, -1,
				   f->line[0], f->line[LINE], base, head, 10,
				   10 };
	s.nbase = s.nhead = 10;
	assert_int_equal(bisect_act_start(f->st, &f->cfg, f->t, &s, 1000,
					  &f->err), 0);
}

/* Started, and its first round asked at 'now'. */
static void start_round(struct fx *f, time_t now, struct bisect_round *out)
{
	start(f);
	assert_int_equal(bisect_act_round(f->st, &f->cfg, "bisect-r-1", now,
					  out, &f->err), 0);
}

static struct bisect *load(struct fx *f, struct bisect *b)
{
	struct bisection_row *row = NULL;

	assert_int_equal(state_bisection_get(f->st, "bisect-r-1", &row,
					     &f->err), 0);
	assert_non_null(row);
	assert_int_equal(bisect_from_json(b, row->state, &f->err), 0);
	assert_string_equal(row->report_id, "r-1");
	assert_string_equal(row->phase, bisect_phase_name(b->phase));
	bisection_rows_free(row, 1);
	return b;
}

static void t_finds_culprit(void **state)
{
	struct fx *f = *state;
	struct bisect_stats bs;
	struct bisect_round out;
	struct bisect b = { 0 };
	struct request *rq = NULL;
	size_t n = 0, i, failed = 0;
	int cycles = 0;
	time_t now = 1000;

	/* started: nothing asked until its first round */
	start(f);
	assert_int_equal(state_requests_of(f->st, "bisect-r-1", "bisect", &rq,
					   &n, &f->err), 0);
	assert_int_equal(n, 0);
	start_round(f, now, &out);
	assert_int_equal(out.phase, BISECT_SEARCH);
	assert_int_equal(out.round, 1);
	/* the first round is asked at once: several commits in flight */
	assert_int_equal(state_requests_of(f->st, "bisect-r-1", "bisect", &rq,
					   &n, &f->err), 0);
	assert_true(n >= 2);
	for (i = 0; i < n; i++) {
		assert_string_equal(rq[i].status, "queued");
		assert_string_equal(rq[i].metric, METRIC);
	}
	request_rows_free(rq, n);
	/* starting again changes nothing */
	start(f);
	assert_int_equal(state_requests_of(f->st, "bisect-r-1", "bisect", &rq,
					   &i, &f->err), 0);
	assert_int_equal(i, n);
	request_rows_free(rq, i);
	do {
		now += 600;
		assert_int_equal(bisect_followups(f->st, &f->cfg, now, &bs,
						  &f->err), 0);
		assert_true(bs.open <= 1);
	} while (bs.open && bs.done == 0 && ++cycles < 20);
	load(f, &b);
	assert_int_equal(b.phase, BISECT_CULPRIT);
	assert_string_equal(b.p[b.culprit].sha, f->line[CULPRIT]);
	assert_true(b.rounds <= b.par.max_rounds);
	assert_true(b.runs <= b.par.max_runs);
	bisect_release(&b);
	/* every request ended; the one that did not build 'failed' */
	assert_int_equal(state_requests_of(f->st, "bisect-r-1", "bisect", &rq,
					   &n, &f->err), 0);
	for (i = 0; i < n; i++) {
		assert_true(!strcmp(rq[i].status, "done") ||
			    !strcmp(rq[i].status, "failed"));
		if (!strcmp(rq[i].status, "failed")) {
			assert_string_equal(rq[i].commit, f->line[FAILS]);
			failed++;
		}
	}
	assert_true(failed <= 1);
	request_rows_free(rq, n);
	/* done: no longer open */
	assert_int_equal(bisect_followups(f->st, &f->cfg, now + 600, &bs,
					  &f->err), 0);
	assert_int_equal(bs.open, 0);
}

/* A farm that takes nothing: inconclusive, never a culprit. */
static void t_farm_refuses(void **state)
{
	struct fx *f = *state;
	struct bisect_round out;
	struct bisect b = { 0 };
	struct bisect_verdict v;

	configure(f, "[/bin/false]");
	start_round(f, 1000, &out);
	load(f, &b);
	assert_int_equal(b.phase, BISECT_INCONCLUSIVE);
	assert_int_equal(bisect_verdict_of(&b, &v, &f->err), 0);
	assert_string_equal(v.why, "the farm could not run a commit it "
			    "needed");
	bisect_release(&b);
	assert_int_equal(bisect_act_round(f->st, &f->cfg, "bisect-nope", 1,
					  &out, &f->err), -1);
	assert_int_equal(f->err.code, EX_DATAERR);
}

/* Past its deadline with nothing out: inconclusive at once. */
static void t_deadline(void **state)
{
	struct fx *f = *state;
	struct bisect_round out;
	struct bisect b = { 0 };

	start_round(f, 1000, &out);
	/* its round lands; the next cycle is past every deadline */
	assert_int_equal(bisect_act_round(f->st, &f->cfg, "bisect-r-1",
					  1000 + 100L * 86400, &out, &f->err),
			 0);
	assert_int_equal(out.phase, BISECT_INCONCLUSIVE);
	load(f, &b);
	assert_int_equal(b.why, BISECT_WHY_DEADLINE);
	bisect_release(&b);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(t_finds_culprit),
		T(t_farm_refuses),
		T(t_deadline),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
