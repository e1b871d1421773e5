/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_CYCLE_H
#define PERFBOT_CYCLE_H

#include <time.h>

#include "perfbot/config/config.h"
#include "perfbot/cycle/confirm.h"
#include "perfbot/ingest/rootcache.h"
#include "perfbot/send/outbox.h"
#include "perfbot/state/state.h"
#include "perfbot/util/strbuf.h"

/*
 * The cron cycle as steps over one struct cycle: open the state under
 * its lock, ingest the manifests of every source (judge them, queue the
 * reports worth a mail or hold them for confirmation runs), ask for and
 * decide confirmations, read the replies, follow up finished retests,
 * walk the tracked tree for fixes, queue the reminder when it is due,
 * deliver what is due; and the exit code of it all. One table in cycle.c
 * says which steps 'run', 'run --dry-run', 'send', 'poll' and 'retest'
 * perform, in order. A step that fails is said in one line and its exit
 * code kept, and the other steps still run (delivery above all: a broken
 * tracked repository or a mail server that is away for the poll holds
 * back no report); only a state that cannot be opened (or, for 'poll', no
 * mailbox) stops the cycle.
 *
 * The cycle parses no command line: the caller (src/cli/cmd_run.c) loads
 * the configuration, finds the state file and says what was asked for.
 */

enum cycle_step {
	CYCLE_END,		/* ends a plan */
	CYCLE_OPEN,		/* the state: created and locked; read only
				 * (when it exists) for --dry-run */
	CYCLE_INGEST,		/* manifests: judged, queued, held, skipped */
	CYCLE_PRINT,		/* --dry-run: every mail as an mbox on stdout */
	CYCLE_CONFIRM,		/* held reports: ask for runs, decide */
	CYCLE_NEED_IMAP,	/* imap.url set, or EX_CONFIG */
	CYCLE_POLL,		/* read the replies, answer (when imap.url) */
	CYCLE_FOLLOWUP,		/* retests whose runs landed: answered */
	CYCLE_DELIVER,		/* send what is due; the summary line */
	CYCLE_TRACK,		/* the tracked tree: fixes landed (when
				 * tracking.repo) */
	CYCLE_REMIND,		/* the reminder of what is open, when due */
	CYCLE_NSTEPS
};

/* The bit of 'step' in struct cycle's 'ran'. */
#define CYCLE_RAN(step) (1u << (step))

struct cycle {
	/* what to do: cycle_init(), then the caller */
	const char *cmd;		/* "run", "send", "poll", "retest" */
	const struct config *cfg;
	const char *state_path;		/* NULL: none known (an error) */
	time_t now;
	int dry_run;			/* run --dry-run */
	enum state_mode mode;		/* how the state is opened */
	int retry_now;			/* send --now: ignore the backoff */
	long jobs;			/* reports made at once (0: a core
					 * each; util/workers.h) */

	/* what happened */
	unsigned ran;			/* CYCLE_RAN() of each step begun */
	long queued, skipped, bad;	/* reports; bad: inputs refused */
	int poll_failed;		/* the poll's exit code, or 0 */
	int failed;			/* the first failed step's exit code */
	long steps_failed;		/* steps that failed (each said) */
	struct send_stats ss;

	/* the steps' own */
	const enum cycle_step *plan;
	struct state *st;
	int have_state;
	struct confirm_config confirm;
	struct root_cache *roots;	/* the result roots read this cycle */
};

/*
 * Prepare the cycle of command 'cmd' ("run" with 'dry_run' or without,
 * "send", "poll", "retest") at time 'now' with the configuration 'cfg'
 * (borrowed: it must outlive the cycle). -1 when there is no such cycle.
 */
int cycle_init(struct cycle *cy, const char *cmd, int dry_run,
	       const struct config *cfg, time_t now);

/*
 * Perform the steps of the plan: 0 when it ran to its end (a step that
 * failed on the way was logged and counted in 'failed'), or -1 with
 * 'err' when the state could not be opened (nothing else ran).
 */
int cycle_run(struct cycle *cy, struct pb_err *err);

/*
 * The exit code of a cycle that ran to its end: the first failed step's,
 * else EX_DATAERR when an input was refused, else the poll's failure,
 * else EX_TEMPFAIL when a mail was deferred, else 0.
 */
int cycle_exit_code(const struct cycle *cy);

/* Close the state and free what the steps kept. */
void cycle_release(struct cycle *cy);

#endif
