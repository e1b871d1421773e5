// SPDX-License-Identifier: GPL-2.0-only
/*
 * render: one report. Its inputs loaded and judged (judge/inputs.c), its
 * recipients and identity (compose), the template context built from
 * them and the report's body and subject rendered through the templates.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/chart.h"
#include "perfbot/evidence.h"
#include "perfbot/id.h"
#include "perfbot/identity.h"
#include "perfbot/recipients.h"
#include "perfbot/report.h"
#include "perfbot/table.h"
#include "perfbot/template.h"
#include "perfbot/text.h"
#include "perfbot/thread.h"
#include "perfbot/trigger.h"

#define MAX_CHARTS 4
#define CHART_WIDTH 80
#define CHART_HEIGHT 20

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

/* A list of strings for the context: always a list, maybe empty. */
static json_t *strings_json(const char *const *v, size_t n)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; a && i < n; i++)
		if (json_array_append_new(a, json_string(v[i]))) {
			json_decref(a);
			return NULL;
		}
	return a;
}

/* The text before the first ':' of a commit subject ("pipe"), or NULL. */
static json_t *subsystem(const char *subject)
{
	const char *colon = strchr(subject, ':');

	if (!colon || colon == subject || colon - subject > 40)
		return json_null();
	return json_stringn(subject, (size_t)(colon - subject));
}

/* [tree:branch]: the manifest's tree, else the repository's name. */
static json_t *tree_of(const struct manifest_side *s)
{
	const char *base, *end;

	if (s->tree)
		return json_string(s->tree);
	if (!s->repo)
		return json_null();
	end = s->repo + strlen(s->repo);
	while (end > s->repo && end[-1] == '/')
		end--;
	if (end - s->repo > 4 && !strncmp(end - 4, ".git", 4))
		end -= 4;
	for (base = end; base > s->repo && base[-1] != '/' &&
	     base[-1] != ':'; base--)
		;
	return end > base ? json_stringn(base, (size_t)(end - base)) :
		json_null();
}

static json_t *commit_json(const struct manifest_side *s)
{
	return json_pack("{s:s, s:s%, s:s, s:o, s:o, s:o, s:o, s:o}",
			 "sha", s->commit, "short", s->commit,
			 strlen(s->commit) < 10 ? strlen(s->commit) : 10,
			 "subject", s->subject, "author", str_or_null(s->author),
			 "repo", str_or_null(s->repo),
			 "branch", str_or_null(s->branch),
			 "tree", tree_of(s),
			 "subsystem", subsystem(s->subject));
}

static json_t *params_json(const struct job_info *ji)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; a && i < ji->nparams; i++)
		json_array_append_new(a, json_pack("{s:s, s:s}", "key",
						   ji->params[i].key, "value",
						   ji->params[i].value));
	return a;
}

/* Strip one trailing newline: templates place their own. */
static json_t *text_json(struct strbuf *sb)
{
	if (sb->len && sb->buf[sb->len - 1] == '\n')
		sb_setlen(sb, sb->len - 1);
	return json_string(sb_str(sb));
}

static int chart_one(const struct cmp_row *row, json_t *charts,
		     struct pb_err *err)
{
	struct strbuf sb = STRBUF_INIT;
	int rc;

	rc = chart_render(row->name, row->v[BASE], row->n[BASE], row->v[HEAD],
			  row->n[HEAD], CHART_WIDTH, CHART_HEIGHT, &sb, err);
	if (!rc)
		json_array_append_new(charts, json_pack("{s:s, s:o}", "metric",
							row->name, "chart",
							text_json(&sb)));
	sb_release(&sb);
	return rc;
}

/* The headline metric, then the shown metrics that changed most. */
static json_t *charts_json(const struct report_inputs *in, struct pb_err *err)
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
		if (chart_one(pick[i], charts, err)) {
			json_decref(charts);
			return NULL;
		}
	return charts;
}

/* The headline with the plain line on its evidence. */
static json_t *headline_json(const struct report_inputs *in)
{
	const struct cmp_row *h = in->verdict.headline;
	struct strbuf ch = STRBUF_INIT, line = STRBUF_INIT;
	struct evidence ev;
	json_t *o = NULL;

	if (!evidence_of_row(h, &ev) && !evidence_line(&ev, &line) &&
	    !table_format_headline_change(&ch, h->change))
		o = json_pack("{s:s, s:s, s:s, s:b, s:b, s:s, s:o}", "metric",
			      h->name, "change", sb_str(&ch), "kind",
			      in->verdict.regression ? "regression" :
			      "improvement", "regression",
			      in->verdict.regression, "improvement",
			      !in->verdict.regression, "evidence_line",
			      sb_str(&line), "evidence", evidence_json(&ev));
	sb_release(&ch);
	sb_release(&line);
	return o;
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
		if (evidence_of_row(r, &ev) || !(e = evidence_json(&ev))) {
			json_decref(a);
			return NULL;
		}
		json_object_set_new(e, "metric", json_string(r->name));
		json_array_append_new(a, e);
	}
	return a;
}

int report_table_text(const struct report_inputs *in,
		      const struct manifest *m, struct strbuf *out)
{
	struct table_head h = {
		in->job.axes_keys, in->job.axes_values,
		{ m->base.commit, m->head.commit },
		{ m->base.subject, m->head.subject },
	};

	return table_render(&in->cmp, &h, rules_format(in->rules), 0, out);
}

/* An address list as a list of the template context. */
static json_t *list_json(const struct addrlist *l)
{
	return strings_json((const char *const *)l->v, l->n);
}

/* The patch the report answers, for the templates; null when none. */
static json_t *patch_json(const struct manifest *m, const struct config *cfg)
{
	const struct manifest_patch *p = &m->patch;
	char *link;
	json_t *o;

	if (!p->message_id)
		return json_null();
	link = identity_patch_link(cfg, p->link, p->message_id);
	o = json_pack("{s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:o}",
		      "message_id", p->message_id, "subject", p->subject,
		      "link", str_or_null(link), "url", str_or_null(p->url),
		      "base", str_or_null(p->base),
		      "references", strings_json((const char *const *)
						 p->references,
						 p->nreferences),
		      "to", strings_json(p->to.v, p->to.n),
		      "cc", strings_json(p->cc.v, p->cc.n));
	free(link);
	return o;
}

/* In-Reply-To and References of a report that answers a patch. */
static int patch_thread(struct report *r, const struct manifest *m,
			struct pb_err *err)
{
	const struct manifest_patch *p = &m->patch;
	struct strbuf irt = STRBUF_INIT;

	if (!p->message_id)
		return 0;
	r->references = thread_references((const char *const *)p->references,
					  p->nreferences, NULL,
					  p->message_id);
	if (!sb_addf(&irt, "<%s>", p->message_id))
		r->in_reply_to = sb_detach(&irt, NULL);
	sb_release(&irt);
	return r->references && r->in_reply_to ? 0 :
		pb_fail(err, EX_OSERR, "out of memory");
}

static int identity(struct report *r, const struct report_inputs *in,
		    const struct manifest *m, const struct config *cfg,
		    const struct report_opts *o, struct pb_err *err)
{
	r->from = strdup(cfg->identity.from);
	r->date = o->now;
	r->regression = in->verdict.regression;
	r->job_yaml = strdup(in->root[HEAD].job_text);
	r->kconfig_file = m->kconfig_file ? strdup(m->kconfig_file) : NULL;
	if (!r->from || !r->job_yaml ||
	    (m->kconfig_file && !r->kconfig_file))
		return pb_fail(err, EX_OSERR, "out of memory");
	r->message_id = identity_message_id(cfg, r->id, r->date);
	if (!r->message_id)
		return pb_fail(err, EX_OSERR, "out of memory");
	return patch_thread(r, m, err);
}

static json_t *context(const struct report *r, const struct report_inputs *in,
		       const struct manifest *m, const struct config *cfg,
		       const struct report_opts *o, struct pb_err *err)
{
	struct strbuf table = STRBUF_INIT, legend = STRBUF_INIT;
	json_t *charts = charts_json(in, err), *ctx;
	char *closes = identity_closes_url(cfg, r->message_id);

	if (!charts || report_table_text(in, m, &table) || chart_legend(&legend)) {
		json_decref(charts);
		free(closes);
		sb_release(&table);
		sb_release(&legend);
		pb_fail(err, EX_SOFTWARE, "report: rendering the table failed");
		return NULL;
	}
	ctx = json_pack("{s:s, s:s, s:s, s:o, s:o, s:o, s:s, s:o, s:o, s:s,"
			" s:s, s:s, s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:o,"
			" s:o, s:b, s:s, s:o, s:{s:I, s:I}, s:o, s:o, s:o}",
			"report_id", r->id, "message_id", r->message_id,
			"bot_name", cfg->identity.name,
			"headline", headline_json(in),
			"commit", commit_json(&m->head),
			"base", commit_json(&m->base),
			"testcase", in->testcase,
			"test_description", str_or_null(report_inputs_testcase(
				in, "description")),
			"test_url", str_or_null(report_inputs_testcase(in,
								       "url")),
			"kconfig", in->job.kconfig,
			"compiler", in->job.compiler,
			"rootfs", in->job.rootfs,
			"tbox_group", in->job.tbox_group,
			"machine", in->machine,
			"parameters", params_json(&in->job),
			"notes", strings_json(m->notes.v, m->notes.n),
			"materials_url", str_or_null(m->materials_url),
			"table", text_json(&table),
			"charts", charts,
			"chart_legend", text_json(&legend),
			"closes_url", str_or_null(closes),
			"regression", r->regression,
			"reported_by", cfg->identity.reported_by,
			"to", list_json(&r->to),
			"runs", "base", (json_int_t)in->cmp.runs[BASE],
			"head", (json_int_t)in->cmp.runs[HEAD],
			"patch", patch_json(m, cfg),
			"evidence", evidence_list(in),
			"confirmation", str_or_null(o->confirmation));
	free(closes);
	sb_release(&table);
	sb_release(&legend);
	if (!ctx)
		pb_fail(err, EX_OSERR, "report: out of memory");
	return ctx;
}

/* A report on a posted patch answers it: "Re: " + the patch's subject. */
static int render_all(struct report *r, const struct manifest *m,
		      const struct config *cfg, const struct report_opts *o,
		      struct pb_err *err)
{
	const char *name = o->template ? o->template :
		cfg->templates.report;
	struct strbuf body = STRBUF_INIT, subject = STRBUF_INIT;
	int rc = -1;

	if (!template_render(cfg, name, r->ctx, &body, err) &&
	    !template_render(cfg, "subject", r->ctx, &subject, err)) {
		while (subject.len && (subject.buf[subject.len - 1] == '\n' ||
				       subject.buf[subject.len - 1] == ' '))
			sb_setlen(&subject, subject.len - 1);
		r->body = sb_detach(&body, NULL);
		r->subject = m->patch.message_id ?
			thread_subject(m->patch.subject) :
			sb_detach(&subject, NULL);
		rc = r->body && r->subject ? 0 :
			pb_fail(err, EX_OSERR, "out of memory");
	}
	if (!rc)
		text_scrub_line(r->subject);
	sb_release(&body);
	sb_release(&subject);
	return rc;
}

/* No headline: is the key metric, hidden by the filter, worth a look? */
static int candidate(struct report *r, const struct report_inputs *in,
		     struct pb_err *err)
{
	const char *key = in->key_metric;
	const struct cmp_row *row = key ? comparison_find(&in->cmp, key) : NULL;

	if (!trigger_candidate(row))
		return 0;
	r->candidate = 1;
	r->metric = strdup(row->name);
	r->change = row->change;
	if (!r->metric || evidence_of_row(row, &r->evidence))
		return pb_fail(err, EX_OSERR, "out of memory");
	return 0;
}

/*
 * Each commit's subject line, which the report quotes: the manifest's,
 * else the one job.yaml of that side holds; neither is an error rather
 * than a '("")' in a mail.
 */
static int subjects(struct manifest *m, const struct report_inputs *in,
		    struct pb_err *err)
{
	struct manifest_side *side[2] = { &m->base, &m->head };
	static const char *const name[2] = { "base", "head" };
	const char *s;
	int i;

	for (i = BASE; i <= HEAD; i++) {
		if (side[i]->subject && *side[i]->subject)
			continue;
		s = result_root_job_str(&in->root[i], "subject");
		if (!s || !*s)
			return pb_fail(err, EX_DATAERR, "%s: '%s.subject' is "
				       "missing, and so is the subject of %s's "
				       "job.yaml: the report quotes each "
				       "commit's subject line", m->doc.name,
				       name[i], name[i]);
		side[i]->subject = s;
	}
	return 0;
}

int report_build(struct report *r, const struct manifest *mf,
		 const struct config *cfg, const struct report_opts *o,
		 struct pb_err *err)
{
	struct manifest copy = *mf, *m = &copy;	/* with the subjects */
	struct report_inputs in;
	int rc = -1;

	memset(r, 0, sizeof(*r));
	if (report_inputs_load(&in, m, cfg, err))
		goto out;
	r->id = m->id ? strdup(m->id) : id_report(m->base.commit,
		m->head.commit, in.job.axes_keys, in.job.axes_values);
	if (!r->id) {
		pb_fail(err, EX_OSERR, "out of memory");
		goto out;
	}
	memcpy(r->runs, in.cmp.runs, sizeof(r->runs));
	if (!in.verdict.headline && o->force_metric &&
	    judge_force(&in.cmp, in.rules, o->force_metric, &in.verdict))
		goto out;
	if (!in.verdict.headline) {
		rc = candidate(r, &in, err);
		goto out;
	}
	r->worth = 1;
	r->metric = strdup(in.verdict.headline->name);
	r->change = in.verdict.headline->change;
	if (!r->metric ||
	    evidence_of_row(in.verdict.headline, &r->evidence)) {
		pb_fail(err, EX_OSERR, "out of memory");
		goto out;
	}
	if (subjects(m, &in, err) || identity(r, &in, m, cfg, o, err) ||
	    recipients_report(m, cfg, &r->to, &r->cc, err))
		goto out;
	r->ctx = context(r, &in, m, cfg, o, err);
	if (!r->ctx || render_all(r, m, cfg, o, err))
		goto out;
	rc = 0;
out:
	report_inputs_release(&in);
	if (rc)
		report_release(r);
	return rc;
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
	free(r->kconfig_file);
	free(r->metric);
	json_decref(r->ctx);
	memset(r, 0, sizeof(*r));
}
