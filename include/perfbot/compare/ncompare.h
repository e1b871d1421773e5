/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_NCOMPARE_H
#define PERFBOT_NCOMPARE_H

#include <stddef.h>

#include "perfbot/compare/compare.h"
#include "perfbot/util/strmap.h"

/*
 * The comparison of N result roots (2 to NCMP_MAX_ROOTS) as LKP's
 * multi-column table makes it: every root after the first compared with
 * the first (lkp-tests lib/compare.rb, Group#_calc_changed_stat_keys),
 * a metric shown when any of those pairs shows it, and every metric of
 * any root a row. Each pair is an ordinary comparison (compare.h); they
 * all have a row for every metric of the set, in the first pair's order,
 * so column k of row i is pair[k - 1].rows[row[i].at[k - 1]].
 */

#define NCMP_MAX_ROOTS 8

struct ncmp_row {
	const char *name;
	size_t at[NCMP_MAX_ROOTS - 1];	/* its index in each pair */
	int failure;
	int shown;			/* some pair shows it */
};

struct ncomparison {
	size_t nroots;
	struct comparison pair[NCMP_MAX_ROOTS - 1];	/* 0 against k + 1 */
	struct ncmp_row *rows;		/* the first pair's order */
	size_t nrows, nshown;
};

/* Compare roots[1..n-1] with roots[0]; -1 only when memory runs out. */
int ncompare_roots(struct ncomparison *nc,
		   const struct result_root *const *roots, size_t n,
		   const struct rules *rules, struct pb_err *err);

/*
 * ncompare_roots() for a caller that shows the filtered view only: with
 * two roots only the shown rows are kept (compare_roots_shown()); with
 * more, every row, as a later column may show a metric the first hides.
 */
int ncompare_roots_shown(struct ncomparison *nc,
			 const struct result_root *const *roots, size_t n,
			 const struct rules *rules, struct pb_err *err);
void ncomparison_release(struct ncomparison *nc);

/* The cell of row 'r' in column 'col' (1 .. nroots - 1). */
const struct cmp_row *ncmp_cell(const struct ncomparison *nc,
				const struct ncmp_row *r, size_t col);

#endif
