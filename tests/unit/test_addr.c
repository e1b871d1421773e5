// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/util/addr.c: control characters in header-bound
 * text, and an author that must be exactly one mailbox (never a list, a
 * group, a comment, a header of its own or an unbounded string).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "perfbot/addr.h"

static void ok(const char *mailbox, const char *want_spec)
{
	char spec[ADDR_MAX_SPEC + 1];
	const char *why = "unset";

	if (addr_check_mailbox(mailbox, spec, sizeof(spec), &why))
		fail_msg("'%s' refused: %s", mailbox, why);
	assert_null(why);
	assert_string_equal(spec, want_spec);
}

static void bad(const char *mailbox, const char *want_why)
{
	const char *why = NULL;

	assert_int_equal(addr_check_mailbox(mailbox, NULL, 0, &why), -1);
	assert_non_null(why);
	if (want_why)
		assert_string_equal(why, want_why);
}

static void t_one_mailbox(void **state)
{
	(void)state;
	ok("a@example.test", "a@example.test");
	ok("  a@example.test ", "a@example.test");
	ok("Dev <a@x.example>", "a@x.example");
	ok("Christoph Hellwig <hch@lst.de>", "hch@lst.de");
	ok("J. R. Dev <j.r+lkml@mail.example.org>", "j.r+lkml@mail.example.org");
	ok("\"Li, Wang\" <wang.li@example.test>", "wang.li@example.test");
	ok("\"a \\\"q\\\" b\" <q@example.test>", "q@example.test");
	ok("Jörg Rödel <joro@8bytes.org>", "joro@8bytes.org");
	ok("<bare@example.test>", "bare@example.test");
}

static void t_lists_and_groups(void **state)
{
	(void)state;
	bad("Dev <a@x.example>, b@y.example", "text after the address");
	bad("a@x.example, b@y.example", "not one address");
	bad("a@x.example b@y.example", NULL);
	bad("team: a@x.example, b@y.example;", NULL);
	bad("team:;", NULL);
	bad("Dev <a@x.example> (comment)", "text after the address");
	bad("Dev, Jr <a@x.example>", NULL);
	bad("Dev <a@x.example", "text after the address");
	bad("Dev <<a@x.example>>", NULL);
	bad("\"Dev <a@x.example>", NULL);
	bad("Dev <>", NULL);
	bad("", NULL);
	bad("Dev", NULL);
	bad("a@@x.example", NULL);
	bad("a..b@x.example", "bad local part");
	bad("a@x..example", "bad domain");
	ok("root@localhost", "root@localhost");
	bad("a@x_y.example", "bad domain");
	bad("\"quoted\"@x.example", NULL);
}

static void t_header_injection(void **state)
{
	(void)state;
	bad("Dev <a@x.example>\nBcc: b@y.example", "a control character");
	bad("Dev <a@x.example>\r\nBcc: b@y.example", "a control character");
	bad("\nBcc: b@y.example", "a control character");
	bad("Dev\t<a@x.example>", "a control character");
	bad("Dev \xc2\x85<a@x.example>", "a control character");	/* NEL */
}

static void t_length(void **state)
{
	char *big = malloc(100 * 1024 + 32);
	char local[80];

	(void)state;
	assert_non_null(big);
	memset(big, 'x', 100 * 1024);
	memcpy(big + 100 * 1024, " <a@x.example>", 15);
	bad(big, "longer than 512 bytes");
	free(big);
	memset(local, 'l', 65);
	memcpy(local + 65, "@x.example", 11);
	bad(local, "bad local part");
	local[1] = '@';
	local[2] = '\0';
	bad(local, NULL);
}

static void t_control(void **state)
{
	(void)state;
	assert_int_equal(text_has_control("plain text", 10), 0);
	assert_int_equal(text_has_control("caf\xc3\xa9 \xc2\xa0", 8), 0);
	assert_int_equal(text_has_control("a\nb", 3), 1);
	assert_int_equal(text_has_control("a\x7f", 2), 1);
	assert_int_equal(text_has_control("a\0b", 3), 1);
	/* every place of a long name, past the eight-bytes-at-once scan */
	{
		static const char bad[] = { '\x01', '\x1f', '\x7f', '\t' };
		char name[40];
		size_t at, k;

		memset(name, 'x', sizeof(name));
		assert_int_equal(text_has_control(name, sizeof(name)), 0);
		for (at = 0; at < sizeof(name); at++)
			for (k = 0; k < sizeof(bad); k++) {
				memset(name, 'x', sizeof(name));
				name[at] = bad[k];
				assert_int_equal(text_has_control(name,
							  sizeof(name)), 1);
			}
		memset(name, 'x', sizeof(name));
		name[21] = '\xc2';
		name[22] = '\x85';	/* U+0085, a C1 control */
		assert_int_equal(text_has_control(name, sizeof(name)), 1);
		name[22] = '\xa0';	/* U+00A0 is none */
		assert_int_equal(text_has_control(name, sizeof(name)), 0);
		/* the last byte outside the length is not read */
		name[39] = '\n';
		assert_int_equal(text_has_control(name, 39), 0);
	}
	assert_int_equal(text_has_control("\xc2\x9b", 2), 1);	/* CSI */
	assert_int_equal(text_has_control("a\nb", 1), 0);	/* bounded */
}

static void t_domain(void **state)
{
	(void)state;
	assert_string_equal(addr_domain("a@x.example"), "x.example");
	assert_null(addr_domain("ax.example"));
	assert_null(addr_domain("a@"));
	assert_null(addr_domain(NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_one_mailbox),
		cmocka_unit_test(t_lists_and_groups),
		cmocka_unit_test(t_header_injection),
		cmocka_unit_test(t_length),
		cmocka_unit_test(t_control),
		cmocka_unit_test(t_domain),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
