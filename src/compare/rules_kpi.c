// SPDX-License-Identifier: GPL-2.0-only
/*
 * The metric rules: LKP's KPI index (lkp-tests etc/index-perf*.yaml,
 * etc/index-latency*.yaml and lib/stats.rb's kpi_stat?), which stat a
 * report follows and which way is better.
 */
#include <string.h>

#include "rules_internal.h"

/* The first of the index lists 'from'..'to' that names 'name'. */
static int index_find(const struct rules *r, int from, int to,
		      const char *name, int *list, long *pos)
{
	for (*list = from; *list <= to; (*list)++)
		if ((*pos = rules_first(r, *list, name)) >= 0)
			return 1;
	return 0;
}

static int sign_of(double v)
{
	return v > 0 ? 1 : v < 0 ? -1 : 0;
}

void rules_kpi_rank(const struct rules *r, const char *name,
		    struct kpi_rank *k)
{
	int list;
	long pos;

	memset(k, 0, sizeof(*k));
	k->weight = KPI_NO_WEIGHT;
	if (index_find(r, L_INDEX_PERF, L_INDEX_PERF_ALL, name, &list, &pos)) {
		double v = r->l[list].val[pos].v;

		/* lib/stats.rb sort_bisect_stats: the weight's to_i */
		k->weight = (long)v;
		k->direction = sign_of(v);
	} else if (index_find(r, L_INDEX_LATENCY, L_INDEX_LATENCY_ALL, name,
			      &list, &pos)) {
		k->latency = 1;
		k->direction = sign_of(r->l[list].val[pos].v);
	} else {
		return;
	}
	k->indexed = 1;
	k->primary = list == L_INDEX_PERF || list == L_INDEX_LATENCY;
	k->pos = pos;
}

int rules_is_kpi(const struct rules *r, const char *name)
{
	const char *dot = strchr(name, '.');
	char base[128];
	size_t n;

	if (!dot || rules_first(r, L_KPI_DENY, name) >= 0 ||
	    !strncmp(dot + 1, "time.", 5))
		return 0;
	n = (size_t)(dot - name);
	if (n >= sizeof(base))
		return 0;
	memcpy(base, name, n);
	base[n] = '\0';
	return rules_job_program(r, base, NULL, NULL) &&
	       !rules_job_monitor(r, base);
}

int rules_direction(const struct rules *r, const char *name)
{
	struct kpi_rank k;
	long i;

	rules_kpi_rank(r, name, &k);
	if (k.direction)
		return k.direction;
	i = rules_first(r, L_DIRECTION, name);
	return i < 0 ? 0 : (int)r->l[L_DIRECTION].val[i].v;
}
