// SPDX-License-Identifier: GPL-2.0-only
/*
 * The cron cycle (cycle.h): the table of which steps each cycle command
 * performs, the loop that performs them, and the small steps: the state
 * opened under its lock, the table of kinds of farm request and the one
 * loop that follows them up, the poll. Ingesting is ingest.c,
 * delivering deliver.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perfbot/cycle/cycle.h"
#include "perfbot/util/fileio.h"
#include "perfbot/util/log.h"
#include "perfbot/util/workers.h"
#include "perfbot/poll/poll.h"
#include "perfbot/act/kind.h"
#include "perfbot/act/remind.h"
#include "perfbot/state/duty.h"
#include "perfbot/act/track.h"
#include "perfbot/cycle/confirm.h"

#include "steps.h"

#define PLAN_MAX 10

/*
 * The result roots kept between the manifests that share them: the last
 * ones read, while nobody holds them, up to this many bytes (about 7
 * pairs of 20,000 metrics x 8 runs).
 */
#define CYCLE_ROOTS_IDLE ((size_t)32 << 20)

/*
 * Which steps a command performs, in order. A failing step is said (one
 * line) and its exit code kept, and the next steps run all the same:
 * one broken part (a tracked repository gone, an answer that cannot be
 * queued) must not hold back the mail of the others. Only the steps
 * without which there is nothing to do stop the cycle (stops()).
 */
static const struct plan {
	const char *cmd;
	int dry_run;
	/*
	 * How it opens the state: STATE_SHARED when every step's work is
	 * claimed or a duty (instances side by side on PostgreSQL; the run
	 * lock of SQLite), read only for --dry-run
	 */
	enum state_mode mode;
	enum cycle_step steps[PLAN_MAX];	/* ends with CYCLE_END */
} plans[] = {
	{ "run", 0, STATE_SHARED, { CYCLE_OPEN, CYCLE_INGEST, CYCLE_CONFIRM,
		      CYCLE_POLL, CYCLE_FOLLOWUP, CYCLE_TRACK, CYCLE_REMIND,
		      CYCLE_DELIVER } },
	{ "run", 1, STATE_READ, { CYCLE_OPEN, CYCLE_INGEST, CYCLE_PRINT } },
	{ "send", 0, STATE_SHARED, { CYCLE_OPEN, CYCLE_DELIVER } },
	{ "poll", 0, STATE_SHARED, { CYCLE_OPEN, CYCLE_NEED_IMAP, CYCLE_POLL,
		       CYCLE_DELIVER } },
	{ "retest", 0, STATE_SHARED, { CYCLE_OPEN, CYCLE_FOLLOWUP,
		       CYCLE_DELIVER } },
};

#define NPLANS (sizeof(plans) / sizeof(plans[0]))

/* mkdir -p of the state file's directory. */
static int make_parent(const char *path, struct pb_err *err)
{
	char *dir = path_dirname(path), *p;
	int rc = 0;

	if (!dir)
		return pb_fail(err, EX_OSERR, "out of memory");
	for (p = dir + 1; *p && !rc; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(dir, 0700) && errno != EEXIST)
			rc = -1;
		*p = '/';
	}
	if (!rc && mkdir(dir, 0700) && errno != EEXIST)
		rc = -1;
	if (rc)
		pb_fail(err, EX_CANTCREAT, "%s: %s", dir, strerror(errno));
	free(dir);
	return rc;
}

/*
 * The state: created and locked for a real cycle; for --dry-run only
 * read, and only when it exists.
 */
static int open_state(struct cycle *cy, struct pb_err *err)
{
	const char *path = cy->state_path;

	if (confirm_config_load(cy->cfg, &cy->confirm, err))
		return -1;
	if (!path)
		return pb_fail(err, EX_CONFIG, "state: not set, and no $HOME "
			       "for the default place");
	log_debug("state '%s'", path);
	if (cy->dry_run) {
		if (state_missing(path))
			return 0;
		if (state_open(&cy->st, path, STATE_READ, err))
			return -1;
		cy->have_state = 1;
		return 0;
	}
	if ((state_is_file(path) && make_parent(path, err)) ||
	    state_open(&cy->st, path, cy->mode, err))
		return -1;
	cy->have_state = 1;	/* locked before SQLite opened it */
	/* a damaged state is refused here, not half-used by the steps;
	 * this instance seen, for 'perfbot status' */
	return state_lock(cy->st, err) || state_check(cy->st, err) ||
	       state_instance_seen(cy->st, cy->now, err) ? -1 : 0;
}

/* 'perfbot poll' is about the mailbox: without one it has nothing to do. */
static int need_imap(struct cycle *cy, struct pb_err *err)
{
	if (!cy->cfg->imap.url)
		return pb_fail(err, EX_CONFIG, "imap.url: not configured");
	return 0;
}

/*
 * A singleton duty (state/duty.h) of several instances on one state:
 * 1 this instance's, 0 another's (said, and the step skipped), -1.
 */
static int duty(struct cycle *cy, const char *name, struct pb_err *err)
{
	int held;

	if (!cy->have_state)
		return 1;
	if (state_duty_hold(cy->st, name, cy->now, !cy->dry_run, &held, err))
		return -1;
	if (!held)
		log_info("%s: another instance holds this duty; skipped",
			 name);
	return held;
}

/* Read the replies; a mail server that is away only delays them. */
static int poll_step(struct cycle *cy, struct pb_err *err)
{
	struct poll_stats ps;
	int mine;

	if (!cy->cfg->imap.url)
		return 0;
	if ((mine = duty(cy, "poll", err)) <= 0)
		return mine;
	/* a poll that fails still lets the queued mail go out */
	if (poll_mailbox(cy->st, cy->cfg, cy->now, &ps, err)) {
		log_error("%s", err->msg);
		cy->poll_failed = err->code ? err->code : EX_SOFTWARE;
		pb_err_clear(err);
	}
	if (ps.failed && !cy->poll_failed)
		cy->poll_failed = ps.fail_code;
	log_info("poll: %ld fetched, %ld answered, %ld refused, %ld ignored, "
		 "%ld failed", ps.fetched, ps.answered, ps.refused, ps.ignored,
		 ps.failed);
	return 0;
}

/*
 * The table of kinds of farm request (act/kind.h), in the order their
 * follow-ups run: a new kind is its file and one row here.
 */
static const struct kind *const kinds[] = {
	&kind_confirm,
	&kind_retest,
	&kind_test,
	&kind_verify,
	&kind_bisect,
	&kind_noop,
};

#define NKINDS (sizeof(kinds) / sizeof(kinds[0]))

/* The one follow-up loop: the open requests of the kinds of 'phase'. */
static int follow(struct cycle *cy, enum kind_phase phase,
		  struct pb_err *err)
{
	struct kind_env e = { .st = cy->st, .cfg = cy->cfg, .now = cy->now,
			      .jobs = workers_count(cy->jobs),
			      .roots = cy->roots };

	return kind_followups(&e, kinds, NKINDS, phase, err);
}

/* Held reports: ask for their runs, decide on those that landed. */
static int confirm_run(struct cycle *cy, struct pb_err *err)
{
	return follow(cy, KIND_AT_CONFIRM, err);
}

/*
 * Retests whose runs have landed, finished tests and the runs on landed
 * fixes get their answer.
 */
static int followup_step(struct cycle *cy, struct pb_err *err)
{
	return follow(cy, KIND_AT_FOLLOWUP, err);
}

/* Fixes in the tracked tree (nothing when tracking.repo is not set). */
static int track_run(struct cycle *cy, struct pb_err *err)
{
	struct track_stats ts;
	int mine;

	if ((mine = duty(cy, "track", err)) <= 0)
		return mine;
	if (track_step(cy->st, cy->cfg, cy->now, &ts, err))
		return -1;
	if (ts.branches)
		log_info("tracking: %ld commits walked on %ld branches, %ld "
			 "fixes landed, %ld gone, %ld runs on fixes asked",
			 ts.walked, ts.branches, ts.landed, ts.gone,
			 ts.verify);
	return 0;
}

/* The reminder of the open regressions, when one is due. */
static int remind_run(struct cycle *cy, struct pb_err *err)
{
	struct remind_stats rs;
	int mine;

	if ((mine = duty(cy, "remind", err)) <= 0)
		return mine;
	if (remind_step(cy->st, cy->cfg, cy->now, &rs, err))
		return -1;
	if (rs.listed)
		log_info("reminder: %ld open regressions listed", rs.listed);
	return 0;
}

/* No state (or, for 'poll', no mailbox): nothing after can run. */
static int stops(enum cycle_step step)
{
	return step == CYCLE_OPEN || step == CYCLE_NEED_IMAP;
}

/* The steps by enum cycle_step. */
static int (*const step_fn[CYCLE_NSTEPS])(struct cycle *, struct pb_err *) = {
	[CYCLE_OPEN] = open_state,
	[CYCLE_INGEST] = cycle_ingest,
	[CYCLE_PRINT] = cycle_print,
	[CYCLE_CONFIRM] = confirm_run,
	[CYCLE_NEED_IMAP] = need_imap,
	[CYCLE_POLL] = poll_step,
	[CYCLE_FOLLOWUP] = followup_step,
	[CYCLE_DELIVER] = cycle_deliver,
	[CYCLE_TRACK] = track_run,
	[CYCLE_REMIND] = remind_run,
};

int cycle_init(struct cycle *cy, const char *cmd, int dry_run,
	       const struct config *cfg, time_t now)
{
	size_t i;

	memset(cy, 0, sizeof(*cy));
	for (i = 0; i < NPLANS; i++)
		if (!strcmp(plans[i].cmd, cmd) && plans[i].dry_run == !!dry_run)
			break;
	if (i == NPLANS)
		return -1;
	cy->plan = plans[i].steps;
	cy->cmd = plans[i].cmd;
	cy->dry_run = plans[i].dry_run;
	cy->mode = plans[i].mode;
	cy->cfg = cfg;
	cy->now = now;
	return 0;
}

int cycle_run(struct cycle *cy, struct pb_err *err)
{
	const enum cycle_step *s;

	if (!cy->plan)
		return pb_fail(err, EX_SOFTWARE, "cycle: no plan");
	if (!cy->roots && !(cy->roots = root_cache_new(CYCLE_ROOTS_IDLE)))
		return pb_fail(err, EX_OSERR, "out of memory");
	for (s = cy->plan; s < cy->plan + PLAN_MAX && *s != CYCLE_END; s++) {
		cy->ran |= CYCLE_RAN(*s);
		if (!step_fn[*s](cy, err))
			continue;
		if (stops(*s))
			return -1;
		/* said now, in its place among the log lines; the next
		 * steps start outside any transaction it left open */
		log_error("%s", err->msg);
		if (!cy->failed)
			cy->failed = err->code ? err->code : EX_SOFTWARE;
		cy->steps_failed++;
		if (cy->have_state && !cy->dry_run)
			state_rollback(cy->st);
		pb_err_clear(err);
	}
	return 0;
}

int cycle_exit_code(const struct cycle *cy)
{
	if (cy->failed)
		return cy->failed;
	if (cy->bad)
		return EX_DATAERR;
	if (cy->poll_failed)
		return cy->poll_failed;
	return cy->ss.deferred ? EX_TEMPFAIL : 0;
}

void cycle_release(struct cycle *cy)
{
	if (cy->have_state)
		state_close(cy->st);
	cy->st = NULL;
	cy->have_state = 0;
	root_cache_free(cy->roots);
	cy->roots = NULL;
}
