// SPDX-License-Identifier: GPL-2.0-only
/*
 * ingest: a commit message of the tracked tree read for what perfbot
 * follows (trailers.h): its title, its trailers (the last paragraph, as
 * git interpret-trailers reads it, folded lines joined), what it reverts,
 * the links and Message-IDs it holds, and whether it names a report.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "perfbot/ingest/trailers.h"
#include "perfbot/util/addr.h"
#include "perfbot/util/strbuf.h"

#define NAME_MAX_BYTES 4096	/* a name longer than this names nothing */

/* ---- lines ---- */

struct line {
	const char *s;
	size_t n;
};

static int blank(const struct line *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (!isspace((unsigned char)l->s[i]))
			return 0;
	return 1;
}

/* The lines of 'text', CR before LF dropped; NULL when out of memory. */
static struct line *lines_of(const char *text, size_t len, size_t *n)
{
	struct line *v;
	size_t cap = 1, i = 0;
	const char *p, *e = text + len, *nl;

	for (p = text; p < e; p++)
		cap += *p == '\n';
	v = calloc(cap, sizeof(*v));
	if (!v)
		return NULL;
	for (p = text; p < e && i < cap; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(e - p));
		if (!nl)
			nl = e;
		v[i].s = p;
		v[i].n = (size_t)(nl - p);
		if (v[i].n && p[v[i].n - 1] == '\r')
			v[i].n--;
		i++;
		if (nl == e)
			break;
	}
	*n = i;
	return v;
}

static char *trimmed(const char *s, size_t n)
{
	while (n && isspace((unsigned char)*s)) {
		s++;
		n--;
	}
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	return strndup(s, n);
}

/* ---- the message ---- */

/* The first paragraph, its lines trimmed and joined by ' ' (git's %s). */
static char *summary_of(const struct line *l, size_t n, size_t *end)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i = 0, b, k;
	char *s;

	while (i < n && blank(&l[i]))
		i++;
	for (; i < n && !blank(&l[i]); i++) {
		for (b = 0; b < l[i].n && isspace((unsigned char)l[i].s[b]);
		     b++)
			;
		for (k = l[i].n; k > b && isspace((unsigned char)
						  l[i].s[k - 1]); k--)
			;
		if ((sb.len && sb_addc(&sb, ' ')) ||
		    sb_add(&sb, l[i].s + b, k - b))
			break;
	}
	*end = i;
	s = trimmed(sb_str(&sb), sb.len);
	sb_release(&sb);
	return s;
}

/* "Key: value": the length of the key, 0 when the line is no trailer. */
static size_t trailer_key(const struct line *l, size_t *value)
{
	size_t i = 0, k;

	while (i < l->n && (isalnum((unsigned char)l->s[i]) || l->s[i] == '-'))
		i++;
	k = i;
	if (!k || !isalnum((unsigned char)l->s[0]))
		return 0;
	while (i < l->n && (l->s[i] == ' ' || l->s[i] == '\t'))
		i++;
	if (i >= l->n || l->s[i] != ':')
		return 0;
	*value = i + 1;
	return k;
}

static int git_generated(const struct line *l)
{
	static const char sob[] = "Signed-off-by:", cp[] =
		"(cherry picked from commit ";

	return (l->n >= sizeof(sob) - 1 &&
		!strncasecmp(l->s, sob, sizeof(sob) - 1)) ||
	       (l->n >= sizeof(cp) - 1 && !strncmp(l->s, cp, sizeof(cp) - 1));
}

/* The first line of the last paragraph, 'n' when there is none. */
static size_t last_paragraph(const struct line *l, size_t n, size_t after)
{
	size_t e = n, b;

	while (e > after && blank(&l[e - 1]))
		e--;
	for (b = e; b > after && !blank(&l[b - 1]); b--)
		;
	return b < e ? b : n;
}

/*
 * Whether lines [b, e) are a trailer block: every logical line (a line
 * and the ones that continue it) a trailer, or a quarter of them with a
 * line git writes itself among them. Comment lines ('#') do not count.
 */
static int is_block(const struct line *l, size_t b, size_t e)
{
	size_t i, total = 0, trailers = 0, v;
	int generated = 0;

	for (i = b; i < e; i++) {
		if (l[i].n && l[i].s[0] == '#')
			continue;
		if (l[i].n && (l[i].s[0] == ' ' || l[i].s[0] == '\t') &&
		    total)
			continue;	/* continues the line above */
		total++;
		if (git_generated(&l[i])) {
			generated = 1;
			trailers++;
		} else if (trailer_key(&l[i], &v)) {
			trailers++;
		}
	}
	return total && (trailers == total ||
			 (generated && 4 * trailers >= total));
}

/*
 * The value of the trailer at line '*i' ('v' its offset there) and of the
 * lines that continue it, joined by one blank; '*i' its last line.
 */
static char *trailer_value(const struct line *l, size_t *i, size_t e,
			   size_t v)
{
	struct strbuf sb = STRBUF_INIT;
	char *value = NULL;
	int rc;

	rc = sb_add(&sb, l[*i].s + v, l[*i].n - v);
	while (!rc && *i + 1 < e && l[*i + 1].n &&
	       (l[*i + 1].s[0] == ' ' || l[*i + 1].s[0] == '\t')) {
		size_t k = 0;

		(*i)++;
		while (k < l[*i].n && isspace((unsigned char)l[*i].s[k]))
			k++;
		rc = sb_addc(&sb, ' ') || sb_add(&sb, l[*i].s + k,
						 l[*i].n - k);
	}
	if (!rc)
		value = trimmed(sb_str(&sb), sb.len);
	sb_release(&sb);
	return value;
}

/* The trailers of lines [b, e). */
static int trailers_of(struct commit_msg *m, const struct line *l, size_t b,
		       size_t e)
{
	struct trailer *t;
	size_t i, v, k;

	m->trailers = calloc(e - b, sizeof(*m->trailers));
	if (!m->trailers)
		return -1;
	for (i = b; i < e && m->ntrailers < COMMIT_TRAILERS_MAX; i++) {
		k = trailer_key(&l[i], &v);
		if (!k)
			continue;
		t = &m->trailers[m->ntrailers++];
		t->key = strndup(l[i].s, k);
		t->value = trailer_value(l, &i, e, v);
		if (!t->key || !t->value)
			return -1;
	}
	return 0;
}

static int is_hex(int c)
{
	return isdigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

int commit_is_sha(const char *s, size_t n)
{
	size_t i;

	if (n < 7 || n > 40)
		return 0;
	for (i = 0; i < n; i++)
		if (!is_hex((unsigned char)s[i]))
			return 0;
	return 1;
}

int commit_ref(const char *s, size_t *sha_len, const char **title,
	       size_t *title_len)
{
	size_t k = 0, n = strlen(s);
	const char *p;

	*title = NULL;
	*title_len = 0;
	while (k < n && !isspace((unsigned char)s[k]))
		k++;
	if (!commit_is_sha(s, k))
		return 0;
	*sha_len = k;
	for (p = s + k; isspace((unsigned char)*p); p++)
		;
	if (!*p)
		return 1;
	if (strncmp(p, "(\"", 2))
		return 0;
	p += 2;
	n = strlen(p);
	/* a title cut short (no '")' at its end) is left out */
	if (n > 2 && !strcmp(p + n - 2, "\")")) {
		*title = p;
		*title_len = n - 2;
	}
	return 1;
}

/* "This reverts commit SHA" (git revert's words). */
static int reverts_of(struct commit_msg *m)
{
	static const char words[] = "This reverts commit ";
	const char *p = m->text, *e = m->text + m->len, *q;
	size_t n, i;

	while ((q = memmem(p, (size_t)(e - p), words, sizeof(words) - 1))) {
		q += sizeof(words) - 1;
		for (n = 0; q + n < e && n < 41 && is_hex((unsigned char)q[n]);
		     n++)
			;
		if (commit_is_sha(q, n)) {
			m->reverts = strndup(q, n);
			if (!m->reverts)
				return -1;
			for (i = 0; i < n; i++)
				m->reverts[i] = (char)tolower(
					(unsigned char)m->reverts[i]);
			return 0;
		}
		p = q;
	}
	return 0;
}

/* 'Revert "TITLE"': TITLE. */
static int revert_title_of(struct commit_msg *m)
{
	static const char rev[] = "Revert \"";
	size_t n = m->summary ? strlen(m->summary) : 0;

	if (n < sizeof(rev) || strncmp(m->summary, rev, sizeof(rev) - 1) ||
	    m->summary[n - 1] != '"')
		return 0;
	m->revert_title = strndup(m->summary + sizeof(rev) - 1,
				  n - sizeof(rev));
	return m->revert_title ? 0 : -1;
}

int commit_msg_parse(struct commit_msg *m, const char *text, size_t len)
{
	struct line *l;
	size_t n = 0, first, b;
	int rc = 0;

	memset(m, 0, sizeof(*m));
	m->text = text;
	m->len = len < COMMIT_MSG_MAX ? len : COMMIT_MSG_MAX;
	l = lines_of(text, m->len, &n);
	if (!l)
		return -1;
	m->summary = summary_of(l, n, &first);
	if (!m->summary)
		rc = -1;
	/* the title is never a trailer block */
	b = last_paragraph(l, n, first);
	if (!rc && b < n) {
		size_t e = n;

		while (e > b && blank(&l[e - 1]))
			e--;
		if (is_block(l, b, e))
			rc = trailers_of(m, l, b, e);
	}
	if (!rc)
		rc = reverts_of(m) || revert_title_of(m);
	free(l);
	return rc ? -1 : 0;
}

void commit_msg_release(struct commit_msg *m)
{
	size_t i;

	for (i = 0; m->trailers && i < m->ntrailers; i++) {
		free(m->trailers[i].key);
		free(m->trailers[i].value);
	}
	free(m->trailers);
	free(m->summary);
	free(m->reverts);
	free(m->revert_title);
	memset(m, 0, sizeof(*m));
}

/* ---- names ---- */

static int unhex(int c)
{
	return isdigit(c) ? c - '0' : tolower(c) - 'a' + 10;
}

/* 's' percent-decoded into 'buf' (at least n + 1 bytes): its length. */
static size_t decode(const char *s, size_t n, char *buf)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		if (s[i] == '%' && i + 2 < n &&
		    is_hex((unsigned char)s[i + 1]) &&
		    is_hex((unsigned char)s[i + 2])) {
			buf[k++] = (char)(unhex((unsigned char)s[i + 1]) * 16 +
					  unhex((unsigned char)s[i + 2]));
			i += 2;
		} else {
			buf[k++] = s[i];
		}
	}
	buf[k] = '\0';
	return k;
}

/* The path segments of the link 's' ("scheme://host/a/b?q"), decoded. */
static int segments(const char *s, size_t n,
		    int (*cb)(const char *, size_t, void *), void *arg)
{
	const char *p = memmem(s, n, "://", 3), *e = s + n, *q;
	char buf[NAME_MAX_BYTES + 1];
	int rc;

	if (!p)
		return 0;
	p += 3;
	q = memchr(p, '/', (size_t)(e - p));
	if (!q)
		return 0;
	for (p = q + 1; p < e; p = q + 1) {
		size_t k;

		q = p;
		while (q < e && *q != '/' && *q != '?' && *q != '#')
			q++;
		k = (size_t)(q - p);
		if (k && k <= NAME_MAX_BYTES) {
			k = decode(p, k, buf);
			rc = cb(buf, k, arg);
			if (rc)
				return rc;
		}
		if (q < e && *q != '/')
			break;
	}
	return 0;
}

/* One word: its brackets and trailing punctuation off, then its parts. */
static int word(const char *s, size_t n,
		int (*cb)(const char *, size_t, void *), void *arg)
{
	int rc;

	while (n && strchr("<([\"'", *s)) {
		s++;
		n--;
	}
	while (n && strchr(">)].,;:\"'", s[n - 1]))
		n--;
	if (!n || n > NAME_MAX_BYTES)
		return 0;
	rc = cb(s, n, arg);
	return rc ? rc : segments(s, n, cb, arg);
}

int commit_names(const char *text, size_t len,
		 int (*cb)(const char *name, size_t n, void *arg), void *arg)
{
	const char *p = text, *e = text + len, *w;
	struct strbuf sb = STRBUF_INIT;
	int rc = 0, spaced = 0;

	while (!rc && p < e) {
		while (p < e && isspace((unsigned char)*p))
			p++;
		for (w = p; p < e && !isspace((unsigned char)*p); p++)
			;
		if (p > w)
			rc = word(w, (size_t)(p - w), cb, arg);
		spaced |= p < e;
	}
	if (rc || !spaced || len > NAME_MAX_BYTES)
		return rc;
	/* a link folded over two lines: the whole without its white space */
	for (p = text; p < e && !rc; p++)
		if (!isspace((unsigned char)*p))
			rc = sb_addc(&sb, *p);
	if (!rc && sb.len)
		rc = word(sb_str(&sb), sb.len, cb, arg);
	sb_release(&sb);
	return rc;
}

/* ---- matching ---- */

/* 'a' ('n' bytes) is 'b', a link also with or without its last '/'. */
static int is_name(const char *a, size_t n, const char *b)
{
	size_t m = b ? strlen(b) : 0;

	if (!m)
		return 0;
	if (n == m && !memcmp(a, b, n))
		return 1;
	if (n == m + 1 && a[m] == '/' && !memcmp(a, b, m))
		return 1;
	return n + 1 == m && b[n] == '/' && !memcmp(a, b, n);
}

static int names_key(const char *name, size_t n, void *arg)
{
	const struct report_key *k = arg;

	return is_name(name, n, k->url) || is_name(name, n, k->message_id);
}

int commit_names_report(const char *text, size_t len,
			const struct report_key *k)
{
	return commit_names(text, len, names_key, (void *)k) > 0;
}

static int reported_by_bot(const struct trailer *t, const char *const *bots,
			   size_t nbots)
{
	char spec[ADDR_MAX_SPEC + 1];
	const char *why;
	size_t i;

	if (strcasecmp(t->key, "Reported-by") ||
	    addr_check_mailbox(t->value, spec, sizeof(spec), &why))
		return 0;
	for (i = 0; i < nbots; i++)
		if (bots[i] && addr_same_box(spec, bots[i]))
			return 1;
	return 0;
}

const char *commit_match_name(enum commit_match m)
{
	static const char *const names[] = { "", "Closes:", "Link:",
		"Reported-by:", "title", "sha" };

	return m <= MATCH_SHA ? names[m] : "";
}

enum commit_match commit_match(const struct commit_msg *m, const char *sha,
			       const struct report_key *k,
			       const char *const *bots, size_t nbots)
{
	size_t i;
	int by_bot = 0;

	for (i = 0; i < m->ntrailers; i++) {
		const struct trailer *t = &m->trailers[i];
		int closes = !strcasecmp(t->key, "Closes");

		if ((closes || !strcasecmp(t->key, "Link")) &&
		    commit_names_report(t->value, strlen(t->value), k))
			return closes ? MATCH_CLOSES : MATCH_LINK;
		by_bot |= reported_by_bot(t, bots, nbots);
	}
	if (by_bot && commit_names_report(m->text, m->len, k))
		return MATCH_REPORTED_BY;
	if (k->title && m->summary && !strcmp(k->title, m->summary))
		return MATCH_TITLE;
	if (k->sha && sha && strlen(k->sha) <= strlen(sha) &&
	    !strncasecmp(sha, k->sha, strlen(k->sha)))
		return MATCH_SHA;
	return MATCH_NONE;
}

int commit_reverts(const char *reverts, const char *revert_title,
		   const char *fix_commit, const char *fix_summary)
{
	if (reverts)
		return fix_commit && strlen(reverts) <= strlen(fix_commit) &&
		       !strncasecmp(fix_commit, reverts, strlen(reverts));
	return revert_title && fix_summary && !strcmp(revert_title,
						      fix_summary);
}
