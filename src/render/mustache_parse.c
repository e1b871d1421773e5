// SPDX-License-Identifier: GPL-2.0-only
/*
 * Mustache, the first pass: the parser turns template text into a flat
 * token list in which a section token records the index just past its
 * children; it also applies the standalone-line rule and the delimiter
 * changes, so the renderer (mustache.c) only copies text.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/util/text.h"
#include "mustache_internal.h"

#define DELIM_MAX 16	/* bytes in a custom delimiter */
#define MSG_MAX (4 * PB_ERR_MAX)

struct parser {
	struct tmpl *t;
	size_t pos;		/* first byte not yet turned into tokens */
	unsigned line;		/* line number at 'pos' */
	char open[DELIM_MAX], close[DELIM_MAX];
	size_t olen, clen;
	size_t *secs;		/* token indexes of the open sections */
	size_t nsecs, asecs;
	unsigned max_depth;
	struct pb_err *err;
};

/* Every template error reads "<template name>:<line>: <what>". */
int tmpl_fail(struct pb_err *err, int code, const char *name, unsigned line,
	      const char *fmt, ...)
{
	struct strbuf msg;
	va_list ap;
	int rc;

	sb_init(&msg, MSG_MAX);
	va_start(ap, fmt);
	rc = sb_vaddf(&msg, fmt, ap);
	va_end(ap);
	pb_fail(err, code, "%s:%u: %s", name, line,
		!rc && msg.len ? msg.buf : "out of memory");
	sb_release(&msg);
	return -1;
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static int is_space(char c)
{
	return is_blank(c) || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* Whitespace, control characters or DEL: never part of a name. */
static int has_bad_char(const char *s, size_t n)
{
	return text_scrub_at(s, n, TEXT_SPACE_CTRL) < n;
}

static void trim(const char *s, size_t *off, size_t *len)
{
	while (*len && is_space(s[*off])) {
		(*off)++;
		(*len)--;
	}
	while (*len && is_space(s[*off + *len - 1]))
		(*len)--;
}

static unsigned count_nl(const char *s, size_t from, size_t to)
{
	unsigned n = 0;

	for (; from < to; from++)
		n += s[from] == '\n';
	return n;
}

static int tmpl_push(struct tmpl *t, enum tok_kind kind, unsigned line,
		     size_t off, size_t len)
{
	struct tok *k;

	k = grow(t->toks, &t->atok, t->ntok, sizeof(*k));
	if (!k)
		return -1;
	t->toks = k;
	k = &t->toks[t->ntok++];
	memset(k, 0, sizeof(*k));
	k->kind = kind;
	k->line = line;
	k->off = off;
	k->len = len;
	return 0;
}

static int parse_oom(const struct parser *p, unsigned line)
{
	return tmpl_fail(p->err, EX_OSERR, p->t->name, line, "out of memory");
}

/* Turn the text between 'pos' and 'end' into a token. */
static int add_text(struct parser *p, size_t end)
{
	if (end > p->pos &&
	    tmpl_push(p->t, TOK_TEXT, p->line, p->pos, end - p->pos))
		return parse_oom(p, p->line);
	return 0;
}

static enum tok_kind kind_of(char sigil)
{
	switch (sigil) {
	case '!': return TOK_COMMENT;
	case '=': return TOK_DELIM;
	case '#': return TOK_SECTION;
	case '^': return TOK_INVERTED;
	case '/': return TOK_CLOSE;
	case '>': return TOK_PARTIAL;
	case '{': return TOK_RAW;
	case '&': return TOK_RAW;
	default: return TOK_VAR;
	}
}

/*
 * Find the end of a tag whose content starts at 'cs': the close delimiter,
 * preceded by '}' for a triple mustache and by '=' for a delimiter change.
 * '*ce' is set to the end of the content, '*end' past the delimiter.
 */
static int find_closer(const struct parser *p, char sigil, size_t cs,
		       size_t *ce, size_t *end)
{
	const struct tmpl *t = p->t;
	char closer[DELIM_MAX + 1];
	size_t n = 0;
	const char *c;

	if (sigil == '{' || sigil == '=')
		closer[n++] = sigil == '{' ? '}' : '=';
	memcpy(closer + n, p->close, p->clen);
	n += p->clen;
	c = cs <= t->len ? memmem(t->src + cs, t->len - cs, closer, n) : NULL;
	if (!c)
		return -1;
	*ce = (size_t)(c - t->src);
	*end = *ce + n;
	return 0;
}

/*
 * A tag alone on its line (blanks around it allowed) vanishes together with
 * its line: '*ls' becomes the line start, where the text before the tag
 * stops, and '*next' the start of the following line. The blanks before
 * the tag are a standalone partial's indentation.
 */
static int standalone(const struct parser *p, size_t start, size_t end,
		      size_t *ls, size_t *next)
{
	const char *s = p->t->src;
	size_t len = p->t->len, b = start, e = end;

	while (b > p->pos && is_blank(s[b - 1]))
		b--;
	if (b > 0 && s[b - 1] != '\n')
		return 0;
	while (e < len && is_blank(s[e]))
		e++;
	if (e + 1 < len && s[e] == '\r' && s[e + 1] == '\n')
		e += 2;
	else if (e < len && s[e] == '\n')
		e++;
	else if (e < len)
		return 0;
	*ls = b;
	*next = e;
	return 1;
}

/* "{{=<% %>=}}": two new delimiters, without whitespace or '='. */
static int set_delims(struct parser *p, size_t off, size_t len, unsigned line)
{
	const char *s = p->t->src;
	size_t alen = 0, b, blen;

	trim(s, &off, &len);
	while (alen < len && !is_space(s[off + alen]))
		alen++;
	for (b = off + alen; b < off + len && is_space(s[b]); b++)
		;
	blen = off + len - b;
	if (!alen || !blen || alen > DELIM_MAX || blen > DELIM_MAX ||
	    has_bad_char(s + b, blen) || memchr(s + off, '=', alen) ||
	    memchr(s + b, '=', blen))
		return tmpl_fail(p->err, EX_DATAERR, p->t->name, line,
				 "bad delimiters");
	memcpy(p->open, s + off, alen);
	p->olen = alen;
	memcpy(p->close, s + b, blen);
	p->clen = blen;
	return 0;
}

/*
 * A variable or section name is "." or dot-separated non-empty parts; a
 * partial name may hold '/' and '.' but no ".." and no leading '/', so
 * that it stays inside the partials directory.
 */
static int check_name(const struct parser *p, enum tok_kind kind,
		      size_t off, size_t len, unsigned line)
{
	const char *n = p->t->src + off;
	int ok = len > 0 && !has_bad_char(n, len) && !memmem(n, len, "..", 2);

	if (ok && kind == TOK_PARTIAL)
		ok = n[0] != '/';
	else if (ok && !(len == 1 && n[0] == '.'))
		ok = n[0] != '.' && n[len - 1] != '.';
	if (ok)
		return 0;
	if (!len)
		return tmpl_fail(p->err, EX_DATAERR, p->t->name, line,
				 "empty tag");
	return tmpl_fail(p->err, EX_DATAERR, p->t->name, line,
			 "bad %s name '%.*s'",
			 kind == TOK_PARTIAL ? "partial" : "tag", shown(len),
			 n);
}

static int open_section(struct parser *p, unsigned line)
{
	size_t *s;

	if (p->nsecs >= p->max_depth)
		return tmpl_fail(p->err, EX_DATAERR, p->t->name, line,
				 "nesting deeper than %u", p->max_depth);
	s = grow(p->secs, &p->asecs, p->nsecs, sizeof(*s));
	if (!s)
		return parse_oom(p, line);
	p->secs = s;
	p->secs[p->nsecs++] = p->t->ntok - 1;
	return 0;
}

static int close_section(struct parser *p, size_t off, size_t len,
			 unsigned line)
{
	struct tmpl *t = p->t;
	struct tok *open;

	if (!p->nsecs)
		return tmpl_fail(p->err, EX_DATAERR, t->name, line,
				 "closing tag '%.*s' without an open section",
				 shown(len), t->src + off);
	open = &t->toks[p->secs[p->nsecs - 1]];
	if (open->len != len || memcmp(t->src + open->off, t->src + off, len))
		return tmpl_fail(p->err, EX_DATAERR, t->name, line,
				 "closing tag '%.*s' does not match open section '%.*s'",
				 shown(len), t->src + off, shown(open->len),
				 t->src + open->off);
	open->end = t->ntok;
	p->nsecs--;
	return 0;
}

/* Act on one tag: its content is at 'off', 'len' bytes. */
static int handle_tag(struct parser *p, enum tok_kind kind, size_t off,
		      size_t len, unsigned line, size_t ind_off, size_t ind_len)
{
	struct tmpl *t = p->t;

	if (kind == TOK_COMMENT)
		return 0;
	if (kind == TOK_DELIM)
		return set_delims(p, off, len, line);
	trim(t->src, &off, &len);
	if (check_name(p, kind, off, len, line))
		return -1;
	if (kind == TOK_CLOSE)
		return close_section(p, off, len, line);
	if (tmpl_push(t, kind, line, off, len))
		return parse_oom(p, line);
	t->toks[t->ntok - 1].ind_off = ind_off;
	t->toks[t->ntok - 1].ind_len = kind == TOK_PARTIAL ? ind_len : 0;
	if (kind == TOK_SECTION || kind == TOK_INVERTED)
		return open_section(p, line);
	return 0;
}

/* Parse the tag whose open delimiter is at 'start', and the text before. */
static int parse_tag(struct parser *p, size_t start)
{
	const struct tmpl *t = p->t;
	unsigned line = p->line + count_nl(t->src, p->pos, start);
	size_t cs = start + p->olen, ce, end, ls = start, next;
	char sigil = cs < t->len ? t->src[cs] : '\0';
	enum tok_kind kind = kind_of(sigil);

	if (kind != TOK_VAR)
		cs++;
	else
		sigil = '\0';
	if (find_closer(p, sigil, cs, &ce, &end))
		return tmpl_fail(p->err, EX_DATAERR, t->name, line,
				 "unclosed tag");
	next = end;
	if (kind > TOK_RAW)
		(void)standalone(p, start, end, &ls, &next);
	if (add_text(p, ls) ||
	    handle_tag(p, kind, cs, ce - cs, line, ls, start - ls))
		return -1;
	p->line = line + count_nl(t->src, start, next);
	p->pos = next;
	return 0;
}

int tmpl_parse(struct tmpl *t, unsigned max_depth, struct pb_err *err)
{
	struct parser p = {
		.t = t, .line = 1, .open = "{{", .close = "}}",
		.olen = 2, .clen = 2, .max_depth = max_depth, .err = err,
	};
	const char *o;
	const struct tok *k;
	int rc = -1;

	while (p.pos < t->len) {
		o = memmem(t->src + p.pos, t->len - p.pos, p.open, p.olen);
		if (!o) {
			if (add_text(&p, t->len))
				goto out;
			break;
		}
		if (parse_tag(&p, (size_t)(o - t->src)))
			goto out;
	}
	if (p.nsecs) {
		k = &t->toks[p.secs[p.nsecs - 1]];
		tmpl_fail(err, EX_DATAERR, t->name, k->line,
			  "unclosed section '%.*s'", shown(k->len),
			  t->src + k->off);
		goto out;
	}
	rc = 0;
out:
	free(p.secs);
	return rc;
}
