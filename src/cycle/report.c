// SPDX-License-Identifier: GPL-2.0-only
/*
 * cycle: the driver of the report flow (cycle/report.h): ingest, compare
 * and judge (judge/inputs.c), then the ids, recipients and thread
 * (compose), the text (render) and the mail (compose), for the cycle's
 * ingest, its confirmations and 'perfbot report'.
 */
#include <stdlib.h>
#include <string.h>

#include "perfbot/compare/evidence.h"
#include "perfbot/compose/identity.h"
#include "perfbot/compose/recipients.h"
#include "perfbot/compose/thread.h"
#include "perfbot/cycle/report.h"
#include "perfbot/ingest/manifest_files.h"
#include "perfbot/judge/trigger.h"
#include "perfbot/util/id.h"

/* No headline: is the key metric, hidden by the filter, worth a look? */
static int candidate(struct report *r, const struct report_inputs *in,
		     struct pb_err *err)
{
	const char *key = in->key_metric;
	const struct cmp_row *row = key ? comparison_find(&in->cmp, key) : NULL;

	if (!trigger_candidate(row))
		return 0;
	r->candidate = 1;
	r->metric = strdup(row->name);
	r->change = row->change;
	if (!r->metric || evidence_of_row(row, &r->evidence))
		return pb_fail(err, EX_OSERR, "out of memory");
	return 0;
}

/*
 * Each commit's subject line, which the report quotes: the manifest's,
 * else the one job.yaml of that side holds; neither is an error rather
 * than a '("")' in a mail.
 */
static int subjects(struct manifest *m, const struct report_inputs *in,
		    struct pb_err *err)
{
	struct manifest_side *side[2] = { &m->base, &m->head };
	static const char *const name[2] = { "base", "head" };
	const char *s;
	int i;

	for (i = BASE; i <= HEAD; i++) {
		if (side[i]->subject && *side[i]->subject)
			continue;
		s = result_root_job_str(&in->root[i], "subject");
		if (!s || !*s)
			return pb_fail(err, EX_DATAERR, "%s: '%s.subject' is "
				       "missing, and so is the subject of %s's "
				       "job.yaml: the report quotes each "
				       "commit's subject line", m->doc.name,
				       name[i], name[i]);
		side[i]->subject = s;
	}
	return 0;
}

/* A report on a posted patch answers it: its subject and thread. */
static int patch_thread(struct report *r, const struct manifest *m,
			struct pb_err *err)
{
	const struct manifest_patch *p = &m->patch;
	struct strbuf irt = STRBUF_INIT;

	if (!p->message_id)
		return 0;
	r->references = thread_references((const char *const *)p->references,
					  p->nreferences, NULL,
					  p->message_id);
	r->subject = thread_subject(p->subject);
	if (!sb_addf(&irt, "<%s>", p->message_id))
		r->in_reply_to = sb_detach(&irt, NULL);
	sb_release(&irt);
	return r->references && r->in_reply_to && r->subject ? 0 :
		pb_fail(err, EX_OSERR, "out of memory");
}

/* Who sends it, when, under which ids, to whom, in which thread. */
static int address(struct report *r, const struct report_inputs *in,
		   const struct manifest *m, const struct config *cfg,
		   const struct report_opts *o, struct pb_err *err)
{
	r->from = strdup(cfg->identity.from);
	r->date = o->now;
	r->job_yaml = strdup(in->root[HEAD].job_text);
	if (!r->from || !r->job_yaml)
		return pb_fail(err, EX_OSERR, "out of memory");
	if (m->kconfig_file) {
		struct strbuf kc = STRBUF_INIT;

		if (manifest_attach(cfg, m, "kconfig_file", m->kconfig_file, &kc,
				err)) {
			sb_release(&kc);
			return -1;
		}
		r->kconfig = sb_detach(&kc, &r->kconfig_len);
		if (!r->kconfig)
			return pb_fail(err, EX_OSERR, "out of memory");
	}
	r->message_id = identity_message_id(cfg, r->id, r->date, o->draw);
	if (!r->message_id)
		return pb_fail(err, EX_OSERR, "out of memory");
	return patch_thread(r, m, err) ||
		recipients_report(m, cfg, &r->to, &r->cc, err) ? -1 : 0;
}

/* Whose noise the metric's is: the testcase and machine, when known. */
static int noise_of(struct report *r, const struct report_inputs *in)
{
	const char *tc = in->job.testcase, *mc = in->job.tbox_group;

	r->testcase = tc ? strdup(tc) : NULL;
	r->machine = mc ? strdup(mc) : NULL;
	return (tc && !r->testcase) || (mc && !r->machine) ? -1 : 0;
}

/* The headline (forced when asked and the filter hides every metric). */
static int headline(struct report *r, struct report_inputs *in,
		    const struct report_opts *o, struct pb_err *err)
{
	if (noise_of(r, in))
		return pb_fail(err, EX_OSERR, "out of memory");
	if (!in->verdict.headline && o->force_metric &&
	    judge_force(&in->cmp, in->rules, o->force_metric, &in->verdict))
		return -1;
	if (!in->verdict.headline)
		return candidate(r, in, err);
	r->worth = 1;
	r->metric = strdup(in->verdict.headline->name);
	r->change = in->verdict.headline->change;
	if (!r->metric || evidence_of_row(in->verdict.headline, &r->evidence))
		return pb_fail(err, EX_OSERR, "out of memory");
	return 0;
}

static int text(struct report *r, const struct report_inputs *in,
		const struct manifest *m, const struct config *cfg,
		const struct report_opts *o, struct pb_err *err)
{
	struct report_links l = { NULL, NULL };
	int rc;

	l.closes_url = identity_closes_url(cfg, r->id, r->message_id);
	l.patch_link = m->patch.message_id ?
		identity_patch_link(cfg, m->patch.link, m->patch.message_id) :
		NULL;
	rc = report_render(r, in, m, cfg, o, &l, err);
	free((char *)l.closes_url);
	free((char *)l.patch_link);
	return rc;
}

int report_make(struct report *r, const struct manifest *mf,
		const struct config *cfg, const struct report_opts *o,
		struct pb_err *err)
{
	struct manifest copy = *mf, *m = &copy;	/* with the subjects */
	struct report_inputs in;
	int rc = -1;

	memset(r, 0, sizeof(*r));
	if (report_inputs_load_opts(&in, m, cfg, o->inputs, err))
		goto out;
	r->id = m->id ? strdup(m->id) : id_report(m->base.commit,
		m->head.commit, in.job.axes_keys, in.job.axes_values);
	if (!r->id) {
		pb_fail(err, EX_OSERR, "out of memory");
		goto out;
	}
	memcpy(r->runs, in.cmp.runs, sizeof(r->runs));
	if (headline(r, &in, o, err))
		goto out;
	if (!r->worth) {
		rc = 0;
		goto out;
	}
	if (subjects(m, &in, err) || address(r, &in, m, cfg, o, err) ||
	    text(r, &in, m, cfg, o, err))
		goto out;
	rc = 0;
out:
	report_inputs_release(&in);
	if (rc)
		report_release(r);
	return rc;
}
