// SPDX-License-Identifier: GPL-2.0-only
/*
 * LKP's rule files are lists of Ruby regexes. pattern_syntax.c takes each
 * pattern apart when it is added; a list buckets its patterns by the first
 * byte of their literal prefix, so a name is tried only against the
 * patterns that can match it, in the order they were added. The patterns
 * that need a regex are compiled as POSIX EREs (REG_NEWLINE gives '^',
 * '$' and '.' Ruby's meaning) and run only when the literals that every
 * match of them must contain are in the name.
 */
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "pattern.h"
#include "pattern_internal.h"

struct patlist {
	enum pat_mode mode;
	struct pat *p;
	size_t n, cap;
	size_t *bucket[256];
	size_t nbucket[256], capbucket[256];
	size_t *always;
	size_t nalways, capalways;
};

static int push_index(size_t **v, size_t *n, size_t *cap, size_t i)
{
	size_t *nv;

	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 8;
		nv = realloc(*v, *cap * sizeof(*nv));
		if (!nv)
			return -1;
		*v = nv;
	}
	(*v)[(*n)++] = i;
	return 0;
}

int patlist_add(struct patlist *pl, const char *pattern, const char *file,
		int line, struct pb_err *err)
{
	struct pat *pt;
	int rc;

	if (pl->n == pl->cap) {
		size_t cap = pl->cap ? pl->cap * 2 : 16;
		struct pat *np = realloc(pl->p, cap * sizeof(*np));

		if (!np)
			return pb_fail(err, EX_OSERR, "out of memory");
		pl->p = np;
		pl->cap = cap;
	}
	pt = &pl->p[pl->n];
	memset(pt, 0, sizeof(*pt));
	pt->file = file;
	pt->line = line;
	pt->src = strdup(pattern);
	pt->mode = pl->mode;
	rc = pt->src ? pat_build(pt, pl->mode, pattern) : -1;
	if (rc < 0 || (pt->litlen ?
		       push_index(&pl->bucket[(unsigned char)pt->lit[0]],
				  &pl->nbucket[(unsigned char)pt->lit[0]],
				  &pl->capbucket[(unsigned char)pt->lit[0]],
				  pl->n) :
		       push_index(&pl->always, &pl->nalways, &pl->capalways,
				  pl->n))) {
		pl->n++;	/* freed with the list */
		return pb_fail(err, EX_OSERR, "out of memory");
	}
	pl->n++;
	return 0;
}

struct patlist *patlist_new(enum pat_mode mode)
{
	struct patlist *pl = calloc(1, sizeof(*pl));

	if (pl)
		pl->mode = mode;
	return pl;
}

void patlist_free(struct patlist *pl)
{
	size_t i, k;

	if (!pl)
		return;
	for (i = 0; i < pl->n; i++) {
		free(pl->p[i].lit);
		free(pl->p[i].src);
		if (pl->p[i].state == 1)
			regfree(&pl->p[i].re);
		for (k = 0; k < pl->p[i].nneed; k++)
			pat_need_free(&pl->p[i].need[k]);
		free(pl->p[i].need);
	}
	for (i = 0; i < 256; i++)
		free(pl->bucket[i]);
	free(pl->always);
	free(pl->p);
	free(pl);
}

size_t patlist_count(const struct patlist *pl)
{
	return pl->n;
}

/* 'lit' (of length n, n >= 1) in name[0..len): names are short, so a
 * plain scan beats memmem's set-up. */
static int contains(const char *name, size_t len, const char *lit, size_t n)
{
	const char *p = name, *end = name + len;

	while ((size_t)(end - p) >= n &&
	       (p = memchr(p, lit[0], (size_t)(end - p) - n + 1))) {
		if (!memcmp(p + 1, lit + 1, n - 1))
			return 1;
		p++;
	}
	return 0;
}

static int has_needs(const struct pat *pt, const char *name, size_t len)
{
	size_t i, k;

	for (i = 0; i < pt->nneed; i++) {
		const struct need *nd = &pt->need[i];

		for (k = 0; k < nd->n; k++)
			if (contains(name, len, nd->alt[k],
				     strlen(nd->alt[k])))
				break;
		if (k == nd->n)
			return 0;
	}
	return 1;
}

/*
 * Regexes are compiled when a name first gets past their literals: most
 * of LKP's (dmesg and kmsg lists) never do in a performance comparison.
 * patlist_check() reports a bad one.
 */
static void compile_now(struct pat *pt)
{
	pt->state = pat_compile(&pt->re, pt->mode, pt->src) ? -1 : 1;
}

static int pat_match(struct pat *pt, const char *name, size_t len,
		     int newline)
{
	size_t rest;

	if (pt->litlen && (len < pt->litlen || (pt->litlen > 1 &&
						name[1] != pt->lit[1]) ||
			   memcmp(name, pt->lit, pt->litlen)))
		return 0;
	if (pt->nneed && !has_needs(pt, name, len))
		return 0;
	if (pt->fast && !newline) {
		rest = len - pt->litlen;
		switch (pt->tail) {
		case T_NONE:
			return !pt->end || rest == 0;
		case T_ANY1:
			return pt->end ? rest == 1 : rest >= 1;
		case T_ANY0:
			return 1;
		case T_ANY1PLUS:
			return rest >= 1;
		}
	}
	if (!pt->has_re)	/* a literal prefix, or a literal anywhere */
		return pt->fast;
	if (!pt->state)
		compile_now(pt);
	return pt->state > 0 && !regexec(&pt->re, name, 0, NULL, 0);
}

long patlist_first(const struct patlist *pl, const char *name, size_t len)
{
	unsigned char b = len ? (unsigned char)name[0] : 0;
	const size_t *bk = pl->bucket[b], *al = pl->always;
	size_t nb = pl->nbucket[b], na = pl->nalways, i = 0, k = 0, idx;
	int newline = memchr(name, '\n', len) != NULL;

	while (i < nb || k < na) {
		if (k == na || (i < nb && bk[i] < al[k]))
			idx = bk[i++];
		else
			idx = al[k++];
		if (pat_match(&pl->p[idx], name, len, newline))
			return (long)idx;
	}
	return -1;
}

int patlist_any(const struct patlist *pl, const char *name, size_t len)
{
	return patlist_first(pl, name, len) >= 0;
}

int patlist_check(const struct patlist *pl, int all, struct pb_err *err)
{
	size_t i;

	for (i = 0; i < pl->n; i++) {
		struct pat *pt = &pl->p[i];

		if (all && pt->has_re && !pt->state)
			compile_now(pt);
		if (pt->state < 0 && pt->line)
			return pb_fail(err, EX_CONFIG, "%s:%d: bad pattern "
				       "'%.100s'", pt->file, pt->line, pt->src);
		if (pt->state < 0)
			return pb_fail(err, EX_CONFIG, "%s: bad pattern "
				       "'%.100s'", pt->file, pt->src);
	}
	return 0;
}
