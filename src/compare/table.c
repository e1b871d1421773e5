// SPDX-License-Identifier: GPL-2.0-only
#include <math.h>
#include <string.h>

#include "perfbot/table.h"

#define RULE_WIDTH 89
#define BIG_CHANGE 100000.0

int table_format_mean(struct strbuf *out, const struct table_format *f,
		      double mean)
{
	double a = fabs(mean);

	if (mean == 0 && f->zero_as_int)
		return sb_addf(out, "%10d", 0);
	if (a < f->float_below)
		return sb_addf(out, "%10.2f", mean);
	if (a > f->exp_above)
		return sb_addf(out, "%10.4g", mean);
	return sb_addf(out, "%10lld", (long long)mean);
}

int table_format_stddev(struct strbuf *out, const struct table_format *f,
			const struct cmp_stats *st)
{
	double p = st->pct_stddev;

	if (!st->has_stddev || !(p > f->stddev_above) ||
	    (st->mean == 0 && !f->stddev_zero_mean))
		return sb_addn(out, ' ', 6);
	if (p > 1e9)
		p = 1e9;
	return sb_addf(out, " \xc2\xb1%3d%%", (int)p);
}

int table_format_change(struct strbuf *out, const struct table_format *f,
			double change, int absolute)
{
	const char *unit = absolute ? "  " : "% ";

	if (fabs(change) < f->change_blank_below)
		return sb_addn(out, ' ', 12);
	if (absolute && f->absolute_exponent)
		return sb_addf(out, "%10.0e  ", change);
	if (absolute && fabs(change) < f->change_exp_above)
		return sb_addf(out, "%+10.1f  ", change);
	if (fabs(change) >= f->change_exp_above)
		return sb_addf(out, f->change_sign ? "%+10.2g%s" : "%10.2g%s",
			       change, unit);
	return sb_addf(out, f->change_sign ? "%+10.*f%s" : "%10.*f%s",
		       f->change_decimals, change, unit);
}

int table_format_headline_change(struct strbuf *out, double change)
{
	if (fabs(change) < BIG_CHANGE)
		return sb_addf(out, "%.1f%%", change);
	return sb_addf(out, "%.2g%%", change);
}

static int format_fails(struct strbuf *out, double fails, size_t runs)
{
	if (fails == 0)
		return sb_addf(out, "%11s:%-4zu", "", runs);
	return sb_addf(out, "%11.0f:%-4zu", fails, runs);
}

int table_format_row(struct strbuf *out, const struct table_format *f,
		     const struct cmp_row *row)
{
	int rc = 0;

	if (row->failure) {
		rc |= format_fails(out, row->st[BASE].fails, row->n[BASE]);
		rc |= sb_addf(out, "%10.0f%% ", row->reproduction);
		rc |= format_fails(out, row->st[HEAD].fails, row->n[HEAD]);
	} else {
		rc |= table_format_mean(out, f, row->st[BASE].mean);
		rc |= table_format_stddev(out, f, &row->st[BASE]);
		rc |= table_format_change(out, f, row->change, row->absolute);
		rc |= table_format_mean(out, f, row->st[HEAD].mean);
		rc |= table_format_stddev(out, f, &row->st[HEAD]);
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
