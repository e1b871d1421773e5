/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_FOLLOWUP_H
#define PERFBOT_FOLLOWUP_H

#include <time.h>

#include "perfbot/compose/answer.h"
#include "perfbot/config/config.h"
#include "perfbot/ingest/manifest.h"
#include "perfbot/judge/inputs.h"
#include "perfbot/parse/reply.h"
#include "perfbot/render/context.h"
#include "perfbot/state/requests.h"
#include "perfbot/state/inbox.h"

/*
 * act: what the requests asked in a report's thread and answered later
 * share (retest.c, test.c): the report's manifest as it was kept, the
 * thread of the mail that asked kept as JSON with the request and read
 * back for the follow-up, the pieces of context both answers have, and
 * the follow-up queued with the request's end in one transaction.
 */

/* The report's manifest as it was when the report was queued. */
struct config;
/* A ref name among its commits is resolved again (manifest_resolve()). */
int followup_manifest(struct state *st, const struct config *cfg,
		      const char *report_id,
		      struct manifest *m, struct pb_err *err);

/*
 * The other comparisons of a grouped report, kept with its own
 * (ingest/group.h), parsed and resolved: 0 with '*also' (NULL when
 * there are none) and '*n' (followup_also_release() after), or -1.
 */
int followup_also(struct state *st, const struct config *cfg,
		  const char *report_id, struct manifest **also, size_t *n,
		  struct pb_err *err);
void followup_also_release(struct manifest *also, size_t n);

/*
 * The thread of mail 'r' and what the report said (its headline metric
 * and %change, from 'in') as the JSON kept with the request; newly
 * allocated, NULL when out of memory.
 */
char *followup_thread_json(const struct answer_thread *r,
			   const struct report_inputs *in);

/*
 * A request's first look (runs a side in all) kept with it: in its
 * thread's JSON under key 'key' ({"key": {"first": N}}, '*thread' NULL
 * or JSON, replaced), -1 out of memory; read back, or 'dflt' when none
 * is kept (or it is not SEQ_MIN_RUNS to SEQ_MAX_RUNS).
 */
int followup_first_keep(char **thread, const char *key, long first);
long followup_first_read(const char *thread, const char *key, long dflt);

/* The mail that asked, as the thread kept with the request tells it. */
struct followup_asker {
	struct answer_thread r;	/* its strings are the asker's */
	char *message_id, *in_reply_to, *subject, *from, *from_name;
	char *refs[REPLY_MAX_REFS];
	char *metric;		/* the report's headline, "" when none */
	double reported;	/* its %change */
	struct thread_report tr;	/* the report of the thread, found
					 * again (its recipients for the Cc) */
};

/*
 * Read 'thread' back and find its report as the poll found it
 * (In-Reply-To, then References); -1 when the JSON is unreadable or
 * memory is short.
 * followup_asker_release() after in both cases.
 */
int followup_asker_load(struct followup_asker *a, struct state *st,
			const char *thread);
void followup_asker_release(struct followup_asker *a);
/* The headline metric the report named, or NULL, and its %change. */
const char *followup_metric(const struct followup_asker *a);
double followup_reported(const struct followup_asker *a);

/* "commits": { base, head } { sha, short } of the manifest. */
void followup_commits_ctx(struct ctx *parent, const struct manifest *m);

/*
 * One commit's per-run values of 'metric' under 'key' ({ metric,
 * values [{ value, last }] }, for templates/samples.txt).
 */
void followup_samples_ctx(struct ctx *parent, const char *key,
			  const char *metric, const double *v, size_t n);

/* How a request ends in the state: its row's status and detail. */
typedef int (*followup_finish_fn)(struct state *st, const char *request_id,
				  const char *status, const char *detail,
				  time_t now, struct pb_err *err);
/*
 * The end of a request (a followup_finish_fn): 'status' and 'detail',
 * and for "done" the verdict, which 'detail' is then.
 */
int followup_request_end(struct state *st, const char *request_id,
			 const char *status, const char *detail, time_t now,
			 struct pb_err *err);

/*
 * Render the piece 'tmpl' with the context being built in 'c' (released),
 * queue it as the answer to the asker tagged "result:<request_id>", and
 * end the request with 'finish' ('status', 'detail'), all in one
 * transaction.
 */
int followup_answer(struct state *st, const struct config *cfg,
		    const struct followup_asker *a, const char *request_id,
		    const char *tmpl, struct ctx *c, followup_finish_fn finish,
		    const char *status, const char *detail, time_t now,
		    struct pb_err *err);

#endif
