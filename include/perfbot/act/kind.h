/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_ACT_KIND_H
#define PERFBOT_ACT_KIND_H

#include <stddef.h>
#include <time.h>

#include "perfbot/act/followup.h"
#include "perfbot/act/scheduler.h"
#include "perfbot/config/config.h"
#include "perfbot/ingest/rootcache.h"
#include "perfbot/ingest/group.h"
#include "perfbot/ingest/manifest.h"
#include "perfbot/judge/inputs.h"
#include "perfbot/render/context.h"
#include "perfbot/state/requests.h"
#include "perfbot/util/strbuf.h"

/*
 * act: the kinds of farm request ("ask the farm, answer later"), in the
 * style of the scheduler's backends (sched_backend.h): a kind is one
 * struct kind, defined in the kind's own file (retest.c, test_result.c,
 * verify.c, noop.c, cycle/confirm.c), and one row of the table of kinds
 * the cycle walks (cycle/cycle.c). What every kind shares is here, once
 * (kind.c): the ask path (kind_ask(): recorded, the farm asked, the
 * request moved on) and the follow-up of the open requests of a kind
 * (kind_follow(): the thread and manifest read, the runs looked for,
 * the answer built by the kind's functions and queued with the
 * request's end). A new kind is a new file defining its struct kind and
 * one row of the table.
 */

/* When the cycle follows a kind's requests up (cycle/cycle.c). */
enum kind_phase {
	KIND_AT_FOLLOWUP,	/* the follow-up step, after the poll */
	KIND_AT_CONFIRM,	/* the confirm step, before it (the held
				 * reports of cycle/confirm.c) */
};

/* What a kind's limits are, from the configuration (0: none). */
struct kind_limits {
	long per_report;	/* requests of a report, ever */
	long per_sender_day;	/* of one sender in a day */
	long runs;		/* runs asked when none is said */
	long max_runs;
};

/* Where a request stands when its follow-up looks. */
enum kind_end {
	KIND_WAITING,		/* its runs are not all in, the deadline not
				 * passed */
	KIND_LANDED,		/* its runs are in: the verdict answers */
	KIND_FAILED,		/* the farm wrote why it cannot (a new root's
				 * kinds: result_root/error) */
	KIND_LATE,		/* the deadline passed first */
	KIND_DROPPED,		/* the kind's start() dropped it */
};

/* One open request on its way to its answer (kind_follow()). */
struct kind_fu {
	const struct kind *k;
	const struct request *row;
	struct followup_asker a;	/* the mail that asked (kinds that
					 * answer it) */
	struct manifest m;		/* the report's, as kept */
	struct manifest *also;		/* a grouped report's others, for a
					 * kind with 'also' (followup_also()) */
	size_t nalso;
	struct report_inputs in;	/* over all runs */
	struct result_root tested;	/* a new root's runs, when complete */
	struct strbuf said;		/* the farm's reason (KIND_FAILED) */
	long landed;			/* a new root's runs so far */
	void *own;			/* the kind's own (start()) */
	int loaded;			/* 0, or -1 ('why' says why) */
	struct pb_err why;
	enum kind_end end;
	struct ctx ctx;			/* the answer's context, being built */
	int built;			/* 'ctx' holds one */
	const char *verdict;		/* KIND_LANDED: its word */
	struct pb_err cerr;		/* why there is no context */
};

struct kind_stats {
	long done, failed, expired, dropped, waiting;
};

/* What a follow-up needs of the cycle. */
struct kind_env {
	struct state *st;
	const struct config *cfg;
	time_t now;
	size_t jobs;			/* threads (util/workers.h) */
	struct root_cache *roots;	/* NULL: none */
};

struct kind {
	const char *name;	/* the requests' kind, the farm's {kind} */
	/* the placeholders of scheduler.argv it fills, NULL-terminated */
	const char *const *placeholders;
	/*
	 * 1: its runs are added to the report's own result roots, so what
	 * they held when it was asked is its expectation: the request is
	 * recorded ('asking', with both counts) and committed before the
	 * farm is asked, and found again after a crash. 0: a new result
	 * root of its own (scheduler_results_dir()).
	 */
	int adds_runs;
	/*
	 * 1: its request is held by its own code (cycle/confirm.c) before
	 * the farm is asked, which decides on a refusal or a farm away;
	 * kind_ask() only asks and moves it 'queued'.
	 */
	int held;
	/* 1: what the farm wrote at once is answered by the follow-up
	 * (recorded 'queued'), else the request is 'failed' at once */
	int said_later;
	/* 1: a grouped report's other comparisons are read into f->also
	 * with its manifest (retest: it reruns them all) */
	int also;
	enum kind_phase phase;
	/* the templates of its answers (NULL: it has none) */
	struct {
		const char *ack, *rejected, *failed, *result, *expired;
	} tmpl;
	/* the follow-up's log line: "retests: ..." and what it counts,
	 * one letter each: d answered, f failed, x expired, r dropped,
	 * w waiting */
	const char *stats_name, *stats_fields;
	void (*limits)(const struct config *cfg, struct kind_limits *l);

	/*
	 * A kind with a follow-up of its own (cycle/confirm.c) sets this
	 * alone of what follows: its open requests, oldest first.
	 */
	int (*follow)(const struct kind_env *e, struct kind_stats *ks,
		      struct pb_err *err);
	/*
	 * The follow-up's functions, by kind_follow(). start (optional)
	 * runs in order, with the state: 0 go on, 1 handled (dropped:
	 * f->end KIND_DROPPED, the request ended by it), -1 with 'err'.
	 * verdict (by a worker, no state) builds the answer's template
	 * context to landed runs in 'c' and names its verdict (or, when
	 * what the thread kept cannot be used, sets f->loaded -1 with
	 * f->why and returns -1: tried again, given up at the deadline,
	 * as an unreadable thread is); ended the
	 * answer's to KIND_FAILED and KIND_LATE: 0 with 'c' being built,
	 * or -1 with 'err' and 'c' released. answer (optional; NULL:
	 * followup_answer() to the mail that asked) queues 'c' (released)
	 * with the request's end, in one transaction. resume (optional),
	 * in order with the state, for a request still waiting in status
	 * 'asking' (recorded, and the run killed before the farm took it):
	 * asks the farm again under the same id, idempotent. release
	 * (optional) frees f->own.
	 */
	int (*start)(struct state *st, struct kind_fu *f, time_t now,
		     struct pb_err *err);
	int (*verdict)(struct kind_fu *f, const struct config *cfg,
		       const char **verdict, struct ctx *c,
		       struct pb_err *err);
	int (*ended)(const struct kind_fu *f, const struct config *cfg,
		     struct ctx *c, struct pb_err *err);
	int (*answer)(struct state *st, const struct config *cfg,
		      struct kind_fu *f, const char *tmpl, struct ctx *c,
		      const char *status, const char *detail, time_t now,
		      struct pb_err *err);
	int (*resume)(struct state *st, const struct config *cfg,
		      struct kind_fu *f, time_t now, struct pb_err *err);
	void (*release)(struct kind_fu *f);
};

/*
 * The placeholders of a request of runs of the report's job on one
 * commit (no repo, ref or patch): retest, confirm, verify.
 */
extern const char *const kind_run_placeholders[];

/* The kinds, each defined in its own file. */
extern const struct kind kind_retest;
extern const struct kind kind_test;
extern const struct kind kind_verify;
extern const struct kind kind_noop;	/* the tests' (noop.c) */
extern const struct kind kind_bisect;	/* bisect.c (issue 33) */

/* How asking went. */
enum kind_outcome {
	KIND_QUEUED,		/* the farm took it */
	KIND_REJECTED,		/* refused: 'why' (for the operator) */
	KIND_SAID,		/* the farm wrote why it cannot: 'said' */
	KIND_AWAY,		/* the farm could not be asked: 'why' */
};

#define KIND_MAX_FARM (2 * GROUP_MAX_MEMBERS)

/* A request being asked: filled by the kind, asked by kind_ask(). */
struct kind_asking {
	struct request_new rq;	/* what the state keeps (its status is
				 * kind_ask()'s) */
	/* what the farm gets, in order: a side a request, and a
	 * grouped report's retest both sides of each comparison */
	struct sched_request farm[KIND_MAX_FARM];	/* in order
					 * (none: a kind that asks for
					 * nothing, queued at once) */
	size_t nfarm;
	int refused;		/* refused before the farm: 'why' */
	enum kind_outcome out;
	char why[256];
	struct strbuf said;	/* result_root/error of a new root */
};

void kind_asking_init(struct kind_asking *q, const struct kind *k);
void kind_asking_release(struct kind_asking *q);

/*
 * The one ask path. A kind that adds runs records q->rq 'asking' (its
 * counts, its request id) and commits it before the farm is asked (an
 * open transaction is committed with it and a new one begun): a run
 * killed while asking finds the row again (INSERT OR IGNORE keeps its
 * counts) and asks again under the same id, which the farm runs once.
 * Then each of q->farm is asked in order (a refusal stops), q->out says
 * how it went, and the request moves on: 'queued'; 'failed' with the
 * farm's words (or 'queued', said_later); 'rejected' with the reason
 * (logged). A held kind's request moves only to 'queued'. A kind of a
 * new root records it here, in the caller's transaction. 0, or -1 with
 * 'err' when the state fails.
 */
int kind_ask(struct state *st, const struct config *cfg,
	     const struct kind *k, struct kind_asking *q, time_t now,
	     struct pb_err *err);

/* The limits of kind 'k' (zeros when it has none). */
void kind_limits_of(const struct kind *k, const struct config *cfg,
		    struct kind_limits *l);

/*
 * The follow-up of the open requests of kind 'k', oldest first, into
 * '*ks' (zeroed first); the kind's log line when anything is counted.
 */
/*
 * How long a follow-up holds its requests' leases (state_requests_claim():
 * another instance on the same state leaves them alone meanwhile).
 */
#define KIND_LEASE (30 * 60)

int kind_follow(const struct kind_env *e, const struct kind *k,
		struct kind_stats *ks, struct pb_err *err);

/*
 * The one follow-up loop: every kind of 'table' ('n' rows) of 'phase',
 * in the order of the table. Stops at the first that fails.
 */
int kind_followups(const struct kind_env *e, const struct kind *const *table,
		   size_t n, enum kind_phase phase, struct pb_err *err);

#endif
