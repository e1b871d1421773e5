// SPDX-License-Identifier: GPL-2.0-only
/*
 * parse: the reply's own lines. Out of the reply's plain text this cuts
 * what the sender did not write (a quoted original or forward:
 * original.c; the signature; '>' quotes and their attributions; an
 * original quoted without marks under its attribution, also the CJK
 * ones), keeps the rest as the reply's text and finds the commands in
 * it; a pasted patch or diff (patch.c) is the sender's but holds none.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "perfbot/parse/commands.h"
#include "lines.h"
#include "mime.h"
#include "quote.h"
#include "perfbot/util/text.h"

#define MAX_ATTRIBUTION 400	/* bytes of a "... wrote:" line */

static size_t split_lines(const char *text, size_t n, struct line **out)
{
	const char *p = text, *end = text + n, *nl;
	size_t count = 0, i;
	struct line *l;

	for (nl = p; nl < end && count < REPLY_MAX_LINES; count++) {
		nl = memchr(nl, '\n', (size_t)(end - nl));
		nl = nl ? nl + 1 : end;
	}
	*out = l = count ? calloc(count, sizeof(*l)) : NULL;
	if (!l)
		return 0;
	for (i = 0; i < count; i++) {
		nl = memchr(p, '\n', (size_t)(end - p));
		l[i].s = p;
		l[i].len = (size_t)((nl ? nl : end) - p);
		while (l[i].len > 0 && text_is_space(p[l[i].len - 1]))
			l[i].len--;
		p = nl ? nl + 1 : end;
	}
	return count;
}

/* Past blank lines from 'i'. */
static size_t skip_blank(const struct line *l, size_t i, size_t n)
{
	while (i < n && line_blank(&l[i]))
		i++;
	return i;
}

/* A line of digits and dots, as git's version under a "-- ". */
static int version_like(const struct line *l)
{
	return l->len > 0 && l->s[0] >= '0' && l->s[0] <= '9' &&
	       strspn(l->s, "0123456789.") >= 3;
}

/*
 * The signature's "-- " (or a bare "--"); not one that a pasted diff
 * follows (under it, or under the git version it closes), which is the
 * sender's text still.
 */
static size_t signature_cut(const struct line *l, size_t n)
{
	size_t i, k;

	for (i = 0; i < n; i++) {
		if (l[i].patch || !line_dashes(&l[i]))
			continue;
		k = skip_blank(l, i + 1, n);
		if (k < n && !l[k].patch && version_like(&l[k]))
			k = skip_blank(l, k + 1, n);
		if (k == n || !l[k].patch)
			break;
	}
	return i;
}

/* The lines under the signature's "-- " at 'at' (< n), for r->signature. */
static int keep_signature(const struct line *l, size_t at, size_t n,
			  struct reply *r)
{
	struct strbuf sb;
	size_t i;
	int rc = 0;

	sb_init(&sb, 4096);
	for (i = at + 1; i < n && i <= at + REPLY_MAX_SIGNATURE && !rc; i++)
		rc = sb_add(&sb, l[i].s, l[i].len) || sb_addc(&sb, '\n');
	if (!rc && sb.len)
		rc = !(r->signature = sb_detach(&sb, NULL));
	sb_release(&sb);
	return rc ? -1 : 0;
}

static void mark_quotes(struct line *l, size_t n)
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		for (j = 0; j < l[i].len && (l[i].s[j] == ' ' || l[i].s[j] == '\t'); j++)
			;
		l[i].quoted = j < l[i].len && l[i].s[j] == '>';
	}
}

/* The verbs an attribution ends in, before its colon. */
static const char *const attribution_verbs[] = {
	"wrote", "\xc3\xa9" "crit", "schrieb", "escribi\xc3\xb3",
	"ha scritto", "schreef", "napisa\xc5\x82", "skrev", "kirjoitti",
	NULL,
};

/*
 * The CJK and Russian ones, which open with the date rather than a word
 * ("2024年3月15日 03:58，Carol <c@x> 写道：", "2024/03/15 3:58、Carol
 * <c@x>のメール：", "15.03.2024 03:58, Carol пишет:"): 写道 寫道 のメール
 * 書きました 작성 пишет написал(а).
 */
static const char *const dated_verbs[] = {
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

/* The line without its colon (':' or '：') and the blanks before it. */
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

/* It ends in one of 'verbs' and a colon. */
static int ends_in_verb(const struct line *l, const char *const *verbs)
{
	size_t n = before_colon(l), k;

	if (l->len > MAX_ATTRIBUTION || !n)
		return 0;
	for (; *verbs; verbs++) {
		k = strlen(*verbs);
		if (n >= k && !strncasecmp(l->s + n - k, *verbs, k))
			return 1;
	}
	return 0;
}

static int dated(const struct line *l);

static int attribution(const struct line *l)
{
	return ends_in_verb(l, attribution_verbs) ||
	       (ends_in_verb(l, dated_verbs) && dated(l));
}

/* How an attribution line opens: "On", "Am", "Le", "El", "Il", "Op". */
static int attribution_opening(const struct line *l)
{
	static const char *const open[] = { "On ", "Am ", "Le ", "El ",
					    "Il ", "Op ", "W dniu ", "Den ",
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

/*
 * Real attributions carry a date and a time or an address; prose that
 * starts "On ..." and ends "... wrote:" rarely has both.
 */
static int dated(const struct line *l)
{
	size_t i;
	int digit = 0, at = 0, time = 0;

	for (i = 0; i < l->len; i++) {
		digit |= l->s[i] >= '0' && l->s[i] <= '9';
		at |= l->s[i] == '@';
		time |= i > 0 && i + 2 < l->len && l->s[i] == ':' &&
			l->s[i - 1] >= '0' && l->s[i - 1] <= '9' &&
			l->s[i + 1] >= '0' && l->s[i + 1] <= '9';
	}
	return digit && (at || time);
}

/*
 * "<opening> ... <verb> ...:" on one line or wrapped over two ('b'): the
 * verb may stand before the name ("Am 15.03. schrieb Dev <d@x>:").
 */
static int loose_attribution(const struct line *a, const struct line *b)
{
	static const char *const verbs[] = {
		" wrote", " schrieb ", " schrieb:", "\xc3\xa9" "crit",
		" escribi\xc3\xb3", " ha scritto", " schreef", " napisa\xc5\x82",
		" skrev", " kirjoitti", NULL,
	};
	const struct line *last = b ? b : a;
	const char *const *v;

	if (a->len + (b ? b->len : 0) > MAX_ATTRIBUTION || !last->len ||
	    last->s[last->len - 1] != ':' || !dated(a))
		return 0;
	for (v = verbs; *v; v++)
		if (contains_ci(a, *v) || (b && (contains_ci(b, *v) ||
						 contains_ci(b, *v + 1))))
			return 1;
	return 0;
}

/*
 * A quoted original without '>' marks (mail clients that quote in HTML
 * only, then lose it): an attribution ("Am 1. Dez. 2026 um 10:00 schrieb
 * Dev <dev@x>:", maybe wrapped over two lines; "2024年3月15日 03:58，Dev
 * <dev@x> 写道：") followed by text that is not quoted. The line count
 * left once it is cut.
 */
static size_t unquoted_original_cut(const struct line *l, size_t n)
{
	size_t i, j, at;

	for (i = 0; i < n; i++) {
		if (l[i].patch || l[i].quoted)
			continue;
		if (ends_in_verb(&l[i], dated_verbs) && dated(&l[i]))
			at = i;
		else if (!attribution_opening(&l[i]))
			continue;
		else
			at = loose_attribution(&l[i], NULL) ? i : i + 1 < n &&
				!line_blank(&l[i + 1]) &&
				loose_attribution(&l[i], &l[i + 1]) ? i + 1 : n;
		if (at == n)
			continue;
		for (j = at + 1; j < n && line_blank(&l[j]); j++)
			;
		if (j < n && !l[j].quoted)
			return i;
	}
	return n;
}

/* "On <date>, <name> wrote:" above a quote, maybe wrapped over two lines. */
static void mark_attributions(struct line *l, size_t n)
{
	size_t i, k;

	for (i = 1; i < n; i++) {
		if (!l[i].quoted || l[i - 1].quoted)
			continue;
		for (k = i; k > 0 && !l[k - 1].quoted && line_blank(&l[k - 1]);
		     k--)
			;
		if (k == 0 || l[k - 1].quoted || !attribution(&l[k - 1]))
			continue;
		k--;
		l[k].drop = 1;
		if (k > 0 && !l[k - 1].quoted && !line_blank(&l[k - 1]) &&
		    line_starts_ci(&l[k - 1], "On ") &&
		    !line_starts_ci(&l[k], "On "))
			l[k - 1].drop = 1;
	}
}

/* The kept lines, runs of blank lines as one, none at either end. */
static int emit_text(const struct line *l, size_t n, struct strbuf *out)
{
	int gap = 0, rc = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		if (l[i].drop || l[i].quoted)
			continue;
		if (line_blank(&l[i])) {
			gap = out->len > 0;
			continue;
		}
		if (gap)
			rc |= sb_addc(out, '\n');
		gap = 0;
		rc |= sb_add(out, l[i].s, l[i].len);
		rc |= sb_addc(out, '\n');
	}
	return rc;
}

static void find_commands(const struct line *l, size_t n,
			  const struct reply_opts *o, struct reply *r)
{
	struct mail_command c;
	size_t i;

	if (!o)
		return;
	for (i = 0; i < n; i++) {
		if (l[i].drop || l[i].quoted ||
		    !command_parse_line(l[i].s, l[i].len, o->prefix, o->lookup,
					&c))
			continue;
		r->ncmds_seen++;
		if (r->ncmds < REPLY_MAX_COMMANDS)
			r->cmds[r->ncmds++] = c;
	}
}

int quote_read(const char *text, size_t len, const struct reply_opts *o,
	       struct reply *r)
{
	struct strbuf out;
	struct line *l = NULL;
	size_t n = split_lines(text, len, &l), all;

	if (len > 0 && n == 0)
		return -1;
	patch_mark(l, n);
	all = original_cut(l, n);
	n = signature_cut(l, all);
	if (n < all && keep_signature(l, n, all, r)) {
		free(l);
		return -1;
	}
	mark_quotes(l, n);
	n = unquoted_original_cut(l, n);
	mark_attributions(l, n);
	sb_init(&out, REPLY_TEXT_MAX);
	if (emit_text(l, n, &out) || !(r->text = sb_detach(&out, NULL))) {
		sb_release(&out);
		free(l);
		return -1;
	}
	find_commands(l, n, o, r);
	free(l);
	return 0;
}
