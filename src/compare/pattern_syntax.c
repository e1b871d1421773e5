// SPDX-License-Identifier: GPL-2.0-only
/*
 * Ruby regex syntax, for the pattern lists (pattern.c). A pattern is taken
 * apart into atoms once, when it is added: the literal prefix that an
 * anchored pattern starts with decides its bucket (the first byte) and
 * most of the match; a pattern that is nothing but that prefix, maybe
 * followed by '.', '.*' or '.+' (and '$'), needs no regex at all. For the
 * others this file finds the literals that every match must contain and
 * translates the pattern to a POSIX ERE (a '{' that starts no interval,
 * '\-' and other escaped punctuation are spelled differently there).
 */
#include <ctype.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/util/strbuf.h"
#include "pattern_internal.h"

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

void pat_need_free(struct need *nd)
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
		pat_need_free(&nd);
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

int pat_compile(regex_t *re, enum pat_mode mode, const char *p)
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

int pat_build(struct pat *pt, enum pat_mode mode, const char *pattern)
{
	const char *p = pattern;
	int anchored = mode != PAT_SEARCH;

	if (mode == PAT_PREFIX) {
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
	if (anchored && analyse(pt, p, mode == PAT_WHOLE))
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
