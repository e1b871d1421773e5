// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/ingest/group.c: which of a cycle's manifests make
 * one report (the same base and head commits; 'group: NAME' joins by
 * name, 'group: none' and 'bisect: true' stay apart; a bad 'group' is
 * refused with its line), the groups in the order of their first
 * manifests, and the robot's order of a group's comparisons; the text a
 * grouped report keeps.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "perfbot/ingest/group.h"
#include "perfbot/ingest/manifest.h"

#define A "1111111111111111111111111111111111111111"
#define B "2222222222222222222222222222222222222222"
#define C "3333333333333333333333333333333333333333"

/* The key of a manifest of commits 'base'..'head' with 'extra' lines. */
static char *key_of_in(const char *dir, const char *base, const char *head,
		       const char *extra)
{
	char text[1024];
	struct pb_err err = { 0, "" };
	struct manifest m;
	char *key;
	int oom;

	snprintf(text, sizeof(text), "base: { commit: %s, result_root: b }\n"
		 "head: { commit: %s, result_root: h }\n%s", base, head,
		 extra);
	assert_int_equal(manifest_parse(&m, "m.yaml", ".", text, strlen(text),
					&err), 0);
	key = manifest_group_key(&m, dir, &oom);
	assert_int_equal(oom, 0);
	manifest_release(&m);
	return key;
}

static char *key_of(const char *base, const char *head, const char *extra)
{
	return key_of_in("/srv/mf", base, head, extra);
}

static void t_keys(void **state)
{
	char *k1 = key_of(A, B, ""), *k2 = key_of(A, B, "id: other\n"),
	     *k3 = key_of(A, C, ""), *k4 = key_of(A, C, "group: mm-1\n"),
	     *k5 = key_of(A, B, "group: mm-1\n"),
	     *k6 = key_of_in("/srv/other", A, B, "");

	(void)state;
	assert_non_null(k1);
	assert_string_equal(k1, k2);	/* the same commits */
	assert_string_not_equal(k1, k3);	/* another head */
	assert_string_equal(k4, k5);	/* one name, whatever the commits */
	assert_string_not_equal(k4, k1);
	assert_string_not_equal(k6, k1);	/* another directory */
	assert_null(key_of(A, B, "group: none\n"));
	assert_null(key_of(A, C, "bisect: true\n"));
	free(k1);
	free(k2);
	free(k3);
	free(k4);
	free(k5);
	free(k6);
}

static void t_bad_group(void **state)
{
	static const char *const bad[] = {
		"group: \"a b\"\n", "group: \"\"\n", "group: [a]\n",
		"group: \"a/b\"\n",
	};
	struct pb_err err = { 0, "" };
	struct manifest m;
	char text[512];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(text, sizeof(text), "base: { commit: " A ", "
			 "result_root: b }\nhead: { commit: " B ", "
			 "result_root: h }\n%s", bad[i]);
		assert_int_equal(manifest_parse(&m, "m.yaml", ".", text,
						strlen(text), &err), -1);
		assert_int_equal(err.code, EX_DATAERR);
		assert_non_null(strstr(err.msg, "m.yaml:3: 'group'"));
	}
}

/* 4 of one pair, 1 of another, one kept apart: 3 groups, in order. */
static void t_groups(void **state)
{
	char *key[6] = { "commits a b", "commits a c", NULL, "commits a b",
			 "commits a b", "commits a b" };
	struct manifest_groups g;
	struct pb_err err = { 0, "" };

	(void)state;
	assert_int_equal(manifest_groups_make(&g, key, 6, &err), 0);
	assert_int_equal(g.ngroups, 3);
	assert_int_equal(g.first[0], 0);
	assert_int_equal(g.first[1], 4);
	assert_int_equal(g.first[2], 5);
	assert_int_equal(g.first[3], 6);
	assert_int_equal(g.member[0], 0);
	assert_int_equal(g.member[1], 3);
	assert_int_equal(g.member[2], 4);
	assert_int_equal(g.member[3], 5);
	assert_int_equal(g.member[4], 1);
	assert_int_equal(g.member[5], 2);
	manifest_groups_release(&g);
	manifest_groups_release(&g);	/* safe twice */
}

static void t_groups_cut(void **state)
{
	char *key[GROUP_MAX_MEMBERS + 3];
	struct manifest_groups g;
	struct pb_err err = { 0, "" };
	size_t i;

	(void)state;
	for (i = 0; i < GROUP_MAX_MEMBERS + 3; i++)
		key[i] = "group x";
	assert_int_equal(manifest_groups_make(&g, key, GROUP_MAX_MEMBERS + 3,
					      &err), 0);
	assert_int_equal(g.ngroups, 2);
	assert_int_equal(g.first[1], GROUP_MAX_MEMBERS);
	manifest_groups_release(&g);
	assert_int_equal(manifest_groups_make(&g, key, 0, &err), 0);
	assert_int_equal(g.ngroups, 0);
	manifest_groups_release(&g);
}

/* The largest change first whatever its sign; ties keep their order. */
static void t_order(void **state)
{
	double change[5] = { -18.0, 30.1, -30.1, 2.5, -98.4 };
	size_t order[5];

	(void)state;
	group_order(change, 5, order);
	assert_int_equal(order[0], 4);
	assert_int_equal(order[1], 1);
	assert_int_equal(order[2], 2);
	assert_int_equal(order[3], 0);
	assert_int_equal(order[4], 3);
}

/* A grouped report's kept text: its own manifest, then each joined. */
static void t_kept(void **state)
{
	const char *texts[3] = { "id: a\n", "id: b\n", "id: c\n" };
	size_t at = 0, start, len;
	char *kept = manifest_kept_join(texts, 3);

	(void)state;
	assert_non_null(kept);
	assert_int_equal(manifest_kept_len(kept), strlen("id: a\n"));
	assert_int_equal(manifest_kept_next(kept, &at, &start, &len), 1);
	assert_int_equal(len, strlen("id: b\n"));
	assert_memory_equal(kept + start, "id: b\n", len);
	assert_int_equal(manifest_kept_next(kept, &at, &start, &len), 1);
	assert_memory_equal(kept + start, "id: c\n", len);
	assert_int_equal(kept[start + len], '\0');
	assert_int_equal(manifest_kept_next(kept, &at, &start, &len), 0);
	free(kept);
	/* a report's own alone, as every report before groups kept it */
	at = 0;
	assert_int_equal(manifest_kept_len("id: a\n"), 6);
	assert_int_equal(manifest_kept_next("id: a\n", &at, &start, &len), 0);
	assert_null(manifest_kept_join(texts, 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_keys),
		cmocka_unit_test(t_bad_group),
		cmocka_unit_test(t_groups),
		cmocka_unit_test(t_groups_cut),
		cmocka_unit_test(t_order),
		cmocka_unit_test(t_kept),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
