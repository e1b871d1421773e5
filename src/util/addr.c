// SPDX-License-Identifier: GPL-2.0-only
/*
 * util: mail addresses, for ingest (a manifest's author), compose (To,
 * Cc, envelopes) and send (the outbox's recipients): strict mailbox
 * checks, and the address list with its JSON form for the state.
 */
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <gmime/gmime.h>
#include <jansson.h>

#include "perfbot/util/gmime.h"
#include "perfbot/util/addr.h"
#include "perfbot/util/text.h"

/* RFC 5322 atext, the characters of a dot-atom besides '.' */
static int atext(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || (c && strchr("!#$%&'*+-/=?^_`{|}~",
						     c));
}

/* UTF-8 (RFC 6531) stands in an address too: what SMTPUTF8 carries. */
static int atext8(int c)
{
	return c >= 0x80 || atext(c);
}

static int dot_atom(const char *s, size_t n, int (*ok)(int))
{
	size_t i;

	if (!n || s[0] == '.' || s[n - 1] == '.')
		return 0;
	for (i = 0; i < n; i++)
		if (s[i] == '.' ? s[i + 1] == '.' : !ok((unsigned char)s[i]))
			return 0;
	return 1;
}

static int ldh(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '-' || c >= 0x80;
}

/* A bare addr-spec: dot-atom local part, a host name of LDH labels. */
static int spec_ok(const char *s, size_t n, const char **why)
{
	const char *at = memchr(s, '@', n);
	size_t local;

	if (n > ADDR_MAX_SPEC)
		return *why = "address too long", 0;
	if (!at || memchr(at + 1, '@', n - (size_t)(at - s) - 1))
		return *why = "not one address", 0;
	local = (size_t)(at - s);
	if (local > 64 || !dot_atom(s, local, atext8))
		return *why = "bad local part", 0;
	if (!dot_atom(at + 1, n - local - 1, ldh))
		return *why = "bad domain", 0;
	return 1;
}

/* The display name before '<': a quoted string, or words of no special. */
static int name_ok(const char *s, size_t n, const char **why)
{
	size_t i;

	if (n && s[0] == '"') {
		for (i = 1; i < n && s[i] != '"'; i++)
			if (s[i] == '\\' && ++i == n)
				break;
		for (i++; i < n; i++)
			if (s[i] != ' ')
				return *why = "text after the quoted name", 0;
		return i == n && n > 1 && s[n - 1] == '"' ? 1 :
			(*why = "unterminated quoted name", 0);
	}
	for (i = 0; i < n; i++)
		if (strchr("()<>[]:;@\\,\"", s[i]))
			return *why = "a name with , ; : @ or brackets must "
				      "be quoted", 0;
	return 1;
}

/*
 * What no address may hold, whatever the mail library would make of it:
 * a NUL, a C0 or C1 control (CR, LF, NEL), DEL, a Unicode line or
 * paragraph separator, bytes that are not UTF-8.
 */
static const char *bad_bytes(const char *s, size_t n)
{
	if (memchr(s, '\0', n))
		return "a NUL character";
	if (text_has_control(s, n))
		return "a control character";
	if (!utf8_valid(s, n))
		return "bytes that are not UTF-8";
	if (memmem(s, n, "\xe2\x80\xa8", 3) || memmem(s, n, "\xe2\x80\xa9", 3))
		return "a Unicode line or paragraph separator";
	return NULL;
}

int addr_check_mailbox(const char *mailbox, char *spec, size_t len,
		       const char **why)
{
	return addr_check_mailbox_n(mailbox, strlen(mailbox), spec, len, why);
}

int addr_check_mailbox_n(const char *mailbox, size_t n, char *spec,
			 size_t len, const char **why)
{
	size_t b, e;
	const char *lt, *gt;

	*why = NULL;
	if (n > ADDR_MAX_MAILBOX)
		return *why = "longer than 512 bytes", -1;
	if ((*why = bad_bytes(mailbox, n)))
		return -1;
	while (n && mailbox[n - 1] == ' ')
		n--;
	for (b = 0; b < n && mailbox[b] == ' '; b++)
		;
	lt = memchr(mailbox + b, '<', n - b);
	if (!lt) {
		if (!spec_ok(mailbox + b, n - b, why))
			return -1;
		e = n - b;
		lt = mailbox + b - 1;
	} else {
		gt = memchr(lt, '>', n - (size_t)(lt - mailbox));
		if (!gt || gt != mailbox + n - 1)
			return *why = "text after the address", -1;
		e = (size_t)(gt - lt - 1);
		if (memchr(lt + 1, '<', e) || !spec_ok(lt + 1, e, why))
			return *why ? -1 : (*why = "not one address", -1);
		{
			size_t nl = (size_t)(lt - mailbox) - b;

			while (nl && mailbox[b + nl - 1] == ' ')
				nl--;
			if (!name_ok(mailbox + b, nl, why))
				return -1;
		}
	}
	if (spec && len)
		snprintf(spec, len, "%.*s", (int)e, lt + 1);
	return 0;
}

const char *addr_domain(const char *spec)
{
	const char *at = spec ? strrchr(spec, '@') : NULL;

	return at && at[1] ? at + 1 : NULL;
}

char *addr_spec(const char *mailbox)
{
	InternetAddressList *l;
	InternetAddress *a;
	char *out = NULL;

	gmime_once();
	l = internet_address_list_parse(NULL, mailbox);
	if (!l)
		return NULL;
	a = internet_address_list_length(l) > 0 ?
		internet_address_list_get_address(l, 0) : NULL;
	if (a && INTERNET_ADDRESS_IS_MAILBOX(a))
		out = strdup(internet_address_mailbox_get_addr(
			INTERNET_ADDRESS_MAILBOX(a)));
	g_object_unref(l);
	return out;
}

static int ends_ci(const char *s, size_t n, const char *suffix)
{
	size_t k = strlen(suffix);

	return n >= k && !strncasecmp(s + n - k, suffix, k);
}

/* The list hosts by name: a first label, or a whole domain (or above). */
static int list_domain(const char *dom)
{
	static const char *const first[] = { "lists", "list", "vger", "ml",
		"mailman", "groups", NULL };
	static const char *const whole[] = { "googlegroups.com", "groups.io",
		"kvack.org", "freelists.org", NULL };
	const char *const *w;
	size_t n = strcspn(dom, "."), k, len = strlen(dom);

	for (w = first; *w; w++)
		if (strlen(*w) == n && dom[n] == '.' && !strncasecmp(dom, *w, n))
			return 1;
	for (w = whole; *w; w++) {
		k = strlen(*w);
		if (ends_ci(dom, len, *w) && (len == k || dom[len - k - 1] == '.'))
			return 1;
	}
	return 0;
}

int addr_is_list(const char *spec)
{
	static const char *const names[] = { "-devel", "-discuss",
		"-announce", "-patches", "-commits", NULL };
	const char *dom = addr_domain(spec), *const *w;
	size_t n;

	if (!dom)
		return 0;
	n = (size_t)(dom - 1 - spec);
	for (w = names; *w; w++)
		if (ends_ci(spec, n, *w))
			return 1;
	return list_domain(dom);
}

int addr_is_list_envelope(const char *spec)
{
	const char *dom = addr_domain(spec);
	size_t n = dom ? (size_t)(dom - 1 - spec) : spec ? strlen(spec) : 0;
	const char *plus;

	if (!spec || !n)
		return 0;
	/* Mailman's VERP: "list-bounces+user=host@..."; vger's "+bounces-" */
	plus = memchr(spec, '+', n);
	if (plus && (!strncasecmp(plus, "+bounces-", 9) ||
		     ends_ci(spec, (size_t)(plus - spec), "-bounces")))
		return 1;
	return ends_ci(spec, n, "-bounces") || ends_ci(spec, n, "-bounce") ||
	       ends_ci(spec, n, "-owner") || ends_ci(spec, n, "-request") ||
	       (n > 6 && !strncasecmp(spec, "owner-", 6));
}

void addrlist_init(struct addrlist *l)
{
	l->v = NULL;
	l->n = 0;
}

void addrlist_release(struct addrlist *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	addrlist_init(l);
}

/* Append 's' (allocated, or NULL: out of memory), which 'l' now owns. */
static int take(struct addrlist *l, char *s)
{
	char **v = NULL;

	if (s && l->n < ADDRLIST_MAX)
		v = realloc(l->v, (l->n + 1) * sizeof(*v));
	if (!v) {
		free(s);
		return -1;
	}
	l->v = v;
	l->v[l->n++] = s;
	return 0;
}

int addrlist_add(struct addrlist *l, const char *s)
{
	return take(l, strdup(s));
}

int addrlist_has(const struct addrlist *l, const char *mailbox)
{
	char *a = addr_spec(mailbox), *b;
	size_t i;
	int found = 0;

	for (i = 0; i < l->n && !found; i++) {
		b = addr_spec(l->v[i]);
		found = a && b ? !strcasecmp(a, b) :
			!strcasecmp(mailbox, l->v[i]);
		free(b);
	}
	free(a);
	return found;
}

int addrlist_add_unique(struct addrlist *l, const char *mailbox,
			const struct addrlist *other)
{
	if (addrlist_has(l, mailbox) || (other && addrlist_has(other, mailbox)))
		return 0;
	return addrlist_add(l, mailbox);
}

static int has_spec(const struct addrlist *l, const char *spec)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (!strcasecmp(l->v[i], spec))
			return 1;
	return 0;
}

int addrlist_add_specs(struct addrlist *l, const char *mailboxes)
{
	InternetAddressList *parsed;
	const char *spec;
	int i, rc = 0;

	gmime_once();
	parsed = internet_address_list_parse(NULL, mailboxes);
	for (i = 0; parsed && !rc && i < internet_address_list_length(parsed);
	     i++) {
		InternetAddress *a = internet_address_list_get_address(parsed,
								       i);

		if (!INTERNET_ADDRESS_IS_MAILBOX(a))
			continue;
		spec = internet_address_mailbox_get_addr(
			INTERNET_ADDRESS_MAILBOX(a));
		if (spec && !has_spec(l, spec))
			rc = addrlist_add(l, spec);
	}
	if (parsed)
		g_object_unref(parsed);
	return rc;
}

void addrlist_cap(struct addrlist *l, size_t max)
{
	while (l->n > max)
		free(l->v[--l->n]);
}

char *addrlist_to_json(const struct addrlist *l)
{
	json_t *a = json_array();
	char *out = NULL;
	size_t i;
	int rc = a ? 0 : -1;

	for (i = 0; !rc && i < l->n; i++)
		rc = json_array_append_new(a, json_string(l->v[i]));
	if (!rc)
		out = json_dumps(a, JSON_COMPACT);
	json_decref(a);
	return out;
}

_Static_assert(ADDRLIST_MAX == 1000 && ADDR_MAX_MAILBOX == 512,
	       "the reasons below name the limits");

/* Why the strings of list 'a' may not be addresses, or NULL. */
static const char *bad_entries(json_t *a)
{
	json_t *e;
	size_t i;

	if (json_array_size(a) > ADDRLIST_MAX)
		return "more than 1000 addresses";
	json_array_foreach(a, i, e) {
		if (!json_is_string(e))
			return "not a list of strings";
		if (json_string_length(e) > ADDR_MAX_MAILBOX)
			return "an address longer than 512 bytes";
		if (text_has_control(json_string_value(e),
				     json_string_length(e)))
			return "an address with a control character";
	}
	return NULL;
}

int addrlist_from_json(struct addrlist *l, const char *json,
		       const char **why)
{
	json_t *a = json ? json_loads(json, 0, NULL) : NULL;
	size_t i, before = l->n;

	*why = !json_is_array(a) ? "not a JSON list" : bad_entries(a);
	for (i = 0; !*why && i < json_array_size(a); i++)
		if (addrlist_add(l, json_string_value(json_array_get(a, i))))
			*why = "out of memory, or more than 1000 addresses";
	if (*why)
		addrlist_cap(l, before);
	json_decref(a);
	return *why ? -1 : 0;
}

/* The local part up to a '+' (or the '@'), and the domain. */
static int split_plus(const char *a, size_t *local, const char **dom)
{
	const char *at = strrchr(a, '@');

	if (!at)
		return -1;
	*local = strcspn(a, "+@");
	*dom = at + 1;
	return 0;
}

int addr_same_box(const char *a, const char *b)
{
	const char *da, *db;
	size_t la, lb;

	if (!a || !b || split_plus(a, &la, &da) || split_plus(b, &lb, &db))
		return 0;
	return la == lb && !strncasecmp(a, b, la) && !strcasecmp(da, db);
}
