// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/ingest/rootcache.c: a root asked for twice is read
 * once and its copies share its data, a root whose matrix.json or
 * job.yaml changed is read again, roots nobody holds are kept within the
 * budget and dropped past it, a copy's runs cut does not cut the cached
 * root, threads asking at once read it once, errors are those of
 * result_root_load() and nothing is cached for them, and a NULL cache or
 * an http(s) root is a plain load.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <cmocka.h>

#include "perfbot/ingest/rootcache.h"

#include "testutil.h"

#define JOB "testcase: fsmark\ntbox_group: lkp-icl-2sp6\n"
#define MATRIX "{\"a.b\": [1, 2, 3], \"c\": [4.5, 5.5, 6.5]}"

struct fx {
	char dir[64];
	char root[2][128];
	struct root_cache *c;
	struct pb_err err;
};

static void write_root(const char *dir, const char *matrix)
{
	mkdir(dir, 0700);
	tu_put(dir, "job.yaml", JOB, 0600);
	tu_put(dir, "matrix.json", matrix, 0600);
}

static int setup(void **state)
{
	struct fx *f = TU_NEW_FX(struct fx, "test_rootcache");
	int i;

	if (!f)
		return -1;
	for (i = 0; i < 2; i++) {
		snprintf(f->root[i], sizeof(f->root[i]), "%s/r%d", f->dir, i);
		write_root(f->root[i], MATRIX);
	}
	f->c = root_cache_new((size_t)1 << 20);
	*state = f;
	return f->c ? 0 : -1;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	root_cache_free(f->c);
	tu_rmtree(f->dir);
	free(f);
	return 0;
}

static void load(struct fx *f, struct result_root *rr, int i)
{
	if (root_cache_load(f->c, rr, f->root[i], &f->err))
		fail_msg("%s", f->err.msg);
}

static void stats_are(struct fx *f, size_t loads, size_t hits)
{
	struct root_cache_stats st;

	root_cache_stats(f->c, &st);
	assert_int_equal(st.loads, loads);
	assert_int_equal(st.hits, hits);
}

static void t_once(void **state)
{
	struct fx *f = *state;
	struct result_root a, b;

	load(f, &a, 0);
	load(f, &b, 0);
	stats_are(f, 1, 1);
	assert_ptr_equal(a.metrics, b.metrics);	/* one root, two copies */
	assert_int_equal(a.nmetrics, 2);
	assert_int_equal(a.runs, 3);
	assert_string_equal(result_root_job_str(&b, "testcase"), "fsmark");
	assert_non_null(result_root_find(&b, "c"));
	result_root_release(&a);
	result_root_release(&b);
	result_root_release(&b);	/* twice is safe */
	load(f, &a, 0);		/* nobody held it: kept */
	stats_are(f, 1, 2);
	result_root_release(&a);
	load(f, &a, 1);		/* another directory: another root */
	stats_are(f, 2, 2);
	result_root_release(&a);
}

static void touch_later(const char *dir, const char *name)
{
	struct timespec ts[2];
	char path[160];

	tu_path(path, sizeof(path), dir, name);
	clock_gettime(CLOCK_REALTIME, &ts[0]);
	ts[0].tv_sec += 10;
	ts[1] = ts[0];
	assert_int_equal(utimensat(AT_FDCWD, path, ts, 0), 0);
}

static void t_changed(void **state)
{
	struct fx *f = *state;
	struct result_root a, b;

	load(f, &a, 0);
	/* new runs landed: another size */
	write_root(f->root[0], "{\"a.b\": [1, 2, 3, 4]}");
	load(f, &b, 0);
	stats_are(f, 2, 0);
	assert_int_equal(a.runs, 3);	/* the old copy is still good */
	assert_int_equal(b.runs, 4);
	result_root_release(&a);
	result_root_release(&b);
	/* the same size, a later time; and job.yaml alone */
	write_root(f->root[0], "{\"a.b\": [1, 2, 3, 5]}");
	touch_later(f->root[0], "matrix.json");
	load(f, &a, 0);
	assert_true(metric_values(&a, result_root_find(&a, "a.b"))[3] == 5);
	result_root_release(&a);
	touch_later(f->root[0], "job.yaml");
	load(f, &a, 0);
	result_root_release(&a);
	stats_are(f, 4, 0);
	load(f, &a, 0);
	result_root_release(&a);
	stats_are(f, 4, 1);
}

static void t_budget(void **state)
{
	struct fx *f = *state;
	struct result_root a, b;

	root_cache_free(f->c);
	f->c = root_cache_new(0);	/* nothing kept that nobody holds */
	assert_non_null(f->c);
	load(f, &a, 0);
	load(f, &b, 0);			/* held: shared all the same */
	stats_are(f, 1, 1);
	result_root_release(&a);
	result_root_release(&b);
	load(f, &a, 0);
	stats_are(f, 2, 1);
	result_root_release(&a);
}

static void t_keep_runs(void **state)
{
	struct fx *f = *state;
	struct result_root a, b;

	load(f, &a, 0);
	result_root_keep_runs(&a, 2);
	load(f, &b, 0);
	assert_int_equal(a.runs, 2);
	assert_int_equal(b.runs, 3);
	result_root_release(&a);
	result_root_release(&b);
}

static void t_errors(void **state)
{
	struct fx *f = *state;
	struct result_root a, b;
	char missing[128];

	snprintf(missing, sizeof(missing), "%s/none", f->dir);
	assert_int_equal(root_cache_load(f->c, &a, missing, &f->err), -1);
	assert_int_equal(f->err.code, EX_NOINPUT);
	assert_null(a.metrics);
	write_root(f->root[1], "{\"a\": [1, \"x\", {}]}");
	assert_int_equal(root_cache_load(f->c, &a, f->root[1], &f->err), -1);
	assert_int_equal(f->err.code, EX_DATAERR);
	assert_null(a.metrics);
	write_root(f->root[1], MATRIX);
	load(f, &a, 1);		/* the bad one was not kept */
	stats_are(f, 1, 0);
	result_root_release(&a);
	/* no cache: a plain load */
	assert_int_equal(root_cache_load(NULL, &b, f->root[0], &f->err), 0);
	assert_null(b.shared);
	result_root_release(&b);
	result_root_release(&b);
}

struct asker {
	struct fx *f;
	struct result_root rr;
	int rc;
	pthread_t t;
};

static void *ask(void *p)
{
	struct asker *a = p;
	struct pb_err err;

	a->rc = root_cache_load(a->f->c, &a->rr, a->f->root[0], &err);
	return NULL;
}

static void t_threads(void **state)
{
	struct fx *f = *state;
	struct asker a[8];
	int i;

	for (i = 0; i < 8; i++) {
		a[i].f = f;
		assert_int_equal(pthread_create(&a[i].t, NULL, ask, &a[i]), 0);
	}
	for (i = 0; i < 8; i++)
		pthread_join(a[i].t, NULL);
	for (i = 0; i < 8; i++) {
		assert_int_equal(a[i].rc, 0);
		assert_ptr_equal(a[i].rr.metrics, a[0].rr.metrics);
	}
	stats_are(f, 1, 7);
	for (i = 0; i < 8; i++)
		result_root_release(&a[i].rr);
}

/* Two roots read at once, each in a thread. */
static void t_load_all(void **state)
{
	struct fx *f = *state;
	struct result_root rr[2];
	const char *dirs[2] = { f->root[0], f->root[1] };
	char missing[128];

	assert_int_equal(result_root_load_all(rr, dirs, 2, &f->err), 0);
	assert_int_equal(rr[0].nmetrics, 2);
	assert_int_equal(rr[1].nmetrics, 2);
	result_root_release(&rr[0]);
	result_root_release(&rr[1]);
	/* the first failing root's error, every root released */
	snprintf(missing, sizeof(missing), "%s/none", f->dir);
	dirs[0] = missing;
	assert_int_equal(result_root_load_all(rr, dirs, 2, &f->err), -1);
	assert_non_null(strstr(f->err.msg, missing));
	assert_null(rr[0].metrics);
	assert_null(rr[1].metrics);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(t_once, setup, teardown),
		cmocka_unit_test_setup_teardown(t_changed, setup, teardown),
		cmocka_unit_test_setup_teardown(t_budget, setup, teardown),
		cmocka_unit_test_setup_teardown(t_keep_runs, setup, teardown),
		cmocka_unit_test_setup_teardown(t_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(t_threads, setup, teardown),
		cmocka_unit_test_setup_teardown(t_load_all, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
