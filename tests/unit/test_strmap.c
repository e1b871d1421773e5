// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/util/strmap.c: the string -> index map that matches
 * metrics by name, and the FNV-1a hash behind it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "perfbot/util/strmap.h"

#define MANY 20000
#define KEYLEN 32

struct fx {
	struct strmap m;
	char keys[MANY][KEYLEN];	/* borrowed by the map */
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	strmap_init(&f->m);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	strmap_release(&f->m);
	free(f);
	return 0;
}

static void t_empty(void **state)
{
	struct fx *f = *state;
	size_t v = 77;

	assert_int_equal(f->m.count, 0);
	assert_int_equal(strmap_get(&f->m, "anything", &v), -1);
	assert_int_equal(strmap_get(&f->m, "", &v), -1);
	assert_int_equal(v, 77);
}

static void t_put_get(void **state)
{
	struct fx *f = *state;
	size_t v = 0;

	assert_int_equal(strmap_put(&f->m, "fsmark.files_per_sec", 3, NULL), 0);
	assert_int_equal(strmap_put(&f->m, "cpuidle..time", 0, NULL), 0);
	assert_int_equal(f->m.count, 2);
	assert_int_equal(strmap_get(&f->m, "fsmark.files_per_sec", &v), 0);
	assert_int_equal(v, 3);
	assert_int_equal(strmap_get(&f->m, "cpuidle..time", &v), 0);
	assert_int_equal(v, 0);
}

static void t_lookup_by_content(void **state)
{
	struct fx *f = *state;
	char other[] = "meminfo.Active(anon)";
	size_t v = 0;

	assert_int_equal(strmap_put(&f->m, "meminfo.Active(anon)", 42, NULL), 0);
	/* A different pointer with the same bytes finds it. */
	assert_int_equal(strmap_get(&f->m, other, &v), 0);
	assert_int_equal(v, 42);
}

static void t_duplicate_put(void **state)
{
	int present = 0;
	struct fx *f = *state;
	char again[] = "x";
	size_t v = 0;

	assert_int_equal(strmap_put(&f->m, "x", 1, &present), 0);
	assert_int_equal(present, 0);
	assert_int_equal(strmap_put(&f->m, again, 2, &present), 0);
	assert_int_equal(present, 1);
	assert_int_equal(strmap_put(&f->m, "x", 3, &present), 0);
	assert_int_equal(present, 1);
	assert_int_equal(f->m.count, 1);
	/* The first value is kept. */
	assert_int_equal(strmap_get(&f->m, "x", &v), 0);
	assert_int_equal(v, 1);
}

static void t_missing_key(void **state)
{
	struct fx *f = *state;
	size_t v = 5;

	assert_int_equal(strmap_put(&f->m, "abc", 1, NULL), 0);
	assert_int_equal(strmap_put(&f->m, "abd", 2, NULL), 0);
	assert_int_equal(strmap_get(&f->m, "ab", &v), -1);
	assert_int_equal(strmap_get(&f->m, "abcd", &v), -1);
	assert_int_equal(strmap_get(&f->m, "ABC", &v), -1);
	assert_int_equal(strmap_get(&f->m, "", &v), -1);
	assert_int_equal(v, 5);
}

static void t_empty_key(void **state)
{
	int present = 0;
	struct fx *f = *state;
	size_t v = 0;

	assert_int_equal(strmap_put(&f->m, "", 9, NULL), 0);
	assert_int_equal(strmap_get(&f->m, "", &v), 0);
	assert_int_equal(v, 9);
	assert_int_equal(strmap_put(&f->m, "", 10, &present), 0);
	assert_int_equal(present, 1);
}

static void t_many_keys(void **state)
{
	int present = 0;
	struct fx *f = *state;
	size_t i, v;

	for (i = 0; i < MANY; i++) {
		snprintf(f->keys[i], KEYLEN, "metric.%zu.value", i);
		assert_int_equal(strmap_put(&f->m, f->keys[i], i * 7, NULL), 0);
	}
	assert_int_equal(f->m.count, MANY);
	/* Grown past the initial table, still at most half full. */
	assert_true(f->m.cap >= 2 * MANY);
	assert_int_equal(f->m.cap & (f->m.cap - 1), 0);
	for (i = 0; i < MANY; i++) {
		v = 0;
		assert_int_equal(strmap_get(&f->m, f->keys[i], &v), 0);
		assert_int_equal(v, i * 7);
		assert_int_equal(strmap_put(&f->m, f->keys[i], 0, &present), 0);
		assert_int_equal(present, 1);
	}
	assert_int_equal(strmap_get(&f->m, "metric.20000.value", &v), -1);
	assert_int_equal(f->m.count, MANY);
}

/* Reserved once: no growth while putting, and every key found. */
static void t_reserve(void **state)
{
	struct fx *f = *state;
	size_t i, v, cap;

	strmap_prefetch(&f->m, "kept");	/* no table yet: nothing to do */
	assert_int_equal(strmap_put(&f->m, "kept", 99, NULL), 0);
	assert_int_equal(strmap_reserve(&f->m, MANY), 0);
	strmap_prefetch(&f->m, "kept");	/* a hint: changes nothing */
	assert_int_equal(f->m.count, 1);
	cap = f->m.cap;
	assert_true(cap >= 2 * (MANY + 1));
	assert_int_equal(cap & (cap - 1), 0);
	/* keys that differ only in their last byte, past 8-byte words */
	for (i = 0; i < MANY - 1; i++) {
		snprintf(f->keys[i], KEYLEN, "perf-stat.ps.cpu-%05zu", i);
		assert_int_equal(strmap_put(&f->m, f->keys[i], i, NULL), 0);
	}
	assert_int_equal(f->m.cap, cap);
	assert_int_equal(strmap_reserve(&f->m, 10), 0);	/* never shrinks */
	assert_int_equal(f->m.cap, cap);
	for (i = 0; i < MANY - 1; i++) {
		assert_int_equal(strmap_get(&f->m, f->keys[i], &v), 0);
		assert_int_equal(v, i);
	}
	assert_int_equal(strmap_get(&f->m, "kept", &v), 0);
	assert_int_equal(v, 99);
	assert_int_equal(strmap_get(&f->m, "perf-stat.ps.cpu-0000", &v), -1);
	assert_int_equal(strmap_get(&f->m, "perf-stat.ps.cpu-000000", &v), -1);
}

static void t_release_reuse(void **state)
{
	struct fx *f = *state;
	size_t v = 0;

	assert_int_equal(strmap_put(&f->m, "a", 1, NULL), 0);
	strmap_release(&f->m);
	assert_null(f->m.slots);
	assert_int_equal(f->m.count, 0);
	assert_int_equal(f->m.cap, 0);
	assert_int_equal(strmap_get(&f->m, "a", &v), -1);
	assert_int_equal(strmap_put(&f->m, "a", 2, NULL), 0);
	assert_int_equal(strmap_get(&f->m, "a", &v), 0);
	assert_int_equal(v, 2);
}

static void t_hash_fnv1a(void **state)
{
	(void)state;
	/* Published 64-bit FNV-1a test vectors. */
	assert_true(hash_fnv1a("", 0, 0) == 0xcbf29ce484222325ULL);
	assert_true(hash_fnv1a("a", 1, 0) == 0xaf63dc4c8601ec8cULL);
	assert_true(hash_fnv1a("foobar", 6, 0) == 0x85944171f73967e8ULL);
	/* Only 'len' bytes count. */
	assert_true(hash_fnv1a("foobarXYZ", 6, 0) == 0x85944171f73967e8ULL);
}

static void t_hash_seed(void **state)
{
	unsigned long long h;

	(void)state;
	/* Seeding with a previous hash continues it: h(ab) = h(b, h(a)). */
	h = hash_fnv1a("foo", 3, 0);
	assert_true(hash_fnv1a("bar", 3, h) == hash_fnv1a("foobar", 6, 0));
	assert_true(hash_fnv1a("x", 1, 12345) != hash_fnv1a("x", 1, 0));
	assert_true(hash_fnv1a("", 0, 12345) == 12345);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(t_empty),
		T(t_put_get),
		T(t_lookup_by_content),
		T(t_duplicate_put),
		T(t_missing_key),
		T(t_empty_key),
		T(t_many_keys),
		T(t_reserve),
		T(t_release_reuse),
		cmocka_unit_test(t_hash_fnv1a),
		cmocka_unit_test(t_hash_seed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
