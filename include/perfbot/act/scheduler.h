/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_SCHEDULER_H
#define PERFBOT_SCHEDULER_H

#include <stddef.h>

#include "perfbot/config/config.h"
#include "perfbot/util/err.h"
#include "perfbot/util/strbuf.h"

/*
 * Asking the benchmark farm for more runs (the 'scheduler' section):
 *   exec   run scheduler.argv (no shell) with {kind}, {result_root},
 *          {commit}, {repo}, {ref}, {patch}, {runs}, {job} and
 *          {request_id} replaced, killed after scheduler.timeout
 *          seconds; a non-zero exit is a rejection
 *   spool  write one YAML request per commit into scheduler.spool_dir,
 *          atomically (a temporary file, fsync, rename)
 *   http   POST the request as JSON to scheduler.url; 2xx accepted,
 *          4xx rejected, anything else (5xx, no answer) a failure
 * An exec scheduler gets a minimal environment (PATH and HOME as perfbot
 * has them, LANG=C, LC_ALL=C): nothing else, so no secret of perfbot's
 * environment reaches it. A failure for now (exit 75, HTTP 5xx or 429,
 * no connection) is tried again, 3 times in all, a second apart.
 * The request id is the idempotency key: the same request submitted twice
 * (a crash between submitting and recording) must not run twice, and the
 * backends pass it on so the farm can tell.
 */

/*
 * What a request asks (README "Retests", the farm's contract):
 *   retest, confirm  'runs' more runs of 'job' on 'commit', added to the
 *                    existing result root 'result_root';
 *   test, verify     'runs' runs of 'job' on a tree of its own into the
 *                    new, empty 'result_root' (scheduler_results_dir()):
 *                    'commit' of 'repo' at 'ref' as it is (a tree test,
 *                    a verified fix), or 'commit' of the report's tree
 *                    with the patch file 'patch' applied.
 * The farm writes an LKP result root there (matrix.json with a
 * stats_source list, job.yaml); one that cannot do it (a build failure,
 * a patch that does not apply) writes its reason into
 * 'result_root'/error instead.
 */
struct sched_request {
	const char *request_id;
	const char *job;	/* path of the job.yaml to run */
	const char *commit;	/* full sha */
	const char *result_root;	/* where the new runs must land */
	int runs;
	const char *thread;	/* the Message-ID that asked, for the farm */
	const char *kind;	/* "retest", "confirm", "test", "verify";
				 * NULL is "retest" */
	const char *repo;	/* a tree test's repository, or NULL */
	const char *ref;	/* its branch or commit, or NULL */
	const char *patch;	/* absolute path of the patch, or NULL */
};

/* The request's kind, repo, ref and patch, "" for what it has none of. */
const char *sched_kind_of(const struct sched_request *rq);
const char *sched_or_empty(const char *s);

/*
 * The new, empty result root of a test or verify request:
 * scheduler.results_dir/<request_id>/, created. One a crash left (after
 * the farm was asked, before the request was recorded) is taken again as
 * it is, empty or holding what the farm wrote for this very request: the
 * request id is the idempotency key, so asking again runs nothing twice.
 * Something there that is no directory of its own (a file, a link) is
 * EX_CANTCREAT. Newly allocated in '*dir'.
 */
int scheduler_results_dir(const struct config *cfg, const char *request_id,
			  char **dir, struct pb_err *err);

/*
 * What the farm wrote into 'result_root'/error when it cannot run a
 * test (the farm's contract: a build that fails, a patch that does not
 * apply): '*found' 1 and its text appended to 'out', its first
 * SCHED_ERROR_LINES lines of at most SCHED_ERROR_BYTES in all, joined by
 * '\n' (none at the end), each line's control characters replaced (it
 * is quoted in the answer), blank lines at both ends dropped; '*found' 0
 * when there is no such file (or it is no regular file). -1 with 'err'
 * when it cannot be read.
 */
#define SCHED_ERROR_LINES 20
#define SCHED_ERROR_BYTES 2000
int scheduler_farm_error(const char *result_root, struct strbuf *out,
			 int *found, struct pb_err *err);

enum sched_outcome {
	SCHED_ACCEPTED,
	SCHED_REJECTED,	/* the farm said no: 'why' tells */
	SCHED_TEMPORARY,	/* internal: failed for now, tried again;
				 * scheduler_submit() never returns it */
};

/*
 * Submit one request. Returns 0 with *out set, or -1 with 'err' when the
 * request could not be made at all (bad configuration, server away).
 * 'why' gets the farm's reason for a rejection (exit status and the first
 * line of stderr, the HTTP status and body, ...).
 */
/*
 * What 'perfbot check' asks before any request: the backend is set and
 * has what it needs (a program that runs and only known placeholders, a
 * writable spool directory, a URL). 0, or -1 with 'err'.
 */
int scheduler_check(const struct config *cfg, struct pb_err *err);

int scheduler_submit(const struct config *cfg, const struct sched_request *rq,
		     enum sched_outcome *out, char *why, size_t whylen,
		     struct pb_err *err);

#endif
