// SPDX-License-Identifier: GPL-2.0-only
/*
 * Text from outside, for every stage: UTF-8 decoding and validation, and
 * the one scrubber (policies in text.h) that keeps control characters out
 * of what the bot writes into headers, mails, logs and files.
 */
#include <string.h>

#include "perfbot/util/text.h"

size_t utf8_decode(const char *s, size_t n, uint32_t *cp)
{
	const unsigned char *p = (const unsigned char *)s;
	uint32_t c, min;
	size_t len, i;

	if (n == 0)
		return 0;
	c = p[0];
	if (c < 0x80) {
		len = 1;
		min = 0;
	} else if ((c & 0xe0) == 0xc0) {
		len = 2;
		c &= 0x1f;
		min = 0x80;
	} else if ((c & 0xf0) == 0xe0) {
		len = 3;
		c &= 0x0f;
		min = 0x800;
	} else if ((c & 0xf8) == 0xf0) {
		len = 4;
		c &= 0x07;
		min = 0x10000;
	} else {
		return 0;
	}
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (p[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	if (cp)
		*cp = c;
	return len;
}

int utf8_valid(const char *s, size_t n)
{
	size_t i = 0, k;
	uint64_t w;

	while (i < n) {
		if (!((unsigned char)s[i] & 0x80)) {
			/* mostly ASCII: eight bytes at a time */
			while (i + 8 <= n && (memcpy(&w, s + i, 8),
					      !(w & 0x8080808080808080ULL)))
				i += 8;
			if (i < n && !((unsigned char)s[i] & 0x80))
				i++;
			continue;
		}
		k = utf8_decode(s + i, n - i, NULL);
		if (!k)
			return 0;
		i += k;
	}
	return 1;
}

size_t utf8_encode(uint32_t cp, char out[4])
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | cp >> 6);
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | cp >> 12);
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | cp >> 18);
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* The bytes from 's' that are well-formed UTF-8 without a NUL. */
static size_t valid_run(const char *s, size_t n)
{
	size_t i = 0, k;

	while (i < n && s[i]) {
		k = (unsigned char)s[i] < 0x80 ? 1 :
			utf8_decode(s + i, n - i, NULL);
		if (!k)
			break;
		i += k;
	}
	return i;
}

int utf8_make_valid(struct strbuf *sb, const char *s, size_t n)
{
	size_t i = 0, k;

	while (i < n) {
		k = valid_run(s + i, n - i);
		if (k && sb_add(sb, s + i, k))
			return -1;
		i += k;
		if (i == n)
			break;
		if (sb_adds(sb, TEXT_REPLACEMENT))
			return -1;
		i++;
	}
	return 0;
}

size_t utf8_cut(const char *s, size_t n, size_t max)
{
	if (n <= max)
		return n;
	while (max > 0 && ((unsigned char)s[max] & 0xc0) == 0x80)
		max--;
	return max;
}

int text_is_space(int ch)
{
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' ||
	       ch == '\v' || ch == '\f';
}

/* C1 controls and the line and paragraph separators. */
static int unicode_control(uint32_t cp)
{
	return cp <= 0x9f || cp == 0x2028 || cp == 0x2029;
}

/*
 * What the byte or sequence at s[0..n) becomes: 1 with '*out' set, 0
 * when it is removed, -1 when it is kept as it is ('*len' bytes). '*len'
 * gets the bytes used.
 */
static int scrub_one(const char *s, size_t n, unsigned policy, char *out,
		     size_t *len)
{
	unsigned char ch = (unsigned char)s[0];
	uint32_t cp;
	size_t k;

	*len = 1;
	if (ch == '\r' && (policy & TEXT_CRLF_LF)) {
		if (n > 1 && s[1] == '\n')
			return 0;
		*out = '\n';
		return 1;
	}
	if ((ch == '\r' || ch == '\n') && (policy & TEXT_DROP_CRLF))
		return 0;
	if (ch == '\n' && (policy & TEXT_KEEP_LF))
		return -1;
	if (ch == '\t' && (policy & (TEXT_TAB_SPACE | TEXT_KEEP_TAB))) {
		*out = policy & TEXT_TAB_SPACE ? ' ' : '\t';
		return 1;
	}
	if (ch >= 0x80 && (policy & TEXT_UNICODE)) {
		k = utf8_decode(s, n, &cp);
		if (k && !unicode_control(cp)) {
			*len = k;
			return -1;
		}
		*len = k ? k : 1;
	} else if ((policy & TEXT_C1) && ch == 0xc2 && n > 1 &&
		   (unsigned char)s[1] >= 0x80 && (unsigned char)s[1] <= 0x9f) {
		*len = 2;
	} else if (!(ch < 0x20 || (ch == 0x7f && !(policy & TEXT_KEEP_DEL)) ||
		     (ch == ' ' && (policy & TEXT_SPACE_CTRL)))) {
		return -1;
	}
	if (policy & TEXT_CTRL_DROP)
		return 0;
	*out = policy & TEXT_CTRL_SPACE ? ' ' : '?';
	return 1;
}

size_t text_scrub_to(char *dst, size_t cap, const char *s, size_t n,
		     unsigned policy)
{
	size_t i = 0, j = 0, k;
	char c;
	int r;

	while (i < n && j + 1 < cap) {
		r = scrub_one(s + i, n - i, policy, &c, &k);
		if (r < 0 && k > 1) {
			if (j + k >= cap)
				break;
			memmove(dst + j, s + i, k);
			j += k;
			i += k;
			continue;
		}
		if (r < 0)
			c = s[i];
		i += k;
		if (!r || (c == ' ' && (((policy & TEXT_TRIM) && j == 0) ||
					((policy & TEXT_FOLD) && j > 0 &&
					 dst[j - 1] == ' '))))
			continue;
		dst[j++] = c;
	}
	while ((policy & TEXT_TRIM) && j > 0 && dst[j - 1] == ' ')
		j--;
	dst[j] = '\0';
	return j;
}

size_t text_scrub_at(const char *s, size_t n, unsigned policy)
{
	size_t i = 0, k;
	char c;
	int r;

	while (i < n) {
		r = scrub_one(s + i, n - i, policy, &c, &k);
		if (r == 0 || (r > 0 && (k > 1 || c != s[i])))
			return i;
		i += k;
	}
	return n;
}

void text_scrub(char *s, unsigned policy)
{
	size_t n = strlen(s);

	text_scrub_to(s, n + 1, s, n, policy);
}

void text_scrub_sb(struct strbuf *sb, unsigned policy)
{
	if (sb->buf)
		sb_setlen(sb, text_scrub_to(sb->buf, sb->len + 1, sb->buf,
					    sb->len, policy));
}

int text_scrub_add(struct strbuf *sb, const char *s, size_t n,
		   unsigned policy)
{
	if (sb_grow(sb, n))
		return -1;
	/* sb_setlen() only shortens; text_scrub_to() wrote the NUL */
	sb->len += text_scrub_to(sb->buf + sb->len, n + 1, s, n, policy);
	return 0;
}

void text_scrub_line(char *s)
{
	text_scrub(s, TEXT_CTRL_SPACE);
}

/* Eight bytes at once: all printable ASCII (0x20..0x7e)? */
static int plain_ascii8(const unsigned char *p)
{
	const uint64_t ones = 0x0101010101010101ULL, high = ones << 7;
	uint64_t w, x;

	memcpy(&w, p, 8);
	if (w & high)
		return 0;
	x = w ^ (ones * 0x7f);
	return !(((w - ones * 0x20) & ~w & high) | ((x - ones) & ~x & high));
}

/* text_scrub_at(s, n, TEXT_C1) < n, eight bytes at a time */
int text_has_control(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	while (i + 8 <= n && plain_ascii8(p + i))
		i += 8;
	for (; i < n; i++) {
		if (p[i] < 0x20 || p[i] == 0x7f)
			return 1;
		/* U+0080..U+009F are C2 80..C2 9F in UTF-8 */
		if (p[i] == 0xc2 && i + 1 < n && p[i + 1] >= 0x80 &&
		    p[i + 1] <= 0x9f)
			return 1;
	}
	return 0;
}

/* The columns of 'n' bytes of UTF-8: its characters. */
static size_t columns(const char *s, size_t n)
{
	size_t i, c = 0;

	for (i = 0; i < n; i++)
		c += ((unsigned char)s[i] & 0xc0) != 0x80;
	return c;
}

/* Text being filled into lines. */
struct wrap {
	struct strbuf *out;
	size_t width;
	const char *indent;
	size_t col;		/* of the line so far */
	int fresh;		/* nothing on the line yet */
};

static int wrap_break(struct wrap *w)
{
	w->col = columns(w->indent, strlen(w->indent));
	w->fresh = 1;
	return sb_addc(w->out, '\n') || sb_adds(w->out, w->indent) ? -1 : 0;
}

/* Put 'n' bytes that go on one line, on this line when they fit. */
static int wrap_put(struct wrap *w, const char *p, size_t n)
{
	size_t c = columns(p, n);

	if (!w->fresh && w->col + 1 + c > w->width && wrap_break(w))
		return -1;
	if ((!w->fresh && sb_addc(w->out, ' ')) || sb_add(w->out, p, n))
		return -1;
	w->col += c + !w->fresh;
	w->fresh = 0;
	return 0;
}

/* 'n' bytes filled word by word. */
static int wrap_words(struct wrap *w, const char *p, size_t n)
{
	const char *end = p + n, *s;

	while (p < end) {
		if (*p == ' ') {
			p++;
			continue;
		}
		for (s = p; p < end && *p != ' '; p++)
			;
		if (wrap_put(w, s, (size_t)(p - s)))
			return -1;
	}
	return 0;
}

int text_wrap(struct strbuf *out, const char *text, size_t width,
	      const char *indent, const char *sep)
{
	struct wrap w = { out, width, indent, 0, 1 };
	const char *p = text, *nl, *e;
	size_t n;

	while (*p) {
		if (*p == '\n') {
			if (wrap_break(&w))
				return -1;
			p++;
			continue;
		}
		while (*p == ' ')
			p++;
		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p);
		/* the next piece: through 'sep', else the rest of the line */
		e = sep ? strstr(p, sep) : NULL;
		e = e && e < nl ? e + strlen(sep) : nl;
		for (n = (size_t)(e - p); n && p[n - 1] == ' '; n--)
			;
		if (n && (!sep || columns(p, n) + columns(indent,
							   strlen(indent)) >
			  width)) {
			if (wrap_words(&w, p, n))
				return -1;
		} else if (n && wrap_put(&w, p, n)) {
			return -1;
		}
		p = e;
	}
	return 0;
}
