// SPDX-License-Identifier: GPL-2.0-only
/*
 * act: tests (test.h). The act step of "test" checks what it may do,
 * saves the patch beside the new result root, asks the farm (kind
 * "test") and records the test with the thread of the mail that asked;
 * each later run follows up the tests whose result root is complete (or
 * holds the farm's reason, or whose deadline passed) with an answer in
 * that thread: LKP's table of three commits and the fix verdict.
 */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perfbot/act/followup.h"
#include "perfbot/act/scheduler.h"
#include "perfbot/act/test.h"
#include "perfbot/compare/evidence.h"
#include "perfbot/compare/ncompare.h"
#include "perfbot/compare/stats.h"
#include "perfbot/compare/table.h"
#include "perfbot/render/evidence_view.h"
#include "perfbot/util/fileio.h"
#include "perfbot/util/id.h"
#include "perfbot/util/log.h"

#define TEST_DAY (24 * 3600)
#define TEST_MAX_REF 200

/* The words of templates/test-refused.txt, one per reason. */
static const char *const reasons[] = {
	"forms", "one_per_mail", "limit_report", "limit_sender", "no_patch",
	"not_text", "no_hunk", "too_large", "repo_scheme", "repo_unsafe",
	"repo_off", "repo_not_allowed", "ref_unsafe", "not_set_up", NULL,
};

static const char *const form_names[] = { "patch", "tree", "commit" };

/* The forms and limits, for templates/test-forms.txt. */
static void forms_ctx(struct ctx *x, const struct config *cfg)
{
	ctx_int(x, "max_runs", cfg->limits.max_runs);
	ctx_int(x, "default_runs", cfg->limits.default_runs);
}

/* Refused here: the reason's word is true, the others false. Returns 1. */
static int refuse(struct act_ctx *a, const struct mail_command *c,
		  const char *reason, struct pb_err *err)
{
	const struct config *cfg = a->cfg;
	struct ctx x;
	size_t i;

	ctx_init(&x, "answer");
	for (i = 0; reasons[i]; i++)
		ctx_bool(&x, reasons[i], !strcmp(reasons[i], reason));
	ctx_str(&x, "line", c->line);
	ctx_int(&x, "tests_per_report", cfg->limits.tests_per_report);
	ctx_int(&x, "tests_per_sender_per_day",
		cfg->limits.tests_per_sender_per_day);
	ctx_int(&x, "max_patch_bytes", cfg->limits.max_patch_bytes);
	ctx_int(&x, "patch_bytes", a->patch ? (long long)a->patch->len : 0);
	forms_ctx(&x, cfg);
	return dispatch_piece_of(a, "test-refused", &x, err) ? -1 : 1;
}

/* ------------------------------------------------------------------ */
/* What may be handed to the farm                                      */

/* Bytes a repository URL never holds: blanks, controls, quotes, ... */
static int unsafe_byte(unsigned char ch)
{
	return ch <= 0x20 || ch >= 0x7f || strchr("\"'`\\$;|&<>(){}[]^", ch);
}

int test_repo_allowed(const struct config *cfg, const char *url,
		      const char **why)
{
	const struct strv *pats = &cfg->commands.test_repos;
	const char *host;
	size_t i, n = strlen(url);

	if (!strncmp(url, "https://", 8))
		host = url + 8;
	else if (!strncmp(url, "git://", 6))
		host = url + 6;
	else
		return *why = "repo_scheme", -1;
	for (i = 0; i < n && !unsafe_byte((unsigned char)url[i]); i++)
		;
	if (i < n || !*host || *host == '/' || *host == '.' || *host == '-' ||
	    strstr(url, "..") || memchr(host, '@', strcspn(host, "/")) ||
	    n >= CMD_REPO_MAX)
		return *why = "repo_unsafe", -1;
	if (!pats->n)
		return *why = "repo_off", -1;
	for (i = 0; i < pats->n; i++)
		if (!fnmatch(pats->v[i], url, 0))
			return *why = NULL, 0;
	return *why = "repo_not_allowed", -1;
}

int test_ref_safe(const char *ref)
{
	size_t i, n = strlen(ref);

	if (!n || n > TEST_MAX_REF || strchr("-./", ref[0]) ||
	    strchr("./", ref[n - 1]) || strstr(ref, "..") ||
	    strstr(ref, "//") || strstr(ref, "/.") ||
	    (n >= 5 && !strcmp(ref + n - 5, ".lock")))
		return 0;
	for (i = 0; i < n; i++)
		if (!((ref[i] >= 'a' && ref[i] <= 'z') ||
		      (ref[i] >= 'A' && ref[i] <= 'Z') ||
		      (ref[i] >= '0' && ref[i] <= '9') ||
		      strchr("._-+/", ref[i])))
			return 0;
	return 1;
}

/* The patch of the mail may be tested: NULL, or the reason. */
static const char *patch_why(const struct config *cfg,
			     const struct reply_patch *p)
{
	if (!p || (!p->text && !p->binary))
		return "no_patch";
	if (p->binary)
		return "not_text";
	if (!p->hunks)
		return "no_hunk";
	if (p->len > (size_t)cfg->limits.max_patch_bytes)
		return "too_large";
	return NULL;
}

/* ------------------------------------------------------------------ */
/* Asking the farm                                                     */

/* A test being asked for: what the farm gets and the state keeps. */
struct asking {
	const struct mail_command *c;
	const char *rid;
	int runs;
	struct manifest m;
	struct report_inputs in;
	char *thread;		/* followup_thread_json() */
	char *dir;		/* the new result root */
	char *patch;		/* the saved patch, or NULL */
	const char *commit, *repo, *ref;
	enum sched_outcome out;
	char why[256];		/* the farm's refusal, for the operator */
	struct strbuf said;	/* result_root/error, for the developer */
	int failed;		/* the farm wrote it */
};

static void asking_release(struct asking *k)
{
	report_inputs_release(&k->in);
	manifest_release(&k->m);
	free(k->thread);
	free(k->dir);
	free(k->patch);
	sb_release(&k->said);
}

/* What is built on: the farm's commit, repo and ref of each form. */
static void what_to_build(struct asking *k)
{
	const struct mail_command *c = k->c;
	size_t hex = strspn(c->ref, "0123456789abcdefABCDEF");

	k->commit = k->m.head.commit;
	k->repo = k->ref = NULL;
	if (c->form == TEST_COMMIT) {
		k->commit = c->ref;
		k->repo = k->m.head.repo;
		k->ref = c->ref;
	} else if (c->form == TEST_TREE) {
		/* a branch is built as it is; the farm records its commit */
		if (!c->ref[hex] && hex >= 7 && hex <= 40)
			k->commit = c->ref;
		k->repo = c->repo;
		k->ref = c->ref;
	}
}

/* The patch beside the result root: <results_dir>/<request id>.patch. */
static int save_patch(struct asking *k, const struct reply_patch *p,
		      struct pb_err *err)
{
	struct strbuf sb = STRBUF_INIT;

	if (sb_addf(&sb, "%s.patch", k->dir) ||
	    !(k->patch = sb_detach(&sb, NULL))) {
		sb_release(&sb);
		return pb_fail(err, EX_OSERR, "out of memory");
	}
	return file_write_atomic(k->patch, p->text, p->len, 0644, err);
}

/*
 * Load the report, make the result root, save the patch, ask the farm:
 * k->out says how it went (SCHED_REJECTED with k->why when anything on
 * the way failed), k->failed when the farm wrote why it cannot.
 */
static void ask_farm(struct act_ctx *a, struct asking *k)
{
	const struct thread_report *tr = a->t->report;
	struct pb_err e = { 0, "" };
	struct sched_request rq;
	int found = 0;

	k->out = SCHED_REJECTED;
	if (followup_manifest(a->st, tr->report_id, &k->m, &e) ||
	    report_inputs_load(&k->in, &k->m, a->cfg, &e))
		goto fail;
	/* a confirmed report whose key metric the filter hides */
	if (!k->in.verdict.headline && k->in.key_metric)
		judge_force(&k->in.cmp, k->in.rules, k->in.key_metric,
			    &k->in.verdict);
	what_to_build(k);
	if (!(k->thread = followup_thread_json(a->t, &k->in))) {
		pb_fail(&e, EX_OSERR, "out of memory");
		goto fail;
	}
	if (scheduler_results_dir(a->cfg, k->rid, &k->dir, &e) ||
	    (k->c->form == TEST_PATCH && save_patch(k, a->patch, &e)))
		goto fail;
	rq = (struct sched_request){ k->rid, k->in.root[HEAD].job.name,
				     k->commit, k->dir, k->runs,
				     a->t->message_id, "test", k->repo,
				     k->ref, k->patch };
	if (scheduler_submit(a->cfg, &rq, &k->out, k->why, sizeof(k->why),
			     &e))
		goto fail;
	if (k->out == SCHED_ACCEPTED)
		return;
	/* a farm that tells at once why it cannot */
	if (!scheduler_farm_error(k->dir, &k->said, &found, &e) && found)
		k->failed = 1;
	return;
fail:
	k->out = SCHED_REJECTED;
	snprintf(k->why, sizeof(k->why), "%s", e.msg);
}

/* "form_patch", "form_tree", "form_commit", the repo and ref. */
static void form_ctx(struct ctx *x, const char *form, const char *repo,
		     const char *ref)
{
	size_t i;

	for (i = 0; i < 3; i++) {
		char key[16];

		snprintf(key, sizeof(key), "form_%s", form_names[i]);
		ctx_bool(x, key, !strcmp(form, form_names[i]));
	}
	ctx_opt(x, "repo", repo);
	ctx_opt(x, "ref", ref);
}

/* The farm's words, one quoted line each. */
static void said_ctx(struct ctx *x, const struct strbuf *said)
{
	json_t *lines = json_array();
	const char *p = sb_str(said), *nl;

	for (; lines && *p; p = nl ? nl + 1 : p + strlen(p)) {
		nl = strchr(p, '\n');
		if (json_array_append_new(lines, json_stringn(p, nl ?
				(size_t)(nl - p) : strlen(p)))) {
			json_decref(lines);
			lines = NULL;
		}
	}
	ctx_take(x, "said", lines);
}

/* The piece that answers the asking: ack, the farm's reason, refusal. */
static int ask_piece(struct act_ctx *a, const struct asking *k,
		     struct pb_err *err)
{
	const struct reply_patch *p = a->patch;
	const char *form = form_names[k->c->form];
	struct ctx x;

	ctx_init(&x, "answer");
	ctx_str(&x, "request_id", k->rid);
	ctx_int(&x, "runs", k->runs);
	form_ctx(&x, form, k->c->form == TEST_TREE ? k->c->repo : NULL,
		 k->c->form == TEST_PATCH ? NULL : k->c->ref);
	if (k->out != SCHED_ACCEPTED && !k->failed)
		return dispatch_piece_of(a, "test-rejected", &x, err);
	followup_commits_ctx(&x, &k->m);
	if (k->failed) {
		said_ctx(&x, &k->said);
		return dispatch_piece_of(a, "test-failed", &x, err);
	}
	ctx_int(&x, "patch_bytes", p && p->text ? (long long)p->len : 0);
	ctx_int(&x, "hunks", p ? (long long)p->hunks : 0);
	ctx_bool(&x, "one_hunk", p && p->hunks == 1);
	ctx_bool(&x, "attached", p && p->parts > 0);
	ctx_opt(&x, "name", p ? p->name : NULL);
	ctx_int(&x, "repaired", p ? (long long)p->repaired : 0);
	ctx_bool(&x, "any_repaired", p && p->repaired > 0);
	ctx_bool(&x, "one_repaired", p && p->repaired == 1);
	return dispatch_piece_of(a, "test-ack", &x, err);
}

/* Ask, record, answer: 0, or -1 when the state or a template fails. */
static int ask(struct act_ctx *a, const struct mail_command *c,
	       const char *rid, struct pb_err *err)
{
	struct asking k;
	struct test_request rq;
	int accepted;

	memset(&k, 0, sizeof(k));
	sb_init(&k.said, SCHED_ERROR_BYTES + 64);
	k.c = c;
	k.rid = rid;
	k.runs = c->runs ? c->runs : (int)a->cfg->limits.default_runs;
	ask_farm(a, &k);
	accepted = k.out == SCHED_ACCEPTED;
	rq = (struct test_request){
		rid, a->t->report->report_id, form_names[c->form], k.runs,
		a->t->from_addr, a->t->message_id, k.thread,
		k.commit ? k.commit : "", k.repo, k.ref, k.patch,
		k.patch && a->patch ? (long)a->patch->len : 0,
		k.dir ? k.dir : "",
		accepted ? "queued" : k.failed ? "failed" : "rejected",
		accepted ? NULL : k.failed ? sb_str(&k.said) : k.why,
		a->now + a->cfg->scheduler.deadline,
	};
	if (!accepted && !k.failed)
		log_warn("test '%s' of '%s' rejected: %s", rid,
			 a->t->report->report_id, k.why);
	if (state_test_add(a->st, &rq, a->now, err) ||
	    ask_piece(a, &k, err)) {
		asking_release(&k);
		return -1;
	}
	asking_release(&k);
	return 0;
}

int test_act(struct act_ctx *a, const struct mail_command *c, size_t index,
	     struct pb_err *err)
{
	const struct thread_report *tr = a->t->report;
	const struct config *cfg = a->cfg;
	long of_report, of_sender;
	const char *why = NULL;
	char *rid;
	int rc;

	if (!tr)
		return pb_fail(err, EX_SOFTWARE, "test: no report in the "
			       "thread");
	if (c->form == TEST_MALFORMED)
		return refuse(a, c, "forms", err);
	if (a->tests++)
		return refuse(a, c, "one_per_mail", err);
	if (state_test_counts(a->st, tr->report_id, a->t->from_addr,
			      a->now - TEST_DAY, &of_report, &of_sender, err))
		return -1;
	if (of_report >= cfg->limits.tests_per_report)
		return refuse(a, c, "limit_report", err);
	if (of_sender >= cfg->limits.tests_per_sender_per_day)
		return refuse(a, c, "limit_sender", err);
	if (!cfg->scheduler.results_dir) {
		log_warn("test: scheduler.results_dir is not set, so no test "
			 "can run");
		return refuse(a, c, "not_set_up", err);
	}
	if (c->form == TEST_PATCH)
		why = patch_why(cfg, a->patch);
	else if (c->form == TEST_TREE &&
		 !test_repo_allowed(cfg, c->repo, &why))
		why = test_ref_safe(c->ref) ? NULL : "ref_unsafe";
	if (why)
		return refuse(a, c, why, err);
	rid = id_test_request(a->t->message_id, index);
	if (!rid)
		return pb_fail(err, EX_OSERR, "out of memory");
	rc = ask(a, c, rid, err);
	free(rid);
	return rc;
}

/* ------------------------------------------------------------------ */
/* The follow-up                                                       */

/* How a test ends (followup_finish_fn). */
static int finish_test(struct state *st, const char *request_id,
		       const char *status, const char *detail, time_t now,
		       struct pb_err *err)
{
	return state_test_finish(st, request_id, status, detail, now, err);
}

/* What the verdict rests on: the metric in each comparison. */
struct verdict_of {
	const struct cmp_row *b2h, *b2t;	/* base to head, to tested */
	const struct cmp_row *h2t;		/* head to tested */
	struct evidence vs_base, vs_head;
	enum fix_verdict v;
};

static int judge_test(struct verdict_of *vo, const struct ncomparison *nc,
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
	vo->v = vo->b2t->present[HEAD] ?
		stats_fix_verdict(&vo->vs_base, vo->b2t->change, &vo->vs_head,
				  vo->h2t->change, reported) :
		FIX_INCONCLUSIVE;
	return 0;
}

/* The tested root's commit as its job.yaml says, else the one asked. */
static const char *tested_commit(const struct result_root *rr,
				 const struct test_row *row)
{
	const char *c = result_root_job_str(rr, "commit");
	size_t n = c ? strspn(c, "0123456789abcdefABCDEF") : 0;

	return c && !c[n] && n >= 7 && n <= 64 ? c : row->commit;
}

/* LKP's table of the three commits, each against the base. */
static int table_of(const struct ncomparison *nc,
		    const struct report_inputs *in, const struct manifest *m,
		    const struct result_root *tested,
		    const struct test_row *row, struct strbuf *out)
{
	const char *subject = result_root_job_str(tested, "subject");
	struct table_head h = {
		in->axes.keys, in->axes.values,
		{ m->base.commit, m->head.commit, tested_commit(tested, row) },
		{ m->base.subject, m->head.subject, subject ? subject : "" },
		3,
	};

	return table_render_n(nc, &h, rules_format(in->rules), 0, out);
}

static void verdict_ctx(struct ctx *c, const struct verdict_of *vo,
			const struct config *cfg, const struct test_row *row,
			double reported)
{
	long more = row->runs * 2;

	if (more > cfg->limits.max_runs)
		more = cfg->limits.max_runs;
	ctx_str(c, "verdict", stats_fix_verdict_name(vo->v));
	ctx_bool(c, "fixed", vo->v == FIX_FIXED);
	ctx_bool(c, "partly_fixed", vo->v == FIX_PARTLY);
	ctx_bool(c, "not_fixed", vo->v == FIX_NOT_FIXED);
	ctx_bool(c, "inconclusive", vo->v == FIX_INCONCLUSIVE);
	ctx_bool(c, "metric_missing", !vo->b2t->present[HEAD]);
	ctx_percent(c, "change_base", vo->b2t->change);
	ctx_percent(c, "change_head", vo->h2t->change);
	ctx_percent(c, "reported", reported);
	ctx_evidence(c, "vs_base", &vo->vs_base);
	ctx_evidence(c, "vs_head", &vo->vs_head);
	ctx_int(c, "more_runs", more > row->runs ? more : row->runs);
	ctx_opt(c, "tested_by", vo->v == FIX_FIXED ? cfg->identity.from :
		NULL);
}

/* The answer to a complete test; NULL with 'err' when it cannot be made. */
static json_t *result_ctx(const struct test_row *row,
			  const struct report_inputs *in,
			  const struct manifest *m,
			  const struct followup_asker *a,
			  const struct result_root *tested,
			  const struct config *cfg, const char **verdict,
			  struct pb_err *err)
{
	const struct result_root *roots[3] = { &in->root[BASE],
					       &in->root[HEAD], tested };
	const char *metric = followup_metric(a);
	double reported = followup_reported(a);
	struct strbuf table = STRBUF_INIT;
	struct ncomparison nc = { 0 };
	struct comparison h2t = { 0 };
	struct verdict_of vo;
	json_t *out = NULL;
	struct ctx c;

	if (!metric && in->verdict.headline)
		metric = in->verdict.headline->name;
	if (!metric) {
		pb_fail(err, EX_DATAERR, "the report has no headline metric");
		return NULL;
	}
	if (ncompare_roots(&nc, roots, 3, in->rules, err) ||
	    compare_roots(&h2t, &in->root[HEAD], tested, in->rules, err))
		goto out;
	if (judge_test(&vo, &nc, &h2t, metric, reported)) {
		pb_fail(err, EX_DATAERR, "no '%s' to judge", metric);
		goto out;
	}
	*verdict = stats_fix_verdict_name(vo.v);
	ctx_init(&c, "test");
	if (table_of(&nc, in, m, tested, row, &table))
		c.oom = 1;
	ctx_str(&c, "request_id", row->request_id);
	ctx_int(&c, "runs", row->runs);
	form_ctx(&c, row->form, row->repo, row->ref);
	followup_commits_ctx(&c, m);
	ctx_str(&c, "tested_sha", tested_commit(tested, row));
	ctx_str(&c, "metric", metric);
	followup_samples_ctx(&c, "base_samples", metric, vo.b2h->v[BASE],
			     vo.b2h->n[BASE]);
	followup_samples_ctx(&c, "head_samples", metric, vo.b2h->v[HEAD],
			     vo.b2h->n[HEAD]);
	followup_samples_ctx(&c, "tested_samples", metric, vo.b2t->v[HEAD],
			     vo.b2t->n[HEAD]);
	ctx_int(&c, "base_n", (long long)vo.b2h->n[BASE]);
	ctx_int(&c, "head_n", (long long)vo.b2h->n[HEAD]);
	ctx_int(&c, "tested_n", (long long)vo.b2t->n[HEAD]);
	verdict_ctx(&c, &vo, cfg, row, reported);
	ctx_str(&c, "table", sb_str(&table));
	if (ctx_finish(&c, &out, err))
		out = NULL;
out:
	sb_release(&table);
	comparison_release(&h2t);
	ncomparison_release(&nc);
	return out;
}

/* The other endings: the farm's reason, or the deadline passed. */
static json_t *end_ctx(const struct test_row *row, const struct manifest *m,
		       const struct strbuf *said, long landed,
		       struct pb_err *err)
{
	struct ctx c;
	json_t *o;

	ctx_init(&c, "test");
	ctx_str(&c, "request_id", row->request_id);
	ctx_int(&c, "runs", row->runs);
	ctx_int(&c, "tested_n", landed);
	form_ctx(&c, row->form, row->repo, row->ref);
	followup_commits_ctx(&c, m);
	if (said)
		said_ctx(&c, said);
	return ctx_finish(&c, &o, err) ? NULL : o;
}

/*
 * The tested result root when it is complete ('*ready' 1: its
 * matrix.json holds every run asked for); how many runs it has in
 * '*landed'. One not yet there, or not readable yet, is waited for.
 */
static void tested_load(const struct test_row *row, struct result_root *rr,
			int *ready, long *landed)
{
	struct pb_err e = { 0, "" };
	char *matrix = path_join(row->result_root, "matrix.json");

	*ready = 0;
	*landed = 0;
	memset(rr, 0, sizeof(*rr));
	if (!matrix || access(matrix, F_OK)) {
		free(matrix);
		return;
	}
	free(matrix);
	if (result_root_load(rr, row->result_root, &e)) {
		log_debug("test '%s': %s", row->request_id, e.msg);
		return;
	}
	*landed = (long)rr->runs;
	*ready = (long)rr->runs >= row->runs;
}

/* The report of a test, its manifest and thread, loaded again. */
struct test_fu {
	struct followup_asker a;
	struct report_inputs in;
	struct manifest m;
	struct result_root tested;
	struct strbuf said;
	json_t *ctx;
};

static void test_fu_release(struct test_fu *f)
{
	json_decref(f->ctx);
	followup_asker_release(&f->a);
	report_inputs_release(&f->in);
	manifest_release(&f->m);
	result_root_release(&f->tested);
	sb_release(&f->said);
}

/* Answer a complete test; 0, or -1 with 'err'. */
static int answer_done(struct state *st, const struct config *cfg,
		       const struct test_row *row, struct test_fu *f,
		       time_t now, struct test_stats *ts, struct pb_err *err)
{
	struct pb_err why = { 0, "" };
	const char *verdict = NULL;
	int rc;

	f->ctx = result_ctx(row, &f->in, &f->m, &f->a, &f->tested, cfg,
			    &verdict, &why);
	if (!f->ctx)
		return pb_fail(err, EX_SOFTWARE, "test '%s': cannot build its "
			       "answer: %s", row->request_id, why.msg);
	rc = followup_answer(st, cfg, &f->a, row->request_id, "test-result",
			     f->ctx, finish_test, "done", verdict, now, err);
	ts->done += !rc;
	if (!rc)
		log_info("test '%s' of '%s': %s", row->request_id,
			 row->report_id, verdict);
	return rc;
}

static int one_test(struct state *st, const struct config *cfg,
		    const struct test_row *row, time_t now,
		    struct test_stats *ts, struct pb_err *err)
{
	struct test_fu f;
	long landed = 0;
	int rc = 0, ready = 0, found = 0;

	memset(&f, 0, sizeof(f));
	sb_init(&f.said, SCHED_ERROR_BYTES + 64);
	pb_err_clear(err);
	if (followup_asker_load(&f.a, st, row->thread) ||
	    followup_manifest(st, row->report_id, &f.m, err) ||
	    report_inputs_load(&f.in, &f.m, cfg, err)) {
		log_warn("test '%s': %s", row->request_id,
			 err->msg[0] ? err->msg : "its thread is unreadable");
		/* gone for good: give up at the deadline, quietly */
		if (now > row->deadline)
			rc = state_test_finish(st, row->request_id, "expired",
					       err->msg[0] ? err->msg :
					       "unreadable", now, err);
		ts->expired += now > row->deadline && !rc;
		goto out;	/* else try again next run */
	}
	if (scheduler_farm_error(row->result_root, &f.said, &found, err)) {
		rc = -1;
		goto out;
	}
	if (!found)
		tested_load(row, &f.tested, &ready, &landed);
	if (found) {
		f.ctx = end_ctx(row, &f.m, &f.said, 0, err);
		rc = !f.ctx ? -1 : followup_answer(st, cfg, &f.a,
			row->request_id, "test-failed", f.ctx, finish_test,
			"failed", sb_str(&f.said), now, err);
		ts->failed += !rc;
	} else if (ready) {
		rc = answer_done(st, cfg, row, &f, now, ts, err);
	} else if (now > row->deadline) {
		f.ctx = end_ctx(row, &f.m, NULL, landed, err);
		rc = !f.ctx ? -1 : followup_answer(st, cfg, &f.a,
			row->request_id, "test-expired", f.ctx, finish_test,
			"expired", "deadline passed", now, err);
		ts->expired += !rc;
	} else {
		ts->waiting++;
	}
out:
	test_fu_release(&f);
	return rc;
}

int test_followups(struct state *st, const struct config *cfg, time_t now,
		   struct test_stats *ts, struct pb_err *err)
{
	struct test_row *rows = NULL;
	size_t i, n = 0;
	int rc = 0;

	memset(ts, 0, sizeof(*ts));
	if (state_tests_queued(st, &rows, &n, err))
		return -1;
	for (i = 0; i < n && !rc; i++)
		rc = one_test(st, cfg, &rows[i], now, ts, err);
	test_rows_free(rows, n);
	return rc;
}
