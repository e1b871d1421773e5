// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/web/page.c: the site's templates found under
 * templates.dir, the word of a hidden address, the key of every page
 * (the same for the same templates and settings wherever the tree is,
 * another when a setting, a template or a table changes), a page
 * rendered with every value escaped, the style sheet as it is, dates.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "perfbot/web/page.h"

#include "testweb.h"

struct fx {
	char dir[64];
	struct tw w;
};

static int setup(void **state)
{
	struct fx *f = TU_NEW_FX(struct fx, "test_page");

	if (!f)
		return -1;
	memcpy(f->w.dir, f->dir, sizeof(f->dir));
	if (!tw_setup(&f->w))
		return -1;
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

static unsigned long long key_of(struct fx *f)
{
	struct web_site s;
	unsigned long long k;

	assert_int_equal(web_site_init(&s, &f->w.cfg, TW_T0, &f->w.err), 0);
	k = s.key;
	web_site_release(&s);
	return k;
}

static void t_site(void **state)
{
	struct fx *f = *state;
	struct web_site s;
	unsigned long long k;

	assert_int_equal(web_site_init(&s, &f->w.cfg, TW_T0, &f->w.err), 0);
	assert_string_equal(s.hidden, "[address hidden]");
	assert_string_equal(s.domain, "example.test");
	assert_non_null(strstr(s.dir, "templates/web"));
	web_site_release(&s);
	web_site_release(&s);
	k = key_of(f);
	assert_true(k == key_of(f));
	tw_config(&f->w, "web: {show_addresses: false}\n");
	assert_true(k != key_of(f));
	tw_config(&f->w, "web: {per_page: 50}\n");
	assert_true(k != key_of(f));
	tw_config(&f->w, "web: {feed_entries: 5}\n");
	assert_true(k != key_of(f));
	/* the domain of the ids: else From's */
	tw_config(&f->w, "");
	assert_true(k == key_of(f));
}

/* A copy of the templates, one changed: another key. */
static void t_templates(void **state)
{
	struct fx *f = *state;
	char cmd[4 * PATH_MAX], t[PATH_MAX + 64];
	unsigned long long k = key_of(f);

	snprintf(cmd, sizeof(cmd), "cp -r %s/templates %s/t && "
		 "echo '/* x */' >> %s/t/web/style.css", f->w.cwd, f->dir,
		 f->dir);
	assert_int_equal(system(cmd), 0);
	snprintf(t, sizeof(t), "%s/t", f->dir);
	tw_config_in(&f->w, t, NULL);
	assert_true(k != key_of(f));
	snprintf(t, sizeof(t), "%s/none", f->dir);
	tw_config_in(&f->w, t, NULL);
	{
		struct web_site s;

		assert_int_equal(web_site_init(&s, &f->w.cfg, TW_T0,
					       &f->w.err), -1);
		web_site_release(&s);
	}
}

static void t_render(void **state)
{
	struct fx *f = *state;
	struct strbuf out = STRBUF_INIT;
	struct web_site s;
	json_t *ctx = NULL;
	struct ctx c;

	assert_int_equal(web_site_init(&s, &f->w.cfg, TW_T0, &f->w.err), 0);
	ctx_init(&c, "test");
	ctx_page(&c, &s, "../");
	ctx_date(&c, "date", TW_T0);
	assert_int_equal(ctx_finish(&c, &ctx, &f->w.err), 0);
	assert_string_equal(json_string_value(json_object_get(
		json_object_get(ctx, "date"), "text")), "2025-02-14 15:48 UTC");
	assert_string_equal(json_string_value(json_object_get(
		json_object_get(ctx, "date"), "iso")), "2025-02-14T15:48:00Z");
	json_object_set_new(ctx, "bot_name", json_string("<b>bot</b>"));
	assert_int_equal(web_render(&s, "nav.html", ctx, &out, &f->w.err), 0);
	assert_non_null(strstr(out.buf, "href=\"../style.css\""));
	assert_non_null(strstr(out.buf, "&lt;b&gt;bot&lt;/b&gt;"));
	assert_null(strstr(out.buf, "<b>"));
	sb_reset(&out);
	assert_int_equal(web_render(&s, "nonesuch.html", ctx, &out,
				    &f->w.err), -1);
	assert_int_equal(web_asset(&s, "style.css", &out, &f->w.err), 0);
	assert_non_null(strstr(out.buf, "font-family"));
	json_decref(ctx);
	sb_release(&out);
	web_site_release(&s);
}

/* 'perfbot check': every template of templates/web/ parses. */
static void t_check(void **state)
{
	struct fx *f = *state;
	char cmd[4 * PATH_MAX], t[PATH_MAX + 8], *dir = NULL;
	int n = 0;

	assert_int_equal(web_check_templates(&f->w.cfg, &dir, &n, &f->w.err),
			 0);
	assert_non_null(strstr(dir, "templates/web"));
	assert_true(n >= 10);
	free(dir);
	snprintf(cmd, sizeof(cmd), "cp -r %s/templates %s/t && printf "
		 "'{{> nonesuch}}' > %s/t/web/list.html", f->w.cwd, f->dir,
		 f->dir);
	assert_int_equal(system(cmd), 0);
	snprintf(t, sizeof(t), "%s/t", f->dir);
	tw_config_in(&f->w, t, NULL);
	assert_int_equal(web_check_templates(&f->w.cfg, &dir, &n, &f->w.err),
			 -1);
	assert_null(dir);
	assert_non_null(strstr(f->w.err.msg, "nonesuch"));
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(t_site),
		T(t_templates),
		T(t_render),
		T(t_check),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
