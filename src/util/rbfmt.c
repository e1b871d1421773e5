// SPDX-License-Identifier: GPL-2.0-only
/*
 * Ruby-identical number formatting (include/perfbot/rbfmt.h): the spec,
 * and the layout of the digits that rbfmt_dtoa.c makes.
 *
 * Ruby's Kernel#format prints a Float through its own copy of BSD
 * vfprintf over David Gay's dtoa (mode 3 for %f, mode 2 for %e and %g);
 * rbfmt_dtoa.c says where its digits differ from C's printf. The layout
 * of the digits (padding, exponent, the '#' and '0' details) follows
 * Ruby's BSD vfprintf. The Makefile builds this file with
 * -ffp-contract=off too, as it does rbfmt_dtoa.c.
 * scripts/rbfmt-check compares the result with Ruby itself.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "perfbot/util/rbfmt.h"
#include "rbfmt_internal.h"

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

/* Room for every body the limits allow: DIG_MAX digits, the point, the
 * exponent. */
#define BODY_MAX 1500

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
	/* cannot fail once the room is there; checked all the same */
	if ((!left && !zero && sb_addn(out, ' ', pad)) ||
	    (sign && sb_addc(out, sign)) || (zero && sb_addn(out, '0', pad)) ||
	    sb_add(out, s, n) || (left && sb_addn(out, ' ', pad)))
		return -1;
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
	} else if (rb_dtoa(a, ch == 'f' ? 3 : 2, prec, &dg) < 0) {
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
