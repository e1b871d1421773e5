// SPDX-License-Identifier: GPL-2.0-only
/*
 * The cron commands run, send, poll and retest: their option tables and
 * one body that parses the command line, loads the configuration and
 * hands the rest to the cycle (src/cycle/, whose table says which steps
 * each command performs).
 */
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "perfbot/cli/cli.h"
#include "perfbot/cli/clicommon.h"
#include "perfbot/cycle/cycle.h"
#include "perfbot/state/wake.h"
#include "perfbot/util/log.h"
#include "perfbot/util/numparse.h"
#include "perfbot/util/workers.h"

#define CYCLE_DETAILS \
	"Needs a configuration file (--config FILE, $PERFBOT_CONFIG, " \
	"$XDG_CONFIG_HOME/perfbot/perfbot.yaml or /etc/perfbot/perfbot.yaml)" \
	"; exits 78 naming the places looked in when there is none. " \
	"Logs go to stderr, time-stamped when it is not a terminal; " \
	"--quiet prints nothing unless a mail failed or was deferred, or an " \
	"error happened."

/*
 * One options struct for the four commands: one whose table lacks
 * --dry-run or --now reads it as 0, since cycle_command() starts with
 * the struct cleared and cli_parse() sets only its table's variables.
 */
struct cli_cycle_opts {
	int dry_run, now;
	const char *jobs;
	const char *loop;
	const char *config;
	int quiet, verbose;
};

static const struct cli_opt run_opts[] = {
	CLI_OPT_FLAG("dry-run", struct cli_cycle_opts, dry_run,
		     "send nothing, change no state: print every mail that "
		     "would go out as an mbox"),
	CLI_OPT_STRING("jobs", "N", struct cli_cycle_opts, jobs,
		       "make N reports at once (else run.jobs; 0: one per "
		       "core); the outbox is the same for any N"),
	CLI_OPT_STRING("loop", "SECONDS", struct cli_cycle_opts, loop,
		       "run as a service: a cycle, then wait SECONDS (1 to "
		       "86400) or less, when another instance on the same "
		       "state server queues work; until stopped by a signal"),
	CLI_OPT_CONFIG(struct cli_cycle_opts),
	CLI_OPT_QUIET(struct cli_cycle_opts),
	CLI_OPT_VERBOSE(struct cli_cycle_opts),
	CLI_OPT_END,
};

static const struct cli_opt send_opts[] = {
	CLI_OPT_FLAG("now", struct cli_cycle_opts, now,
		     "try every queued mail now, ignoring its backoff once"),
	CLI_OPT_CONFIG(struct cli_cycle_opts),
	CLI_OPT_QUIET(struct cli_cycle_opts),
	CLI_OPT_VERBOSE(struct cli_cycle_opts),
	CLI_OPT_END,
};

static const struct cli_opt plain_opts[] = {
	CLI_OPT_CONFIG(struct cli_cycle_opts),
	CLI_OPT_QUIET(struct cli_cycle_opts),
	CLI_OPT_VERBOSE(struct cli_cycle_opts),
	CLI_OPT_END,
};

const struct cli_spec run_spec = {
	"run", "", 0, 0,
	"one cron cycle: ingest, queue and send reports, read replies",
	"Ingests the new manifests of every source, queues the reports worth "
	"a mail, reads the replies and answers them, follows up finished "
	"retests and sends what is due. The reports, confirmations and "
	"retest follow-ups are compared and rendered by --jobs threads and "
	"recorded in the order of the manifests.\n" CYCLE_DETAILS,
	run_opts, sizeof(struct cli_cycle_opts),
};

const struct cli_spec send_spec = {
	"send", "", 0, 0, "send what is queued",
	"Sends every queued mail whose next attempt is due (--now: all of "
	"them).\n" CYCLE_DETAILS,
	send_opts, sizeof(struct cli_cycle_opts),
};

const struct cli_spec poll_spec = {
	"poll", "", 0, 0,
	"read replies by IMAP, answer commands, send the answers",
	CYCLE_DETAILS, plain_opts, sizeof(struct cli_cycle_opts),
};

const struct cli_spec retest_spec = {
	"retest", "", 0, 0,
	"answer the retests whose runs have landed, send the answers",
	CYCLE_DETAILS, plain_opts, sizeof(struct cli_cycle_opts),
};

/*
 * A cycle makes and frees the same large blocks for every report (a
 * comparison's rows, a mail); glibc's malloc, left to itself, raises
 * its mmap threshold after the first such free and then serves them
 * from a heap that fragments, so the peak RSS of a cycle of 1,000
 * reports came out 0 to 20% above that of 10, from one run to the next.
 * A fixed threshold (which also turns the dynamic one off) keeps every
 * block of 1 MiB or more in a mapping of its own, given back when freed:
 * flat, for about 10% more time (make bench; returning the memory
 * with malloc_trim() after each report cost 15%).
 */
static void flat_malloc(void)
{
#ifdef M_MMAP_THRESHOLD
	mallopt(M_MMAP_THRESHOLD, 1 << 20);
#endif
}

/* One cycle of the command: its exit code. */
static int one_cycle(const struct cli_spec *spec,
		     const struct cli_cycle_opts *o, const struct config *cfg,
		     char *state, long jobs)
{
	struct pb_err err = { 0, "" };
	struct cycle cy;
	int rc = 0;

	if (cycle_init(&cy, spec->name, o->dry_run, cfg, cli_now()))
		rc = pb_fail(&err, EX_SOFTWARE, "%s: no such cycle",
			     spec->name);
	cy.state_path = state;
	cy.retry_now = o->now;
	cy.jobs = o->jobs ? jobs : cfg->run.jobs;
	rc = rc || cycle_run(&cy, &err) ? cli_fail(&err) :
		cycle_exit_code(&cy);
	cycle_release(&cy);
	return rc;
}

/*
 * A cycle's failure that no later cycle mends: the loop stops with it
 * (a usage, a configuration or a software error); any other (a server
 * away, a mail deferred, a bad manifest) waits for the next cycle.
 */
static int lasting(int rc)
{
	return rc == EX_USAGE || rc == EX_CONFIG || rc == EX_SOFTWARE;
}

/*
 * 'run --loop': a cycle, then a wait of 'secs' that another instance
 * queueing work on the same state server ends at once (state/wake.h: it
 * listens from the first cycle on, so what is said during a cycle wakes
 * the wait that follows it; on SQLite the wait is the time). The
 * listening handle is opened after the first cycle made the state; when
 * it cannot be, the wait is a plain sleep.
 */
static int loop(const struct cli_spec *spec, const struct cli_cycle_opts *o,
		const struct config *cfg, char *state, long jobs, long secs)
{
	struct pb_err err = { 0, "" };
	struct state *ear = NULL;
	int rc, woken;

	for (;;) {
		rc = one_cycle(spec, o, cfg, state, jobs);
		if (lasting(rc))
			break;
		if (!ear && (state_open(&ear, state, STATE_READ, &err) ||
			     state_wake_listen(ear, &err))) {
			log_warn("run --loop: %s; waiting %ld s between cycles",
				 err.msg, secs);
			state_close(ear);
			ear = NULL;
			pb_err_clear(&err);
		}
		if (ear && state_wake_wait(ear, secs * 1000, &woken, &err)) {
			log_warn("run --loop: %s", err.msg);
			state_close(ear);
			ear = NULL;
			pb_err_clear(&err);
		} else if (!ear) {
			struct timespec ts = { secs, 0 };

			nanosleep(&ts, NULL);
		} else if (woken) {
			log_info("run --loop: woken: work was queued");
		}
	}
	state_close(ear);
	return rc;
}

/* Parse, load the configuration, run the command's cycle: the exit code. */
static int cycle_command(const struct cli_spec *spec, int argc, char **argv)
{
	struct pb_err err = { 0, "" };
	struct cli_cycle_opts o = { 0 };
	struct cli_args a;
	struct config cfg;
	char *state = NULL;
	long jobs = 0, secs = 0;
	int rc = cli_parse(spec, argc, argv, &o, &a);

	if (rc)
		return rc > 0 ? 0 : EX_USAGE;
	if (o.jobs && parse_long(o.jobs, 0, WORKERS_MAX, &jobs)) {
		log_error("--jobs: '%s': not a number from 0 to %d", o.jobs,
			  WORKERS_MAX);
		return EX_USAGE;
	}
	if (o.loop && parse_long(o.loop, 1, 86400, &secs)) {
		log_error("--loop: '%s': not a number of seconds from 1 to "
			  "86400", o.loop);
		return EX_USAGE;
	}
	if (o.loop && o.dry_run) {
		log_error("--loop: not with --dry-run (a dry run changes "
			  "nothing, so each cycle would print the same mail)");
		return EX_USAGE;
	}
	flat_malloc();
	cli_apply_log(o.quiet, o.verbose, 1);
	if (cli_load_config(&cfg, o.config, 1, &err) ||
	    cli_state_secret(&cfg, &err)) {
		config_release(&cfg);
		return cli_fail(&err);
	}
	state = cli_state_path(&cfg);
	rc = o.loop ? loop(spec, &o, &cfg, state, jobs, secs) :
		one_cycle(spec, &o, &cfg, state, jobs);
	free(state);
	config_release(&cfg);
	return rc;
}

int cmd_run(int argc, char **argv)
{
	return cycle_command(&run_spec, argc, argv);
}

int cmd_send(int argc, char **argv)
{
	return cycle_command(&send_spec, argc, argv);
}

int cmd_poll(int argc, char **argv)
{
	return cycle_command(&poll_spec, argc, argv);
}

int cmd_retest(int argc, char **argv)
{
	return cycle_command(&retest_spec, argc, argv);
}
