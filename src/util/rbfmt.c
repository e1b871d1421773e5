// SPDX-License-Identifier: GPL-2.0-only
/*
 * Ruby-identical number formatting (include/perfbot/rbfmt.h).
 *
 * Ruby's Kernel#format prints a Float through its own copy of BSD
 * vfprintf over David Gay's dtoa (mode 3 for %f, mode 2 for %e and %g).
 * That dtoa first estimates the digits with plain double arithmetic.
 * In Ruby's copy, an estimate that lands within its error bound of a
 * rounding tie is taken for an exact tie: an odd last digit is rounded
 * up at once; with an even one dtoa falls back to its exact arithmetic
 * but with a flag that keeps that from rounding up. C's printf rounds
 * the exact binary value instead, so the two differ near ties (0.35 is
 * 0.34999999999999997...: Ruby prints "0.4", C "0.3"). The fallback also
 * leaves a trailing zero in place now and then, which %g then prints
 * (9.05e14 gives "9.0e+14").
 *
 * This file repeats the decisions of the estimate with the same double
 * operations in the same order (the Makefile builds it with
 * -ffp-contract=off: a fused multiply-add would change last bits and so
 * decisions), repeats the cheap exact path Ruby takes for integers below
 * 1e15, and uses glibc's correctly rounded printf where Ruby falls
 * through to its bignum arithmetic, which rounds correctly too (ties to
 * even). The layout of the digits (padding, exponent, the '#' and '0'
 * details) follows Ruby's BSD vfprintf. Assumes IEEE doubles evaluated
 * without excess precision (x86-64 SSE2, arm64), as Ruby's build there.
 * scripts/rbfmt-check compares the result with Ruby itself.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/rbfmt.h"

enum {
	F_MINUS = 1,
	F_PLUS = 2,
	F_SPACE = 4,
	F_ZERO = 8,
	F_ALT = 16,
};

struct spec {
	unsigned flags;
	int width;
	int prec;		/* -1: not given */
	char conv;
};

/* Room for every digit string and body the limits allow: %f of 1e308
 * with RB_PREC_MAX decimals is 309 + 1 + 1024 characters. */
#define DIG_MAX 1400
#define BODY_MAX 1500

/* A digit string as dtoa returns it: value = 0.s * 10^decpt. */
struct dig {
	char s[DIG_MAX];
	int n;
	int decpt;
};

static const double tens[] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};
static const double bigtens[] = { 1e16, 1e32, 1e64, 1e128, 1e256 };

/* dtoa's limits: digits it tries to estimate, integers it does exactly. */
#define QUICK_MAX 14
#define INT_MAX_K 14

/* ---- the spec ---- */

static int parse_num(const char **sp, int max)
{
	const char *s = *sp;
	int n = 0;

	while (*s >= '0' && *s <= '9') {
		n = n * 10 + (*s - '0');
		if (n > max)
			return -1;
		s++;
	}
	*sp = s;
	return n;
}

static int parse_spec(const char *s, struct spec *sp)
{
	static const char flagch[] = "-+ 0#";
	const char *f;

	sp->flags = 0;
	sp->width = 0;
	sp->prec = -1;
	if (!s || *s++ != '%')
		return -1;
	while (*s && (f = strchr(flagch, *s)) != NULL) {
		sp->flags |= 1u << (f - flagch);
		s++;
	}
	if ((sp->width = parse_num(&s, RB_WIDTH_MAX)) < 0)
		return -1;
	if (*s == '.') {
		s++;
		if ((sp->prec = parse_num(&s, RB_PREC_MAX)) < 0)
			return -1;
	}
	if (!*s || !strchr("feEgGdi", *s) || s[1])
		return -1;
	sp->conv = *s == 'i' ? 'd' : *s;
	return 0;
}

/* ---- dtoa's decisions ---- */

/* dtoa's first guess at floor(log10(v)) (v > 0, finite), whether it
 * must still be checked, and the binary exponent of v's lowest set bit. */
static void estimate(double v, int *kp, int *k_check, int *be)
{
	uint64_t bits, m;
	int bexp, i, nb, k;
	double d2, ds;

	memcpy(&bits, &v, sizeof(bits));
	bexp = (int)(bits >> 52) & 0x7ff;
	m = bits & 0xfffffffffffffULL;
	if (bexp) {
		uint64_t b2 = m | (uint64_t)0x3ff << 52;

		memcpy(&d2, &b2, sizeof(d2));
		i = bexp - 1023;
		*be = bexp - 1075 + __builtin_ctzll(m | (uint64_t)1 << 52);
	} else {
		/* subnormal: the top 32 bits of the mantissa, scaled to [1,2) */
		uint32_t x;

		nb = 64 - __builtin_clzll(m);
		x = nb > 32 ? (uint32_t)(m >> (nb - 32)) : (uint32_t)(m << (32 - nb));
		d2 = (double)x * 0x1p-31;
		i = nb - 1075;
		*be = -1074 + __builtin_ctzll(m);
	}
	ds = (d2 - 1.5) * 0.289529654602168 + 0.1760912590558 +
	     i * 0.301029995663981;
	k = (int)ds;
	if (ds < 0. && ds != k)
		k--;
	*k_check = 1;
	if (k >= 0 && k <= 22) {
		if (v < tens[k])
			k--;
		*k_check = 0;
	}
	*kp = k;
}

/* Round the digit string up by one unit in its last place. */
static void bump_up(struct dig *dg)
{
	int i = dg->n - 1;

	while (dg->s[i] == '9') {
		if (i == 0) {
			dg->decpt++;
			dg->s[0] = '0';
			break;
		}
		i--;
	}
	dg->s[i]++;
	dg->n = i + 1;
}

static void strip_zeros(struct dig *dg)
{
	while (dg->n > 0 && dg->s[dg->n - 1] == '0')
		dg->n--;
}

enum quick { Q_DONE, Q_FAIL, Q_HALF };

/* v / 10^k in double arithmetic as dtoa computes it, and the count of
 * roundings so far ('ieps', which sizes the error bound). */
static double scale(double v, int k, int *ieps)
{
	double d = v;
	int i = 0, j;

	*ieps = 2;
	if (k > 0) {
		double ds = tens[k & 0xf];

		j = k >> 4;
		if (j & 16) {
			j &= 15;
			d /= bigtens[4];
			++*ieps;
		}
		for (; j; j >>= 1, i++)
			if (j & 1) {
				++*ieps;
				ds *= bigtens[i];
			}
		d /= ds;
	} else if (k < 0) {
		d *= tens[-k & 0xf];
		for (j = -k >> 4; j; j >>= 1, i++)
			if (j & 1) {
				++*ieps;
				d *= bigtens[i];
			}
	}
	return d;
}

/*
 * dtoa's floating-point estimate of 'ilim' digits. Q_DONE: the digits are
 * final. Q_FAIL: the exact path decides. Q_HALF: a tie (or taken for
 * one) with an even last digit, the digits are left in 'dg' and the
 * exact path runs with its no-rounding-up flag.
 */
static enum quick quick_path(double v, int ndigits, int k, int k_check,
			     int ilim, int ilim1, struct dig *dg)
{
	double eps;
	int ieps, i, digit;
	double d = scale(v, k, &ieps);

	if (k_check && d < 1. && ilim > 0) {
		if (ilim1 <= 0)
			return Q_FAIL;
		ilim = ilim1;
		k--;
		d *= 10.;
		ieps++;
	}
	eps = (double)ieps * d + 7.;
	eps *= 0x1p-52;
	if (ilim == 0) {
		d -= 5.;
		dg->n = 0;
		if (d > eps) {
			dg->s[dg->n++] = '1';
			dg->decpt = k + 2;
			return Q_DONE;
		}
		if (d < -eps) {
			dg->decpt = -ndigits;
			return Q_DONE;
		}
		return Q_FAIL;
	}
	eps *= tens[ilim - 1];
	for (i = 1;; i++, d *= 10.) {
		digit = (int)d;
		d -= digit;
		if (d == 0)
			ilim = i;
		dg->s[i - 1] = (char)('0' + digit);
		if (i == ilim)
			break;
	}
	dg->n = ilim;
	dg->decpt = k + 1;
	if (d > 0.5 + eps || (d >= 0.5 - eps && (digit & 1))) {
		bump_up(dg);
		return Q_DONE;
	}
	if (d < 0.5 - eps) {
		strip_zeros(dg);
		return Q_DONE;
	}
	return Q_HALF;
}

/* dtoa's exact path for integers below 1e15 (every operation exact). */
static void small_int(double v, int k, int ilim, struct dig *dg)
{
	double d = v, ds = tens[k];
	int i, digit;

	dg->decpt = k + 1;
	for (i = 1;; i++, d *= 10.) {
		digit = (int)(d / ds);
		d -= digit * ds;
		dg->s[i - 1] = (char)('0' + digit);
		dg->n = i;
		if (d == 0)
			break;
		if (i == ilim) {
			d += d;
			if (d > ds || (d == ds && (digit & 1)))
				bump_up(dg);
			break;
		}
	}
}

/* The sign of v - T, T = 0.<digits>5 * 10^decpt, exactly (from glibc's
 * exact expansion of v: 781 significant digits hold any double). */
static int cmp_tie(double v, const struct dig *dg, int *cmp)
{
	char buf[820];
	int len, e, i;
	const char *p;

	len = snprintf(buf, sizeof(buf), "%.780e", v);
	if (len < 0 || (size_t)len >= sizeof(buf) || !(p = strchr(buf, 'e')))
		return -1;
	e = (int)strtol(p + 1, NULL, 10) + 1;
	if (e != dg->decpt) {
		*cmp = e > dg->decpt ? 1 : -1;
		return 0;
	}
	/* buf is "D.DDD...": compare D, DDD... with the digits and a 5 */
	for (i = 0; i <= dg->n; i++) {
		char c = buf[i == 0 ? 0 : i + 1];
		char t = i < dg->n ? dg->s[i] : '5';

		if (c != t) {
			*cmp = c > t ? 1 : -1;
			return 0;
		}
	}
	*cmp = 0;
	for (p = buf + dg->n + 2; *p >= '0' && *p <= '9'; p++)
		if (*p != '0') {
			*cmp = 1;
			break;
		}
	return 0;
}

/* The correctly rounded digits (glibc), trailing zeros stripped. */
static int exact_digits(double v, int mode, int ndigits, struct dig *dg)
{
	char buf[1600];
	const char *p;
	int len, ip = -1, seen = 0, lead = 0;

	if (mode == 2)
		len = snprintf(buf, sizeof(buf), "%.*e", ndigits - 1, v);
	else
		len = snprintf(buf, sizeof(buf), "%.*f", ndigits, v);
	if (len < 0 || (size_t)len >= sizeof(buf))
		return -1;
	dg->n = 0;
	for (p = buf; *p && *p != 'e'; p++) {
		if (*p == '.') {
			ip = seen;
			continue;
		}
		seen++;
		if (dg->n == 0 && *p == '0') {
			lead++;
			continue;
		}
		if (dg->n >= DIG_MAX)
			return -1;
		dg->s[dg->n++] = *p;
	}
	if (ip < 0)
		ip = seen;
	if (mode == 2)
		dg->decpt = (int)strtol(p + 1, NULL, 10) + 1;
	else
		dg->decpt = dg->n ? ip - lead : -ndigits;
	strip_zeros(dg);
	return 0;
}

/* What Ruby's BSD__dtoa(v, mode, ndigits) returns (v > 0, finite). */
static int ruby_dtoa(double v, int mode, int ndigits, struct dig *dg)
{
	int k, k_check, be, ilim, ilim1, cmp;
	enum quick q = Q_FAIL;

	estimate(v, &k, &k_check, &be);
	if (mode == 2) {
		if (ndigits <= 0)
			ndigits = 1;
		ilim = ilim1 = ndigits;
	} else {
		ilim = ndigits + k + 1;
		ilim1 = ilim - 1;
	}
	if (ilim >= 0 && ilim <= QUICK_MAX) {
		q = quick_path(v, ndigits, k, k_check, ilim, ilim1, dg);
		if (q == Q_DONE)
			return 0;
	}
	if (be >= 0 && k <= INT_MAX_K) {
		small_int(v, k, ilim, dg);
		return 0;
	}
	if (q != Q_HALF)
		return exact_digits(v, mode, ndigits, dg);
	/*
	 * The exact path makes the same digits; it only drops a trailing
	 * zero unless v is above the tie (then it "rounds up" but, the last
	 * digit being even, leaves it as it is).
	 */
	if (dg->s[dg->n - 1] == '0') {
		if (cmp_tie(v, dg, &cmp) < 0)
			return -1;
		if (cmp <= 0)
			strip_zeros(dg);
	}
	return 0;
}

/* ---- layout (Ruby's BSD vfprintf) ---- */

struct body {
	char s[BODY_MAX];
	size_t n;
	int bad;
};

static void put(struct body *b, const char *s, size_t n)
{
	if (b->bad || n > sizeof(b->s) - b->n) {
		b->bad = 1;
		return;
	}
	memcpy(b->s + b->n, s, n);
	b->n += n;
}

static void put_zeros(struct body *b, long n)
{
	if (n <= 0)
		return;
	if (b->bad || (size_t)n > sizeof(b->s) - b->n) {
		b->bad = 1;
		return;
	}
	memset(b->s + b->n, '0', (size_t)n);
	b->n += (size_t)n;
}

static void put_exponent(struct body *b, char ch, int e)
{
	char buf[8];
	int len = snprintf(buf, sizeof(buf), "%c%c%02d", ch, e < 0 ? '-' : '+',
			   e < 0 ? -e : e);

	put(b, buf, (size_t)len);
}

/* Pad to the width, the sign before zeros, as vfprintf does. */
static int emit(struct strbuf *out, const struct spec *sp, char sign,
		const char *s, size_t n, int zero_ok)
{
	size_t real = n + (sign ? 1 : 0);
	size_t width = (size_t)sp->width;
	size_t pad = width > real ? width - real : 0;
	int left = sp->flags & F_MINUS;
	int zero = zero_ok && (sp->flags & F_ZERO) && !left;

	if (sb_grow(out, real + pad) < 0)
		return -1;
	if (!left && !zero)
		sb_addn(out, ' ', pad);
	if (sign)
		sb_addc(out, sign);
	if (zero)
		sb_addn(out, '0', pad);
	sb_add(out, s, n);
	if (left)
		sb_addn(out, ' ', pad);
	return 0;
}

/* Ruby prints Inf and NaN itself: no zero padding, NaN never '-'. */
static int format_nonfinite(struct strbuf *out, const struct spec *sp,
			    double v)
{
	char sign = 0;

	if (!isnan(v) && v < 0)
		sign = '-';
	else if (sp->flags & (F_PLUS | F_SPACE))
		sign = (sp->flags & F_PLUS) ? '+' : ' ';
	return emit(out, sp, sign, isnan(v) ? "NaN" : "Inf", 3, 0);
}

/* The f/g (fixed) layout of the digits. */
static void layout_fixed(struct body *b, const struct dig *dg, char ch,
			 int alt, int fprec, double a)
{
	int expt = dg->decpt, ndig = dg->n;
	int tail = fprec - ndig + (ch == 'f' ? expt : 0);

	if (a == 0) {
		if (ndig <= 1 && !alt) {
			put(b, "0", 1);
		} else {
			put(b, "0.", 2);
			put_zeros(b, ndig >= fprec ? ndig - 1
						   : fprec - (ch != 'f'));
		}
	} else if (expt == 0 && ndig == 0 && !alt) {
		put(b, "0", 1);
	} else if (expt <= 0) {
		put(b, "0.", 2);
		put_zeros(b, -expt);
		put(b, dg->s, (size_t)ndig);
		if (alt)
			put_zeros(b, tail);
	} else if (expt >= ndig) {
		put(b, dg->s, (size_t)ndig);
		put_zeros(b, expt - ndig);
		if (alt)
			put(b, ".", 1);
	} else {
		put(b, dg->s, (size_t)expt);
		put(b, ".", 1);
		put(b, dg->s + expt, (size_t)(ndig - expt));
		if (alt)
			put_zeros(b, tail);
	}
}

/* The e layout of the digits. */
static void layout_exp(struct body *b, const struct dig *dg, char ch,
		       int alt, int fprec, double a)
{
	int ndig = dg->n;

	if (ndig > 1 || alt) {
		put(b, dg->s, 1);
		put(b, ".", 1);
		if (a != 0)
			put(b, dg->s + 1, (size_t)(ndig - 1));
		else
			put_zeros(b, ndig - 1);
		if (alt)
			put_zeros(b, fprec + 1 - ndig - 1);
	} else {
		put(b, dg->s, 1);
	}
	put_exponent(b, ch, dg->decpt - 1);
}

static int format_float(struct strbuf *out, const struct spec *sp, double v)
{
	struct body b;
	struct dig dg;
	int prec = sp->prec, fprec = 0, alt = !!(sp->flags & F_ALT);
	char ch = sp->conv, sign = 0;
	double a = fabs(v);

	if (!isfinite(v))
		return format_nonfinite(out, sp, v);
	if (sp->flags & F_SPACE)
		sign = ' ';
	if (sp->flags & F_PLUS)
		sign = '+';
	if (ch == 'e' || ch == 'E') {
		if (prec != 0)
			alt = 1;
		prec = prec == -1 ? 7 : (fprec = prec + 1);
	} else {
		if (ch == 'f' && prec != 0)
			alt = 1;
		if (prec == -1)
			prec = 6;
		else
			fprec = prec;
	}
	if (a == 0) {
		dg.s[0] = '0';
		dg.n = 1;
		dg.decpt = 1;
	} else if (ruby_dtoa(a, ch == 'f' ? 3 : 2, prec, &dg) < 0) {
		return -1;
	}
	if (alt) {
		/* trailing zeros up to the precision (cvt) */
		int end = prec;

		if (ch == 'f') {
			if (dg.n > 0 && dg.s[0] == '0' && a != 0)
				dg.decpt = -prec + 1;
			end += dg.decpt;
		}
		if (end > DIG_MAX)
			return -1;
		while (dg.n < end)
			dg.s[dg.n++] = '0';
	}
	if (ch == 'g' || ch == 'G') {
		if (dg.decpt <= -4 || (dg.decpt > prec && dg.decpt > 1))
			ch = ch == 'g' ? 'e' : 'E';
		else
			ch = 'g';
	}
	b.n = 0;
	b.bad = 0;
	if (ch == 'e' || ch == 'E')
		layout_exp(&b, &dg, ch, alt, fprec, a);
	else
		layout_fixed(&b, &dg, ch, alt, fprec, a);
	if (b.bad)
		return -1;
	if (signbit(v))
		sign = '-';
	return emit(out, sp, sign, b.s, b.n, 1);
}

/* %d of a Float: the integer toward zero, C's %d layout. */
static int format_int(struct strbuf *out, const struct spec *sp, double v)
{
	char digits[400], body[RB_PREC_MAX + 400];
	double t;
	int len;
	size_t n = 0;
	char sign = 0;

	if (!isfinite(v))
		return -1;	/* Ruby raises FloatDomainError */
	t = trunc(v);
	if (fabs(t) < 0x1p63)
		len = snprintf(digits, sizeof(digits), "%lld",
			       (long long)fabs(t));
	else
		len = snprintf(digits, sizeof(digits), "%.0f", fabs(t));
	if (len < 0 || (size_t)len >= sizeof(digits))
		return -1;
	if (t == 0 && sp->prec == 0)
		len = 0;
	if (sp->prec > len) {
		n = (size_t)(sp->prec - len);
		memset(body, '0', n);
	}
	memcpy(body + n, digits, (size_t)len);
	n += (size_t)len;
	if (t < 0)
		sign = '-';
	else if (sp->flags & F_PLUS)
		sign = '+';
	else if (sp->flags & F_SPACE)
		sign = ' ';
	return emit(out, sp, sign, body, n, sp->prec < 0);
}

int rb_format(struct strbuf *out, const char *spec, double v)
{
	struct spec sp;

	if (parse_spec(spec, &sp) < 0)
		return -1;
	if (sp.conv == 'd')
		return format_int(out, &sp, v);
	return format_float(out, &sp, v);
}
