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
int table_format_fails(struct strbuf *out, const struct cmp_stats *st,
		       size_t runs)
{
	int rc;

	if (st->fails == 0)
		return sb_addf(out, "%11s:%-4zu", "", runs);
	rc = st->fails_exact ? add_int128(out, st->ifails, 11) :
		num(out, "%11d", st->fails);
	return rc || sb_addf(out, ":%-4zu", runs) ? -1 : 0;
}

/*
 * perfbot's own figure (LKP prints a wrong one), so no Ruby digits to
 * follow: C's correct rounding.
 */
int table_format_reproduction(struct strbuf *out, double reproduction)
{
	return sb_addf(out, "%10.0f%% ", reproduction);
}

/*
 * The rows to print: those of one comparison (one column after the
 * first) or of an N-root one (nroots - 1); the cell of row i in column
 * k (0-based after the first) has the first root as its BASE side and
 * column k as its HEAD side.
 */
struct grid {
	const struct comparison *one;
	const struct ncomparison *many;
};

static size_t grid_rows(const struct grid *g)
{
	return g->one ? g->one->nrows : g->many->nrows;
}

static size_t grid_cols(const struct grid *g)
{
	return g->one ? 1 : g->many->nroots - 1;
}

static const struct cmp_row *grid_cell(const struct grid *g, size_t i,
				       size_t k)
{
	return g->one ? &g->one->rows[i] :
		ncmp_cell(g->many, &g->many->rows[i], k + 1);
}

static int grid_shown(const struct grid *g, size_t i)
{
	return g->one ? g->one->rows[i].shown : g->many->rows[i].shown;
}

/* One row: the first root's cell, then one cell per column. */
static int format_cells(struct strbuf *out, const struct table_format *f,
			const struct grid *g, size_t i)
{
	const struct cmp_row *row = grid_cell(g, i, 0), *cell;
	size_t k, cols = grid_cols(g);
	struct cmp_stats st;
	int rc = 0;

	if (row->failure)
		rc |= table_format_fails(out, &row->st[BASE], row->n[BASE]);
	else {
		cmp_row_stats(row, BASE, &st);
		rc |= table_format_mean(out, f, st.mean);
		rc |= table_format_stddev(out, f, &st);
	}
	for (k = 0; k < cols; k++) {
		cell = grid_cell(g, i, k);
		if (row->failure) {
			rc |= table_format_reproduction(out,
							cell->reproduction);
			rc |= table_format_fails(out, &cell->st[HEAD],
						 cell->n[HEAD]);
			continue;
		}
		cmp_row_stats(cell, HEAD, &st);
		rc |= table_format_change(out, f, cell->change,
					  cell->absolute);
		rc |= table_format_mean(out, f, st.mean);
		rc |= table_format_stddev(out, f, &st);
	}
	rc |= sb_addf(out, "  %s\n", row->name);
	return rc ? -1 : 0;
}

int table_format_row(struct strbuf *out, const struct table_format *f,
		     const struct cmp_row *row)
{
	struct comparison one = { 0 };
	struct grid g = { &one, NULL };

	one.rows = (struct cmp_row *)row;
	one.nrows = 1;
	return format_cells(out, f, &g, 0);
}

static int block_head(struct strbuf *out, int failure, size_t cols)
{
	static const char *const first[2][2] = {
		{ "         %stddev", "             \\  " },
		{ "       fail:runs", "           |    " },
	};
	static const char *const more[2][2] = {
		{ "     %change         %stddev",
		  "        |                \\  " },
		{ "  %reproduction    fail:runs",
		  "         |             |    " },
	};
	size_t k;
	int line, rc = 0;

	for (line = 0; line < 2; line++) {
		rc |= sb_adds(out, first[failure][line]);
		for (k = 0; k < cols; k++)
			rc |= sb_adds(out, more[failure][line]);
		rc |= sb_addc(out, '\n');
	}
	return rc ? -1 : 0;
}

static int render_block(const struct grid *g, const struct table_format *f,
			int all, int failure, struct strbuf *out)
{
	size_t i, n = 0, rows = grid_rows(g);
	int rc = 0;

	for (i = 0; i < rows; i++)
		if (grid_cell(g, i, 0)->failure == failure &&
		    (all || grid_shown(g, i)))
			n++;
	if (!n && failure)
		return 0;
	rc |= block_head(out, failure, grid_cols(g));
	for (i = 0; i < rows && !rc; i++)
		if (grid_cell(g, i, 0)->failure == failure &&
		    (all || grid_shown(g, i)))
			rc |= format_cells(out, f, g, i);
	return rc ? -1 : 0;
}

static int render_rows(const struct grid *g, const struct table_format *f,
		       int all, struct strbuf *out)
{
	if (render_block(g, f, all, 1, out))
		return -1;
	return render_block(g, f, all, 0, out);
}

int table_render_rows(const struct comparison *c,
		      const struct table_format *f, int all,
		      struct strbuf *out)
{
	struct grid g = { c, NULL };

	return render_rows(&g, f, all, out);
}

/* The rule, the axes, the commits and the column heads. */
static int render_head(const struct table_head *h, size_t n,
		       struct strbuf *out)
{
	size_t k;
	int rc = 0;

	rc |= sb_addn(out, '=', RULE_WIDTH);
	rc |= sb_addf(out, "\n%s:\n  %s\n\n", h->axes_keys, h->axes_values);
	rc |= sb_adds(out, "commit: \n");
	for (k = 0; k < n; k++)
		if (h->subject[k])
			rc |= sb_addf(out, "  %.10s (\"%s\")\n", h->commit[k],
				      h->subject[k]);
		else	/* a ref name ('v6.13'), whole */
			rc |= sb_addf(out, "  %s\n", h->commit[k]);
	rc |= sb_addc(out, '\n');
	rc |= sb_addf(out, "%16.16s ", h->commit[0]);
	for (k = 1; k < n; k++)
		rc |= sb_addf(out, "%27.27s ", h->commit[k]);
	rc |= sb_addc(out, '\n');
	rc |= sb_addn(out, '-', 16);
	for (k = 1; k < n; k++) {
		rc |= sb_addc(out, ' ');
		rc |= sb_addn(out, '-', 27);
	}
	rc |= sb_adds(out, " \n");
	return rc ? -1 : 0;
}

int table_render(const struct comparison *c, const struct table_head *h,
		 const struct table_format *f, int all, struct strbuf *out)
{
	if (render_head(h, 2, out))
		return -1;
	return table_render_rows(c, f, all, out);
}

int table_render_n(const struct ncomparison *nc, const struct table_head *h,
		   const struct table_format *f, int all, struct strbuf *out)
{
	struct grid g = { NULL, nc };

	if (render_head(h, nc->nroots, out))
		return -1;
	return render_rows(&g, f, all, out);
}
