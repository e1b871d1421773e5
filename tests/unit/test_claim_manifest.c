// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for the manifests claimed at ingest (src/state/
 * manifest_claim.c, src/cycle/ingest.c; issue 34: instances side by side
 * on one state). On PostgreSQL (PERFBOT_TEST_STATE, tests/pg/run-unit):
 * a group's claims are taken all or none, another live instance's are
 * not, one whose lease is over or whose owner is a killed process of this
 * host are; two processes running the cycle at once on the same 40
 * manifests both finish (no run lock between them) and queue each report
 * once between them; manifests claimed by a killed run are queued by the
 * next. On SQLite (its run lock: one run at a time) every claim is taken
 * and nothing is written, and the second of two runs at once waits (75).
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "perfbot/cycle/cycle.h"
#include "perfbot/state/outbox.h"
#include "perfbot/state/seen.h"
#include "perfbot/state/state.h"
#include "perfbot/state/status.h"
#include "perfbot/util/log.h"

#include "testutil.h"
#include "teststate.h"

#define T0 1739548080	/* 2025-02-14 15:48:00 UTC */
#define SEED4 "fixtures/seeds/004"
#define NMANIFESTS 40
#define TTL 900

struct fx {
	char dir[64];
	char path[PATH_MAX];
	char where[1024];	/* the state: the file, or a server's schema */
	char cfgpath[PATH_MAX];
	char yaml[2 * PATH_MAX + 1536];
	struct config cfg;
	int loaded;
	struct pb_err err;
	enum log_level level;
};

static int setup(void **state)
{
	struct fx *f = TU_NEW_FX(struct fx, "test_claim_manifest");
	char mdir[PATH_MAX], cwd[PATH_MAX];
	struct state *st = NULL;

	if (!f || !getcwd(cwd, sizeof(cwd)))
		return -1;
	f->level = log_get_level();
	tu_path(f->path, sizeof(f->path), f->dir, "state.db");
	tu_state(f->where, sizeof(f->where), f->path);
	tu_path(mdir, sizeof(mdir), f->dir, "manifests");
	if (mkdir(mdir, 0700))
		return -1;
	snprintf(f->yaml, sizeof(f->yaml),
		 "identity:\n"
		 "  from: \"perfbot <perfbot@example.test>\"\n"
		 "  message_id_domain: example.test\n"
		 "state: \"%s\"\n"
		 "sources:\n"
		 "  - dir: %s\n"
		 "recipients:\n"
		 "  to_author: true\n"
		 "templates:\n"
		 "  dir: %s/templates\n",
		 f->where, mdir, cwd);
	tu_path(f->cfgpath, sizeof(f->cfgpath), f->dir, "perfbot.yaml");
	tu_load_config(&f->cfg, &f->loaded, f->cfgpath, f->yaml, &f->err);
	/* made before the runs race: they find it there */
	if (state_open(&st, f->where, STATE_WRITE, &f->err))
		return -1;
	state_close(st);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	log_set_level(f->level);
	if (f->loaded)
		config_release(&f->cfg);
	tu_rmtree(f->dir);
	free(f);
	return 0;
}

/* Manifest 'm-N' comparing seed 004's base and head, a group of its own. */
static void manifests(struct fx *f, int n)
{
	char text[2 * PATH_MAX + 1024], name[128], cwd[PATH_MAX];
	int i;

	assert_non_null(getcwd(cwd, sizeof(cwd)));
	for (i = 0; i < n; i++) {
		snprintf(text, sizeof(text),
			 "id: m-%d\n"
			 "group: none\n"
			 "base: { commit: 262b2fa99cbe02a715ce23981c2c30685ccf3a93"
			 ", subject: \"pipe: introduce struct file_operations "
			 "pipeanon_fops\", result_root: %s/" SEED4 "/base }\n"
			 "head: { commit: f017b0a4951fac8f150232661b2cc0b67e0c57f0"
			 ", subject: \"pipe: don't update {a,c,m}time for "
			 "anonymous pipes\", author: \"Dev <dev@example.test>\", "
			 "result_root: %s/" SEED4 "/head }\n", i, cwd, cwd);
		snprintf(name, sizeof(name), "manifests/m-%d.yaml", i);
		tu_put(f->dir, name, text, 0600);
	}
}

static int open_as(struct fx *f, struct state **st, const char *owner)
{
	*st = NULL;
	if (state_open(st, f->where, STATE_WRITE, &f->err))
		return -1;
	return owner ? state_owner_set(*st, owner, &f->err) : 0;
}

static int claim(struct state *st, const char *const *keys, size_t n,
		 time_t now)
{
	struct pb_err err = { 0, "" };
	int c = -1;

	if (state_manifests_claim(st, keys, n, now, TTL, &c, &err))
		fail_msg("claim: %s", err.msg);
	return c;
}

/* The manifests' claims 'perfbot status' shows among the leases. */
static long claims_written(struct fx *f)
{
	const struct status_part *p;
	const struct status_value *v;
	struct state *st = NULL;
	struct status s;
	size_t i;
	long n = 0;

	assert_int_equal(state_open(&st, f->where, STATE_READ, &f->err), 0);
	assert_int_equal(state_status(st, T0, &s, &f->err), 0);
	p = status_part(&s, "leases");
	assert_non_null(p);
	for (i = 0; i < p->nrows; i++) {
		v = status_cell(p, i, "of");
		assert_non_null(v);
		n += v->type == STATUS_TEXT && !strcmp(v->s, "manifest");
	}
	status_release(&s);
	state_close(st);
	return n;
}

/*
 * A group is claimed all or none: another instance's claim on one of
 * its manifests leaves the whole group to it (and the others free); a
 * lease over is taken over; a claim let go is free.
 */
static void t_all_or_none(void **state)
{
	static const char *const g1[] = { "m-1", "m-2", NULL, "m-3" };
	static const char *const g2[] = { "m-0", "m-3", "m-4" };
	static const char *const g3[] = { "m-0" };
	struct fx *f = *state;
	struct state *a, *b;
	int pg = tu_pg() != NULL;

	assert_int_equal(open_as(f, &a, "instance-a"), 0);
	assert_int_equal(open_as(f, &b, "instance-b"), 0);
	assert_int_equal(claim(a, g1, 4, T0), 1);
	assert_int_equal(claim(b, g2, 3, T0), !pg);
	/* m-0, taken by b before m-3 refused it, was let go */
	assert_int_equal(claim(a, g3, 1, T0), 1);
	assert_int_equal(claim(b, g3, 1, T0), !pg);
	assert_int_equal(claims_written(f), pg ? 4 : 0);
	/* a's leases over: b takes the group over */
	assert_int_equal(claim(b, g2, 3, T0 + TTL), 1);
	assert_int_equal(claim(a, g3, 1, T0 + TTL), !pg);
	/* b lets them go: a takes them at once */
	assert_int_equal(state_manifests_release(b, g2, 3, &f->err), 0);
	assert_int_equal(claim(a, g2, 3, T0 + TTL), 1);
	/* only one's own claims are let go */
	assert_int_equal(state_manifests_release(b, g2, 3, &f->err), 0);
	assert_int_equal(claim(b, g3, 1, T0 + TTL), !pg);
	state_close(a);
	state_close(b);
}

/*
 * A claim left on a manifest the state knows (a run killed between
 * recording it and letting the claim go) is forgotten, whoever holds it,
 * since a seen manifest is not claimed again; a claim on a manifest not
 * seen is kept.
 */
static void t_seen_forgotten(void **state)
{
	static const char *const g[] = { "m-7", "m-8" };
	struct fx *f = *state;
	struct state *a, *b;
	int pg = tu_pg() != NULL;

	assert_int_equal(open_as(f, &a, "instance-a"), 0);
	assert_int_equal(open_as(f, &b, "instance-b"), 0);
	assert_int_equal(claim(a, g, 2, T0), 1);
	assert_int_equal(state_skip(a, "m-7", "m-7.yaml", "test", T0,
				    &f->err), 0);
	assert_int_equal(claims_written(f), pg ? 2 : 0);
	assert_int_equal(state_manifests_forget_seen(b, &f->err), 0);
	assert_int_equal(claims_written(f), pg ? 1 : 0);
	/* m-8, not seen, is still a's */
	assert_int_equal(claim(b, g + 1, 1, T0), !pg);
	state_close(a);
	state_close(b);
}

/*
 * A process that claims 'keys' under "host:pid", as a run does, and
 * holds them until killed (killed_claimer()): its pid, once claimed.
 */
static pid_t claimer(struct fx *f, const char *const *keys, size_t n)
{
	int fds[2];
	char c = 0;
	pid_t pid;

	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct state *st = NULL;
		struct pb_err err = { 0, "" };
		int got = 0;

		close(fds[0]);
		if (state_open(&st, f->where, STATE_WRITE, &err) ||
		    state_manifests_claim(st, keys, n, T0, TTL, &got, &err) ||
		    !got || write(fds[1], "c", 1) != 1)
			_exit(1);
		pause();
		_exit(1);
	}
	close(fds[1]);
	assert_int_equal(read(fds[0], &c, 1), 1);
	close(fds[0]);
	return pid;
}

static void killed_claimer(pid_t pid)
{
	int status;

	assert_int_equal(kill(pid, SIGKILL), 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status));
}

/*
 * Claims held by a process of this host that was killed are taken over
 * at once; those of a live one are not.
 */
static void t_killed_taken_over(void **state)
{
	static const char *const keys[] = { "m-5", "m-6" };
	struct fx *f = *state;
	struct state *me;
	int pg = tu_pg() != NULL;
	pid_t pid = claimer(f, keys, 2);

	assert_int_equal(open_as(f, &me, NULL), 0);
	/* alive: its claims hold */
	assert_int_equal(claim(me, keys, 2, T0), !pg);
	killed_claimer(pid);
	/* killed: taken over before the lease is over */
	assert_int_equal(claim(me, keys, 2, T0 + 1), 1);
	assert_int_equal(state_manifests_release(me, keys, 2, &f->err), 0);
	state_close(me);
}

/* One cycle of 'run' (jobs 2): cycle_run()'s result, '*code', '*queued'. */
static int run_once(struct fx *f, int *code, long *queued, long *failed)
{
	struct pb_err err = { 0, "" };
	struct cycle cy;
	int rc;

	if (cycle_init(&cy, "run", 0, &f->cfg, T0))
		return -2;
	cy.state_path = f->where;
	cy.jobs = 2;
	rc = cycle_run(&cy, &err);
	*code = rc ? err.code : cycle_exit_code(&cy);
	*queued = cy.queued;
	*failed = cy.steps_failed;
	cycle_release(&cy);
	return rc;
}

static long queued_ids(struct fx *f)
{
	struct outbox_mail *m = NULL;
	struct state *st = NULL;
	size_t n = 0, i, j;

	assert_int_equal(state_open(&st, f->where, STATE_READ, &f->err), 0);
	assert_int_equal(state_queued(st, &m, &n, &f->err), 0);
	for (i = 0; i < n; i++)
		for (j = 0; j < i; j++)
			if (!strcmp(m[i].id, m[j].id))
				fail_msg("report '%s' queued twice", m[i].id);
	outbox_free(m, n);
	state_close(st);
	return (long)n;
}

/*
 * Two processes run the cycle at once on the same 40 manifests: on
 * PostgreSQL both finish, nothing but the delivery (no smtp.url here)
 * fails, and between them each report is queued once; on SQLite the
 * second waits for the first (75) and the reports are queued once too.
 */
static void t_two_runs(void **state)
{
	struct fx *f = *state;
	long mine, theirs[3] = { 0 }, failed;
	int fds[2], status, code, rc;
	pid_t pid;

	manifests(f, NMANIFESTS);
	log_set_level(LOG_QUIET);
	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		long out[3];

		close(fds[0]);
		rc = run_once(f, &code, &out[1], &out[2]);
		out[0] = rc ? -1 : code;
		if (rc && code == EX_TEMPFAIL)
			out[0] = EX_TEMPFAIL;
		_exit(write(fds[1], out, sizeof(out)) == sizeof(out) ? 0 : 1);
	}
	close(fds[1]);
	rc = run_once(f, &code, &mine, &failed);
	assert_int_equal(read(fds[0], theirs, sizeof(theirs)),
			 sizeof(theirs));
	close(fds[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	if (tu_pg()) {
		/* side by side: both ran every step */
		assert_int_equal(rc, 0);
		assert_int_equal(code, EX_CONFIG);
		assert_int_equal(failed, 1);
		assert_int_equal(theirs[0], EX_CONFIG);
		assert_int_equal(theirs[2], 1);
	} else {
		/* one at a time: any one that waited runs now */
		if (rc || theirs[0] == EX_TEMPFAIL) {
			long q, fl;

			assert_true(rc ? code == EX_TEMPFAIL : 1);
			assert_int_equal(run_once(f, &code, &q, &fl), 0);
			mine += q;
		}
	}
	assert_int_equal(mine + theirs[1], NMANIFESTS);
	assert_int_equal(queued_ids(f), NMANIFESTS);
	assert_int_equal(claims_written(f), 0);
}

/*
 * The manifests claimed by a run that was killed are queued by the next
 * (on PostgreSQL; on SQLite no claim is written).
 */
static void t_killed_run_finished(void **state)
{
	const char *keys[NMANIFESTS];
	char names[NMANIFESTS][16];
	struct fx *f = *state;
	long q, failed;
	int code, i;

	manifests(f, NMANIFESTS);
	for (i = 0; i < NMANIFESTS; i++) {
		snprintf(names[i], sizeof(names[i]), "m-%d", i);
		keys[i] = names[i];
	}
	killed_claimer(claimer(f, keys, NMANIFESTS));
	assert_int_equal(claims_written(f), tu_pg() ? NMANIFESTS : 0);
	log_set_level(LOG_QUIET);
	assert_int_equal(run_once(f, &code, &q, &failed), 0);
	assert_int_equal(q, NMANIFESTS);
	assert_int_equal(queued_ids(f), NMANIFESTS);
	assert_int_equal(claims_written(f), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(t_all_or_none, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_killed_taken_over, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_seen_forgotten, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_two_runs, setup, teardown),
		cmocka_unit_test_setup_teardown(t_killed_run_finished, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
