// SPDX-License-Identifier: GPL-2.0-only
/*
 * parse: HTML to plain text, for a reply that has no text/plain part.
 * Not a browser: enough of HTML to read what a mail client writes (blocks,
 * line breaks, entities, <pre>, <blockquote> as '>' quotes), bounded and
 * tolerant of any garbage.
 */
#include <string.h>
#include <strings.h>
#include <glib.h>

#include "html.h"
#include "perfbot/util/text.h"

#define MAX_QUOTE_MARKS 32	/* '>' written for nested blockquotes */

/*
 * Text inside <blockquote> comes out with a '>' per level, so that the
 * quote and attribution rules of plain text drop it like any quote.
 */
struct html {
	struct strbuf *out;
	int quote;		/* <blockquote> depth */
	int pre;		/* inside <pre>: whitespace kept */
	int bol;		/* at the beginning of an output line */
	int space;		/* whitespace seen, not yet written */
	int err;
};

static void h_put(struct html *h, const char *s, size_t n)
{
	if (h->bol) {
		if (h->quote > 0) {
			h->err |= sb_addn(h->out, '>', h->quote > MAX_QUOTE_MARKS ?
					  (size_t)MAX_QUOTE_MARKS : (size_t)h->quote);
			h->err |= sb_addc(h->out, ' ');
		}
		h->bol = 0;
	} else if (h->space) {
		h->err |= sb_addc(h->out, ' ');
	}
	h->space = 0;
	h->err |= sb_add(h->out, s, n);
}

static void h_newline(struct html *h)
{
	h->err |= sb_addc(h->out, '\n');
	h->bol = 1;
	h->space = 0;
}

static void h_break(struct html *h)
{
	if (!h->bol)
		h_newline(h);
}

static void h_space(struct html *h, char ch)
{
	if (h->pre && ch == '\n')
		h_newline(h);
	else if (h->pre)
		h_put(h, " ", 1);
	else
		h->space = 1;
}

static void h_codepoint(struct html *h, unsigned long cp)
{
	char u[4];
	size_t n;

	if (cp == ' ' || cp == '\t' || cp == '\n' || cp == '\r' || cp == 0xa0) {
		h_space(h, cp == '\n' ? '\n' : ' ');
		return;
	}
	if (cp == 0 || cp < 0x20 || cp == 0x7f || cp > 0x10ffff ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		cp = 0xfffd;
	n = utf8_encode((uint32_t)cp, u);
	h_put(h, u, n);
}

static int numeric_entity(const char *s, size_t n, unsigned long *cp)
{
	int hex = n > 0 && (s[0] == 'x' || s[0] == 'X');
	size_t i = hex ? 1 : 0;
	unsigned long v = 0;

	if (i >= n)
		return -1;
	for (; i < n; i++) {
		int d = g_ascii_xdigit_value(s[i]);

		if (d < 0 || (!hex && d > 9))
			return -1;
		v = v * (hex ? 16 : 10) + (unsigned long)d;
		if (v > 0x10ffff)
			v = 0x110000;
	}
	*cp = v;
	return 0;
}

/* 's' starts with '&'; returns the bytes used. */
static size_t h_entity(struct html *h, const char *s, size_t n)
{
	static const struct { const char *name; unsigned long cp; } named[] = {
		{ "amp", '&' }, { "lt", '<' }, { "gt", '>' }, { "quot", '"' },
		{ "apos", '\'' }, { "nbsp", 0xa0 },
	};
	const char *semi = memchr(s, ';', n < 12 ? n : 12);
	size_t len, i;
	unsigned long cp;

	if (!semi)
		goto literal;
	len = (size_t)(semi - s) - 1;
	if (len > 0 && s[1] == '#') {
		if (numeric_entity(s + 2, len - 1, &cp))
			goto literal;
		h_codepoint(h, cp);
		return len + 2;
	}
	for (i = 0; i < sizeof(named) / sizeof(named[0]); i++)
		if (strlen(named[i].name) == len &&
		    !strncasecmp(s + 1, named[i].name, len)) {
			h_codepoint(h, named[i].cp);
			return len + 2;
		}
literal:
	h_put(h, "&", 1);
	return 1;
}

static void h_text(struct html *h, const char *s, size_t n)
{
	size_t i = 0, j;

	while (i < n) {
		if (s[i] == '&') {
			i += h_entity(h, s + i, n - i);
		} else if (text_is_space(s[i])) {
			h_space(h, s[i]);
			i++;
		} else {
			for (j = i; j < n && s[j] != '&' &&
				    !text_is_space(s[j]); j++)
				;
			h_put(h, s + i, j - i);
			i = j;
		}
	}
}

/* Where "</name" starts, case-insensitively, or 'n'. */
static size_t find_close(const char *s, size_t n, const char *name)
{
	size_t len = strlen(name), i = 0;
	const char *lt;

	while (i < n && (lt = memchr(s + i, '<', n - i))) {
		i = (size_t)(lt - s);
		if (n - i >= len + 2 && s[i + 1] == '/' &&
		    !strncasecmp(s + i + 2, name, len))
			return i;
		i++;
	}
	return n;
}

/* Past the '>' closing the tag at 's'; quoted attribute values skipped. */
static size_t tag_end(const char *s, size_t n)
{
	size_t i;
	char q = 0, prev = 0;

	for (i = 1; i < n; i++) {
		if (q) {
			if (s[i] == q)
				q = 0;
		} else if ((s[i] == '"' || s[i] == '\'') && prev == '=') {
			q = s[i];
		} else if (s[i] == '>') {
			return i + 1;
		}
		if (!text_is_space(s[i]))
			prev = s[i];
	}
	return n;
}

static int name_is(const char *name, size_t len, const char *const *set)
{
	for (; *set; set++)
		if (strlen(*set) == len && !strncasecmp(name, *set, len))
			return 1;
	return 0;
}

/* A tag's effect on the text; 'close' for </name>. */
static void h_element(struct html *h, const char *name, size_t len, int close)
{
	static const char *const blocks[] = { "p", "div", "li", "tr", "table",
		"ul", "ol", "dl", "dt", "dd", "h1", "h2", "h3", "h4", "h5",
		"h6", "hr", "center", "address", NULL };
	static const char *const cells[] = { "td", "th", NULL };

	if (len == 2 && !strncasecmp(name, "br", 2)) {
		h_newline(h);
	} else if (len == 10 && !strncasecmp(name, "blockquote", 10)) {
		h_break(h);
		h->quote += close ? (h->quote > 0 ? -1 : 0) : 1;
	} else if (len == 3 && !strncasecmp(name, "pre", 3)) {
		h_break(h);
		h->pre = !close;
	} else if (name_is(name, len, blocks)) {
		h_break(h);
	} else if (name_is(name, len, cells)) {
		h->space = 1;
	}
}

/* 's' starts with '<'; returns the bytes used. */
static size_t h_tag(struct html *h, const char *s, size_t n)
{
	/* Not <head>: without its end tag it would hide the whole body. */
	static const char *const hidden[] = { "script", "style", "title",
		NULL };
	size_t i, len, end;
	const char *gt;
	int close;

	if (n >= 4 && !memcmp(s, "<!--", 4)) {
		gt = memmem(s + 4, n - 4, "-->", 3);
		return gt ? (size_t)(gt - s) + 3 : n;
	}
	close = n > 1 && s[1] == '/';
	i = 1 + (size_t)close;
	for (len = 0; i + len < n && g_ascii_isalnum(s[i + len]); len++)
		;
	if (len == 0 && !(n > 1 && (s[1] == '!' || s[1] == '?'))) {
		h_put(h, "<", 1);
		return 1;
	}
	end = tag_end(s, n);
	if (!close && name_is(s + i, len, hidden)) {
		char name[8];

		memcpy(name, s + i, len);
		name[len] = '\0';
		end += find_close(s + end, n - end, name);
		return end + (end < n ? tag_end(s + end, n - end) : 0);
	}
	h_element(h, s + i, len, close);
	return end;
}

int html_to_text(const char *s, size_t n, struct strbuf *out)
{
	struct html h = { out, 0, 0, 1, 0, 0 };
	const char *lt;
	size_t i = 0, j;

	while (i < n && !h.err) {
		if (s[i] == '<') {
			i += h_tag(&h, s + i, n - i);
			continue;
		}
		lt = memchr(s + i, '<', n - i);
		j = lt ? (size_t)(lt - s) : n;
		h_text(&h, s + i, j - i);
		i = j;
	}
	h_break(&h);
	return h.err ? -1 : 0;
}
