// SPDX-License-Identifier: GPL-2.0-only
/*
 * render: the comparisons that follow a report's own (issue 31 item 2),
 * as the robot lists them: under "In addition to that, the commit also
 * has significant impact on the following tests:" a box of each one's
 * testcase and change, machine and parameters, and in the details each
 * one's machine and table ('also' and 'also_box' of the context; the
 * words around them are the templates').
 */
#include <stdlib.h>
#include <string.h>

#include "perfbot/compare/table.h"
#include "perfbot/render/report.h"
#include "perfbot/util/strbuf.h"
#include "perfbot/util/text.h"

#define BOX_HEAD 16	/* "testcase: change" */

static const char *str_at(json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

/* "key=value" of every parameter, in the order of their keys. */
static int param_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

struct box_item {
	char *change;		/* "testcase: metric change kind" */
	char *machine;
	char **param;
	size_t nparam;
};

static void item_release(struct box_item *b)
{
	size_t i;

	free(b->change);
	free(b->machine);
	for (i = 0; i < b->nparam; i++)
		free(b->param[i]);
	free(b->param);
	memset(b, 0, sizeof(*b));
}

/*
 * The change as the box prints it: signed ("-40.3%", the classic robot),
 * or the modern robot's, its sign a space (" 3.8%").
 */
static const char *box_change(const char *change, int modern)
{
	return modern && *change == '-' ? change + 1 : change;
}

static int item_of(json_t *ctx, int modern, struct box_item *b)
{
	json_t *h = json_object_get(ctx, "headline");
	json_t *params = json_object_get(ctx, "parameters"), *p;
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	memset(b, 0, sizeof(*b));
	if (!str_at(ctx, "testcase") || !str_at(h, "metric") ||
	    !str_at(h, "change") || !str_at(h, "kind"))
		return -1;
	if (!*str_at(h, "metric") ?
	    sb_addf(&sb, "%s: no change passes the filter",
		    str_at(ctx, "testcase")) :
	    sb_addf(&sb, "%s: %s %s%s %s", str_at(ctx, "testcase"),
		    str_at(h, "metric"),
		    modern && *str_at(h, "change") == '-' ? " " : "",
		    box_change(str_at(h, "change"), modern),
		    str_at(h, "kind")))
		return -1;
	b->change = sb_detach(&sb, NULL);
	b->machine = str_at(ctx, "machine") ? strdup(str_at(ctx, "machine")) :
		NULL;
	b->param = calloc(json_array_size(params) + 1, sizeof(*b->param));
	if (!b->change || !b->machine || !b->param)
		return -1;
	json_array_foreach(params, i, p) {
		if (!str_at(p, "key") || !str_at(p, "value") ||
		    sb_addf(&sb, "%s=%s", str_at(p, "key"),
			    str_at(p, "value"))) {
			sb_release(&sb);
			return -1;
		}
		b->param[b->nparam] = sb_detach(&sb, NULL);
		if (!b->param[b->nparam++])
			return -1;
	}
	qsort(b->param, b->nparam, sizeof(*b->param), param_cmp);
	/* a cell is one line whatever job.yaml held */
	text_scrub_line(b->change);
	text_scrub_line(b->machine);
	for (i = 0; i < b->nparam; i++)
		text_scrub_line(b->param[i]);
	return 0;
}

static int rule(struct strbuf *sb, size_t width)
{
	size_t i;

	if (sb_addc(sb, '+'))
		return -1;
	for (i = 0; i < BOX_HEAD + 2; i++)
		if (sb_addc(sb, '-'))
			return -1;
	if (sb_addc(sb, '+'))
		return -1;
	for (i = 0; i < width + 2; i++)
		if (sb_addc(sb, '-'))
			return -1;
	return sb_adds(sb, "+\n");
}

static int row(struct strbuf *sb, const char *head, const char *text,
	       size_t width)
{
	return sb_addf(sb, "| %-*s | %-*s |\n", BOX_HEAD, head, (int)width,
		       text);
}

static int box_item(struct strbuf *sb, const struct box_item *b,
		    size_t width)
{
	size_t i;

	if (row(sb, "testcase: change", b->change, width) ||
	    row(sb, "test machine", b->machine, width))
		return -1;
	for (i = 0; i < b->nparam; i++)
		if (row(sb, i ? "" : "test parameters", b->param[i], width))
			return -1;
	return rule(sb, width);
}

static size_t item_width(const struct box_item *b)
{
	size_t w = strlen(b->change), i;

	if (strlen(b->machine) > w)
		w = strlen(b->machine);
	for (i = 0; i < b->nparam; i++)
		if (strlen(b->param[i]) > w)
			w = strlen(b->param[i]);
	return w;
}

/* The box of every comparison, one width for all, as the robot draws. */
static int box(json_t *const *also, size_t n, int modern,
	       struct strbuf *sb)
{
	struct box_item *it = calloc(n, sizeof(*it));
	size_t i, width = 0;
	int rc = -1;

	if (!it)
		return -1;
	for (i = 0; i < n; i++) {
		if (item_of(also[i], modern, &it[i]))
			goto out;
		if (item_width(&it[i]) > width)
			width = item_width(&it[i]);
	}
	if (rule(sb, width))
		goto out;
	for (i = 0; i < n; i++)
		if (box_item(sb, &it[i], width))
			goto out;
	if (sb->len)
		sb_setlen(sb, sb->len - 1);	/* the template ends the line */
	rc = 0;
out:
	for (i = 0; i < n; i++)
		item_release(&it[i]);
	free(it);
	return rc;
}

static void one(struct ctx *parent, json_t *list, json_t *o)
{
	json_t *h = json_object_get(o, "headline");
	struct ctx c;

	ctx_init(&c, parent->family);
	ctx_str(&c, "testcase", str_at(o, "testcase"));
	ctx_str(&c, "metric", str_at(h, "metric"));
	ctx_str(&c, "change", str_at(h, "change"));
	ctx_str(&c, "kind", str_at(h, "kind"));
	ctx_str(&c, "machine", str_at(o, "machine"));
	ctx_str(&c, "tbox_group", str_at(o, "tbox_group"));
	ctx_take(&c, "parameters",
		 json_deep_copy(json_object_get(o, "parameters")));
	ctx_str(&c, "table", str_at(o, "table"));
	ctx_append(parent, list, &c);
}

void report_also_ctx(struct ctx *c, json_t *const *also, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	json_t *list = ctx_list(c, "also");
	size_t i;

	for (i = 0; list && i < n; i++)
		one(c, list, also[i]);
	if (!n) {
		ctx_opt(c, "also_box", NULL);
		ctx_opt(c, "also_box_signed", NULL);
		return;
	}
	if (box(also, n, 1, &sb))
		c->oom = 1;
	ctx_str(c, "also_box", sb_str(&sb));
	sb_setlen(&sb, 0);
	if (box(also, n, 0, &sb))
		c->oom = 1;
	ctx_str(c, "also_box_signed", sb_str(&sb));
	sb_release(&sb);
}

static json_t *also_of(const struct report_inputs *in,
		       const struct manifest *m, struct pb_err *err)
{
	const struct cmp_row *h = in->verdict.headline;
	struct strbuf table = STRBUF_INIT, ch = STRBUF_INIT;
	struct ctx c, hc;
	json_t *o = NULL;

	ctx_init(&c, "report");
	ctx_str(&c, "testcase", in->testcase);
	ctx_init(&hc, "report");
	if (h && table_format_headline_change(&ch, h->change))
		hc.oom = 1;
	ctx_str(&hc, "metric", h ? h->name : "");
	ctx_str(&hc, "change", h ? sb_str(&ch) : "");
	ctx_str(&hc, "kind", h ? report_kind_word(in) : "");
	ctx_child(&c, "headline", &hc);
	ctx_str(&c, "machine", in->machine);
	ctx_str(&c, "tbox_group", in->job.tbox_group);
	ctx_take(&c, "parameters", report_params_json(&in->axes));
	if (report_table_text(in, m, &table))
		c.oom = 1;
	if (table.len && table.buf[table.len - 1] == '\n')
		sb_setlen(&table, table.len - 1);	/* as the report's */
	ctx_str(&c, "table", sb_str(&table));
	sb_release(&table);
	sb_release(&ch);
	return ctx_finish(&c, &o, err) ? NULL : o;
}

int report_also_add(struct report_also_list *l,
		    const struct report_inputs *in, const struct manifest *m,
		    struct pb_err *err)
{
	json_t *o;

	if (l->n >= GROUP_MAX_MEMBERS)
		return pb_fail(err, EX_SOFTWARE, "more than %d comparisons in "
			       "one mail", GROUP_MAX_MEMBERS);
	if (!(o = also_of(in, m, err)))
		return -1;
	l->v[l->n++] = o;
	return 0;
}

void report_also_list_ctx(struct ctx *c, const struct report_also_list *l)
{
	report_also_ctx(c, l->v, l->n);
}

void report_also_list_release(struct report_also_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		json_decref(l->v[i]);
	l->n = 0;
}
