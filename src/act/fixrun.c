// SPDX-License-Identifier: GPL-2.0-only
/*
 * act: a run of the report's job judged as a fix (fixrun.h), shared by
 * the answers of tests and of the runs on landed fixes: the new result
 * root waited for, LKP's table of the three commits, the headline
 * metric's runs and the verdict of seq_fix_judge() (the sequential rule
 * on both comparisons) with the evidence of both.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perfbot/act/fixrun.h"
#include "perfbot/act/followup.h"
#include "perfbot/compare/evidence.h"
#include "perfbot/compare/ncompare.h"
#include "perfbot/compare/sequential.h"
#include "perfbot/compare/table.h"
#include "perfbot/render/evidence_view.h"
#include "perfbot/render/seq_view.h"
#include "perfbot/util/fileio.h"
#include "perfbot/util/log.h"

void fixrun_root(const char *dir, int runs, const char *what,
		 struct result_root *rr, int *ready, long *landed)
{
	struct pb_err e = { 0, "" };
	char *matrix = path_join(dir, "matrix.json");

	*ready = 0;
	*landed = 0;
	memset(rr, 0, sizeof(*rr));
	if (!matrix || access(matrix, F_OK)) {
		free(matrix);
		return;
	}
	free(matrix);
	if (result_root_load(rr, dir, &e)) {
		log_debug("%s: %s", what, e.msg);
		return;
	}
	*landed = (long)rr->runs;
	*ready = (long)rr->runs >= runs;
}

/* What the verdict rests on: the metric in each comparison. */
struct verdict_of {
	const struct cmp_row *b2h, *b2t;	/* base to head, to tested */
	const struct cmp_row *h2t;		/* head to tested */
	struct evidence vs_base, vs_head;
	struct seq_fix sf;	/* the decision of both (issue 32) */
	enum fix_verdict v;
};

static int judge_fix(struct verdict_of *vo, const struct ncomparison *nc,
		     const struct comparison *h2t, const char *metric,
		     double reported)
{
	vo->b2h = comparison_find(&nc->pair[0], metric);
	vo->b2t = comparison_find(&nc->pair[1], metric);
	vo->h2t = comparison_find(h2t, metric);
	if (!vo->b2h || !vo->b2t || !vo->h2t)
		return -1;
	if (evidence_of_row(vo->b2t, &vo->vs_base) ||
	    evidence_of_row(vo->h2t, &vo->vs_head))
		return -1;
	/* the sequential rule on both comparisons, at the noise of the
	 * report's runs */
	seq_fix_judge(&vo->sf, vo->b2t->v[BASE], vo->b2t->n[BASE],
		      vo->h2t->v[BASE], vo->h2t->n[BASE], vo->b2t->v[HEAD],
		      vo->b2t->n[HEAD], reported / 100,
		      seq_runs_cv(vo->b2h->v[BASE], vo->b2h->n[BASE],
				  vo->b2h->v[HEAD], vo->b2h->n[HEAD]));
	vo->v = vo->b2t->present[HEAD] ? vo->sf.v : FIX_INCONCLUSIVE;
	return 0;
}

/* The tested root's commit as its job.yaml says, else the one asked. */
static const char *tested_commit(const struct fixrun *f)
{
	const char *c = result_root_job_str(f->tested, "commit");
	size_t n = c ? strspn(c, "0123456789abcdefABCDEF") : 0;

	return c && !c[n] && n >= 7 && n <= 64 ? c : f->commit;
}

/* LKP's table of the three commits, each against the base. */
static int table_of(const struct ncomparison *nc, const struct fixrun *f,
		    struct strbuf *out)
{
	const char *subject = f->subject ? f->subject :
		result_root_job_str(f->tested, "subject");
	struct table_head h = {
		f->in->axes.keys, f->in->axes.values,
		{ f->m->base.commit, f->m->head.commit, tested_commit(f) },
		{ f->m->base.subject, f->m->head.subject, subject ? subject :
		  "" },
		3,
	};

	return table_render_n(nc, &h, rules_format(f->in->rules), 0, out);
}

/* What the sides of an evidence line are (templates/evidence.txt). */
static void sides_ctx(struct ctx *parent, const char *key, int commit_base,
		      int fix)
{
	struct ctx c;

	ctx_init(&c, parent->family);
	ctx_bool(&c, "test_side", 1);
	ctx_bool(&c, "fix_side", fix);
	ctx_bool(&c, "commit_base", commit_base);
	ctx_child(parent, key, &c);
}

static void verdict_ctx(struct ctx *c, const struct verdict_of *vo,
			const struct fixrun *f)
{
	long more = f->runs * 2L;

	if (more > f->max_runs)
		more = f->max_runs;
	ctx_str(c, "verdict", stats_fix_verdict_name(vo->v));
	ctx_bool(c, "fixed", vo->v == FIX_FIXED);
	ctx_bool(c, "partly_fixed", vo->v == FIX_PARTLY);
	ctx_bool(c, "not_fixed", vo->v == FIX_NOT_FIXED);
	ctx_bool(c, "inconclusive", vo->v == FIX_INCONCLUSIVE);
	ctx_bool(c, "metric_missing", !vo->b2t->present[HEAD]);
	ctx_percent(c, "change_base", vo->b2t->change);
	ctx_percent(c, "change_head", vo->h2t->change);
	/* the table's: all runs of both, as the answer shows them */
	ctx_percent(c, "reported", vo->b2h->change);
	ctx_evidence(c, "vs_base", &vo->vs_base);
	ctx_evidence(c, "vs_head", &vo->vs_head);
	if (vo->sf.ok[SEQ_FIX_AWAY])
		ctx_seq(c, "seq_base", &vo->sf.d[SEQ_FIX_AWAY],
			&vo->sf.dec[SEQ_FIX_AWAY]);
	if (vo->sf.ok[SEQ_FIX_BACK])
		ctx_seq(c, "seq_head", &vo->sf.d[SEQ_FIX_BACK],
			&vo->sf.dec[SEQ_FIX_BACK]);
	sides_ctx(c, "sides_base", 0, f->fix);
	sides_ctx(c, "sides_head", 1, f->fix);
	ctx_int(c, "more_runs", more > f->runs ? more : f->runs);
}

static void samples_ctx(struct ctx *c, const char *metric,
			const struct verdict_of *vo)
{
	followup_samples_ctx(c, "base_samples", metric, vo->b2h->v[BASE],
			     vo->b2h->n[BASE]);
	followup_samples_ctx(c, "head_samples", metric, vo->b2h->v[HEAD],
			     vo->b2h->n[HEAD]);
	followup_samples_ctx(c, "tested_samples", metric, vo->b2t->v[HEAD],
			     vo->b2t->n[HEAD]);
	ctx_int(c, "base_n", (long long)vo->b2h->n[BASE]);
	ctx_int(c, "head_n", (long long)vo->b2h->n[HEAD]);
	ctx_int(c, "tested_n", (long long)vo->b2t->n[HEAD]);
}

int fixrun_ctx(struct ctx *c, const struct fixrun *f, enum fix_verdict *v,
	       struct pb_err *err)
{
	const struct report_inputs *in = f->in;
	const struct result_root *roots[3] = { &in->root[BASE],
					       &in->root[HEAD], f->tested };
	const char *metric = f->metric;
	struct strbuf table = STRBUF_INIT;
	struct ncomparison nc = { 0 };
	struct comparison h2t = { 0 };
	struct verdict_of vo;
	int rc = -1;

	if (!metric && in->verdict.headline)
		metric = in->verdict.headline->name;
	if (!metric)
		return pb_fail(err, EX_DATAERR, "the report has no headline "
			       "metric");
	if (ncompare_roots(&nc, roots, 3, in->rules, err) ||
	    compare_roots(&h2t, &in->root[HEAD], f->tested, in->rules, err))
		goto out;
	if (judge_fix(&vo, &nc, &h2t, metric, f->reported)) {
		pb_fail(err, EX_DATAERR, "no '%s' to judge", metric);
		goto out;
	}
	*v = vo.v;
	if (table_of(&nc, f, &table))
		c->oom = 1;
	followup_commits_ctx(c, f->m);
	ctx_str(c, "tested_sha", tested_commit(f));
	ctx_str(c, "metric", metric);
	samples_ctx(c, metric, &vo);
	verdict_ctx(c, &vo, f);
	ctx_str(c, "table", sb_str(&table));
	rc = 0;
out:
	sb_release(&table);
	comparison_release(&h2t);
	ncomparison_release(&nc);
	return rc;
}

/* The farm's words, a line each (fixrun.h). */
void fixrun_said_ctx(struct ctx *x, const struct strbuf *said)
{
	ctx_lines(x, "said", sb_str(said));
}
