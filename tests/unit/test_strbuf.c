// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/util/strbuf.c: growth, the size cap (a refused add
 * leaves the buffer as it was), formatting, truncation and hand-over.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "perfbot/util/strbuf.h"

/* Each test gets a released-on-teardown buffer, so a failed assert leaks
 * nothing under valgrind. */
static int setup(void **state)
{
	struct strbuf *sb = malloc(sizeof(*sb));

	if (!sb)
		return -1;
	sb_init(sb, 0);
	*state = sb;
	return 0;
}

static int teardown(void **state)
{
	struct strbuf *sb = *state;

	sb_release(sb);
	free(sb);
	return 0;
}

/* The buffer is exactly 'want' (length and bytes) and NUL-terminated. */
static void assert_content(const struct strbuf *sb, const char *want,
			   size_t n)
{
	assert_int_equal(sb->len, n);
	assert_memory_equal(sb_str(sb), want, n);
	assert_int_equal(sb_str(sb)[n], '\0');
	if (sb->buf)
		assert_true(sb->alloc > sb->len);
}

/*
 * Leave a freed chunk of non-zero bytes of the size sb_grow() first asks
 * for, so that a buffer allocated but never written shows its garbage
 * instead of the zeroes fresh memory happens to hold.
 */
static void dirty_heap(void)
{
	char *p = malloc(64);

	assert_non_null(p);
	memset(p, 'Z', 64);
	free(p);
}

static void t_init_empty(void **state)
{
	struct strbuf lit = STRBUF_INIT;

	(void)state;
	assert_null(lit.buf);
	assert_int_equal(lit.len, 0);
	assert_int_equal(lit.max, SB_DEFAULT_MAX);
	assert_non_null(sb_str(&lit));
	assert_string_equal(sb_str(&lit), "");
	sb_release(&lit);
	assert_null(lit.buf);
}

static void t_init_max(void **state)
{
	struct strbuf sb;

	(void)state;
	sb_init(&sb, 0);
	assert_int_equal(sb.max, SB_DEFAULT_MAX);
	sb_init(&sb, 17);
	assert_int_equal(sb.max, 17);
	assert_null(sb.buf);
	assert_string_equal(sb_str(&sb), "");
}

static void t_add_basic(void **state)
{
	struct strbuf *sb = *state;

	assert_int_equal(sb_adds(sb, "hello"), 0);
	assert_int_equal(sb_addc(sb, ','), 0);
	assert_int_equal(sb_add(sb, " world!!", 6), 0);
	assert_content(sb, "hello, world", 12);
	assert_string_equal(sb_str(sb), "hello, world");
}

static void t_add_zero_bytes(void **state)
{
	struct strbuf *sb = *state;

	assert_int_equal(sb_add(sb, "", 0), 0);
	assert_content(sb, "", 0);
	assert_int_equal(sb_adds(sb, ""), 0);
	assert_string_equal(sb_str(sb), "");
}

static void t_add_binary(void **state)
{
	struct strbuf *sb = *state;
	static const char bin[] = { 'a', '\0', 'b', '\0', 'c' };

	assert_int_equal(sb_add(sb, bin, sizeof(bin)), 0);
	assert_content(sb, bin, sizeof(bin));
	assert_string_equal(sb_str(sb), "a");
}

static void t_growth(void **state)
{
	struct strbuf *sb = *state;
	size_t i;

	for (i = 0; i < 100000; i++)
		assert_int_equal(sb_addc(sb, (char)('a' + i % 26)), 0);
	assert_int_equal(sb->len, 100000);
	assert_true(sb->alloc >= 100001);
	for (i = 0; i < 100000; i++)
		assert_int_equal(sb->buf[i], 'a' + i % 26);
	assert_int_equal(sb->buf[100000], '\0');
	assert_int_equal(strlen(sb_str(sb)), 100000);
}

static void t_grow_reserves(void **state)
{
	struct strbuf *sb = *state;
	char *before;

	assert_int_equal(sb_grow(sb, 5000), 0);
	assert_true(sb->alloc >= 5001);
	assert_int_equal(sb->len, 0);
	before = sb->buf;
	/* Reserved room: adds within it do not move the buffer. */
	assert_int_equal(sb_addn(sb, 'x', 5000), 0);
	assert_ptr_equal(sb->buf, before);
	assert_int_equal(sb->len, 5000);
}

static void t_grow_then_str(void **state)
{
	struct strbuf *sb = *state;

	/* Room reserved but nothing added: still the empty string. */
	dirty_heap();
	assert_int_equal(sb_grow(sb, 10), 0);
	assert_int_equal(sb->len, 0);
	/* Byte by byte: an unterminated buffer must fail, not overrun. */
	assert_int_equal(sb_str(sb)[0], '\0');
}

static void t_cap_add(void **state)
{
	struct strbuf sb;

	(void)state;
	sb_init(&sb, 10);
	assert_int_equal(sb_adds(&sb, "12345678"), 0);
	assert_int_equal(sb_adds(&sb, "abc"), -1);
	assert_content(&sb, "12345678", 8);
	assert_int_equal(sb_add(&sb, "abcdef", 3), -1);
	assert_content(&sb, "12345678", 8);
	assert_int_equal(sb_adds(&sb, "ab"), 0);
	assert_content(&sb, "12345678ab", 10);
	/* Exactly at the cap: one more byte is refused, nothing is fine. */
	assert_int_equal(sb_addc(&sb, 'x'), -1);
	assert_int_equal(sb_add(&sb, "", 0), 0);
	assert_content(&sb, "12345678ab", 10);
	sb_release(&sb);
}

static void t_cap_first_add(void **state)
{
	struct strbuf sb;

	(void)state;
	sb_init(&sb, 4);
	assert_int_equal(sb_adds(&sb, "hello"), -1);
	assert_int_equal(sb.len, 0);
	assert_string_equal(sb_str(&sb), "");
	assert_int_equal(sb_adds(&sb, "hell"), 0);
	assert_content(&sb, "hell", 4);
	sb_release(&sb);
}

static void t_cap_addf(void **state)
{
	struct strbuf sb;

	(void)state;
	sb_init(&sb, 12);
	assert_int_equal(sb_addf(&sb, "%s-%d", "ab", 42), 0);
	assert_int_equal(sb_addf(&sb, "%08d", 7), -1);
	assert_content(&sb, "ab-42", 5);
	assert_int_equal(sb_addf(&sb, "%07d", 7), 0);
	assert_content(&sb, "ab-420000007", 12);
	sb_release(&sb);
}

static void t_cap_addn(void **state)
{
	struct strbuf sb;

	(void)state;
	sb_init(&sb, 6);
	assert_int_equal(sb_addn(&sb, '-', 4), 0);
	assert_int_equal(sb_addn(&sb, '+', 3), -1);
	assert_content(&sb, "----", 4);
	assert_int_equal(sb_addn(&sb, '+', 2), 0);
	assert_content(&sb, "----++", 6);
	sb_release(&sb);
}

static void t_cap_no_wraparound(void **state)
{
	struct strbuf *sb = *state;

	assert_int_equal(sb_adds(sb, "abc"), 0);
	/* len + extra would wrap around SIZE_MAX: must be refused. */
	assert_int_equal(sb_grow(sb, SIZE_MAX), -1);
	assert_int_equal(sb_grow(sb, SIZE_MAX - 1), -1);
	assert_int_equal(sb_grow(sb, SB_DEFAULT_MAX - 2), -1);
	assert_int_equal(sb_addn(sb, 'x', SIZE_MAX - 2), -1);
	assert_content(sb, "abc", 3);
}

static void t_addf(void **state)
{
	struct strbuf *sb = *state;

	assert_int_equal(sb_addf(sb, "%s=%d", "runs", 5), 0);
	assert_int_equal(sb_addf(sb, "/%.2f%%", 12.345), 0);
	assert_int_equal(sb_addf(sb, "%s", ""), 0);
	assert_string_equal(sb_str(sb), "runs=5/12.35%");
	assert_int_equal(sb->len, strlen("runs=5/12.35%"));
}

static void t_addf_long(void **state)
{
	struct strbuf *sb = *state;
	size_t i;

	/* Longer than the first allocation: the measured size is used. */
	assert_int_equal(sb_adds(sb, "<"), 0);
	assert_int_equal(sb_addf(sb, "%0700d>", 1), 0);
	assert_int_equal(sb->len, 702);
	assert_int_equal(sb->buf[0], '<');
	for (i = 1; i < 700; i++)
		assert_int_equal(sb->buf[i], '0');
	assert_int_equal(sb->buf[700], '1');
	assert_int_equal(sb->buf[701], '>');
	assert_int_equal(sb->buf[702], '\0');
}

static int call_vaddf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int call_vaddf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = sb_vaddf(sb, fmt, ap);
	va_end(ap);
	return rc;
}

static void t_vaddf(void **state)
{
	struct strbuf *sb = *state;

	assert_int_equal(call_vaddf(sb, "%s:%zu:", "file", (size_t)12), 0);
	assert_int_equal(call_vaddf(sb, " %c%ld", 'x', -3L), 0);
	assert_string_equal(sb_str(sb), "file:12: x-3");
}

static void t_addn(void **state)
{
	struct strbuf *sb = *state;

	assert_int_equal(sb_adds(sb, "a"), 0);
	assert_int_equal(sb_addn(sb, ' ', 3), 0);
	assert_int_equal(sb_addn(sb, 'b', 0), 0);
	assert_int_equal(sb_addn(sb, '=', 200), 0);
	assert_int_equal(sb->len, 204);
	assert_memory_equal(sb->buf, "a   ==", 6);
	assert_int_equal(sb->buf[203], '=');
	assert_int_equal(sb->buf[204], '\0');
}

static void t_addn_zero_on_empty(void **state)
{
	struct strbuf *sb = *state;

	assert_int_equal(sb_addn(sb, 'x', 0), 0);
	assert_content(sb, "", 0);
}

static void t_setlen(void **state)
{
	struct strbuf *sb = *state;

	assert_int_equal(sb_adds(sb, "hello world"), 0);
	sb_setlen(sb, 5);
	assert_content(sb, "hello", 5);
	/* Longer than the content: nothing changes. */
	sb_setlen(sb, 50);
	assert_content(sb, "hello", 5);
	sb_setlen(sb, 5);
	assert_content(sb, "hello", 5);
	sb_setlen(sb, 0);
	assert_content(sb, "", 0);
	assert_int_equal(sb_adds(sb, "again"), 0);
	assert_string_equal(sb_str(sb), "again");
}

static void t_setlen_empty(void **state)
{
	struct strbuf *sb = *state;

	/* No buffer yet: must not touch it. */
	sb_setlen(sb, 0);
	sb_setlen(sb, 3);
	assert_null(sb->buf);
	assert_string_equal(sb_str(sb), "");
}

static void t_reset(void **state)
{
	struct strbuf *sb = *state;
	size_t alloc;

	sb_reset(sb);
	assert_string_equal(sb_str(sb), "");
	assert_int_equal(sb_adds(sb, "something long enough"), 0);
	alloc = sb->alloc;
	sb_reset(sb);
	assert_content(sb, "", 0);
	assert_int_equal(sb->alloc, alloc);
	assert_int_equal(sb_adds(sb, "x"), 0);
	assert_string_equal(sb_str(sb), "x");
}

static void t_detach(void **state)
{
	struct strbuf *sb = *state;
	size_t len = 0;
	char *p;

	assert_int_equal(sb_adds(sb, "take me"), 0);
	p = sb_detach(sb, &len);
	assert_non_null(p);
	assert_string_equal(p, "take me");
	assert_int_equal(len, 7);
	/* The buffer is empty and usable again, and no longer owns 'p'. */
	assert_null(sb->buf);
	assert_int_equal(sb->len, 0);
	assert_int_equal(sb->alloc, 0);
	assert_string_equal(sb_str(sb), "");
	assert_int_equal(sb_adds(sb, "new"), 0);
	assert_string_equal(sb_str(sb), "new");
	assert_string_equal(p, "take me");
	free(p);
}

static void t_detach_empty(void **state)
{
	struct strbuf *sb = *state;
	size_t len = 99;
	char *p, c;

	dirty_heap();
	p = sb_detach(sb, &len);
	assert_non_null(p);
	assert_int_equal(len, 0);
	/* Byte by byte: an unterminated buffer must fail, not overrun. */
	c = p[0];
	free(p);
	assert_int_equal(c, '\0');
	dirty_heap();
	p = sb_detach(sb, NULL);
	assert_non_null(p);
	c = p[0];
	free(p);
	assert_int_equal(c, '\0');
}

static void t_detach_keeps_max(void **state)
{
	struct strbuf sb;
	char *p;

	(void)state;
	sb_init(&sb, 5);
	assert_int_equal(sb_adds(&sb, "12345"), 0);
	p = sb_detach(&sb, NULL);
	assert_string_equal(p, "12345");
	free(p);
	assert_int_equal(sb.max, 5);
	assert_int_equal(sb_adds(&sb, "123456"), -1);
	sb_release(&sb);
}

static void t_release(void **state)
{
	struct strbuf *sb = *state;

	assert_int_equal(sb_adds(sb, "data"), 0);
	sb_release(sb);
	assert_null(sb->buf);
	assert_int_equal(sb->len, 0);
	assert_int_equal(sb->alloc, 0);
	assert_string_equal(sb_str(sb), "");
	sb_release(sb);
	assert_int_equal(sb_adds(sb, "again"), 0);
	assert_string_equal(sb_str(sb), "again");
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_init_empty),
		cmocka_unit_test(t_init_max),
		T(t_add_basic),
		T(t_add_zero_bytes),
		T(t_add_binary),
		T(t_growth),
		T(t_grow_reserves),
		T(t_grow_then_str),
		cmocka_unit_test(t_cap_add),
		cmocka_unit_test(t_cap_first_add),
		cmocka_unit_test(t_cap_addf),
		cmocka_unit_test(t_cap_addn),
		T(t_cap_no_wraparound),
		T(t_addf),
		T(t_addf_long),
		T(t_vaddf),
		T(t_addn),
		T(t_addn_zero_on_empty),
		T(t_setlen),
		T(t_setlen_empty),
		T(t_reset),
		T(t_detach),
		T(t_detach_empty),
		cmocka_unit_test(t_detach_keeps_max),
		T(t_release),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
