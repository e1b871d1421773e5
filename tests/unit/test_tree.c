// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/web/tree.c: the site's directory. DIR a link to
 * DIR.<n>, the next tree beside it and swapped in at once; a page whose
 * key (or bytes) did not change is the old tree's file (the same inode);
 * the manifest that says so; what DIR may be (missing, a build's link,
 * an empty directory) and what is refused; one build at a time; a build
 * not committed leaves DIR as it was; the trees a killed build left go.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "perfbot/web/tree.h"

#include "testutil.h"

struct fx {
	char dir[64];
	char out[PATH_MAX];
	struct site_tree t;
	struct pb_err err;
};

static int setup(void **state)
{
	struct fx *f = TU_NEW_FX(struct fx, "test_tree");

	if (!f)
		return -1;
	tu_path(f->out, sizeof(f->out), f->dir, "site");
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	site_release(&f->t);
	tu_rmtree(f->dir);
	free(f);
	return 0;
}

static void open_ok(struct fx *f)
{
	site_release(&f->t);
	if (site_open(&f->t, f->out, &f->err))
		fail_msg("site_open: %s", f->err.msg);
}

static void page(struct fx *f, const char *path, const char *key,
		 const char *text)
{
	if (site_page(&f->t, path, key, text, strlen(text), &f->err))
		fail_msg("site_page: %s", f->err.msg);
}

static void commit(struct fx *f)
{
	if (site_commit(&f->t, &f->err))
		fail_msg("site_commit: %s", f->err.msg);
}

static ino_t ino(const struct fx *f, const char *rel)
{
	char path[PATH_MAX + 64];
	struct stat sb;

	snprintf(path, sizeof(path), "%s/%s", f->out, rel);
	assert_int_equal(stat(path, &sb), 0);
	return sb.st_ino;
}

static void link_is(const struct fx *f, const char *want)
{
	char buf[256];
	ssize_t n = readlink(f->out, buf, sizeof(buf) - 1);

	assert_true(n > 0);
	buf[n] = '\0';
	assert_string_equal(buf, want);
}

static void text_is(const struct fx *f, const char *rel, const char *want)
{
	char path[PATH_MAX + 64];
	struct strbuf sb;

	snprintf(path, sizeof(path), "%s/%s", f->out, rel);
	tu_read_text(path, &sb);
	assert_string_equal(sb_str(&sb), want);
	sb_release(&sb);
}

/* The first build, then one that keeps, one that changes. */
static void t_builds(void **state)
{
	struct fx *f = *state;
	json_t *sum = json_pack("{s:s}", "testcase", "hackbench");
	char path[PATH_MAX + 16];
	ino_t a, r, x;
	int kept;

	open_ok(f);
	assert_null(f->t.old_dir);
	page(f, "index.html", NULL, "index 1");
	page(f, "r/x.html", "k1", "report x");
	page(f, "r/y.html", "k1", "report y");
	assert_int_equal(site_note_report(&f->t, "x", sum, &f->err), 0);
	assert_int_equal(f->t.written, 3);
	commit(f);
	link_is(f, "site.1");
	text_is(f, "r/x.html", "report x");
	a = ino(f, "index.html");
	r = ino(f, "r/x.html");
	x = ino(f, "r/y.html");

	open_ok(f);
	assert_non_null(f->t.old_dir);
	assert_string_equal(json_string_value(json_object_get(
		site_old_report(&f->t, "x"), "testcase")), "hackbench");
	assert_null(site_old_report(&f->t, "y"));
	page(f, "index.html", NULL, "index 1");	/* the same bytes */
	assert_int_equal(site_keep(&f->t, "r/x.html", "k1", &kept, &f->err),
			 0);
	assert_true(kept);
	assert_int_equal(site_keep(&f->t, "r/y.html", "k2", &kept, &f->err),
			 0);
	assert_false(kept);
	page(f, "r/y.html", "k2", "report y, again");
	assert_int_equal(f->t.kept, 2);
	assert_int_equal(f->t.written, 1);
	commit(f);
	link_is(f, "site.2");
	assert_true(ino(f, "index.html") == a);
	assert_true(ino(f, "r/x.html") == r);
	assert_true(ino(f, "r/y.html") != x);
	text_is(f, "r/y.html", "report y, again");
	snprintf(path, sizeof(path), "%s.1", f->out);
	assert_int_equal(access(path, F_OK), -1);
	/* a page no longer made is no longer there */
	open_ok(f);
	commit(f);
	snprintf(path, sizeof(path), "%s/r/x.html", f->out);
	assert_int_equal(access(path, F_OK), -1);
}

/* Not committed: DIR as it was, the new tree gone. */
static void t_abandoned(void **state)
{
	struct fx *f = *state;
	char path[PATH_MAX + 16];

	open_ok(f);
	page(f, "index.html", NULL, "one");
	commit(f);
	open_ok(f);
	page(f, "index.html", NULL, "two");
	site_release(&f->t);
	site_release(&f->t);
	link_is(f, "site.1");
	text_is(f, "index.html", "one");
	snprintf(path, sizeof(path), "%s.2", f->out);
	assert_int_equal(access(path, F_OK), -1);
}

/*
 * What a killed build of ours left (recorded in DIR.builds) goes; a
 * DIR.<digits> of someone else's beside DIR (a user's site.2024/keep.txt,
 * a file site.7, a site.3 in the way) is never touched (issue 29 item
 * 18): the next tree takes the next free number.
 */
static void t_leftovers(void **state)
{
	struct fx *f = *state;
	char path[PATH_MAX + 32], rec[PATH_MAX + 16];
	int fd;

	open_ok(f);
	commit(f);
	snprintf(path, sizeof(path), "%s.2024", f->out);
	assert_int_equal(mkdir(path, 0755), 0);
	tu_put(path, "keep.txt", "mine", 0600);
	snprintf(path, sizeof(path), "%s.7", f->out);
	tu_write(path, "mine too", 0600);
	/* a killed build: its tree recorded, then made */
	snprintf(path, sizeof(path), "%s.2", f->out);
	assert_int_equal(mkdir(path, 0755), 0);
	tu_put(path, "junk", "x", 0600);
	snprintf(rec, sizeof(rec), "%s.builds", f->out);
	fd = open(rec, O_WRONLY | O_APPEND);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "site.2\n", 7), 7);
	close(fd);
	snprintf(path, sizeof(path), "%s.notes", f->out);
	tu_write(path, "mine", 0600);
	open_ok(f);
	commit(f);
	link_is(f, "site.2");
	assert_int_equal(access(path, F_OK), 0);	/* not a tree */
	snprintf(path, sizeof(path), "%s/junk", f->out);
	assert_int_equal(access(path, F_OK), -1);
	snprintf(path, sizeof(path), "%s.1", f->out);	/* the old tree */
	assert_int_equal(access(path, F_OK), -1);
	snprintf(path, sizeof(path), "%s.2024/keep.txt", f->out);
	assert_int_equal(access(path, F_OK), 0);
	snprintf(path, sizeof(path), "%s.7", f->out);
	assert_int_equal(access(path, F_OK), 0);

	/* someone's site.3 in the way: the new tree is site.4 */
	snprintf(path, sizeof(path), "%s.3", f->out);
	assert_int_equal(mkdir(path, 0755), 0);
	tu_put(path, "theirs", "x", 0600);
	open_ok(f);
	commit(f);
	link_is(f, "site.4");
	snprintf(path, sizeof(path), "%s.3/theirs", f->out);
	assert_int_equal(access(path, F_OK), 0);
	snprintf(path, sizeof(path), "%s.2024/keep.txt", f->out);
	assert_int_equal(access(path, F_OK), 0);
	snprintf(path, sizeof(path), "%s.2", f->out);
	assert_int_equal(access(path, F_OK), -1);
}

/* DIR: an empty directory will do; anything else is someone's. */
static void t_what_dir_may_be(void **state)
{
	struct fx *f = *state;
	char path[PATH_MAX + 16];

	assert_int_equal(mkdir(f->out, 0755), 0);
	open_ok(f);
	commit(f);
	link_is(f, "site.1");
	assert_int_equal(unlink(f->out), 0);
	assert_int_equal(mkdir(f->out, 0755), 0);
	tu_put(f->out, "index.html", "someone's", 0600);
	site_release(&f->t);
	assert_int_equal(site_open(&f->t, f->out, &f->err), -1);
	assert_int_equal(f->err.code, EX_CANTCREAT);
	assert_non_null(strstr(f->err.msg, "not a site"));
	site_release(&f->t);
	tu_rmtree(f->out);
	tu_write(f->out, "a file", 0600);
	assert_int_equal(site_open(&f->t, f->out, &f->err), -1);
	site_release(&f->t);
	assert_int_equal(unlink(f->out), 0);
	assert_int_equal(symlink("/etc", f->out), 0);
	assert_int_equal(site_open(&f->t, f->out, &f->err), -1);
	site_release(&f->t);
	assert_int_equal(unlink(f->out), 0);
	/* a trailing slash is the same DIR */
	snprintf(path, sizeof(path), "%s/", f->out);
	assert_int_equal(site_open(&f->t, path, &f->err), 0);
	commit(f);
	link_is(f, "site.1");
}

static void t_one_at_a_time(void **state)
{
	struct fx *f = *state;
	struct site_tree other;

	open_ok(f);
	assert_int_equal(site_open(&other, f->out, &f->err), -1);
	assert_int_equal(f->err.code, EX_TEMPFAIL);
	site_release(&other);
	commit(f);
}

/* A manifest that does not read is none: every page is made again. */
static void t_bad_manifest(void **state)
{
	struct fx *f = *state;
	char path[PATH_MAX + 32];
	int kept;

	open_ok(f);
	page(f, "r/x.html", "k1", "x");
	commit(f);
	snprintf(path, sizeof(path), "%s/.perfbot-web.json", f->out);
	assert_int_equal(unlink(path), 0);
	tu_write(path, "{\"version\": 99}", 0644);
	open_ok(f);
	assert_int_equal(site_keep(&f->t, "r/x.html", "k1", &kept, &f->err),
			 0);
	assert_false(kept);
}

static void t_hash(void **state)
{
	char a[17], b[17];

	(void)state;
	site_hash("x", 1, a);
	site_hash("y", 1, b);
	assert_int_equal(strlen(a), 16);
	assert_string_not_equal(a, b);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(t_builds),
		T(t_abandoned),
		T(t_leftovers),
		T(t_what_dir_may_be),
		T(t_one_at_a_time),
		T(t_bad_manifest),
		T(t_hash),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
