// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/ingest/numparse.c: every number must give the double
 * strtod() gives, bit for bit. Millions of generated decimals from
 * classes that hit each path and its edges (short decimals, 17-digit
 * round-trip forms, 19- and 20-digit mantissas, exact and near halfway
 * points between neighbouring doubles, subnormals, the ends of the
 * exponent range, integers around 2^53 and 2^64), plus the grammar and
 * the length rule of the matrix.json reader it replaced.
 * NUMPARSE_N=100000000 runs a longer sweep; NUMPARSE_SEED another one.
 */
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "perfbot/util/numparse.h"

#define DEFAULT_N 2000000

static uint64_t rng = 0x243f6a8885a308d3ULL;

static uint64_t next(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Draws are sequenced (never two in one expression): same numbers in
 * every build. */
static uint64_t below(uint64_t n)
{
	return next() % n;
}

static double from_bits(uint64_t b)
{
	double d;

	memcpy(&d, &b, sizeof(d));
	return d;
}

static uint64_t to_bits(double d)
{
	uint64_t b;

	memcpy(&b, &d, sizeof(b));
	return b;
}

static long paths[4];
static long checked;

/* numparse() and strtod() agree on s, bit for bit, and use all of it. */
static void check(const char *s)
{
	const char *end = s + strlen(s), *endp = NULL;
	enum numparse_path path;
	char *sendp;
	double got, want;
	int rc;

	rc = numparse_ex(s, end, &got, &endp, &path);
	if (rc == NUMPARSE_TOO_LONG && end - s > NUMPARSE_MAX_CHARS)
		return;
	if (rc != NUMPARSE_OK)
		fail_msg("'%s': numparse returned %d", s, rc);
	want = strtod(s, &sendp);
	if (to_bits(got) != to_bits(want))
		fail_msg("'%s': numparse %a (path %d), strtod %a", s, got,
			 (int)path, want);
	if (endp != end || sendp != end)
		fail_msg("'%s': stopped early", s);
	/* again inside a list, where 8 bytes can be read at once */
	{
		char list[300];
		int n = snprintf(list, sizeof(list), "%s, 12345678],\n", s);
		double again;

		if (numparse(list, list + n, &again, &endp) ||
		    to_bits(again) != to_bits(got) || endp != list + (end - s))
			fail_msg("'%s': not the same in a list", s);
	}
	paths[path]++;
	checked++;
}

/* ---- generators: each writes one JSON number into buf ---- */

static void digits(char *p, int n, int lead_nonzero)
{
	int i;

	for (i = 0; i < n; i++)
		p[i] = (char)('0' + below(10));
	if (lead_nonzero && n)
		p[0] = (char)('1' + below(9));
	p[n] = '\0';
}

/* n significant digits, the point after 'point' of them, exponent e. */
static void decimal(char *buf, size_t cap, int n, int point, int e, int neg)
{
	char d[64], *p = buf;
	size_t left = cap;
	int k;

	digits(d, n, 1);
	if (neg)
		*p++ = '-', left--;
	if (point <= 0) {
		k = snprintf(p, left, "0.%.*s%s", -point, "0000000000000000"
			     "000000000000000000000000", d);
	} else if (point >= n) {
		k = snprintf(p, left, "%s%.*s", d, point - n,
			     "0000000000000000000000000000000000000000");
	} else {
		k = snprintf(p, left, "%.*s.%s", point, d, d + point);
	}
	if (e)
		snprintf(p + k, left - (size_t)k, "e%s%d",
			 below(2) ? "" : (e > 0 ? "+" : ""), e);
}

/* The shortest or longer round-trip forms of any finite double. */
static void gen_roundtrip(char *buf, size_t cap)
{
	static const char *const fmt[] = { "%.17g", "%.16g", "%.15g",
					   "%.17e", "%.18e", "%.12g" };
	double d;

	do
		d = from_bits(next());
	while (!isfinite(d));
	snprintf(buf, cap, fmt[below(6)], d);
}

/* LKP-like: up to 6 integer digits and 0-4 decimals, or an integer. */
static void gen_short(char *buf, size_t cap)
{
	int n = 1 + (int)below(12);
	int point = n - (int)below(5);

	decimal(buf, cap, n, point, 0, below(8) == 0);
}

/* 1-19 significant digits, any point, exponent -30..30 */
static void gen_mantissa(char *buf, size_t cap)
{
	int n = 1 + (int)below(19);
	int point = (int)below(40) - 20, e = (int)below(61) - 30;

	decimal(buf, cap, n, point, e, (int)below(2));
}

/* 19 and 20 digits (the edge of w), and more, up to 40 */
static void gen_long_mantissa(char *buf, size_t cap)
{
	int n = below(4) ? 19 + (int)below(2) : 21 + (int)below(20);
	int point = (int)below((uint64_t)n + 2), e = (int)below(80) - 40;

	decimal(buf, cap, n, point, e, (int)below(2));
}

/* the ends: exponents -360..-290 and 280..330 */
static void gen_extreme(char *buf, size_t cap)
{
	int n = 1 + (int)below(20);
	int e = below(2) ? -360 + (int)below(70) : 280 + (int)below(50);

	decimal(buf, cap, n, 1, e, (int)below(2));
}

/* subnormals and the least normals, in round-trip and longer forms */
static void gen_subnormal(char *buf, size_t cap)
{
	uint64_t b = below(4) ? below((uint64_t)1 << 52) :
		((uint64_t)1 << 52) + below((uint64_t)1 << 40);

	if (below(8) == 0)
		b = below(64);
	snprintf(buf, cap, "%.*e", below(4) ? 12 + (int)below(7) :
		 19 + (int)below(8), from_bits(b));
}

/*
 * Halfway between a double and the next one (exact in long double) and
 * just beside it: printed with 16-27 digits, or exactly when that takes
 * at most 100 characters.
 */
static void gen_halfway(char *buf, size_t cap)
{
	uint64_t b;
	long double mid;
	char *e;
	int prec;

	do {
		b = next() & 0x7fffffffffffffffULL;
		if (below(3) == 0)	/* moderate exponents: exact ties */
			b = (b & 0x800fffffffffffffULL) |
				(uint64_t)(1023 + 40 - below(100)) << 52;
	} while (!isfinite(from_bits(b)) || b == 0x7fefffffffffffffULL);
	mid = ((long double)from_bits(b) + (long double)from_bits(b + 1)) / 2;
	snprintf(buf, cap, "%.100Le", mid);
	e = strchr(buf, 'e');
	if (e && e - buf > 10 && e[-1] == '0' && e[-2] == '0') {
		/* exact within 100 digits: strip the zeros */
		char *z = e;

		while (z[-1] == '0')
			z--;
		if (z[-1] == '.')
			z--;
		memmove(z, e, strlen(e) + 1);
		if (below(2))
			return;
	}
	prec = below(4) ? 15 + (int)below(4) : 19 + (int)below(8);
	snprintf(buf, cap, "%.*Le", prec, mid);
	if (below(3) == 0) {
		/* one unit off in the last digit, either way */
		e = strchr(buf, 'e');
		if (e && e[-1] != '.') {
			char *c = e - 1;

			if (below(2) && *c < '9')
				(*c)++;
			else if (*c > '0')
				(*c)--;
		}
	}
}

/* integers around 2^53, 2^63 and 2^64, and beyond 2^64 */
static void gen_integer(char *buf, size_t cap)
{
	static const uint64_t base[] = {
		(uint64_t)1 << 53, (uint64_t)1 << 54, (uint64_t)1 << 63, 0,
	};
	uint64_t v;

	switch (below(4)) {
	case 0:
		snprintf(buf, cap, "%llu", (unsigned long long)next() >>
			 below(64));
		return;
	case 1:
		v = base[below(4)];
		v += below(2048) - 1024;
		snprintf(buf, cap, "%s%llu", below(2) ? "-" : "",
			 (unsigned long long)v);
		return;
	case 2:	/* 2^64 + a little, as a 20-digit decimal */
		snprintf(buf, cap, "1844674407370955%04d",
			 1000 + (int)below(9000));
		return;
	default:
		decimal(buf, cap, 20 + (int)below(6), 25, 0, 0);
	}
}

/* any JSON number: random parts, any length up to the limit */
static void gen_any(char *buf, size_t cap)
{
	char *p = buf;
	int n;

	if (below(2))
		*p++ = '-';
	if (below(4) == 0) {
		*p++ = '0';
	} else {
		n = 1 + (int)below(22);
		digits(p, n, 1);
		p += n;
	}
	if (below(2)) {
		*p++ = '.';
		n = 1 + (int)below(24);
		digits(p, n, 0);
		p += n;
	}
	if (below(2)) {
		*p++ = below(2) ? 'e' : 'E';
		if (below(2))
			*p++ = below(2) ? '+' : '-';
		n = 1 + (int)below(4);
		digits(p, n, 0);
		p += n;
	}
	*p = '\0';
	(void)cap;
}

static void (*const gens[])(char *, size_t) = {
	gen_roundtrip, gen_short, gen_mantissa, gen_long_mantissa,
	gen_extreme, gen_subnormal, gen_halfway, gen_integer, gen_any,
};
#define NGENS (sizeof(gens) / sizeof(gens[0]))

static void sweep(void **state)
{
	const char *n_env = getenv("NUMPARSE_N"), *seed = getenv("NUMPARSE_SEED");
	long n = n_env ? strtol(n_env, NULL, 10) : DEFAULT_N, i;
	char buf[256];

	(void)state;
	if (seed)
		rng ^= strtoull(seed, NULL, 0);
	memset(paths, 0, sizeof(paths));
	checked = 0;
	for (i = 0; i < n; i++) {
		gens[(size_t)i % NGENS](buf, sizeof(buf));
		check(buf);
	}
	fprintf(stderr, "numparse: %ld numbers equal to strtod: %ld zero, "
		"%ld Clinger, %ld Eisel-Lemire, %ld strtod\n", checked,
		paths[NUMPARSE_PATH_ZERO], paths[NUMPARSE_PATH_CLINGER],
		paths[NUMPARSE_PATH_LEMIRE], paths[NUMPARSE_PATH_LIBC]);
	/* each path taken, and strtod only for the few that need it */
	assert_true(checked > n * 9 / 10);
	assert_true(paths[NUMPARSE_PATH_CLINGER] > n / 5);
	assert_true(paths[NUMPARSE_PATH_LEMIRE] > n / 5);
	assert_true(paths[NUMPARSE_PATH_LIBC] < n / 4);
	assert_true(paths[NUMPARSE_PATH_LIBC] > 0);
}

/* Edges written out: each equal to strtod and on the expected path. */
static void edges(void **state)
{
	static const struct { const char *s; enum numparse_path path; } t[] = {
		{ "0", NUMPARSE_PATH_ZERO },
		{ "-0", NUMPARSE_PATH_ZERO },
		{ "-0.0e-999", NUMPARSE_PATH_ZERO },
		{ "0e99999999999999", NUMPARSE_PATH_ZERO },
		{ "1", NUMPARSE_PATH_CLINGER },
		{ "123.45", NUMPARSE_PATH_CLINGER },
		{ "9007199254740992", NUMPARSE_PATH_CLINGER },
		{ "9007199254740993", NUMPARSE_PATH_LEMIRE },	/* a tie */
		{ "9007199254740995", NUMPARSE_PATH_LEMIRE },	/* a tie */
		{ "1e22", NUMPARSE_PATH_CLINGER },
		{ "123e30", NUMPARSE_PATH_CLINGER },
		{ "1e23", NUMPARSE_PATH_CLINGER },
		{ "1e38", NUMPARSE_PATH_LEMIRE },
		{ "0.1", NUMPARSE_PATH_CLINGER },
		{ "0.30000000000000004", NUMPARSE_PATH_LEMIRE },
		{ "18446744073709551615", NUMPARSE_PATH_LIBC },	/* 20 digits */
		{ "1844674407370955161", NUMPARSE_PATH_LEMIRE },
		{ "1.7976931348623157e308", NUMPARSE_PATH_LEMIRE },
		{ "1.7976931348623158e308", NUMPARSE_PATH_LEMIRE },
		{ "1.797693134862315808e308", NUMPARSE_PATH_LEMIRE },
		{ "1e309", NUMPARSE_PATH_LEMIRE },
		{ "-1e400", NUMPARSE_PATH_LEMIRE },
		{ "2.2250738585072011e-308", NUMPARSE_PATH_LEMIRE },
		{ "2.2250738585072012e-308", NUMPARSE_PATH_LEMIRE },
		{ "4.9406564584124654e-324", NUMPARSE_PATH_LEMIRE },
		{ "2.4703282292062327e-324", NUMPARSE_PATH_LEMIRE },
		{ "2.4703282292062328e-324", NUMPARSE_PATH_LEMIRE },
		{ "1e-400", NUMPARSE_PATH_LEMIRE },
		{ "-1e-400", NUMPARSE_PATH_LEMIRE },
		{ "2.225073858507201136057409796709131975934819546351645648e-308",
		  NUMPARSE_PATH_LIBC },
		{ "7.2057594037927933e16", NUMPARSE_PATH_LEMIRE },
	};
	const char *endp;
	enum numparse_path path;
	double d;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		check(t[i].s);
		assert_int_equal(numparse_ex(t[i].s, t[i].s + strlen(t[i].s),
					     &d, &endp, &path), NUMPARSE_OK);
		if (path != t[i].path)
			fail_msg("'%s': path %d, expected %d", t[i].s,
				 (int)path, (int)t[i].path);
	}
	assert_int_equal(numparse("-1e-400", "-1e-400" + 7, &d, &endp), 0);
	assert_true(d == 0 && signbit(d));
	d = 1;
	assert_int_equal(numparse("-0", "-0" + 2, &d, &endp), 0);
	assert_true(d == 0 && signbit(d));
}

/* The grammar: what is refused, and where a number stops. */
static void grammar(void **state)
{
	static const char *const bad[] = {
		"", "-", "+1", ".5", "01", "-01", "00", "1.", "1.e5", "1e",
		"1e+", "1E-", "-.5", "e5", "Infinity", "NaN", "-x", " 1",
	};
	static const struct { const char *s; size_t len; } stop[] = {
		{ "0x10", 1 }, { "1.5e3x", 5 }, { "12,", 2 }, { "-0]", 2 },
		{ "1e5.5", 3 }, { "3.25 ", 4 }, { "7E+2e", 4 },
	};
	const char *endp;
	double d;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (numparse(bad[i], bad[i] + strlen(bad[i]), &d, &endp) !=
		    NUMPARSE_SYNTAX)
			fail_msg("'%s' accepted", bad[i]);
	for (i = 0; i < sizeof(stop) / sizeof(stop[0]); i++) {
		assert_int_equal(numparse(stop[i].s, stop[i].s +
					  strlen(stop[i].s), &d, &endp), 0);
		assert_int_equal(endp - stop[i].s, stop[i].len);
	}
	/* 'end' bounds the text: "123" seen as "12" */
	assert_int_equal(numparse("123", "123" + 2, &d, &endp), 0);
	assert_true(d == 12.0);
	assert_int_equal(numparse("1.5", "1.5" + 2, &d, &endp),
			 NUMPARSE_SYNTAX);
}

/*
 * The matrix.json reader before numparse (its number(), as it was): the
 * oracle for what is accepted and refused. 0 ok, 1 bad, 2 too long.
 */
static int old_number(const char *s, const char *end, double *out,
		      const char **endp)
{
	static const double p10[] = {
		1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
		1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21,
		1e22,
	};
	const char *p = s;
	int sig = 0, exp10 = 0, neg = 0, eneg = 0, frac = 0;
	char buf[NUMPARSE_MAX_CHARS + 1];
	uint64_t mant = 0;
	long e = 0;

#define DIG(q) ((q) < end && *(q) >= '0' && *(q) <= '9')
	if (p < end && *p == '-')
		neg = *p++ == '-';
	if (!DIG(p) || (*p == '0' && DIG(p + 1)))
		return 1;
	for (;;) {
		for (; DIG(p); p++) {
			if (sig < 19) {
				mant = mant * 10 + (uint64_t)(*p - '0');
				sig += mant != 0;
				exp10 -= frac;
			} else if (!frac) {
				exp10++;
			}
		}
		if (frac || p >= end || *p != '.')
			break;
		if (!DIG(p + 1))
			return 1;
		p++;
		frac = 1;
	}
	if (p < end && (*p == 'e' || *p == 'E')) {
		if (++p < end && (*p == '+' || *p == '-'))
			eneg = *p++ == '-';
		if (!DIG(p))
			return 1;
		for (; DIG(p); p++)
			if (e < 100000)
				e = e * 10 + (*p - '0');
	}
#undef DIG
	*endp = p;
	exp10 += eneg ? -(int)e : (int)e;
	if (sig <= 15 && exp10 >= -22 && exp10 <= 22) {
		*out = exp10 >= 0 ? (double)mant * p10[exp10] :
			(double)mant / p10[-exp10];
		*out = neg ? -*out : *out;
		return 0;
	}
	if (p - s > NUMPARSE_MAX_CHARS)
		return 2;
	memcpy(buf, s, (size_t)(p - s));
	buf[p - s] = '\0';
	*out = strtod(buf, NULL);
	return 0;
}

/* Mangle a number: drop, double or swap characters, pad with zeros. */
static void mangle(char *buf, size_t cap)
{
	static const char alphabet[] = "0123456789.eE+-0000";
	size_t len = strlen(buf), at;
	int k = (int)below(4);

	while (k-- > 0 && len + 2 < cap) {
		at = below(len + 1);
		switch (below(4)) {
		case 0:
			if (len)
				memmove(buf + at, buf + at + 1, len - at), len--;
			break;
		case 1:
			memmove(buf + at + 1, buf + at, len - at + 1);
			buf[at] = alphabet[below(sizeof(alphabet) - 1)];
			len++;
			break;
		default:
			if (at < len)
				buf[at] = alphabet[below(sizeof(alphabet) - 1)];
		}
	}
	if (below(16) == 0) {
		/* over the length limit: zero padding in the exponent or
		 * the fraction, which only the short form survives */
		char pad[200];
		int n = 100 + (int)below(60);

		memset(pad, '0', (size_t)n);
		pad[n] = '\0';
		if (below(2))
			snprintf(buf, cap, "%s1.5e-%s3", below(2) ? "" : "12",
				 pad);
		else
			snprintf(buf, cap, "0.%.*s7", (int)below(40) + n - 20,
				 pad);
	}
}

static void same_as_old_reader(void **state)
{
	char buf[256];
	const char *endp, *old_endp;
	double d1, d2;
	int old, rc, i, accepted = 0, refused = 0, len;

	(void)state;
	for (i = 0; i < 300000; i++) {
		gens[(size_t)i % NGENS](buf, sizeof(buf));
		mangle(buf, sizeof(buf));
		len = (int)strlen(buf);
		old = old_number(buf, buf + len, &d1, &old_endp);
		rc = numparse(buf, buf + len, &d2, &endp);
		if ((old == 0) != (rc == NUMPARSE_OK) ||
		    (old == 1 && rc != NUMPARSE_SYNTAX) ||
		    (old == 2 && rc != NUMPARSE_TOO_LONG))
			fail_msg("'%s': old reader %d, numparse %d", buf, old,
				 rc);
		if (!old && (to_bits(d1) != to_bits(d2) || endp != old_endp))
			fail_msg("'%s': old %a, numparse %a", buf, d1, d2);
		accepted += !old;
		refused += !!old;
	}
	assert_true(accepted > 1000 && refused > 1000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(edges),
		cmocka_unit_test(grammar),
		cmocka_unit_test(same_as_old_reader),
		cmocka_unit_test(sweep),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
