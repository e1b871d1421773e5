// SPDX-License-Identifier: GPL-2.0-only
/*
 * web: what of a text from outside the archive may show (mask.h): its
 * control characters replaced, its addresses hidden but the allowed ones,
 * and which URLs a link may point at.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "perfbot/util/text.h"
#include "perfbot/web/mask.h"

#define TEXT_POLICY (TEXT_CTRL_QMARK | TEXT_KEEP_LF | TEXT_KEEP_TAB | \
		     TEXT_CRLF_LF | TEXT_UNICODE)

void web_mask_init(struct web_mask *m, const char *hidden)
{
	addrlist_init(&m->allowed);
	addrlist_init(&m->known);
	m->hidden = hidden;
	m->ids = NULL;
	m->nids = 0;
}

void web_mask_release(struct web_mask *m)
{
	addrlist_release(&m->allowed);
	addrlist_release(&m->known);
	memset(m, 0, sizeof(*m));
}

/* The addresses of 'mailboxes', a header's list or a JSON list of them. */
static int add_all(struct addrlist *l, const char *mailboxes)
{
	json_t *list, *v;
	size_t i;
	int rc = 0;

	if (!mailboxes || !*mailboxes)
		return 0;
	if (*mailboxes != '[')
		return addrlist_add_specs(l, mailboxes);
	list = json_loads(mailboxes, 0, NULL);
	json_array_foreach(list, i, v)
		if (json_is_string(v) && !rc)
			rc = addrlist_add_specs(l, json_string_value(v));
	json_decref(list);
	return rc;
}

static int cmp_ids(const void *a, const void *b)
{
	return strcasecmp(*(const char *const *)a, *(const char *const *)b);
}

void web_ids_sort(const char **ids, size_t n)
{
	if (n)
		qsort(ids, n, sizeof(*ids), cmp_ids);
}

void web_mask_ids(struct web_mask *m, const char *const *ids, size_t n)
{
	m->ids = ids;
	m->nids = n;
}

/* A span of a text (never a NUL in it), looked up among the ids. */
struct span {
	const char *s;
	size_t n;
};

static int cmp_span(const void *key, const void *item)
{
	const struct span *k = key;
	const char *id = *(const char *const *)item;
	int c = strncasecmp(k->s, id, k->n);

	return c ? c : id[k->n] ? -1 : 0;
}

static int shown_id(const struct web_mask *m, const char *s, size_t n)
{
	struct span k = { s, n };

	return m->nids && bsearch(&k, m->ids, m->nids, sizeof(*m->ids),
				  cmp_span) != NULL;
}

int web_mask_allow(struct web_mask *m, const char *mailboxes)
{
	return add_all(&m->allowed, mailboxes);
}

int web_mask_know(struct web_mask *m, const char *mailboxes)
{
	return add_all(&m->known, mailboxes);
}

/* Bytes of a local part, as broadly as mail allows (UTF-8 too). */
static int local_byte(unsigned char c)
{
	return isalnum(c) || c >= 0x80 || (c && strchr("!#$%&'*+/=?^_`{|}~.-",
						       c));
}

static int domain_byte(unsigned char c)
{
	return isalnum(c) || c >= 0x80 || c == '.' || c == '-' || c == '_';
}

/* The end of the http(s) URL starting at s[i], or i when none does. */
static size_t url_end(const char *s, size_t n, size_t i)
{
	size_t k = i;

	if (i && isalnum((unsigned char)s[i - 1]))
		return i;
	if (n - i > 7 && !strncasecmp(s + i, "http://", 7))
		k += 7;
	else if (n - i > 8 && !strncasecmp(s + i, "https://", 8))
		k += 8;
	else
		return i;
	while (k < n && !text_is_space((unsigned char)s[k]) &&
	       !strchr("<>\"", s[k]))
		k++;
	return k;
}

static int allowed(const struct web_mask *m, const char *s, size_t n)
{
	size_t i;

	while (n && !isalnum((unsigned char)*s)) {
		s++;
		n--;
	}
	for (i = 0; i < m->allowed.n; i++)
		if (strlen(m->allowed.v[i]) == n &&
		    !strncasecmp(m->allowed.v[i], s, n))
			return 1;
	return 0;
}

/* Widen [*a, *b) to each known address around the '@' at s[i]. */
static int known_around(const struct web_mask *m, const char *s, size_t n,
			size_t from, size_t i, size_t *a, size_t *b)
{
	size_t k, len, j;
	const char *at;
	int hit = 0;

	for (k = 0; k < m->known.n; k++) {
		at = strchr(m->known.v[k], '@');
		len = strlen(m->known.v[k]);
		j = at ? (size_t)(at - m->known.v[k]) : len;
		if (!at || j > i || i - j < from || i - j + len > n ||
		    strncasecmp(s + i - j, m->known.v[k], len))
			continue;
		*a = *a < i - j ? *a : i - j;
		*b = *b > i - j + len ? *b : i - j + len;
		hit = 1;
	}
	return hit;
}

/* The address around the '@' at s[i]: 1 and its span, or 0. */
static int address_at(const struct web_mask *m, const char *s, size_t n,
		      size_t from, size_t i, size_t *a, size_t *b)
{
	*a = i;
	while (*a > from && local_byte((unsigned char)s[*a - 1]))
		(*a)--;
	*b = i + 1;
	while (*b < n && domain_byte((unsigned char)s[*b]))
		(*b)++;
	while (*b > i + 1 && (s[*b - 1] == '.' || s[*b - 1] == '-'))
		(*b)--;
	if (known_around(m, s, n, from, i, a, b))
		return 1;
	return *a < i && *b > i + 1;
}

static int mask_into(const struct web_mask *m, const char *s, size_t n,
		     struct strbuf *out)
{
	size_t from = 0, i = 0, a, b, e;
	int rc = 0;

	while (i < n && !rc) {
		e = url_end(s, n, i);
		if (e > i) {
			i = e;
			continue;
		}
		if (s[i] != '@' || !address_at(m, s, n, from, i, &a, &b)) {
			i++;
			continue;
		}
		if (!allowed(m, s + a, b - a) && !shown_id(m, s + a, b - a)) {
			rc = sb_add(out, s + from, a - from) ||
			     sb_adds(out, m->hidden);
			from = b;
		}
		i = b;
	}
	return rc || sb_add(out, s + from, n - from) ? -1 : 0;
}

int web_text(const struct web_mask *m, const char *s, size_t n,
	     struct strbuf *out)
{
	struct strbuf clean = STRBUF_INIT;
	size_t before = out->len;
	int rc;

	rc = text_scrub_add(&clean, s, n, TEXT_POLICY) ||
	     mask_into(m, clean.buf ? clean.buf : "", clean.len, out);
	if (rc)
		sb_setlen(out, before);
	sb_release(&clean);
	return rc ? -1 : 0;
}

char *web_text_dup(const struct web_mask *m, const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	if (!s)
		s = "";
	if (web_text(m, s, strlen(s), &sb) || sb_addc(&sb, '\0')) {
		sb_release(&sb);
		return NULL;
	}
	sb_setlen(&sb, sb.len - 1);
	return sb_detach(&sb, NULL);
}

char *web_plain_dup(const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	if (text_scrub_add(&sb, s ? s : "", s ? strlen(s) : 0, TEXT_POLICY) ||
	    sb_addc(&sb, '\0')) {
		sb_release(&sb);
		return NULL;
	}
	sb_setlen(&sb, sb.len - 1);
	return sb_detach(&sb, NULL);
}

const char *web_url(const char *url)
{
	const char *p, *host;

	if (!url)
		return NULL;
	if (!strncasecmp(url, "http://", 7))
		host = url + 7;
	else if (!strncasecmp(url, "https://", 8))
		host = url + 8;
	else
		return NULL;
	if (!*host || *host == '/' || *host == '?' || *host == '#')
		return NULL;
	for (p = url; *p; p++)
		if ((unsigned char)*p <= 0x20 || *p == 0x7f ||
		    strchr("\"<>\\`", *p))
			return NULL;
	return url;
}
