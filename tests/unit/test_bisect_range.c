// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/ingest/bisect_range.c on a repository the test makes
 * with libgit2 (no git program): a first-parent line with an empty
 * commit, a merged side branch, an annotated and a lightweight tag; the
 * range oldest first with its marks, the inside of the merge, a base on
 * the side branch, and the ranges refused.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <git2.h>

#include "perfbot/ingest/bisect_range.h"
#include "testutil.h"

#define T0 1739548080

enum { C0, C1, C2, S1, S2, C3, M, C4, C5, NCOMMITS };

struct fx {
	char dir[64];
	git_repository *repo;
	char sha[NCOMMITS][GIT_SHA_HEX];
	git_oid id[NCOMMITS];
	struct bisect_range r;
	struct pb_err err;
};

/* A tree of files "a" and "b" ('b' NULL: none). */
static void tree_of(git_repository *repo, const char *a, const char *b,
		    git_oid *tree)
{
	git_treebuilder *tb = NULL;
	git_oid blob;

	assert_int_equal(git_treebuilder_new(&tb, repo, NULL), 0);
	assert_int_equal(git_blob_create_from_buffer(&blob, repo, a,
						     strlen(a)), 0);
	assert_int_equal(git_treebuilder_insert(NULL, tb, "a", &blob,
						GIT_FILEMODE_BLOB), 0);
	if (b) {
		assert_int_equal(git_blob_create_from_buffer(&blob, repo, b,
							     strlen(b)), 0);
		assert_int_equal(git_treebuilder_insert(NULL, tb, "b", &blob,
							GIT_FILEMODE_BLOB), 0);
	}
	assert_int_equal(git_treebuilder_write(tree, tb), 0);
	git_treebuilder_free(tb);
}

/* Commit 'k' with files a and b on parents p1 and p2 (-1: none). */
static void commit(struct fx *f, int k, const char *a, const char *b,
		   int p1, int p2)
{
	const git_commit *parents[2];
	git_commit *pc[2] = { NULL, NULL };
	git_signature *sig = NULL;
	git_tree *tree = NULL;
	git_oid tid;
	size_t n = 0;
	char msg[32];

	tree_of(f->repo, a, b, &tid);
	assert_int_equal(git_tree_lookup(&tree, f->repo, &tid), 0);
	if (p1 >= 0) {
		assert_int_equal(git_commit_lookup(&pc[n], f->repo,
						   &f->id[p1]), 0);
		parents[n] = pc[n];
		n++;
	}
	if (p2 >= 0) {
		assert_int_equal(git_commit_lookup(&pc[n], f->repo,
						   &f->id[p2]), 0);
		parents[n] = pc[n];
		n++;
	}
	assert_int_equal(git_signature_new(&sig, "Dev", "dev@example.test",
					   T0 + 60 * k, 0), 0);
	snprintf(msg, sizeof(msg), "commit %d\n", k);
	assert_int_equal(git_commit_create(&f->id[k], f->repo, NULL, sig, sig,
					   NULL, msg, tree, n, parents), 0);
	git_oid_tostr(f->sha[k], GIT_SHA_HEX, &f->id[k]);
	git_signature_free(sig);
	git_tree_free(tree);
	git_commit_free(pc[0]);
	git_commit_free(pc[1]);
}

/*
 *   C0 - C1 - C2 (empty) - C3 - M - C4 (tag v1.0, annotated) - C5 (z-rc, v1.0-b)
 *          \                  /
 *           S1 ----------- S2
 */
static int setup(void **state)
{
	struct fx *f = TU_NEW_FX(struct fx, "test_bisect_range");
	git_signature *sig = NULL;
	git_object *target = NULL;
	git_oid tag;

	if (!f)
		return -1;
	*state = f;
	git_libgit2_init();
	assert_int_equal(git_repository_init(&f->repo, f->dir, 1), 0);
	commit(f, C0, "0", NULL, -1, -1);
	commit(f, C1, "1", NULL, C0, -1);
	commit(f, C2, "1", NULL, C1, -1);
	commit(f, S1, "1", "s1", C1, -1);
	commit(f, S2, "1", "s2", S1, -1);
	commit(f, C3, "3", NULL, C2, -1);
	commit(f, M, "3", "s2", C3, S2);
	commit(f, C4, "4", "s2", M, -1);
	commit(f, C5, "5", "s2", C4, -1);
	assert_int_equal(git_signature_new(&sig, "Rel", "rel@example.test",
					   T0, 0), 0);
	assert_int_equal(git_object_lookup(&target, f->repo, &f->id[C4],
					   GIT_OBJECT_COMMIT), 0);
	assert_int_equal(git_tag_create(&tag, f->repo, "v1.0", target, sig,
					"release 1.0\n", 0), 0);
	git_object_free(target);
	assert_int_equal(git_object_lookup(&target, f->repo, &f->id[C5],
					   GIT_OBJECT_COMMIT), 0);
	assert_int_equal(git_tag_create_lightweight(&tag, f->repo, "z-rc",
						    target, 0), 0);
	/* a second tag on C5, sorting first: the first by name is kept */
	assert_int_equal(git_tag_create_lightweight(&tag, f->repo, "v1.0-b",
						    target, 0), 0);
	git_object_free(target);
	git_signature_free(sig);
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	bisect_range_release(&f->r);
	git_repository_free(f->repo);
	git_libgit2_shutdown();
	tu_rmtree(f->dir);
	free(f);
	return 0;
}

static void t_range(void **state)
{
	struct fx *f = *state;
	static const int want[] = { C1, C2, C3, M, C4, C5 };
	struct gittree *g;
	size_t i;

	assert_int_equal(gittree_open(&g, f->dir, &f->err), 0);
	assert_int_equal(bisect_range_list(g, f->sha[C0], f->sha[C5], &f->r,
					   &f->err), 0);
	assert_int_equal(f->r.n, 6);
	for (i = 0; i < 6; i++)
		assert_string_equal(f->r.c[i].sha, f->sha[want[i]]);
	assert_int_equal(f->r.c[0].marks, 0);
	assert_int_equal(f->r.c[1].marks, BISECT_NOOP);
	assert_int_equal(f->r.c[2].marks, 0);
	assert_int_equal(f->r.c[3].marks, BISECT_MERGE);
	assert_int_equal(f->r.c[4].marks, BISECT_TAG);
	assert_string_equal(f->r.c[4].tag, "v1.0");
	assert_int_equal(f->r.c[5].marks, BISECT_TAG);
	assert_string_equal(f->r.c[5].tag, "v1.0-b");
	assert_string_equal(f->r.c[0].tag, "");
	gittree_close(g);
}

static void t_merge(void **state)
{
	struct fx *f = *state;
	struct gittree *g;

	assert_int_equal(gittree_open(&g, f->dir, &f->err), 0);
	assert_int_equal(bisect_range_merge(g, f->sha[M], &f->r, &f->err), 0);
	assert_int_equal(f->r.n, 3);
	assert_string_equal(f->r.c[0].sha, f->sha[S1]);
	assert_string_equal(f->r.c[1].sha, f->sha[S2]);
	assert_string_equal(f->r.c[2].sha, f->sha[M]);
	assert_int_equal(f->r.c[0].marks, 0);
	assert_int_equal(f->r.c[2].marks, BISECT_MERGE);
	/* not a merge */
	assert_int_equal(bisect_range_merge(g, f->sha[C4], &f->r, &f->err),
			 -1);
	assert_int_equal(f->err.code, EX_DATAERR);
	assert_non_null(strstr(f->err.msg, "is not a merge"));
	assert_null(f->r.c);
	assert_int_equal(f->r.n, 0);
	gittree_close(g);
}

static void t_side_base(void **state)
{
	struct fx *f = *state;
	struct gittree *g;

	/* a base on the side branch hides its own ancestors only */
	assert_int_equal(gittree_open(&g, f->dir, &f->err), 0);
	assert_int_equal(bisect_range_list(g, f->sha[S1], f->sha[C5], &f->r,
					   &f->err), 0);
	assert_int_equal(f->r.n, 5);
	assert_string_equal(f->r.c[0].sha, f->sha[C2]);
	assert_string_equal(f->r.c[4].sha, f->sha[C5]);
	gittree_close(g);
}

static void t_refused(void **state)
{
	struct fx *f = *state;
	struct gittree *g;

	assert_int_equal(gittree_open(&g, f->dir, &f->err), 0);
	/* nothing between */
	assert_int_equal(bisect_range_list(g, f->sha[C5], f->sha[C5], &f->r,
					   &f->err), -1);
	assert_int_equal(f->err.code, EX_DATAERR);
	assert_non_null(strstr(f->err.msg, "no commit in the range"));
	assert_int_equal(bisect_range_list(g, f->sha[C5], f->sha[C1], &f->r,
					   &f->err), -1);
	assert_int_equal(f->err.code, EX_DATAERR);
	/* a commit the repository does not have, a short sha */
	assert_int_equal(bisect_range_list(g, "0123456789012345678901234567"
					   "890123456789", f->sha[C5], &f->r,
					   &f->err), -1);
	assert_int_equal(f->err.code, EX_DATAERR);
	assert_non_null(strstr(f->err.msg, "no commit 0123456789"));
	assert_int_equal(bisect_range_list(g, f->sha[C0], "abc1234", &f->r,
					   &f->err), -1);
	assert_int_equal(f->err.code, EX_DATAERR);
	assert_int_equal(bisect_range_merge(g, "nothex", &f->r, &f->err), -1);
	assert_int_equal(f->err.code, EX_DATAERR);
	bisect_range_release(&f->r);
	gittree_close(g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(t_range, setup, teardown),
		cmocka_unit_test_setup_teardown(t_merge, setup, teardown),
		cmocka_unit_test_setup_teardown(t_side_base, setup, teardown),
		cmocka_unit_test_setup_teardown(t_refused, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
