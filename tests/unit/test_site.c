// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/web/site.c: 'perfbot web' from a state of reports
 * queued as 'perfbot run' queues them: every page there, the pages the
 * same whether workers made them or the builder alone, a second build
 * that makes none again, a failing page that leaves the site as it was,
 * a state not made yet.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "perfbot/web/site.h"

#include "testweb.h"

#define NREPORTS 20

struct fx {
	char dir[64];
	struct tw w;
	char out[PATH_MAX];
	struct web_opts o;
	struct web_stats ws;
};

static int setup(void **state)
{
	struct fx *f = TU_NEW_FX(struct fx, "test_site");

	if (!f)
		return -1;
	memcpy(f->w.dir, f->dir, sizeof(f->dir));
	if (!tw_setup(&f->w))
		return -1;
	tu_path(f->out, sizeof(f->out), f->dir, "site");
	f->o.out = f->out;
	f->o.state = f->w.state;
	f->o.now = TW_T0;
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

static void reports(struct fx *f, size_t n)
{
	char id[16];
	size_t i;

	for (i = 0; i < n; i++) {
		snprintf(id, sizeof(id), "r%02zu", i);
		tw_report(&f->w, id, NULL, NULL, TW_T0 + (time_t)i);
	}
}

static void build(struct fx *f)
{
	if (web_build(&f->w.cfg, &f->o, &f->ws, &f->w.err))
		fail_msg("web_build: %s", f->w.err.msg);
}

static void t_build(void **state)
{
	struct fx *f = *state;
	struct strbuf a, b;
	char path[PATH_MAX + 32];

	reports(f, NREPORTS);
	tw_config(&f->w, "web: {jobs: 2}\n");
	build(f);
	assert_int_equal(f->ws.reports, NREPORTS);
	assert_int_equal(f->ws.made, NREPORTS);
	assert_int_equal(f->ws.reused, 0);
	assert_true(f->ws.written >= NREPORTS + 5);
	snprintf(path, sizeof(path), "%s/r/r07.html", f->out);
	assert_int_equal(access(path, R_OK), 0);
	tw_read(f->out, "index.html", &a);
	assert_non_null(strstr(a.buf, "20 reports, newest first"));
	assert_true(strstr(a.buf, "r/r19.html") < strstr(a.buf, "r/r00.html"));
	sb_release(&a);
	tw_read(f->out, "r/r07.html", &a);
	/* the same again, by the builder alone */
	tw_config(&f->w, "web: {jobs: 1}\n");
	f->o.full = 1;
	build(f);
	assert_int_equal(f->ws.made, NREPORTS);
	tw_read(f->out, "r/r07.html", &b);
	assert_string_equal(a.buf, b.buf);
	sb_release(&a);
	sb_release(&b);
	/* nothing changed: nothing made */
	f->o.full = 0;
	build(f);
	assert_int_equal(f->ws.made, 0);
	assert_int_equal(f->ws.reused, NREPORTS);
	assert_int_equal(f->ws.written, 0);	/* the same "now" too */
}

/* A page that cannot be made: the site stays as it was. */
static void t_failure(void **state)
{
	struct fx *f = *state;
	char cmd[4 * PATH_MAX], t[PATH_MAX + 8], path[PATH_MAX + 16];
	struct strbuf sb;

	reports(f, 1);
	build(f);
	snprintf(cmd, sizeof(cmd), "cp -r %s/templates %s/t && printf "
		 "'{{#x}}' > %s/t/web/report.html", f->w.cwd, f->dir, f->dir);
	assert_int_equal(system(cmd), 0);
	snprintf(t, sizeof(t), "%s/t", f->dir);
	tw_config_in(&f->w, t, NULL);
	assert_int_equal(web_build(&f->w.cfg, &f->o, &f->ws, &f->w.err), -1);
	assert_non_null(strstr(f->w.err.msg, "report 'r00'"));
	tw_read(f->out, "r/r00.html", &sb);
	assert_non_null(strstr(sb.buf, "<!DOCTYPE html>"));
	sb_release(&sb);
	snprintf(path, sizeof(path), "%s.2", f->out);
	assert_int_equal(access(path, F_OK), -1);
}

/* Roots that could not be read are tried again at each build. */
static void t_roots_back(void **state)
{
	struct fx *f = *state;
	char roots[PATH_MAX + 16], moved[PATH_MAX + 16], cmd[6 * PATH_MAX];
	struct strbuf sb;

	snprintf(roots, sizeof(roots), "%s/roots", f->dir);
	snprintf(moved, sizeof(moved), "%s/away", f->dir);
	snprintf(cmd, sizeof(cmd), "mkdir -p %s && cp -r %s/%s/base %s/%s/head "
		 "%s/", roots, f->w.cwd, TW_SEED4, f->w.cwd, TW_SEED4, roots);
	assert_int_equal(system(cmd), 0);
	tw_report(&f->w, "r1", roots, NULL, TW_T0);
	tw_report(&f->w, "r2", NULL, NULL, TW_T0);
	assert_int_equal(rename(roots, moved), 0);
	build(f);
	assert_int_equal(f->ws.made, 2);
	build(f);
	assert_int_equal(f->ws.made, 1);	/* r1 only */
	tw_read(f->out, "r/r1.html", &sb);
	assert_non_null(strstr(sb.buf, "cannot be read any more"));
	sb_release(&sb);
	assert_int_equal(rename(moved, roots), 0);
	build(f);
	assert_int_equal(f->ws.made, 1);
	tw_read(f->out, "r/r1.html", &sb);
	assert_null(strstr(sb.buf, "cannot be read any more"));
	assert_non_null(strstr(sb.buf, "<strong>hackbench.throughput</strong>"));
	sb_release(&sb);
	build(f);
	assert_int_equal(f->ws.made, 0);
}

static void t_no_state(void **state)
{
	struct fx *f = *state;
	char path[PATH_MAX + 16];

	snprintf(path, sizeof(path), "%s/none.db", f->dir);
	f->o.state = path;
	assert_int_equal(web_build(&f->w.cfg, &f->o, &f->ws, &f->w.err), -1);
	assert_int_equal(f->w.err.code, EX_NOINPUT);
	assert_int_equal(access(f->out, F_OK), -1);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(t_build),
		T(t_failure),
		T(t_roots_back),
		T(t_no_state),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
