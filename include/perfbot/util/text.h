/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_TEXT_H
#define PERFBOT_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include "perfbot/util/strbuf.h"

/*
 * Text from outside: UTF-8 walking and the one scrubber every stage uses
 * before echoing a string into a header, a mail, a log line or a file.
 */

#define TEXT_REPLACEMENT "\xef\xbf\xbd"	/* U+FFFD in UTF-8 */

/*
 * The length (1 to 4) of the well-formed UTF-8 sequence at 's' (at most
 * 'n' bytes) with its code point in '*cp'; 0 for an invalid, overlong,
 * truncated or surrogate sequence, one above U+10FFFF, or n == 0. A NUL
 * byte is U+0000, valid. 'cp' may be NULL.
 */
size_t utf8_decode(const char *s, size_t n, uint32_t *cp);

/* 1 when s[0..n) is well-formed UTF-8 (NUL bytes allowed), else 0. */
int utf8_valid(const char *s, size_t n);

/*
 * The UTF-8 of 'cp' into 'out', its length (1 to 4); 0 for a surrogate
 * or a value above U+10FFFF.
 */
size_t utf8_encode(uint32_t cp, char out[4]);

/*
 * Append s[0..n) to 'sb' as valid UTF-8: each byte that does not start a
 * well-formed sequence, and each NUL, becomes U+FFFD (as GLib's
 * g_utf8_make_valid() with a length). -1 when 'sb' is full.
 */
int utf8_make_valid(struct strbuf *sb, const char *s, size_t n);

/*
 * The longest prefix of s[0..n) not over 'max' bytes that does not end
 * inside a UTF-8 sequence (continuation bytes before the cut are given
 * back with their lead byte).
 */
size_t utf8_cut(const char *s, size_t n, size_t max);

/* ' ', '\t', '\n', '\r', '\v' or '\f' (isspace() of the C locale). */
int text_is_space(int ch);

/*
 * Scrubbing policies, or-ed. A control character is, by default, a byte
 * below 0x20 (NUL included) or DEL, and it becomes '?'.
 */
enum text_policy {
	TEXT_CTRL_QMARK = 0,		/* a control becomes '?' (default) */
	TEXT_CTRL_SPACE = 1 << 0,	/* a control becomes ' ' */
	TEXT_CTRL_DROP = 1 << 1,	/* a control is removed */
	TEXT_KEEP_TAB = 1 << 2,		/* '\t' is kept as it is */
	TEXT_TAB_SPACE = 1 << 3,	/* '\t' becomes ' ' whatever the rule */
	TEXT_KEEP_LF = 1 << 4,		/* '\n' is kept as it is */
	TEXT_CRLF_LF = 1 << 5,		/* CR LF and a lone CR become '\n' */
	TEXT_DROP_CRLF = 1 << 6,	/* CR and LF are removed */
	TEXT_KEEP_DEL = 1 << 7,		/* DEL is not a control */
	TEXT_SPACE_CTRL = 1 << 8,	/* ' ' is a control too */
	TEXT_UNICODE = 1 << 9,		/* read as UTF-8: C1 controls, U+2028,
					 * U+2029 are one control each, and
					 * every byte of an invalid sequence
					 * is one */
	TEXT_C1 = 1 << 10,		/* C2 80..C2 9F (C1 controls in UTF-8)
					 * are one control each; no other
					 * UTF-8 checks */
	TEXT_FOLD = 1 << 11,		/* a run of ' ' (after replacing)
					 * becomes one */
	TEXT_TRIM = 1 << 12,		/* no ' ' at either end (after
					 * replacing) */
};

/*
 * Scrub s[0..n) by 'policy' into 'dst' ('cap' > 0 bytes; at most cap - 1
 * written, then a NUL) and return the length written. 'dst' may be 's'
 * (the result is never longer than the input). A cut by 'cap' falls on a
 * byte, not a character: cut first with utf8_cut() when that matters.
 */
size_t text_scrub_to(char *dst, size_t cap, const char *s, size_t n,
		     unsigned policy);

/*
 * The offset of the first byte of s[0..n) that text_scrub_to() would
 * change or remove by 'policy' (TEXT_FOLD and TEXT_TRIM aside), 'n' when
 * none: a control-character check by the same rules as the scrubber.
 */
size_t text_scrub_at(const char *s, size_t n, unsigned policy);

/*
 * 1 when s[0..n) holds a C0 control, DEL or a C1 control (UTF-8): the
 * check of text_scrub_at(s, n, TEXT_C1) < n, fast on plain ASCII (the
 * names of a matrix.json).
 */
int text_has_control(const char *s, size_t n);

/* In place on the C string 's'. */
void text_scrub(char *s, unsigned policy);

/* In place on a strbuf (which may hold NUL bytes). */
void text_scrub_sb(struct strbuf *sb, unsigned policy);

/* Append s[0..n) scrubbed to 'sb'; -1 when 'sb' is full. */
int text_scrub_add(struct strbuf *sb, const char *s, size_t n,
		   unsigned policy);

/*
 * One line for a header: every byte below 0x20 and DEL becomes ' ', in
 * place (text_scrub(s, TEXT_CTRL_SPACE)).
 */
void text_scrub_line(char *s);

/*
 * Append 'text' to 'out' filled into lines of at most 'width' columns
 * (characters, not bytes); each line after the first starts with
 * 'indent' (counted in the width). With 'sep' (", "), lines break only
 * after it, so that a clause stays whole ("p = 0.002" never split), and
 * a clause longer than a line is broken at spaces; without, at any
 * space. A word longer than a line stands alone, unbroken; a newline in
 * 'text' ends a line there; runs of spaces are one. 0, or -1 on ENOMEM.
 */
int text_wrap(struct strbuf *out, const char *text, size_t width,
	      const char *indent, const char *sep);

#endif
