// SPDX-License-Identifier: GPL-2.0-only
/*
 * The cycle's ingest step: the manifests of every source, each parsed,
 * its report built and judged, then queued (or printed for --dry-run),
 * held for confirmation runs, or recorded as skipped. A bad manifest (or
 * a file it names, or a report that cannot be made of it) is reported
 * and counted (the exit code says so) and the others go on; a state that
 * cannot be written stops the cycle with the state's own error.
 */
#include <stdlib.h>

#include "perfbot/cycle/report.h"
#include "perfbot/util/log.h"
#include "perfbot/compose/mail.h"
#include "perfbot/ingest/manifest.h"
#include "perfbot/send/outbox.h"
#include "perfbot/render/report.h"
#include "perfbot/compose/reportmail.h"
#include "perfbot/ingest/sources.h"

#include "steps.h"

/* Here, not in report.c: the front end's 'report' needs no state. */
int report_make_free(struct report *r, const struct manifest *m,
		     const struct config *cfg, struct report_opts *o,
		     struct state *st, struct pb_err *err)
{
	int used = 0;

	for (o->draw = 0; o->draw < ID_DRAWS; o->draw++) {
		if (report_make(r, m, cfg, o, err))
			return -1;
		if (!r->worth || !st)
			return 0;
		if (state_message_id_used(st, r->message_id, &used, err)) {
			report_release(r);
			return -1;
		}
		if (!used)
			return 0;
		report_release(r);
	}
	return pb_fail(err, EX_SOFTWARE, "report: no free Message-ID in %d "
		       "draws", ID_DRAWS);
}

/* '*s' 1 when the state knows 'id' (there is none for --dry-run, maybe). */
static int seen(struct cycle *cy, const char *id, int *s, struct pb_err *err)
{
	*s = 0;
	return id && cy->have_state ? state_seen(cy->st, id, s, err) : 0;
}

/*
 * Queue a report's mail, or print it for --dry-run: 0 done, 1 the mail
 * could not be made (bad input, reported in 'err'), -1 state trouble.
 */
static int queue_report(struct cycle *cy, const struct report *r,
			const struct manifest_text *mt, struct pb_err *err)
{
	struct composed c;
	int rc = report_compose(r, cy->cfg, &c, err) ? 1 : 0;

	if (!rc && cy->dry_run) {
		rc = mbox_append(&cy->mbox, c.sender, c.date, sb_str(&c.msg),
				 c.msg.len);
	} else if (!rc) {
		c.manifest = mt->name;
		c.manifest_text = mt->text;
		c.manifest_dir = mt->dir;
		rc = outbox_queue(cy->st, &c, cy->now, err);
		if (!rc)
			log_info("queued report '%s': %s", r->id, r->subject);
	}
	cy->queued += !rc;
	composed_release(&c);
	return rc;
}

/*
 * Make, judge and queue (or hold, or skip) the manifest's report: 0 done,
 * 1 bad input (reported in 'err'), -1 state trouble (in 'err').
 */
static int judge_manifest(struct cycle *cy, const struct manifest *m,
			  const struct manifest_text *mt,
			  struct source_ids *ids, struct pb_err *err)
{
	const char *name = mt->name;
	struct report_opts ro = { NULL, cy->now, NULL, NULL, 0 };
	struct report r;
	int rc = 0, s;

	if (report_make_free(&r, m, cy->cfg, &ro, cy->have_state ? cy->st :
			     NULL, err))
		return 1;	/* bad input: reported, the run goes on */
	/* an id derived from the commits and job: the same comparison */
	if (!m->id && r.id && source_ids_claim(ids, r.id, name, err))
		rc = 1;
	else if (seen(cy, r.id, &s, err))
		rc = -1;
	else if (s)
		rc = 0;
	else if (confirm_wanted(&cy->confirm, &r) && cy->dry_run)
		log_info("report '%s' would be held for confirmation runs",
			 r.id);
	else if (confirm_wanted(&cy->confirm, &r))
		rc = confirm_hold(cy->st, &cy->confirm, &r, mt, cy->now, err);
	else if (!r.worth && !cy->dry_run)
		rc = state_skip(cy->st, r.id ? r.id : name, name,
				"no change passes the noise filter", cy->now,
				err);
	else
		rc = r.worth ? queue_report(cy, &r, mt, err) : 0;
	cy->skipped += rc == 0 && !s && !r.worth &&
		!confirm_wanted(&cy->confirm, &r);
	report_release(&r);
	return rc;
}

/*
 * 0 done (or no manifest at all), 1 bad input (reported, counted), -1
 * state trouble: 'err' says what, and the cycle stops.
 */
static int one_manifest(struct cycle *cy, const struct manifest_text *mt,
			struct source_ids *ids, struct pb_err *err)
{
	struct manifest m;
	int rc, s, taken;

	if (source_take(cy->cfg, ids, mt, &m, &taken, err)) {
		log_error("%s", err->msg);
		cy->bad++;
		return 1;
	}
	if (!taken) {
		log_debug("%s: skipped", err->msg);
		return 0;
	}
	if (seen(cy, m.id, &s, err))
		rc = -1;
	else
		rc = s ? 0 : judge_manifest(cy, &m, mt, ids, err);
	if (rc > 0) {
		log_error("%s", err->msg);
		cy->bad++;
	}
	manifest_release(&m);
	return rc;
}

int cycle_ingest(struct cycle *cy, struct pb_err *err)
{
	struct source_batch b;
	struct source_ids ids;
	size_t i;
	int rc = 0;

	if (sources_collect(cy->cfg, cy->have_state ? cy->st : NULL,
			    !cy->dry_run, &b, err))
		return -1;
	source_ids_init(&ids);
	cy->bad += b.errors;
	for (i = 0; i < b.n && rc >= 0; i++)
		rc = one_manifest(cy, &b.m[i], &ids, err);
	source_ids_release(&ids);
	sources_release(&b);
	return rc < 0 ? -1 : 0;
}
