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
 *
 * Several instances may ingest the same sources side by side on one
 * state (PostgreSQL): each group's manifests are claimed first
 * (ingest_claim.c).
 *
 * The items of the workers are the groups of manifests (ingest/group.h:
 * the same commits, or the same 'group'): the reports of a group that go
 * out at once are one mail, the largest change's with the others'
 * comparisons "in addition" (unit_join()), the others recorded as seen
 * in it; a group's report held for confirmation or bisected goes its way
 * alone, as do the others then.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/cycle/report.h"
#include "perfbot/util/log.h"
#include "perfbot/util/workers.h"
#include "perfbot/compose/mail.h"
#include "perfbot/ingest/group.h"
#include "perfbot/ingest/manifest.h"
#include "perfbot/send/outbox.h"
#include "perfbot/render/report.h"
#include "perfbot/compose/reportmail.h"
#include "perfbot/ingest/sources.h"
#include "perfbot/state/outbox.h"
#include "perfbot/state/seen.h"

#include "steps.h"
#include "ingest_unit.h"


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

static void item_release(struct item *it)
{
	manifest_release(&it->m);
	report_release(&it->r);
	composed_release(&it->c);
	free(it->kept);
	free(it->known);
	memset(it, 0, sizeof(*it));
}

static void unit_release(struct unit *un)
{
	size_t k;

	for (k = 0; un->it && k < un->n; k++)
		item_release(&un->it[k]);
	free(un->it);
	free(un->also);
	memset(un, 0, sizeof(*un));
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
		c->manifest_text = it->kept ? it->kept : mt->text;
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
static int made_free(struct ingest *in, const struct unit *un,
		     struct item *it, struct pb_err *err)
{
	struct cycle *cy = in->cy;
	int primary = un->primary < un->n && it == &un->it[un->primary];
	struct report_opts ro = { NULL, cy->now, NULL, NULL, 0,
				  &in->io[in->jobs], NULL, NULL,
				  primary ? un->also : NULL,
				  primary ? un->nalso : 0 };

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

/*
 * A range to bisect (cycle/bisect.c): nothing is queued until its
 * bisection is done; then its report, made in this thread, is.
 */
static int bisect_item(struct cycle *cy, struct item *it, struct pb_err *err)
{
	struct report made;
	int ready = 0;

	if (cycle_bisect_report(cy, &it->m, &it->r, &made, &ready, err)) {
		report_release(&made);
		if (it->m.bisect)
			return 1;
		/* bisect.confirmed's: not bisected, reported as ever */
		log_warn("%s: not bisected: %s", it->mt->name, err->msg);
		pb_err_clear(err);
		return queue_report(cy, it, err);
	}
	if (ready == 2)		/* no range to bisect: its own report */
		return queue_report(cy, it, err);
	if (!ready) {
		it->waiting = 1;
		return 0;
	}
	if (!made.worth) {
		report_release(&made);
		pb_fail(err, EX_DATAERR, "%s: the report of its bisection shows "
			"no change of '%s'", it->mt->name, it->r.metric);
		return 1;
	}
	report_release(&it->r);
	it->r = made;
	compose_here(cy, it);
	return queue_report(cy, it, err);
}

/* The report's id is new (0, *s 0), seen (0, *s 1), or 1/-1 as below. */
static int id_new(struct ingest *in, struct item *it, int *s,
		  struct pb_err *err)
{
	struct report *r = &it->r;

	*s = 0;
	/* an id derived from the commits and job: the same comparison */
	if (!it->m.id && r->id &&
	    source_ids_claim(&in->ids, r->id, it->mt->name, err))
		return 1;
	return seen(in->cy, r->id, s, err) ? -1 : 0;
}

static int judge_manifest(struct ingest *in, const struct unit *un,
			  struct item *it, struct pb_err *err)
{
	struct cycle *cy = in->cy;
	const char *name = it->mt->name;
	struct report *r = &it->r;
	int rc = 0, s = 0;

	if (made_free(in, un, it, err))
		return 1;	/* bad input: reported, the run goes on */
	if ((rc = id_new(in, it, &s, err)) ||
	    (rc = item_id_keep(in, it, err)) || s)
		;
	else if (confirm_wanted(&cy->confirm, r) && cy->dry_run)
		log_info("report '%s' would be held for confirmation runs",
			 r->id);
	else if (confirm_wanted(&cy->confirm, r))
		rc = confirm_hold(cy->st, &cy->confirm, r, it->mt, cy->now,
				  err);
	else if ((it->m.bisect || cy->cfg->bisect.confirmed) && r->worth &&
		 !cy->dry_run)
		rc = bisect_item(cy, it, err);
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
 * A comparison in the mail of report 'primary': recorded as seen with
 * that report's id, so no later cycle mails it alone.
 */
static int joined_manifest(struct ingest *in, struct item *it,
			   const char *primary, struct pb_err *err)
{
	struct cycle *cy = in->cy;
	char why[256];
	int rc, s;

	if ((rc = id_new(in, it, &s, err)) ||
	    (rc = item_id_keep(in, it, err)) || s)
		return rc;
	log_info("report '%s' is in the mail of report '%s'", it->r.id,
		 primary);
	if (cy->dry_run)
		return 0;
	snprintf(why, sizeof(why), "in the mail of report '%.200s'", primary);
	return state_skip(cy->st, it->r.id, it->mt->name, why, cy->now, err);
}

/* In order, before the workers: parse the manifest. */
static void item_start(struct ingest *in, struct item *it,
		       const struct manifest_text *mt)
{
	int taken;

	memset(it, 0, sizeof(*it));
	it->mt = mt;
	it->kind = ITEM_BAD;
	if (source_take(in->cy->cfg, &in->ids, mt, &it->m, &taken, &it->err))
		return;
	it->kind = taken ? ITEM_JUDGE : ITEM_NONE;
}

static int ingest_start(void *arg, size_t i, size_t slot, struct pb_err *err)
{
	struct ingest *in = arg;
	struct unit *un = &in->slot[slot];
	size_t a = in->groups.first[i], k;

	memset(un, 0, sizeof(*un));
	un->n = in->groups.first[i + 1] - a;
	un->primary = un->n;
	un->it = calloc(un->n, sizeof(*un->it));
	if (!un->it)
		return pb_fail(err, EX_OSERR, "out of memory");
	for (k = 0; k < un->n; k++)
		item_start(in, &un->it[k], &in->b.m[in->groups.member[a + k]]);
	if (unit_claim(in, un, err)) {
		unit_unclaim(in, un);
		unit_release(un);
		return -1;
	}
	return 0;
}

/* A worker: the report and its mail, from the manifest alone. */
static void item_work(struct ingest *in, size_t worker, struct item *it)
{
	struct report_opts ro = { NULL, in->cy->now, NULL, NULL, 0,
				  &in->io[worker], NULL, NULL, NULL, 0 };

	if (it->kind != ITEM_JUDGE)
		return;
	it->made = report_make(&it->r, &it->m, in->cy->cfg, &ro, &it->err);
	if (!it->made)
		compose_here(in->cy, it);
}

/*
 * Several reports of one group that go out at once are one mail: the
 * largest change's, made again with the others' comparisons in it. When
 * it cannot be made, each goes out as its own.
 */
static void unit_join(struct ingest *in, size_t worker, struct unit *un)
{
	size_t cand[GROUP_MAX_MEMBERS], order[GROUP_MAX_MEMBERS], nc = 0, i;
	double change[GROUP_MAX_MEMBERS];
	struct item *p;

	for (i = 0; i < un->n && nc < GROUP_MAX_MEMBERS; i++) {
		struct item *it = &un->it[i];

		if (it->kind == ITEM_JUDGE && !it->made && it->r.ctx &&
		    to_mail(in->cy, &it->r)) {
			cand[nc] = i;
			change[nc++] = it->r.change;
		}
	}
	if (nc < 2 || !(un->also = calloc(nc - 1, sizeof(*un->also))))
		return;
	group_order(change, nc, order);
	for (i = 1; i < nc; i++)
		un->also[un->nalso++] = un->it[cand[order[i]]].r.ctx;
	p = &un->it[cand[order[0]]];
	report_release(&p->r);
	{
		struct report_opts ro = { NULL, in->cy->now, NULL, NULL, 0,
					  &in->io[worker], NULL, NULL,
					  un->also, un->nalso };

		p->made = report_make(&p->r, &p->m, in->cy->cfg, &ro,
				      &p->err);
	}
	if (p->made) {
		free(un->also);
		un->also = NULL;
		un->nalso = 0;
		return;
	}
	compose_here(in->cy, p);
	un->primary = (size_t)(p - un->it);
	for (i = 1; i < nc; i++)
		un->it[cand[order[i]]].joined = 1;
	{
		const char *texts[GROUP_MAX_MEMBERS];

		for (i = 0; i < nc; i++)
			texts[i] = un->it[cand[order[i]]].mt->text;
		/* NULL when out of memory: retests rerun it alone */
		p->kept = manifest_kept_join(texts, nc);
	}
}

static void ingest_work(void *arg, size_t worker, size_t slot)
{
	struct ingest *in = arg;
	struct unit *un = &in->slot[slot];
	size_t k;

	for (k = 0; k < un->n; k++)
		item_work(in, worker, &un->it[k]);
	if (un->n > 1)
		unit_join(in, worker, un);
	/* the template context is for 'report --context' and the joined */
	for (k = 0; k < un->n; k++)
		if (!un->it[k].joined) {
			json_decref(un->it[k].r.ctx);
			un->it[k].r.ctx = NULL;
		}
}

/* In order: 0 done, 1 bad input (reported), -1 state trouble (stop). */
static int item_finish(struct ingest *in, const struct unit *un,
		       struct item *it, struct pb_err *err)
{
	int rc = 0;

	if (it->kind == ITEM_BAD) {
		log_error("%s", it->err.msg);
		in->cy->bad++;
	} else if (it->kind == ITEM_OTHER) {
		in->left[it->mt - in->b.m] = 1;
	} else if (it->kind == ITEM_NONE) {
		log_debug("%s: skipped", it->err.msg);
	} else if (it->kind == ITEM_JUDGE) {
		rc = judge_manifest(in, un, it, err);
		if (rc > 0) {
			log_error("%s", err->msg);
			in->cy->bad++;
		}
		if (it->waiting)
			in->left[it->mt - in->b.m] = 1;
	}
	return rc < 0 ? -1 : 0;
}

/*
 * The primary first: when its mail went out (or was printed), the joined
 * are in it; otherwise (already seen, held, bisected) each is judged as
 * its own, its own mail made by the worker.
 */
static int ingest_finish(void *arg, size_t i, size_t slot, struct pb_err *err)
{
	struct ingest *in = arg;
	struct unit *un = &in->slot[slot];
	struct pb_err e = { 0, "" };
	size_t k;
	long queued = in->cy->queued;
	int rc = 0, out = 0;
	const char *pid = NULL;

	(void)i;
	if (un->primary < un->n) {
		rc = item_finish(in, un, &un->it[un->primary], &e);
		out = in->cy->queued > queued;
		pid = un->it[un->primary].r.id;
	}
	for (k = 0; !rc && k < un->n; k++) {
		struct pb_err ke = { 0, "" };

		if (k == un->primary)
			continue;
		if (un->it[k].joined && out) {
			rc = joined_manifest(in, &un->it[k], pid, &ke);
			if (rc > 0) {
				log_error("%s", ke.msg);
				in->cy->bad++;
				rc = 0;
			}
		} else {
			rc = item_finish(in, un, &un->it[k], &ke);
		}
		if (rc)
			e = ke;
	}
	unit_unclaim(in, un);
	unit_release(un);
	if (rc < 0) {
		*err = e;
		return -1;
	}
	return 0;
}

static void ingest_drop(void *arg, size_t slot)
{
	struct ingest *in = arg;

	unit_unclaim(in, &in->slot[slot]);
	unit_release(&in->slot[slot]);
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
	manifest_groups_release(&in->groups);
	inputs_opts_free(in->io, in->jobs + 1);
	free(in->slot);
	free(in->left);
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
	if (sources_collect(cy->cfg, cy->have_state ? cy->st : NULL, &in.b,
			    err)) {
		ingest_release(&in);
		return -1;
	}
	cy->bad += in.b.errors;
	if (!(in.left = calloc(in.b.n ? in.b.n : 1, 1))) {
		ingest_release(&in);
		return pb_fail(err, EX_OSERR, "out of memory");
	}
	if (cy->have_state && !cy->dry_run &&
	    state_manifests_forget_seen(cy->st, err)) {
		ingest_release(&in);
		return -1;
	}
	if (manifest_groups_of(&in.groups, in.b.m, in.b.n, err)) {
		ingest_release(&in);
		return -1;
	}
	rc = workers_run(&ingest_ops, &in, in.groups.ngroups, in.jobs, &e);
	/* what was made of the url sources' manifests is recorded: their
	 * answers need not be fetched again */
	if (!rc && cy->have_state && !cy->dry_run)
		rc = sources_remember(cy->st, &in.b, in.left, cy->now, &e);
	ingest_release(&in);
	if (rc)
		*err = e;	/* the state's own error, or out of memory */
	return rc;
}
