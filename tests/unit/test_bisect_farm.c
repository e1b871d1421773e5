// SPDX-License-Identifier: GPL-2.0-only
/*
 * The core of issue 33 end to end, without the request machinery: a real
 * git repository made with libgit2 (a first-parent line with merged side
 * branches), the candidates listed from it (bisect_range.c), the
 * bisection (bisect.c) asking the fake farm (fake-lkp-run, kind bisect)
 * for result roots of each commit over a planted truth, and read back as
 * perfbot reads them. The culprit sits inside a merge, commits around it
 * fail to build: the first-parent bisection names the merge, the
 * bisection inside it the commit. Run from the repository root after
 * 'make build/tools/fake-lkp-run'.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#include <cmocka.h>
#include <git2.h>

#include "perfbot/ingest/bisect_range.h"
#include "perfbot/ingest/result.h"
#include "perfbot/judge/bisect.h"

#include "testutil.h"

#define TOOL "scripts/fake-lkp-run"
#define LINE 300		/* first-parent commits after the base */
#define MERGE_AT 220		/* the merge that brings the culprit */
#define SIDE 3			/* commits of each side branch */
#define METRIC "bench.score"

/* CV about 2% around 1000 */
static const char matrix[] =
	"{\"" METRIC "\": [1000, 970, 990, 1010, 1030, 996, 1004, 985, 1015, "
	"1000], \"stats_source\": [\"a\", \"b\", \"c\", \"d\", \"e\", \"f\", "
	"\"g\", \"h\", \"i\", \"j\"]}\n";

struct fx {
	char dir[64];
	char repo[128], job[128];
	git_repository *git;
	char line[LINE + 1][GIT_SHA_HEX];	/* line[0] the base */
	char side[SIDE][GIT_SHA_HEX];		/* of the merge at MERGE_AT */
	int requests;
	struct pb_err err;
};

/* A commit of file "f" holding 'i' on 'np' parents. */
static void commit(struct fx *f, const git_oid *p1, const git_oid *p2,
		   int i, git_oid *id)
{
	const git_commit *parents[2];
	git_commit *pc[2] = { NULL, NULL };
	git_treebuilder *tb = NULL;
	git_signature *sig = NULL;
	git_tree *tree = NULL;
	git_oid blob, tid;
	char text[32];
	size_t n = 0;

	snprintf(text, sizeof(text), "%d\n", i);
	assert_int_equal(git_blob_create_from_buffer(&blob, f->git, text,
						     strlen(text)), 0);
	assert_int_equal(git_treebuilder_new(&tb, f->git, NULL), 0);
	assert_int_equal(git_treebuilder_insert(NULL, tb, "f", &blob,
						GIT_FILEMODE_BLOB), 0);
	assert_int_equal(git_treebuilder_write(&tid, tb), 0);
	assert_int_equal(git_tree_lookup(&tree, f->git, &tid), 0);
	if (p1) {
		assert_int_equal(git_commit_lookup(&pc[n], f->git, p1), 0);
		parents[n] = pc[n];
		n++;
	}
	if (p2) {
		assert_int_equal(git_commit_lookup(&pc[n], f->git, p2), 0);
		parents[n] = pc[n];
		n++;
	}
	assert_int_equal(git_signature_new(&sig, "Dev", "dev@example.test",
					   1739548080 + i, 0), 0);
	snprintf(text, sizeof(text), "change %d\n", i);
	assert_int_equal(git_commit_create(id, f->git, NULL, sig, sig, NULL,
					   text, tree, n, parents), 0);
	git_signature_free(sig);
	git_tree_free(tree);
	git_treebuilder_free(tb);
	git_commit_free(pc[0]);
	git_commit_free(pc[1]);
}

/* The line, a side branch of SIDE commits merged every 40 commits. */
static void make_repo(struct fx *f)
{
	git_oid prev, side, id;
	int i, k;

	git_libgit2_init();
	tu_path(f->repo, sizeof(f->repo), f->dir, "git");
	assert_int_equal(git_repository_init(&f->git, f->repo, 1), 0);
	commit(f, NULL, NULL, 0, &prev);
	git_oid_tostr(f->line[0], GIT_SHA_HEX, &prev);
	for (i = 1; i <= LINE; i++) {
		if (i % 40 == MERGE_AT % 40) {
			side = prev;
			for (k = 0; k < SIDE; k++) {
				commit(f, &side, NULL, 10000 * i + k, &id);
				side = id;
				if (i == MERGE_AT)
					git_oid_tostr(f->side[k], GIT_SHA_HEX,
						      &id);
			}
			commit(f, &prev, &side, i, &id);
		} else {
			commit(f, &prev, NULL, i, &id);
		}
		prev = id;
		git_oid_tostr(f->line[i], GIT_SHA_HEX, &id);
	}
}

static int setup(void **state)
{
	struct fx *f = TU_NEW_FX(struct fx, "test_bisect_farm");
	char root[128], trees[1024];

	if (!f)
		return -1;
	*state = f;
	make_repo(f);
	/* the result root the farm draws around */
	tu_path(root, sizeof(root), f->dir, "template");
	assert_int_equal(mkdir(root, 0755), 0);
	tu_put(root, "matrix.json", matrix, 0644);
	tu_put(root, "job.yaml", "testcase: bench\ntbox_group: lkp-x\n", 0644);
	tu_path(f->job, sizeof(f->job), root, "job.yaml");
	/*
	 * The truth: the culprit is the merge's second side commit; the
	 * merge's first parent, the side's first commit and two more do
	 * not build.
	 */
	snprintf(trees, sizeof(trees), "%s " METRIC " *0.95\n"
		 "%s build fails\n%s build fails\n%s build fails\n"
		 "%s build fails\n", f->side[1], f->line[MERGE_AT - 1],
		 f->side[0], f->line[100], f->line[MERGE_AT + 3]);
	tu_put(f->dir, "fake-lkp-trees", trees, 0644);
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	git_repository_free(f->git);
	git_libgit2_shutdown();
	tu_rmtree(f->dir);
	free(f);
	return 0;
}

/*
 * Ask the farm for 'runs' runs of 'sha': 0 with the values in 'v'
 * ('*n' of them), 1 when it did not build.
 */
static int farm(struct fx *f, const char *sha, long runs, double *v,
		size_t *n)
{
	char out[128], id[32], nruns[16];
	const char *argv[] = { TOOL, out, sha, nruns, id, "bisect", f->job,
			       f->repo, "", "", NULL };
	struct result_root rr;
	struct pb_err err;
	const struct metric *m;
	pid_t pid;
	int st, fd;
	size_t i;

	snprintf(id, sizeof(id), "bisect-%d", ++f->requests);
	snprintf(nruns, sizeof(nruns), "%ld", runs);
	tu_path(out, sizeof(out), f->dir, id);
	assert_int_equal(mkdir(out, 0755), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		fd = open("/dev/null", O_WRONLY);
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
		execv(TOOL, (char **)argv);
		_exit(127);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	if (WEXITSTATUS(st) == 65)
		return 1;
	assert_int_equal(WEXITSTATUS(st), 0);
	if (result_root_load(&rr, out, &err))
		fail_msg("%s", err.msg);
	m = result_root_find(&rr, METRIC);
	assert_non_null(m);
	assert_int_equal(rr.runs, (size_t)runs);
	for (i = 0; i < rr.runs; i++)
		v[i] = metric_values(&rr, m)[i];
	*n = rr.runs;
	result_root_release(&rr);
	return 0;
}

/* Drive a bisection to its end through the farm. */
static void bisect_through(struct fx *f, struct bisect *b,
			   struct bisect_step *st)
{
	struct seq_params sp;
	struct seq_design d;
	double v[BISECT_MAX_RUNS_AT];
	size_t a, n;

	bisect_sandwich_params(&sp, b->par.direction);
	assert_int_equal(seq_design_init(&d, &sp, &f->err), 0);
	for (;;) {
		assert_int_equal(bisect_next(b, &d, st, &f->err), 0);
		if (st->phase != BISECT_SEARCH && st->phase != BISECT_VERIFY)
			return;
		for (a = 0; a < st->nask; a++) {
			size_t at = st->ask[a].at;

			if (farm(f, b->p[at].sha, st->ask[a].runs, v, &n))
				assert_int_equal(bisect_skip(b, at, &f->err),
						 0);
			else
				assert_int_equal(bisect_add_runs(b, at, v, n,
								 &f->err), 0);
		}
	}
}

static void t_merge_culprit(void **state)
{
	struct fx *f = *state;
	struct bisect_range r = { NULL, 0 }, inner = { NULL, 0 };
	struct bisect_params par;
	struct bisect outer = { 0 }, in = { 0 };
	struct bisect_step st;
	struct gittree *g;
	double base[10], head[10];
	const struct bisect_point *parent, *culprit;
	size_t nb, nh;

	assert_int_equal(gittree_open(&g, f->repo, &f->err), 0);
	assert_int_equal(bisect_range_list(g, f->line[0], f->line[LINE], &r,
					   &f->err), 0);
	assert_int_equal(r.n, LINE);
	assert_int_equal(farm(f, f->line[0], 10, base, &nb), 0);
	assert_int_equal(farm(f, f->line[LINE], 10, head, &nh), 0);
	bisect_params_default(&par);
	assert_int_equal(bisect_init(&outer, &par, METRIC, f->line[0], base,
				     nb, &r, head, nh, &f->err), 0);
	bisect_through(f, &outer, &st);
	assert_int_equal(st.phase, BISECT_CULPRIT);
	culprit = &outer.p[st.v.culprit];
	parent = &outer.p[st.v.parent];
	/* the merge, after its first parent that did not build */
	assert_string_equal(culprit->sha, f->line[MERGE_AT]);
	assert_true(st.v.marks & BISECT_MERGE);
	assert_string_equal(parent->sha, f->line[MERGE_AT - 2]);
	assert_int_equal(st.v.skipped_before, 1);
	assert_true(outer.runs <= par.max_runs);

	/* inside the merge: its parent's and its own runs at the ends */
	assert_int_equal(bisect_range_merge(g, culprit->sha, &inner, &f->err),
			 0);
	assert_int_equal(inner.n, SIDE + 1);
	assert_int_equal(bisect_init(&in, &par, METRIC, parent->sha,
				     parent->runs, parent->nruns, &inner,
				     culprit->runs, culprit->nruns, &f->err), 0);
	bisect_through(f, &in, &st);
	assert_int_equal(st.phase, BISECT_CULPRIT);
	assert_string_equal(in.p[st.v.culprit].sha, f->side[1]);
	assert_int_equal(st.v.marks, 0);
	assert_int_equal(st.v.skipped_before, 1);
	assert_true(st.v.p >= 0.999);
	bisect_release(&in);
	bisect_release(&outer);
	bisect_range_release(&inner);
	bisect_range_release(&r);
	gittree_close(g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(t_merge_culprit, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
