// SPDX-License-Identifier: GPL-2.0-only
/*
 * parse: pasted patches and diffs in a reply. A developer pastes a `git
 * format-patch` (from its "From <sha>" line, escaped ">From" as mbox
 * tools write it, or from its From:/Date:/Subject: [PATCH] lines) or a
 * bare unified diff; it is the sender's own mail, so it ends nothing (its
 * header is no quoted original, its "-- " no signature, and a command
 * below it counts), but no line of it is a command: a hunk is read by its
 * line counts, so a " retest 3x" context line stays in it.
 */
#include <stdlib.h>
#include <string.h>

#include "lines.h"
#include "perfbot/util/strbuf.h"

/* "From <40 hex> Mon Sep 17 00:00:00 2001", maybe escaped ">From". */
static int from_sha_line(const struct line *l)
{
	const char *s = l->s;
	size_t n = l->len, i;

	while (n > 0 && *s == '>') {
		s++;
		n--;
	}
	if (n != 5 + 40 + 1 + 24 || strncmp(s, "From ", 5) ||
	    memcmp(s + 46, "Mon Sep 17 00:00:00 2001", 24))
		return 0;
	for (i = 5; i < 45; i++)
		if (!strchr("0123456789abcdef", s[i]))
			return 0;
	return 1;
}

/*
 * git's version under its "-- ": "2.43.0", "2.39.3 (Apple Git-145)",
 * "2.45.1.windows.1"; 'strict' asks for two dots at least, as git's own
 * versions have them, where no patch is around to tell.
 */
static int version_line(const struct line *l, int strict)
{
	size_t i, dots = 0;

	if (!l->len || l->s[0] < '0' || l->s[0] > '9')
		return 0;
	for (i = 0; i < l->len && l->s[i] != ' '; i++) {
		dots += l->s[i] == '.';
		if (!strchr("0123456789.", l->s[i]) && l->s[i] != '-' &&
		    !(l->s[i] >= 'a' && l->s[i] <= 'z'))
			return 0;
	}
	if (strict && dots < 2)
		return 0;
	return i == l->len || (l->len > i + 1 && l->s[i + 1] == '(' &&
			       l->s[l->len - 1] == ')');
}

/* The lines of a diff's file header (what comes before its hunks). */
static int file_header(const struct line *l)
{
	static const char *const heads[] = { "diff --git ", "diff -", "index ",
		"new file mode", "deleted file mode", "similarity index",
		"dissimilarity index", "rename from", "rename to", "copy from",
		"copy to", "old mode", "new mode", "Binary files",
		"GIT binary patch", NULL };
	const char *const *h;

	for (h = heads; *h; h++)
		if (line_starts(l, *h))
			return 1;
	return 0;
}

/* "--- a" then "+++ b" at i. */
static int minus_plus(const struct line *l, size_t i, size_t n)
{
	return i + 1 < n && line_starts(&l[i], "--- ") &&
	       line_starts(&l[i + 1], "+++ ");
}

/*
 * Where a diff starts: "diff --git", a combined diff's "diff --cc" or
 * "diff --combined" (a merge's, as merge-fixup mails paste them), or
 * "--- "/"+++ " then "@@".
 */
static int diff_start(const struct line *l, size_t i, size_t n)
{
	return line_starts(&l[i], "diff --git ") ||
	       line_starts(&l[i], "diff --cc ") ||
	       line_starts(&l[i], "diff --combined ") ||
	       (minus_plus(l, i, n) && i + 2 < n && line_starts(&l[i + 2], "@@ "));
}

/* A number at '*p' (at most 9 digits); 0 when there is none. */
static int number(const char **p, const char *e, long *v)
{
	int k = 0;

	for (*v = 0; *p < e && **p >= '0' && **p <= '9' && k < 9; (*p)++, k++)
		*v = *v * 10 + (**p - '0');
	return k > 0;
}

/* "@@ -a[,b] +c[,d] @@": the line counts b and d (1 when not given). */
static int hunk_counts(const struct line *l, long *old, long *new)
{
	const char *p = l->s + 3, *e = l->s + l->len;
	long v;

	*old = *new = 1;
	if (p >= e || *p++ != '-' || !number(&p, e, &v))
		return 0;
	if (p < e && *p == ',' && (p++, !number(&p, e, old)))
		return 0;
	if (p + 1 >= e || *p++ != ' ' || *p++ != '+' || !number(&p, e, &v))
		return 0;
	if (p < e && *p == ',' && (p++, !number(&p, e, new)))
		return 0;
	return p + 3 <= e && !memcmp(p, " @@", 3);
}

/* A context line whose blank a mail client made a no-break space. */
static int nbsp(const struct line *l)
{
	return l->len >= 2 && (unsigned char)l->s[0] == 0xc2 &&
	       (unsigned char)l->s[1] == 0xa0;
}

/* A hunk's body line: context (a lost blank too), '-', '+', '\'. */
static int hunk_line(const struct line *l)
{
	return !l->len || strchr(" -+\\", l->s[0]);
}

/*
 * Past the hunk whose header is at 'i': as many lines as its counts say
 * (a blank line is a context line that lost its blank); a header that
 * does not parse, or a mangled line, ends it where the diff lines end.
 */
static size_t hunk_end(const struct line *l, size_t i, size_t n)
{
	long old, new;
	size_t j = i + 1;
	char c;

	if (!hunk_counts(&l[i], &old, &new)) {
		while (j < n && hunk_line(&l[j]) && !line_blank(&l[j]))
			j++;
		return j;
	}
	for (; j < n && (old > 0 || new > 0); j++) {
		c = l[j].len ? l[j].s[0] : ' ';
		if (c == ' ' || c == '\t' || nbsp(&l[j])) {
			old--;
			new--;
		} else if (c == '-') {
			old--;
		} else if (c == '+') {
			new--;
		} else if (c != '\\') {
			break;
		}
	}
	while (j < n && l[j].len && l[j].s[0] == '\\')	/* No newline */
		j++;
	return j;
}

/* Past blank lines from 'i'. */
static size_t skip_blank(const struct line *l, size_t i, size_t n)
{
	while (i < n && line_blank(&l[i]))
		i++;
	return i;
}

/* A combined diff's body line: a column of ' ', '-', '+' per parent. */
static int combined_line(const struct line *l, size_t parents)
{
	size_t k;

	if (l->len < parents)
		return 0;
	for (k = 0; k < parents; k++)
		if (!strchr(" -+", l->s[k]))
			return 0;
	return 1;
}

/*
 * Past a combined diff's hunk ("@@@ -a,b -c,d +e,f @@@", one '@' more
 * than its parents) at 'i': its body lines, and blank ones (a context
 * line that lost its blanks) that more body lines follow.
 */
static size_t combined_hunk_end(const struct line *l, size_t i, size_t n)
{
	size_t parents = 0, j, k;

	while (parents < l[i].len && l[i].s[parents] == '@')
		parents++;
	parents--;
	for (j = i + 1; j < n; j++) {
		if (combined_line(&l[j], parents))
			continue;
		k = skip_blank(l, j, n);
		if (k == j || k == n || !combined_line(&l[k], parents))
			break;
		j = k;
	}
	return j;
}

/* A "-- " then git's version at 'i': past it, else 'i'. */
static size_t trailer_end(const struct line *l, size_t i, size_t n)
{
	size_t k = skip_blank(l, i, n);

	return k + 1 < n && line_dashes(&l[k]) && version_line(&l[k + 1], 0) ?
		k + 2 : i;
}

/* A git binary patch's "literal N" or "delta N" and its base85 lines. */
static int binary_start(const struct line *l)
{
	return (line_starts(l, "literal ") || line_starts(l, "delta ")) &&
	       l->s[l->len - 1] >= '0' && l->s[l->len - 1] <= '9';
}

/* Past the diff that starts at 'i': its files, hunks and trailer. */
static size_t diff_end(const struct line *l, size_t i, size_t n)
{
	size_t j = i, k;

	while (j < n) {
		if (binary_start(&l[j])) {
			for (j++; j < n && !line_blank(&l[j]); j++)
				;
		} else if (file_header(&l[j])) {
			j++;
		} else if (minus_plus(l, j, n)) {
			j += 2;
		} else if (line_starts(&l[j], "@@ ")) {
			j = hunk_end(l, j, n);
		} else if (line_starts(&l[j], "@@@")) {
			j = combined_hunk_end(l, j, n);
		} else if (line_blank(&l[j]) &&
			   (k = skip_blank(l, j, n)) < n &&
			   (file_header(&l[k]) || minus_plus(l, k, n) ||
			    binary_start(&l[k]) || line_starts(&l[k], "@@ "))) {
			j = k;
		} else {
			break;
		}
	}
	return trailer_end(l, j, n);
}

/*
 * git format-patch's own header at 'i': From:, Date:, Subject: [...],
 * with a diff below it (the last diff of the text starts at 'last').
 */
static int patch_header(const struct line *l, size_t i, size_t n,
			size_t last)
{
	return i + 2 < n && last < n && last > i + 2 &&
	       line_starts(&l[i], "From: ") && line_starts(&l[i + 1], "Date: ") &&
	       line_starts(&l[i + 2], "Subject: [");
}

/*
 * Past the patch whose header starts at 'i': its message, "---" and
 * diffstat, then its diff (or a bare "-- " trailer); to the end when
 * neither comes.
 */
static size_t patch_end(const struct line *l, size_t i, size_t n)
{
	size_t j;

	for (j = i + 1; j < n; j++) {
		if (diff_start(l, j, n))
			return diff_end(l, j, n);
		if (line_dashes(&l[j]) && j + 1 < n &&
		    version_line(&l[j + 1], 0))
			return j + 2;
	}
	return n;
}

void patch_mark(struct line *l, size_t n)
{
	size_t i, j, end, last = n;

	for (i = n; i > 0 && last == n; i--)
		if (diff_start(l, i - 1, n))
			last = i - 1;
	for (i = 0; i < n; i++) {
		if (from_sha_line(&l[i]) || patch_header(l, i, n, last))
			end = patch_end(l, i, n);
		else if (diff_start(l, i, n))
			end = diff_end(l, i, n);
		else if (line_dashes(&l[i]) && i + 1 < n &&
			 version_line(&l[i + 1], 1))
			end = i + 2;	/* git's trailer (a cover letter's) */
		else
			continue;
		for (j = i; j < end; j++) {
			l[j].patch = 1;
			l[j].drop = 1;
		}
		i = end - 1;
	}
}

/* ------------------------------------------------------------------ */
/* The sender's patch, as bytes                                        */

/* Where line 'i' ends as written (its trailing blanks too). */
static size_t raw_len(const struct line *l, size_t i, size_t n,
		      const char *end)
{
	const char *stop = i + 1 < n ? l[i + 1].s : end;
	const char *nl = memchr(l[i].s, '\n', (size_t)(stop - l[i].s));

	return (size_t)((nl ? nl : stop) - l[i].s);
}

/* The hunk being read: the old and new lines still to come. */
struct hunk_left {
	long old, new;
};

/*
 * One line of a hunk, its blank given back when a mail client took it
 * (an empty line, a tab first, a no-break space first); 1 when repaired.
 */
static int hunk_put(struct hunk_left *h, const char *s, size_t len,
		    struct strbuf *out, int *rc)
{
	char c = len ? s[0] : '\0';
	int repaired = 0;

	if (c == '-') {
		h->old--;
	} else if (c == '+') {
		h->new--;
	} else if (c != '\\') {
		h->old--;
		h->new--;
		if (len >= 2 && (unsigned char)s[0] == 0xc2 &&
		    (unsigned char)s[1] == 0xa0) {
			s += 2;
			len -= 2;
			repaired = 1;
		} else if (c != ' ') {
			repaired = 1;
		}
		if (repaired)
			*rc |= sb_addc(out, ' ');
	}
	*rc |= sb_add(out, s, len) || sb_addc(out, '\n');
	return repaired;
}

int patch_extract(const struct line *l, size_t n, const char *end,
		  struct strbuf *out, size_t *hunks, size_t *repaired)
{
	struct hunk_left h = { 0, 0 };
	size_t i, len;
	int rc = 0;

	*hunks = *repaired = 0;
	for (i = 0; i < n && !rc; i++) {
		if (!l[i].patch || l[i].theirs) {
			h.old = h.new = 0;
			continue;
		}
		len = raw_len(l, i, n, end);
		if (h.old > 0 || h.new > 0) {
			*repaired += (size_t)hunk_put(&h, l[i].s, len, out, &rc);
			continue;
		}
		if (line_starts(&l[i], "@@ ") &&
		    hunk_counts(&l[i], &h.old, &h.new))
			(*hunks)++;
		rc |= sb_add(out, l[i].s, len) || sb_addc(out, '\n');
	}
	return rc ? -1 : 0;
}

size_t patch_hunks(const char *text, size_t len)
{
	const char *p = text, *e = text + len, *nl;
	struct line one;
	size_t hunks = 0;
	long old, new;

	for (; p < e; p = nl ? nl + 1 : e) {
		nl = memchr(p, '\n', (size_t)(e - p));
		one.s = p;
		one.len = (size_t)((nl ? nl : e) - p);
		if (line_starts(&one, "@@ ") && hunk_counts(&one, &old, &new))
			hunks++;
	}
	return hunks;
}
