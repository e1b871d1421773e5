// SPDX-License-Identifier: GPL-2.0-only
/*
 * Ruby's digits of a Float (rbfmt.c lays them out): what Ruby's copy of
 * David Gay's dtoa returns, mode 3 for %f and mode 2 for %e and %g.
 *
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
 * even). Assumes IEEE doubles evaluated without excess precision
 * (x86-64 SSE2, arm64), as Ruby's build there.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rbfmt_internal.h"

static const double tens[] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};
static const double bigtens[] = { 1e16, 1e32, 1e64, 1e128, 1e256 };

/* dtoa's limits: digits it tries to estimate, integers it does exactly. */
#define QUICK_MAX 14
#define INT_MAX_K 14

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

int rb_dtoa(double v, int mode, int ndigits, struct dig *dg)
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
