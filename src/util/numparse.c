// SPDX-License-Identifier: GPL-2.0-only
/*
 * util: numbers. The strict ones of every input (parse_long, parse_double
 * at the end), and JSON numbers to doubles, exactly as strtod() rounds
 * them. A matrix.json
 * holds 160,000 to millions of numbers, and glibc's strtod() costs
 * 100-300 ns each (it always works in multi-precision), so:
 *  - up to 19 significant digits w and a decimal exponent q:
 *    - w <= 2^53 and |q| <= 22: w and 10^|q| are exact doubles, so one
 *      multiplication or division rounds once, as strtod does (Clinger);
 *    - otherwise Eisel-Lemire: w times a 128-bit approximation of 5^q
 *      gives the 54 leading bits of the result and tells when they might
 *      be off by one; only then does strtod() decide;
 *  - more digits: strtod().
 * The powers of five are computed once, on first use, from exact
 * multi-precision integers (no table to trust).
 */
#include <float.h>
#include <pthread.h>
#include <stdint.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/util/numparse.h"

__extension__ typedef unsigned __int128 u128;

#define POW5_MIN (-342)	/* w * 10^q < 2^-1075 below: 0 */
#define POW5_MAX 308	/* w * 10^q > DBL_MAX above: infinity */
#define POW5_N (POW5_MAX - POW5_MIN + 1)
#define BIG_WORDS 40	/* 32-bit words: 2^1024 and 5^308 * 2^128 fit */

static uint64_t pow5_hi[POW5_N], pow5_lo[POW5_N];
static pthread_once_t pow5_once = PTHREAD_ONCE_INIT;

static const double pow10_exact[] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

static const uint64_t pow10_u64[] = {
	1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL,
	10000000ULL, 100000000ULL, 1000000000ULL, 10000000000ULL,
	100000000000ULL, 1000000000000ULL, 10000000000000ULL,
	100000000000000ULL, 1000000000000000ULL,
};

/* A little-endian multi-precision integer of 32-bit words. */
struct big {
	uint32_t w[BIG_WORDS];
	int n;
};

static void big_mul5(struct big *b)
{
	uint64_t carry = 0;
	int i;

	for (i = 0; i < b->n; i++) {
		carry += (uint64_t)b->w[i] * 5;
		b->w[i] = (uint32_t)carry;
		carry >>= 32;
	}
	if (carry)
		b->w[b->n++] = (uint32_t)carry;
}

/* b = floor(b / 5); floors compose, so this stays floor(2^N / 5^k). */
static void big_div5(struct big *b)
{
	uint64_t rem = 0, cur;
	int i;

	for (i = b->n - 1; i >= 0; i--) {
		cur = rem << 32 | b->w[i];
		b->w[i] = (uint32_t)(cur / 5);
		rem = cur % 5;
	}
	while (b->n > 0 && !b->w[b->n - 1])
		b->n--;
}

static uint32_t big_bits32(const struct big *b, int pos)
{
	int i = pos >> 5, sh = pos & 31;
	uint64_t x = b->w[i];

	if (i + 1 < b->n)
		x |= (uint64_t)b->w[i + 1] << 32;
	return (uint32_t)(x >> sh);
}

/* The 128 leading bits of b (at least 128 bits long), truncated. */
static void big_top128(const struct big *b, uint64_t *hi, uint64_t *lo)
{
	int len = 32 * b->n - __builtin_clz(b->w[b->n - 1]);
	int pos = len - 128;

	*lo = (uint64_t)big_bits32(b, pos + 32) << 32 | big_bits32(b, pos);
	*hi = (uint64_t)big_bits32(b, pos + 96) << 32 |
		big_bits32(b, pos + 64);
}

/*
 * pow5[q] holds 5^q scaled by a power of two into [2^127, 2^128): for
 * q >= 0 truncated, for q < 0 truncated from floor(2^1024 / 5^-q), plus
 * one for q >= -27 (a rounded-up reciprocal, what the round-to-even test
 * below relies on), as Eisel-Lemire is defined.
 */
static void pow5_init(void)
{
	struct big b;
	int q;

	memset(&b, 0, sizeof(b));
	b.w[4] = 1;		/* 2^128: 5^0 already 128 bits long */
	b.n = 5;
	for (q = 0; q <= POW5_MAX; q++) {
		big_top128(&b, &pow5_hi[q - POW5_MIN], &pow5_lo[q - POW5_MIN]);
		big_mul5(&b);
	}
	memset(&b, 0, sizeof(b));
	b.w[32] = 1;		/* 2^1024 */
	b.n = 33;
	for (q = -1; q >= POW5_MIN; q--) {
		uint64_t *hi = &pow5_hi[q - POW5_MIN], *lo = &pow5_lo[q - POW5_MIN];

		big_div5(&b);
		big_top128(&b, hi, lo);
		if (q >= -27 && !++*lo)
			++*hi;
	}
}

/*
 * Eisel-Lemire: the bits of w * 10^q (w != 0) as a double, or -1 when
 * the 128-bit product cannot tell which way it rounds.
 */
static __attribute__((noinline)) int lemire(uint64_t w, int q,
					    uint64_t *bits)
{
	uint64_t hi, lo, m, t;
	int lz, upper, shift;
	int64_t p2;
	u128 z;

	if (q < POW5_MIN || q > POW5_MAX) {
		*bits = q < 0 ? 0 : (uint64_t)0x7ff << 52;
		return 0;
	}
	pthread_once(&pow5_once, pow5_init);
	lz = __builtin_clzll(w);
	w <<= lz;
	z = (u128)w * pow5_hi[q - POW5_MIN];
	hi = (uint64_t)(z >> 64);
	lo = (uint64_t)z;
	if ((hi & 0x1ff) == 0x1ff) {
		/* the low half of 5^q may carry into the bits we keep */
		t = (uint64_t)(((u128)w * pow5_lo[q - POW5_MIN]) >> 64);
		lo += t;
		hi += lo < t;
	}
	if (lo == UINT64_MAX && (q < -27 || q > 55))
		return -1;
	upper = (int)(hi >> 63);
	shift = upper + 9;
	m = hi >> shift;	/* 53 bits and one to round with */
	/* floor(q * log2(10)) + 63, as a fixed-point product */
	p2 = ((217706 * (int64_t)q) >> 16) + 63 + upper - lz + 1023;
	if (p2 <= 0) {
		/* subnormal: never a tie here (that needs q >= -27) */
		if (1 - p2 >= 64) {
			*bits = 0;
			return 0;
		}
		m >>= 1 - p2;
		m += m & 1;
		/* 2^52 after rounding is the least normal: its exponent 1 */
		*bits = m >> 1;
		return 0;
	}
	if (lo <= 1 && q >= -4 && q <= 23 && (m & 3) == 1 &&
	    m << shift == hi)
		m &= ~(uint64_t)1;	/* an exact tie: round to even */
	m += m & 1;
	m >>= 1;
	if (m >= (uint64_t)2 << 52) {
		m = (uint64_t)1 << 52;
		p2++;
	}
	if (p2 >= 0x7ff)
		m = 0, p2 = 0x7ff;
	*bits = (m & ~((uint64_t)1 << 52)) | (uint64_t)p2 << 52;
	return 0;
}

static int is_digit(const char *p, const char *end)
{
	return p < end && (unsigned char)(*p - '0') < 10;
}

/*
 * The run of digits at p: its end, and in *w the first 'room' of them
 * appended (w * 10^k + digits). (Eight digits at a time with SWAR
 * arithmetic measured no faster on matrix.json's short numbers.)
 */
static inline const char *digit_run(const char *p, const char *end,
				    uint64_t *w, size_t room)
{
	const char *run = p;
	uint64_t v = *w;
	size_t n;

	/* two tight loops: find the end, then add up (no test per digit) */
	while (p < end && (unsigned char)(*p - '0') < 10)
		p++;
	n = (size_t)(p - run) < room ? (size_t)(p - run) : room;
	while (n--)
		v = v * 10 + (unsigned)(*run++ - '0');
	*w = v;
	return p;
}

/* Out of line: the buffer (and its stack guard) only when needed. */
static __attribute__((noinline)) double libc_strtod(const char *s,
						    size_t len)
{
	char buf[NUMPARSE_MAX_CHARS + 1];

	memcpy(buf, s, len);
	buf[len] = '\0';
	return strtod(buf, NULL);
}

/* The exact conversions; -1 when strtod() must decide. */
static int convert(uint64_t w, int64_t q, int neg, double *out,
		   enum numparse_path *path)
{
	uint64_t bits;
	double d;

#if FLT_EVAL_METHOD == 0
	if (w <= (uint64_t)1 << 53) {
		if (q >= -22 && q <= 22) {
			d = (double)w;
			d = q >= 0 ? d * pow10_exact[q] : d / pow10_exact[-q];
			*out = neg ? -d : d;
			*path = NUMPARSE_PATH_CLINGER;
			return 0;
		}
		/* 123e30 = 123000000e24: the extra digits still exact */
		if (q > 22 && q <= 22 + 15 &&
		    w <= ((uint64_t)1 << 53) / pow10_u64[q - 22]) {
			d = (double)(w * pow10_u64[q - 22]) * pow10_exact[22];
			*out = neg ? -d : d;
			*path = NUMPARSE_PATH_CLINGER;
			return 0;
		}
	}
#endif
	if (q < INT32_MIN / 2 || q > INT32_MAX / 2)
		q = q < 0 ? INT32_MIN / 2 : INT32_MAX / 2;
	if (lemire(w, (int)q, &bits))
		return -1;
	bits |= (uint64_t)neg << 63;
	memcpy(out, &bits, sizeof(*out));
	*path = NUMPARSE_PATH_LEMIRE;
	return 0;
}

/*
 * What matrix.json mostly holds, in one pass: -?d+(.d+)? with at most 19
 * digits, no exponent, converted by Clinger's rule. 0 when it does not
 * apply (then the general parser starts again from s); else 1, with
 * '*is_int' 1 when it has no fraction.
 */
static inline int plain_decimal(const char *s, const char *end, double *out,
				const char **endp, int *is_int)
{
	const char *p = s + (s < end && *s == '-'), *digits = p, *frac;
	uint64_t w = 0;
	size_t nint, nfrac = 0;
	double d;

	while (p < end && (unsigned char)(*p - '0') < 10)
		w = w * 10 + (unsigned)(*p++ - '0');
	nint = (size_t)(p - digits);
	if (!nint || (nint > 1 && *digits == '0'))
		return 0;
	if (p < end && *p == '.') {
		frac = ++p;
		while (p < end && (unsigned char)(*p - '0') < 10)
			w = w * 10 + (unsigned)(*p++ - '0');
		nfrac = (size_t)(p - frac);
		if (!nfrac)
			return 0;
	}
	if (nint + nfrac > 19 || w > (uint64_t)1 << 53 || nfrac > 22 ||
	    (p < end && (*p == 'e' || *p == 'E')))
		return 0;
	d = nfrac ? (double)w / pow10_exact[nfrac] : (double)w;
	*out = *s == '-' ? -d : d;
	*endp = p;
	*is_int = !nfrac;
	return 1;
}

/* Everything else, by the grammar; out of line to keep numparse() lean. */
static __attribute__((noinline)) int general(const char *s, const char *end,
					     double *out, const char **endp,
					     enum numparse_path *path,
					     int *is_int)
{
	const char *p = s, *run, *frac;
	uint64_t w = 0;
	int64_t q = 0, e = 0;
	size_t nsig = 0, n, take;
	int neg = 0, eneg = 0;

	if (p < end && *p == '-')
		neg = 1, p++;
	if (!is_digit(p, end))
		return NUMPARSE_SYNTAX;
	if (*p == '0') {
		if (is_digit(++p, end))
			return NUMPARSE_SYNTAX;
	} else {
		/* the first 19 significant digits go into w, the rest count */
		run = p;
		p = digit_run(p, end, &w, 19);
		nsig = (size_t)(p - run);
		q = nsig > 19 ? (int64_t)(nsig - 19) : 0;
	}
	if (p < end && *p == '.') {
		if (!is_digit(++p, end))
			return NUMPARSE_SYNTAX;
		frac = p;
		if (!nsig) {
			/* leading zeros only move the point */
			while (p < end && *p == '0')
				p++;
			q -= p - frac;
		}
		run = p;
		take = nsig >= 19 ? 0 : 19 - nsig;
		p = digit_run(p, end, &w, take);
		n = (size_t)(p - run);
		q -= (int64_t)(n < take ? n : take);
		nsig += n;
	}
	if (p < end && (*p == 'e' || *p == 'E')) {
		if (++p < end && (*p == '+' || *p == '-'))
			eneg = *p++ == '-';
		if (!is_digit(p, end))
			return NUMPARSE_SYNTAX;
		for (; is_digit(p, end); p++)
			if (e < 1000000000)	/* beyond: 0 or infinity */
				e = e * 10 + (*p - '0');
		q += eneg ? -e : e;
	}
	if (p - s > NUMPARSE_MAX_CHARS && !(nsig <= 15 && q >= -22 && q <= 22))
		return NUMPARSE_TOO_LONG;
	*endp = p;
	*is_int = !memchr(s, '.', (size_t)(p - s)) &&
		!memchr(s, 'e', (size_t)(p - s)) &&
		!memchr(s, 'E', (size_t)(p - s));
	if (!w) {
		*out = neg ? -0.0 : 0.0;
		*path = NUMPARSE_PATH_ZERO;
		return NUMPARSE_OK;
	}
	if (nsig <= 19 && !convert(w, q, neg, out, path))
		return NUMPARSE_OK;
	/* only numbers of at most 15 digits pass above longer than this */
	if (p - s > NUMPARSE_MAX_CHARS)
		return NUMPARSE_TOO_LONG;
	*out = libc_strtod(s, (size_t)(p - s));
	*path = NUMPARSE_PATH_LIBC;
	return NUMPARSE_OK;
}

int numparse_ex(const char *s, const char *end, double *out,
		const char **endp, enum numparse_path *path)
{
	int is_int;

#if FLT_EVAL_METHOD == 0
	if (plain_decimal(s, end, out, endp, &is_int)) {
		*path = *out == 0 ? NUMPARSE_PATH_ZERO : NUMPARSE_PATH_CLINGER;
		return NUMPARSE_OK;
	}
#endif
	return general(s, end, out, endp, path, &is_int);
}

int numparse(const char *s, const char *end, double *out, const char **endp)
{
	int is_int;

	return numparse_int(s, end, out, endp, &is_int);
}

int numparse_int(const char *s, const char *end, double *out,
		 const char **endp, int *is_int)
{
	enum numparse_path path;

#if FLT_EVAL_METHOD == 0
	if (plain_decimal(s, end, out, endp, is_int))
		return NUMPARSE_OK;
#endif
	return general(s, end, out, endp, &path, is_int);
}

/* Strict: an optional '-' then digits, nothing else. */
int parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	if (!((*s >= '0' && *s <= '9') || (*s == '-' && s[1] >= '0' &&
					   s[1] <= '9')))
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int parse_double(const char *s, double *out)
{
	char *end;
	double v;

	if (!((*s >= '0' && *s <= '9') || *s == '-' || *s == '.'))
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if ((errno && errno != ERANGE) || end == s || *end || !isfinite(v))
		return -1;
	*out = v;
	return 0;
}
