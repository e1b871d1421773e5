// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare: the comparison table as LKP prints it (table.h): the header,
 * the failure block and the performance block, in the number formats of
 * the metric rules. The report's table (render/report.c), 'perfbot
 * compare' and the headline change of subjects are printed with it.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "perfbot/util/rbfmt.h"
#include "perfbot/compare/table.h"

#define RULE_WIDTH 89
#define BIG_CHANGE 100000.0

/*
 * Every number of a row goes through rb_format: LKP prints with Ruby's
 * format, whose digits differ from C's printf on near-ties.
 */
static int num(struct strbuf *out, const char *spec, double v)
{
	return rb_format(out, spec, v);
}

int table_format_mean(struct strbuf *out, const struct table_format *f,
		      double mean)
{
	double a = fabs(mean);

	if (mean == 0 && f->zero_as_int)
		return sb_addf(out, "%10d", 0);
	if (a < f->float_below)
		return num(out, "%10.2f", mean);
	if (a > f->exp_above)
		return num(out, "%10.4g", mean);
	return num(out, "%10d", mean);
}

int table_format_stddev(struct strbuf *out, const struct table_format *f,
			const struct cmp_stats *st)
{
	double p = st->pct_stddev;

	if (!st->has_stddev || !(p > f->stddev_above) ||
	    (st->mean == 0 && !f->stddev_zero_mean))
		return sb_addn(out, ' ', 6);
	if (!isfinite(p))	/* LKP would stop here (FloatDomainError) */
		p = 1e9;
	return sb_adds(out, " \xc2\xb1") || num(out, "%3d", p) ||
	       sb_addc(out, '%') ? -1 : 0;
}

int table_format_change(struct strbuf *out, const struct table_format *f,
			double change, int absolute)
{
	const char *unit = absolute ? "  " : "% ";
	char spec[16];
	int rc;

	if (fabs(change) < f->change_blank_below)
		return sb_addn(out, ' ', 12);
	if (absolute && f->absolute_exponent)
		rc = num(out, "%10.0e", change);
	else if (absolute && fabs(change) < f->change_exp_above)
		rc = num(out, "%+10.1f", change);
	else if (fabs(change) >= f->change_exp_above)
		rc = num(out, f->change_sign ? "%+10.2g" : "%10.2g", change);
	else {
		snprintf(spec, sizeof(spec), f->change_sign ? "%%+10.%df" :
			 "%%10.%df", f->change_decimals);
		rc = num(out, spec, change);
	}
	return rc || sb_adds(out, unit) ? -1 : 0;
}

int table_format_headline_change(struct strbuf *out, double change)
{
	if (num(out, fabs(change) < BIG_CHANGE ? "%.1f" : "%.2g", change))
		return -1;
	return sb_addc(out, '%');
}

/* An exact Integer sum, right-aligned in 'width'. */
static int add_int128(struct strbuf *out, __int128 v, int width)
{
	char d[48], *p = d + sizeof(d);
	unsigned __int128 u = v < 0 ? -(unsigned __int128)v :
		(unsigned __int128)v;

	*--p = '\0';
	do {
		*--p = (char)('0' + (int)(u % 10));
		u /= 10;
	} while (u);
	if (v < 0)
		*--p = '-';
	return sb_addf(out, "%*s", width, p);
}

/*
 * LKP: a fail count of 0 is blank, else %d of the sum: an Integer sum
 * exactly, a Float one truncated.
 */
static int format_fails(struct strbuf *out, const struct cmp_stats *st,
			size_t runs)
{
	int rc;

	if (st->fails == 0)
		return sb_addf(out, "%11s:%-4zu", "", runs);
	rc = st->fails_exact ? add_int128(out, st->ifails, 11) :
		num(out, "%11d", st->fails);
	return rc || sb_addf(out, ":%-4zu", runs) ? -1 : 0;
}

int table_format_row(struct strbuf *out, const struct table_format *f,
		     const struct cmp_row *row)
{
	int rc = 0;

	if (row->failure) {
		rc |= format_fails(out, &row->st[BASE], row->n[BASE]);
		/* perfbot's own figure (LKP prints a wrong one), so no Ruby
		 * digits to follow: C's correct rounding */
		rc |= sb_addf(out, "%10.0f%% ", row->reproduction);
		rc |= format_fails(out, &row->st[HEAD], row->n[HEAD]);
	} else {
		struct cmp_stats st[2];

		cmp_row_stats(row, BASE, &st[BASE]);
		cmp_row_stats(row, HEAD, &st[HEAD]);
		rc |= table_format_mean(out, f, st[BASE].mean);
		rc |= table_format_stddev(out, f, &st[BASE]);
		rc |= table_format_change(out, f, row->change, row->absolute);
		rc |= table_format_mean(out, f, st[HEAD].mean);
		rc |= table_format_stddev(out, f, &st[HEAD]);
	}
	rc |= sb_addf(out, "  %s\n", row->name);
	return rc ? -1 : 0;
}

static int render_block(const struct comparison *c,
			const struct table_format *f, int all, int failure,
			struct strbuf *out)
{
	static const char *const heads[2] = {
		"         %stddev     %change         %stddev\n"
		"             \\          |                \\  \n",
		"       fail:runs  %reproduction    fail:runs\n"
		"           |             |             |    \n",
	};
	size_t i, n = 0;
	int rc = 0;

	for (i = 0; i < c->nrows; i++)
		if (c->rows[i].failure == failure && (all || c->rows[i].shown))
			n++;
	if (!n && failure)
		return 0;
	rc |= sb_adds(out, heads[failure]);
	for (i = 0; i < c->nrows && !rc; i++)
		if (c->rows[i].failure == failure && (all || c->rows[i].shown))
			rc |= table_format_row(out, f, &c->rows[i]);
	return rc ? -1 : 0;
}

int table_render_rows(const struct comparison *c,
		      const struct table_format *f, int all,
		      struct strbuf *out)
{
	if (render_block(c, f, all, 1, out))
		return -1;
	return render_block(c, f, all, 0, out);
}

int table_render(const struct comparison *c, const struct table_head *h,
		 const struct table_format *f, int all, struct strbuf *out)
{
	int rc = 0;

	rc |= sb_addn(out, '=', RULE_WIDTH);
	rc |= sb_addf(out, "\n%s:\n  %s\n\n", h->axes_keys, h->axes_values);
	rc |= sb_adds(out, "commit: \n");
	rc |= sb_addf(out, "  %.10s (\"%s\")\n", h->commit[BASE],
		      h->subject[BASE]);
	rc |= sb_addf(out, "  %.10s (\"%s\")\n\n", h->commit[HEAD],
		      h->subject[HEAD]);
	rc |= sb_addf(out, "%16.16s %27.27s \n", h->commit[BASE],
		      h->commit[HEAD]);
	rc |= sb_addn(out, '-', 16);
	rc |= sb_addc(out, ' ');
	rc |= sb_addn(out, '-', 27);
	rc |= sb_adds(out, " \n");
	if (rc)
		return -1;
	return table_render_rows(c, f, all, out);
}
