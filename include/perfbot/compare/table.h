/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_TABLE_H
#define PERFBOT_TABLE_H

#include "perfbot/compare/compare.h"
#include "perfbot/compare/ncompare.h"
#include "perfbot/util/strbuf.h"

/*
 * The comparison table exactly as LKP prints it: the header (job axes,
 * commits, column heads), the failure block and the performance block.
 * Number formats and widths follow doc/lkp-compare.md.
 */

struct table_head {
	const char *axes_keys;		/* "compiler/cpufreq_governor/..." */
	const char *axes_values;	/* "gcc-12/performance/..." */
	const char *commit[NCMP_MAX_ROOTS];	/* full shas, BASE, HEAD... */
	const char *subject[NCMP_MAX_ROOTS];	/* NULL: a ref, listed alone */
	size_t n;			/* commits; 0 is 2 */
};

/*
 * Append the whole table; 'all' shows rows the noise filter dropped. 'f'
 * gives the number formats (rules_format()).
 */
int table_render(const struct comparison *c, const struct table_head *h,
		 const struct table_format *f, int all, struct strbuf *out);

/*
 * The table of N roots: one '%change %stddev' column pair (and a
 * '%reproduction fail:runs' one) per root after the first, each against
 * the first, as LKP prints several commits; h->n is nc->nroots.
 */
int table_render_n(const struct ncomparison *nc, const struct table_head *h,
		   const struct table_format *f, int all, struct strbuf *out);

/* Only the rows (both blocks with their column heads). */
int table_render_rows(const struct comparison *c,
		      const struct table_format *f, int all,
		      struct strbuf *out);

/* One cell each; exposed for the tests and the report model. */
int table_format_mean(struct strbuf *out, const struct table_format *f,
		      double mean);
int table_format_stddev(struct strbuf *out, const struct table_format *f,
			const struct cmp_stats *st);
int table_format_change(struct strbuf *out, const struct table_format *f,
			double change, int absolute);
int table_format_row(struct strbuf *out, const struct table_format *f,
		     const struct cmp_row *row);
/* A failure metric's cells: "fail:runs" of a side, and %reproduction. */
int table_format_fails(struct strbuf *out, const struct cmp_stats *st,
		       size_t runs);
int table_format_reproduction(struct strbuf *out, double reproduction);

/* "10.5%" / "-4.2%" as in subjects and headlines (%.1f; no '+'). */
int table_format_headline_change(struct strbuf *out, double change);

#endif
