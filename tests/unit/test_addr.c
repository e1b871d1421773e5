// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/util/addr.c: control characters in header-bound
 * text, an author that must be exactly one mailbox (never a list, a
 * group, a comment, a header of its own or an unbounded string), the bare
 * address of a mailbox, and the address list: unique by bare address in
 * any case, capped, its JSON form for the state and hostile JSON.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "perfbot/util/addr.h"
#include "perfbot/util/text.h"
#include "perfbot/util/strbuf.h"

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

/* Mailing lists by their names, and the envelopes lists send with. */
static void t_is_list(void **state)
{
	static const char *const lists[] = {
		"linux-kernel@vger.kernel.org", "oe-lkp@lists.linux.dev",
		"linux-mm@kvack.org", "LINUX-MM@KVACK.ORG",
		"dri-devel@lists.freedesktop.org", "qemu-devel@nongnu.org",
		"kasan-dev@googlegroups.com", "x@sub.groups.io",
		"linux-fsdevel@lists.example.test", "perf@list.example.test",
	};
	static const char *const people[] = {
		"jane@example.test", "lkp@intel.com", "brauner@kernel.org",
		"devel@example.test", "x@listsmith.example", "x@notkvack.org",
		"akpm@linux-foundation.org", "lists@example.test", "nodomain",
	};
	static const char *const env[] = {
		"linux-kernel+bounces-123-dev=x.test@vger.kernel.org",
		"list-bounces@example.test", "list-bounces+jane=x.test@example.test",
		"owner-linux-mm@kvack.org", "list-owner@example.test",
		"list-request@example.test", "x-bounce@example.test",
	};
	static const char *const not_env[] = {
		"bounce-7@lists.example.test", "jane@example.test",
		"bounces@example.test", "owner@example.test", "a+b@example.test",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(lists) / sizeof(lists[0]); i++)
		if (!addr_is_list(lists[i]))
			fail_msg("'%s' is a list", lists[i]);
	for (i = 0; i < sizeof(people) / sizeof(people[0]); i++)
		if (addr_is_list(people[i]))
			fail_msg("'%s' is no list", people[i]);
	for (i = 0; i < sizeof(env) / sizeof(env[0]); i++)
		if (!addr_is_list_envelope(env[i]))
			fail_msg("'%s' is a list's envelope", env[i]);
	for (i = 0; i < sizeof(not_env) / sizeof(not_env[0]); i++)
		if (addr_is_list_envelope(not_env[i]))
			fail_msg("'%s' is no list's envelope", not_env[i]);
	assert_false(addr_is_list_envelope(NULL));
}

static void addr_is(const char *mailbox, const char *want)
{
	char *got = addr_spec(mailbox);

	if (!want) {
		assert_null(got);
		return;
	}
	assert_non_null(got);
	assert_string_equal(got, want);
	free(got);
}

static void t_addr_spec(void **state)
{
	(void)state;
	addr_is("Alice Example <alice@example.test>", "alice@example.test");
	addr_is("bob@example.test", "bob@example.test");
	addr_is("\"Doe, John\" <jd@example.test>", "jd@example.test");
	addr_is("<x@example.test>", "x@example.test");
	addr_is("a@example.test, b@example.test", "a@example.test");
	addr_is("undisclosed-recipients:;", NULL);
	addr_is("", NULL);
}

/* 'l' holds exactly the strings up to NULL, in order. */
static void list_is(const struct addrlist *l, ...)
{
	const char *s;
	size_t i = 0;
	va_list ap;

	va_start(ap, l);
	while ((s = va_arg(ap, const char *))) {
		assert_true(i < l->n);
		assert_string_equal(l->v[i], s);
		i++;
	}
	va_end(ap);
	assert_int_equal(l->n, i);
}

static void t_list_unique(void **state)
{
	struct addrlist to = ADDRLIST_INIT, cc = ADDRLIST_INIT;

	(void)state;
	assert_int_equal(addrlist_add_unique(&to, "Alice <alice@example.test>",
					     NULL), 0);
	/* the same address by another name, in another case */
	assert_int_equal(addrlist_add_unique(&to, "ALICE@Example.test", NULL),
			 0);
	assert_int_equal(addrlist_add_unique(&to, "\"A. L.\" <alice@"
					     "example.test>", NULL), 0);
	assert_int_equal(addrlist_add_unique(&to, "bob@example.test", NULL),
			 0);
	list_is(&to, "Alice <alice@example.test>", "bob@example.test", NULL);
	/* 'other' wins: one in To is not copied */
	assert_int_equal(addrlist_add_unique(&cc, "Bob <BOB@example.test>",
					     &to), 0);
	assert_int_equal(addrlist_add_unique(&cc, "carol@example.test", &to),
			 0);
	assert_int_equal(addrlist_add_unique(&cc, "carol@example.test", &to),
			 0);
	list_is(&cc, "carol@example.test", NULL);
	assert_true(addrlist_has(&to, "bob@EXAMPLE.test"));
	assert_false(addrlist_has(&cc, "bob@example.test"));
	/* no address to compare: the whole strings, in any case */
	assert_int_equal(addrlist_add_unique(&cc, "not an address", NULL), 0);
	assert_int_equal(addrlist_add_unique(&cc, "NOT an address", NULL), 0);
	list_is(&cc, "carol@example.test", "not an address", NULL);
	addrlist_release(&to);
	addrlist_release(&cc);
	assert_int_equal(to.n, 0);
	assert_null(to.v);
}

static void t_list_specs(void **state)
{
	struct addrlist l = ADDRLIST_INIT;

	(void)state;
	assert_int_equal(addrlist_add_specs(&l, "Alice <alice@example.test>, "
					    "bob@example.test"), 0);
	assert_int_equal(addrlist_add_specs(&l, "group: carol@example.test;"),
			 0);
	assert_int_equal(addrlist_add_specs(&l, "Bob <BOB@example.test>"), 0);
	assert_int_equal(addrlist_add_specs(&l, ""), 0);
	list_is(&l, "alice@example.test", "bob@example.test", NULL);
	addrlist_release(&l);
}

/* The cap: the first ones kept; a list never holds more than the limit. */
static void t_list_cap(void **state)
{
	struct addrlist l = ADDRLIST_INIT;
	char a[32];
	size_t i;

	(void)state;
	for (i = 0; i < ADDRLIST_MAX; i++) {
		snprintf(a, sizeof(a), "u%zu@example.test", i);
		assert_int_equal(addrlist_add(&l, a), 0);
	}
	assert_int_equal(addrlist_add(&l, "one@too.many"), -1);
	assert_int_equal(l.n, ADDRLIST_MAX);
	addrlist_cap(&l, 2);
	list_is(&l, "u0@example.test", "u1@example.test", NULL);
	addrlist_cap(&l, 5);
	assert_int_equal(l.n, 2);
	addrlist_cap(&l, 0);
	assert_int_equal(l.n, 0);
	addrlist_release(&l);
}

static void t_list_json(void **state)
{
	struct addrlist l = ADDRLIST_INIT, back = ADDRLIST_INIT;
	const char *why = "unset";
	char *json;

	(void)state;
	json = addrlist_to_json(&l);
	assert_string_equal(json, "[]");
	free(json);
	assert_int_equal(addrlist_add(&l, "a@example.test"), 0);
	assert_int_equal(addrlist_add(&l, "Ren\xc3\xa9 \"R\" <r@example.test>"),
			 0);
	json = addrlist_to_json(&l);
	assert_string_equal(json, "[\"a@example.test\",\"Ren\xc3\xa9 \\\"R\\\" "
			    "<r@example.test>\"]");
	assert_int_equal(addrlist_from_json(&back, json, &why), 0);
	assert_null(why);
	list_is(&back, "a@example.test", "Ren\xc3\xa9 \"R\" <r@example.test>",
		NULL);
	/* appends */
	assert_int_equal(addrlist_from_json(&back, "[\"z@example.test\"]",
					    &why), 0);
	assert_int_equal(back.n, 3);
	free(json);
	/* not UTF-8: no JSON of it */
	assert_int_equal(addrlist_add(&l, "\xff@example.test"), 0);
	assert_null(addrlist_to_json(&l));
	addrlist_release(&l);
	addrlist_release(&back);
}

static void refused(const char *json, const char *want)
{
	struct addrlist l = ADDRLIST_INIT;
	const char *why = NULL;

	assert_int_equal(addrlist_add(&l, "kept@example.test"), 0);
	assert_int_equal(addrlist_from_json(&l, json, &why), -1);
	assert_non_null(why);
	assert_string_equal(why, want);
	/* the list is left as it was */
	list_is(&l, "kept@example.test", NULL);
	addrlist_release(&l);
}

/* A state column is never trusted. */
static void t_list_json_hostile(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	char big[ADDR_MAX_MAILBOX + 8];
	size_t i;

	(void)state;
	refused(NULL, "not a JSON list");
	refused("", "not a JSON list");
	refused("{\"a\": 1}", "not a JSON list");
	refused("\"a@example.test\"", "not a JSON list");
	refused("[\"a@example.test\"", "not a JSON list");
	refused("[\"a@example.test\", 3]", "not a list of strings");
	refused("[\"a@example.test\", null]", "not a list of strings");
	refused("[[\"a@example.test\"]]", "not a list of strings");
	refused("[\"a@example.test\\u0000b\"]", "not a JSON list");
	refused("[\"a@example.test\\r\\nRCPT TO:<x@evil>\"]",
		"an address with a control character");
	refused("[\"a\\u0085@example.test\"]",
		"an address with a control character");
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	assert_int_equal(sb_addf(&sb, "[\"%s\"]", big), 0);
	refused(sb_str(&sb), "an address longer than 512 bytes");
	sb_reset(&sb);
	assert_int_equal(sb_adds(&sb, "["), 0);
	for (i = 0; i <= ADDRLIST_MAX; i++)
		assert_int_equal(sb_addf(&sb, "%s\"u%zu@x\"", i ? "," : "",
					 i), 0);
	assert_int_equal(sb_adds(&sb, "]"), 0);
	refused(sb_str(&sb), "more than 1000 addresses");
	sb_release(&sb);
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
		cmocka_unit_test(t_is_list),
		cmocka_unit_test(t_addr_spec),
		cmocka_unit_test(t_list_unique),
		cmocka_unit_test(t_list_specs),
		cmocka_unit_test(t_list_cap),
		cmocka_unit_test(t_list_json),
		cmocka_unit_test(t_list_json_hostile),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
