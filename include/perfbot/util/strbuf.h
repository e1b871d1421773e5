/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_STRBUF_H
#define PERFBOT_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

/*
 * The one growable string builder: always NUL-terminated, never larger
 * than 'max' bytes of content. Every add returns 0 on success and -1 when
 * the cap would be exceeded or memory ran out; the buffer is then left as
 * it was, so the caller can report "too large" and stop.
 */
struct strbuf {
	char *buf;
	size_t len;
	size_t alloc;
	size_t max;
};

#define SB_DEFAULT_MAX ((size_t)64 << 20)
#define STRBUF_INIT { NULL, 0, 0, SB_DEFAULT_MAX }

void sb_init(struct strbuf *sb, size_t max);
void sb_release(struct strbuf *sb);
void sb_reset(struct strbuf *sb);
__attribute__((warn_unused_result)) int sb_grow(struct strbuf *sb, size_t extra);
__attribute__((warn_unused_result)) int sb_add(struct strbuf *sb, const void *data, size_t n);
__attribute__((warn_unused_result)) int sb_adds(struct strbuf *sb, const char *s);
__attribute__((warn_unused_result)) int sb_addc(struct strbuf *sb, char c);
__attribute__((warn_unused_result)) int sb_addf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
__attribute__((warn_unused_result)) int sb_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
/* Append 'n' copies of 'c'. */
__attribute__((warn_unused_result)) int sb_addn(struct strbuf *sb, char c, size_t n);
/* Drop trailing bytes so that len becomes 'len' (no-op when longer). */
void sb_setlen(struct strbuf *sb, size_t len);
/* The content, "" for an empty buffer; valid until the next add. */
const char *sb_str(const struct strbuf *sb);
/* Hand the malloc'd content to the caller (never NULL on success). */
char *sb_detach(struct strbuf *sb, size_t *len);

#endif
