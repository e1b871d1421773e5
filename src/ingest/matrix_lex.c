// SPDX-License-Identifier: GPL-2.0-only
/*
 * The tokens of matrix.json (matrix.c builds the matrix): whitespace with
 * line counting, strings with their escapes, and numbers (lx_number(),
 * inline in matrix_internal.h) read exactly as strtod() reads them,
 * strictly by the JSON grammar and with "<file>:<line>:" in every error.
 */
#include <stdio.h>
#include <string.h>

#include "perfbot/util/text.h"
#include "matrix_internal.h"

int lx_fail(struct lexer *lx, const char *what)
{
	return pb_fail(lx->err, EX_DATAERR, "%s:%d: %s", lx->file, lx->line,
		       what);
}

void lx_skip_ws_run(struct lexer *lx)
{
	for (; lx->p < lx->end; lx->p++) {
		if (*lx->p == '\n')
			lx->line++;
		else if (*lx->p != ' ' && *lx->p != '\t' && *lx->p != '\r')
			break;
	}
}

int lx_expect(struct lexer *lx, char c)
{
	skip_ws(lx);
	if (lx->p >= lx->end || *lx->p != c) {
		char msg[32];

		snprintf(msg, sizeof(msg), "'%c' expected", c);
		return lx_fail(lx, msg);
	}
	lx->p++;
	return 0;
}

static int hex4(const char *p, unsigned *out)
{
	unsigned v = 0;
	int i;

	for (i = 0; i < 4; i++) {
		char c = p[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned)(c - '0');
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			v |= (unsigned)((c | 0x20) - 'a' + 10);
		else
			return -1;
	}
	*out = v;
	return 0;
}

/* The code point's UTF-8 (the escape was checked: never a surrogate). */
static int put_utf8(struct strbuf *sb, unsigned cp)
{
	char b[4];

	return sb_add(sb, b, utf8_encode(cp, b));
}

/* \uXXXX, with a surrogate pair when one follows. */
static int unicode_escape(struct lexer *lx, struct strbuf *out)
{
	unsigned cp, lo;

	if (lx->end - lx->p < 5 || hex4(lx->p + 1, &cp))
		return lx_fail(lx, "bad \\u escape");
	lx->p += 5;
	if (cp >= 0xd800 && cp < 0xdc00) {
		if (lx->end - lx->p < 6 || lx->p[0] != '\\' ||
		    lx->p[1] != 'u' || hex4(lx->p + 2, &lo) || lo < 0xdc00 ||
		    lo > 0xdfff)
			return lx_fail(lx, "bad surrogate pair");
		cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
		lx->p += 6;
	} else if (cp >= 0xdc00 && cp < 0xe000) {
		return lx_fail(lx, "bad surrogate pair");
	}
	if (!cp)
		return lx_fail(lx, "NUL in a string");
	return out && put_utf8(out, cp) ? lx_fail(lx, "string too long") : 0;
}

static int escape(struct lexer *lx, struct strbuf *out)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *k;

	if (++lx->p >= lx->end)
		return lx_fail(lx, "unterminated string");
	if (*lx->p == 'u')
		return unicode_escape(lx, out);
	k = strchr(from, *lx->p);
	if (!k || !*lx->p)
		return lx_fail(lx, "bad escape in a string");
	lx->p++;
	return out && sb_addc(out, to[k - from]) ?
		lx_fail(lx, "string too long") : 0;
}

/* The bytes that end a run of plain string characters. */
static const unsigned char string_stop[256] = {
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,	/* controls */
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	['"'] = 1, ['\\'] = 1,
};

/* A string into 'out' (NULL: validate and skip), capped by out->max. */
int lx_string(struct lexer *lx, struct strbuf *out)
{
	const char *run;

	if (lx_expect(lx, '"'))
		return -1;
	for (;;) {
		run = lx->p;
		while (lx->p < lx->end && !string_stop[(unsigned char)*lx->p])
			lx->p++;
		if (out && sb_add(out, run, (size_t)(lx->p - run)))
			return lx_fail(lx, "string too long");
		if (lx->p >= lx->end)
			return lx_fail(lx, "unterminated string");
		if (*lx->p == '"') {
			lx->p++;
			return 0;
		}
		if ((unsigned char)*lx->p < 0x20)
			return lx_fail(lx, "control character in a string");
		if (escape(lx, out))
			return -1;
	}
}
