/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_RBFMT_INTERNAL_H
#define PERFBOT_RBFMT_INTERNAL_H

/*
 * Shared by the two files of Ruby's number formatting only:
 * rbfmt_dtoa.c makes the digits, rbfmt.c parses the spec and lays the
 * digits out.
 */

/* Room for every digit string the limits allow: %f of 1e308
 * with RB_PREC_MAX decimals is 309 + 1 + 1024 characters. */
#define DIG_MAX 1400

/* A digit string as dtoa returns it: value = 0.s * 10^decpt. */
struct dig {
	char s[DIG_MAX];
	int n;
	int decpt;
};

/*
 * What Ruby's BSD__dtoa(v, mode, ndigits) returns (v > 0, finite): mode
 * 3 (%f) gives 'ndigits' digits after the point, mode 2 (%e, %g)
 * 'ndigits' significant ones, trailing zeros stripped as Ruby strips
 * them. Returns 0, or -1 when a digit string would not fit.
 */
int rb_dtoa(double v, int mode, int ndigits, struct dig *dg);

#endif
