// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/web/mask.c: what of a text from outside the web
 * archive shows (controls replaced, invalid UTF-8 repaired, every address
 * hidden but the allowed ones, those in URLs and the Message-IDs left
 * alone, known ones in any form hidden, the reports' Message-IDs shown
 * wherever they are) and which URLs a link may take.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "perfbot/web/mask.h"

#define H "[hidden]"

static void is(const struct web_mask *m, const char *in, const char *want)
{
	char *got = web_text_dup(m, in);

	assert_non_null(got);
	assert_string_equal(got, want);
	free(got);
}

static void t_controls(void **state)
{
	struct web_mask m;

	(void)state;
	web_mask_init(&m, H);
	is(&m, "a\x01" "b\x7f" "c\td\ne\r\nf", "a?b?c\td\ne\nf");
	is(&m, "bad \xff\xfe utf-8", "bad ?? utf-8");
	is(&m, "<script>\"'&", "<script>\"'&");	/* escaping is later */
	is(&m, NULL, "");
	is(&m, "", "");
	web_mask_release(&m);
	web_mask_release(&m);
}

static void t_addresses(void **state)
{
	struct web_mask m;

	(void)state;
	web_mask_init(&m, H);
	is(&m, "From: Alice <alice@example.test>", "From: Alice <" H ">");
	is(&m, "mail bob.b+x@mail.example.test.", "mail " H ".");
	is(&m, "a@b", H);
	is(&m, "user@ and @domain and @", "user@ and @domain and @");
	is(&m, "x'y@z.test", H);
	/* in a URL: an archive link holds Message-IDs */
	is(&m, "Closes: https://lore.example.test/r/2025.ab-perfbot@x.test",
	   "Closes: https://lore.example.test/r/2025.ab-perfbot@x.test");
	is(&m, "see <https://a.test/p@q.test> or p@q.test",
	   "see <https://a.test/p@q.test> or " H);
	/* allowed, in any case */
	assert_int_equal(web_mask_allow(&m, "Alice <Alice@Example.test>, "
					 "bob@example.test"), 0);
	assert_int_equal(web_mask_allow(&m, "[\"Carol <carol@example.test>\"]"),
			 0);
	assert_int_equal(web_mask_allow(&m, NULL), 0);
	is(&m, "alice@example.test, BOB@example.test, carol@example.test, "
	   "dave@example.test", "alice@example.test, BOB@example.test, "
	   "carol@example.test, " H);
	is(&m, "'alice@example.test'", "'alice@example.test'");
	web_mask_release(&m);
}

/* Known addresses are hidden whatever their form, allowed or not. */
static void t_known(void **state)
{
	struct web_mask m;

	(void)state;
	web_mask_init(&m, H);
	assert_int_equal(web_mask_know(&m, "\"john doe\"@example.test"), 0);
	is(&m, "by \"john doe\"@example.test today", "by " H " today");
	is(&m, "by \"JOHN DOE\"@EXAMPLE.test", "by " H);
	web_mask_release(&m);
}

/* The reports' Message-IDs look like addresses; they are shown. */
static void t_ids(void **state)
{
	const char *ids[] = { "202502141548.7dc3-perfbot@example.test",
		"202502141548.0001-perfbot@example.test",
		"202502141548.7dc3-perfbot@example.test.x" };
	struct web_mask m;

	(void)state;
	web_ids_sort(ids, 3);
	assert_string_equal(ids[0], "202502141548.0001-perfbot@example.test");
	web_mask_init(&m, H);
	is(&m, "dup: <202502141548.7dc3-perfbot@example.test>",
	   "dup: <" H ">");
	web_mask_ids(&m, ids, 3);
	is(&m, "dup: <202502141548.7dc3-perfbot@example.test>",
	   "dup: <202502141548.7dc3-perfbot@example.test>");
	is(&m, "dup: 202502141548.0001-PERFBOT@Example.test",
	   "dup: 202502141548.0001-PERFBOT@Example.test");
	is(&m, "<202502141548.7dc3-perfbot@example.test.x>",
	   "<202502141548.7dc3-perfbot@example.test.x>");
	/* not one of them: a part, a longer one, an address */
	is(&m, "<7dc3-perfbot@example.test>", "<" H ">");
	is(&m, "<202502141548.7dc3-perfbot@example.tes>", "<" H ">");
	is(&m, "<x202502141548.0001-perfbot@example.test>", "<" H ">");
	is(&m, "perfbot@example.test", H);
	web_mask_release(&m);
}

static void t_plain(void **state)
{
	char *s = web_plain_dup("<2025.ab-perfbot@x.test>\x01");

	(void)state;
	assert_string_equal(s, "<2025.ab-perfbot@x.test>?");
	free(s);
	s = web_plain_dup(NULL);
	assert_string_equal(s, "");
	free(s);
}

static void t_urls(void **state)
{
	static const char *const good[] = { "http://a.test/", "https://a.test",
		"HTTPS://a.test/x?y=1&z=2#f", "https://a.test/%3Cx%3E", NULL };
	static const char *const bad[] = { "javascript:alert(1)",
		" javascript:alert(1)", "JavaScript:alert(1)",
		"data:text/html,<b>", "vbscript:x", "//a.test/x", "/x", "x.html",
		"http://", "https:///x", "http://a.test/\"onmouseover=x",
		"http://a.test/<x>", "http://a .test", "http://a.test/\n",
		"http://a.test/\\x", "http://a.test/`x`", "", NULL };
	size_t i;

	(void)state;
	for (i = 0; good[i]; i++)
		assert_ptr_equal(web_url(good[i]), good[i]);
	for (i = 0; bad[i]; i++)
		if (web_url(bad[i]))
			fail_msg("'%s' taken for a link", bad[i]);
	assert_null(web_url(NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_controls),
		cmocka_unit_test(t_addresses),
		cmocka_unit_test(t_known),
		cmocka_unit_test(t_ids),
		cmocka_unit_test(t_plain),
		cmocka_unit_test(t_urls),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
