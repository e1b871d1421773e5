// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/web/thread.c: a report's thread for its page: each
 * reply with its sender (masked unless allowed), commands and outcome,
 * the answer found by its id, each retest with how it ended (the farm's
 * words about a refusal never shown) and its follow-up, the
 * confirmation (its line shown when perfbot wrote it).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "perfbot/util/id.h"
#include "perfbot/web/thread.h"

#define T0 1739548080

static char *mail(const char *body)
{
	char *m = malloc(512);

	snprintf(m, 512, "From: perfbot <perfbot@example.test>\n"
		 "To: a@example.test\nSubject: Re: x\n"
		 "Message-ID: <m@example.test>\n\n%s", body);
	return m;
}

static void answer(struct archive_mail *a, const char *reply_id,
		   const char *tag, const char *body)
{
	memset(a, 0, sizeof(*a));
	a->id = id_answer(reply_id, tag);
	a->message = mail(body);
	a->len = strlen(a->message);
	a->created = T0 + 60;
}

static json_t *thread(struct archive_thread *t, const struct web_mask *m)
{
	struct pb_err err = { 0, "" };
	json_t *o = NULL;
	struct ctx c;

	ctx_init(&c, "test");
	ctx_thread(&c, t, m);
	assert_int_equal(ctx_finish(&c, &o, &err), 0);
	return o;
}

static const char *str(json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

static void t_thread(void **state)
{
	struct archive_reply replies[2] = {
		{ "r1@example.test", "alice@example.test", "answered",
		  "[\"retest 4x\", \"<b>x</b>\"]", T0 },
		{ "r2@x.test", "mallory@elsewhere.test", "refused", NULL, T0 },
	};
	struct archive_retest rt[2] = {
		{ "rt-1", "alice@example.test", "r1@example.test", "done",
		  "stable", 4, 6, 6, T0 },
		{ "rt-2", "alice@example.test", "r1@example.test", "rejected",
		  "exit 1: /srv/farm/secret/path", 4, 6, 6, T0 },
	};
	struct archive_mail answers[2];
	struct archive_thread t;
	struct web_mask m;
	json_t *o, *r, *x;
	char *dump;

	(void)state;
	memset(&t, 0, sizeof(t));
	answer(&answers[0], "r1@example.test", "", "I queued 4 more runs.");
	answer(&answers[1], "r1@example.test", "result:rt-1",
	       "Verdict: stable, says alice@example.test to bob@x.test");
	t.replies = replies;
	t.nreplies = 2;
	t.retests = rt;
	t.nretests = 2;
	t.answers = answers;
	t.nanswers = 2;
	t.confirm_status = "confirmed";
	t.confirm_detail = "confirmed by 10 more runs";
	web_mask_init(&m, "[hidden]");
	assert_int_equal(web_mask_allow(&m, "alice@example.test"), 0);
	o = thread(&t, &m);
	r = json_array_get(json_object_get(o, "replies"), 0);
	assert_string_equal(str(r, "sender"), "alice@example.test");
	assert_true(json_is_true(json_object_get(r, "has_commands")));
	assert_string_equal(json_string_value(json_array_get(
		json_object_get(r, "commands"), 1)), "<b>x</b>");
	assert_string_equal(str(r, "outcome"), "answered");
	assert_string_equal(str(json_object_get(r, "answer"), "text"),
			    "I queued 4 more runs.");
	r = json_array_get(json_object_get(o, "replies"), 1);
	assert_string_equal(str(r, "sender"), "[hidden]");
	assert_true(json_is_false(json_object_get(r, "has_commands")));
	assert_true(json_is_null(json_object_get(r, "answer")));
	x = json_array_get(json_object_get(o, "retests"), 0);
	assert_true(json_is_true(json_object_get(x, "done")));
	assert_string_equal(str(x, "verdict"), "stable");
	assert_int_equal(json_integer_value(json_object_get(x, "runs")), 4);
	assert_string_equal(str(json_object_get(x, "answer"), "text"),
			    "Verdict: stable, says alice@example.test to "
			    "[hidden]");
	x = json_array_get(json_object_get(o, "retests"), 1);
	assert_true(json_is_true(json_object_get(x, "rejected")));
	assert_true(json_is_null(json_object_get(x, "verdict")));
	dump = json_dumps(o, 0);
	assert_null(strstr(dump, "secret"));
	free(dump);
	x = json_object_get(o, "confirmation");
	assert_true(json_is_true(json_object_get(x, "confirmed")));
	assert_string_equal(str(x, "detail"), "confirmed by 10 more runs");
	json_decref(o);
	t.confirm_status = "rejected";
	t.confirm_detail = "the farm said /secret";
	o = thread(&t, &m);
	x = json_object_get(o, "confirmation");
	assert_true(json_is_true(json_object_get(x, "other")));
	assert_true(json_is_null(json_object_get(x, "detail")));
	json_decref(o);
	free(answers[0].id);
	free(answers[0].message);
	free(answers[1].id);
	free(answers[1].message);
	web_mask_release(&m);
}

static void t_empty(void **state)
{
	struct archive_thread t;
	struct web_mask m;
	json_t *o;

	(void)state;
	memset(&t, 0, sizeof(t));
	web_mask_init(&m, "[hidden]");
	o = thread(&t, &m);
	assert_int_equal(json_array_size(json_object_get(o, "replies")), 0);
	assert_int_equal(json_array_size(json_object_get(o, "retests")), 0);
	assert_true(json_is_null(json_object_get(o, "confirmation")));
	json_decref(o);
	web_mask_release(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_thread),
		cmocka_unit_test(t_empty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
