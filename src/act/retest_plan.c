// SPDX-License-Identifier: GPL-2.0-only
/*
 * act: a retest's sequential design (retest_internal.h): made from N, the
 * cap, the report's earlier retests, its reported change and noise
 * (seq_params_retest()), kept with the request's thread and read back
 * for each look.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>

#include "perfbot/act/learned.h"

#include "retest_internal.h"

int retest_plan_design(const struct retest_plan *pl, struct seq_design *d,
		       struct pb_err *err)
{
	struct seq_params sp;

	seq_params_retest(&sp, pl->first, pl->cap, (size_t)pl->earlier,
			  pl->reported, pl->cv);
	return seq_design_init(d, &sp, err);
}

int retest_plan_design_once(const struct retest_plan *pl,
			    struct seq_design *d, int *made,
			    struct pb_err *err)
{
	if (!*made && retest_plan_design(pl, d, err))
		return -1;
	*made = 1;
	return 0;
}

/* Add 'pl' to the thread's JSON '*thread' (replaced); -1 out of memory. */
int retest_plan_keep(char **thread, const struct retest_plan *pl)
{
	json_t *t = *thread ? json_loads(*thread, 0, NULL) : NULL;
	json_t *o = json_pack("{s:I, s:I, s:I, s:f, s:f, s:s}", "first",
			      (json_int_t)pl->first, "cap",
			      (json_int_t)pl->cap, "earlier",
			      (json_int_t)pl->earlier, "reported",
			      isfinite(pl->reported) ? pl->reported : 0.0,
			      "cv", isfinite(pl->cv) ? pl->cv : 0.0, "id",
			      pl->id);
	char *s = NULL;

	if (t && o && !json_object_set_new(t, "retest", o)) {
		o = NULL;
		s = json_dumps(t, JSON_COMPACT);
	}
	json_decref(o);
	json_decref(t);
	if (!s)
		return -1;
	free(*thread);
	*thread = s;
	return 0;
}

/* 'lo' <= the integer 'key' of 'o' <= 'hi', else 'dflt'. */
static long plan_int(const json_t *o, const char *key, long lo, long hi,
		     long dflt)
{
	const json_t *v = json_object_get(o, key);
	json_int_t i = json_integer_value(v);

	return json_is_integer(v) && i >= lo && i <= hi ? (long)i : dflt;
}

int retest_plan_read(struct retest_plan *pl, const struct request *row)
{
	json_t *t = json_loads(row->thread ? row->thread : "", 0, NULL);
	const json_t *o = json_object_get(t, "retest");
	const char *id;

	pl->first = plan_int(o, "first", SEQ_MIN_RUNS, SEQ_MAX_RUNS,
			     row->runs);
	pl->cap = plan_int(o, "cap", pl->first, SEQ_MAX_RUNS, pl->first);
	pl->earlier = plan_int(o, "earlier", 0, 1000000, 0);
	pl->reported = o ? json_number_value(json_object_get(o, "reported")) :
		json_number_value(json_object_get(t, "reported_change")) / 100;
	pl->cv = json_number_value(json_object_get(o, "cv"));
	id = json_string_value(json_object_get(o, "id"));
	pl->id_kept = id ? strdup(id) : NULL;
	pl->id = id ? pl->id_kept : row->request_id;
	json_decref(t);
	return pl->id ? 0 : -1;
}

void retest_plan_release(struct retest_plan *pl)
{
	free(pl->id_kept);
	pl->id_kept = NULL;
	pl->id = NULL;
}

/* The report's retests before this one that the farm took. */
int retest_plan_earlier(struct state *st, const char *report_id,
			  long *earlier, struct pb_err *err)
{
	struct request *rows;
	size_t n, i;

	*earlier = 0;
	if (state_requests_of(st, report_id, "retest", &rows, &n, err))
		return -1;
	for (i = 0; i < n; i++)
		*earlier += strcmp(rows[i].status, "rejected") != 0;
	request_rows_free(rows, n);
	return 0;
}

/* The runs a side a look of 'n' in all adds to the look before it. */
long retest_look_adds(const struct seq_design *d, long n)
{
	long before = 0;
	size_t k;

	for (k = 0; k < d->nlooks && d->look[k].n < n; k++)
		before = d->look[k].n;
	return n - before;
}

void retest_plan_noise(struct state *st, const struct report_inputs *in,
		       const char *metric, double cv, long df,
		       struct retest_plan *pl)
{
	struct seq_params sp;
	struct learned l;

	learned_noise(st, in->job.testcase, in->job.tbox_group, metric, cv, df,
		      &l);
	pl->cv = learned_design_cv(&l, cv);
	pl->learned = l.df;
	/* N is what the developer wants at least: the noise may ask more */
	seq_params_retest(&sp, pl->first, pl->cap, (size_t)pl->earlier,
			  pl->reported, pl->cv);
	pl->first = learned_first_look(&l, &sp, pl->first, pl->cap);
}
