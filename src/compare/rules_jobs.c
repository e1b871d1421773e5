// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare: the rules' lkp-tests programs (rules.h, rules_job_*): the
 * workload programs with the options each reads, the monitors and the
 * wrapper's options, indexed by name for a job's axes (axes.c).
 */
#include <stdlib.h>
#include <string.h>

#include "rules_internal.h"

/*
 * The programs of job_program_options ('PROGRAM OPTION...': a program
 * and the options it reads; an era file's entry for a program replaces
 * it), each with its options split, and the names of job_monitors, looked
 * up by name.
 */
int rules_index_programs(struct rules *r)
{
	const struct list *l = &r->l[L_JOB_OPTIONS];
	size_t i, n = 0, words = 0;
	char *p;

	for (i = 0; i < l->nsrc; i++)
		for (p = l->src[i].pattern; *p; p++)
			words += *p == ' ';
	r->opts = calloc(words + 1, sizeof(*r->opts));
	r->prog = calloc(l->nsrc + 1, sizeof(*r->prog));
	if (!r->opts || !r->prog)
		return -1;
	/* backwards: a later entry for a name (an era file's) wins */
	for (i = l->nsrc; i-- > 0; ) {
		struct program *pr = &r->prog[r->nprog++];

		pr->name = l->src[i].pattern;	/* split in place */
		pr->opt = r->opts + n;
		for (p = pr->name; (p = strchr(p, ' ')); ) {
			*p++ = '\0';
			if (*p && *p != ' ')
				r->opts[n++] = p;
		}
		pr->n = (size_t)(r->opts + n - pr->opt);
		if (strmap_put(&r->progs, pr->name, r->nprog - 1, NULL))
			return -1;
	}
	l = &r->l[L_JOB_MONITORS];
	for (i = 0; i < l->nsrc; i++)
		if (strmap_put(&r->monitors, l->src[i].pattern, i, NULL))
			return -1;
	return 0;
}

int rules_job_program(const struct rules *r, const char *name,
		      const char *const **opts, size_t *n)
{
	size_t i;

	if (strmap_get(&r->progs, name, &i))
		return 0;
	if (opts) {
		*opts = r->prog[i].opt;
		*n = r->prog[i].n;
	}
	return 1;
}

int rules_job_monitor(const struct rules *r, const char *name)
{
	size_t i;

	return !strmap_get(&r->monitors, name, &i);
}

const char *rules_job_wrapper_option(const struct rules *r, size_t i)
{
	return i < r->l[L_JOB_WRAPPER].nsrc ?
		r->l[L_JOB_WRAPPER].src[i].pattern : NULL;
}
