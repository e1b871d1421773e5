// SPDX-License-Identifier: GPL-2.0-only
/*
 * web: the pages that list reports (lists.h): index.html, open.html and
 * the testcase pages in pages of web.per_page lines, feed.atom, and
 * status.html (what 'perfbot status' shows).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/state/status.h"
#include "perfbot/web/life.h"
#include "perfbot/web/lists.h"
#include "perfbot/web/mask.h"

/* One kind of list: its pages' names, where they are, what they hold. */
struct list_kind {
	const char *name;	/* "all", "open", "testcase" */
	const char *testcase;	/* of a testcase's list */
	const char *root;	/* from its pages to the top */
};

static char *page_path(const struct list_kind *k, size_t page)
{
	char buf[64];

	if (k->testcase)
		return web_testcase_path(k->testcase, page);
	if (page > 1)
		snprintf(buf, sizeof(buf), "%s-%zu.html", strcmp(k->name, "all")
			 ? k->name : "index", page);
	else
		snprintf(buf, sizeof(buf), "%s.html", strcmp(k->name, "all") ?
			 k->name : "index");
	return strdup(buf);
}

static void text(struct ctx *c, const char *key, const struct web_mask *m,
		 const char *s)
{
	char *v = s ? web_text_dup(m, s) : NULL;

	if (s && !v)
		c->oom = 1;
	else
		ctx_opt(c, key, v);
	free(v);
}

static void summary(struct ctx *c, const struct web_summary *sum)
{
	char *href = sum && sum->testcase ?
		web_testcase_path(sum->testcase, 1) : NULL;
	int head = sum && sum->metric;

	ctx_bool(c, "ok", sum && sum->ok);
	ctx_opt(c, "testcase", sum ? sum->testcase : NULL);
	ctx_opt(c, "testcase_href", href);
	ctx_bool(c, "has_headline", head);
	ctx_opt(c, "metric", head ? sum->metric : NULL);
	ctx_opt(c, "change", head ? sum->change : NULL);
	ctx_bool(c, "regression", head && sum->regression);
	ctx_bool(c, "improvement", head && !sum->regression);
	ctx_int(c, "base_n", head ? sum->base_n : 0);
	ctx_int(c, "head_n", head ? sum->head_n : 0);
	ctx_bool(c, "per_side", head && sum->base_n == sum->head_n);
	ctx_opt(c, "welch_p", head ? sum->welch_p : NULL);
	free(href);
}

static void entry(struct ctx *parent, json_t *list, const struct web_entry *e,
		  const struct web_mask *m)
{
	const struct archive_report *r = e->row;
	struct web_life life;
	struct ctx c;

	ctx_init(&c, parent->family);
	ctx_str(&c, "href", e->path);
	ctx_str(&c, "report_id", r->id);
	ctx_date(&c, "date", r->sent_at ? r->sent_at : r->created);
	text(&c, "subject", m, r->subject ? r->subject : "");
	summary(&c, e->sum);
	web_life_of(r, &life);
	ctx_life(&c, "life", &life);
	ctx_bool(&c, "queued", !strcmp(r->status, "queued"));
	ctx_bool(&c, "failed", !strcmp(r->status, "failed"));
	ctx_append(parent, list, &c);
}

/* The links to every page of the list: each page's own file name. */
static void pager(struct ctx *parent, const struct list_kind *k,
		  size_t page, size_t pages)
{
	json_t *list = ctx_list(parent, "pager");
	const char *base;
	struct ctx c;
	char *path;
	size_t i;

	for (i = 1; pages > 1 && i <= pages; i++) {
		path = page_path(k, i);
		base = path ? strrchr(path, '/') : NULL;
		ctx_init(&c, parent->family);
		ctx_int(&c, "number", (long long)i);
		ctx_str(&c, "href", base ? base + 1 : path);
		ctx_bool(&c, "current", i == page);
		ctx_append(parent, list, &c);
		free(path);
	}
	ctx_bool(parent, "paged", pages > 1);
}

struct lists {
	const struct web_site *s;
	struct site_tree *t;
	struct web_mask m;
	json_t *testcases;	/* the testcases' links, for every page */
};

static int one_page(struct lists *l, const struct list_kind *k,
		    const struct web_entry *const *e, size_t n, size_t page,
		    size_t pages, struct pb_err *err)
{
	size_t per = (size_t)l->s->cfg->web.per_page, i, from = (page - 1) * per;
	struct strbuf out = STRBUF_INIT;
	char *path = page_path(k, page);
	json_t *list, *ctx = NULL;
	struct ctx c;
	int rc = -1;

	ctx_init(&c, "web list");
	ctx_page(&c, l->s, k->root);
	ctx_bool(&c, "kind_all", !strcmp(k->name, "all"));
	ctx_bool(&c, "kind_open", !strcmp(k->name, "open"));
	text(&c, "kind_testcase", &l->m, k->testcase);
	ctx_int(&c, "count", (long long)n);
	ctx_bool(&c, "one", n == 1);
	ctx_int(&c, "page", (long long)page);
	ctx_int(&c, "pages", (long long)pages);
	list = ctx_list(&c, "reports");
	for (i = from; i < n && i < from + per; i++)
		entry(&c, list, e[i], &l->m);
	ctx_bool(&c, "has_reports", n > 0);
	pager(&c, k, page, pages);
	ctx_take(&c, "testcases", json_incref(l->testcases));
	ctx_bool(&c, "has_testcases", json_array_size(l->testcases) > 0);
	if (path && !ctx_finish(&c, &ctx, err) &&
	    !web_render(l->s, "list.html", ctx, &out, err))
		rc = site_page(l->t, path, NULL, sb_str(&out), out.len, err);
	else if (!path)
		pb_fail(err, EX_OSERR, "out of memory");
	ctx_release(&c);
	json_decref(ctx);
	sb_release(&out);
	free(path);
	return rc;
}

static int one_list(struct lists *l, const struct list_kind *k,
		    const struct web_entry *const *e, size_t n,
		    struct pb_err *err)
{
	size_t per = (size_t)l->s->cfg->web.per_page;
	size_t pages = n ? (n + per - 1) / per : 1, p;

	for (p = 1; p <= pages; p++)
		if (one_page(l, k, e, n, p, pages, err))
			return -1;
	return 0;
}

static int by_testcase(const void *a, const void *b)
{
	const struct web_entry *const *x = a, *const *y = b;
	int c = strcmp((*x)->sum->testcase, (*y)->sum->testcase);

	/* the same testcase: newest first, as they came */
	return c ? c : (*x < *y ? -1 : *x > *y);
}

/* The entries that have a testcase, grouped by it (sorted by name). */
static const struct web_entry **grouped(const struct web_entry *e, size_t n,
					size_t *ng)
{
	const struct web_entry **g = calloc(n + 1, sizeof(*g));
	size_t i;

	*ng = 0;
	for (i = 0; g && i < n; i++)
		if (e[i].sum && e[i].sum->testcase)
			g[(*ng)++] = &e[i];
	if (g)
		qsort(g, *ng, sizeof(*g), by_testcase);
	return g;
}

static int add_testcase(struct lists *l, const char *name, size_t count,
			struct pb_err *err)
{
	char *href = web_testcase_path(name, 1);
	json_t *o = NULL;
	struct ctx c;
	int rc;

	ctx_init(&c, "web list");
	text(&c, "name", &l->m, name);
	ctx_str(&c, "href", href);
	ctx_int(&c, "count", (long long)count);
	rc = ctx_finish(&c, &o, err);
	if (!rc && json_array_append_new(l->testcases, o))
		rc = pb_fail(err, EX_OSERR, "out of memory");
	free(href);
	return rc;
}

/* Each testcase's list, and the links to them all. */
static int testcase_lists(struct lists *l, const struct web_entry *const *g,
			  size_t ng, struct pb_err *err)
{
	struct list_kind k = { "testcase", NULL, "../" };
	size_t i, j;

	for (i = 0; i < ng; i = j) {
		for (j = i; j < ng && !strcmp(g[j]->sum->testcase,
					      g[i]->sum->testcase); j++)
			;
		if (add_testcase(l, g[i]->sum->testcase, j - i, err))
			return -1;
	}
	for (i = 0; i < ng; i = j) {
		for (j = i; j < ng && !strcmp(g[j]->sum->testcase,
					      g[i]->sum->testcase); j++)
			;
		k.testcase = g[i]->sum->testcase;
		if (one_list(l, &k, g + i, j - i, err))
			return -1;
	}
	return 0;
}

int web_lists(const struct web_site *s, struct site_tree *t,
	      const struct web_entry *e, size_t n, struct pb_err *err)
{
	struct list_kind all = { "all", NULL, "" }, open = { "open", NULL, "" };
	const struct web_entry **v = calloc(n + 1, sizeof(*v)), **g = NULL;
	struct lists l = { s, t, { { NULL, 0 }, { NULL, 0 }, NULL, NULL, 0 },
			   NULL };
	size_t i, nopen = 0, ng = 0;
	struct web_life life;
	int rc = -1;

	web_mask_init(&l.m, s->hidden);
	l.testcases = json_array();
	g = v ? grouped(e, n, &ng) : NULL;
	if (!v || !g || !l.testcases) {
		pb_fail(err, EX_OSERR, "out of memory");
		goto out;
	}
	if (testcase_lists(&l, g, ng, err))
		goto out;
	for (i = 0; i < n; i++)
		v[i] = &e[i];
	if (one_list(&l, &all, v, n, err))
		goto out;
	for (i = 0; i < n; i++) {
		web_life_of(e[i].row, &life);
		if (life.open)
			v[nopen++] = &e[i];
	}
	rc = one_list(&l, &open, v, nopen, err);
out:
	web_mask_release(&l.m);
	json_decref(l.testcases);
	free(v);
	free(g);
	return rc;
}
