// SPDX-License-Identifier: GPL-2.0-only
/*
 * web: the page of one report (reportpage.h): its thread read from the
 * state, its inputs loaded again through its kept manifest (on the runs
 * it was made from), the context built (the facts, commits, links,
 * comparison, mail, thread, status) and templates/web/report.html
 * rendered; and the summary the lists show of it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/compare/evidence.h"
#include "perfbot/compare/table.h"
#include "perfbot/compose/identity.h"
#include "perfbot/ingest/group.h"
#include "perfbot/state/noise.h"
#include "perfbot/util/id.h"
#include "perfbot/util/log.h"
#include "perfbot/web/cmpview.h"
#include "perfbot/web/life.h"
#include "perfbot/web/mailview.h"
#include "perfbot/web/reportpage.h"
#include "perfbot/web/thread.h"

/* What one page is made from. */
struct page {
	const struct web_site *s;
	const struct archive_report *row;
	struct archive_thread t;
	struct web_mask m;
	struct manifest mf;
	int have_mf;
	struct report_inputs in;
	int have_in;
	struct record rec, dup;	/* its record; the one it duplicates */
	struct state_noise *noise;	/* the learned noise of its headline */
	size_t nnoise, noise_at;	/* noise_at == nnoise: none */
};

char *web_report_path(const char *id)
{
	char *name = id_file_name(id), *p = NULL;
	size_t n;

	if (name) {
		n = strlen(name) + 8;
		p = malloc(n);
		if (p)
			snprintf(p, n, "r/%s.html", name);
	}
	free(name);
	return p;
}

char *web_testcase_path(const char *testcase, size_t page)
{
	char *name = id_file_name(testcase), *p = NULL;
	size_t n;

	if (name) {
		n = strlen(name) + 32;
		p = malloc(n);
		if (p && page > 1)
			snprintf(p, n, "t/%s~p%zu.html", name, page);
		else if (p)
			snprintf(p, n, "t/%s.html", name);
	}
	free(name);
	return p;
}

/*
 * The report's own recipients (and the bot) may be shown; every other
 * address of the thread is hidden wherever it appears.
 */
static int page_mask(struct page *p)
{
	const struct config *cfg = p->s->cfg;
	const struct archive_thread *t = &p->t;
	size_t i;
	int rc = 0;

	web_mask_init(&p->m, p->s->hidden);
	web_mask_ids(&p->m, p->s->ids, p->s->nids);
	if (cfg->web.show_addresses)
		rc = web_mask_allow(&p->m, t->report.recipients) ||
		     web_mask_allow(&p->m, cfg->identity.from);
	for (i = 0; !rc && i < t->nreplies; i++)
		rc = web_mask_know(&p->m, t->replies[i].sender);
	for (i = 0; !rc && i < t->nanswers; i++)
		rc = web_mask_know(&p->m, t->answers[i].recipients);
	for (i = 0; !rc && i < t->nretests; i++)
		rc = web_mask_know(&p->m, t->retests[i].requested_by);
	return rc;
}

/*
 * The runs the report was made from: what its first retest found (one
 * the farm refused before looking found none).
 */
static void report_runs(const struct archive_thread *t,
			struct inputs_opts *o)
{
	size_t i;

	for (i = 0; i < t->nretests; i++)
		if (t->retests[i].base_runs > 0 &&
		    t->retests[i].head_runs > 0) {
			o->runs[BASE] = (size_t)t->retests[i].base_runs;
			o->runs[HEAD] = (size_t)t->retests[i].head_runs;
			return;
		}
}

/* The inputs again; a report whose roots are gone still has its page. */
static void load_inputs(struct page *p, struct inputs_cache *cache)
{
	struct inputs_opts o = { cache, { 0, 0 }, NULL };
	struct pb_err e = { 0, "" };
	const struct archive_thread *t = &p->t;

	if (!t->text)
		return;
	if (manifest_parse(&p->mf, t->manifest ? t->manifest : t->report.id,
			   t->dir ? t->dir : ".", t->text,
			   manifest_kept_len(t->text), &e)) {
		log_warn("web: report '%s': %s", t->report.id, e.msg);
		return;
	}
	p->have_mf = 1;
	report_runs(t, &o);
	if (report_inputs_load_opts(&p->in, &p->mf, p->s->cfg, &o, &e)) {
		log_warn("web: report '%s': %s", t->report.id, e.msg);
		report_inputs_release(&p->in);
		return;
	}
	/* a confirmed report whose key metric the filter hides */
	if (!p->in.verdict.headline && p->in.key_metric)
		judge_force(&p->in.cmp, p->in.rules, p->in.key_metric,
			    &p->in.verdict);
	p->have_in = 1;
}

static void text(struct ctx *c, const char *key, const struct page *p,
		 const char *s)
{
	char *v = s ? web_text_dup(&p->m, s) : NULL;

	if (s && !v)
		c->oom = 1;
	else
		ctx_opt(c, key, v);
	free(v);
}

static void link(struct ctx *c, const char *key, const char *url)
{
	ctx_opt(c, key, web_url(url));
}

/* A commit: the manifest's, its subject else its job.yaml's. */
static void commit(struct ctx *parent, const char *key, const struct page *p,
		   int side)
{
	const struct manifest_side *ms = side == BASE ? &p->mf.base :
		&p->mf.head;
	const char *subject = ms->subject;
	struct ctx c;

	if (!p->have_mf) {
		ctx_opt(parent, key, NULL);
		return;
	}
	if ((!subject || !*subject) && p->have_in)
		subject = result_root_job_str(&p->in.root[side], "subject");
	ctx_init(&c, parent->family);
	text(&c, "sha", p, ms->commit);
	text(&c, "subject", p, subject);
	text(&c, "author", p, ms->author);
	text(&c, "branch", p, ms->branch);
	link(&c, "repo", ms->repo);
	ctx_child(parent, key, &c);
}

static void links(struct ctx *parent, const struct page *p)
{
	const struct config *cfg = p->s->cfg;
	char *archive = identity_closes_url(cfg, p->row->id,
					    p->row->message_id);
	char *patch = p->have_mf && p->mf.patch.message_id ?
		identity_patch_link(cfg, p->mf.patch.link,
				    p->mf.patch.message_id) : NULL;
	struct ctx c;

	ctx_init(&c, parent->family);
	link(&c, "archive", archive);
	link(&c, "materials", p->have_mf ? p->mf.materials_url : NULL);
	link(&c, "patch", patch);
	link(&c, "test", p->have_in ? report_inputs_testcase(&p->in, "url") :
	     NULL);
	ctx_child(parent, "links", &c);
	free(archive);
	free(patch);
}

/* The test: what job.yaml and the tables say of it. */
static void test(struct ctx *parent, const struct page *p)
{
	char *href = p->have_in ? web_testcase_path(p->in.testcase, 1) : NULL;
	struct ctx c;

	if (!p->have_in) {
		ctx_opt(parent, "test", NULL);
		return;
	}
	ctx_init(&c, parent->family);
	text(&c, "testcase", p, p->in.testcase);
	ctx_str(&c, "href", href);
	text(&c, "machine", p, p->in.machine);
	text(&c, "kconfig", p, p->in.job.kconfig);
	text(&c, "compiler", p, p->in.job.compiler);
	text(&c, "description", p, report_inputs_testcase(&p->in,
							  "description"));
	ctx_child(parent, "test", &c);
	free(href);
}

static void mail(struct ctx *c, const struct page *p)
{
	const struct archive_mail *am = &p->t.report;
	struct pb_err e = { 0, "" };
	struct mail_view v;

	if (mail_view_parse(&v, am->message, am->len, &p->m, &e)) {
		log_warn("web: report '%s': %s", am->id, e.msg);
		ctx_opt(c, "mail", NULL);
		return;
	}
	ctx_mail_view(c, "mail", &v);
	mail_view_release(&v);
}

/* Where the mail is: queued, sent (when), or failed. */
static void delivery(struct ctx *parent, const struct archive_report *row)
{
	struct ctx c;

	ctx_init(&c, parent->family);
	ctx_bool(&c, "queued", !strcmp(row->status, "queued"));
	ctx_bool(&c, "sent", !strcmp(row->status, "sent"));
	ctx_bool(&c, "failed", !strcmp(row->status, "failed"));
	ctx_date(&c, "created", row->created);
	if (row->sent_at)
		ctx_date(&c, "sent_at", row->sent_at);
	else
		ctx_opt(&c, "sent_at", NULL);
	ctx_child(parent, "delivery", &c);
}

/*
 * The noise learned for the headline's testcase, machine and metric
 * (state/noise.h, issue 32 item 5), as of the page's making; null when
 * none is.
 */
static void noise_load(struct page *p, struct state *st)
{
	const struct cmp_row *h = p->have_in ? p->in.verdict.headline : NULL;
	struct pb_err e = { 0, "" };

	p->nnoise = p->noise_at = 0;
	if (h && p->in.job.testcase && p->in.job.tbox_group &&
	    state_noise_all(st, p->in.job.testcase, p->in.job.tbox_group,
			    h->name, &p->noise, &p->nnoise, &p->noise_at, &e))
		p->nnoise = p->noise_at = 0;	/* the page goes without */
}

static void noise_ctx(struct ctx *parent, const struct page *p)
{
	const struct state_noise *v;
	struct ctx c;
	char cv[32];

	if (p->noise_at >= p->nnoise) {
		ctx_opt(parent, "noise", NULL);
		return;
	}
	v = &p->noise[p->noise_at];
	snprintf(cv, sizeof(cv), "%.2f%%", 100 * v->cv);
	ctx_init(&c, parent->family);
	ctx_str(&c, "testcase", v->testcase);
	ctx_str(&c, "machine", v->machine);
	ctx_str(&c, "metric", v->metric);
	ctx_str(&c, "cv", cv);
	ctx_int(&c, "df", v->df);
	ctx_child(parent, "noise", &c);
}

static int context(const struct page *p, json_t **out, struct pb_err *err)
{
	struct web_life life;
	struct ctx c;

	ctx_init(&c, "web report");
	ctx_page(&c, p->s, "../");
	ctx_str(&c, "report_id", p->row->id);
	text(&c, "subject", p, p->row->subject ? p->row->subject : "");
	ctx_str(&c, "message_id", p->row->message_id);
	web_life_of(p->row, &life);
	ctx_life(&c, "life", &life);
	ctx_life_record(&c, "record_facts", &p->rec, p->dup.report_id ? &p->dup :
			NULL, &p->m);
	delivery(&c, p->row);
	commit(&c, "commit", p, HEAD);
	commit(&c, "base", p, BASE);
	test(&c, p);
	links(&c, p);
	if (p->have_in)
		ctx_comparison(&c, "comparison", &p->in, &p->m);
	else
		ctx_opt(&c, "comparison", NULL);
	noise_ctx(&c, p);
	/* the runs a retest added are its answer's, not the table's */
	ctx_bool(&c, "retested", p->t.nretests > 0);
	mail(&c, p);
	ctx_thread(&c, &p->t, &p->m);
	return ctx_finish(&c, out, err);
}

/* ---- the summary ---- */

void web_summary_release(struct web_summary *s)
{
	free(s->testcase);
	free(s->metric);
	free(s->change);
	free(s->welch_p);
	memset(s, 0, sizeof(*s));
}

static int summarize(const struct page *p, struct web_summary *sum)
{
	const struct cmp_row *h = p->in.verdict.headline;
	struct strbuf sb = STRBUF_INIT;
	struct evidence ev;
	int rc = 0;

	memset(sum, 0, sizeof(*sum));
	if (!p->have_in)
		return 0;
	sum->ok = 1;
	sum->testcase = web_text_dup(&p->m, p->in.testcase);
	rc |= !sum->testcase;
	if (!h)
		return rc ? -1 : 0;
	sum->metric = web_text_dup(&p->m, h->name);
	rc |= !sum->metric || table_format_headline_change(&sb, h->change) ||
	      !(sum->change = strdup(sb_str(&sb))) || evidence_of_row(h, &ev);
	sum->regression = p->in.verdict.regression;
	sum->base_n = (long)h->n[BASE];
	sum->head_n = (long)h->n[HEAD];
	sb_reset(&sb);
	if (!rc && ev.w.ok && !evidence_format_p(ev.w.p, &sb))
		rc |= !(sum->welch_p = strdup(sb_str(&sb)));
	sb_release(&sb);
	return rc ? -1 : 0;
}

static json_t *opt_str(const char *s)
{
	return s ? json_string(s) : json_null();
}

json_t *web_summary_json(const struct web_summary *s)
{
	return json_pack("{s:b, s:o, s:o, s:o, s:b, s:I, s:I, s:o}",
			 "ok", s->ok, "testcase", opt_str(s->testcase),
			 "metric", opt_str(s->metric), "change",
			 opt_str(s->change), "regression", s->regression,
			 "base_n", (json_int_t)s->base_n, "head_n",
			 (json_int_t)s->head_n, "welch_p", opt_str(s->welch_p));
}

/* A string of the manifest ('*out' NULL for null): 0, or -1. */
static int get_str(const json_t *j, const char *key, char **out)
{
	const json_t *v = json_object_get(j, key);

	*out = NULL;
	if (json_is_null(v))
		return 0;
	if (!json_is_string(v))
		return -1;
	*out = strdup(json_string_value(v));
	return *out ? 0 : -1;
}

int web_summary_from_json(struct web_summary *s, const json_t *j)
{
	memset(s, 0, sizeof(*s));
	if (!json_is_object(j) ||
	    !json_is_boolean(json_object_get(j, "ok")) ||
	    !json_is_integer(json_object_get(j, "base_n")) ||
	    !json_is_integer(json_object_get(j, "head_n")) ||
	    get_str(j, "testcase", &s->testcase) ||
	    get_str(j, "metric", &s->metric) ||
	    get_str(j, "change", &s->change) ||
	    get_str(j, "welch_p", &s->welch_p)) {
		web_summary_release(s);
		return -1;
	}
	s->ok = json_is_true(json_object_get(j, "ok"));
	s->regression = json_is_true(json_object_get(j, "regression"));
	s->base_n = (long)json_integer_value(json_object_get(j, "base_n"));
	s->head_n = (long)json_integer_value(json_object_get(j, "head_n"));
	return 0;
}

/* ---- the page ---- */

/* Its record, and the record of the report it duplicates. */
static int records(struct page *p, struct state *st, struct pb_err *err)
{
	int found = 0;

	if (state_record_get(st, p->row->id, &p->rec, &found, err))
		return -1;
	if (!found)
		return pb_fail(err, EX_SOFTWARE, "report '%s' left the state",
			       p->row->id);
	if (p->rec.dup_of && state_record_get(st, p->rec.dup_of, &p->dup,
					      &found, err))
		return -1;
	return 0;
}

static void page_release(struct page *p)
{
	record_release(&p->rec);
	record_release(&p->dup);
	archive_thread_release(&p->t);
	web_mask_release(&p->m);
	if (p->have_in)
		report_inputs_release(&p->in);
	manifest_release(&p->mf);
	state_noise_free(p->noise, p->nnoise);
}

int web_report_page(const struct web_site *s, struct state *st,
		    struct inputs_cache *cache,
		    const struct archive_report *row, struct strbuf *out,
		    struct web_summary *sum, struct pb_err *err)
{
	struct page p;
	json_t *ctx = NULL;
	int found = 0, rc = -1;

	memset(&p, 0, sizeof(p));
	web_summary_release(sum);
	p.s = s;
	p.row = row;
	if (state_archive_thread(st, row->id, &p.t, &found, err))
		goto out;
	if (!found) {
		pb_fail(err, EX_SOFTWARE, "report '%s' left the state",
			row->id);
		goto out;
	}
	if (records(&p, st, err))
		goto out;
	if (page_mask(&p)) {
		pb_fail(err, EX_OSERR, "out of memory");
		goto out;
	}
	load_inputs(&p, cache);
	noise_load(&p, st);
	if (context(&p, &ctx, err))
		goto out;
	if (summarize(&p, sum)) {
		pb_fail(err, EX_OSERR, "out of memory");
		goto out;
	}
	rc = web_render(s, "report.html", ctx, out, err);
out:
	json_decref(ctx);
	page_release(&p);
	return rc;
}
