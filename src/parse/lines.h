/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_LINES_H
#define PERFBOT_LINES_H

#include <stddef.h>
#include <string.h>
#include <strings.h>

#include "perfbot/util/strbuf.h"
#include "perfbot/util/text.h"

/*
 * The lines of a reply's text as the parts of src/parse/ that find the
 * sender's own lines share them (quote.c, original.c, patch.c): each a
 * slice of the text, with what the rules found about it.
 */

struct line {
	const char *s;
	size_t len;		/* without trailing blanks */
	unsigned char quoted;	/* starts with '>' */
	unsigned char drop;	/* not the sender's text */
	unsigned char patch;	/* part of a pasted patch or diff: no command,
				 * no quote, no signature, no original */
	unsigned char theirs;	/* in a forward somebody else wrote */
};

static inline int line_blank(const struct line *l)
{
	size_t i;

	for (i = 0; i < l->len; i++)
		if (!text_is_space(l->s[i]))
			return 0;
	return 1;
}

static inline int line_starts_ci(const struct line *l, const char *prefix)
{
	size_t n = strlen(prefix);

	return l->len >= n && !strncasecmp(l->s, prefix, n);
}

static inline int line_starts(const struct line *l, const char *prefix)
{
	size_t n = strlen(prefix);

	return l->len >= n && !memcmp(l->s, prefix, n);
}

static inline int line_ends_ci(const struct line *l, const char *suffix)
{
	size_t n = strlen(suffix);

	return l->len >= n && !strncasecmp(l->s + l->len - n, suffix, n);
}

/* "--" (a "-- " line has its trailing blank trimmed). */
static inline int line_dashes(const struct line *l)
{
	return l->len == 2 && !memcmp(l->s, "--", 2);
}

/*
 * Mark the pasted patches and diffs of l[0..n) (patch.c): a git
 * format-patch from its "From <sha>" line (also escaped ">From", as mbox
 * tools write it) or from its From:/Date:/Subject: [...] header, and any
 * unified diff (diff --git, ---/+++, @@ hunks read by their line counts,
 * git's binary patches), each with its "-- " version trailer, and git's
 * trailer alone (a cover letter's "-- " and "2.43.0").
 */
void patch_mark(struct line *l, size_t n);

/*
 * Append to 'out' the lines of l[0..n) that patch_mark() marked and that
 * are the sender's (not in a forward; a '>' quote is never marked, but
 * for the mbox escape ">From" of a patch's first line), each as written up to
 * its newline ('end' is the end of the text the lines are in), with the
 * damage mail clients do to a hunk repaired: a context line that lost its
 * leading blank (an empty line, one starting with a tab) or had it turned
 * into a no-break space gets its blank back. '*hunks' the hunks found
 * ("@@ -a,b +c,d @@"), '*repaired' the lines given their blank back.
 * -1 when 'out' is full.
 */
int patch_extract(const struct line *l, size_t n, const char *end,
		  struct strbuf *out, size_t *hunks, size_t *repaired);

/* The hunks of a patch's text ("@@ -a,b +c,d @@" lines that parse). */
size_t patch_hunks(const char *text, size_t len);

/*
 * The line count of l[0..n) left once the quoted originals are cut
 * (original.c): a block of header lines ("From:", "Sent:", "To:",
 * "Subject:" in the major clients' languages, any order), a separator
 * ("-----Original Message-----", "-------- Forwarded Message --------",
 * "Begin forwarded message:"). A mutt forward with its end line is
 * dropped alone, the text after it kept.
 */
size_t original_cut(struct line *l, size_t n);

/*
 * 1 when 'l' is an attribution above a '>' quote (attribution.c): it
 * ends in an attribution verb and its colon ("On ..., Dev wrote:",
 * "... 写道："), or is Gmail's "..., Dev <d@x>:" or Zoho's dashed one.
 */
int attribution_line(const struct line *l);

/*
 * An attribution at l[i] above an original quoted without marks, maybe
 * wrapped onto l[i + 1]: the index of its last line, or 'n' when there
 * is none. It must carry a date and a time or an address, and open with
 * "On", "Am", "Le" ... or end in its verb ("2024年3月15日 03:58，Dev
 * <d@x> 写道：", "In data ... ha scritto:").
 */
size_t attribution_unquoted(const struct line *l, size_t i, size_t n);

#endif
