// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>
#include <stdint.h>
#include <string.h>

#include "perfbot/addr.h"

/* Eight bytes at once: all printable ASCII (0x20..0x7e)? */
static int plain_ascii8(const unsigned char *p)
{
	const uint64_t ones = 0x0101010101010101ULL, high = ones << 7;
	uint64_t w, x;

	memcpy(&w, p, 8);
	if (w & high)
		return 0;
	x = w ^ (ones * 0x7f);
	return !(((w - ones * 0x20) & ~w & high) | ((x - ones) & ~x & high));
}

int text_has_control(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	while (i + 8 <= n && plain_ascii8(p + i))
		i += 8;
	for (; i < n; i++) {
		if (p[i] < 0x20 || p[i] == 0x7f)
			return 1;
		/* U+0080..U+009F are C2 80..C2 9F in UTF-8 */
		if (p[i] == 0xc2 && i + 1 < n && p[i + 1] >= 0x80 &&
		    p[i + 1] <= 0x9f)
			return 1;
	}
	return 0;
}

/* RFC 5322 atext, the characters of a dot-atom besides '.' */
static int atext(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || (c && strchr("!#$%&'*+-/=?^_`{|}~",
						     c));
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
	       (c >= '0' && c <= '9') || c == '-';
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
	if (local > 64 || !dot_atom(s, local, atext))
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

int addr_check_mailbox(const char *mailbox, char *spec, size_t len,
		       const char **why)
{
	size_t n = strlen(mailbox), b, e;
	const char *lt, *gt;

	*why = NULL;
	if (n > ADDR_MAX_MAILBOX)
		return *why = "longer than 512 bytes", -1;
	if (text_has_control(mailbox, n))
		return *why = "a control character", -1;
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
