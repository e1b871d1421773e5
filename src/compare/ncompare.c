// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare: N result roots compared as LKP's multi-column table compares
 * them (ncompare.h): one ordinary comparison per root after the first,
 * each given a row for every metric of the set, joined row by row.
 */
#include <stdlib.h>
#include <string.h>

#include "perfbot/compare/ncompare.h"

/*
 * Every metric name of roots 1.. (each once): the rows each pair gets
 * besides its own two roots' metrics, so that all pairs have the same.
 */
static int names_of_rest(const struct result_root *const *roots, size_t n,
			 const char ***out, size_t *count)
{
	struct strmap seen;
	size_t i, k, total = 0;
	int present;

	*out = NULL;
	*count = 0;
	for (k = 1; k < n; k++)
		total += roots[k]->nmetrics;
	if (!total)
		return 0;
	*out = malloc(total * sizeof(**out));
	if (!*out)
		return -1;
	strmap_init(&seen);
	for (k = 1; k < n; k++)
		for (i = 0; i < roots[k]->nmetrics; i++) {
			const char *name = roots[k]->metrics[i].name;

			if (strmap_put(&seen, name, 0, &present)) {
				strmap_release(&seen);
				return -1;
			}
			if (!present)
				(*out)[(*count)++] = name;
		}
	strmap_release(&seen);
	return 0;
}

/*
 * The first root as LKP's filter sees it from the second pair on: lkp-
 * tests' _get_changed_stats removes the incomplete runs from the base
 * matrix in place (filter_incomplete_run, lib/stats.rb) while it judges
 * the first pair, so every later column is judged against the base's
 * complete runs alone, its last_state.is_incomplete_run gone.
 */
static int complete_copy(struct result_root *cut,
			 const struct result_root *rr)
{
	const struct metric *flag = result_root_find(rr, "last_state."
						     "is_incomplete_run");
	size_t i, k, m, n = 0, nm = 0;

	const double *fv = metric_values(rr, flag);

	memset(cut, 0, sizeof(*cut));
	strmap_init(&cut->index);
	for (k = 0; k < rr->runs; k++)
		n += fv[k] != 1;
	cut->runs = n;
	cut->stride = n;
	cut->metrics = calloc(rr->nmetrics + 1, sizeof(*cut->metrics));
	cut->value_pool = calloc(rr->nmetrics * n + 1, sizeof(double));
	cut->int_pool = malloc(rr->nmetrics * n + 1);
	if (rr->exact_pool)
		cut->exact_pool = calloc(rr->nmetrics * n + 1,
					 sizeof(int64_t));
	if (!cut->metrics || !cut->value_pool || !cut->int_pool ||
	    (rr->exact_pool && !cut->exact_pool))
		return -1;
	for (i = 0; i < rr->nmetrics; i++) {
		const struct metric *src = &rr->metrics[i];
		struct metric *dst = &cut->metrics[nm];
		const double *sv = metric_values(rr, src);
		const unsigned char *si = metric_ints(rr, src);
		const int64_t *se = metric_exact(rr, src);
		double *dv = cut->value_pool + nm * n;
		unsigned char *di = cut->int_pool + nm * n;
		int64_t *de = se ? cut->exact_pool + nm * n : NULL;

		if (src == flag)
			continue;
		dst->name = src->name;
		dst->strings = src->strings;
		dst->exact = se ? (uint32_t)nm : METRIC_NO_EXACT;
		for (k = 0, m = 0; k < rr->runs; k++)
			if (fv[k] != 1) {
				dv[m] = sv[k];
				di[m] = si[k];
				if (de)
					de[m] = se[k];
				m++;
			}
		if (strmap_put(&cut->index, dst->name, nm, NULL))
			return -1;
		nm++;
	}
	cut->nmetrics = nm;
	return 0;
}

/*
 * Judge pair k >= 1 (root 0 against root k + 1) as LKP does, against the
 * first root's complete runs: each row's shown and dropped from there.
 */
static int judge_later(struct ncomparison *nc, size_t k,
		       const struct result_root *cut,
		       const struct result_root *root,
		       const char *const *more, size_t nmore,
		       const struct rules *rules, struct pb_err *err)
{
	struct comparison j;
	struct strmap index;
	struct comparison *p = &nc->pair[k];
	size_t i, at;
	int rc = 0;

	if (compare_roots_with(&j, cut, root, more, nmore, rules, err))
		return -1;
	strmap_init(&index);
	for (i = 0; i < j.nrows && !rc; i++)
		rc = strmap_put(&index, j.rows[i].name, i, NULL);
	for (i = 0; i < p->nrows && !rc; i++) {
		struct cmp_row *row = &p->rows[i];

		if (strmap_get(&index, row->name, &at)) {
			/* the flag itself, gone from the judged base */
			row->shown = 0;
			row->dropped = "runs did not complete";
		} else {
			row->shown = j.rows[at].shown;
			row->dropped = j.rows[at].dropped;
		}
	}
	strmap_release(&index);
	comparison_release(&j);
	return rc ? pb_fail(err, EX_OSERR, "out of memory") : 0;
}

/* Row i of the first pair found in every other pair, by name. */
static int join(struct ncomparison *nc)
{
	struct strmap index;
	size_t i, k, at;

	nc->nrows = nc->pair[0].nrows;
	nc->rows = calloc(nc->nrows + 1, sizeof(*nc->rows));
	if (!nc->rows)
		return -1;
	for (i = 0; i < nc->nrows; i++) {
		nc->rows[i].name = nc->pair[0].rows[i].name;
		nc->rows[i].failure = nc->pair[0].rows[i].failure;
		nc->rows[i].shown = nc->pair[0].rows[i].shown;
	}
	for (k = 1; k + 1 < nc->nroots; k++) {
		const struct comparison *p = &nc->pair[k];

		strmap_init(&index);
		for (i = 0; i < p->nrows; i++)
			if (strmap_put(&index, p->rows[i].name, i, NULL)) {
				strmap_release(&index);
				return -1;
			}
		for (i = 0; i < nc->nrows; i++) {
			/* every pair has every name: a miss is a bug */
			if (strmap_get(&index, nc->rows[i].name, &at))
				at = 0;
			nc->rows[i].at[k] = at;
			nc->rows[i].shown |= p->rows[at].shown;
		}
		strmap_release(&index);
	}
	for (i = 0; i < nc->nrows; i++) {
		nc->rows[i].at[0] = i;
		nc->nshown += nc->rows[i].shown;
	}
	return 0;
}

static int ncompare(struct ncomparison *nc,
		    const struct result_root *const *roots, size_t n,
		    const struct rules *rules, int shown_only,
		    struct pb_err *err)
{
	const struct metric *flag;
	const char **more = NULL;
	size_t k, nmore = 0;

	memset(nc, 0, sizeof(*nc));
	if (n < 2 || n > NCMP_MAX_ROOTS)
		return pb_fail(err, EX_USAGE, "compare: %zu result roots; from "
			       "2 to %d can be compared", n, NCMP_MAX_ROOTS);
	nc->nroots = n;
	if (n == 2 && shown_only) {
		if (compare_roots_shown(&nc->pair[0], roots[0], roots[1], rules,
					err))
			goto fail;
		if (join(nc))
			goto oom;
		return 0;
	}
	if (n > 2 && names_of_rest(roots, n, &more, &nmore))
		goto oom;
	for (k = 1; k < n; k++)
		if (compare_roots_with(&nc->pair[k - 1], roots[0], roots[k],
				       more, nmore, rules, err))
			goto fail;
	flag = result_root_find(roots[0], "last_state.is_incomplete_run");
	if (n > 2 && flag && !flag->strings) {
		struct result_root cut;
		int rc = complete_copy(&cut, roots[0]) ?
			pb_fail(err, EX_OSERR, "out of memory") : 0;

		for (k = 2; k < n && !rc; k++)
			rc = judge_later(nc, k - 1, &cut, roots[k], more,
					 nmore, rules, err);
		result_root_release(&cut);
		if (rc)
			goto fail;
	}
	free(more);
	more = NULL;
	if (join(nc))
		goto oom;
	return 0;
oom:
	pb_fail(err, EX_OSERR, "out of memory");
fail:
	free(more);
	ncomparison_release(nc);
	return -1;
}

int ncompare_roots(struct ncomparison *nc,
		   const struct result_root *const *roots, size_t n,
		   const struct rules *rules, struct pb_err *err)
{
	return ncompare(nc, roots, n, rules, 0, err);
}

int ncompare_roots_shown(struct ncomparison *nc,
			 const struct result_root *const *roots, size_t n,
			 const struct rules *rules, struct pb_err *err)
{
	return ncompare(nc, roots, n, rules, 1, err);
}

void ncomparison_release(struct ncomparison *nc)
{
	size_t k;

	for (k = 0; k + 1 < nc->nroots; k++)
		comparison_release(&nc->pair[k]);
	free(nc->rows);
	memset(nc, 0, sizeof(*nc));
}

const struct cmp_row *ncmp_cell(const struct ncomparison *nc,
				const struct ncmp_row *r, size_t col)
{
	return &nc->pair[col - 1].rows[r->at[col - 1]];
}
