// SPDX-License-Identifier: GPL-2.0-only
/*
 * parse: the command syntax. Which lines of a reply's own text are
 * commands ("retest 4x", "#perfbot: help"), each kept for echoing back
 * (trimmed, bounded, no control characters); the words are looked up
 * with the lookup the caller hands over (the one command table of
 * act/dispatch.c), whose parse entries read the arguments with the
 * helpers here.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "perfbot/parse/commands.h"
#include "perfbot/util/text.h"

static int is_ws(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n' ||
	       ch == '\v' || ch == '\f';
}

static int is_digit(char ch)
{
	return ch >= '0' && ch <= '9';
}

static const char *skip_ws(const char *p)
{
	while (*p && is_ws(*p))
		p++;
	return p;
}

int command_parse_count(const char *args, int *runs)
{
	const char *p = args;
	long n = 0;

	*runs = 0;
	if (!*p)
		return 0;
	if (!is_digit(*p))
		return -1;
	for (; is_digit(*p); p++)
		if (n < CMD_RUNS_SATURATE)
			n = n * 10 + (*p - '0');
	p = skip_ws(p);
	if (*p == 'x' || *p == 'X')
		p = skip_ws(p + 1);
	/* 0 would read as "not given": refuse it rather than run the default. */
	if (*p || n == 0)
		return -1;
	*runs = n > CMD_RUNS_SATURATE ? CMD_RUNS_SATURATE : (int)n;
	return 0;
}

/* The next word of '*p' ('*n' bytes), '*p' moved past it; 0 at the end. */
static int next_word(const char **p, const char **w, size_t *n)
{
	const char *s = skip_ws(*p);

	*w = s;
	while (*s && !is_ws(*s))
		s++;
	*n = (size_t)(s - *w);
	*p = s;
	return *n > 0;
}

static int all_hex(const char *w, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strchr("0123456789abcdefABCDEF", w[i]))
			return 0;
	return 1;
}

/*
 * A count as command_parse_count() reads it ("8", "8x"), in one word; 7
 * digits or more are a commit's.
 */
static int count_word(const char *w, size_t n, int *runs)
{
	size_t digits = n && (w[n - 1] == 'x' || w[n - 1] == 'X') ? n - 1 : n;
	char buf[16];

	if (digits >= 7 || !is_digit(w[0]))
		return 0;
	memcpy(buf, w, n);
	buf[n] = '\0';
	return !command_parse_count(buf, runs);
}

/*
 * Written as a repository: "scheme://", "file:", an scp-like
 * "host:path" (the ':' before any '/'), a path from '/', '~' or '.'.
 * Whether it may be used is the act step's to decide.
 */
static int repo_word(const char *w, size_t n)
{
	const char *colon = memchr(w, ':', n), *slash = memchr(w, '/', n);

	if (n >= 3 && (w[0] == '/' || w[0] == '~' || w[0] == '.'))
		return 1;
	if (n > 5 && !strncasecmp(w, "file:", 5))
		return 1;
	if (!colon || colon == w)
		return 0;
	if ((size_t)(w + n - colon) > 3 && !strncmp(colon, "://", 3))
		return 1;
	/* git@host:path, host:path */
	return (!slash || slash > colon) && (size_t)(w + n - colon) > 1;
}

static int keep_word(char *dst, size_t cap, const char *w, size_t n)
{
	if (n >= cap)
		return -1;
	memcpy(dst, w, n);
	dst[n] = '\0';
	return 0;
}

/* A count at 'p' that ends the arguments ("8", "8x", "8 x"): 1. */
static int count_ends(const char *p, int *runs)
{
	const char *w;
	size_t n;

	if (!next_word(&p, &w, &n) || !count_word(w, n, runs))
		return 0;
	if (next_word(&p, &w, &n) && !(n == 1 && (*w == 'x' || *w == 'X') &&
				       !next_word(&p, &w, &n)))
		return 0;
	return 1;
}

/*
 * A word of shell syntax ("test -d /sys/x || {", "test $a = b"): such a
 * line is a script's, not a request.
 */
static int shell_word(const char *w, size_t n)
{
	static const char *const ops[] = { "||", "&&", "|", ";", "{", "}",
		"[", "]", "!", "=", "==", "!=", "-a", "-o", "then", NULL };
	const char *const *o;

	if (n && (w[0] == '$' || w[0] == '"' || w[0] == '\''))
		return 1;
	for (o = ops; *o; o++)
		if (strlen(*o) == n && !memcmp(*o, w, n))
			return 1;
	return n && (w[n - 1] == ';' || w[n - 1] == '{');
}

static int shell_line(const char *p)
{
	const char *w;
	size_t n;

	while (next_word(&p, &w, &n))
		if (shell_word(w, n))
			return 1;
	return 0;
}

int command_parse_test(const char *args, struct mail_command *c)
{
	const char *p = args, *w, *w2;
	size_t n, n2;

	c->form = TEST_PATCH;
	c->runs = 0;
	c->repo[0] = c->ref[0] = '\0';
	p = skip_ws(p);
	if (shell_line(p))
		return -1;
	/* "Test 30" is a heading: a count alone needs its 'x' ("test 8x") */
	if (!*p || (count_ends(p, &c->runs) &&
		    (c->prefixed || strpbrk(p, "xX"))))
		return 0;
	c->runs = 0;
	next_word(&p, &w, &n);
	if (n >= 7 && n <= 40 && all_hex(w, n)) {
		c->form = TEST_COMMIT;
		p = skip_ws(p);
		/* "test deadbeef is the one" is prose */
		return keep_word(c->ref, sizeof(c->ref), w, n) ||
		       (*p && !count_ends(p, &c->runs)) ? -1 : 0;
	}
	if (!repo_word(w, n))
		return -1;	/* "test this please" is prose */
	c->form = TEST_TREE;
	if (!next_word(&p, &w2, &n2) ||
	    keep_word(c->repo, sizeof(c->repo), w, n) ||
	    keep_word(c->ref, sizeof(c->ref), w2, n2) ||
	    (*skip_ws(p) && !count_ends(p, &c->runs)))
		c->form = TEST_MALFORMED;
	return 0;
}

int command_parse_ref(const char **args, int *ref)
{
	const char *p = *args;
	long n = 0;

	*ref = 0;
	if (*p != '<' || !is_digit(p[1]))
		return 0;
	for (p++; is_digit(*p); p++)
		if (n <= CMD_LINE_REF_MAX)
			n = n * 10 + (*p - '0');
	if (*p != '>' || (p[1] && !is_ws(p[1])))
		return 0;	/* "<1234@host>" is a Message-ID */
	if (n < 1 || n > CMD_LINE_REF_MAX)
		return -1;
	*ref = (int)n;
	*args = skip_ws(p + 1);
	return 0;
}

void command_keep_arg(struct mail_command *c, const char *args)
{
	size_t n;

	args = skip_ws(args);
	n = strlen(args);
	while (n && is_ws(args[n - 1]))
		n--;
	n = utf8_cut(args, n, CMD_ARG_MAX - 1);
	text_scrub_to(c->arg, n + 1, args, n, TEXT_TAB_SPACE);
}

/* Keep the line for echoing back: bounded, no control characters. */
static void keep_line(struct mail_command *c, const char *s, size_t len)
{
	len = utf8_cut(s, len, CMD_LINE_MAX - 1);
	/* a tab is white space as any other: no '?' for it */
	text_scrub_to(c->line, len + 1, s, len, TEXT_TAB_SPACE);
}

/* Skip the prefix and a ':' after it; 1 when it was there. */
static int skip_prefix(const char **s, const char *e, const char *prefix)
{
	size_t plen = prefix ? strlen(prefix) : 0;
	const char *p = *s;

	if (!plen || (size_t)(e - p) < plen || strncasecmp(p, prefix, plen))
		return 0;
	p += plen;
	if (p < e && !is_ws(*p) && *p != ':')
		return 0;
	while (p < e && is_ws(*p))
		p++;
	if (p < e && *p == ':')
		p++;
	while (p < e && is_ws(*p))
		p++;
	*s = p;
	return 1;
}

/*
 * 'buf' is the trimmed command text after any prefix. The word ends at
 * white space or after a ':' ("fix:TITLE"); "invalid:" is "invalid"
 * written with a colon, which its parse entry accepts or refuses.
 */
static int parse_words(const char *buf, command_lookup_fn lookup,
		       struct mail_command *c)
{
	struct command_word w;
	size_t n = 0;

	while (buf[n] && !is_ws(buf[n]) && (!n || buf[n - 1] != ':'))
		n++;
	if (!lookup)
		return -1;
	c->colon = 0;
	if (lookup(buf, n, &w)) {
		if (n < 2 || buf[n - 1] != ':' || lookup(buf, n - 1, &w))
			return -1;
		c->colon = 1;
	}
	c->kind = w.kind;
	return w.parse(skip_ws(buf + n), c);
}

/*
 * One edit from 'w' ('n' letters): each variant in turn into 'v' (a
 * letter left out, two swapped, one changed or added); 1 while there is
 * one more. 'k' counts the variants.
 */
static int variant(const char *w, size_t n, size_t k, char *v)
{
	size_t pos;

	if (k < n) {		/* left out */
		memcpy(v, w, k);
		memcpy(v + k, w + k + 1, n - k - 1);
		v[n - 1] = '\0';
		return 1;
	}
	k -= n;
	if (k + 1 < n) {	/* swapped */
		memcpy(v, w, n);
		v[k] = w[k + 1];
		v[k + 1] = w[k];
		v[n] = '\0';
		return 1;
	}
	k -= n ? n - 1 : 0;
	if (k < 26 * n) {	/* changed */
		memcpy(v, w, n);
		v[k / 26] = (char)('a' + k % 26);
		v[n] = '\0';
		return 1;
	}
	k -= 26 * n;
	if (k < 26 * (n + 1)) {	/* added */
		pos = k / 26;
		memcpy(v, w, pos);
		v[pos] = (char)('a' + k % 26);
		memcpy(v + pos + 1, w + pos, n - pos);
		v[n + 1] = '\0';
		return 1;
	}
	return 0;
}

#define NEAR_MIN 5		/* the shortest command name a typo is read for */
#define NEAR_MAX 12

/*
 * "retset 3x": one word of letters one edit from a command of NEAR_MIN
 * letters or more, and the rest as that command reads it; the line
 * meant into c->arg.
 */
static int near_typo(const char *buf, command_lookup_fn lookup,
		     struct mail_command *c)
{
	char v[NEAR_MAX + 2], fixed[CMD_PARSE_MAX + 2];
	struct mail_command t;
	struct command_word w;
	size_t n = 0, k, j;

	while (buf[n] && ((buf[n] >= 'a' && buf[n] <= 'z') ||
			  (buf[n] >= 'A' && buf[n] <= 'Z')))
		n++;
	/* one word, and a count at most: prose is never looked at */
	if (n < NEAR_MIN - 1 || n > NEAR_MAX || (buf[n] && !is_ws(buf[n])) ||
	    command_parse_count(skip_ws(buf + n), &t.runs))
		return 0;
	/* a command's word with an 's' ("retests") is a word of prose */
	if ((buf[n - 1] == 's' || buf[n - 1] == 'S') && !lookup(buf, n - 1, &w))
		return 0;
	for (k = 0; variant(buf, n, k, v); k++) {
		if (strlen(v) < NEAR_MIN || lookup(v, strlen(v), &w))
			continue;
		for (j = 0; v[j]; j++)	/* in lower case, as the help has it */
			v[j] = (char)(v[j] | 0x20);
		snprintf(fixed, sizeof(fixed), "%s%s", v, buf + n);
		memset(&t, 0, sizeof(t));
		if (w.parse(skip_ws(buf + n), &t))
			continue;
		command_keep_arg(c, fixed);
		c->near = CMD_NEAR_TYPO;
		return 1;
	}
	return 0;
}

/*
 * "fix:" or "dup:" (a command whose text follows its ':') with nothing
 * after it: the command's name in c->arg.
 */
static int near_bare(const char *buf, command_lookup_fn lookup,
		     struct mail_command *c)
{
	struct command_word w;
	size_t n = strlen(buf);

	if (n < 2 || buf[n - 1] != ':' || lookup(buf, n - 1, &w) ||
	    !w.near_bare)
		return 0;
	snprintf(c->arg, sizeof(c->arg), "%.*s", (int)(n - 1), buf);
	c->near = CMD_NEAR_BARE;
	return 1;
}

/*
 * What mail clients write around a command that is no character of it:
 * the Unicode spaces they write for a plain one (U+00A0 no-break, U+1680,
 * U+2000 to U+200A, U+202F narrow no-break, U+205F, U+3000 ideographic)
 * read as ' ' ('*space' 1); the invisible ones (U+200B to U+200D zero
 * width, U+2060 word joiner, U+FEFF byte order mark, U+00AD soft hyphen)
 * read as nothing ('*space' 0). The width at 's', 0 for anything else.
 */
static size_t invisible(const char *s, const char *e, int *space)
{
	const unsigned char *p = (const unsigned char *)s;

	*space = 1;
	if (e - s >= 2 && p[0] == 0xc2 && (p[1] == 0xa0 || p[1] == 0xad)) {
		*space = p[1] == 0xa0;
		return 2;
	}
	if (e - s < 3)
		return 0;
	if ((p[0] == 0xe1 && p[1] == 0x9a && p[2] == 0x80) ||
	    (p[0] == 0xe2 && p[1] == 0x80 && (p[2] <= 0x8a || p[2] == 0xaf)) ||
	    (p[0] == 0xe2 && p[1] == 0x81 && p[2] == 0x9f) ||
	    (p[0] == 0xe3 && p[1] == 0x80 && p[2] == 0x80))
		return 3;
	*space = 0;
	if ((p[0] == 0xe2 && p[1] == 0x80 && p[2] >= 0x8b && p[2] <= 0x8d) ||
	    (p[0] == 0xe2 && p[1] == 0x81 && p[2] == 0xa0) ||
	    (p[0] == 0xef && p[1] == 0xbb && p[2] == 0xbf))
		return 3;
	return 0;
}

/* 'line' with those as ' ' or nothing, into 'buf' (the same or shorter). */
static size_t plain_spaces(const char *line, size_t len, char *buf)
{
	const char *s = line, *e = line + len;
	size_t n = 0, k;
	int space;

	while (s < e) {
		k = invisible(s, e, &space);
		if (!k)
			buf[n++] = *s++;
		else if (space)
			buf[n++] = ' ';
		s += k;
	}
	return n;
}

static int parse_plain(const char *line, size_t len, const char *prefix,
		       command_lookup_fn lookup, struct mail_command *c);

int command_parse_line(const char *line, size_t len, const char *prefix,
		       command_lookup_fn lookup, struct mail_command *c)
{
	char norm[4 * CMD_PARSE_MAX];

	if (len > sizeof(norm))
		return parse_plain(line, len, prefix, lookup, c);
	return parse_plain(norm, plain_spaces(line, len, norm), prefix, lookup,
			   c);
}

static int parse_plain(const char *line, size_t len, const char *prefix,
		       command_lookup_fn lookup, struct mail_command *c)
{
	char buf[CMD_PARSE_MAX + 1];
	const char *s = line, *e = line + len;
	int prefixed;

	while (s < e && is_ws(*s))
		s++;
	while (e > s && is_ws(e[-1]))
		e--;
	if (s == e)
		return 0;
	memset(c, 0, sizeof(*c));
	keep_line(c, s, (size_t)(e - s));
	prefixed = skip_prefix(&s, e, prefix);
	c->prefixed = prefixed;
	if ((size_t)(e - s) <= CMD_PARSE_MAX && !memchr(s, '\0', (size_t)(e - s))) {
		memcpy(buf, s, (size_t)(e - s));
		buf[e - s] = '\0';
		if (!parse_words(buf, lookup, c))
			return 1;
		c->runs = c->remind_line = c->colon = 0;
		c->arg[0] = '\0';
		if (lookup && (near_bare(buf, lookup, c) ||
			       near_typo(buf, lookup, c))) {
			c->kind = CMD_UNKNOWN;
			return 1;
		}
	}
	if (!prefixed)
		return 0;
	c->kind = CMD_UNKNOWN;
	c->runs = c->remind_line = c->colon = 0;
	c->arg[0] = '\0';
	return 1;
}
