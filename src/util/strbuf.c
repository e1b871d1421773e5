// SPDX-License-Identifier: GPL-2.0-only
/*
 * util: struct strbuf (strbuf.h), the capped, always NUL-terminated
 * string builder every stage builds its text in; a failed add leaves the
 * buffer as it was.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/util/strbuf.h"

void sb_init(struct strbuf *sb, size_t max)
{
	sb->buf = NULL;
	sb->len = 0;
	sb->alloc = 0;
	sb->max = max ? max : SB_DEFAULT_MAX;
}

void sb_release(struct strbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = 0;
	sb->alloc = 0;
}

void sb_reset(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
}

int sb_grow(struct strbuf *sb, size_t extra)
{
	size_t need, cap;
	char *p;

	if (extra > sb->max || sb->len > sb->max - extra)
		return -1;
	need = sb->len + extra + 1;
	if (need <= sb->alloc)
		return 0;
	cap = sb->alloc ? sb->alloc : 64;
	while (cap < need)
		cap = cap > SIZE_MAX / 2 ? need : cap * 2;
	p = realloc(sb->buf, cap);
	if (!p)
		return -1;
	sb->buf = p;
	sb->alloc = cap;
	sb->buf[sb->len] = '\0';
	return 0;
}

int sb_add(struct strbuf *sb, const void *data, size_t n)
{
	if (sb_grow(sb, n))
		return -1;
	if (n)
		memcpy(sb->buf + sb->len, data, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
	return 0;
}

int sb_adds(struct strbuf *sb, const char *s)
{
	return sb_add(sb, s, strlen(s));
}

int sb_addc(struct strbuf *sb, char c)
{
	return sb_add(sb, &c, 1);
}

int sb_addn(struct strbuf *sb, char c, size_t n)
{
	if (sb_grow(sb, n))
		return -1;
	memset(sb->buf + sb->len, c, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
	return 0;
}

int sb_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	va_copy(cp, ap);
	n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (n < 0 || sb_grow(sb, (size_t)n))
		return -1;
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	sb->len += (size_t)n;
	return 0;
}

int sb_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = sb_vaddf(sb, fmt, ap);
	va_end(ap);
	return rc;
}

void sb_setlen(struct strbuf *sb, size_t len)
{
	if (len < sb->len) {
		sb->len = len;
		sb->buf[len] = '\0';
	}
}

const char *sb_str(const struct strbuf *sb)
{
	return sb->buf ? sb->buf : "";
}

char *sb_detach(struct strbuf *sb, size_t *len)
{
	char *p;

	if (!sb->buf && sb_grow(sb, 0))
		return NULL;
	p = sb->buf;
	if (len)
		*len = sb->len;
	sb->buf = NULL;
	sb->len = 0;
	sb->alloc = 0;
	return p;
}
