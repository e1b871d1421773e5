// SPDX-License-Identifier: GPL-2.0-only
/*
 * Mustache partials: {{> name}} is read from the partials directory on
 * first use, indented like a standalone tag, parsed (mustache_parse.c)
 * and kept for the rest of one render call. In spec mode a missing
 * partial renders as nothing, as the Mustache spec says.
 */
#include <stdlib.h>
#include <string.h>

#include "perfbot/util/fileio.h"
#include "mustache_internal.h"

struct partial {
	struct partial *next;
	struct strbuf name, indent, path, src;
	struct tmpl t;
};

/* Read "<dir>/<name><ext>", or "<dir>/<name>" when that does not exist. */
static int partial_read(const struct mustache_opts *o, const struct tmpl *t,
			const struct tok *k, struct partial *p,
			struct pb_err *err)
{
	const char *dir = o->partials_dir, *ext = o->partials_ext;
	size_t dlen = strlen(dir), base;
	struct pb_err e = { 0, "" };

	if (sb_adds(&p->path, dir) ||
	    (dlen && dir[dlen - 1] != '/' && sb_addc(&p->path, '/')) ||
	    sb_add(&p->path, t->src + k->off, k->len))
		return tmpl_fail(err, EX_OSERR, t->name, k->line,
				 "out of memory");
	base = p->path.len;
	if (ext && *ext) {
		if (sb_adds(&p->path, ext))
			return tmpl_fail(err, EX_OSERR, t->name, k->line,
					 "out of memory");
		if (!file_read(p->path.buf, MUSTACHE_FILE_MAX, 1, &p->src, &e))
			return 0;
		sb_setlen(&p->path, base);
	}
	if (e.code && e.code != EX_NOINPUT)
		return tmpl_fail(err, e.code, t->name, k->line,
				 "partial '%.*s': %s", shown(k->len),
				 t->src + k->off, e.msg);
	if (!file_read(p->path.buf, MUSTACHE_FILE_MAX, 1, &p->src, &e))
		return 0;
	if (e.code == EX_NOINPUT && o->spec) {
		sb_reset(&p->src);	/* the spec: renders as nothing */
		return 0;
	}
	if (e.code == EX_NOINPUT)
		return tmpl_fail(err, EX_NOINPUT, t->name, k->line,
				 "partial '%.*s' not found in '%s'",
				 shown(k->len), t->src + k->off, dir);
	return tmpl_fail(err, e.code, t->name, k->line, "partial '%.*s': %s",
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

static struct partial *partial_new(struct partial **cache)
{
	struct partial *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	sb_init(&p->name, 0);
	sb_init(&p->indent, 0);
	sb_init(&p->path, 0);
	sb_init(&p->src, 0);
	p->next = *cache;
	*cache = p;
	return p;
}

/* The parsed partial of tag 'k', read on first use (per indentation). */
int partial_get(struct partial **cache, const struct mustache_opts *o,
		const struct tmpl *t, const struct tok *k,
		const struct tmpl **res, struct pb_err *err)
{
	const char *name = t->src + k->off, *ind = t->src + k->ind_off;
	struct partial *p;

	for (p = *cache; p; p = p->next)
		if (same(&p->name, name, k->len) &&
		    same(&p->indent, ind, k->ind_len))
			break;
	if (!p) {
		p = partial_new(cache);
		if (!p || sb_add(&p->name, name, k->len) ||
		    sb_add(&p->indent, ind, k->ind_len))
			return tmpl_fail(err, EX_OSERR, t->name, k->line,
					 "out of memory");
		if (partial_read(o, t, k, p, err))
			return -1;
		if (p->indent.len && indent_lines(&p->src, &p->indent))
			return tmpl_fail(err, EX_DATAERR, t->name, k->line,
					 "partial '%.*s' too large once "
					 "indented", shown(k->len), name);
		p->t.name = sb_str(&p->path);
		p->t.src = sb_str(&p->src);
		p->t.len = p->src.len;
		if (tmpl_parse(&p->t, o->max_depth, err))
			return -1;
	}
	*res = &p->t;
	return 0;
}

void partials_free(struct partial *cache)
{
	struct partial *p;

	while ((p = cache)) {
		cache = p->next;
		sb_release(&p->name);
		sb_release(&p->indent);
		sb_release(&p->path);
		sb_release(&p->src);
		free(p->t.toks);
		free(p);
	}
}
