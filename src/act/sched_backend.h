/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_ACT_SCHED_BACKEND_H
#define PERFBOT_ACT_SCHED_BACKEND_H

/*
 * Shared by the files of the scheduler only: src/act/scheduler.c (the
 * request, the backend chosen by scheduler.backend, the retries) and one
 * file per backend (sched_exec.c, sched_spool.c, sched_http.c). A new
 * backend is a new file defining its struct sched_backend, one line in
 * the table of scheduler.c and its name in the config schema.
 */

#include <stddef.h>

#include "perfbot/act/scheduler.h"

#define SCHED_MAX_LINE 300		/* of the farm's reason, in 'why' */

struct sched_backend {
	const char *name;
	/*
	 * Submit a request already checked. Returns 0 with *out set
	 * (SCHED_TEMPORARY: try again), or -1 with 'err' (tried again when
	 * its code is EX_TEMPFAIL or EX_UNAVAILABLE).
	 */
	int (*submit)(const struct cfg_scheduler *sc,
		      const struct sched_request *rq,
		      enum sched_outcome *out, char *why, size_t whylen,
		      struct pb_err *err);
	/* What 'perfbot check' asks: can it submit at all? 0, or -1. */
	int (*check)(const struct cfg_scheduler *sc, struct pb_err *err);
};

extern const struct sched_backend sched_exec;
extern const struct sched_backend sched_spool;
extern const struct sched_backend sched_http;

/*
 * Set the reason of a rejection, cut to 'whylen' and scrubbed (controls,
 * C1, U+2028/2029 and each byte of invalid UTF-8 become '?').
 */
void sched_say(char *why, size_t whylen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The first non-blank line of 'text', trimmed and capped, into 'out'. */
void sched_first_line(const char *text, size_t len, char *out,
		      size_t outlen);

/* The request's thread, "" when it has none. */
const char *sched_thread_of(const struct sched_request *rq);

/*
 * scheduler.argv with the placeholders ({result_root}, {commit}, {runs},
 * {job}, {request_id}) replaced, NULL-terminated; free with
 * sched_argv_free().
 */
int sched_argv(const struct cfg_scheduler *sc,
	       const struct sched_request *rq, char ***argvp,
	       struct pb_err *err);
void sched_argv_free(char **argv);
/* scheduler.argv names a program that runs and only known placeholders. */
int sched_argv_check(const struct cfg_scheduler *sc, struct pb_err *err);

#endif
