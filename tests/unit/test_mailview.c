// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/web/mailview.c: a mail the bot composed, read back
 * for its page: the headers a reader looks at, decoded, the text part and
 * not the attachments, addresses masked but the allowed ones, the ids
 * left as they are, and the context the templates get.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "perfbot/compose/mail.h"
#include "perfbot/web/mailview.h"

#define T0 1739548080

static void compose(struct strbuf *out)
{
	static const char *to_v[] = { "Dev <dev@example.test>" };
	static const char *cc_v[] = { "Stranger <stranger@elsewhere.test>" };
	struct addrlist to = { (char **)to_v, 1 }, cc = { (char **)cc_v, 1 };
	struct attachment att = { "job.yaml", "text/plain",
				  "testcase: hackbench\n", 20 };
	struct mail m = { 0 };
	struct pb_err err = { 0, "" };

	m.from = "perfbot <perfbot@example.test>";
	m.to = &to;
	m.cc = &cc;
	m.subject = "[pipe] f017b0a495: hackbench.throughput 10.5% "
		    "improvement \xc3\xa9";
	m.body = "Hello,\n\nreported by dev@example.test and "
		 "stranger@elsewhere.test; see\n"
		 "https://lore.example.test/r/202502141548.7c8c8447-perfbot@"
		 "example.test\n";
	m.message_id = "202502141548.7c8c8447-perfbot@example.test";
	m.date = T0;
	m.in_reply_to = "<patch-1@example.org>";
	m.auto_submitted = "auto-generated";
	m.report_id = "r1";
	m.att = &att;
	m.natt = 1;
	if (mail_compose(&m, out, &err))
		fail_msg("%s", err.msg);
}

static const char *header(const struct mail_view *v, const char *name)
{
	size_t i;

	for (i = 0; i < v->nhdr; i++)
		if (!strcmp(v->hdr[i].name, name))
			return v->hdr[i].value;
	return NULL;
}

static void t_view(void **state)
{
	struct strbuf msg = STRBUF_INIT;
	struct pb_err err = { 0, "" };
	struct web_mask m;
	struct mail_view v;

	(void)state;
	compose(&msg);
	web_mask_init(&m, "[hidden]");
	assert_int_equal(web_mask_allow(&m, "[\"dev@example.test\"]"), 0);
	assert_int_equal(mail_view_parse(&v, msg.buf, msg.len, &m, &err), 0);
	assert_string_equal(header(&v, "To"), "Dev <dev@example.test>");
	assert_string_equal(header(&v, "Cc"), "Stranger <[hidden]>");
	assert_string_equal(header(&v, "From"), "perfbot <[hidden]>");
	assert_non_null(strstr(header(&v, "Subject"), "improvement \xc3\xa9"));
	assert_string_equal(header(&v, "Message-ID"),
			    "<202502141548.7c8c8447-perfbot@example.test>");
	assert_string_equal(header(&v, "In-Reply-To"),
			    "<patch-1@example.org>");
	assert_non_null(strstr(header(&v, "Date"), "14 Feb 2025"));
	assert_null(header(&v, "Auto-Submitted"));
	assert_non_null(strstr(v.text, "reported by dev@example.test and "
			       "[hidden];"));
	assert_non_null(strstr(v.text, "7c8c8447-perfbot@example.test\n"));
	assert_null(strstr(v.text, "hackbench\n"));	/* the attachment */
	mail_view_release(&v);
	mail_view_release(&v);
	web_mask_release(&m);
	sb_release(&msg);
}

static void t_context(void **state)
{
	struct strbuf msg = STRBUF_INIT;
	struct pb_err err = { 0, "" };
	json_t *o = NULL, *mail, *h;
	struct web_mask m;
	struct mail_view v;
	struct ctx c;

	(void)state;
	compose(&msg);
	web_mask_init(&m, "[hidden]");
	assert_int_equal(mail_view_parse(&v, msg.buf, msg.len, &m, &err), 0);
	ctx_init(&c, "test");
	ctx_mail_view(&c, "mail", &v);
	assert_int_equal(ctx_finish(&c, &o, &err), 0);
	mail = json_object_get(o, "mail");
	h = json_array_get(json_object_get(mail, "headers"), 0);
	assert_string_equal(json_string_value(json_object_get(h, "name")),
			    "Date");
	assert_int_equal(json_array_size(json_object_get(mail, "headers")),
			 v.nhdr);
	assert_string_equal(json_string_value(json_object_get(mail, "text")),
			    v.text);
	json_decref(o);
	mail_view_release(&v);
	web_mask_release(&m);
	sb_release(&msg);
}

/* What is no mail is an error, the view left released. */
static void t_odd(void **state)
{
	struct pb_err err = { 0, "" };
	struct web_mask m;
	struct mail_view v;

	(void)state;
	web_mask_init(&m, "[hidden]");
	assert_int_equal(mail_view_parse(&v, "just text", 9, &m, &err), -1);
	assert_int_equal(err.code, EX_DATAERR);
	assert_null(v.text);
	mail_view_release(&v);
	web_mask_release(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_view),
		cmocka_unit_test(t_context),
		cmocka_unit_test(t_odd),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
