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

int ncompare_roots(struct ncomparison *nc,
		   const struct result_root *const *roots, size_t n,
		   const struct rules *rules, struct pb_err *err)
{
	const char **more = NULL;
	size_t k, nmore = 0;

	memset(nc, 0, sizeof(*nc));
	if (n < 2 || n > NCMP_MAX_ROOTS)
		return pb_fail(err, EX_USAGE, "compare: %zu result roots; from "
			       "2 to %d can be compared", n, NCMP_MAX_ROOTS);
	nc->nroots = n;
	if (n > 2 && names_of_rest(roots, n, &more, &nmore))
		goto oom;
	for (k = 1; k < n; k++)
		if (compare_roots_with(&nc->pair[k - 1], roots[0], roots[k],
				       more, nmore, rules, err))
			goto fail;
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
