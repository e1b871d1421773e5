// SPDX-License-Identifier: GPL-2.0-only
/*
 * The cycle's ingest step: the manifests of every source, each parsed,
 * its report built and judged, then queued (or printed for --dry-run),
 * held for confirmation runs, or recorded as skipped. A bad manifest (or
 * a file it names, or a report that cannot be made of it) is reported
 * and counted (the exit code says so) and the others go on; a state that
 * cannot be written stops the cycle with the state's own error.
 *
 * The manifests stream through util/workers.h: taken (parsed, their ids
 * claimed, the files they name checked) and looked up in the state in
 * order (start), their reports made and composed by the workers, which
 * touch no state (work), then, in order again, checked once more, queued
 * or printed and released (finish), so a cycle holds a few reports at a
 * time whatever their number, and the outbox, its Message-IDs and the
 * log are those of one job.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/cycle/report.h"
#include "perfbot/util/log.h"
#include "perfbot/util/workers.h"
#include "perfbot/compose/mail.h"
#include "perfbot/ingest/manifest.h"
#include "perfbot/send/outbox.h"
#include "perfbot/render/report.h"
#include "perfbot/compose/reportmail.h"
#include "perfbot/ingest/sources.h"
#include "perfbot/state/outbox.h"
#include "perfbot/state/seen.h"

#include "steps.h"

int report_redraw_taken(struct report *r, const struct manifest *m,
			const struct config *cfg, struct report_opts *o,
			struct state *st, struct pb_err *err)
{
	int used = 0;

	for (;;) {
		if (!r->worth || !st)
			return 0;
		if (state_message_id_used(st, r->message_id, &used, err)) {
			report_release(r);
			return -1;
		}
		if (!used)
			return 0;
		report_release(r);
		if (++o->draw >= ID_DRAWS)
			return pb_fail(err, EX_SOFTWARE, "report: no free "
				       "Message-ID in %d draws", ID_DRAWS);
		if (report_make(r, m, cfg, o, err))
			return -1;
	}
}

/* '*s' 1 when the state knows 'id' (there is none for --dry-run, maybe). */
static int seen(struct cycle *cy, const char *id, int *s, struct pb_err *err)
{
	*s = 0;
	return id && cy->have_state ? state_seen(cy->st, id, s, err) : 0;
}

/* One manifest on its way through the workers. */
enum item_kind {
	ITEM_BAD,	/* reported in 'err' */
	ITEM_NONE,	/* no manifest at all: 'err' says why (--verbose) */
	ITEM_SEEN,	/* the state knows it */
	ITEM_JUDGE,	/* its report is made */
};

struct item {
	const struct manifest_text *mt;
	enum item_kind kind;
	struct pb_err err;	/* why it is bad, or why no report */
	struct manifest m;
	int made;		/* report_make(): 0, or -1 with 'err' */
	struct report r;
	int mailed;		/* 'c' holds its mail: 1, -1 failed ('cerr') */
	struct composed c;
	struct pb_err cerr;
};

/* What the workers share, and each worker's own tables. */
struct ingest {
	struct cycle *cy;
	struct source_batch b;
	struct source_ids ids;	/* the ids taken so far, in order */
	struct item *slot;
	struct inputs_opts *io;		/* [worker], then the caller's */
	size_t jobs;
};

static void item_release(struct item *it)
{
	manifest_release(&it->m);
	report_release(&it->r);
	composed_release(&it->c);
	memset(it, 0, sizeof(*it));
}

/* The report goes out as a mail: worth one, and not held first. */
static int to_mail(const struct cycle *cy, const struct report *r)
{
	return r->worth && !confirm_wanted(&cy->confirm, r);
}

/*
 * Queue a report's mail, or print it for --dry-run: 0 done, 1 the mail
 * could not be made (bad input, reported in 'err'), -1 state trouble.
 */
static int queue_report(struct cycle *cy, struct item *it,
			struct pb_err *err)
{
	const struct manifest_text *mt = it->mt;
	struct composed *c = &it->c;
	int rc = 0;

	if (it->mailed < 0) {
		*err = it->cerr;
		return 1;
	}
	if (cy->dry_run) {
		rc = cycle_print_mail(c->sender, c->date, sb_str(&c->msg),
				      c->msg.len, err);
	} else {
		c->manifest = mt->name;
		c->manifest_text = mt->text;
		c->manifest_dir = mt->dir;
		rc = outbox_queue(cy->st, c, cy->now, err);
		if (!rc)
			log_info("queued report '%s': %s", it->r.id,
				 it->r.subject);
	}
	cy->queued += !rc;
	return rc;
}

/* The mail of a report made (again) in this thread. */
static void compose_here(struct cycle *cy, struct item *it)
{
	composed_release(&it->c);
	it->mailed = 0;
	if (to_mail(cy, &it->r))
		it->mailed = report_compose(&it->r, cy->cfg, &it->c,
					    &it->cerr) ? -1 : 1;
}

/* The report a worker made, its Message-ID free (drawn again if not). */
static int made_free(struct ingest *in, struct item *it, struct pb_err *err)
{
	struct cycle *cy = in->cy;
	struct report_opts ro = { NULL, cy->now, NULL, NULL, 0,
				  &in->io[in->jobs], NULL, NULL };

	if (it->made) {
		*err = it->err;
		return -1;
	}
	if (report_redraw_taken(&it->r, &it->m, cy->cfg, &ro,
				cy->have_state ? cy->st : NULL, err))
		return -1;
	if (ro.draw)	/* drawn again: its mail too */
		compose_here(cy, it);
	return 0;
}

static int judge_manifest(struct ingest *in, struct item *it,
			  struct pb_err *err)
{
	struct cycle *cy = in->cy;
	const char *name = it->mt->name;
	struct report *r = &it->r;
	int rc = 0, s;

	if (made_free(in, it, err))
		return 1;	/* bad input: reported, the run goes on */
	/* an id derived from the commits and job: the same comparison */
	if (!it->m.id && r->id && source_ids_claim(&in->ids, r->id, name, err))
		rc = 1;
	else if (seen(cy, r->id, &s, err))
		rc = -1;
	else if (s)
		rc = 0;
	else if (confirm_wanted(&cy->confirm, r) && cy->dry_run)
		log_info("report '%s' would be held for confirmation runs",
			 r->id);
	else if (confirm_wanted(&cy->confirm, r))
		rc = confirm_hold(cy->st, &cy->confirm, r, it->mt, cy->now,
				  err);
	else if (!r->worth && !cy->dry_run)
		rc = state_skip(cy->st, r->id ? r->id : name, name,
				"no change passes the noise filter", cy->now,
				err);
	else
		rc = r->worth ? queue_report(cy, it, err) : 0;
	cy->skipped += rc == 0 && !s && !r->worth &&
		!confirm_wanted(&cy->confirm, r);
	return rc;
}

/*
 * In order, before the workers: parse the manifest and see whether the
 * state knows it (it stays known: finish() need not ask again).
 */
static int ingest_start(void *arg, size_t i, size_t slot, struct pb_err *err)
{
	struct ingest *in = arg;
	struct item *it = &in->slot[slot];
	const struct manifest_text *mt = &in->b.m[i];
	int s, taken;

	memset(it, 0, sizeof(*it));
	it->mt = mt;
	it->kind = ITEM_BAD;
	if (source_take(in->cy->cfg, &in->ids, mt, &it->m, &taken, &it->err))
		return 0;
	if (!taken) {
		it->kind = ITEM_NONE;
		return 0;
	}
	if (seen(in->cy, it->m.id, &s, err)) {
		item_release(it);
		return -1;
	}
	it->kind = s ? ITEM_SEEN : ITEM_JUDGE;
	return 0;
}

/* A worker: the report and its mail, from the manifest alone. */
static void ingest_work(void *arg, size_t worker, size_t slot)
{
	struct ingest *in = arg;
	struct item *it = &in->slot[slot];
	struct report_opts ro = { NULL, in->cy->now, NULL, NULL, 0,
				  &in->io[worker], NULL, NULL };

	if (it->kind != ITEM_JUDGE)
		return;
	it->made = report_make(&it->r, &it->m, in->cy->cfg, &ro, &it->err);
	if (it->made)
		return;
	/* the template context is for 'report --context' only */
	json_decref(it->r.ctx);
	it->r.ctx = NULL;
	compose_here(in->cy, it);
}

/* In order: 0 done, 1 bad input (reported), -1 state trouble (stop). */
static int ingest_finish(void *arg, size_t i, size_t slot, struct pb_err *err)
{
	struct ingest *in = arg;
	struct item *it = &in->slot[slot];
	struct pb_err e = { 0, "" };
	int rc = 0;

	(void)i;
	if (it->kind == ITEM_BAD) {
		log_error("%s", it->err.msg);
		in->cy->bad++;
	} else if (it->kind == ITEM_NONE) {
		log_debug("%s: skipped", it->err.msg);
	} else if (it->kind == ITEM_JUDGE) {
		rc = judge_manifest(in, it, &e);
		if (rc > 0) {
			log_error("%s", e.msg);
			in->cy->bad++;
		}
	}
	item_release(it);
	if (rc < 0) {
		*err = e;
		return -1;
	}
	return 0;
}

static void ingest_drop(void *arg, size_t slot)
{
	struct ingest *in = arg;

	item_release(&in->slot[slot]);
}

static const struct workers_ops ingest_ops = {
	ingest_start, ingest_work, ingest_finish, ingest_drop,
};

static int ingest_init(struct ingest *in, struct cycle *cy)
{
	memset(in, 0, sizeof(*in));
	in->cy = cy;
	source_ids_init(&in->ids);
	in->jobs = workers_count(cy->jobs);
	in->slot = calloc(workers_slots(in->jobs), sizeof(*in->slot));
	in->io = inputs_opts_new(in->jobs + 1, cy->roots);
	return in->slot && in->io ? 0 : -1;
}

static void ingest_release(struct ingest *in)
{
	inputs_opts_free(in->io, in->jobs + 1);
	free(in->slot);
	source_ids_release(&in->ids);
	sources_release(&in->b);
}

int cycle_ingest(struct cycle *cy, struct pb_err *err)
{
	struct pb_err e = { 0, "" };
	struct ingest in;
	int rc;

	if (ingest_init(&in, cy)) {
		ingest_release(&in);
		return pb_fail(err, EX_OSERR, "out of memory");
	}
	if (sources_collect(cy->cfg, cy->have_state ? cy->st : NULL,
			    !cy->dry_run, &in.b, err)) {
		ingest_release(&in);
		return -1;
	}
	cy->bad += in.b.errors;
	rc = workers_run(&ingest_ops, &in, in.b.n, in.jobs, &e);
	ingest_release(&in);
	if (rc)
		*err = e;	/* the state's own error, or out of memory */
	return rc;
}
