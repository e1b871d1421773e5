// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/render/template.c: a template rendered by name from
 * templates.dir (the shipped one by default), appended to what the
 * buffer holds, its partials beside it; a name that is a path refused; a
 * missing template or directory an error that names it. Run from the
 * repository root.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "perfbot/render/template.h"

#include "testutil.h"

struct fx {
	char dir[64];
	struct config cfg;
	int loaded;
	struct strbuf out;
	json_t *ctx;
	struct pb_err err;
};

static int setup(void **state)
{
	struct fx *f = TU_NEW_FX(struct fx, "test_template");
	char path[128];

	if (!f)
		return -1;
	assert_int_equal(mkdir(tu_path(path, sizeof(path), f->dir, "t"), 0700),
			 0);
	tu_put(f->dir, "t/hello.txt", "Hello {{name}}!\n{{> sig}}", 0644);
	tu_put(f->dir, "t/sig.txt", "-- \n{{bot}}\n", 0644);
	tu_put(f->dir, "perfbot.yaml", "templates:\n  dir: t\n", 0600);
	if (config_load(&f->cfg, tu_path(path, sizeof(path), f->dir,
					 "perfbot.yaml"), &f->err))
		return -1;
	f->loaded = 1;
	sb_init(&f->out, 0);
	f->ctx = json_pack("{s:s, s:s}", "name", "Jane", "bot", "perfbot");
	*state = f;
	return f->ctx ? 0 : -1;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	sb_release(&f->out);
	json_decref(f->ctx);
	if (f->loaded)
		config_release(&f->cfg);
	tu_rmtree(f->dir);
	free(f);
	return 0;
}

static void t_render(void **state)
{
	struct fx *f = *state;

	assert_int_equal(template_render(&f->cfg, "hello", f->ctx, &f->out,
					 &f->err), 0);
	assert_string_equal(sb_str(&f->out), "Hello Jane!\n-- \nperfbot\n");
	/* appended to what is there */
	assert_int_equal(template_render(&f->cfg, "sig", f->ctx, &f->out,
					 &f->err), 0);
	assert_string_equal(sb_str(&f->out), "Hello Jane!\n-- \nperfbot\n"
			    "-- \nperfbot\n");
}

/* Without templates.dir: the shipped templates/. */
static void t_shipped(void **state)
{
	struct fx *f = *state;
	struct config none;

	assert_int_equal(config_load(&none, NULL, &f->err), 0);
	assert_int_equal(template_render(&none, "subject", f->ctx, &f->out,
					 &f->err), 0);
	config_release(&none);
	assert_int_equal(template_render(&f->cfg, "subject", f->ctx, &f->out,
					 &f->err), -1);
	assert_int_equal(f->err.code, EX_NOINPUT);
}

static void t_name_not_path(void **state)
{
	struct fx *f = *state;
	static const char *const bad[] = { "../hello", "t/hello", "/etc/passwd",
					   "x/" };
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(&f->err, 0, sizeof(f->err));
		assert_int_equal(template_render(&f->cfg, bad[i], f->ctx,
						 &f->out, &f->err), -1);
		assert_int_equal(f->err.code, EX_USAGE);
		assert_non_null(strstr(f->err.msg, "a name, not a path"));
	}
	assert_int_equal(f->out.len, 0);
}

static void t_missing(void **state)
{
	struct fx *f = *state;
	char path[128];

	assert_int_equal(template_render(&f->cfg, "gone", f->ctx, &f->out,
					 &f->err), -1);
	assert_int_equal(f->err.code, EX_NOINPUT);
	assert_non_null(strstr(f->err.msg, "template 'gone': no "));
	assert_non_null(strstr(f->err.msg, "t/gone.txt in templates.dir"));
	/* issue 21 item 11: what is close is offered */
	assert_int_equal(template_render(&f->cfg, "helo", f->ctx, &f->out,
					 &f->err), -1);
	assert_non_null(strstr(f->err.msg, "(did you mean 'hello'?)"));
	/* a template perfbot ships, missing from the operator's directory */
	assert_int_equal(template_render(&f->cfg, "evidence", f->ctx, &f->out,
					 &f->err), -1);
	assert_non_null(strstr(f->err.msg, "; perfbot ships one: "));
	assert_non_null(strstr(f->err.msg, "templates/evidence.txt"));
	/* templates.report is named by its key */
	f->cfg.templates.report = "reprot";
	assert_int_equal(template_render(&f->cfg, "reprot", f->ctx, &f->out,
					 &f->err), -1);
	assert_non_null(strstr(f->err.msg, "templates.report: 'reprot': no "
			       "template "));
	/* the directory itself gone */
	config_release(&f->cfg);
	f->loaded = 0;
	tu_put(f->dir, "perfbot.yaml", "templates:\n  dir: nowhere\n", 0600);
	assert_int_equal(config_load(&f->cfg, tu_path(path, sizeof(path),
						      f->dir, "perfbot.yaml"),
				     &f->err), 0);
	f->loaded = 1;
	assert_int_equal(template_render(&f->cfg, "hello", f->ctx, &f->out,
					 &f->err), -1);
	assert_int_equal(f->err.code, EX_NOINPUT);
	assert_non_null(strstr(f->err.msg, "nowhere"));
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(t_render),
		T(t_shipped),
		T(t_name_not_path),
		T(t_missing),
	};
#undef T

	return cmocka_run_group_tests(tests, NULL, NULL);
}
