/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_MATRIX_INTERNAL_H
#define PERFBOT_MATRIX_INTERNAL_H

/*
 * Shared by the two files of the matrix.json reader only: matrix_lex.c
 * scans JSON tokens (whitespace, strings, numbers) strictly by the
 * grammar, matrix.c builds the matrix from them.
 */

#include <math.h>
#include <stddef.h>

#include "perfbot/ingest/result.h"
#include "perfbot/util/err.h"
#include "perfbot/util/numparse.h"
#include "perfbot/util/strbuf.h"

struct lexer {
	const char *p, *end;
	const char *file;
	int line;
	struct pb_err *err;
};

/*
 * result_root_parse_matrix() of a text that is a mapping of the file
 * (result.c): with 'mapped', the pages read are handed back as the
 * reader goes (a 200,000-metric file is 22 MB, as much as what is read
 * from it), so a file never takes more than a few MiB at once.
 */
int matrix_parse(struct result_root *rr, const char *name, const char *text,
		 size_t len, int mapped, struct pb_err *err);

/* EX_DATAERR "<file>:<line>: <what>". */
int lx_fail(struct lexer *lx, const char *what);

void lx_skip_ws_run(struct lexer *lx);

/* Most calls skip nothing or one space: that inline, the loop not. */
static inline void skip_ws(struct lexer *lx)
{
	if (lx->p < lx->end && *lx->p == ' ')
		lx->p++;
	if (lx->p < lx->end && (unsigned char)*lx->p > ' ')
		return;
	lx_skip_ws_run(lx);
}

/* Skip whitespace, then the character 'c' or fail. */
int lx_expect(struct lexer *lx, char c);

/* A string into 'out' (NULL: validate and skip), capped by out->max. */
int lx_string(struct lexer *lx, struct strbuf *out);

/* A JSON number, exactly as strtod() reads it (numparse.c), and in
 * '*is_int' whether it is written as an integer; inline, as it is read
 * 160,000 times in a 20,000-metric file. */
static inline int lx_number(struct lexer *lx, double *out, int *is_int)
{
	int rc = numparse_int(lx->p, lx->end, out, &lx->p, is_int);

	if (rc == NUMPARSE_SYNTAX)
		return lx_fail(lx, "bad number");
	if (rc == NUMPARSE_TOO_LONG)
		return lx_fail(lx, "number too long");
	return isfinite(*out) ? 0 : lx_fail(lx, "number out of range");
}

#endif
