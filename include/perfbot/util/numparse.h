/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_NUMPARSE_H
#define PERFBOT_NUMPARSE_H

/*
 * JSON numbers (RFC 8259 grammar, as matrix.json holds them) to doubles,
 * bit for bit what strtod() gives in the C locale, rounding to nearest:
 * exact fast paths for the common short decimals, strtod() for the rest.
 */

/* A number longer than this is refused unless it takes the short path. */
#define NUMPARSE_MAX_CHARS 128

#define NUMPARSE_OK 0
#define NUMPARSE_SYNTAX -1	/* not a JSON number */
#define NUMPARSE_TOO_LONG -2	/* see numparse() */

/* Which conversion a number took (numparse_ex(), for the tests). */
enum numparse_path {
	NUMPARSE_PATH_ZERO,	/* all digits 0 */
	NUMPARSE_PATH_CLINGER,	/* w * 10^e or w / 10^e, one rounding */
	NUMPARSE_PATH_LEMIRE,	/* Eisel-Lemire, 128-bit powers of five */
	NUMPARSE_PATH_LIBC,	/* strtod() */
};

/*
 * Parse the JSON number that starts at 's' (reading nothing at or beyond
 * 'end'): '-'? (0 | [1-9][0-9]*) ('.' [0-9]+)? ([eE] [+-]? [0-9]+)?. The
 * longest such prefix is taken; what follows is the caller's to check.
 * On success *out is the double strtod() would return for that text,
 * +-HUGE_VAL beyond the range and +-0 or a subnormal below it, and *endp
 * points after the number. NUMPARSE_SYNTAX when no number starts at 's';
 * NUMPARSE_TOO_LONG when the number has more than NUMPARSE_MAX_CHARS
 * characters, unless it has at most 15 significant digits and a decimal
 * exponent (after moving the point behind the last digit) within +-22,
 * which is what matrix.json accepted before this parser. LC_NUMERIC must
 * be "C" (main() sets it).
 */
int numparse(const char *s, const char *end, double *out,
	     const char **endp);

/*
 * numparse(), and in *is_int 1 when the number is written as an integer,
 * without a fraction or an exponent (what Ruby's JSON reads as an
 * Integer), else 0.
 */
int numparse_int(const char *s, const char *end, double *out,
		 const char **endp, int *is_int);

/* numparse(), and in *path the conversion it took. */
int numparse_ex(const char *s, const char *end, double *out,
		const char **endp, enum numparse_path *path);

/*
 * Strict numbers of every other input (YAML scalars, command lines,
 * server answers): an optional '-' then digits, nothing else, within
 * [min, max]; a finite decimal. 0, or -1 for anything else.
 */
int parse_long(const char *s, long min, long max, long *out);
int parse_double(const char *s, double *out);

#endif
