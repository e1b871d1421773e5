// SPDX-License-Identifier: GPL-2.0-only
/*
 * judge: the new runs on their own (runs.h): a result root cut to the
 * runs from a given one on, and the ordinary comparison of two such cuts,
 * so that retests and confirmations decide on runs that did not select
 * the change.
 */
#include <stdlib.h>
#include <string.h>

#include "perfbot/judge/runs.h"

int runs_cut(struct result_root *cut, const struct result_root *rr,
	     size_t from, struct pb_err *err)
{
	size_t i, n = rr->runs > from ? rr->runs - from : 0;

	memset(cut, 0, sizeof(*cut));
	strmap_init(&cut->index);
	if (!n || !rr->nmetrics)
		return pb_fail(err, EX_DATAERR, "no runs after the first %zu",
			       from);
	cut->runs = n;
	cut->stride = n;
	cut->nmetrics = rr->nmetrics;
	cut->metrics = calloc(rr->nmetrics, sizeof(*cut->metrics));
	cut->value_pool = calloc(rr->nmetrics * n, sizeof(double));
	cut->int_pool = malloc(rr->nmetrics * n);
	if (!cut->metrics || !cut->value_pool || !cut->int_pool)
		goto oom;
	for (i = 0; i < rr->nmetrics; i++) {
		cut->metrics[i].name = rr->metrics[i].name;
		cut->metrics[i].exact = METRIC_NO_EXACT;
		cut->metrics[i].strings = rr->metrics[i].strings;
		memcpy(cut->value_pool + i * n,
		       metric_values(rr, &rr->metrics[i]) + from,
		       n * sizeof(double));
		memcpy(cut->int_pool + i * n,
		       metric_ints(rr, &rr->metrics[i]) + from, n);
		if (strmap_put(&cut->index, cut->metrics[i].name, i, NULL))
			goto oom;
	}
	return 0;
oom:
	result_root_release(cut);
	return pb_fail(err, EX_OSERR, "out of memory");
}

int runs_compare_new(struct runs_new *rn, const struct result_root *base,
		     const struct result_root *head, const size_t from[2],
		     const struct rules *rules, struct pb_err *err)
{
	memset(rn, 0, sizeof(*rn));
	if (runs_cut(&rn->cut[BASE], base, from[BASE], err) ||
	    runs_cut(&rn->cut[HEAD], head, from[HEAD], err) ||
	    compare_roots(&rn->cmp, &rn->cut[BASE], &rn->cut[HEAD], rules,
			  err)) {
		runs_new_release(rn);
		return -1;
	}
	return 0;
}

void runs_new_release(struct runs_new *rn)
{
	result_root_release(&rn->cut[BASE]);
	result_root_release(&rn->cut[HEAD]);
	comparison_release(&rn->cmp);
	memset(rn, 0, sizeof(*rn));
}
