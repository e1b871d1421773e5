// SPDX-License-Identifier: GPL-2.0-only
/*
 * parse: attributions, the "On <date>, <name> wrote:" lines above a
 * quoted original, in the languages of the major mail clients: above a
 * '>' quote (which quote.c drops with it), and above an original quoted
 * without marks, where they end the sender's text. Prose that reads like
 * one is told apart by the date and time or address an attribution
 * carries, and by its verb standing last, before the colon.
 */
#include <string.h>
#include <strings.h>

#include "lines.h"

#define MAX_ATTRIBUTION 400	/* bytes of a "... wrote:" line, or two */

/*
 * The verbs an attribution ends in, before its colon: wrote, a écrit,
 * schrieb, escribió, ha scritto, schreef, napisał, skrev, kirjoitti,
 * escreveu, napsal(a), írta, yazdı; 写道 寫道 のメール 書きました 작성 пишет
 * написал(а).
 */
static const char *const verbs[] = {
	"wrote", "\xc3\xa9" "crit", "schrieb", "escribi\xc3\xb3",
	"ha scritto", "schreef", "napisa\xc5\x82", "skrev", "kirjoitti",
	"escreveu", "napsal", "napsala", "\xc3\xadrta", "yazd\xc4\xb1",
	"\xe5\x86\x99\xe9\x81\x93", "\xe5\xaf\xab\xe9\x81\x93",
	"\xe3\x81\xae\xe3\x83\xa1\xe3\x83\xbc\xe3\x83\xab",
	"\xe6\x9b\xb8\xe3\x81\x8d\xe3\x81\xbe\xe3\x81\x97\xe3\x81\x9f",
	"\xec\x9e\x91\xec\x84\xb1",
	"\xd0\xbf\xd0\xb8\xd1\x88\xd0\xb5\xd1\x82",
	"\xd0\xbd\xd0\xb0\xd0\xbf\xd0\xb8\xd1\x81\xd0\xb0\xd0\xbb",
	"\xd0\xbd\xd0\xb0\xd0\xbf\xd0\xb8\xd1\x81\xd0\xb0\xd0\xbb"
	"\xd0\xb0",
	NULL,
};

/* The same where they may stand before the name ("Am ... schrieb Dev:"). */
static const char *const inner_verbs[] = {
	" wrote", " schrieb ", " schrieb:", "\xc3\xa9" "crit",
	" escribi\xc3\xb3", " ha scritto", " schreef", " napisa\xc5\x82",
	" skrev", " kirjoitti", " escreveu", NULL,
};

/* How an attribution line opens, by language. */
static int opening(const struct line *l)
{
	static const char *const open[] = { "On ", "Am ", "Le ", "El ",
		"Il ", "Op ", "W dniu ", "Den ", "Em ", "In data ", "Dne ",
		NULL };
	const char *const *o;

	for (o = open; *o; o++)
		if (line_starts_ci(l, *o))
			return 1;
	return 0;
}

static int contains_ci(const struct line *l, const char *word)
{
	size_t n = strlen(word), i;

	for (i = 0; i + n <= l->len; i++)
		if (!strncasecmp(l->s + i, word, n))
			return 1;
	return 0;
}

/* The length of 'l' without its colon (':' or '：') and blanks before it. */
static size_t before_colon(const struct line *l)
{
	size_t n = l->len;

	if (n >= 1 && l->s[n - 1] == ':')
		n--;
	else if (n >= 3 && !memcmp(l->s + n - 3, "\xef\xbc\x9a", 3))
		n -= 3;
	else
		return 0;
	while (n > 0 && text_is_space(l->s[n - 1]))
		n--;
	return n;
}

/* s[0..n) ends in one of the verbs. */
static int verb_last(const char *s, size_t n)
{
	const char *const *v;
	size_t k;

	for (v = verbs; *v; v++) {
		k = strlen(*v);
		if (n >= k && !strncasecmp(s + n - k, *v, k))
			return 1;
	}
	return 0;
}

/* It ends in a verb and a colon. */
static int ends_in_verb(const struct line *l)
{
	size_t n = before_colon(l);

	return l->len <= MAX_ATTRIBUTION && n && verb_last(l->s, n);
}

/*
 * What real attributions carry and prose rarely does: a digit, and an
 * address or a time ("03:58"), in 'a' or in its wrapped second line 'b'
 * (may be NULL).
 */
static int timed(const struct line *l);

static int dated(const struct line *a, const struct line *b)
{
	const struct line *l;
	int digit = 0, at = 0, time = 0, k;
	size_t i;

	for (k = 0; k < 2; k++) {
		l = k ? b : a;
		for (i = 0; l && i < l->len; i++) {
			digit |= l->s[i] >= '0' && l->s[i] <= '9';
			at |= l->s[i] == '@';
		}
		time |= l && timed(l);
	}
	return digit && (at || time);
}

/*
 * "<opening> ... <verb> ...:" on one line or wrapped over two ('b'): the
 * verb may stand before the name ("Am 15.03. schrieb Dev <d@x>:").
 */
static int loose(const struct line *a, const struct line *b)
{
	const struct line *last = b ? b : a;
	const char *const *v;

	if (!opening(a) || a->len + (b ? b->len : 0) > MAX_ATTRIBUTION ||
	    !last->len || last->s[last->len - 1] != ':' || !dated(a, NULL))
		return 0;
	for (v = inner_verbs; *v; v++)
		if (contains_ci(a, *v) || (b && (contains_ci(b, *v) ||
						 contains_ci(b, *v + 1))))
			return 1;
	return 0;
}

/* A time, "03:58". */
static int timed(const struct line *l)
{
	size_t i;

	for (i = 1; i + 2 < l->len; i++)
		if (l->s[i] == ':' && l->s[i - 1] >= '0' && l->s[i - 1] <= '9' &&
		    l->s[i + 1] >= '0' && l->s[i + 1] <= '9' &&
		    l->s[i + 2] >= '0' && l->s[i + 2] <= '9')
			return 1;
	return 0;
}

/* A time written with a dot between commas: ", 18.30,". */
static int dotted_time(const struct line *l)
{
	size_t i;

	for (i = 0; i + 5 < l->len; i++) {
		const char *p = l->s + i;
		size_t h = 0;

		if (p[0] != ',' || p[1] != ' ')
			continue;
		while (h < 2 && i + 2 + h < l->len && p[2 + h] >= '0' &&
		       p[2 + h] <= '9')
			h++;
		if (h && i + h + 5 < l->len && p[2 + h] == '.' &&
		    p[3 + h] >= '0' && p[3 + h] <= '9' && p[4 + h] >= '0' &&
		    p[4 + h] <= '9' && p[5 + h] == ',')
			return 1;
	}
	return 0;
}

/*
 * Gmail's in some languages: "ср, 30 апр. 2025 г. в 15:19, Dev <d@x>:";
 * one with the time written "18.30": "30.09.2017, 18.30, Dev <d@x>:".
 */
static int dated_address(const struct line *l)
{
	size_t n = l->len;

	return n > 4 && n <= MAX_ATTRIBUTION && !memcmp(l->s + n - 2, ">:", 2) &&
	       memchr(l->s, '<', n) && memchr(l->s, '@', n) &&
	       (timed(l) || dotted_time(l));
}

/* Zoho's "---- On Wed, 24 Feb 2021 14:02:50 +0530 d@x wrote ----". */
static int dashed(const struct line *l)
{
	struct line m = *l;

	if (m.len < 8 || m.len > MAX_ATTRIBUTION || memcmp(m.s, "--", 2) ||
	    memcmp(m.s + m.len - 2, "--", 2))
		return 0;
	while (m.len && *m.s == '-') {
		m.s++;
		m.len--;
	}
	while (m.len && m.s[m.len - 1] == '-')
		m.len--;
	while (m.len && text_is_space(*m.s)) {
		m.s++;
		m.len--;
	}
	while (m.len && text_is_space(m.s[m.len - 1]))
		m.len--;
	return opening(&m) && verb_last(m.s, m.len) && dated(&m, NULL);
}

int attribution_line(const struct line *l)
{
	return ends_in_verb(l) || dashed(l) || dated_address(l);
}

size_t attribution_unquoted(const struct line *l, size_t i, size_t n)
{
	const struct line *b = i + 1 < n && !line_blank(&l[i + 1]) ?
		&l[i + 1] : NULL;

	if (loose(&l[i], NULL) || dashed(&l[i]) ||
	    (ends_in_verb(&l[i]) && dated(&l[i], NULL)) ||
	    dated_address(&l[i]))
		return i;
	if (!b || l[i].len + b->len > MAX_ATTRIBUTION)
		return n;
	if (loose(&l[i], b))
		return i + 1;
	/* wrapped before the address: "... John Coe\n<j@x> kirjoitti:" */
	if ((b->s[0] == '<' || b->s[0] == '(' || memchr(b->s, '@', b->len)) &&
	    ends_in_verb(b) && dated(&l[i], b))
		return i + 1;
	return n;
}
