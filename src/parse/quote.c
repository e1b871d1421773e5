// SPDX-License-Identifier: GPL-2.0-only
/*
 * parse: the reply's own lines. Out of the reply's plain text this cuts
 * what the sender did not write (an inline patch, Outlook's quoted
 * original, the signature, '>' quotes and their attributions, an original
 * quoted without marks), keeps the rest as the reply's text and finds the
 * commands in it.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "perfbot/parse/commands.h"
#include "mime.h"
#include "quote.h"
#include "perfbot/util/text.h"

#define MAX_ATTRIBUTION 400	/* bytes of a "... wrote:" line */

struct line {
	const char *s;
	size_t len;		/* without trailing blanks */
	unsigned char quoted;
	unsigned char drop;
	unsigned char patch;	/* part of an inline git format-patch */
};

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

static int blank(const struct line *l)
{
	size_t i;

	for (i = 0; i < l->len; i++)
		if (!text_is_space(l->s[i]))
			return 0;
	return 1;
}

static int starts_ci(const struct line *l, const char *prefix)
{
	size_t n = strlen(prefix);

	return l->len >= n && !strncasecmp(l->s, prefix, n);
}

static int ends_ci(const struct line *l, const char *suffix)
{
	size_t n = strlen(suffix);

	return l->len >= n && !strncasecmp(l->s + l->len - n, suffix, n);
}

/* "-----Original Message-----", any case, any run of dashes. */
static int outlook_separator(const struct line *l)
{
	const char *s = l->s, *e = l->s + l->len;
	size_t lead = 0, trail = 0;

	while (s < e && text_is_space(*s))
		s++;
	for (; s < e && *s == '-'; s++)
		lead++;
	for (; e > s && e[-1] == '-'; e--)
		trail++;
	while (s < e && text_is_space(*s))
		s++;
	while (e > s && text_is_space(e[-1]))
		e--;
	return lead >= 2 && trail >= 2 && e - s == 16 &&
	       !strncasecmp(s, "original message", 16);
}

/* "From: ...", also "*From:* ..." as Outlook writes bold in plain text. */
static int is_hdr(const struct line *l, const char *name)
{
	size_t i = 0, n = strlen(name);

	while (i < l->len && (text_is_space(l->s[i]) || l->s[i] == '*'))
		i++;
	if (l->len - i < n + 1 || strncasecmp(l->s + i, name, n))
		return 0;
	for (i += n; i < l->len && l->s[i] == '*'; i++)
		;
	return i < l->len && l->s[i] == ':';
}

/* The header names Outlook writes above a quoted original, by language. */
static const char *const hdr_from[] = { "From", "Von", "De", "Da", "Van",
					NULL };
static const char *const hdr_sent[] = { "Sent", "Date", "Gesendet",
					"Datum", "Envoy\xc3\xa9", "Enviado",
					"Inviato", "Verzonden", NULL };
static const char *const hdr_to[] = { "To", "Cc", "An", "\xc3\x80",
				      "A", "Para", "Aan", NULL };
static const char *const hdr_subject[] = { "Subject", "Betreff", "Objet",
					   "Asunto", "Oggetto", "Onderwerp",
					   NULL };

static int is_hdr_any(const struct line *l, const char *const *names)
{
	for (; *names; names++)
		if (is_hdr(l, *names))
			return 1;
	return 0;
}

/*
 * From: / Sent: (or Date:) / To: / Cc: / Subject: of a quoted original,
 * in English, German, French, Spanish, Italian or Dutch. Never inside an
 * inline patch, whose From:/Date:/Subject: look the same.
 */
static int outlook_block(const struct line *l, size_t i, size_t n)
{
	size_t j;

	if (i + 2 >= n || l[i].patch || !is_hdr_any(&l[i], hdr_from) ||
	    !is_hdr_any(&l[i + 1], hdr_sent))
		return 0;
	for (j = i + 2; j < n && j <= i + 5; j++) {
		if (is_hdr_any(&l[j], hdr_subject))
			return 1;
		if (!is_hdr_any(&l[j], hdr_to))
			return 0;
	}
	return 0;
}

static int underscores(const struct line *l)
{
	size_t i, n = 0;

	for (i = 0; i < l->len; i++) {
		if (l->s[i] == '_')
			n++;
		else if (!text_is_space(l->s[i]))
			return 0;
	}
	return n >= 10;
}

/* The line count left once Outlook's quoted original is cut. */
static size_t outlook_cut(const struct line *l, size_t n)
{
	size_t i, k;

	for (i = 0; i < n; i++)
		if (!l[i].patch &&
		    (outlook_separator(&l[i]) || outlook_block(l, i, n)))
			break;
	if (i == n)
		return n;
	/* Outlook on the web rules the original off with underscores. */
	for (k = i; k > 0 && blank(&l[k - 1]); k--)
		;
	return k > 0 && underscores(&l[k - 1]) ? k - 1 : i;
}

static size_t signature_cut(const struct line *l, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		/* 'len' has trailing blanks trimmed: "-- " reads as "--". */
		if (!l[i].patch && l[i].len == 2 && !memcmp(l[i].s, "--", 2))
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

static const char *const attribution_verbs[] = {
	"wrote:", "\xc3\xa9" "crit :", "\xc3\xa9" "crit:", "schrieb:",
	"schrieb :", "escribi\xc3\xb3:", "ha scritto:", "schreef:",
	"napisa\xc5\x82:", "skrev:", "kirjoitti:", NULL,
};

static int attribution(const struct line *l)
{
	const char *const *v;

	if (l->len > MAX_ATTRIBUTION)
		return 0;
	for (v = attribution_verbs; *v; v++)
		if (ends_ci(l, *v))
			return 1;
	return 0;
}

/* How an attribution line opens: "On", "Am", "Le", "El", "Il", "Op". */
static int attribution_opening(const struct line *l)
{
	static const char *const open[] = { "On ", "Am ", "Le ", "El ",
					    "Il ", "Op ", "W dniu ", "Den ",
					    NULL };
	const char *const *o;

	for (o = open; *o; o++)
		if (starts_ci(l, *o))
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
 * Dev <dev@x>:", maybe wrapped over two lines) followed by text that is
 * not quoted. The line count left once it is cut.
 */
static size_t unquoted_original_cut(const struct line *l, size_t n)
{
	size_t i, j, at;

	for (i = 0; i < n; i++) {
		if (l[i].patch || !attribution_opening(&l[i]))
			continue;
		at = loose_attribution(&l[i], NULL) ? i : i + 1 < n &&
			!blank(&l[i + 1]) && loose_attribution(&l[i], &l[i + 1])
			? i + 1 : n;
		if (at == n)
			continue;
		for (j = at + 1; j < n && blank(&l[j]); j++)
			;
		if (j < n && !l[j].quoted)
			return i;
	}
	return n;
}

/* "From <40 hex> Mon Sep 17 00:00:00 2001": git format-patch's first line */
static int patch_start(const struct line *l)
{
	size_t i;

	if (l->len != 5 + 40 + 1 + 24 || strncmp(l->s, "From ", 5) ||
	    memcmp(l->s + 46, "Mon Sep 17 00:00:00 2001", 24))
		return 0;
	for (i = 5; i < 45; i++)
		if (!strchr("0123456789abcdef", l->s[i]))
			return 0;
	return 1;
}

static int version_line(const struct line *l)
{
	size_t i;

	if (!l->len || l->s[0] < '0' || l->s[0] > '9')
		return 0;
	for (i = 0; i < l->len; i++)
		if (!strchr("0123456789.", l->s[i]) && l->s[i] != '-' &&
		    !(l->s[i] >= 'a' && l->s[i] <= 'z'))
			return 0;
	return 1;
}

/* A line a diff is made of (context lines may have lost their blank). */
static int diff_line(const struct line *l)
{
	static const char *const heads[] = { "diff ", "index ", "--- ",
					     "+++ ", "@@ ", "new file",
					     "deleted file", "similarity ",
					     "rename ", "old mode", "new mode",
					     "Binary files", "\\ No newline",
					     NULL };
	const char *const *h;

	if (l->s[0] == '+' || l->s[0] == '-' || l->s[0] == ' ')
		return 1;
	for (h = heads; *h; h++)
		if (starts_ci(l, *h))
			return 1;
	return 0;
}

/*
 * An inline `git format-patch`: from its "From <sha>" line to its "-- "
 * and version lines, or to the end of its diff. Its From:/Date:/Subject:
 * are not an Outlook original, its "-- " no signature, and nothing in it
 * is a command.
 */
static void mark_patches(struct line *l, size_t n)
{
	size_t i, j, end;
	int in_diff;

	for (i = 0; i < n; i++) {
		if (!patch_start(&l[i]))
			continue;
		end = n;
		in_diff = 0;
		for (j = i + 1; j < n; j++) {
			if (l[j].len == 2 && !memcmp(l[j].s, "--", 2) &&
			    j + 1 < n && version_line(&l[j + 1])) {
				end = j + 2;
				break;
			}
			if (starts_ci(&l[j], "diff --git "))
				in_diff = 1;
			else if (in_diff && !diff_line(&l[j]) &&
				 !(l[j].s[0] == '\n' && j + 1 < n &&
				   diff_line(&l[j + 1]))) {
				end = j;
				break;
			}
		}
		for (j = i; j < end; j++) {
			l[j].patch = 1;
			l[j].drop = 1;
		}
		i = end - 1;
	}
}

/* "On <date>, <name> wrote:" above a quote, maybe wrapped over two lines. */
static void mark_attributions(struct line *l, size_t n)
{
	size_t i, k;

	for (i = 1; i < n; i++) {
		if (!l[i].quoted || l[i - 1].quoted)
			continue;
		for (k = i; k > 0 && !l[k - 1].quoted && blank(&l[k - 1]); k--)
			;
		if (k == 0 || l[k - 1].quoted || !attribution(&l[k - 1]))
			continue;
		k--;
		l[k].drop = 1;
		if (k > 0 && !l[k - 1].quoted && !blank(&l[k - 1]) &&
		    starts_ci(&l[k - 1], "On ") && !starts_ci(&l[k], "On "))
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
		if (blank(&l[i])) {
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
	mark_patches(l, n);
	all = outlook_cut(l, n);
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
