// SPDX-License-Identifier: GPL-2.0-only
/* parse: format=flowed (RFC 3676) text joined back into its paragraphs. */
#include <string.h>

#include "flowed.h"

struct flowed {
	struct strbuf *out;
	int delsp;
	int open;		/* a flowed paragraph is being joined */
	size_t depth;		/* its quote depth */
	int err;
};

static void flowed_line(struct flowed *f, const char *s, size_t len)
{
	size_t depth = 0;
	int soft;

	while (depth < len && s[depth] == '>')
		depth++;
	s += depth;
	len -= depth;
	if (len > 0 && s[0] == ' ')	/* space-stuffing */
		s++, len--;
	soft = len > 0 && s[len - 1] == ' ' && !(len == 3 && !memcmp(s, "-- ", 3));
	if (f->open && depth != f->depth) {
		f->err |= sb_addc(f->out, '\n');
		f->open = 0;
	}
	if (!f->open && depth > 0) {
		f->err |= sb_addn(f->out, '>', depth);
		f->err |= sb_addc(f->out, ' ');
	}
	f->err |= sb_add(f->out, s, soft && f->delsp ? len - 1 : len);
	if (!soft)
		f->err |= sb_addc(f->out, '\n');
	f->open = soft;
	f->depth = depth;
}

int flowed_unflow(const char *s, size_t n, int delsp, struct strbuf *out)
{
	struct flowed f = { out, delsp, 0, 0, 0 };
	const char *nl, *end = s + n;

	while (s < end && !f.err) {
		nl = memchr(s, '\n', (size_t)(end - s));
		flowed_line(&f, s, (size_t)((nl ? nl : end) - s));
		s = nl ? nl + 1 : end;
	}
	if (f.open)
		f.err |= sb_addc(out, '\n');
	return f.err ? -1 : 0;
}
