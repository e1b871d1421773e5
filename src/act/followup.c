// SPDX-License-Identifier: GPL-2.0-only
/*
 * act: what retests and tests share between the mail that asked and the
 * answer that comes when the farm's runs are in (followup.h): the kept
 * manifest, the thread kept as JSON, the commits and per-run values of
 * the answers, and the follow-up queued with the request's end.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/act/answers.h"
#include "perfbot/act/followup.h"
#include "perfbot/act/route.h"
#include "perfbot/ingest/group.h"
#include "perfbot/state/seen.h"
#include "perfbot/state/inbox.h"

int followup_manifest(struct state *st, const struct config *cfg,
		      const char *report_id,
		      struct manifest *m, struct pb_err *err)
{
	char *name = NULL, *text = NULL, *dir = NULL;
	int rc;

	if (state_manifest_text(st, report_id, &name, &text, &dir, err))
		return -1;
	if (!text)
		rc = pb_fail(err, EX_DATAERR, "report '%s': its manifest was "
			     "not kept", report_id);
	else
		rc = manifest_parse(m, name, dir, text,
				    manifest_kept_len(text), err) ||
		     manifest_resolve(m, cfg, err) ? -1 : 0;
	free(name);
	free(text);
	free(dir);
	return rc;
}

void followup_also_release(struct manifest *also, size_t n)
{
	size_t i;

	for (i = 0; also && i < n; i++)
		manifest_release(&also[i]);
	free(also);
}

/* Each joined manifest of 'text' into also[*n]. */
static int parse_also(const struct config *cfg, const char *name,
		      const char *dir, const char *text, struct manifest *also,
		      size_t *n, struct pb_err *err)
{
	size_t at = 0, start, len;

	while (*n < GROUP_MAX_MEMBERS &&
	       manifest_kept_next(text, &at, &start, &len)) {
		if (manifest_parse(&also[*n], name, dir, text + start, len,
				   err))
			return -1;
		if (manifest_resolve(&also[(*n)++], cfg, err))
			return -1;
	}
	return 0;
}

int followup_also(struct state *st, const struct config *cfg,
		  const char *report_id, struct manifest **also, size_t *n,
		  struct pb_err *err)
{
	char *name = NULL, *text = NULL, *dir = NULL;
	int rc = 0;

	*also = NULL;
	*n = 0;
	if (state_manifest_text(st, report_id, &name, &text, &dir, err))
		return -1;
	if (text && text[manifest_kept_len(text)]) {
		*also = calloc(GROUP_MAX_MEMBERS, sizeof(**also));
		if (!*also)
			rc = pb_fail(err, EX_OSERR, "out of memory");
		else
			rc = parse_also(cfg, name, dir ? dir : ".", text, *also,
					n, err);
	}
	if (rc) {
		followup_also_release(*also, *n);
		*also = NULL;
		*n = 0;
	}
	free(name);
	free(text);
	free(dir);
	return rc;
}

char *followup_thread_json(const struct answer_thread *r,
			   const struct report_inputs *in)
{
	const struct cmp_row *h = in->verdict.headline;
	json_t *refs = json_array(), *o;
	size_t i;
	char *s;

	for (i = 0; i < r->nrefs; i++)
		json_array_append_new(refs, json_string(r->references[i]));
	o = json_pack("{s:s, s:s?, s:o, s:s, s:s, s:s?, s:s, s:f}",
		      "message_id", r->message_id, "in_reply_to",
		      r->in_reply_to, "references", refs, "subject",
		      r->subject ? r->subject : "", "from", r->from_addr,
		      "from_name", r->from_name, "metric", h ? h->name : "",
		      "reported_change", h ? h->change : 0.0);
	s = o ? json_dumps(o, JSON_COMPACT) : NULL;
	json_decref(o);
	return s;
}

static const char *field(const json_t *t, const char *key)
{
	return json_string_value(json_object_get(t, key));
}

/*
 * The report's thread facts (its recipients for the Cc), found as the
 * poll found them: In-Reply-To, then References, the closest first.
 */
static void thread_of(struct state *st, struct followup_asker *a)
{
	int found = 0;

	if (route_lookup(st, a->r.in_reply_to, a->r.references, a->r.nrefs,
			 &a->tr, &found, NULL) || !found)
		thread_report_release(&a->tr);
	a->r.report = a->tr.report_id ? &a->tr : NULL;
}

int followup_asker_load(struct followup_asker *a, struct state *st,
			const char *thread)
{
	json_t *refs, *v;
	size_t i, n = 0;

	memset(a, 0, sizeof(*a));
	a->t = json_loads(thread ? thread : "", 0, NULL);
	if (!json_is_object(a->t))
		return -1;
	a->r.message_id = field(a->t, "message_id");
	a->r.subject = field(a->t, "subject");
	a->r.from_addr = field(a->t, "from");
	a->r.from_name = field(a->t, "from_name");
	a->r.in_reply_to = field(a->t, "in_reply_to");
	refs = json_object_get(a->t, "references");
	json_array_foreach(refs, i, v)
		if (i < REPLY_MAX_REFS)
			a->refs[n++] = json_string_value(v);
	a->r.references = a->refs;
	a->r.nrefs = n;
	if (!a->r.message_id || !a->r.from_addr)
		return -1;
	thread_of(st, a);
	return 0;
}

void followup_asker_release(struct followup_asker *a)
{
	json_decref(a->t);
	thread_report_release(&a->tr);
	memset(a, 0, sizeof(*a));
}

const char *followup_metric(const struct followup_asker *a)
{
	const char *m = field(a->t, "metric");

	return m && *m ? m : NULL;
}

double followup_reported(const struct followup_asker *a)
{
	return json_real_value(json_object_get(a->t, "reported_change"));
}

void followup_commits_ctx(struct ctx *parent, const struct manifest *m)
{
	const struct manifest_side *side[2] = { &m->base, &m->head };
	static const char *const key[2] = { "base", "head" };
	struct ctx c, one;
	int i;

	ctx_init(&c, parent->family);
	for (i = BASE; i <= HEAD; i++) {
		const char *sha = manifest_side_sha(side[i]);

		ctx_init(&one, parent->family);
		ctx_str(&one, "sha", sha);
		/* a ref ('v6.13') printed as it is, a sha cut to 10 */
		if (side[i]->ref)
			ctx_str(&one, "short", side[i]->ref);
		else
			ctx_strn(&one, "short", sha, strlen(sha) < 10 ?
				 strlen(sha) : 10);
		ctx_child(&c, key[i], &one);
	}
	ctx_child(parent, "commits", &c);
}

void followup_samples_ctx(struct ctx *parent, const char *key,
			  const char *metric, const double *v, size_t n)
{
	json_t *values = json_array();
	char buf[40];
	struct ctx c, one;
	size_t i;

	for (i = 0; values && i < n; i++) {
		json_t *o;

		snprintf(buf, sizeof(buf), "%.15g", v[i]);
		ctx_init(&one, parent->family);
		ctx_str(&one, "value", buf);
		ctx_bool(&one, "last", i + 1 == n);
		if (ctx_finish(&one, &o, NULL) ||
		    json_array_append_new(values, o)) {
			json_decref(values);
			values = NULL;
		}
	}
	ctx_init(&c, parent->family);
	ctx_str(&c, "metric", metric);
	ctx_take(&c, "values", values);
	ctx_child(parent, key, &c);
}

int followup_answer(struct state *st, const struct config *cfg,
		    const struct followup_asker *a, const char *request_id,
		    const char *tmpl, json_t *ctx, followup_finish_fn finish,
		    const char *status, const char *detail, time_t now,
		    struct pb_err *err)
{
	char tag[240];

	snprintf(tag, sizeof(tag), "result:%s", request_id);
	if (state_begin(st, err))
		return -1;
	if (answers_one(st, cfg, &a->r, tag, tmpl, json_incref(ctx), now,
			err) ||
	    finish(st, request_id, status, detail, now, err)) {
		state_rollback(st);
		return -1;
	}
	return state_commit(st, err);
}

int followup_request_end(struct state *st, const char *request_id,
			 const char *status, const char *detail, time_t now,
			 struct pb_err *err)
{
	return state_request_set(st, request_id, status,
				 strcmp(status, "done") ? NULL : detail,
				 detail, now, err);
}
