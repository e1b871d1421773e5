// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/util/text.c: UTF-8 decoding at its edges (overlong,
 * surrogates, truncated, above U+10FFFF, stray continuation bytes),
 * make_valid, the UTF-8-safe cut, every scrubbing policy, and, over
 * random bytes, that the text.c call named for each scrubber of the tree
 * gives exactly what that scrubber's own loop gives (the loops are
 * restated here as they are in their files).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "perfbot/util/text.h"

/* ---- UTF-8 ---- */

static void t_decode_valid(void **state)
{
	uint32_t cp = 0;

	(void)state;
	assert_int_equal(utf8_decode("A", 1, &cp), 1);
	assert_int_equal(cp, 'A');
	assert_int_equal(utf8_decode("", 1, &cp), 1);	/* NUL is U+0000 */
	assert_int_equal(cp, 0);
	assert_int_equal(utf8_decode("\xc2\x80", 2, &cp), 2);
	assert_int_equal(cp, 0x80);
	assert_int_equal(utf8_decode("\xdf\xbf", 2, &cp), 2);
	assert_int_equal(cp, 0x7ff);
	assert_int_equal(utf8_decode("\xe0\xa0\x80", 3, &cp), 3);
	assert_int_equal(cp, 0x800);
	assert_int_equal(utf8_decode("\xef\xbf\xbf", 3, &cp), 3);
	assert_int_equal(cp, 0xffff);
	assert_int_equal(utf8_decode("\xf0\x90\x80\x80", 4, &cp), 4);
	assert_int_equal(cp, 0x10000);
	assert_int_equal(utf8_decode("\xf4\x8f\xbf\xbf", 4, &cp), 4);
	assert_int_equal(cp, 0x10ffff);
	assert_int_equal(utf8_decode("\xed\x9f\xbf", 3, &cp), 3);
	assert_int_equal(cp, 0xd7ff);
	assert_int_equal(utf8_decode("\xee\x80\x80", 3, NULL), 3);
	assert_int_equal(utf8_decode("\xe2\x82\xac", 5, &cp), 3);
	assert_int_equal(cp, 0x20ac);
}

static void t_decode_invalid(void **state)
{
	static const char *const bad[] = {
		"\xc0\x80", "\xc1\xbf",			/* overlong 2 */
		"\xe0\x80\x80", "\xe0\x9f\xbf",		/* overlong 3 */
		"\xf0\x80\x80\x80", "\xf0\x8f\xbf\xbf",	/* overlong 4 */
		"\xed\xa0\x80", "\xed\xbf\xbf",		/* surrogates */
		"\xf4\x90\x80\x80", "\xf7\xbf\xbf\xbf",	/* > U+10FFFF */
		"\xf8\x88\x80\x80\x80", "\xfc\x84\x80\x80\x80\x80", "\xfe",
		"\xff", "\x80", "\xbf",			/* no lead byte */
		"\xc2\x41", "\xe2\x82\x41", "\xf0\x90\x80\x41",	/* bad follow */
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(utf8_decode(bad[i], strlen(bad[i]), NULL), 0);
		assert_false(utf8_valid(bad[i], strlen(bad[i])));
	}
	/* truncated: the bytes are there but n stops short */
	assert_int_equal(utf8_decode("\xe2\x82\xac", 2, NULL), 0);
	assert_int_equal(utf8_decode("\xf0\x90\x80\x80", 3, NULL), 0);
	assert_int_equal(utf8_decode("\xc2\x80", 1, NULL), 0);
	assert_int_equal(utf8_decode("A", 0, NULL), 0);
}

static void t_valid(void **state)
{
	(void)state;
	assert_true(utf8_valid("", 0));
	assert_true(utf8_valid("plain ascii text, long enough for 8", 35));
	assert_true(utf8_valid("a\0b", 3));
	assert_true(utf8_valid("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
			       14));
	assert_false(utf8_valid("caf\xc3", 4));
	assert_false(utf8_valid("0123456789abcdef\xed\xa0\x80", 19));
	assert_false(utf8_valid("\xe2\x82\xac", 2));
}

static void t_encode(void **state)
{
	char b[4];
	uint32_t cp, back;
	size_t k;

	(void)state;
	assert_int_equal(utf8_encode(0x41, b), 1);
	assert_int_equal(utf8_encode(0xe9, b), 2);
	assert_memory_equal(b, "\xc3\xa9", 2);
	assert_int_equal(utf8_encode(0xfffd, b), 3);
	assert_memory_equal(b, TEXT_REPLACEMENT, 3);
	assert_int_equal(utf8_encode(0x10ffff, b), 4);
	assert_memory_equal(b, "\xf4\x8f\xbf\xbf", 4);
	assert_int_equal(utf8_encode(0xd800, b), 0);
	assert_int_equal(utf8_encode(0xdfff, b), 0);
	assert_int_equal(utf8_encode(0x110000, b), 0);
	for (cp = 0; cp < 0x110000; cp += 7) {
		k = utf8_encode(cp, b);
		if (cp >= 0xd800 && cp <= 0xdfff) {
			assert_int_equal(k, 0);
			continue;
		}
		assert_int_equal(utf8_decode(b, k, &back), k);
		assert_int_equal(back, cp);
	}
}

static char *valid_of(const char *s, size_t n)
{
	struct strbuf sb = STRBUF_INIT;

	assert_int_equal(utf8_make_valid(&sb, s, n), 0);
	return sb_detach(&sb, NULL);
}

static void t_make_valid(void **state)
{
	static const struct {
		const char *in;
		size_t n;
		const char *out;
	} c[] = {
		{ "abc", 3, "abc" },
		{ "", 0, "" },
		{ "a\0b", 3, "a" TEXT_REPLACEMENT "b" },
		{ "\xc3\xa9", 2, "\xc3\xa9" },
		{ "x\xff" "y", 3, "x" TEXT_REPLACEMENT "y" },
		/* each byte of a broken sequence is one U+FFFD */
		{ "\xe2\x82", 2, TEXT_REPLACEMENT TEXT_REPLACEMENT },
		{ "\xed\xa0\x80", 3,
		  TEXT_REPLACEMENT TEXT_REPLACEMENT TEXT_REPLACEMENT },
		{ "\xc0\xaf!", 3, TEXT_REPLACEMENT TEXT_REPLACEMENT "!" },
		{ "\xe2\x82\xac\xe2", 4, "\xe2\x82\xac" TEXT_REPLACEMENT },
	};
	size_t i;
	char *v;

	(void)state;
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		v = valid_of(c[i].in, c[i].n);
		assert_string_equal(v, c[i].out);
		assert_true(utf8_valid(v, strlen(v)));
		free(v);
	}
}

static void t_make_valid_full(void **state)
{
	struct strbuf sb;

	(void)state;
	sb_init(&sb, 4);
	assert_int_equal(utf8_make_valid(&sb, "abcd", 4), 0);
	assert_int_equal(utf8_make_valid(&sb, "e", 1), -1);
	assert_string_equal(sb_str(&sb), "abcd");
	sb_release(&sb);
}

static void t_cut(void **state)
{
	const char *s = "ab\xe2\x82\xac" "cd";	/* a b EURO c d */

	(void)state;
	assert_int_equal(utf8_cut(s, 7, 10), 7);
	assert_int_equal(utf8_cut(s, 7, 7), 7);
	assert_int_equal(utf8_cut(s, 7, 5), 5);
	assert_int_equal(utf8_cut(s, 7, 4), 2);
	assert_int_equal(utf8_cut(s, 7, 3), 2);
	assert_int_equal(utf8_cut(s, 7, 2), 2);
	assert_int_equal(utf8_cut(s, 7, 0), 0);
	assert_int_equal(utf8_cut("\x80\x80\x80", 3, 2), 0);
}

static void t_is_space(void **state)
{
	(void)state;
	assert_true(text_is_space(' ') && text_is_space('\t') &&
		    text_is_space('\n') && text_is_space('\r') &&
		    text_is_space('\v') && text_is_space('\f'));
	assert_false(text_is_space('a') || text_is_space(0) ||
		     text_is_space((char)0xa0) || text_is_space(0x85));
}

/* ---- the policies ---- */

static char *scrubbed(const char *s, size_t n, unsigned policy)
{
	char *d = malloc(n + 1);

	assert_non_null(d);
	text_scrub_to(d, n + 1, s, n, policy);
	return d;
}

#define SCRUB(in, policy, out)					\
	do {							\
		char *d_ = scrubbed(in, sizeof(in) - 1, policy);	\
		assert_string_equal(d_, out);			\
		free(d_);					\
	} while (0)

static void t_policy_replace(void **state)
{
	(void)state;
	SCRUB("a\x01" "b\x7f" "c\0d\te\nf\rg", TEXT_CTRL_QMARK,
	      "a?b?c?d?e?f?g");
	SCRUB("a\x01" "b\x7f" "c\0d\te\nf\rg", TEXT_CTRL_SPACE,
	      "a b c d e f g");
	SCRUB("a\x01" "b\x7f" "c\0d\te\nf\rg", TEXT_CTRL_DROP, "abcdefg");
	SCRUB("caf\xc3\xa9 \x1b[0m", 0, "caf\xc3\xa9 ?[0m");
}

static void t_policy_tab_lf_del_space(void **state)
{
	(void)state;
	SCRUB("a\tb\nc", TEXT_KEEP_TAB, "a\tb?c");
	SCRUB("a\tb\nc", TEXT_TAB_SPACE, "a b?c");
	SCRUB("a\tb\nc", TEXT_TAB_SPACE | TEXT_CTRL_DROP, "a bc");
	SCRUB("a\tb\nc", TEXT_KEEP_LF, "a?b\nc");
	SCRUB("a\x7f" "b", TEXT_KEEP_DEL, "a\x7f" "b");
	SCRUB("a b\x01", TEXT_SPACE_CTRL, "a?b?");
	SCRUB("a b", TEXT_SPACE_CTRL | TEXT_CTRL_DROP, "ab");
}

static void t_policy_crlf(void **state)
{
	(void)state;
	SCRUB("a\r\nb\rc\nd\r\r\ne\r", TEXT_CRLF_LF | TEXT_KEEP_LF,
	      "a\nb\nc\nd\n\ne\n");
	SCRUB("a\r\nb\rc\nd", TEXT_DROP_CRLF, "abcd");
	SCRUB("a\r\nb\x01", TEXT_DROP_CRLF | TEXT_CTRL_SPACE, "ab ");
}

static void t_policy_unicode(void **state)
{
	(void)state;
	/* C1 (U+0085 NEL), LS, PS: one '?' each; each invalid byte one */
	SCRUB("a\xc2\x85" "b\xe2\x80\xa8" "c\xe2\x80\xa9" "d", TEXT_UNICODE,
	      "a?b?c?d");
	SCRUB("\xe2\x82\xac\xff\xe2\x82" "x\xed\xa0\x80", TEXT_UNICODE,
	      "\xe2\x82\xac???x???");
	SCRUB("caf\xc3\xa9 \xc2\xa0 \x7f", TEXT_UNICODE,
	      "caf\xc3\xa9 \xc2\xa0 ?");
	/* without the policy, bytes >= 0x80 pass as they are */
	SCRUB("a\xc2\x85\xff", 0, "a\xc2\x85\xff");
	/* TEXT_C1: only C2 80..9F, nothing else checked */
	SCRUB("a\xc2\x85" "b\xc2\xa0\xff\xe2\x80\xa8", TEXT_C1,
	      "a?b\xc2\xa0\xff\xe2\x80\xa8");
}

static void t_policy_fold_trim(void **state)
{
	(void)state;
	SCRUB("  a \x01\x02 b  ", TEXT_CTRL_SPACE | TEXT_TRIM,
	      "a    b");
	SCRUB("  a \x01\x02 b  ", TEXT_CTRL_SPACE | TEXT_FOLD, " a b ");
	SCRUB("  a \x01\x02 b  ", TEXT_CTRL_SPACE | TEXT_FOLD | TEXT_TRIM,
	      "a b");
	SCRUB(" \x01 ", TEXT_CTRL_SPACE | TEXT_TRIM, "");
	SCRUB("\ta\t", TEXT_TAB_SPACE | TEXT_TRIM, "a");
	SCRUB("a\t\tb", TEXT_KEEP_TAB | TEXT_FOLD, "a\t\tb");
}

static void t_scrub_cap_and_inplace(void **state)
{
	char d[4];
	char s[] = "a\r\nb\x01" "c";

	(void)state;
	assert_int_equal(text_scrub_to(d, sizeof(d), "ab\x01" "cdef", 6, 0), 3);
	assert_string_equal(d, "ab?");
	assert_int_equal(text_scrub_to(d, 1, "abc", 3, 0), 0);
	assert_string_equal(d, "");
	/* a kept sequence that does not fit is not split */
	assert_int_equal(text_scrub_to(d, sizeof(d), "ab\xe2\x82\xac", 5,
				       TEXT_UNICODE), 2);
	text_scrub(s, TEXT_CRLF_LF | TEXT_KEEP_LF);
	assert_string_equal(s, "a\nb?c");
}

static void t_scrub_sb_add(void **state)
{
	struct strbuf sb;

	(void)state;
	sb_init(&sb, 8);
	assert_int_equal(text_scrub_add(&sb, "ab\x01", 3, 0), 0);
	assert_int_equal(text_scrub_add(&sb, "c\nd", 3, TEXT_KEEP_LF), 0);
	assert_string_equal(sb_str(&sb), "ab?c\nd");
	assert_int_equal(sb.len, 6);
	assert_int_equal(text_scrub_add(&sb, "xyz", 3, 0), -1);
	assert_string_equal(sb_str(&sb), "ab?c\nd");
	assert_int_equal(sb_add(&sb, "\0\r", 2), 0);
	text_scrub_sb(&sb, TEXT_KEEP_LF | TEXT_CRLF_LF);
	assert_int_equal(sb.len, 8);
	assert_memory_equal(sb.buf, "ab?c\nd?\n", 9);
	sb_release(&sb);
	text_scrub_sb(&sb, 0);	/* empty, never allocated */
	assert_int_equal(sb.len, 0);
}

static void t_scrub_at(void **state)
{
	(void)state;
	assert_int_equal(text_scrub_at("abc", 3, 0), 3);
	assert_int_equal(text_scrub_at("ab\x7f", 3, 0), 2);
	assert_int_equal(text_scrub_at("ab\x7f", 3, TEXT_KEEP_DEL), 3);
	assert_int_equal(text_scrub_at("a b", 3, 0), 3);
	assert_int_equal(text_scrub_at("a b", 3, TEXT_SPACE_CTRL), 1);
	assert_int_equal(text_scrub_at("a\tb", 3, TEXT_KEEP_TAB), 3);
	assert_int_equal(text_scrub_at("a\tb", 3, TEXT_TAB_SPACE), 1);
	assert_int_equal(text_scrub_at("x\xc2\x9f", 3, TEXT_C1), 1);
	assert_int_equal(text_scrub_at("x\xc2\xa0", 3, TEXT_C1), 3);
	assert_int_equal(text_scrub_at("x\xe2\x82", 3, TEXT_UNICODE), 1);
	assert_int_equal(text_scrub_at("a\nb", 3, TEXT_KEEP_LF), 3);
	assert_int_equal(text_scrub_at("a\r\nb", 4, TEXT_KEEP_LF |
					 TEXT_CRLF_LF), 1);
}

static void t_scrub_line(void **state)
{
	char s[] = "Re: a\r\n\tb\x7f";

	(void)state;
	text_scrub_line(s);
	assert_string_equal(s, "Re: a   b ");
}

/* ---- the scrubbers of the tree, restated, against their text.c call ---- */

/* render/report.c text_one_line() */
static void old_one_line(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			*s = ' ';
}

/* util/log.c emit(), util/err.c scrub(), cli/cmd_status.c, chart.c */
static void old_qmark(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			*s = '?';
}

/* send/outbox.c, the X-Perfbot-Staging header */
static void old_outbox(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s <= 0x20 || *s == 0x7f)
			*s = '?';
}

/* send/smtp.c copy_line() */
static void old_smtp(char *dst, size_t cap, const char *src, size_t n)
{
	size_t i, j = 0;

	for (i = 0; i < n && j + 1 < cap; i++)
		if (src[i] != '\r' && src[i] != '\n')
			dst[j++] = (unsigned char)src[i] < 0x20 ? '?' : src[i];
	dst[j] = '\0';
}

/* poll/commands.c keep_line(), 'max' for CMD_LINE_MAX - 1 */
static void old_keep_line(char *line, size_t max, const char *s, size_t len)
{
	size_t i;

	if (len > max) {
		len = max;
		while (len > 0 && ((unsigned char)s[len] & 0xc0) == 0x80)
			len--;
	}
	for (i = 0; i < len; i++) {
		unsigned char ch = (unsigned char)s[i];

		line[i] = ch == '\t' ? ' ' : ch < 0x20 || ch == 0x7f ? '?' :
			(char)ch;
	}
	line[len] = '\0';
}

/* poll/reply.c normalize(), before the split */
static size_t old_normalize(char *buf, size_t len)
{
	size_t i, j = 0;
	char ch;

	for (i = 0; i < len; i++) {
		ch = buf[i];
		if (ch == '\r') {
			if (i + 1 < len && buf[i + 1] == '\n')
				continue;
			ch = '\n';
		} else if (((unsigned char)ch < 0x20 && ch != '\n' &&
			    ch != '\t') || ch == 0x7f) {
			ch = '?';
		}
		buf[j++] = ch;
	}
	return j;
}

/* poll/reply.c one_line() after g_utf8_make_valid(), before the split */
static void old_reply_line(char *v)
{
	char *p, *start;
	size_t n;

	for (p = v; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = ' ';
	for (start = v; *start == ' '; start++)
		;
	n = strlen(start);
	while (n > 0 && start[n - 1] == ' ')
		n--;
	memmove(v, start, n);
	v[n] = '\0';
}

/* act/scheduler.c scrub() */
static int old_sched_control(uint32_t cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp == 0x2028 ||
		cp == 0x2029;
}

static void old_sched_scrub(char *s)
{
	char *r = s, *w = s;
	size_t n = strlen(s), k;
	uint32_t cp;

	while (n) {
		k = utf8_decode(r, n, &cp);
		if (!k || old_sched_control(cp)) {
			*w++ = '?';
			k = k ? k : 1;
		} else {
			memmove(w, r, k);
			w += k;
		}
		r += k;
		n -= k;
	}
	*w = '\0';
}

/* util/addr.c text_has_control() */
static int old_addr_has_control(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i;

	for (i = 0; i < n; i++) {
		if (p[i] < 0x20 || p[i] == 0x7f)
			return 1;
		if (p[i] == 0xc2 && i + 1 < n && p[i + 1] >= 0x80 &&
		    p[i + 1] <= 0x9f)
			return 1;
	}
	return 0;
}

/* ingest/manifest.c is_url()'s and render/mustache.c has_bad_char()'s */
static int old_blank_or_control(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] <= ' ' || s[i] == 0x7f)
			return 1;
	return 0;
}

/* ingest/manifest.c has_control(), act/scheduler.c check_id()'s loop */
static int old_has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 1;
	return 0;
}

/* act/scheduler.c check_value()'s loop */
static int old_sched_valid(const char *s, size_t n)
{
	size_t k;
	uint32_t cp;

	for (; n; s += k, n -= k)
		if (!(k = utf8_decode(s, n, &cp)))
			return 0;
	return 1;
}

static size_t random_text(char *buf, size_t cap, unsigned *seed)
{
	static const char pick[] = "\0\t\n\r \x01\x1f\x7f" "a~\xc2\x85\xc2"
		"\xa0\xe2\x80\xa8\xa9\xed\xa0\x80\xf4\x90\xff";
	size_t n = (size_t)rand_r(seed) % cap, i;

	for (i = 0; i < n; i++)
		buf[i] = rand_r(seed) % 4 ?
			pick[rand_r(seed) % (sizeof(pick) - 1)] :
			(char)rand_r(seed);
	return n;
}

static void t_same_as_the_tree(void **state)
{
	unsigned seed = 12;
	char in[40], a[48], b[48], la[48], lb[48];
	size_t n, na, nb, k;
	int round;

	(void)state;
	for (round = 0; round < 200000; round++) {
		n = random_text(in, 32, &seed);
		in[n] = '\0';
		k = strlen(in);		/* the C string part */

		memcpy(a, in, k + 1);
		memcpy(b, in, k + 1);
		old_one_line(a);
		text_scrub_line(b);
		assert_string_equal(a, b);

		memcpy(a, in, k + 1);
		memcpy(b, in, k + 1);
		old_qmark(a);
		text_scrub(b, TEXT_CTRL_QMARK);
		assert_string_equal(a, b);

		memcpy(a, in, k + 1);
		memcpy(b, in, k + 1);
		old_outbox(a);
		text_scrub(b, TEXT_SPACE_CTRL);
		assert_string_equal(a, b);

		memcpy(a, in, k + 1);
		memcpy(b, in, k + 1);
		old_sched_scrub(a);
		text_scrub(b, TEXT_UNICODE);
		assert_string_equal(a, b);

		old_smtp(a, 12, in, n);
		text_scrub_to(b, 12, in, n, TEXT_DROP_CRLF | TEXT_KEEP_DEL);
		assert_string_equal(a, b);

		old_keep_line(la, 20, in, n);
		na = utf8_cut(in, n, 20);
		text_scrub_to(lb, na + 1, in, na, TEXT_TAB_SPACE);
		assert_string_equal(la, lb);

		memcpy(a, in, n);
		memcpy(b, in, n);
		na = old_normalize(a, n);
		nb = text_scrub_to(b, n + 1, b, n, TEXT_KEEP_TAB |
				   TEXT_KEEP_LF | TEXT_CRLF_LF);
		assert_int_equal(na, nb);
		assert_memory_equal(a, b, na);

		memcpy(a, in, k + 1);
		memcpy(b, in, k + 1);
		old_reply_line(a);
		text_scrub(b, TEXT_CTRL_SPACE | TEXT_TRIM);
		assert_string_equal(a, b);

		assert_int_equal(old_addr_has_control(in, n),
				 text_scrub_at(in, n, TEXT_C1) < n);
		assert_int_equal(text_has_control(in, n),
				 text_scrub_at(in, n, TEXT_C1) < n);
		assert_int_equal(old_blank_or_control(in, n),
				 text_scrub_at(in, n, TEXT_SPACE_CTRL) < n);
		assert_int_equal(old_has_control(in),
				 text_scrub_at(in, k, 0) < k);
		assert_int_equal(old_sched_valid(in, n), utf8_valid(in, n));
	}
}

static void wrap_is(const char *in, size_t width, const char *sep,
		    const char *want)
{
	struct strbuf sb = STRBUF_INIT;

	assert_int_equal(text_wrap(&sb, in, width, "  ", sep), 0);
	assert_string_equal(sb_str(&sb), want);
	sb_release(&sb);
}

/* Filling text into lines (the report's evidence line, issue 21 item 15). */
static void t_wrap(void **state)
{
	(void)state;
	wrap_is("", 10, NULL, "");
	wrap_is("short", 10, NULL, "short");
	wrap_is("aaa bbb ccc ddd", 7, NULL, "aaa bbb\n  ccc\n  ddd");
	/* a word longer than a line stands alone, unbroken */
	wrap_is("a verylongword b", 6, NULL, "a\n  verylongword\n  b");
	/* width counts characters, not bytes */
	wrap_is("\xc3\xa9\xc3\xa9\xc3\xa9 abc", 7, NULL,
		"\xc3\xa9\xc3\xa9\xc3\xa9 abc");
	/* clauses stay whole: "p = 1" is never split */
	wrap_is("x, p = 1, q = 2", 9, ", ", "x, p = 1,\n  q = 2");
	wrap_is("x, p = 1, q = 2", 8, ", ", "x,\n  p = 1,\n  q = 2");
	/* a clause longer than a line is broken at its spaces */
	wrap_is("a, bb cc dd ee", 8, ", ", "a, bb cc\n  dd ee");
	/* newlines end lines; runs of spaces are one */
	wrap_is("a\nb   c", 10, NULL, "a\n  b c");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_decode_valid),
		cmocka_unit_test(t_decode_invalid),
		cmocka_unit_test(t_valid),
		cmocka_unit_test(t_encode),
		cmocka_unit_test(t_make_valid),
		cmocka_unit_test(t_make_valid_full),
		cmocka_unit_test(t_cut),
		cmocka_unit_test(t_is_space),
		cmocka_unit_test(t_policy_replace),
		cmocka_unit_test(t_policy_tab_lf_del_space),
		cmocka_unit_test(t_policy_crlf),
		cmocka_unit_test(t_policy_unicode),
		cmocka_unit_test(t_policy_fold_trim),
		cmocka_unit_test(t_scrub_cap_and_inplace),
		cmocka_unit_test(t_scrub_sb_add),
		cmocka_unit_test(t_scrub_at),
		cmocka_unit_test(t_scrub_line),
		cmocka_unit_test(t_same_as_the_tree),
		cmocka_unit_test(t_wrap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
