// SPDX-License-Identifier: GPL-2.0-only
/*
 * Mustache in two passes. The parser turns template text into a flat token
 * list in which a section token records the index just past its children;
 * it also applies the standalone-line rule, so the renderer only copies
 * text. The renderer walks the list with a stack of JSON contexts. Partials
 * are read, indented and parsed on first use and kept for the rest of one
 * render call.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/fileio.h"
#include "perfbot/mustache.h"

#define DELIM_MAX 16	/* bytes in a custom delimiter */
#define NAME_SHOW 64	/* bytes of a name quoted in an error message */
#define MSG_MAX (4 * PB_ERR_MAX)

enum tok_kind {
	TOK_TEXT,
	TOK_VAR,	/* {{x}}: escaped when html_escape is set */
	TOK_RAW,	/* {{{x}}}, {{& x}} */
	TOK_SECTION,
	TOK_INVERTED,
	TOK_PARTIAL,
	/* tags that only the parser sees */
	TOK_COMMENT,
	TOK_DELIM,
	TOK_CLOSE,
};

struct tok {
	enum tok_kind kind;
	unsigned line;
	size_t off, len;	 /* the text, or the tag's trimmed name */
	size_t ind_off, ind_len; /* a standalone partial's indentation */
	size_t end;		 /* sections: index just past the children */
};

struct tmpl {
	const char *name;
	const char *src;	/* not owned; tokens point into it */
	size_t len;
	struct tok *toks;
	size_t ntok, atok;
};

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

struct partial {
	struct partial *next;
	struct strbuf name, indent, path, src;
	struct tmpl t;
};

struct render {
	struct mustache_opts o;
	struct strbuf *out;
	size_t start;		/* out->len on entry, restored on failure */
	json_t **stack;
	size_t nstack, astack;
	struct partial *partials;
	struct strbuf scratch;
	unsigned depth;
	struct pb_err *err;
};

static int tfail(struct pb_err *err, int code, const char *name,
		 unsigned line, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* Every template error reads "<template name>:<line>: <what>". */
static int tfail(struct pb_err *err, int code, const char *name,
		 unsigned line, const char *fmt, ...)
{
	struct strbuf msg;
	va_list ap;

	sb_init(&msg, MSG_MAX);
	va_start(ap, fmt);
	(void)sb_vaddf(&msg, fmt, ap);
	va_end(ap);
	pb_fail(err, code, "%s:%u: %s", name, line,
		msg.len ? msg.buf : "out of memory");
	sb_release(&msg);
	return -1;
}

/* The length to pass to "%.*s" so that a hostile name stays short. */
static int shown(size_t len)
{
	return len > NAME_SHOW ? NAME_SHOW : (int)len;
}

/* Make room for one more element in a growable array, or return NULL. */
static void *grow(void *arr, size_t *alloc, size_t used, size_t size)
{
	size_t n;
	void *p;

	if (used < *alloc)
		return arr;
	n = *alloc ? 2 * *alloc : 16;
	p = reallocarray(arr, n, size);
	if (p)
		*alloc = n;
	return p;
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
	size_t i;

	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] <= ' ' || s[i] == 0x7f)
			return 1;
	return 0;
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
	return tfail(p->err, EX_OSERR, p->t->name, line, "out of memory");
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
		return tfail(p->err, EX_DATAERR, p->t->name, line,
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
		return tfail(p->err, EX_DATAERR, p->t->name, line,
			     "empty tag");
	return tfail(p->err, EX_DATAERR, p->t->name, line,
		     "bad %s name '%.*s'",
		     kind == TOK_PARTIAL ? "partial" : "tag", shown(len), n);
}

static int open_section(struct parser *p, unsigned line)
{
	size_t *s;

	if (p->nsecs >= p->max_depth)
		return tfail(p->err, EX_DATAERR, p->t->name, line,
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
		return tfail(p->err, EX_DATAERR, t->name, line,
			     "closing tag '%.*s' without an open section",
			     shown(len), t->src + off);
	open = &t->toks[p->secs[p->nsecs - 1]];
	if (open->len != len || memcmp(t->src + open->off, t->src + off, len))
		return tfail(p->err, EX_DATAERR, t->name, line,
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
		return tfail(p->err, EX_DATAERR, t->name, line,
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

static int tmpl_parse(struct tmpl *t, unsigned max_depth, struct pb_err *err)
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
		tfail(err, EX_DATAERR, t->name, k->line,
		      "unclosed section '%.*s'", shown(k->len), t->src + k->off);
		goto out;
	}
	rc = 0;
out:
	free(p.secs);
	return rc;
}

/* ---- rendering ---- */

/*
 * The first part of a dotted name is looked up through the context stack,
 * from the innermost context out; the other parts only inside what it
 * found. A key that is present stops the search, even when it is null.
 */
static json_t *lookup(const struct render *r, const char *name, size_t len)
{
	const char *dot = memchr(name, '.', len);
	size_t part = dot ? (size_t)(dot - name) : len;
	size_t i = r->nstack;
	json_t *v = NULL;

	if (len == 1 && name[0] == '.')
		return i ? r->stack[i - 1] : NULL;
	while (!v && i-- > 0)
		v = json_object_getn(r->stack[i], name, part);
	while (v && dot) {
		name = dot + 1;
		len -= part + 1;
		dot = memchr(name, '.', len);
		part = dot ? (size_t)(dot - name) : len;
		v = json_object_getn(v, name, part);
	}
	return v;
}

static int falsy(const json_t *v)
{
	return !v || json_is_false(v) || json_is_null(v) ||
	       (json_is_array(v) && json_array_size(v) == 0);
}

static int push(struct render *r, json_t *v)
{
	json_t **s;

	s = grow(r->stack, &r->astack, r->nstack, sizeof(*s));
	if (!s)
		return -1;
	r->stack = s;
	r->stack[r->nstack++] = v;
	return 0;
}

static int emit(struct render *r, const struct tmpl *t, const struct tok *k,
		const char *data, size_t n)
{
	size_t limit = r->o.max_output;

	if (r->out->max - r->start < limit)
		limit = r->out->max - r->start;
	if (n > limit - (r->out->len - r->start))
		return tfail(r->err, EX_DATAERR, t->name, k->line,
			     "output larger than %zu bytes", limit);
	if (sb_add(r->out, data, n))
		return tfail(r->err, EX_OSERR, t->name, k->line,
			     "out of memory");
	return 0;
}

static const char *html_entity(char c)
{
	switch (c) {
	case '&': return "&amp;";
	case '"': return "&quot;";
	case '<': return "&lt;";
	case '>': return "&gt;";
	default: return NULL;
	}
}

static int emit_escaped(struct render *r, const struct tmpl *t,
			const struct tok *k, const char *s, size_t n)
{
	size_t i, run = 0;
	const char *ent;

	for (i = 0; i < n; i++) {
		ent = html_entity(s[i]);
		if (!ent)
			continue;
		if (emit(r, t, k, s + run, i - run) ||
		    emit(r, t, k, ent, strlen(ent)))
			return -1;
		run = i + 1;
	}
	return emit(r, t, k, s + run, n - run);
}

/*
 * The shortest text that reads back as the same double, and integral
 * values without a fraction or exponent while every integer is exact.
 */
static int format_real(double d, struct strbuf *sb)
{
	size_t base = sb->len;
	int prec;

	if (d == 0)
		return sb_addc(sb, '0');
	if (d > -1e15 && d < 1e15 && d == (double)(long long)d)
		return sb_addf(sb, "%lld", (long long)d);
	for (prec = 1; prec < 17; prec++) {
		sb_setlen(sb, base);
		if (sb_addf(sb, "%.*g", prec, d))
			return -1;
		if (strtod(sb->buf + base, NULL) == d)
			return 0;
	}
	sb_setlen(sb, base);
	return sb_addf(sb, "%.17g", d);
}

/* Integers, reals, true and false as text; null as nothing. */
static int format_scalar(const json_t *v, struct strbuf *sb)
{
	switch (json_typeof(v)) {
	case JSON_INTEGER:
		return sb_addf(sb, "%" JSON_INTEGER_FORMAT,
			       json_integer_value(v));
	case JSON_REAL:
		return format_real(json_real_value(v), sb);
	case JSON_TRUE:
		return sb_adds(sb, "true");
	case JSON_FALSE:
		return sb_adds(sb, "false");
	default:
		return 0;
	}
}

typedef int render_fn(struct render *r, const struct tmpl *t, size_t i);
static render_fn render_text, render_var, render_section, render_inverted,
	render_partial;

static render_fn *const renderers[] = {
	[TOK_TEXT] = render_text,
	[TOK_VAR] = render_var,
	[TOK_RAW] = render_var,
	[TOK_SECTION] = render_section,
	[TOK_INVERTED] = render_inverted,
	[TOK_PARTIAL] = render_partial,
};

static int render_range(struct render *r, const struct tmpl *t, size_t from,
			size_t to)
{
	const struct tok *k;
	size_t i = from;

	while (i < to) {
		k = &t->toks[i];
		if (renderers[k->kind](r, t, i))
			return -1;
		if (k->kind == TOK_SECTION || k->kind == TOK_INVERTED)
			i = k->end;
		else
			i++;
	}
	return 0;
}

static int render_text(struct render *r, const struct tmpl *t, size_t i)
{
	const struct tok *k = &t->toks[i];

	return emit(r, t, k, t->src + k->off, k->len);
}

static int render_var(struct render *r, const struct tmpl *t, size_t i)
{
	const struct tok *k = &t->toks[i];
	json_t *v = lookup(r, t->src + k->off, k->len);
	const char *s;
	size_t n;

	if (json_is_object(v) || json_is_array(v))
		return tfail(r->err, EX_DATAERR, t->name, k->line,
			     "'%.*s' is %s, not a value", shown(k->len),
			     t->src + k->off,
			     json_is_object(v) ? "an object" : "a list");
	if (json_is_string(v)) {
		s = json_string_value(v);
		n = json_string_length(v);
	} else {
		sb_reset(&r->scratch);
		if (v && format_scalar(v, &r->scratch))
			return tfail(r->err, EX_OSERR, t->name, k->line,
				     "out of memory");
		s = sb_str(&r->scratch);
		n = r->scratch.len;
	}
	if (k->kind == TOK_VAR && r->o.html_escape)
		return emit_escaped(r, t, k, s, n);
	return emit(r, t, k, s, n);
}

/* Count one more level of section or partial nesting, within bounds. */
static int enter(struct render *r, const struct tmpl *t, const struct tok *k)
{
	if (r->depth >= r->o.max_depth)
		return tfail(r->err, EX_DATAERR, t->name, k->line,
			     "nesting deeper than %u", r->o.max_depth);
	r->depth++;
	return 0;
}

/* Render the children of section 'i' with 'v' as the innermost context. */
static int render_in(struct render *r, const struct tmpl *t, size_t i,
		     json_t *v)
{
	int rc;

	if (push(r, v))
		return tfail(r->err, EX_OSERR, t->name, t->toks[i].line,
			     "out of memory");
	rc = render_range(r, t, i + 1, t->toks[i].end);
	r->nstack--;
	return rc;
}

static int render_section(struct render *r, const struct tmpl *t, size_t i)
{
	const struct tok *k = &t->toks[i];
	json_t *v = lookup(r, t->src + k->off, k->len);
	size_t j;
	int rc = 0;

	if (falsy(v))
		return 0;
	if (enter(r, t, k))
		return -1;
	if (!json_is_array(v))
		rc = render_in(r, t, i, v);
	for (j = 0; json_is_array(v) && !rc && j < json_array_size(v); j++)
		rc = render_in(r, t, i, json_array_get(v, j));
	r->depth--;
	return rc;
}

static int render_inverted(struct render *r, const struct tmpl *t, size_t i)
{
	const struct tok *k = &t->toks[i];
	int rc;

	if (!falsy(lookup(r, t->src + k->off, k->len)))
		return 0;
	if (enter(r, t, k))
		return -1;
	rc = render_range(r, t, i + 1, k->end);
	r->depth--;
	return rc;
}

/* Read "<dir>/<name><ext>", or "<dir>/<name>" when that does not exist. */
static int partial_read(struct render *r, const struct tmpl *t,
			const struct tok *k, struct partial *p)
{
	const char *dir = r->o.partials_dir, *ext = r->o.partials_ext;
	size_t dlen = strlen(dir), base;
	struct pb_err e = { 0, "" };

	if (sb_adds(&p->path, dir) ||
	    (dlen && dir[dlen - 1] != '/' && sb_addc(&p->path, '/')) ||
	    sb_add(&p->path, t->src + k->off, k->len))
		return tfail(r->err, EX_OSERR, t->name, k->line,
			     "out of memory");
	base = p->path.len;
	if (ext && *ext) {
		if (sb_adds(&p->path, ext))
			return tfail(r->err, EX_OSERR, t->name, k->line,
				     "out of memory");
		if (!file_read(p->path.buf, MUSTACHE_FILE_MAX, 1, &p->src, &e))
			return 0;
		sb_setlen(&p->path, base);
	}
	if (e.code && e.code != EX_NOINPUT)
		return tfail(r->err, e.code, t->name, k->line,
			     "partial '%.*s': %s", shown(k->len),
			     t->src + k->off, e.msg);
	if (!file_read(p->path.buf, MUSTACHE_FILE_MAX, 1, &p->src, &e))
		return 0;
	if (e.code == EX_NOINPUT && r->o.spec) {
		sb_reset(&p->src);	/* the spec: renders as nothing */
		return 0;
	}
	if (e.code == EX_NOINPUT)
		return tfail(r->err, EX_NOINPUT, t->name, k->line,
			     "partial '%.*s' not found in '%s'", shown(k->len),
			     t->src + k->off, dir);
	return tfail(r->err, e.code, t->name, k->line, "partial '%.*s': %s",
		     shown(k->len), t->src + k->off, e.msg);
}

static int is_empty_line(const char *s, size_t n)
{
	return (n == 1 && s[0] == '\n') ||
	       (n == 2 && s[0] == '\r' && s[1] == '\n');
}

/*
 * A standalone partial has every non-empty line of its source indented
 * like the tag; text inserted by its variables is not indented.
 */
static int indent_lines(struct strbuf *src, const struct strbuf *ind)
{
	struct strbuf res;
	const char *s = sb_str(src), *nl;
	size_t pos = 0, n;
	int rc = 0;

	sb_init(&res, 0);
	while (!rc && pos < src->len) {
		nl = memchr(s + pos, '\n', src->len - pos);
		n = nl ? (size_t)(nl - s) + 1 - pos : src->len - pos;
		if (!is_empty_line(s + pos, n))
			rc = sb_add(&res, ind->buf, ind->len);
		if (!rc)
			rc = sb_add(&res, s + pos, n);
		pos += n;
	}
	if (!rc) {
		sb_release(src);
		*src = res;
	} else {
		sb_release(&res);
	}
	return rc;
}

static int same(const struct strbuf *sb, const char *s, size_t n)
{
	return sb->len == n && (n == 0 || memcmp(sb->buf, s, n) == 0);
}

static struct partial *partial_new(struct render *r)
{
	struct partial *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	sb_init(&p->name, 0);
	sb_init(&p->indent, 0);
	sb_init(&p->path, 0);
	sb_init(&p->src, 0);
	p->next = r->partials;
	r->partials = p;
	return p;
}

/* The parsed partial of tag 'k', read on first use (per indentation). */
static int partial_get(struct render *r, const struct tmpl *t,
		       const struct tok *k, struct partial **res)
{
	const char *name = t->src + k->off, *ind = t->src + k->ind_off;
	struct partial *p;

	for (p = r->partials; p; p = p->next)
		if (same(&p->name, name, k->len) &&
		    same(&p->indent, ind, k->ind_len))
			break;
	if (!p) {
		p = partial_new(r);
		if (!p || sb_add(&p->name, name, k->len) ||
		    sb_add(&p->indent, ind, k->ind_len))
			return tfail(r->err, EX_OSERR, t->name, k->line,
				     "out of memory");
		if (partial_read(r, t, k, p))
			return -1;
		if (p->indent.len && indent_lines(&p->src, &p->indent))
			return tfail(r->err, EX_DATAERR, t->name, k->line,
				     "partial '%.*s' too large once indented",
				     shown(k->len), name);
		p->t.name = sb_str(&p->path);
		p->t.src = sb_str(&p->src);
		p->t.len = p->src.len;
		if (tmpl_parse(&p->t, r->o.max_depth, r->err))
			return -1;
	}
	*res = p;
	return 0;
}

static int render_partial(struct render *r, const struct tmpl *t, size_t i)
{
	const struct tok *k = &t->toks[i];
	struct partial *p = NULL;
	int rc;

	if (!r->o.partials_dir && r->o.spec)
		return 0;
	if (!r->o.partials_dir)
		return tfail(r->err, EX_DATAERR, t->name, k->line,
			     "partial '%.*s' but no partials directory",
			     shown(k->len), t->src + k->off);
	if (enter(r, t, k))
		return -1;
	rc = partial_get(r, t, k, &p);
	if (!rc)
		rc = render_range(r, &p->t, 0, p->t.ntok);
	r->depth--;
	return rc;
}

static void render_init(struct render *r, const struct mustache_opts *opts,
			struct strbuf *out, struct pb_err *err)
{
	memset(r, 0, sizeof(*r));
	if (opts)
		r->o = *opts;
	if (!r->o.max_depth)
		r->o.max_depth = MUSTACHE_DEFAULT_DEPTH;
	if (r->o.max_depth > MUSTACHE_DEPTH_LIMIT)
		r->o.max_depth = MUSTACHE_DEPTH_LIMIT;
	if (!r->o.max_output)
		r->o.max_output = MUSTACHE_DEFAULT_OUTPUT;
	r->out = out;
	r->start = out->len;
	sb_init(&r->scratch, 0);
	r->err = err;
}

static void render_release(struct render *r)
{
	struct partial *p;

	while ((p = r->partials)) {
		r->partials = p->next;
		sb_release(&p->name);
		sb_release(&p->indent);
		sb_release(&p->path);
		sb_release(&p->src);
		free(p->t.toks);
		free(p);
	}
	free(r->stack);
	sb_release(&r->scratch);
}

int mustache_render(const char *tmpl, size_t len, const char *name,
		    json_t *ctx, const struct mustache_opts *opts,
		    struct strbuf *out, struct pb_err *err)
{
	struct tmpl t = { .name = name ? name : "template",
			  .src = tmpl ? tmpl : "", .len = tmpl ? len : 0 };
	struct render r;
	int rc = -1;

	render_init(&r, opts, out, err);
	if (tmpl_parse(&t, r.o.max_depth, err))
		goto out;
	if (ctx && push(&r, ctx)) {
		tfail(err, EX_OSERR, t.name, 1, "out of memory");
		goto out;
	}
	rc = render_range(&r, &t, 0, t.ntok);
out:
	if (rc)
		sb_setlen(out, r.start);
	free(t.toks);
	render_release(&r);
	return rc;
}

/* The extension of the last path component, with its dot, or "". */
static const char *path_ext(const char *path)
{
	const char *base = strrchr(path, '/'), *dot;

	base = base ? base + 1 : path;
	dot = strrchr(base, '.');
	return dot && dot != base ? dot : "";
}

int mustache_render_file(const char *path, json_t *ctx,
			 const struct mustache_opts *opts, struct strbuf *out,
			 struct pb_err *err)
{
	struct strbuf src = STRBUF_INIT;
	struct mustache_opts o;
	char *dir = NULL;
	int rc = -1;

	memset(&o, 0, sizeof(o));
	if (opts)
		o = *opts;
	if (file_read(path, MUSTACHE_FILE_MAX, 1, &src, err))
		goto out;
	if (!o.partials_dir) {
		dir = path_dirname(path);
		if (!dir) {
			pb_fail(err, EX_OSERR, "%s: out of memory", path);
			goto out;
		}
		o.partials_dir = dir;
	}
	if (!o.partials_ext)
		o.partials_ext = path_ext(path);
	rc = mustache_render(sb_str(&src), src.len, path, ctx, &o, out, err);
out:
	free(dir);
	sb_release(&src);
	return rc;
}
