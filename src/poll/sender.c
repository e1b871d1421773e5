// SPDX-License-Identifier: GPL-2.0-only
#include <string.h>
#include <strings.h>

#include "perfbot/addr.h"
#include "perfbot/sender.h"

int sender_domains_align(const char *a, const char *b)
{
	size_t na, nb;

	if (!a || !b || !*a || !*b)
		return 0;
	na = strlen(a);
	nb = strlen(b);
	if (na < nb) {
		const char *t = a;

		a = b;
		b = t;
		na = nb;
		nb = strlen(b);
	}
	/* 'a' is the longer: equal, or ends in "." + b */
	if (strcasecmp(a + na - nb, b))
		return 0;
	return na == nb || a[na - nb - 1] == '.';
}

int sender_aligned(const struct reply *r)
{
	return r->from_addr && r->envelope_addr &&
	       sender_domains_align(addr_domain(r->from_addr),
				    addr_domain(r->envelope_addr));
}

/* Copy 's' without (comments) into buf, lowercased. */
static void strip_comments(const char *s, char *buf, size_t n)
{
	size_t k = 0;
	int depth = 0;

	for (; *s && k + 1 < n; s++) {
		if (*s == '\\' && s[1] && depth) {
			s++;
			continue;
		}
		if (*s == '(')
			depth++;
		else if (*s == ')' && depth)
			depth--;
		else if (!depth)
			buf[k++] = *s >= 'A' && *s <= 'Z' ? (char)(*s + 32) : *s;
	}
	buf[k] = '\0';
}

/* The value of property 'name' ("header.d") in one resinfo, or NULL. */
static const char *prop(char *resinfo, const char *name, size_t *len)
{
	size_t n = strlen(name);
	char *p = resinfo;

	while ((p = strstr(p, name))) {
		if ((p == resinfo || p[-1] == ' ') && p[n] == '=') {
			p += n + 1;
			*len = strcspn(p, " ");
			return p;
		}
		p += n;
	}
	return NULL;
}

static int aligned_n(const char *v, size_t n, const char *dom)
{
	char d[256];

	if (!v || !n || n >= sizeof(d))
		return 0;
	memcpy(d, v, n);
	d[n] = '\0';
	if (strchr(d, '@'))	/* header.i=@example.org or user@... */
		return sender_domains_align(strrchr(d, '@') + 1, dom);
	return sender_domains_align(d, dom);
}

/* One "method=result props" clause passes for From's domain 'dom'. */
static int clause_passes(char *c, const char *dom)
{
	const char *v;
	size_t n = 0;

	while (*c == ' ')
		c++;
	if (!strncmp(c, "arc=pass", 8) && (!c[8] || c[8] == ' '))
		return 1;
	if (!strncmp(c, "dkim=pass", 9) && (!c[9] || c[9] == ' '))
		return (v = prop(c, "header.d", &n)) ? aligned_n(v, n, dom) :
			(v = prop(c, "header.i", &n)) ? aligned_n(v, n, dom) : 0;
	if (!strncmp(c, "dmarc=pass", 10) && (!c[10] || c[10] == ' '))
		return (v = prop(c, "header.from", &n)) &&
		       aligned_n(v, n, dom);
	return 0;
}

static int header_passes(const char *value, const char *id, const char *dom)
{
	char buf[4096], *c, *save = NULL;
	size_t n = strlen(id);
	const char *p;

	strip_comments(value, buf, sizeof(buf));
	for (p = buf; *p == ' '; p++)
		;
	/* authserv-id [version] ; resinfo ; resinfo ... */
	if (strncasecmp(p, id, n) || (p[n] && p[n] != ' ' && p[n] != ';'))
		return 0;
	c = strchr(buf, ';');
	if (!c)
		return 0;
	for (c = strtok_r(c + 1, ";", &save); c; c = strtok_r(NULL, ";", &save))
		if (clause_passes(c, dom))
			return 1;
	return 0;
}

int sender_authenticated(const struct reply *r, const char *authserv_id)
{
	const char *dom = r->from_addr ? addr_domain(r->from_addr) : NULL;
	size_t i;

	if (!dom || !authserv_id || !*authserv_id)
		return 0;
	for (i = 0; i < r->nauth; i++)
		if (r->auth_results[i] &&
		    header_passes(r->auth_results[i], authserv_id, dom))
			return 1;
	return 0;
}
