// SPDX-License-Identifier: GPL-2.0-only
/*
 * parse: HTML to plain text, for a reply that has no text/plain part.
 * libxml2's HTML parser reads the markup as browsers do (every entity,
 * broken and unclosed tags, comments); this file walks its tree into
 * lines: blocks and <br> break lines, whitespace collapses but in <pre>,
 * script, style and the head are hidden, and <blockquote> comes out as
 * '>' quotes so that the quote rules of plain text drop it. Bounded and
 * tolerant of any garbage. libxml2 is used here only (tests/golden/layers).
 */
#include <stdint.h>
#include <string.h>
#include <libxml/HTMLparser.h>
#include <libxml/tree.h>

#include "html.h"
#include "perfbot/util/text.h"

#define MAX_QUOTE_MARKS 32	/* '>' written for nested blockquotes */
#define MAX_DEPTH 512		/* elements looked into */

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

/* One character of a text node; 'cp' its code point, s[0..n) its bytes. */
static void h_char(struct html *h, uint32_t cp, const char *s, size_t n)
{
	if (cp == ' ' || cp == '\t' || cp == '\n' || cp == '\r' ||
	    cp == 0xa0 || cp == '\f') {
		if (h->pre && cp == '\n')
			h_newline(h);
		else if (h->pre)
			h_put(h, " ", 1);
		else
			h->space = 1;
		return;
	}
	if (cp < 0x20 || cp == 0x7f)	/* a control: never in the text */
		h_put(h, TEXT_REPLACEMENT, strlen(TEXT_REPLACEMENT));
	else
		h_put(h, s, n);
}

static void h_text(struct html *h, const char *s, size_t n)
{
	uint32_t cp;
	size_t k;

	while (n > 0 && !h->err) {
		k = utf8_decode(s, n, &cp);
		if (!k) {
			k = 1;
			h_put(h, TEXT_REPLACEMENT, strlen(TEXT_REPLACEMENT));
		} else {
			h_char(h, cp, s, k);
		}
		s += k;
		n -= k;
	}
}

static int name_is(const xmlChar *name, const char *const *set)
{
	for (; *set; set++)
		if (!xmlStrcasecmp(name, (const xmlChar *)*set))
			return 1;
	return 0;
}

static void h_children(struct html *h, xmlNode *n, int depth);

/* An element: what it does to the lines, then its children. */
static void h_element(struct html *h, xmlNode *e, int depth)
{
	/* What is no text of the mail; a <head> holds no body text in
	 * libxml2's tree, whatever the markup. */
	static const char *const hidden[] = { "script", "style", "title",
		"head", "template", NULL };
	static const char *const blocks[] = { "p", "div", "li", "tr", "table",
		"ul", "ol", "dl", "dt", "dd", "h1", "h2", "h3", "h4", "h5",
		"h6", "hr", "center", "address", "section", "article",
		"header", "footer", "nav", "aside", "main", "figure", "form",
		"fieldset", "body", NULL };
	static const char *const cells[] = { "td", "th", NULL };
	const xmlChar *name = e->name;

	if (name_is(name, hidden))
		return;
	if (!xmlStrcasecmp(name, (const xmlChar *)"br")) {
		h_newline(h);
	} else if (!xmlStrcasecmp(name, (const xmlChar *)"blockquote")) {
		h_break(h);
		h->quote++;
		h_children(h, e->children, depth + 1);
		h_break(h);
		h->quote--;
	} else if (!xmlStrcasecmp(name, (const xmlChar *)"pre")) {
		h_break(h);
		h->pre++;
		h_children(h, e->children, depth + 1);
		h->pre--;
		h_break(h);
	} else if (name_is(name, blocks)) {
		h_break(h);
		h_children(h, e->children, depth + 1);
		h_break(h);
	} else {
		if (name_is(name, cells))
			h->space = 1;
		h_children(h, e->children, depth + 1);
	}
}

static void h_children(struct html *h, xmlNode *n, int depth)
{
	if (depth > MAX_DEPTH)
		return;
	for (; n && !h->err; n = n->next) {
		if (n->type == XML_ELEMENT_NODE)
			h_element(h, n, depth);
		else if ((n->type == XML_TEXT_NODE ||
			  n->type == XML_CDATA_SECTION_NODE) && n->content)
			h_text(h, (const char *)n->content,
			       strlen((const char *)n->content));
	}
}

/* The value of a numeric character reference's digits, saturated. */
static unsigned long ref_value(const char *s, size_t n, int hex, size_t *used)
{
	unsigned long v = 0;
	size_t i;
	int d;

	for (i = 0; i < n; i++) {
		char c = s[i];

		d = c >= '0' && c <= '9' ? c - '0' : !hex ? -1 :
			c >= 'a' && c <= 'f' ? c - 'a' + 10 :
			c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
		if (d < 0)
			break;
		v = v * (hex ? 16 : 10) + (unsigned long)d;
		if (v > 0x10ffff)
			v = 0x110000;
	}
	*used = i;
	return v;
}

/* A code point XML may hold (libxml2 drops the others silently). */
static int xml_char(unsigned long v)
{
	return v == 0x9 || v == 0xa || v == 0xd || (v >= 0x20 && v <= 0xd7ff) ||
	       (v >= 0xe000 && v <= 0xfffd) || (v >= 0x10000 && v <= 0x10ffff);
}

/*
 * 's' with every numeric character reference that names no character
 * (&#0;, &#xD800;, &#x110000;, &#7;) turned into U+FFFD's, which libxml2
 * would drop without a trace: a reader sees that something was there.
 */
static int fix_char_refs(const char *s, size_t n, struct strbuf *out)
{
	const char *p = s, *e = s + n, *amp;
	size_t used;
	int hex, rc = 0;

	while (!rc && p < e && (amp = memchr(p, '&', (size_t)(e - p)))) {
		const char *d = amp + 2;

		rc = sb_add(out, p, (size_t)(amp - p));
		p = amp + 1;
		if (rc || e - amp < 3 || amp[1] != '#') {
			rc = rc || sb_addc(out, '&');
			continue;
		}
		hex = *d == 'x' || *d == 'X';
		d += hex;
		if (!xml_char(ref_value(d, (size_t)(e - d), hex, &used)) && used) {
			d += used;
			p = d < e && *d == ';' ? d + 1 : d;
			rc = sb_adds(out, "&#xFFFD;");
		} else {
			rc = sb_addc(out, '&');
		}
	}
	return rc || sb_add(out, p, (size_t)(e - p));
}

int html_to_text(const char *s, size_t n, struct strbuf *out)
{
	struct html h = { out, 0, 0, 1, 0, 0 };
	struct strbuf in;
	htmlDocPtr doc = NULL;
	int rc;

	/* a reference grows to 8 bytes at most, from 4 */
	sb_init(&in, 2 * n + 64);
	rc = fix_char_refs(s, n, &in);
	if (!rc && in.len > 0 && in.len <= (size_t)INT32_MAX) {
		xmlInitParser();
		doc = htmlReadMemory(in.buf, (int)in.len, NULL, "UTF-8",
				     HTML_PARSE_RECOVER | HTML_PARSE_NOERROR |
				     HTML_PARSE_NOWARNING | HTML_PARSE_NONET |
				     HTML_PARSE_IGNORE_ENC | HTML_PARSE_COMPACT);
	}
	sb_release(&in);
	if (doc)
		h_children(&h, xmlDocGetRootElement(doc) ?
			   xmlDocGetRootElement(doc) : doc->children, 0);
	if (doc)
		xmlFreeDoc(doc);
	h_break(&h);
	return rc || h.err ? -1 : 0;
}
