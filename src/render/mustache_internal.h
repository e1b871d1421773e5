/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_MUSTACHE_INTERNAL_H
#define PERFBOT_MUSTACHE_INTERNAL_H

/*
 * Shared by the files of the Mustache engine only: the token list that
 * mustache_parse.c makes of a template, the partials of
 * mustache_partial.c, and what mustache.c renders with them.
 */

#include <stdlib.h>

#include "perfbot/util/err.h"
#include "perfbot/render/mustache.h"

#define NAME_SHOW 64	/* bytes of a name quoted in an error message */

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

/* Every template error reads "<template name>:<line>: <what>". */
int tmpl_fail(struct pb_err *err, int code, const char *name, unsigned line,
	      const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* The length to pass to "%.*s" so that a hostile name stays short. */
static inline int shown(size_t len)
{
	return len > NAME_SHOW ? NAME_SHOW : (int)len;
}

/* Make room for one more element in a growable array, or return NULL. */
static inline void *grow(void *arr, size_t *alloc, size_t used, size_t size)
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

/*
 * Parse the template 't' (name, src and len set) into its token list,
 * with sections nested at most 'max_depth' deep. Returns 0, or -1 with
 * 'err' set; the caller frees t->toks either way.
 */
int tmpl_parse(struct tmpl *t, unsigned max_depth, struct pb_err *err);

/* The partials read during one render call (mustache_partial.c). */
struct partial;

/*
 * The parsed partial of tag 'k' in 't', read and indented on first use
 * and kept in '*cache' (per name and indentation) for the rest of the
 * render call. With 'o->spec' a missing file renders as nothing.
 */
int partial_get(struct partial **cache, const struct mustache_opts *o,
		const struct tmpl *t, const struct tok *k,
		const struct tmpl **res, struct pb_err *err);
void partials_free(struct partial *cache);

#endif
