// SPDX-License-Identifier: GPL-2.0-only
/*
 * LKP's rule files are lists of Ruby regexes. A pattern is taken apart
 * into atoms once, when it is added: the literal prefix that an anchored
 * pattern starts with decides its bucket (the first byte) and most of
 * the match; a pattern that is nothing but that prefix, maybe followed
 * by '.', '.*' or '.+' (and '$'), needs no regex at all. The others are
 * compiled as POSIX EREs (REG_NEWLINE gives '^', '$' and '.' Ruby's
 * meaning) and run only when the literals that every match of them must
 * contain are in the name.
 */
#include <ctype.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/pattern.h"
#include "perfbot/strbuf.h"

enum atom_kind { A_LIT, A_ANY, A_CLASS, A_GROUP, A_BOL, A_EOL, A_ALT,
	A_OTHER };
enum quant { Q_NONE, Q_PLUS, Q_ZERO };	/* Q_ZERO: may repeat 0 times */

struct atom {
	enum atom_kind kind;
	char c;			/* A_LIT */
	const char *in;		/* A_GROUP: the text between the parens */
	size_t inlen;
	enum quant q;
	size_t len;		/* bytes of pattern text, quantifier included */
};

enum tail { T_NONE, T_ANY1, T_ANY0, T_ANY1PLUS };

/* Every match contains one of these literals. */
struct need {
	char **alt;
	size_t n;
};

struct pat {
	char *lit;		/* literal prefix of an anchored pattern */
	size_t litlen;
	int fast;		/* lit + tail decides; no regex */
	enum tail tail;
	int end;		/* the match must end the name */
	regex_t re;
	int has_re;		/* a regex decides (compiled on first use) */
	int state;		/* 0: not compiled yet, 1: compiled, -1: bad */
	char *src;		/* the pattern as written */
	enum pat_mode mode;
	const char *file;	/* for the error */
	int line;
	struct need *need;
	size_t nneed;
};

struct patlist {
	enum pat_mode mode;
	struct pat *p;
	size_t n, cap;
	size_t *bucket[256];
	size_t nbucket[256], capbucket[256];
	size_t *always;
	size_t nalways, capalways;
};

/* Length of a valid interval '{n}', '{n,}', '{n,m}', '{,m}' at p, or 0. */
static size_t interval_at(const char *p)
{
	size_t i = 1, digits = 0;

	while (isdigit((unsigned char)p[i]))
		i++, digits++;
	if (p[i] == ',') {
		i++;
		while (isdigit((unsigned char)p[i]))
			i++, digits++;
	}
	return p[i] == '}' && digits ? i + 1 : 0;
}

/* The end of a bracket expression that starts at p ('['). */
static const char *bracket_end(const char *p)
{
	p++;
	if (*p == '^')
		p++;
	if (*p == ']')
		p++;
	while (*p && *p != ']') {
		if (*p == '\\' && p[1])
			p++;
		else if (*p == '[' && p[1] == ':' && strstr(p + 2, ":]"))
			p = strstr(p + 2, ":]") + 1;
		p++;
	}
	return *p ? p + 1 : p;
}

/* The end of a group that starts at p ('('). */
static const char *group_end(const char *p)
{
	int depth = 0;

	while (*p) {
		if (*p == '\\' && p[1]) {
			p += 2;
			continue;
		}
		if (*p == '[') {
			p = bracket_end(p);
			continue;
		}
		if (*p == '(')
			depth++;
		else if (*p == ')' && --depth == 0)
			return p + 1;
		p++;
	}
	return p;
}

static enum quant quantifier(const char *p, size_t *len)
{
	size_t n;

	*len = 0;
	if (*p == '*' || *p == '?')
		*len = 1;
	else if (*p == '+')
		*len = 1;
	else if (*p == '{' && (n = interval_at(p)))
		*len = n;
	if (!*len)
		return Q_NONE;
	if (p[*len] == '?' || p[*len] == '+')	/* lazy or possessive */
		(*len)++;
	if (*p == '+')
		return Q_PLUS;
	if (*p == '{')
		return isdigit((unsigned char)p[1]) && p[1] != '0' ? Q_PLUS :
			Q_ZERO;
	return Q_ZERO;
}

/* One atom of a Ruby regex at p, with its quantifier. */
static void atom_at(const char *p, struct atom *a)
{
	const char *e = p + 1;
	size_t qlen;

	memset(a, 0, sizeof(*a));
	switch (*p) {
	case '\\':
		if (p[1] && ispunct((unsigned char)p[1])) {
			a->kind = A_LIT;
			a->c = p[1];
		} else {
			a->kind = A_OTHER;
		}
		e = p[1] ? p + 2 : p + 1;
		break;
	case '.':
		a->kind = A_ANY;
		break;
	case '[':
		a->kind = A_CLASS;
		e = bracket_end(p);
		break;
	case '(':
		a->kind = A_GROUP;
		e = group_end(p);
		a->in = p + 1;
		a->inlen = e > p + 1 && e[-1] == ')' ? (size_t)(e - p - 2) :
			(size_t)(e - p - 1);
		break;
	case '^':
		a->kind = A_BOL;
		break;
	case '$':
		a->kind = A_EOL;
		break;
	case '|':
		a->kind = A_ALT;
		break;
	case '*': case '+': case '?':
		a->kind = A_OTHER;
		break;
	default:
		a->kind = A_LIT;
		a->c = *p;
	}
	a->q = a->kind == A_BOL || a->kind == A_EOL || a->kind == A_ALT ?
		Q_NONE : quantifier(e, &qlen);
	if (a->kind == A_BOL || a->kind == A_EOL || a->kind == A_ALT)
		qlen = 0;
	a->len = (size_t)(e - p) + qlen;
}

static int has_top_alt(const char *p)
{
	struct atom a;

	for (; *p; p += a.len) {
		atom_at(p, &a);
		if (a.kind == A_ALT)
			return 1;
	}
	return 0;
}

/* The alternatives of a group "a|bc|d" when all are literal, or -1. */
static int literal_alts(const char *in, size_t len, struct need *nd)
{
	struct strbuf sb = STRBUF_INIT;
	char *text = strndup(in, len), *p, **na;
	struct atom a;
	int rc = -1;

	if (!text)
		return -1;
	for (p = text;; p += a.len) {
		if (*p && (atom_at(p, &a), a.kind != A_ALT)) {
			if (a.kind != A_LIT || a.q != Q_NONE || sb_addc(&sb, a.c))
				break;
			continue;
		}
		na = sb.len ? realloc(nd->alt, (nd->n + 1) * sizeof(*na)) :
			NULL;
		if (!na)
			break;
		nd->alt = na;
		nd->alt[nd->n++] = sb_detach(&sb, NULL);
		if (!*p) {
			rc = 0;
			break;
		}
	}
	sb_release(&sb);
	free(text);
	return rc;
}

static void need_free(struct need *nd)
{
	size_t i;

	for (i = 0; i < nd->n; i++)
		free(nd->alt[i]);
	free(nd->alt);
	memset(nd, 0, sizeof(*nd));
}

static int add_need(struct pat *pt, struct need *nd)
{
	struct need *n = realloc(pt->need, (pt->nneed + 1) * sizeof(*n));

	if (!n)
		return -1;
	pt->need = n;
	pt->need[pt->nneed++] = *nd;
	memset(nd, 0, sizeof(*nd));
	return 0;
}

static int add_run(struct pat *pt, struct strbuf *run)
{
	struct need nd = { NULL, 0 };

	if (!run->len)
		return 0;
	nd.alt = malloc(sizeof(*nd.alt));
	if (!nd.alt)
		return -1;
	nd.alt[0] = sb_detach(run, NULL);
	nd.n = 1;
	return add_need(pt, &nd);
}

/* Put the literal run just before a group in front of its alternatives. */
static int prefix_alts(struct need *nd, const struct strbuf *run)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	for (i = 0; run->len && i < nd->n; i++) {
		sb_reset(&sb);
		if (sb_add(&sb, run->buf, run->len) || sb_adds(&sb, nd->alt[i]))
			break;
		free(nd->alt[i]);
		nd->alt[i] = sb_detach(&sb, NULL);
	}
	sb_release(&sb);
	return run->len && i < nd->n ? -1 : 0;
}

/*
 * The literals every match must contain: top-level runs of literal
 * characters that cannot repeat zero times, and groups of literal
 * alternatives. Only for patterns without a top-level '|'.
 */
static int find_needs(struct pat *pt, const char *p)
{
	struct strbuf run = STRBUF_INIT;
	struct need nd = { NULL, 0 };
	struct atom a;
	int rc = 0;

	for (; *p && !rc; p += a.len) {
		atom_at(p, &a);
		if (a.kind == A_LIT && a.q != Q_ZERO) {
			rc = sb_addc(&run, a.c);
			if (!rc && a.q == Q_PLUS)
				rc = add_run(pt, &run);
			continue;
		}
		if (a.kind == A_GROUP && a.q != Q_ZERO &&
		    !literal_alts(a.in, a.inlen, &nd)) {
			/* 'x(a|b)' needs "xa" or "xb": one sharper need */
			rc = prefix_alts(&nd, &run) || add_need(pt, &nd);
			sb_reset(&run);
		} else {
			rc = add_run(pt, &run);
		}
		need_free(&nd);
	}
	if (!rc)
		rc = add_run(pt, &run);
	sb_release(&run);
	return rc;
}

/*
 * The literal prefix of an anchored pattern and what follows it, when
 * that is one of the shapes matched without a regex.
 */
static int analyse(struct pat *pt, const char *p, int whole)
{
	struct strbuf lit = STRBUF_INIT;
	struct atom a;

	for (; *p; p += a.len) {
		atom_at(p, &a);
		if (a.kind != A_LIT || a.q == Q_ZERO)
			break;
		if (sb_addc(&lit, a.c))
			goto oom;
		if (a.q == Q_PLUS)	/* more may follow: no fast match */
			break;
	}
	if (*p && a.kind == A_LIT && a.q == Q_PLUS) {
		pt->litlen = lit.len;
		pt->lit = sb_detach(&lit, NULL);
		return pt->lit ? 0 : -1;
	}
	pt->litlen = lit.len;
	pt->lit = sb_detach(&lit, NULL);
	if (!pt->lit)
		goto oom;
	pt->end = whole;
	pt->tail = T_NONE;
	if (*p == '.') {
		atom_at(p, &a);
		pt->tail = a.len == 1 ? T_ANY1 : a.len == 2 && p[1] == '*' ?
			T_ANY0 : a.len == 2 && p[1] == '+' ? T_ANY1PLUS : T_NONE;
		if (pt->tail == T_NONE)
			return 0;
		p += a.len;
	}
	if (*p == '$' && !p[1]) {
		pt->end = 1;
		p++;
	}
	pt->fast = !*p;
	return 0;
oom:
	sb_release(&lit);
	return -1;
}

/* The Ruby regex 'p' as a POSIX ERE. */
static int to_ere(const char *p, struct strbuf *out)
{
	const char *e;
	size_t n;
	int rc = 0;

	while (*p && !rc) {
		if (*p == '\\' && p[1]) {
			if (strchr(".[]()*+?{}|^$\\", p[1]) ||
			    !ispunct((unsigned char)p[1]))
				rc = sb_add(out, p, 2);
			else
				rc = sb_addc(out, p[1]);
			p += 2;
		} else if (*p == '[') {
			for (e = bracket_end(p); p < e && !rc; p++)
				if (*p != '\\' || !p[1])
					rc = sb_addc(out, *p);
		} else if (*p == '{' && (n = interval_at(p))) {
			rc = sb_add(out, p, n);
			p += n;
		} else if (*p == '{' || *p == '}') {
			rc = sb_addc(out, '\\') || sb_addc(out, *p++);
		} else {
			rc = sb_addc(out, *p++);
		}
	}
	return rc;
}

static int compile(regex_t *re, enum pat_mode mode, const char *p)
{
	struct strbuf sb = STRBUF_INIT;
	int rc;

	rc = sb_adds(&sb, mode == PAT_SEARCH ? "" : "^") || to_ere(p, &sb) ||
	     sb_adds(&sb, mode == PAT_WHOLE ? "$" : "");
	if (!rc)
		rc = regcomp(re, sb.buf, REG_EXTENDED | REG_NOSUB | REG_NEWLINE);
	sb_release(&sb);
	return rc ? -1 : 0;
}

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

/* The pattern is nothing but literal characters. */
static int literal_only(const char *p)
{
	struct atom a;

	for (; *p; p += a.len) {
		atom_at(p, &a);
		if (a.kind != A_LIT || a.q != Q_NONE)
			return 0;
	}
	return 1;
}

static int build(struct patlist *pl, struct pat *pt, const char *pattern)
{
	const char *p = pattern;
	int anchored = pl->mode != PAT_SEARCH;

	if (pl->mode == PAT_PREFIX) {
		pt->lit = strdup(pattern);
		pt->litlen = pt->lit ? strlen(pt->lit) : 0;
		pt->fast = 1;
		pt->tail = T_ANY0;
		return pt->lit ? 0 : -1;
	}
	if (has_top_alt(p))
		return (pt->has_re = 1, 0);
	if (!anchored && *p == '^') {
		anchored = 1;
		p++;
	}
	if (anchored && analyse(pt, p, pl->mode == PAT_WHOLE))
		return -1;
	if (!anchored && find_needs(pt, p))
		return -1;
	if (!anchored && pt->nneed == 1 && pt->need[0].n == 1 &&
	    literal_only(p))
		pt->fast = 1;	/* a literal anywhere: memmem alone */
	if (pt->fast)
		return 0;
	if (anchored && find_needs(pt, p + 0))
		return -1;
	pt->has_re = 1;
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
	rc = pt->src ? build(pl, pt, pattern) : -1;
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
			need_free(&pl->p[i].need[k]);
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
	pt->state = compile(&pt->re, pt->mode, pt->src) ? -1 : 1;
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
