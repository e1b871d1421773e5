// SPDX-License-Identifier: GPL-2.0-only
/*
 * act: tests (test.h), the act step: "test" checks what it may do (one a
 * mail, the limits, the patch, the repository and ref), saves the patch
 * beside the new result root, asks the farm (kind "test") and records
 * the test with the thread of the mail that asked. Its answer when the
 * runs are in is test_result.c's.
 */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/act/fixrun.h"
#include "perfbot/act/followup.h"
#include "perfbot/act/kind.h"
#include "perfbot/act/scheduler.h"
#include "perfbot/act/test.h"
#include "perfbot/util/fileio.h"
#include "perfbot/util/id.h"
#include "perfbot/util/log.h"
#include "perfbot/state/inbox.h"

#include "test_internal.h"

#define TEST_DAY (24 * 3600)
#define TEST_MAX_REF 200

/* The words of templates/test-refused.txt, one per reason. */
static const char *const reasons[] = {
	"forms", "one_per_mail", "limit_report", "limit_sender", "no_patch",
	"not_text", "no_hunk", "too_large", "repo_scheme", "repo_unsafe",
	"repo_off", "repo_not_allowed", "ref_unsafe", "not_set_up", NULL,
};

const char *const test_form_names[3] = { "patch", "tree", "commit" };

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
	return answers_piece_of(a, "test-refused", &x, err) ? -1 : 1;
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
	struct kind_asking q;	/* the one ask path's */
};

static void asking_release(struct asking *k)
{
	report_inputs_release(&k->in);
	manifest_release(&k->m);
	free(k->thread);
	free(k->dir);
	free(k->patch);
	kind_asking_release(&k->q);
}

/* What is built on: the farm's commit, repo and ref of each form. */
static void what_to_build(struct asking *k)
{
	const struct mail_command *c = k->c;
	size_t hex = strspn(c->ref, "0123456789abcdefABCDEF");

	k->commit = manifest_side_sha(&k->m.head);
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
 * Load the report, make the result root, save the patch: what the farm
 * is asked (k->q.refused with k->q.why when anything on the way
 * failed).
 */
static void prepare_ask(struct act_ctx *a, struct asking *k)
{
	const struct thread_report *tr = a->t->report;
	struct pb_err e = { 0, "" };

	if (followup_manifest(a->st, a->cfg, tr->report_id, &k->m, &e) ||
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
	k->q.farm[0] = (struct sched_request){
		.request_id = k->rid,
		.job = k->in.root[HEAD].job.name,
		.commit = k->commit,
		.result_root = k->dir,
		.runs = k->runs,
		.thread = a->t->message_id,
		.kind = "test",
		.repo = k->repo, .ref = k->ref, .patch = k->patch,
	};
	k->q.nfarm = 1;
	return;
fail:
	snprintf(k->q.why, sizeof(k->q.why), "%s", e.msg);
	k->q.refused = 1;
}

void test_form_ctx(struct ctx *x, const char *form, const char *repo,
		   const char *ref)
{
	size_t i;

	for (i = 0; i < 3; i++) {
		char key[16];

		snprintf(key, sizeof(key), "form_%s", test_form_names[i]);
		ctx_bool(x, key, !strcmp(form, test_form_names[i]));
	}
	ctx_opt(x, "repo", repo);
	ctx_opt(x, "ref", ref);
}

/* The piece that answers the asking: ack, the farm's reason, refusal. */
static int ask_piece(struct act_ctx *a, const struct asking *k,
		     struct pb_err *err)
{
	const struct reply_patch *p = a->patch;
	const char *form = test_form_names[k->c->form];
	struct ctx x;

	ctx_init(&x, "answer");
	ctx_str(&x, "request_id", k->rid);
	ctx_int(&x, "runs", k->runs);
	test_form_ctx(&x, form, k->c->form == TEST_TREE ? k->c->repo : NULL,
		 k->c->form == TEST_PATCH ? NULL : k->c->ref);
	if (k->q.out != KIND_QUEUED && k->q.out != KIND_SAID)
		return answers_piece_of(a, kind_test.tmpl.rejected, &x, err);
	followup_commits_ctx(&x, &k->m);
	if (k->q.out == KIND_SAID) {
		fixrun_said_ctx(&x, &k->q.said);
		return answers_piece_of(a, kind_test.tmpl.failed, &x, err);
	}
	ctx_int(&x, "patch_bytes", p && p->text ? (long long)p->len : 0);
	ctx_int(&x, "hunks", p ? (long long)p->hunks : 0);
	ctx_bool(&x, "one_hunk", p && p->hunks == 1);
	ctx_bool(&x, "attached", p && p->parts > 0);
	ctx_opt(&x, "name", p ? p->name : NULL);
	ctx_int(&x, "repaired", p ? (long long)p->repaired : 0);
	ctx_bool(&x, "any_repaired", p && p->repaired > 0);
	ctx_bool(&x, "one_repaired", p && p->repaired == 1);
	return answers_piece_of(a, kind_test.tmpl.ack, &x, err);
}

/* Ask, record, answer: 0, or -1 when the state or a template fails. */
static int ask(struct act_ctx *a, const struct mail_command *c,
	       const char *rid, struct pb_err *err)
{
	struct asking k;
	int rc;

	memset(&k, 0, sizeof(k));
	kind_asking_init(&k.q, &kind_test);
	k.c = c;
	k.rid = rid;
	k.runs = c->runs ? c->runs : (int)a->cfg->limits.default_runs;
	prepare_ask(a, &k);
	k.q.rq = (struct request_new){
		.request_id = rid, .kind = "test",
		.report_id = a->t->report->report_id, .runs = k.runs,
		.deadline = a->now + a->cfg->scheduler.deadline,
		.result_root = k.dir ? k.dir : "",
		.requested_by = a->t->from_addr,
		.reply_message_id = a->t->message_id, .thread = k.thread,
		.form = test_form_names[c->form],
		.commit = k.commit ? k.commit : "", .repo = k.repo,
		.ref = k.ref, .patch = k.patch,
		.patch_bytes = k.patch && a->patch ? (long)a->patch->len : 0,
	};
	rc = kind_ask(a->st, a->cfg, &kind_test, &k.q, a->now, err) ||
	     ask_piece(a, &k, err) ? -1 : 0;
	asking_release(&k);
	return rc;
}

int test_parse(const char *args, struct mail_command *c)
{
	return c->colon ? -1 : command_parse_test(args, c);
}

int test_check(const struct mail_command *c, const struct command_limits *l,
	       char *why, size_t whylen)
{
	if (c->runs == 0 || (c->runs >= 2 && c->runs <= l->max_runs))
		return 0;
	snprintf(why, whylen, "test: N must be between 2 and %d%s",
		 l->max_runs, c->runs == 1 ? " (one run cannot be tested)" :
		 "");
	return -1;
}

int test_act(struct act_ctx *a, const struct mail_command *c, size_t index,
	     struct pb_err *err)
{
	const struct thread_report *tr = a->t->report;
	const struct config *cfg = a->cfg;
	struct request_tally t;
	struct kind_limits l;
	long of_report, of_sender;
	const char *why = NULL;
	char *rid;
	int rc;

	if (!tr)	/* a reminder's thread: several reports */
		return answers_not_here(a, c, "test", err);
	if (c->form == TEST_MALFORMED)
		return refuse(a, c, "forms", err);
	if (a->tests++)
		return refuse(a, c, "one_per_mail", err);
	if (state_request_tally(a->st, "test", tr->report_id,
				a->t->from_addr, a->now - TEST_DAY, &t, err))
		return -1;
	of_report = t.of_report;
	of_sender = t.of_sender;
	request_tally_release(&t);
	kind_limits_of(&kind_test, cfg, &l);
	if (of_report >= l.per_report)
		return refuse(a, c, "limit_report", err);
	if (of_sender >= l.per_sender_day)
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
