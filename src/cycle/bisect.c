// SPDX-License-Identifier: GPL-2.0-only
/*
 * cycle: a range manifest that asks for a bisection ('bisect: true'),
 * ingest's side of it (steps.h): the first time its change is worth a
 * mail the bisection is started (act/bisect.c) instead of the range's
 * report being queued; while it runs (the follow-up step moves it on,
 * bisect_followups()) the manifest waits; once it is done the report of
 * its culprit (the culprit's parent against it) or of the range,
 * inconclusive, is made here and queued in its place.
 */
#include <stdlib.h>
#include <string.h>

#include "perfbot/act/bisect.h"
#include "perfbot/cycle/report.h"
#include "perfbot/ingest/bisect_range.h"
#include "perfbot/ingest/gittree.h"
#include "perfbot/ingest/result.h"
#include "perfbot/state/bisections.h"
#include "perfbot/state/requests.h"
#include "perfbot/util/fileio.h"
#include "perfbot/util/log.h"

#include "steps.h"

/* The runs of 'metric' in result root 'dir', malloc'ed into 'v'. */
static int runs_of(const char *dir, const char *metric, double **v,
		   size_t *n, struct pb_err *err)
{
	struct result_root rr;
	const struct metric *m;
	int rc = -1;

	*v = NULL;
	*n = 0;
	if (result_root_load(&rr, dir, err))
		return -1;
	m = result_root_find(&rr, metric);
	if (!m) {
		pb_fail(err, EX_DATAERR, "%s: no metric '%s'", dir, metric);
	} else if (!(*v = malloc((rr.runs ? rr.runs : 1) * sizeof(**v)))) {
		pb_fail(err, EX_OSERR, "out of memory");
	} else {
		memcpy(*v, metric_values(&rr, m), rr.runs * sizeof(**v));
		*n = rr.runs;
		rc = 0;
	}
	result_root_release(&rr);
	return rc;
}

/* A manifest's commit as the tracked tree's full sha. */
static int full_sha(struct gittree *t, const char *commit,
		    char sha[GIT_SHA_HEX], struct pb_err *err)
{
	int found = 0;

	if (gittree_resolve(t, commit, sha, &found, err))
		return -1;
	return found ? 0 : pb_fail(err, EX_DATAERR, "bisect: commit '%.40s' "
				   "is not in tracking.repo (or not one)",
				   commit);
}

/* Start the bisection of range report 'r' of manifest 'm'. */
static int start(struct cycle *cy, const struct manifest *m,
		 const struct report *r, struct pb_err *err)
{
	char base[GIT_SHA_HEX], head[GIT_SHA_HEX];
	double *bv = NULL, *hv = NULL;
	size_t nb = 0, nh = 0;
	struct gittree *t = NULL;
	struct bisect_start s;
	/* the job both ends ran, as the base ran it */
	char *job = path_join(m->base.result_root, "job.yaml");
	int rc = -1;

	if (!job) {
		pb_fail(err, EX_OSERR, "out of memory");
		goto out;
	}
	if (gittree_open(&t, cy->cfg->tracking.repo, err) ||
	    full_sha(t, m->base.commit, base, err) ||
	    full_sha(t, m->head.commit, head, err) ||
	    runs_of(m->base.result_root, r->metric, &bv, &nb, err) ||
	    runs_of(m->head.result_root, r->metric, &hv, &nh, err))
		goto out;
	/* the change's own direction: bad is the head's side */
	s = (struct bisect_start){
		.report_id = r->id,
		.manifest = m->doc.name,
		.job = job,
		.metric = r->metric,
		.direction = bisect_direction(bv, nb, hv, nh),
		.base = base, .head = head,
		.base_runs = bv, .head_runs = hv,
		.nbase = nb, .nhead = nh,
	};
	rc = bisect_act_start(cy->st, cy->cfg, t, &s, cy->now, err);
	if (!rc)
		log_info("bisecting report '%s': %s over %.12s..%.12s",
			 r->id, r->metric, base, head);
out:
	gittree_close(t);
	free(job);
	free(bv);
	free(hv);
	return rc;
}

/*
 * The result root of point 'at' for the report: the manifest's own for
 * the ends, else that of its request which landed the most runs.
 */
static char *root_of(const struct bisect *b, size_t at,
		     const struct manifest *m, const struct request *rq,
		     size_t nrq)
{
	const struct request *best = NULL;
	size_t i;

	if (at == 0)
		return strdup(m->base.result_root);
	if (at == b->n)
		return strdup(m->head.result_root);
	for (i = 0; i < nrq; i++)
		if (!strcmp(rq[i].status, "done") && rq[i].commit &&
		    !strcmp(rq[i].commit, b->p[at].sha) && rq[i].result_root &&
		    (!best || rq[i].runs > best->runs))
			best = &rq[i];
	return best ? strdup(best->result_root) : NULL;
}

/* The culprit's report: its parent (base) against it (head). */
static int culprit_report(struct cycle *cy, const struct manifest *m,
			  const char *id, const struct bisect *b,
			  const struct bisect_verdict *v,
			  struct report_opts *o, struct report *out,
			  struct pb_err *err)
{
	struct manifest c = *m;
	struct request *rq = NULL;
	size_t nrq = 0;
	int rc = -1;

	c.base.result_root = c.head.result_root = NULL;
	if (state_requests_of(cy->st, id, "bisect", &rq, &nrq, err))
		return -1;
	c.base.result_root = root_of(b, v->parent, m, rq, nrq);
	c.head.result_root = root_of(b, v->culprit, m, rq, nrq);
	if (!c.base.result_root || !c.head.result_root) {
		pb_fail(err, EX_DATAERR, "bisect '%s': no result root of the "
			"culprit or its parent", id);
		goto out;
	}
	/* the commits themselves, not the range's ends (nor their refs) */
	c.base.commit = c.base.sha = b->p[v->parent].sha;
	c.head.commit = c.head.sha = b->p[v->culprit].sha;
	c.base.ref = c.head.ref = NULL;
	/* their subjects: the result roots' job.yaml (the farm's) */
	c.base.subject = v->parent ? "" : m->base.subject;
	c.head.subject = v->culprit == b->n ? m->head.subject : "";
	rc = report_make(out, &c, cy->cfg, o, err);
out:
	free(c.base.result_root);
	free(c.head.result_root);
	request_rows_free(rq, nrq);
	return rc;
}

/* A bisection that is done: its report into 'out'. */
static int done_report(struct cycle *cy, const struct manifest *m,
		       const struct bisection_row *row, struct report *out,
		       struct pb_err *err)
{
	struct report_opts o = { NULL, cy->now, NULL, NULL, 0, NULL, NULL,
				 NULL, NULL, 0 };
	struct bisect b = { 0 };
	struct bisect_verdict v;
	int rc = -1;

	if (bisect_from_json(&b, row->state, err) ||
	    bisect_verdict_of(&b, &v, err))
		goto out;
	o.bisect = &b;
	o.bisect_v = &v;
	/* the bisected metric is the headline, noise filter or not: the
	 * culprit's and its parent's runs are a few of the farm's */
	o.force_metric = b.metric;
	if (b.phase == BISECT_CULPRIT)
		rc = culprit_report(cy, m, row->bisect_id, &b, &v, &o, out,
				    err);
	else
		rc = report_make(out, m, cy->cfg, &o, err);
out:
	bisect_release(&b);
	return rc;
}

/*
 * bisect.confirmed: is the range longer than one commit of the tracked
 * tree? A range that is not in it is no range to bisect either.
 */
static int a_range(struct cycle *cy, const struct manifest *m)
{
	char base[GIT_SHA_HEX], head[GIT_SHA_HEX];
	struct bisect_range r = { NULL, 0 };
	struct pb_err e = { 0, "" };
	struct gittree *t = NULL;
	int yes = 0;

	if (!gittree_open(&t, cy->cfg->tracking.repo, &e) &&
	    !full_sha(t, m->base.commit, base, &e) &&
	    !full_sha(t, m->head.commit, head, &e) &&
	    !bisect_range_list(t, base, head, &r, &e))
		yes = r.n > 1;
	if (e.msg[0])
		log_debug("%s: not bisected: %s", m->doc.name, e.msg);
	bisect_range_release(&r);
	gittree_close(t);
	return yes;
}

int cycle_bisect_report(struct cycle *cy, const struct manifest *m,
			const struct report *range, struct report *out,
			int *ready, struct pb_err *err)
{
	struct bisection_row *row = NULL;
	int policy = !m->bisect;
	char *id;
	int rc = -1;

	*ready = 0;
	memset(out, 0, sizeof(*out));
	if (policy && (!cy->cfg->tracking.repo || !a_range(cy, m))) {
		*ready = 2;	/* its own report, as ever */
		return 0;
	}
	if (!cy->cfg->tracking.repo)
		return pb_fail(err, EX_CONFIG, "%s: 'bisect' needs "
			       "tracking.repo, the tree its commits are in",
			       m->doc.name);
	if (!(id = bisect_id_of(range->id)))
		return pb_fail(err, EX_OSERR, "out of memory");
	if (state_bisection_get(cy->st, id, &row, err))
		goto out;
	if (!row) {
		rc = start(cy, m, range, err);
		goto out;
	}
	if (!strcmp(row->phase, "search") || !strcmp(row->phase, "verify")) {
		rc = 0;		/* the follow-up step moves it on */
		goto out;
	}
	rc = done_report(cy, m, row, out, err);
	*ready = !rc;
out:
	bisection_rows_free(row, row ? 1 : 0);
	free(id);
	return rc;
}
