// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/ingest/gittree.c on a repository the test makes
 * with the git command: what is not a repository, a branch found by its
 * names, ancestry, sha prefixes, one commit, and the walk (newest first,
 * what an old tip hides, a time bound, a cap, a tip the repository lost),
 * and a damaged repository.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "perfbot/ingest/gittree.h"
#include "testlife.h"

struct walked {
	char sha[8][GIT_SHA_HEX];
	char first[8][64];
	size_t n;
};

static int seen(void *arg, const struct git_commit_info *c,
		struct pb_err *err)
{
	struct walked *w = arg;

	(void)err;
	if (w->n < 8) {
		memcpy(w->sha[w->n], c->sha, GIT_SHA_HEX);
		snprintf(w->first[w->n], sizeof(w->first[0]), "%.*s",
			 (int)strcspn(c->message, "\n"), c->message);
		w->n++;
	}
	return 0;
}

static int setup(void **state)
{
	struct tl *t = tl_new("test_gittree");

	*state = t;
	if (!t)
		return -1;
	tl_git_init(t, TL_T0);
	tl_commit(t, "two\n", TL_T0 + 10);
	tl_commit(t, "three\n\nbody\n", TL_T0 + 20);
	return 0;
}

static int teardown(void **state)
{
	tl_free(*state);
	return 0;
}

static void t_open(void **state)
{
	struct tl *t = *state;
	struct gittree *g = (struct gittree *)1;
	char tip[GIT_SHA_HEX];

	assert_int_equal(gittree_open(&g, t->dir, &t->err), -1);
	assert_null(g);
	assert_int_equal(t->err.code, EX_CONFIG);
	assert_non_null(strstr(t->err.msg, "tracking.repo: "));
	assert_non_null(strstr(t->err.msg, "not a git repository"));
	gittree_close(NULL);
	assert_int_equal(gittree_open(&g, t->repo, &t->err), 0);
	assert_int_equal(gittree_tip(g, "nonesuch", tip, &t->err), -1);
	assert_int_equal(t->err.code, EX_CONFIG);
	assert_non_null(strstr(t->err.msg, "tracking.branches: 'nonesuch'"));
	gittree_close(g);
}

static void t_tip_names(void **state)
{
	struct tl *t = *state;
	char tip[GIT_SHA_HEX], want[GIT_SHA_HEX];
	struct gittree *g;

	tl_rev(t, "master", want);
	tl_sh("git -C %s update-ref refs/remotes/origin/master master",
	      t->repo);
	assert_int_equal(gittree_open(&g, t->repo, &t->err), 0);
	assert_int_equal(gittree_tip(g, "master", tip, &t->err), 0);
	assert_string_equal(tip, want);
	assert_int_equal(gittree_tip(g, "origin/master", tip, &t->err), 0);
	assert_string_equal(tip, want);
	assert_int_equal(gittree_tip(g, "refs/heads/master", tip, &t->err), 0);
	assert_string_equal(tip, want);
	assert_int_equal(gittree_tip(g, "HEAD", tip, &t->err), 0);
	assert_string_equal(tip, want);
	gittree_close(g);
}

/* Issue 31 item 4: a base named by a tag (annotated or not) or branch. */
static void t_ref(void **state)
{
	struct tl *t = *state;
	char sha[GIT_SHA_HEX], want[GIT_SHA_HEX];
	struct gittree *g;

	tl_rev(t, "master~1", want);
	tl_sh("git -C %s tag -a -m release v6.13 master~1", t->repo);
	tl_sh("git -C %s tag v5.19-rc6 master~1", t->repo);
	assert_int_equal(gittree_open(&g, t->repo, &t->err), 0);
	assert_int_equal(gittree_ref(g, "v6.13", sha, &t->err), 0);
	assert_string_equal(sha, want);	/* the tag peeled to its commit */
	assert_int_equal(gittree_ref(g, "v5.19-rc6", sha, &t->err), 0);
	assert_string_equal(sha, want);
	tl_rev(t, "master", want);
	assert_int_equal(gittree_ref(g, "master", sha, &t->err), 0);
	assert_string_equal(sha, want);
	assert_int_equal(gittree_ref(g, "v9.99", sha, &t->err), -1);
	assert_int_equal(t->err.code, EX_DATAERR);
	assert_non_null(strstr(t->err.msg, "no tag or branch 'v9.99' in "
			       "tracking.repo"));
	assert_string_equal(sha, "");
	gittree_close(g);
}

static void t_ancestry(void **state)
{
	struct tl *t = *state;
	char tip[GIT_SHA_HEX], first[GIT_SHA_HEX], full[GIT_SHA_HEX];
	struct gittree *g;
	struct walked w = { .n = 0 };
	int yes, found;

	tl_rev(t, "master", tip);
	tl_rev(t, "master~2", first);
	assert_int_equal(gittree_open(&g, t->repo, &t->err), 0);
	assert_int_equal(gittree_contains(g, tip, first, &yes, &t->err), 0);
	assert_int_equal(yes, 1);
	assert_int_equal(gittree_contains(g, first, tip, &yes, &t->err), 0);
	assert_int_equal(yes, 0);
	assert_int_equal(gittree_contains(g, tip, tip, &yes, &t->err), 0);
	assert_int_equal(yes, 1);
	/* a commit the repository does not have is on no branch */
	assert_int_equal(gittree_contains(g, tip, "0123456789012345678901234"
					  "567890123456789", &yes, &t->err),
			 0);
	assert_int_equal(yes, 0);
	assert_int_equal(gittree_resolve(g, "nothex!", full, &found, &t->err),
			 0);
	assert_int_equal(found, 0);
	first[9] = '\0';
	assert_int_equal(gittree_resolve(g, first, full, &found, &t->err), 0);
	assert_int_equal(found, 1);
	assert_int_equal(strncmp(full, first, 9), 0);
	assert_int_equal(gittree_commit(g, tip, seen, &w, &t->err), 0);
	assert_int_equal(w.n, 1);
	assert_string_equal(w.first[0], "three");
	gittree_close(g);
}

static void t_walk(void **state)
{
	struct tl *t = *state;
	char tip[GIT_SHA_HEX], mid[GIT_SHA_HEX];
	struct walked w = { .n = 0 };
	struct gittree *g;
	size_t n;
	int hidden;

	tl_rev(t, "master", tip);
	tl_rev(t, "master~1", mid);
	assert_int_equal(gittree_open(&g, t->repo, &t->err), 0);
	assert_int_equal(gittree_walk(g, tip, NULL, 0, 100, seen, &w, &n,
				      &hidden, &t->err), 0);
	assert_int_equal(n, 3);
	assert_int_equal(hidden, 0);
	assert_string_equal(w.first[0], "three");
	assert_string_equal(w.first[2], "first");
	/* what the old tip hides */
	w.n = 0;
	assert_int_equal(gittree_walk(g, tip, mid, 0, 100, seen, &w, &n,
				      &hidden, &t->err), 0);
	assert_int_equal(n, 1);
	assert_int_equal(hidden, 1);
	assert_string_equal(w.sha[0], tip);
	/* a tip the repository lost hides nothing */
	w.n = 0;
	assert_int_equal(gittree_walk(g, tip, "01234567890123456789012345678"
				      "90123456789", 0, 100, seen, &w, &n,
				      &hidden, &t->err), 0);
	assert_int_equal(n, 3);
	assert_int_equal(hidden, 0);
	/* back to a time, and at most 'max' */
	w.n = 0;
	assert_int_equal(gittree_walk(g, tip, NULL, TL_T0 + 5, 100, seen, &w,
				      &n, &hidden, &t->err), 0);
	assert_int_equal(n, 2);
	w.n = 0;
	assert_int_equal(gittree_walk(g, tip, NULL, 0, 1, seen, &w, &n,
				      &hidden, &t->err), 0);
	assert_int_equal(n, 1);
	gittree_close(g);
}

/*
 * A damaged repository (objects lost): the branch is there but its tip
 * is not, or a commit in the middle of the history is gone. Data errors
 * naming the repository, not "no such branch" (issue 29 item 16).
 */
static void t_damaged(void **state)
{
	struct tl *t = *state;
	char tip[GIT_SHA_HEX], mid[GIT_SHA_HEX], got[GIT_SHA_HEX];
	struct walked w = { .n = 0 };
	struct gittree *g;
	size_t n;
	int hidden;

	tl_rev(t, "master", tip);
	tl_rev(t, "master~1", mid);
	tl_sh("mv %s/.git/objects/%.2s/%s %s/mid-object", t->repo, mid,
	      mid + 2, t->dir);
	assert_int_equal(gittree_open(&g, t->repo, &t->err), 0);
	assert_int_equal(gittree_walk(g, tip, NULL, 0, 100, seen, &w, &n,
				      &hidden, &t->err), -1);
	assert_int_equal(t->err.code, EX_DATAERR);
	assert_non_null(strstr(t->err.msg, "damaged repository"));
	gittree_close(g);

	tl_sh("mv %s/.git/objects/%.2s/%s %s/tip-object", t->repo, tip,
	      tip + 2, t->dir);
	assert_int_equal(gittree_open(&g, t->repo, &t->err), 0);
	assert_int_equal(gittree_tip(g, "master", got, &t->err), -1);
	assert_int_equal(t->err.code, EX_DATAERR);
	assert_string_equal(got, "");
	assert_non_null(strstr(t->err.msg, "tracking.repo: '"));
	assert_non_null(strstr(t->err.msg, "branch 'master' points at "));
	assert_non_null(strstr(t->err.msg, tip));
	assert_null(strstr(t->err.msg, "no such branch"));
	gittree_close(g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(t_open, setup, teardown),
		cmocka_unit_test_setup_teardown(t_tip_names, setup, teardown),
		cmocka_unit_test_setup_teardown(t_ref, setup, teardown),
		cmocka_unit_test_setup_teardown(t_ancestry, setup, teardown),
		cmocka_unit_test_setup_teardown(t_walk, setup, teardown),
		cmocka_unit_test_setup_teardown(t_damaged, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
