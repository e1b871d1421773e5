// SPDX-License-Identifier: GPL-2.0-only
/*
 * Mustache in two passes: the parser (mustache_parse.c) turns template
 * text into a flat token list; this file renders that list, walking it
 * with a stack of JSON contexts, and holds the entry points. Partials
 * (mustache_partial.c) are read, indented and parsed on first use and
 * kept for the rest of one render call.
 */
#include <stdlib.h>
#include <string.h>

#include "perfbot/util/fileio.h"
#include "perfbot/render/mustache.h"
#include "mustache_internal.h"

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
		return tmpl_fail(r->err, EX_DATAERR, t->name, k->line,
				 "output larger than %zu bytes", limit);
	if (sb_add(r->out, data, n))
		return tmpl_fail(r->err, EX_OSERR, t->name, k->line,
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
		return tmpl_fail(r->err, EX_DATAERR, t->name, k->line,
				 "'%.*s' is %s, not a value", shown(k->len),
				 t->src + k->off,
				 json_is_object(v) ? "an object" : "a list");
	if (json_is_string(v)) {
		s = json_string_value(v);
		n = json_string_length(v);
	} else {
		sb_reset(&r->scratch);
		if (v && format_scalar(v, &r->scratch))
			return tmpl_fail(r->err, EX_OSERR, t->name, k->line,
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
		return tmpl_fail(r->err, EX_DATAERR, t->name, k->line,
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
		return tmpl_fail(r->err, EX_OSERR, t->name, t->toks[i].line,
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

static int render_partial(struct render *r, const struct tmpl *t, size_t i)
{
	const struct tok *k = &t->toks[i];
	const struct tmpl *pt = NULL;
	int rc;

	if (!r->o.partials_dir && r->o.spec)
		return 0;
	if (!r->o.partials_dir)
		return tmpl_fail(r->err, EX_DATAERR, t->name, k->line,
				 "partial '%.*s' but no partials directory",
				 shown(k->len), t->src + k->off);
	if (enter(r, t, k))
		return -1;
	rc = partial_get(&r->partials, &r->o, t, k, &pt, r->err);
	if (!rc)
		rc = render_range(r, pt, 0, pt->ntok);
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
	partials_free(r->partials);
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
		tmpl_fail(err, EX_OSERR, t.name, 1, "out of memory");
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
