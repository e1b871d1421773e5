// SPDX-License-Identifier: GPL-2.0-only
/*
 * web: a report's thread for its page (thread.h): the mails read in it
 * with their commands and answers, the retests and tests with their
 * verdicts, the confirmation.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "perfbot/util/id.h"
#include "perfbot/web/mailview.h"
#include "perfbot/web/page.h"
#include "perfbot/web/thread.h"

/* A text of the state under 'key', as the page may show it. */
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

/* The answer the bot queued with id 'id' (its text part), or null. */
static void answer(struct ctx *parent, const struct archive_thread *t,
		   const char *id, const struct web_mask *m)
{
	struct mail_view v;
	struct ctx c;
	size_t i;

	for (i = 0; id && i < t->nanswers; i++)
		if (t->answers[i].id && !strcmp(t->answers[i].id, id))
			break;
	if (!id || i == t->nanswers ||
	    mail_view_parse(&v, t->answers[i].message, t->answers[i].len, m,
			    NULL)) {
		ctx_opt(parent, "answer", NULL);
		return;
	}
	ctx_init(&c, parent->family);
	ctx_date(&c, "date", t->answers[i].created);
	ctx_str(&c, "text", v.text);
	ctx_child(parent, "answer", &c);
	mail_view_release(&v);
}

/* The command lines of a reply (a JSON list in the state). */
static void commands(struct ctx *c, const char *json,
		     const struct web_mask *m)
{
	json_t *list = json ? json_loads(json, 0, NULL) : NULL, *v;
	json_t *out = json_array();
	char *line;
	size_t i;

	json_array_foreach(list, i, v) {
		if (!json_is_string(v) || !out)
			continue;
		line = web_text_dup(m, json_string_value(v));
		if (!line || json_array_append_new(out, json_string(line)))
			c->oom = 1;
		free(line);
	}
	json_decref(list);
	ctx_bool(c, "has_commands", json_array_size(out) > 0);
	ctx_take(c, "commands", out);
}

static void replies(struct ctx *parent, const struct archive_thread *t,
		    const struct web_mask *m)
{
	json_t *list = ctx_list(parent, "replies");
	const struct archive_reply *r;
	struct ctx c;
	char *id;
	size_t i;

	for (i = 0; i < t->nreplies; i++) {
		r = &t->replies[i];
		id = r->message_id ? id_answer(r->message_id, "") : NULL;
		ctx_init(&c, parent->family);
		ctx_date(&c, "date", r->received);
		text(&c, "sender", m, r->sender);
		commands(&c, r->commands, m);
		text(&c, "outcome", m, r->outcome);
		answer(&c, t, id, m);
		ctx_append(parent, list, &c);
		free(id);
	}
}

/* The follow-up of a retest or test: the answer to its mail, tagged. */
static char *followup_id(const char *request_id, const char *reply_message_id)
{
	size_t n = strlen(request_id) + 8;
	char *tag = malloc(n), *id = NULL;

	if (tag && reply_message_id) {
		snprintf(tag, n, "result:%s", request_id);
		id = id_answer(reply_message_id, tag);
	}
	free(tag);
	return id;
}

static int is(const char *s, const char *want)
{
	return s && !strcmp(s, want);
}

static void one_retest(struct ctx *c, const struct archive_thread *t,
		       const struct archive_retest *rt,
		       const struct web_mask *m)
{
	int done = is(rt->status, "done");
	char *id = rt->request_id ? followup_id(rt->request_id,
						rt->reply_message_id) : NULL;

	text(c, "request_id", m, rt->request_id);
	ctx_date(c, "date", rt->created);
	ctx_int(c, "runs", rt->runs);
	text(c, "requested_by", m, rt->requested_by);
	ctx_bool(c, "queued", is(rt->status, "queued") ||
		 is(rt->status, "asking"));
	ctx_bool(c, "done", done);
	ctx_bool(c, "rejected", is(rt->status, "rejected"));
	ctx_bool(c, "expired", is(rt->status, "expired"));
	/* a refusal's detail is the farm's words: the log's, not the page's */
	text(c, "verdict", m, done ? rt->detail : NULL);
	answer(c, t, id, m);
	free(id);
}

static void retests(struct ctx *parent, const struct archive_thread *t,
		    const struct web_mask *m)
{
	json_t *list = ctx_list(parent, "retests");
	struct ctx c;
	size_t i;

	for (i = 0; i < t->nretests; i++) {
		ctx_init(&c, parent->family);
		one_retest(&c, t, &t->retests[i], m);
		ctx_append(parent, list, &c);
	}
}

static void one_test(struct ctx *c, const struct archive_thread *t,
		     const struct archive_test *ts, const struct web_mask *m)
{
	int done = is(ts->status, "done");
	char *id = ts->request_id ? followup_id(ts->request_id,
						ts->reply_message_id) : NULL;

	text(c, "request_id", m, ts->request_id);
	ctx_date(c, "date", ts->created);
	ctx_int(c, "runs", ts->runs);
	text(c, "requested_by", m, ts->requested_by);
	ctx_bool(c, "form_patch", is(ts->form, "patch"));
	ctx_bool(c, "form_tree", is(ts->form, "tree"));
	ctx_bool(c, "form_commit", is(ts->form, "commit"));
	text(c, "repo", m, ts->repo);
	text(c, "ref", m, ts->ref);
	ctx_bool(c, "queued", is(ts->status, "queued"));
	ctx_bool(c, "done", done);
	ctx_bool(c, "failed", is(ts->status, "failed"));
	ctx_bool(c, "rejected", is(ts->status, "rejected"));
	ctx_bool(c, "expired", is(ts->status, "expired"));
	/* a refusal's detail is the farm's words: the log's, not the page's;
	 * what it could not build is in the answer, as mailed */
	text(c, "verdict", m, done ? ts->detail : NULL);
	answer(c, t, id, m);
	free(id);
}

static void tests(struct ctx *parent, const struct archive_thread *t,
		  const struct web_mask *m)
{
	json_t *list = ctx_list(parent, "tests");
	struct ctx c;
	size_t i;

	ctx_bool(parent, "has_tests", t->ntests > 0);
	for (i = 0; i < t->ntests; i++) {
		ctx_init(&c, parent->family);
		one_test(&c, t, &t->tests[i], m);
		ctx_append(parent, list, &c);
	}
}

static void confirmation(struct ctx *parent, const struct archive_thread *t,
			 const struct web_mask *m)
{
	const char *st = t->confirm_status;
	int yes = is(st, "confirmed"), late = is(st, "unconfirmed");
	struct ctx c;

	if (!st) {
		ctx_opt(parent, "confirmation", NULL);
		return;
	}
	ctx_init(&c, parent->family);
	ctx_bool(&c, "confirmed", yes);
	ctx_bool(&c, "unconfirmed", late);
	ctx_bool(&c, "other", !yes && !late);
	text(&c, "status", m, st);
	/* the lines perfbot wrote in the mail; other details stay */
	text(&c, "detail", m, yes || late ? t->confirm_detail : NULL);
	ctx_child(parent, "confirmation", &c);
}

void ctx_thread(struct ctx *c, const struct archive_thread *t,
		const struct web_mask *m)
{
	replies(c, t, m);
	retests(c, t, m);
	tests(c, t, m);
	confirmation(c, t, m);
}
