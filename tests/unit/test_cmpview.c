// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/web/cmpview.c: a report's comparison for its page:
 * the mail's rows (failures first, the filter's shown metrics only),
 * each cell exactly the mail's (the table printer's own formatters,
 * unpadded), the headline marked once, and for each row its tests and
 * its strip plot; names through the mask.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "perfbot/compare/table.h"
#include "perfbot/web/cmpview.h"

#include "testweb.h"

struct fx {
	char dir[64];
	struct tw w;
	struct manifest m;
	struct report_inputs in;
	json_t *ctx;
};

static int setup(void **state)
{
	struct fx *f = TU_NEW_FX(struct fx, "test_cmpview");

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

	json_decref(f->ctx);
	report_inputs_release(&f->in);
	manifest_release(&f->m);
	tw_teardown(&f->w);
	free(f);
	return 0;
}

/* The comparison of 'roots' (relative to the tree) as the page's. */
static json_t *view(struct fx *f, const char *roots)
{
	struct strbuf text = STRBUF_INIT;
	char abs[PATH_MAX + 64];
	struct web_mask m;
	struct ctx c;

	snprintf(abs, sizeof(abs), "%s/%s", f->w.cwd, roots);
	tw_manifest(&f->w, &text, "x", abs, NULL);
	if (manifest_parse(&f->m, "m.yaml", f->dir, text.buf, text.len,
			   &f->w.err) ||
	    report_inputs_load(&f->in, &f->m, &f->w.cfg, &f->w.err))
		fail_msg("%s", f->w.err.msg);
	web_mask_init(&m, "[hidden]");
	ctx_init(&c, "test");
	ctx_comparison(&c, "cmp", &f->in, &m);
	assert_int_equal(ctx_finish(&c, &f->ctx, &f->w.err), 0);
	web_mask_release(&m);
	sb_release(&text);
	return json_object_get(f->ctx, "cmp");
}

static const char *str(json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

/* The cell of 'row' as the mail prints it, unpadded. */
static void cell_is(json_t *o, const char *key, struct strbuf *sb)
{
	size_t a = 0, n = sb->len;

	while (a < n && sb->buf[a] == ' ')
		a++;
	while (n > a && sb->buf[n - 1] == ' ')
		n--;
	sb->buf[n] = '\0';
	assert_string_equal(str(o, key), sb->buf + a);
	sb_reset(sb);
}

static void t_seed(void **state)
{
	struct fx *f = *state;
	json_t *cmp = view(f, TW_SEED4), *rows, *r;
	const struct table_format *tf;
	struct strbuf sb = STRBUF_INIT;
	struct cmp_stats st;
	size_t i, k, shown = 0, heads = 0;

	tf = rules_format(f->in.rules);
	rows = json_object_get(cmp, "rows");
	for (i = 0; i < f->in.cmp.nrows; i++)
		shown += f->in.cmp.rows[i].shown && !f->in.cmp.rows[i].failure;
	assert_int_equal(json_array_size(rows), shown);
	assert_true(json_is_false(json_object_get(cmp, "has_fail_rows")));
	assert_int_equal(json_array_size(json_object_get(cmp, "evidence")),
			 shown);
	assert_int_equal(json_array_size(json_object_get(cmp, "strips")),
			 shown);
	json_array_foreach(rows, k, r) {
		const struct cmp_row *row = &f->in.cmp.rows[
			json_integer_value(json_object_get(r, "index"))];

		assert_string_equal(str(r, "metric"), row->name);
		cmp_row_stats(row, BASE, &st);
		assert_int_equal(table_format_mean(&sb, tf, st.mean), 0);
		cell_is(r, "base_mean", &sb);
		assert_int_equal(table_format_stddev(&sb, tf, &st), 0);
		cell_is(r, "base_stddev", &sb);
		assert_int_equal(table_format_change(&sb, tf, row->change,
						     row->absolute), 0);
		cell_is(r, "change", &sb);
		cmp_row_stats(row, HEAD, &st);
		assert_int_equal(table_format_mean(&sb, tf, st.mean), 0);
		cell_is(r, "head_mean", &sb);
		heads += json_is_true(json_object_get(r, "headline"));
	}
	assert_int_equal(heads, 1);
	r = json_object_get(cmp, "headline");
	assert_string_equal(str(r, "metric"), "hackbench.throughput");
	assert_string_equal(str(r, "change"), "10.5%");
	assert_true(json_is_true(json_object_get(r, "improvement")));
	assert_int_equal(json_integer_value(json_object_get(
		json_object_get(r, "tests"), "base_n")), 6);
	assert_int_equal(json_integer_value(json_object_get(
		json_object_get(cmp, "runs"), "head")), 6);
	sb_release(&sb);
}

/* LKP's own pair with failures: their block first, its cells too. */
static void t_failures(void **state)
{
	struct fx *f = *state;
	json_t *cmp = view(f, "fixtures/lkp-oracle/r00"), *fails, *r;
	struct strbuf sb = STRBUF_INIT;

	fails = json_object_get(cmp, "fail_rows");
	assert_true(json_is_true(json_object_get(cmp, "has_fail_rows")));
	assert_true(json_array_size(fails) >= 3);
	r = json_array_get(fails, 0);
	assert_string_equal(str(r, "metric"),
			    "dmesg.BUG:soft_lockup-CPU#stuck_for#s");
	assert_string_equal(str(r, "base_fails"), "4:4");
	assert_string_equal(str(r, "reproduction"), "-100%");
	assert_string_equal(str(r, "head_fails"), ":4");
	/* a strip for every row, failures included, in the table's order */
	assert_int_equal(json_array_size(json_object_get(cmp, "strips")),
			 json_array_size(fails) +
			 json_array_size(json_object_get(cmp, "rows")));
	assert_int_equal(json_integer_value(json_object_get(json_array_get(
		json_object_get(cmp, "strips"), 0), "index")),
			 json_integer_value(json_object_get(r, "index")));
	sb_release(&sb);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(t_seed),
		T(t_failures),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
