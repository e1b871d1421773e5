// SPDX-License-Identifier: GPL-2.0-only
/*
 * act: what retests and tests share between the mail that asked and the
 * answer that comes when the farm's runs are in (followup.h): the kept
 * manifest, the thread kept as JSON (written and read here only, but
 * for a retest's plan: retest_plan.c), the commits and per-run values
 * of the answers, and the follow-up queued with the request's end.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>

#include "perfbot/act/answers.h"
#include "perfbot/act/followup.h"
#include "perfbot/act/route.h"
#include "perfbot/compare/sequential.h"
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

int followup_first_keep(char **thread, const char *key, long first)
{
	json_t *t = *thread ? json_loads(*thread, 0, NULL) : json_object();
	char *s = NULL;

	if (json_is_object(t) && !json_object_set_new(t, key, json_pack(
			"{s:I}", "first", (json_int_t)first)))
		s = json_dumps(t, JSON_COMPACT);
	json_decref(t);
	if (!s)
		return -1;
	free(*thread);
	*thread = s;
	return 0;
}

long followup_first_read(const char *thread, const char *key, long dflt)
{
	json_t *t = thread ? json_loads(thread, 0, NULL) : NULL;
	json_t *v = json_object_get(json_object_get(t, key), "first");
	long first = json_is_integer(v) && json_integer_value(v) >=
		SEQ_MIN_RUNS && json_integer_value(v) <= SEQ_MAX_RUNS ?
		(long)json_integer_value(v) : dflt;

	json_decref(t);
	return first;
}

/* The string 'key' of 't' copied into '*out' (NULL when it has none). */
static int field(const json_t *t, const char *key, char **out)
{
	const char *v = json_string_value(json_object_get(t, key));

	*out = v ? strdup(v) : NULL;
	return v && !*out ? -1 : 0;
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

/* The asker's strings read from the kept thread 't'; -1 out of memory. */
static int asker_read(struct followup_asker *a, const json_t *t)
{
	const json_t *refs = json_object_get(t, "references"), *v;
	size_t i, n = 0;

	if (field(t, "message_id", &a->message_id) ||
	    field(t, "subject", &a->subject) || field(t, "from", &a->from) ||
	    field(t, "from_name", &a->from_name) ||
	    field(t, "in_reply_to", &a->in_reply_to) ||
	    field(t, "metric", &a->metric))
		return -1;
	json_array_foreach(refs, i, v) {
		const char *ref = json_string_value(v);

		if (i >= REPLY_MAX_REFS)
			break;
		if (ref && !(a->refs[n++] = strdup(ref)))
			return -1;
		if (!ref)
			a->refs[n++] = NULL;
	}
	a->reported = json_real_value(json_object_get(t, "reported_change"));
	a->r.message_id = a->message_id;
	a->r.subject = a->subject;
	a->r.from_addr = a->from;
	a->r.from_name = a->from_name;
	a->r.in_reply_to = a->in_reply_to;
	a->r.references = (const char *const *)a->refs;
	a->r.nrefs = n;
	return 0;
}

int followup_asker_load(struct followup_asker *a, struct state *st,
			const char *thread)
{
	json_t *t;
	int rc;

	memset(a, 0, sizeof(*a));
	t = json_loads(thread ? thread : "", 0, NULL);
	rc = json_is_object(t) ? asker_read(a, t) : -1;
	json_decref(t);
	if (rc || !a->r.message_id || !a->r.from_addr)
		return -1;
	thread_of(st, a);
	return 0;
}

void followup_asker_release(struct followup_asker *a)
{
	size_t i;

	free(a->message_id);
	free(a->in_reply_to);
	free(a->subject);
	free(a->from);
	free(a->from_name);
	free(a->metric);
	for (i = 0; i < REPLY_MAX_REFS; i++)
		free(a->refs[i]);
	thread_report_release(&a->tr);
	memset(a, 0, sizeof(*a));
}

const char *followup_metric(const struct followup_asker *a)
{
	return a->metric && *a->metric ? a->metric : NULL;
}

double followup_reported(const struct followup_asker *a)
{
	return a->reported;
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
	char buf[40];
	struct ctx c, one;
	size_t i;

	ctx_init(&c, parent->family);
	ctx_str(&c, "metric", metric);
	ctx_list(&c, "values");
	for (i = 0; i < n; i++) {
		snprintf(buf, sizeof(buf), "%.15g", v[i]);
		ctx_init(&one, parent->family);
		ctx_str(&one, "value", buf);
		ctx_bool(&one, "last", i + 1 == n);
		ctx_add(&c, "values", &one);
	}
	ctx_child(parent, key, &c);
}

int followup_answer(struct state *st, const struct config *cfg,
		    const struct followup_asker *a, const char *request_id,
		    const char *tmpl, struct ctx *c, followup_finish_fn finish,
		    const char *status, const char *detail, time_t now,
		    struct pb_err *err)
{
	char tag[240];

	snprintf(tag, sizeof(tag), "result:%s", request_id);
	if (state_begin(st, err)) {
		ctx_release(c);
		return -1;
	}
	if (answers_one(st, cfg, &a->r, tag, tmpl, c, now, err) ||
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
