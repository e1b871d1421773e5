// SPDX-License-Identifier: GPL-2.0-only
/*
 * web: a report's comparison for its page (cmpview.h): the mail's table
 * as rows of cells made by the mail's own formatters, the headline, each
 * shown metric's tests and strip plot.
 */
#include <stdlib.h>
#include <string.h>

#include "perfbot/compare/evidence.h"
#include "perfbot/compare/table.h"
#include "perfbot/render/evidence_view.h"
#include "perfbot/web/cmpview.h"
#include "perfbot/web/strip.h"

/* A cell as the mail's table prints it, without the padding. */
static void cell(struct ctx *c, const char *key, struct strbuf *sb, int rc)
{
	size_t a = 0, n = sb->len;

	if (rc) {
		c->oom = 1;
		sb_reset(sb);
		return;
	}
	while (a < n && sb->buf[a] == ' ')
		a++;
	while (n > a && sb->buf[n - 1] == ' ')
		n--;
	ctx_strn(c, key, n > a ? sb->buf + a : "", n - a);
	sb_reset(sb);
}

static void perf_cells(struct ctx *c, const struct table_format *f,
		       const struct cmp_row *row)
{
	struct strbuf sb = STRBUF_INIT;
	struct cmp_stats st;

	cmp_row_stats(row, BASE, &st);
	cell(c, "base_mean", &sb, table_format_mean(&sb, f, st.mean));
	cell(c, "base_stddev", &sb, table_format_stddev(&sb, f, &st));
	cell(c, "change", &sb, table_format_change(&sb, f, row->change,
						   row->absolute));
	cmp_row_stats(row, HEAD, &st);
	cell(c, "head_mean", &sb, table_format_mean(&sb, f, st.mean));
	cell(c, "head_stddev", &sb, table_format_stddev(&sb, f, &st));
	sb_release(&sb);
}

static void fail_cells(struct ctx *c, const struct cmp_row *row)
{
	struct strbuf sb = STRBUF_INIT;

	cell(c, "base_fails", &sb, table_format_fails(&sb, &row->st[BASE],
						      row->n[BASE]));
	cell(c, "reproduction", &sb, table_format_reproduction(&sb,
							row->reproduction));
	cell(c, "head_fails", &sb, table_format_fails(&sb, &row->st[HEAD],
						      row->n[HEAD]));
	sb_release(&sb);
}

/* The start of one row's context: what every list of rows has. */
static void row_head(struct ctx *c, const struct ctx *parent, size_t i,
		     const char *name, int headline)
{
	ctx_init(c, parent->family);
	ctx_int(c, "index", (long long)i);
	ctx_str(c, "metric", name);
	ctx_bool(c, "headline", headline);
}

static void tests(struct ctx *c, const struct cmp_row *row)
{
	struct evidence ev;

	if (evidence_of_row(row, &ev))
		c->oom = 1;
	else
		ctx_evidence(c, "tests", &ev);
}

struct lists {
	json_t *fails, *rows, *evidence, *strips;
	size_t nfails;
};

static void one_row(struct ctx *c, struct lists *l,
		    const struct report_inputs *in, size_t i, const char *name)
{
	const struct cmp_row *row = &in->cmp.rows[i];
	int head = row == in->verdict.headline;
	struct ctx r, e;

	row_head(&r, c, i, name, head);
	if (row->failure)
		fail_cells(&r, row);
	else
		perf_cells(&r, rules_format(in->rules), row);
	ctx_append(c, row->failure ? l->fails : l->rows, &r);
	l->nfails += row->failure;
	row_head(&e, c, i, name, head);
	tests(&e, row);
	ctx_append(c, l->evidence, &e);
	ctx_strip(c, l->strips, row, name, i);
}

static void headline(struct ctx *parent, const struct report_inputs *in,
		     const struct web_mask *m)
{
	const struct cmp_row *h = in->verdict.headline;
	struct strbuf ch = STRBUF_INIT;
	char *name;
	struct ctx c;

	if (!h) {
		ctx_opt(parent, "headline", NULL);
		return;
	}
	name = web_text_dup(m, h->name);
	row_head(&c, parent, (size_t)(h - in->cmp.rows), name, 1);
	if (table_format_headline_change(&ch, h->change))
		c.oom = 1;
	ctx_str(&c, "change", sb_str(&ch));
	ctx_bool(&c, "regression", in->verdict.regression);
	ctx_bool(&c, "improvement", !in->verdict.regression);
	tests(&c, h);
	ctx_child(parent, "headline", &c);
	sb_release(&ch);
	free(name);
}

void ctx_comparison(struct ctx *parent, const char *key,
		    const struct report_inputs *in, const struct web_mask *m)
{
	struct lists l = { NULL, NULL, NULL, NULL, 0 };
	struct ctx c, runs;
	char *name;
	int fail;

	ctx_init(&c, parent->family);
	ctx_init(&runs, parent->family);
	ctx_int(&runs, "base", (long long)in->cmp.runs[BASE]);
	ctx_int(&runs, "head", (long long)in->cmp.runs[HEAD]);
	ctx_child(&c, "runs", &runs);
	l.fails = ctx_list(&c, "fail_rows");
	l.rows = ctx_list(&c, "rows");
	l.evidence = ctx_list(&c, "evidence");
	l.strips = ctx_list(&c, "strips");
	/* the mail's order: the failure block first */
	for (fail = 1; fail >= 0; fail--)
		for (size_t i = 0; i < in->cmp.nrows; i++) {
			const struct cmp_row *row = &in->cmp.rows[i];

			if (!row->shown || row->failure != fail)
				continue;
			name = web_text_dup(m, row->name);
			if (!name)
				c.oom = 1;
			else
				one_row(&c, &l, in, i, name);
			free(name);
		}
	ctx_bool(&c, "has_fail_rows", l.nfails > 0);
	headline(&c, in, m);
	ctx_child(parent, key, &c);
}
