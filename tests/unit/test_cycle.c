// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/cycle/: the steps each cycle command performs
 * (run, run --dry-run, send, poll, retest), on a temporary state and the
 * seed 004 result roots, with configurations that name no SMTP or IMAP
 * server (the integration tests talk to real ones): what got queued or
 * skipped, what --dry-run prints and leaves alone, a bad manifest, the
 * exit codes, and what is logged with and without --quiet. Run from the
 * repository root (fixtures and templates are read by relative path).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "perfbot/cycle/cycle.h"
#include "perfbot/util/log.h"
#include "perfbot/state/state.h"
#include "perfbot/state/status.h"
#include "perfbot/state/outbox.h"

#include "testutil.h"

#define T0 1739548080	/* 2025-02-14 15:48:00 UTC */
#define SEED4 "fixtures/seeds/004"
#define SUBJECT4 "hackbench.throughput 10.5%"

#define STEPS(a) CYCLE_RAN(CYCLE_##a)
#define RUN_STEPS (STEPS(OPEN) | STEPS(INGEST) | STEPS(CONFIRM) | \
		   STEPS(POLL) | STEPS(FOLLOWUP) | STEPS(TRACK) | \
		   STEPS(REMIND) | STEPS(DELIVER))

struct fx {
	char dir[64];
	char state[PATH_MAX];
	char out[PATH_MAX];	/* captured stderr or stdout */
	char cfgpath[PATH_MAX];
	char yaml[3 * PATH_MAX + 512];
	struct config cfg;
	int loaded;
	struct cycle cy;
	int have_cy;
	struct pb_err err;
	enum log_level level;
};

static int setup(void **state)
{
	struct fx *f = TU_NEW_FX(struct fx, "test_cycle");
	char path[PATH_MAX], cwd[PATH_MAX];

	if (!f || !getcwd(cwd, sizeof(cwd)))
		return -1;
	f->level = log_get_level();
	tu_path(f->state, sizeof(f->state), f->dir, "var/state.db");
	tu_path(f->out, sizeof(f->out), f->dir, "out");
	tu_path(path, sizeof(path), f->dir, "manifests");
	if (mkdir(path, 0700))
		return -1;
	snprintf(f->yaml, sizeof(f->yaml),
		 "identity:\n"
		 "  from: \"perfbot <perfbot@example.test>\"\n"
		 "  message_id_domain: example.test\n"
		 "state: %s\n"
		 "sources:\n"
		 "  - dir: %s\n"
		 "recipients:\n"
		 "  to_author: true\n"
		 "  cc: [perf-reports@example.test]\n"
		 "templates:\n"
		 "  dir: %s/templates\n",
		 f->state, path, cwd);
	tu_path(f->cfgpath, sizeof(f->cfgpath), f->dir, "perfbot.yaml");
	tu_load_config(&f->cfg, &f->loaded, f->cfgpath, f->yaml, &f->err);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	log_set_level(f->level);
	if (f->have_cy)
		cycle_release(&f->cy);
	if (f->loaded)
		config_release(&f->cfg);
	tu_rmtree(f->dir);
	free(f);
	return 0;
}

/*
 * Manifest file 'name' comparing the result roots 'base' and 'head' with
 * seed 004's commits; with 'id' (NULL: none, derived) and 'extra' lines.
 */
static void manifest_at(struct fx *f, const char *name, const char *id,
			const char *base, const char *head, const char *extra)
{
	char text[2 * PATH_MAX + 1024], file[128], idline[128] = "";

	if (id)
		snprintf(idline, sizeof(idline), "id: %s\n", id);
	snprintf(text, sizeof(text),
		 "%s"
		 "base: { commit: 262b2fa99cbe02a715ce23981c2c30685ccf3a93, "
		 "subject: \"pipe: introduce struct file_operations "
		 "pipeanon_fops\", result_root: %s }\n"
		 "head: { commit: f017b0a4951fac8f150232661b2cc0b67e0c57f0, "
		 "subject: \"pipe: don't update {a,c,m}time for anonymous "
		 "pipes\", author: \"Dev <dev@example.test>\", "
		 "result_root: %s }\n%s",
		 idline, base, head, extra ? extra : "");
	snprintf(file, sizeof(file), "manifests/%s.yaml", name);
	tu_put(f->dir, file, text, 0600);
}

/* A manifest 'id' comparing seed 004's roots 'base' and 'head'. */
static void manifest(struct fx *f, const char *id, const char *base,
		     const char *head)
{
	char cwd[PATH_MAX], b[PATH_MAX + 64], h[PATH_MAX + 64];

	assert_non_null(getcwd(cwd, sizeof(cwd)));
	snprintf(b, sizeof(b), "%s/" SEED4 "/%s", cwd, base);
	snprintf(h, sizeof(h), "%s/" SEED4 "/%s", cwd, head);
	manifest_at(f, id, id, b, h, NULL);
}

/* A new cycle of 'cmd' in f->cy, on the fixture's state. */
static void start(struct fx *f, const char *cmd, int dry_run)
{
	if (f->have_cy)
		cycle_release(&f->cy);
	f->have_cy = 0;
	assert_int_equal(cycle_init(&f->cy, cmd, dry_run, &f->cfg, T0), 0);
	f->have_cy = 1;
	f->cy.state_path = f->state;
	pb_err_clear(&f->err);
}

/* Run f->cy, its stderr (or stdout, with 'out' 1) captured in f->out. */
static int go(struct fx *f, int out)
{
	int saved = -1, fd = -1, rc;

	if (out) {
		fflush(stdout);
		fd = dup(1);
		assert_non_null(freopen(f->out, "w", stdout));
	} else {
		tu_stderr_capture(f->out, &saved);
	}
	rc = cycle_run(&f->cy, &f->err);
	if (out) {
		fflush(stdout);
		assert_int_equal(dup2(fd, 1), 1);
		close(fd);
	} else {
		tu_stderr_restore(&saved);
	}
	return rc;
}

/* One cycle of 'cmd': cycle_run()'s result; the cycle stays in f->cy. */
static int cycle(struct fx *f, const char *cmd, int dry_run, int out)
{
	start(f, cmd, dry_run);
	return go(f, out);
}

/* Whether the captured output holds 'what'. */
static int said(struct fx *f, const char *what)
{
	struct strbuf sb;
	int found;

	tu_read_text(f->out, &sb);
	found = strstr(sb_str(&sb), what) != NULL;
	sb_release(&sb);
	return found;
}

static size_t out_len(struct fx *f)
{
	struct strbuf sb;
	size_t n;

	tu_read_text(f->out, &sb);
	n = sb.len;
	sb_release(&sb);
	return n;
}

static void counts(struct fx *f, long *queued)
{
	struct state *st = NULL;
	long failed;

	assert_int_equal(state_open(&st, f->state, STATE_READ, &f->err), 0);
	assert_int_equal(state_counts(st, queued, &failed, NULL), 0);
	state_close(st);
}

/* Only the known commands have a cycle; only run has a dry one. */
static void t_plans(void **state)
{
	static const char *const cmds[] = { "run", "send", "poll", "retest" };
	struct cycle cy;
	size_t i;

	(void)state;
	for (i = 0; i < 4; i++) {
		assert_int_equal(cycle_init(&cy, cmds[i], 0, NULL, T0), 0);
		assert_string_equal(cy.cmd, cmds[i]);
		cycle_release(&cy);
	}
	assert_int_equal(cycle_init(&cy, "run", 1, NULL, T0), 0);
	assert_true(cy.dry_run);
	cycle_release(&cy);
	assert_int_equal(cycle_init(&cy, "send", 1, NULL, T0), -1);
	cycle_release(&cy);
	assert_int_equal(cycle_init(&cy, "compare", 0, NULL, T0), -1);
	cycle_release(&cy);
}

/*
 * run: a report worth a mail is queued, one with nothing past the noise
 * filter recorded as skipped; with no smtp.url the delivery then fails
 * (EX_CONFIG, said in one line) after every earlier step ran. A second
 * run finds nothing new.
 */
static void t_run(void **state)
{
	struct fx *f = *state;
	long queued;

	manifest(f, "t-worth", "base", "head");
	manifest(f, "t-same", "base", "base");
	log_set_level(LOG_INFO);
	assert_int_equal(cycle(f, "run", 0, 0), 0);
	assert_int_equal(f->cy.ran, RUN_STEPS);
	assert_int_equal(cycle_exit_code(&f->cy), EX_CONFIG);
	assert_int_equal(f->cy.steps_failed, 1);
	assert_true(said(f, "perfbot: smtp.url: not configured"));
	assert_int_equal(f->cy.queued, 1);
	assert_int_equal(f->cy.skipped, 1);
	assert_int_equal(f->cy.bad, 0);
	assert_true(said(f, "queued report 't-worth': "));
	assert_true(said(f, SUBJECT4));
	counts(f, &queued);
	assert_int_equal(queued, 1);

	assert_int_equal(cycle(f, "run", 0, 0), 0);
	assert_int_equal(cycle_exit_code(&f->cy), EX_CONFIG);
	assert_int_equal(f->cy.queued, 0);
	assert_int_equal(f->cy.skipped, 0);
	counts(f, &queued);
	assert_int_equal(queued, 1);
}

/*
 * A manifest that names no id gets one derived from its commits and job
 * (its result roots loaded); the next run knows that id by the
 * manifest's text and sees the manifest without loading anything: its
 * head root's matrix.json damaged, it is still seen, not a bad
 * manifest. A changed manifest is a new one again.
 */
static void t_derived_id(void **state)
{
	struct fx *f = *state;
	char cwd[PATH_MAX], path[PATH_MAX + 16];
	char roots[PATH_MAX], to[PATH_MAX + 64];
	char b[PATH_MAX + 16], h[PATH_MAX + 16];
	const char *side[] = { "base", "head" };
	long queued;
	int i;

	assert_non_null(getcwd(cwd, sizeof(cwd)));
	tu_path(roots, sizeof(roots), f->dir, "roots");
	assert_int_equal(mkdir(roots, 0700), 0);
	for (i = 0; i < 2; i++) {
		snprintf(to, sizeof(to), "%s/" SEED4 "/%s", cwd, side[i]);
		snprintf(path, sizeof(path), "%s/%s", roots, side[i]);
		assert_int_equal(symlink(to, path), 0);
	}
	snprintf(b, sizeof(b), "%s/base", roots);
	snprintf(h, sizeof(h), "%s/head", roots);
	manifest_at(f, "no-id", NULL, b, h, NULL);
	log_set_level(LOG_QUIET);
	assert_int_equal(cycle(f, "run", 0, 0), 0);
	assert_int_equal(f->cy.queued, 1);
	assert_int_equal(f->cy.bad, 0);

	/* its head root's matrix.json now damaged: loading it would fail */
	assert_int_equal(unlink(h), 0);
	assert_int_equal(mkdir(h, 0700), 0);
	snprintf(to, sizeof(to), "%s/" SEED4 "/head/job.yaml", cwd);
	snprintf(path, sizeof(path), "%s/head/job.yaml", roots);
	assert_int_equal(symlink(to, path), 0);
	tu_put(roots, "head/matrix.json", "{ damaged", 0600);
	assert_int_equal(cycle(f, "run", 0, 0), 0);
	assert_int_equal(f->cy.queued, 0);
	assert_int_equal(f->cy.bad, 0);
	counts(f, &queued);
	assert_int_equal(queued, 1);

	/* the text changed: a manifest not known, its roots loaded */
	manifest_at(f, "no-id", NULL, b, h, "# changed\n");
	assert_int_equal(cycle(f, "run", 0, 0), 0);
	assert_int_equal(f->cy.bad, 1);
}

/* --dry-run: the mail on stdout, no state created, nothing delivered. */
static void t_dry_run(void **state)
{
	struct fx *f = *state;
	char path[PATH_MAX];

	manifest(f, "t-worth", "base", "head");
	manifest(f, "t-same", "base", "base");
	log_set_level(LOG_QUIET);
	assert_int_equal(cycle(f, "run", 1, 1), 0);
	assert_int_equal(f->cy.ran, STEPS(OPEN) | STEPS(INGEST) |
			 STEPS(PRINT));
	assert_int_equal(f->cy.queued, 1);
	assert_int_equal(cycle_exit_code(&f->cy), 0);
	assert_true(said(f, "From perfbot@example.test "));
	assert_true(said(f, SUBJECT4));
	assert_true(said(f, "To: Dev <dev@example.test>"));
	assert_int_equal(access(f->state, F_OK), -1);

	/* with a state: what it has queued is printed too */
	log_set_level(LOG_QUIET);
	assert_int_equal(cycle(f, "run", 0, 0), 0);
	tu_path(path, sizeof(path), f->dir, "manifests/t-worth.yaml");
	assert_int_equal(unlink(path), 0);
	assert_int_equal(cycle(f, "run", 1, 1), 0);
	assert_int_equal(f->cy.queued, 0);
	assert_int_equal(f->cy.bad, 0);
	assert_true(said(f, SUBJECT4));
}

/* A manifest that does not parse: reported, the others go on, exit 65. */
static void t_bad_manifest(void **state)
{
	struct fx *f = *state;

	tu_put(f->dir, "manifests/a-broken.yaml", "id: [unclosed\n", 0600);
	manifest(f, "t-same", "base", "base");
	log_set_level(LOG_QUIET);
	assert_int_equal(cycle(f, "run", 0, 0), 0);
	assert_int_equal(f->cy.ran, RUN_STEPS);
	assert_int_equal(f->cy.bad, 1);
	assert_int_equal(f->cy.skipped, 1);
	assert_int_equal(cycle_exit_code(&f->cy), EX_DATAERR);
	assert_true(said(f, "a-broken.yaml"));
}

/* send: nothing queued is nothing to do; --quiet then prints nothing. */
static void t_send_quiet(void **state)
{
	struct fx *f = *state;

	log_set_level(LOG_INFO);
	assert_int_equal(cycle(f, "send", 0, 0), 0);
	assert_int_equal(f->cy.ran, STEPS(OPEN) | STEPS(DELIVER));
	assert_int_equal(cycle_exit_code(&f->cy), 0);
	assert_true(said(f, "send: 0 sent, 0 queued, 0 failed"));
	assert_int_equal(access(f->state, F_OK), 0);	/* created */

	log_set_level(LOG_WARN);	/* --quiet */
	assert_int_equal(cycle(f, "send", 0, 0), 0);
	assert_int_equal(out_len(f), 0);
	/* a cycle that fails says so, even then */
	manifest(f, "t-worth", "base", "head");
	assert_int_equal(cycle(f, "run", 0, 0), 0);
	assert_true(said(f, "smtp.url: not configured"));
	assert_int_equal(cycle_exit_code(&f->cy), EX_CONFIG);
	assert_int_equal(f->cy.queued, 1);
}

/* As a temporary SMTP failure at T0 would: the queued mail waits. */
static void defer(struct fx *f)
{
	struct outbox_mail *m = NULL;
	struct state *st = NULL;
	size_t n = 0;

	assert_int_equal(state_open(&st, f->state, STATE_WRITE, &f->err), 0);
	assert_int_equal(state_due(st, T0, 10, &m, &n, &f->err), 0);
	assert_int_equal(n, 1);
	assert_int_equal(state_retry(st, m[0].rowid, "421 busy", T0,
				     &f->err), 0);
	outbox_free(m, n);
	state_close(st);
}

/*
 * send while the queued mail waits for its backoff: it says until when
 * and why; with --now it is due at once (and then, no smtp.url: 78).
 */
static void t_send_now(void **state)
{
	struct fx *f = *state;
	char want[256], when[64];

	manifest(f, "t-worth", "base", "head");
	log_set_level(LOG_QUIET);
	assert_int_equal(cycle(f, "run", 0, 0), 0);
	defer(f);
	log_set_level(LOG_INFO);
	assert_int_equal(cycle(f, "send", 0, 0), 0);
	assert_int_equal(cycle_exit_code(&f->cy), 0);
	assert_true(said(f, "send: 0 sent, 1 queued, 0 failed"));
	status_when(T0 + state_backoff(1), T0, when, sizeof(when));
	assert_non_null(strstr(when, "UTC (in "));
	snprintf(want, sizeof(want), "send: 1 mail waiting; next attempt %s "
		 "after: 421 busy ('perfbot send --now' tries at once)", when);
	assert_true(said(f, want));
	/* --quiet: the waiting mail is no warning */
	log_set_level(LOG_WARN);
	assert_int_equal(cycle(f, "send", 0, 0), 0);
	assert_int_equal(out_len(f), 0);

	log_set_level(LOG_INFO);
	start(f, "send", 0);
	f->cy.retry_now = 1;
	assert_int_equal(go(f, 0), 0);
	assert_true(said(f, "send: 1 queued mail tried now"));
	assert_true(said(f, "send: 0 sent, 1 queued, 0 failed"));
	assert_false(said(f, "waiting"));
	assert_int_equal(cycle_exit_code(&f->cy), EX_CONFIG);
}

/* poll needs a mailbox: EX_CONFIG before any reading or sending. */
static void t_poll(void **state)
{
	struct fx *f = *state;

	log_set_level(LOG_INFO);
	assert_int_equal(cycle(f, "poll", 0, 0), -1);
	assert_int_equal(f->cy.ran, STEPS(OPEN) | STEPS(NEED_IMAP));
	assert_int_equal(f->err.code, EX_CONFIG);
	assert_string_equal(f->err.msg, "imap.url: not configured");
	assert_false(said(f, "poll:"));
}

/* retest: no retests in flight, nothing queued: quietly 0. */
static void t_retest(void **state)
{
	struct fx *f = *state;

	log_set_level(LOG_INFO);
	assert_int_equal(cycle(f, "retest", 0, 0), 0);
	assert_int_equal(f->cy.ran, STEPS(OPEN) | STEPS(FOLLOWUP) |
			 STEPS(DELIVER));
	assert_int_equal(cycle_exit_code(&f->cy), 0);
	assert_false(said(f, "retests:"));
	assert_true(said(f, "retest: 0 sent, 0 queued, 0 failed"));
}

/* No state file known: EX_CONFIG from the first step. */
static void t_no_state(void **state)
{
	struct fx *f = *state;

	start(f, "send", 0);
	f->cy.state_path = NULL;
	assert_int_equal(go(f, 0), -1);
	assert_int_equal(f->err.code, EX_CONFIG);
	assert_int_equal(f->cy.ran, STEPS(OPEN));
	assert_non_null(strstr(f->err.msg, "state: not set"));
}

/*
 * A step that fails (the tracked repository is a file) is said in one
 * line and the others still run, delivery last; the exit code is the
 * first failure's (issue 29 item 16).
 */
static void t_step_fails(void **state)
{
	struct fx *f = *state;
	char yaml[sizeof(f->yaml) + PATH_MAX + 64];

	tu_put(f->dir, "repo", "not a repository\n", 0600);
	snprintf(yaml, sizeof(yaml), "%stracking:\n  repo: %s/repo\n"
		 "  branches: [master]\n", f->yaml, f->dir);
	tu_load_config(&f->cfg, &f->loaded, f->cfgpath, yaml, &f->err);
	manifest(f, "t-worth", "base", "head");
	log_set_level(LOG_WARN);
	assert_int_equal(cycle(f, "run", 0, 0), 0);
	assert_int_equal(f->cy.ran, RUN_STEPS);
	assert_int_equal(f->cy.steps_failed, 2);
	assert_int_equal(f->cy.queued, 1);
	assert_true(said(f, "perfbot: tracking.repo: '"));
	assert_true(said(f, "perfbot: smtp.url: not configured"));
	assert_int_equal(cycle_exit_code(&f->cy), EX_CONFIG);
	assert_int_equal(f->err.code, 0);
}

/* A failed step first, then bad input, the poll, a deferred mail. */
static void t_exit_code(void **state)
{
	struct cycle cy;

	(void)state;
	memset(&cy, 0, sizeof(cy));
	assert_int_equal(cycle_exit_code(&cy), 0);
	cy.ss.deferred = 1;
	assert_int_equal(cycle_exit_code(&cy), EX_TEMPFAIL);
	cy.poll_failed = EX_NOPERM;
	assert_int_equal(cycle_exit_code(&cy), EX_NOPERM);
	cy.bad = 2;
	assert_int_equal(cycle_exit_code(&cy), EX_DATAERR);
	cy.bad = 0;
	cy.poll_failed = 0;
	cy.ss.deferred = 0;
	cy.ss.failed = 1;	/* a 5xx is recorded, not a failed run */
	assert_int_equal(cycle_exit_code(&cy), 0);
	cy.bad = 1;
	cy.failed = EX_IOERR;
	assert_int_equal(cycle_exit_code(&cy), EX_IOERR);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_plans),
		cmocka_unit_test_setup_teardown(t_run, setup, teardown),
		cmocka_unit_test_setup_teardown(t_derived_id, setup, teardown),
		cmocka_unit_test_setup_teardown(t_dry_run, setup, teardown),
		cmocka_unit_test_setup_teardown(t_bad_manifest, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_send_quiet, setup, teardown),
		cmocka_unit_test_setup_teardown(t_send_now, setup, teardown),
		cmocka_unit_test_setup_teardown(t_poll, setup, teardown),
		cmocka_unit_test_setup_teardown(t_retest, setup, teardown),
		cmocka_unit_test_setup_teardown(t_no_state, setup, teardown),
		cmocka_unit_test_setup_teardown(t_step_fails, setup, teardown),
		cmocka_unit_test(t_exit_code),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
