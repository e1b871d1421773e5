// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for the parts of the reply parser in src/parse/, each through
 * its own header: html.c (HTML to text), flowed.c (format=flowed), quote.c
 * (the reply's own lines and commands), mime.c (ids, the text part,
 * charsets) and robots.c (null sender, list mail, DSNs). test_reply.c
 * tests the whole through reply_parse().
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "perfbot/act/dispatch.h"
#include "../../src/parse/flowed.h"
#include "../../src/parse/html.h"
#include "../../src/parse/mime.h"
#include "../../src/parse/quote.h"
#include "perfbot/parse/reply.h"
#include "../../src/parse/robots.h"

static char *html(const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	assert_int_equal(html_to_text(s, strlen(s), &sb), 0);
	return sb_detach(&sb, NULL);
}

#define HTML(in, out)					\
	do {						\
		char *t_ = html(in);			\
		assert_string_equal(t_, out);		\
		free(t_);				\
	} while (0)

static void t_html(void **state)
{
	(void)state;
	HTML("<p>retest  4x</p><p>thanks</p>", "retest 4x\nthanks\n");
	HTML("a<br>b<BR/>c", "a\nb\nc\n");
	HTML("<div>x</div><blockquote><p>quoted</p><blockquote>deeper"
	     "</blockquote></blockquote>after",
	     "x\n> quoted\n>> deeper\nafter\n");
	HTML("&amp;&lt;&gt;&quot;&apos;&nbsp;x &#65;&#x42; &bogus; &",
	     "&<>\"' x AB &bogus; &\n");
	HTML("&#0;&#x110000;&#xD800;&#7;", "\xef\xbf\xbd\xef\xbf\xbd"
	     "\xef\xbf\xbd\xef\xbf\xbd\n");
	HTML("<style>p { x }</style><script>retest</script><title>t</title>"
	     "body<!-- retest -->", "body\n");
	HTML("<pre>a  b\nc</pre>d", "a  b\nc\nd\n");
	HTML("<td>a</td><td>b</td>", "a b\n");
	HTML("1 < 2 <a href=\"x>y\">link</a>", "1 < 2 link\n");
}

/*
 * Item 8 of issue 22: a real HTML parser (libxml2's): every entity, a
 * <meta> charset that is not the part's, unclosed and misplaced tags.
 */
static void t_html_parser(void **state)
{
	(void)state;
	HTML("I&rsquo;d &eacute;t&eacute; &#8217;&#x2026;&mdash;&hellip;",
	     "I\xe2\x80\x99" "d \xc3\xa9t\xc3\xa9 \xe2\x80\x99\xe2\x80"
	     "\xa6\xe2\x80\x94\xe2\x80\xa6\n");
	HTML("<meta charset=\"iso-8859-1\">caf\xc3\xa9", "caf\xc3\xa9\n");
	HTML("<head><title>retest 9x</title>retest 2x", "retest 2x\n");
	HTML("<ul><li>one<li>two</ul><p>x<p>y", "one\ntwo\nx\ny\n");
	HTML("a&#127;b", "a\xef\xbf\xbd" "b\n");
	HTML("<blockquote>a<blockquote>b</blockquote>c</blockquote>",
	     "> a\n>> b\n> c\n");
	HTML("De&nbsp;: Carol<hr>x", "De : Carol\nx\n");
	HTML("", "");
}

static char *flow(const char *s, int delsp)
{
	struct strbuf sb = STRBUF_INIT;

	assert_int_equal(flowed_unflow(s, strlen(s), delsp, &sb), 0);
	return sb_detach(&sb, NULL);
}

static void t_flowed(void **state)
{
	char *t;

	(void)state;
	t = flow("retest \n4x\nnext\n", 0);
	assert_string_equal(t, "retest 4x\nnext\n");
	free(t);
	t = flow("retest \n4x\n", 1);
	assert_string_equal(t, "retest4x\n");
	free(t);
	t = flow("> a \n> b\n>> c \nd\n", 0);
	assert_string_equal(t, "> a b\n>> c \nd\n");
	free(t);
	t = flow(" From me\n-- \nsig\n", 0);	/* stuffing, signature */
	assert_string_equal(t, "From me\n-- \nsig\n");
	free(t);
	t = flow("open \n", 0);
	assert_string_equal(t, "open \n");
	free(t);
}

static void quote(const char *text, struct reply *r)
{
	struct reply_opts o = { "#perfbot", command_lookup };

	memset(r, 0, sizeof(*r));
	assert_int_equal(quote_read(text, strlen(text), &o, r), 0);
}

static void t_quote(void **state)
{
	struct reply r;

	(void)state;
	quote("\n\nretest 2x\n\n\n\nthanks\n\nOn Mon, 1 Dec 2026 at 10:00, "
	      "Bot <bot@x> wrote:\n> retest 9x\n> old\n-- \nretest 5x\n", &r);
	assert_string_equal(r.text, "retest 2x\n\nthanks\n");
	assert_int_equal(r.ncmds, 1);
	assert_string_equal(r.cmds[0].line, "retest 2x");
	reply_release(&r);

	quote("help\n\n-----Original Message-----\nFrom: bot\nretest\n", &r);
	assert_string_equal(r.text, "help\n");
	assert_int_equal(r.ncmds, 1);
	reply_release(&r);

	quote("#perfbot: retest 3x\nFrom: a\nSent: b\nTo: c\nSubject: d\n"
	      "retest\n", &r);
	assert_string_equal(r.text, "#perfbot: retest 3x\n");
	assert_int_equal(r.ncmds_seen, 1);
	reply_release(&r);

	quote("", &r);
	assert_string_equal(r.text, "");
	assert_int_equal(r.ncmds, 0);
	reply_release(&r);
}

static void t_quote_patch(void **state)
{
	struct reply r;

	(void)state;
	quote("see below\n\n"
	      "From 0123456789abcdef0123456789abcdef01234567 Mon Sep 17 "
	      "00:00:00 2001\nFrom: Dev <d@x>\nDate: now\nSubject: [PATCH]"
	      "\n\nretest\n---\ndiff --git a/x b/x\n--- a/x\n+++ b/x\n"
	      "@@ -1 +1 @@\n-a\n+b\n-- \n2.43.0\n\nhelp\n", &r);
	assert_string_equal(r.text, "see below\n\nhelp\n");
	assert_int_equal(r.ncmds, 1);
	assert_string_equal(r.cmds[0].line, "help");
	reply_release(&r);
}

static GMimeMessage *message(const char *s)
{
	GMimeMessage *m = mime_parse(s, strlen(s));

	assert_non_null(m);
	return m;
}

static void t_mime_ids(void **state)
{
	char long_id[1001];

	(void)state;
	assert_true(mime_id_ok("a.b@example.test"));
	assert_false(mime_id_ok(NULL));
	assert_false(mime_id_ok(""));
	assert_false(mime_id_ok("a b@x"));
	assert_false(mime_id_ok("<a@x>"));
	assert_false(mime_id_ok("a\x7f@x"));
	assert_false(mime_id_ok("caf\xc3\xa9@x"));
	memset(long_id, 'a', 998);
	long_id[998] = '\0';
	assert_true(mime_id_ok(long_id));
	long_id[998] = 'a';
	long_id[999] = '\0';
	assert_false(mime_id_ok(long_id));
}

static char *text_of(const char *mail)
{
	GMimeMessage *m = message(mail);
	struct strbuf sb = STRBUF_INIT;

	assert_int_equal(mime_text(m, &sb), 0);
	g_object_unref(m);
	return sb_detach(&sb, NULL);
}

static void t_mime_text(void **state)
{
	char *t;

	(void)state;
	t = text_of("Subject: x\nContent-Type: text/plain; charset=koi8-r\n"
		    "\n\xf0\xd2\xc9\xd7\xc5\xd4\r\nb\x01\tc\r\n");
	assert_string_equal(t, "\xd0\x9f\xd1\x80\xd0\xb8\xd0\xb2\xd0\xb5"
			    "\xd1\x82\nb?\tc\n");
	free(t);
	t = text_of("Subject: x\n\ncaf\xe9 \x80\n");	/* undeclared: cp1252 */
	assert_string_equal(t, "caf\xc3\xa9 \xe2\x82\xac\n");
	free(t);
	t = text_of("Subject: x\nContent-Type: text/plain; charset=utf-8\n\n"
		    "ok\xff\n");
	assert_string_equal(t, "ok\xef\xbf\xbd\n");
	free(t);
	t = text_of("Subject: x\nMIME-Version: 1.0\nContent-Type: multipart/"
		    "alternative; boundary=b\n\n--b\nContent-Type: text/html\n"
		    "\n<p>from html</p>\n--b--\n");
	assert_string_equal(t, "from html\n");
	free(t);
	t = text_of("Subject: x\nContent-Type: image/png\n\nxx\n");
	assert_string_equal(t, "");
	free(t);
}

static void t_robots_headers(void **state)
{
	GMimeMessage *m;

	(void)state;
	m = message("Return-Path: < >\nSubject: x\n\nx\n");
	assert_true(robots_null_sender(GMIME_OBJECT(m)));
	g_object_unref(m);
	m = message("Return-Path: <a@x>\nSubject: x\n\nx\n");
	assert_false(robots_null_sender(GMIME_OBJECT(m)));
	assert_false(robots_list_mail(GMIME_OBJECT(m)));
	g_object_unref(m);
	m = message("Precedence:  Bulk \nSubject: x\n\nx\n");
	assert_true(robots_list_mail(GMIME_OBJECT(m)));
	g_object_unref(m);
	m = message("Precedence: bulky\nSubject: x\n\nx\n");
	assert_false(robots_list_mail(GMIME_OBJECT(m)));
	g_object_unref(m);
	m = message("List-Id: <l.x>\nSubject: x\n\nx\n");
	assert_true(robots_list_mail(GMIME_OBJECT(m)));
	g_object_unref(m);
}

static void t_robots_dsn(void **state)
{
	struct reply r;
	GMimeMessage *m;

	(void)state;
	memset(&r, 0, sizeof(r));
	m = message("Subject: x\nMIME-Version: 1.0\nContent-Type: multipart/"
		    "report; report-type=delivery-status; boundary=b\n\n"
		    "--b\nContent-Type: text/plain\n\nfailed\n"
		    "--b\nContent-Type: message/delivery-status\n\n"
		    "Status: 5.0.0\n"
		    "--b\nContent-Type: text/rfc822-headers\n\n"
		    "Message-ID: <orig@example.test>\nSubject: r\n--b--\n");
	robots_read_dsn(m, &r);
	g_object_unref(m);
	assert_true(r.is_dsn);
	assert_string_equal(r.dsn_message_id, "orig@example.test");
	reply_release(&r);

	m = message("Subject: x\n\nplain\n");
	robots_read_dsn(m, &r);
	g_object_unref(m);
	assert_false(r.is_dsn);
	assert_null(r.dsn_message_id);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_html),
		cmocka_unit_test(t_html_parser),
		cmocka_unit_test(t_flowed),
		cmocka_unit_test(t_quote),
		cmocka_unit_test(t_quote_patch),
		cmocka_unit_test(t_mime_ids),
		cmocka_unit_test(t_mime_text),
		cmocka_unit_test(t_robots_headers),
		cmocka_unit_test(t_robots_dsn),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
