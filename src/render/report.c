// SPDX-License-Identifier: GPL-2.0-only
/*
 * render: the text of one report. From its inputs (judge/inputs.c) and
 * the ids, recipients and links the driver (cycle/report.c) gave it, the
 * template context is built (render/context.c checks every value) and
 * the body and subject are rendered through the templates.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/render/chart.h"
#include "perfbot/compare/evidence.h"
#include "perfbot/render/context.h"
#include "perfbot/render/evidence_view.h"
#include "perfbot/render/report.h"
#include "perfbot/compare/table.h"
#include "perfbot/render/template.h"
#include "perfbot/util/text.h"

#define MAX_CHARTS 4
#define CHART_WIDTH 80
#define CHART_HEIGHT 20

/* The text before the first ':' of a commit subject ("pipe"), or none. */
static size_t subsystem_len(const char *subject)
{
	const char *colon = strchr(subject, ':');

	if (!colon || colon == subject || colon - subject > 40)
		return 0;
	return (size_t)(colon - subject);
}

/*
 * [tree:branch]: the manifest's tree, else the repository's name; Linus'
 * tree (.../torvalds/linux) is 'linus', as the robot names it.
 */
static void tree_of(struct ctx *c, const struct manifest_side *s)
{
	const char *base, *end;

	if (s->tree || !s->repo) {
		ctx_opt(c, "tree", s->tree);
		return;
	}
	end = s->repo + strlen(s->repo);
	while (end > s->repo && end[-1] == '/')
		end--;
	if (end - s->repo > 4 && !strncmp(end - 4, ".git", 4))
		end -= 4;
	for (base = end; base > s->repo && base[-1] != '/' &&
	     base[-1] != ':'; base--)
		;
	if (end - base == 5 && !strncmp(base, "linux", 5) &&
	    base - s->repo >= 9 && !strncmp(base - 9, "torvalds/", 9))
		ctx_str(c, "tree", "linus");
	else if (end > base)
		ctx_strn(c, "tree", base, (size_t)(end - base));
	else
		ctx_opt(c, "tree", NULL);
}

static void commit_ctx(struct ctx *parent, const char *key,
		       const struct manifest_side *s)
{
	size_t sub = subsystem_len(s->subject);
	struct ctx c;

	ctx_init(&c, parent->family);
	ctx_str(&c, "sha", manifest_side_sha(s));
	/* a ref ('v6.13') as the robot prints it; a sha cut to 10 */
	if (s->ref)
		ctx_str(&c, "short", s->ref);
	else
		ctx_strn(&c, "short", s->commit,
			 strlen(s->commit) < 10 ? strlen(s->commit) : 10);
	ctx_opt(&c, "ref", s->ref);
	ctx_str(&c, "subject", s->subject);
	ctx_opt(&c, "author", s->author);
	ctx_opt(&c, "repo", s->repo);
	ctx_opt(&c, "branch", s->branch);
	tree_of(&c, s);
	if (sub)
		ctx_strn(&c, "subsystem", s->subject, sub);
	else
		ctx_opt(&c, "subsystem", NULL);
	ctx_child(parent, key, &c);
}

json_t *report_params_json(const struct job_axes *ji)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; a && i < ji->nparams; i++) {
		struct ctx p;
		json_t *o;

		ctx_init(&p, "report");
		ctx_str(&p, "key", ji->params[i].key);
		ctx_str(&p, "value", ji->params[i].value);
		if (ctx_finish(&p, &o, NULL) || json_array_append_new(a, o)) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

/* Strip one trailing newline: templates place their own. */
static json_t *text_json(struct strbuf *sb)
{
	if (sb->len && sb->buf[sb->len - 1] == '\n')
		sb_setlen(sb, sb->len - 1);
	return json_string(sb_str(sb));
}

/*
 * A bisection's metric is charted with every run of the commits it judged
 * good and bad (chart_bisect_samples()), not only its parent's and its
 * culprit's.
 */
static int chart_bisected(const struct cmp_row *row, const struct bisect *b,
			  struct strbuf *sb, struct pb_err *err)
{
	double *good, *bad;
	size_t ng, nb;
	int rc;

	if (chart_bisect_samples(b, &good, &ng, &bad, &nb, err))
		return -1;
	rc = chart_render(row->name, good, ng, bad, nb, CHART_WIDTH,
			  CHART_HEIGHT, sb, err);
	free(good);
	free(bad);
	return rc;
}

static int chart_one(const struct cmp_row *row, const struct bisect *b,
		     json_t *charts, struct pb_err *err)
{
	struct strbuf sb = STRBUF_INIT;
	struct ctx c;
	json_t *o;
	int rc;

	if (b && b->phase == BISECT_CULPRIT && !strcmp(row->name, b->metric))
		rc = chart_bisected(row, b, &sb, err);
	else
		rc = chart_render(row->name, row->v[BASE], row->n[BASE],
				  row->v[HEAD], row->n[HEAD], CHART_WIDTH,
				  CHART_HEIGHT, &sb, err);
	if (!rc) {
		ctx_init(&c, "report");
		ctx_str(&c, "metric", row->name);
		ctx_take(&c, "chart", text_json(&sb));
		rc = ctx_finish(&c, &o, err) || json_array_append_new(charts, o);
	}
	sb_release(&sb);
	return rc ? -1 : 0;
}

/* The headline metric, then the shown metrics that changed most. */
static json_t *charts_json(const struct report_inputs *in,
			   const struct bisect *b, struct pb_err *err)
{
	const struct cmp_row *pick[MAX_CHARTS] = { in->verdict.headline };
	json_t *charts = json_array();
	size_t i, k, n = 1;

	for (k = 1; k < MAX_CHARTS; k++) {
		const struct cmp_row *best = NULL;

		for (i = 0; i < in->cmp.nrows; i++) {
			const struct cmp_row *r = &in->cmp.rows[i];
			size_t j;

			if (!r->shown || r->failure || r->absolute ||
			    !isfinite(r->change))
				continue;
			for (j = 0; j < n && pick[j] != r; j++)
				;
			if (j == n && (!best ||
				       fabs(r->change) > fabs(best->change)))
				best = r;
		}
		if (!best)
			break;
		pick[n++] = best;
	}
	for (i = 0; charts && i < n; i++)
		if (chart_one(pick[i], b, charts, err)) {
			json_decref(charts);
			return NULL;
		}
	return charts;
}

const char *report_kind_word(const struct report_inputs *in)
{
	/* no known direction: neither word, only "change" */
	return in->verdict.unknown ? "change" :
		in->verdict.regression ? "regression" : "improvement";
}

/* The headline with the plain line on its evidence. */
static void headline_ctx(struct ctx *parent, const struct report_inputs *in)
{
	const struct cmp_row *h = in->verdict.headline;
	struct strbuf ch = STRBUF_INIT;
	struct evidence ev;
	struct ctx c;

	ctx_init(&c, parent->family);
	if (evidence_of_row(h, &ev) ||
	    table_format_headline_change(&ch, h->change))
		c.oom = 1;
	ctx_str(&c, "metric", h->name);
	ctx_str(&c, "change", sb_str(&ch));
	ctx_str(&c, "kind", report_kind_word(in));
	ctx_bool(&c, "regression", in->verdict.regression);
	ctx_bool(&c, "improvement", !in->verdict.regression &&
		 !in->verdict.unknown);
	ctx_evidence(&c, "tests", &ev);
	ctx_take(&c, "evidence", evidence_json(&ev));
	ctx_child(parent, "headline", &c);
	sb_release(&ch);
}

/* Every shown metric's tests, in table order. */
static json_t *evidence_list(const struct report_inputs *in)
{
	json_t *a = json_array(), *e;
	struct evidence ev;
	size_t i;

	for (i = 0; a && i < in->cmp.nrows; i++) {
		const struct cmp_row *r = &in->cmp.rows[i];

		if (!r->shown)
			continue;
		if (evidence_of_row(r, &ev) || !(e = evidence_json(&ev)) ||
		    json_object_set_new(e, "metric", json_string(r->name)) ||
		    json_array_append_new(a, e)) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

int report_table_text(const struct report_inputs *in,
		      const struct manifest *m, struct strbuf *out)
{
	struct table_head h = {
		in->axes.keys, in->axes.values,
		{ m->base.commit, m->head.commit },
		/* a ref ('v6.13') is listed alone, as the robot lists it */
		{ m->base.ref ? NULL : m->base.subject,
		  m->head.ref ? NULL : m->head.subject }, 2,
	};

	return table_render(&in->cmp, &h, rules_format(in->rules), 0, out);
}

/* The patch the report answers, for the templates; null when none. */
static void patch_ctx(struct ctx *parent, const struct manifest *m,
		      const struct report_links *l)
{
	const struct manifest_patch *p = &m->patch;
	struct ctx c;

	if (!p->message_id) {
		ctx_opt(parent, "patch", NULL);
		return;
	}
	ctx_init(&c, parent->family);
	ctx_str(&c, "message_id", p->message_id);
	ctx_str(&c, "subject", p->subject);
	ctx_opt(&c, "link", l->patch_link);
	ctx_opt(&c, "url", p->url);
	ctx_opt(&c, "base", p->base);
	ctx_strings(&c, "references", (const char *const *)p->references,
		    p->nreferences);
	ctx_strings(&c, "to", p->to.v, p->to.n);
	ctx_strings(&c, "cc", p->cc.v, p->cc.n);
	ctx_child(parent, "patch", &c);
}

static void runs_ctx(struct ctx *parent, const struct report_inputs *in)
{
	struct ctx c;

	ctx_init(&c, parent->family);
	ctx_int(&c, "base", (long long)in->cmp.runs[BASE]);
	ctx_int(&c, "head", (long long)in->cmp.runs[HEAD]);
	ctx_child(parent, "runs", &c);
}

/* 1234567 as "1,234,567", as the line on a bisection prints it. */
static void thousands(struct strbuf *sb, size_t n)
{
	char digits[32];
	int len = snprintf(digits, sizeof(digits), "%zu", n), i;

	for (i = 0; i < len; i++)
		if (sb_addc(sb, digits[i]) ||
		    ((len - i - 1) % 3 == 0 && i < len - 1 && sb_addc(sb, ',')))
			return;
}

/* A commit of a bisection as its report names it: 12 hex digits. */
static void short_sha(struct ctx *c, const char *key, const char *sha)
{
	ctx_strn(c, key, sha, 12);
}

/*
 * How the culprit was found and what makes it less certain: a merge
 * (the change may be inside the branch it merges), a release tag, a
 * commit whose tree is its parent's (a no-op by its diff), commits just
 * before it that did not build (the change may be in them).
 */
static void culprit_ctx(struct ctx *c, const struct bisect *b,
			const struct bisect_verdict *v)
{
	char p[16];

	/* 4 decimals; one that would round up to 1 is said as it is */
	if (v->p >= 0.99995)
		snprintf(p, sizeof(p), "> 0.9999");
	else
		snprintf(p, sizeof(p), "= %.4f", v->p);
	ctx_str(c, "p", p);
	ctx_bool(c, "merge", (v->marks & BISECT_MERGE) != 0);
	ctx_opt(c, "tag", v->marks & BISECT_TAG ? b->p[v->culprit].tag :
		NULL);
	ctx_bool(c, "noop", (v->marks & BISECT_NOOP) != 0);
	if (v->skipped_before)
		ctx_int(c, "skipped_before", (long long)v->skipped_before);
	else
		ctx_opt(c, "skipped_before", NULL);
	ctx_bool(c, "lower", v->marks || v->skipped_before);
	short_sha(c, "parent", b->p[v->parent].sha);
}

/* "inconclusive: the change is between A and B (N commits)". */
static void inconclusive_ctx(struct ctx *parent, const struct bisect *b,
			     const struct bisect_verdict *v)
{
	struct strbuf n = STRBUF_INIT;
	struct ctx c;

	ctx_init(&c, parent->family);
	short_sha(&c, "from", b->p[v->lo].sha);
	short_sha(&c, "to", b->p[v->hi].sha);
	thousands(&n, v->ncommits);
	ctx_str(&c, "ncommits", n.len ? sb_str(&n) : NULL);
	ctx_str(&c, "why", v->why ? v->why : "");
	ctx_child(parent, "inconclusive", &c);
	sb_release(&n);
}

void report_bisect_ctx(struct ctx *parent, const struct bisect *b,
		       const struct bisect_verdict *v)
{
	struct strbuf n = STRBUF_INIT;
	struct ctx c;

	if (!b || !v) {
		ctx_opt(parent, "bisect", NULL);
		return;
	}
	ctx_init(&c, parent->family);
	thousands(&n, b->n);
	ctx_str(&c, "ncommits", n.len ? sb_str(&n) : NULL);
	ctx_int(&c, "rounds", b->rounds);
	ctx_int(&c, "runs", b->runs);
	ctx_str(&c, "metric", b->metric);
	ctx_bool(&c, "culprit", b->phase == BISECT_CULPRIT);
	if (b->phase == BISECT_CULPRIT) {
		culprit_ctx(&c, b, v);
		ctx_opt(&c, "inconclusive", NULL);
	} else {
		inconclusive_ctx(&c, b, v);
	}
	ctx_child(parent, "bisect", &c);
	sb_release(&n);
}

static int context(struct report *r, const struct report_inputs *in,
		   const struct manifest *m, const struct config *cfg,
		   const struct report_opts *o, const struct report_links *l,
		   struct pb_err *err)
{
	struct strbuf table = STRBUF_INIT, legend = STRBUF_INIT,
		conf = STRBUF_INIT;
	json_t *charts = charts_json(in, o->bisect, err);
	struct ctx c;

	if (!charts || report_table_text(in, m, &table) ||
	    chart_legend(&legend)) {
		json_decref(charts);
		sb_release(&table);
		sb_release(&legend);
		return pb_fail(err, EX_SOFTWARE, "report: rendering the table "
			       "failed");
	}
	ctx_init(&c, "report");
	ctx_str(&c, "report_id", r->id);
	ctx_str(&c, "message_id", r->message_id);
	ctx_str(&c, "bot_name", cfg->identity.name);
	headline_ctx(&c, in);
	commit_ctx(&c, "commit", &m->head);
	commit_ctx(&c, "base", &m->base);
	ctx_str(&c, "testcase", in->testcase);
	ctx_opt(&c, "test_description",
		report_inputs_testcase(in, "description"));
	ctx_opt(&c, "test_url", report_inputs_testcase(in, "url"));
	ctx_str(&c, "kconfig", in->job.kconfig);
	ctx_str(&c, "compiler", in->job.compiler);
	ctx_str(&c, "rootfs", in->job.rootfs);
	ctx_str(&c, "tbox_group", in->job.tbox_group);
	ctx_str(&c, "machine", in->machine);
	ctx_take(&c, "parameters", report_params_json(&in->axes));
	ctx_strings(&c, "notes", m->notes.v, m->notes.n);
	ctx_opt(&c, "materials_url", m->materials_url);
	ctx_take(&c, "table", text_json(&table));
	ctx_take(&c, "charts", charts);
	ctx_take(&c, "chart_legend", text_json(&legend));
	ctx_opt(&c, "closes_url", l->closes_url);
	ctx_bool(&c, "regression", r->regression > 0);
	ctx_str(&c, "reported_by", cfg->identity.reported_by);
	ctx_strings(&c, "to", (const char *const *)r->to.v, r->to.n);
	runs_ctx(&c, in);
	patch_ctx(&c, m, l);
	ctx_take(&c, "evidence", evidence_list(in));
	report_bisect_ctx(&c, o->bisect, o->bisect_v);
	report_also_ctx(&c, o->also, o->nalso);
	/* under the evidence, in lines of 80 columns as it is */
	if (o->confirmation &&
	    text_wrap(&conf, o->confirmation, 80, "  ", ", "))
		c.oom = 1;
	ctx_opt(&c, "confirmation", o->confirmation ? sb_str(&conf) : NULL);
	sb_release(&conf);
	sb_release(&table);
	sb_release(&legend);
	return ctx_finish(&c, &r->ctx, err);
}

/*
 * headline.evidence_text: the evidence template of the headline's tests
 * filled into lines of at most 80 columns, for a report template that
 * gives it lines of its own (the shipped ones, under the commit lines).
 */
static int evidence_text(json_t *ctx, const struct config *cfg,
			 struct pb_err *err)
{
	json_t *h = json_object_get(ctx, "headline");
	json_t *tests = json_object_get(h, "tests");
	struct strbuf one = STRBUF_INIT, lines = STRBUF_INIT;
	int rc;

	if (!json_is_object(tests))
		return 0;
	/* a report says what its tests showed, never which were impossible */
	if (!json_is_true(json_object_get(json_object_get(tests, "welch"),
					  "ok")) &&
	    !json_is_true(json_object_get(json_object_get(tests,
							  "mann_whitney"),
					  "ok")))
		return 0;
	if (json_object_set_new(tests, "report", json_true()))
		return pb_fail(err, EX_OSERR, "out of memory");
	rc = template_render(cfg, "evidence", tests, &one, err);
	json_object_del(tests, "report");
	while (!rc && one.len && (one.buf[one.len - 1] == '\n' ||
				  one.buf[one.len - 1] == ' '))
		sb_setlen(&one, one.len - 1);
	if (!rc && (text_wrap(&lines, sb_str(&one), 80, "  ", ", ") ||
		    json_object_set_new(h, "evidence_text",
					json_string(sb_str(&lines)))))
		rc = pb_fail(err, EX_OSERR, "out of memory");
	sb_release(&one);
	sb_release(&lines);
	return rc;
}

/* The body and the subject through their templates. */
static int render_all(struct report *r, const struct config *cfg,
		      const struct report_opts *o, struct pb_err *err)
{
	const char *name = o->template ? o->template :
		cfg->templates.report;
	struct strbuf body = STRBUF_INIT, subject = STRBUF_INIT;
	int rc = -1;

	if (!evidence_text(r->ctx, cfg, err) &&
	    !template_render(cfg, name, r->ctx, &body, err) &&
	    !template_render(cfg, "subject", r->ctx, &subject, err)) {
		while (subject.len && (subject.buf[subject.len - 1] == '\n' ||
				       subject.buf[subject.len - 1] == ' '))
			sb_setlen(&subject, subject.len - 1);
		r->body = sb_detach(&body, NULL);
		if (!r->subject)
			r->subject = sb_detach(&subject, NULL);
		rc = r->body && r->subject ? 0 :
			pb_fail(err, EX_OSERR, "out of memory");
	}
	if (!rc)
		text_scrub_line(r->subject);
	sb_release(&body);
	sb_release(&subject);
	return rc;
}

int report_render(struct report *r, const struct report_inputs *in,
		  const struct manifest *m, const struct config *cfg,
		  const struct report_opts *o, const struct report_links *l,
		  struct pb_err *err)
{
	r->regression = in->verdict.unknown ? -1 : in->verdict.regression;
	if (context(r, in, m, cfg, o, l, err))
		return -1;
	return render_all(r, cfg, o, err);
}

void report_release(struct report *r)
{
	free(r->id);
	free(r->message_id);
	free(r->from);
	addrlist_release(&r->to);
	addrlist_release(&r->cc);
	free(r->subject);
	free(r->in_reply_to);
	free(r->references);
	free(r->body);
	free(r->job_yaml);
	free(r->kconfig);
	free(r->metric);
	free(r->testcase);
	free(r->machine);
	json_decref(r->ctx);
	memset(r, 0, sizeof(*r));
}
