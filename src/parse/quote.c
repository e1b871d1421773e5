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

/*
 * The line a phone or a mail app puts under what was typed ("Sent from
 * my iPhone", "Gesendet von Outlook für Android", "Envoyé de mon
 * iPad"): short, no comma, one of these openings. What is below it is an
 * original, not the sender's.
 */
static int app_signature(const struct line *l)
{
	static const char *const open[] = { "Sent from my ", "Sent from Mail ",
		"Sent from Outlook", "Sent from Yahoo", "Sent from TypeApp",
		"Get Outlook for ", "Gesendet von meinem ", "Gesendet von Outlook",
		"Von meinem iPhone gesendet", "Envoy\xc3\xa9 de mon ",
		"Envoy\xc3\xa9 \xc3\xa0 partir de ", "Enviado desde mi ",
		"Enviado do meu ", "Inviato da ", "Verzonden vanaf mijn ",
		"Verstuurd vanaf mijn ", "Skickat fr\xc3\xa5n min ",
		"Sendt fra min ", NULL };
	const char *const *o;

	if (l->quoted || l->len > 80 || memchr(l->s, ',', l->len))
		return 0;
	for (o = open; *o; o++)
		if (line_starts_ci(l, *o))
			return 1;
	return 0;
}

/*
 * The signature's "-- " (or a bare "--"); not one that a pasted diff
 * follows, which is the sender's text still (git's own "-- " and version
 * are part of its patch: patch.c). '*dashes' 0 when the cut is an app's line instead.
 */
static size_t signature_cut(const struct line *l, size_t n, int *dashes)
{
	size_t i, k;

	*dashes = 1;
	for (i = 0; i < n; i++) {
		if (l[i].patch)
			continue;
		if (app_signature(&l[i])) {
			*dashes = 0;
			break;
		}
		if (!line_dashes(&l[i]))
			continue;
		k = skip_blank(l, i + 1, n);
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
		at = attribution_unquoted(l, i, n);
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
		if (k == 0 || l[k - 1].quoted || !attribution_line(&l[k - 1]))
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

/*
 * Lines the sender wrote as part of something else, never as a command:
 * indented by a tab or four blanks (code, Kconfig's "help", a commit
 * message as git log shows it), the rest of a shell line ended by '\\',
 * or the rest of a line of prose a mail client wrapped (a line above
 * of the length they wrap at that ends in a word: "... in the thread at"
 * then "fix: https://...").
 */
#define WRAPPED_MIN 60		/* a line that long (as mail clients wrap */
#define WRAPPED_MAX 100		/* them) that ends in a word */

static int part_of_other(const struct line *l, size_t i)
{
	const struct line *up = i ? &l[i - 1] : NULL;
	char last;

	if (l[i].len && (l[i].s[0] == '\t' || line_starts(&l[i], "    ")))
		return 1;
	if (!up || up->quoted || up->drop || line_blank(up))
		return 0;
	last = up->s[up->len - 1];
	return last == '\\' || (up->len >= WRAPPED_MIN &&
				 up->len <= WRAPPED_MAX && ((last >= 'a' && last <= 'z') ||
				  (last >= 'A' && last <= 'Z')));
}

/*
 * "Fix:" over an indented line is a heading (a commit message's "Fix:"
 * then the error it fixes), no "fix:" whose title was left out.
 */
static int heading(const struct line *l, size_t i, size_t n,
		   const struct mail_command *c)
{
	i = skip_blank(l, i + 1, n);
	return c->near == CMD_NEAR_BARE && i < n && l[i].len &&
	       text_is_space(l[i].s[0]);
}

static void find_commands(const struct line *l, size_t n,
			  const struct reply_opts *o, struct reply *r)
{
	struct mail_command c;
	size_t i;

	if (!o)
		return;
	for (i = 0; i < n; i++) {
		if (l[i].drop || l[i].quoted || part_of_other(l, i) ||
		    !command_parse_line(l[i].s, l[i].len, o->prefix, o->lookup,
					&c) || heading(l, i, n, &c))
			continue;
		r->ncmds_seen++;
		if (r->ncmds < REPLY_MAX_COMMANDS)
			r->cmds[r->ncmds++] = c;
	}
}

/*
 * The patch in the sender's text: every pasted patch or diff before the
 * quoted original or forward cut at 'all' (below the signature too, and
 * below the quoted report), but none in a quote, in a mutt forward or
 * under an attribution of an original quoted without marks.
 */
static int keep_patch(struct line *l, size_t all, const char *text,
		      size_t len, struct reply *r)
{
	struct reply_patch *p = &r->patch;
	struct strbuf sb;
	size_t i, n, repaired;

	for (i = 0; i < all && !l[i].patch; i++)
		;
	if (i == all)
		return 0;
	mark_quotes(l, all);
	n = unquoted_original_cut(l, all);
	sb_init(&sb, REPLY_TEXT_MAX);
	if (patch_extract(l, n, text + len, &sb, &p->hunks, &repaired) ||
	    (sb.len && !(p->text = sb_detach(&sb, &p->len)))) {
		sb_release(&sb);
		return -1;
	}
	p->repaired = repaired;
	sb_release(&sb);
	return 0;
}

int quote_read(const char *text, size_t len, const struct reply_opts *o,
	       struct reply *r)
{
	struct strbuf out;
	struct line *l = NULL;
	size_t n = split_lines(text, len, &l), all;
	int dashes, rc;

	if (len > 0 && n == 0)
		return -1;
	patch_mark(l, n);
	all = original_cut(l, n);
	n = signature_cut(l, all, &dashes);
	if (n < all && dashes && keep_signature(l, n, all, r)) {
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
	rc = keep_patch(l, all, text, len, r);
	free(l);
	return rc;
}
