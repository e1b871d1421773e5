// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/util/id.c: every id perfbot mints, byte for byte
 * (a format that changed would queue a report or an answer twice): the
 * Message-ID, a derived report id, the answer, retest and confirmation
 * request ids, and the MIME boundary, reproducible or random.
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
#include "perfbot/util/strmap.h"

#define T0 1739548080	/* 2025-02-14 15:48:00 UTC */

static void t_message_id_format(void **state)
{
	char *id = id_message_id("hackbench-f017b0a495", 1700000000,
				     "example.test");
	size_t i;

	(void)state;
	assert_non_null(id);
	/* FNV-1a 64 of the id, all 64 bits */
	assert_string_equal(id, "202311142213.bd6b46316e78241a-perfbot@example.test");
	for (i = 0; i < 12; i++)
		assert_true(id[i] >= '0' && id[i] <= '9');
	assert_int_equal(id[12], '.');
	for (i = 13; i < 29; i++)
		assert_non_null(strchr("0123456789abcdef", id[i]));
	assert_string_equal(id + 29, "-perfbot@example.test");
	free(id);
	/* no domain: localhost */
	id = id_message_id("hackbench-f017b0a495", 1700000000, NULL);
	assert_string_equal(id, "202311142213.bd6b46316e78241a-perfbot@localhost");
	free(id);
	id = id_message_id("hackbench-f017b0a495", 1700000000, "");
	assert_string_equal(id, "202311142213.bd6b46316e78241a-perfbot@localhost");
	free(id);
}

static void t_message_id_stable(void **state)
{
	char *a = id_message_id("hackbench-f017b0a495", 1700000000, "d");
	char *b = id_message_id("hackbench-f017b0a495", 1700000000, "d");
	/* the same minute */
	char *c = id_message_id("hackbench-f017b0a495", 1700000039, "d");
	/* another id: another hash */
	char *d = id_message_id("hackbench-f017b0a496", 1700000000, "d");
	/* another minute, the same hash */
	char *e = id_message_id("hackbench-f017b0a495", 1700000040, "d");

	(void)state;
	assert_string_equal(a, b);
	assert_string_equal(a, c);
	assert_string_not_equal(a, d);
	assert_memory_equal(a, d, 13);
	assert_memory_not_equal(a + 13, d + 13, 16);
	assert_string_equal(d, "202311142213.bd6b45316e782267-perfbot@d");
	assert_string_equal(e, "202311142214.bd6b46316e78241a-perfbot@d");
	free(a);
	free(b);
	free(c);
	free(d);
	free(e);
}

/* Drawn again: another id, as reproducible; draw 0 is the plain one. */
static void t_message_id_draw(void **state)
{
	char *a = id_message_id_draw("demo-004", T0, "d", 0);
	char *b = id_message_id_draw("demo-004", T0, "d", 1);
	char *c = id_message_id_draw("demo-004", T0, "d", 1);
	char *z = id_message_id("demo-004", T0, "d");

	(void)state;
	assert_string_equal(a, z);
	assert_string_not_equal(a, b);
	assert_string_equal(b, c);
	assert_memory_equal(a, b, 13);
	free(a);
	free(b);
	free(c);
	free(z);
}

/* The report of seed 004 (its Message-ID is in the golden files). */
static void t_message_id_report(void **state)
{
	char *a = id_message_id("demo-004", T0, "example.test");
	char *b = id_message_id("demo-004", 0, "x.test");

	(void)state;
	assert_string_equal(a, "202502141548.4b086ddf7c8c8447-perfbot@example.test");
	assert_string_equal(b, "197001010000.4b086ddf7c8c8447-perfbot@x.test");
	free(a);
	free(b);
}

/* 16 hex digits of FNV-1a of "base\nhead\nkeys\nvalues". */
/* The bot knows its own Message-IDs by their shape, on its domain. */
static void t_is_ours(void **state)
{
	char *id = id_message_id("r", 1739548080, "example.test");

	(void)state;
	assert_non_null(id);
	assert_true(id_is_ours(id, "example.test"));
	assert_true(id_is_ours(id, "EXAMPLE.test"));
	assert_false(id_is_ours(id, "example.org"));
	assert_false(id_is_ours(id, NULL));
	free(id);
	assert_true(id_is_ours("202502141548.7c8c8447-perfbot@localhost",
			       ""));
	assert_false(id_is_ours("202502141548.7c8c8447-lkp@example.test",
				"example.test"));
	assert_false(id_is_ours("20250214154.7c8c8447-perfbot@example.test",
				"example.test"));
	assert_false(id_is_ours("202502141548.7C8C8447-perfbot@example.test",
				"example.test"));
	assert_false(id_is_ours("ZfQ2c1Ab3cD4eF5g@jane-laptop.example.test",
				"example.test"));
	assert_true(id_is_ours("202502141548.7c8c84477c8c8447-perfbot@"
			       "example.test", "example.test"));
	assert_false(id_is_ours("202502141548.7c8c84477c8c-perfbot@"
				"example.test", "example.test"));
	assert_false(id_is_ours(NULL, "example.test"));
	assert_false(id_is_ours("", "example.test"));
}

static void t_report_id(void **state)
{
	const char *in = "b\nh\nk\nv";
	char want[17], *id = id_report("b", "h", "k", "v");

	(void)state;
	snprintf(want, sizeof(want), "%016llx",
		 hash_fnv1a(in, strlen(in), 0));
	assert_string_equal(id, want);
	assert_int_equal(strlen(id), 16);
	free(id);
	id = id_report("", "", "", "");
	/* FNV-1a of "\n\n\n" */
	assert_string_equal(id, "2fd786189d0de06d");
	free(id);
}

static void t_answer_id(void **state)
{
	char *a = id_answer("reply-1@example.test", "");
	char *b = id_answer("reply-1@example.test", "rt-0123");
	char *c = id_answer("reply-1@example.test", "");
	char want[32];
	unsigned long long h;

	(void)state;
	h = hash_fnv1a("reply-1@example.test", 20, 0);
	snprintf(want, sizeof(want), "a-%016llx", hash_fnv1a("rt-0123", 7, h));
	assert_string_equal(b, want);
	/* the empty tag hashes nothing more */
	snprintf(want, sizeof(want), "a-%016llx", h);
	assert_string_equal(a, want);
	assert_string_equal(a, c);
	assert_string_equal(a, "a-fb03cb10ced0abe7");
	free(a);
	free(b);
	free(c);
}

static void t_retest_request_id(void **state)
{
	char *a = id_retest_request("reply-1@example.test", 0);
	char *b = id_retest_request("reply-1@example.test", 1);
	char want[32];

	(void)state;
	snprintf(want, sizeof(want), "rt-%016llx",
		 hash_fnv1a("reply-1@example.test#0", 22, 0));
	assert_string_equal(a, want);
	assert_string_not_equal(a, b);
	assert_int_equal(strlen(b), 19);
	free(a);
	free(b);
}

/* Stable across runs (a crash asks again with the same id), per commit. */
static void t_verify_request_id(void **state)
{
	char *a = id_verify_request("r1", "abc123");
	char *b = id_verify_request("r1", "abc123");
	char *c = id_verify_request("r1", "abc124");
	char want[32];

	(void)state;
	snprintf(want, sizeof(want), "verify-%016llx",
		 hash_fnv1a("r1#abc123", 9, 0));
	assert_string_equal(a, want);
	assert_string_equal(a, b);
	assert_string_not_equal(a, c);
	free(a);
	free(b);
	free(c);
}

static void t_confirm_request_id(void **state)
{
	char *a = id_confirm_request("demo-004");

	(void)state;
	assert_string_equal(a, "confirm-demo-004");
	free(a);
	/* a later look: its own request, by the new runs a side in all */
	a = id_confirm_look("demo-004", 5);
	assert_string_equal(a, "confirm-demo-004-5");
	free(a);
}

static int hex(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strchr("0123456789abcdef", s[i]) || !s[i])
			return 0;
	return 1;
}

static void name_is(const char *id, const char *want)
{
	char *n = id_file_name(id);

	assert_non_null(n);
	assert_string_equal(n, want);
	free(n);
}

/* File names of ids: safe, one per id, case-blind file systems too. */
static void t_file_name(void **state)
{
	static const char *const ids[] = { "seed-003", "Seed-003", "a/b",
		"a~2fb", "a~b", "..", ".x", "x.", "a b", "<img src=x>", "",
		"~", "~~", "\xc3\xa9", NULL };
	char *names[16], long_id[400], *n;
	size_t i, j;

	(void)state;
	name_is("seed-003", "seed-003");
	name_is("0123456789abcdef", "0123456789abcdef");
	name_is("Seed", "~53eed");
	name_is("a/b", "a~2fb");
	name_is("..", "~2e.");
	name_is(".x", "~2ex");
	name_is("x.y_z", "x.y_z");
	name_is("~", "~7e");
	name_is("", "~");
	name_is("<\"&>", "~3c~22~26~3e");
	for (i = 0; ids[i]; i++)
		assert_non_null(names[i] = id_file_name(ids[i]));
	for (i = 0; ids[i]; i++) {
		for (j = 0; names[i][j]; j++)
			assert_non_null(strchr("abcdefghijklmnopqrstuvwxyz"
					       "0123456789_-.~", names[i][j]));
		for (j = 0; j < i; j++)
			assert_string_not_equal(names[i], names[j]);
	}
	for (i = 0; ids[i]; i++)
		free(names[i]);
	/* long: cut, then the hash of the whole id */
	memset(long_id, 'A', sizeof(long_id) - 1);
	long_id[sizeof(long_id) - 1] = '\0';
	n = id_file_name(long_id);
	assert_true(strlen(n) <= ID_FILE_NAME_MAX + 18);
	assert_non_null(strstr(n, "~~"));
	assert_true(hex(strstr(n, "~~") + 2, 16));
	long_id[300] = 'B';
	names[0] = id_file_name(long_id);
	assert_string_not_equal(n, names[0]);
	free(names[0]);
	free(n);
}

/* With SOURCE_DATE_EPOCH: the hash of the Message-ID, then of 'try'. */
static void t_boundary_reproducible(void **state)
{
	char a[48], b[48], c[48], want[48];
	unsigned long long h = hash_fnv1a("m@x", 3, 0);
	int one = 1;

	(void)state;
	setenv("SOURCE_DATE_EPOCH", "1739548080", 1);
	assert_int_equal(id_boundary("m@x", 0, a, sizeof(a)), 0);
	assert_int_equal(id_boundary("m@x", 0, b, sizeof(b)), 0);
	assert_int_equal(id_boundary("m@x", 1, c, sizeof(c)), 0);
	snprintf(want, sizeof(want), "=-perfbot-%016llx", h);
	assert_string_equal(a, want);
	assert_string_equal(a, b);
	snprintf(want, sizeof(want), "=-perfbot-%016llx",
		 hash_fnv1a(&one, sizeof(one), h));
	assert_string_equal(c, want);
	/* no Message-ID: the hash of nothing */
	assert_int_equal(id_boundary(NULL, 0, a, sizeof(a)), 0);
	assert_string_equal(a, "=-perfbot-cbf29ce484222325");
	unsetenv("SOURCE_DATE_EPOCH");
}

/* Without it: 96 random bits, another each time. */
static void t_boundary_random(void **state)
{
	char a[48], b[48];

	(void)state;
	unsetenv("SOURCE_DATE_EPOCH");
	assert_int_equal(id_boundary("m@x", 0, a, sizeof(a)), 0);
	assert_int_equal(id_boundary("m@x", 0, b, sizeof(b)), 0);
	assert_int_equal(strlen(a), 10 + 24);
	assert_memory_equal(a, "=-perfbot-", 10);
	assert_true(hex(a + 10, 24));
	assert_string_not_equal(a, b);
	/* an empty SOURCE_DATE_EPOCH is none */
	setenv("SOURCE_DATE_EPOCH", "", 1);
	assert_int_equal(id_boundary("m@x", 0, a, sizeof(a)), 0);
	assert_int_equal(strlen(a), 34);
	unsetenv("SOURCE_DATE_EPOCH");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_message_id_format),
		cmocka_unit_test(t_message_id_stable),
		cmocka_unit_test(t_message_id_report),
		cmocka_unit_test(t_is_ours),
		cmocka_unit_test(t_message_id_draw),
		cmocka_unit_test(t_report_id),
		cmocka_unit_test(t_answer_id),
		cmocka_unit_test(t_retest_request_id),
		cmocka_unit_test(t_verify_request_id),
		cmocka_unit_test(t_confirm_request_id),
		cmocka_unit_test(t_boundary_reproducible),
		cmocka_unit_test(t_boundary_random),
		cmocka_unit_test(t_file_name),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
