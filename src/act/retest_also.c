// SPDX-License-Identifier: GPL-2.0-only
/*
 * act: the retest of a grouped report (issue 31 item 2; ingest/group.h):
 * its other comparisons, kept with its manifest, asked of the farm with
 * its own under the same request, and shown over all their runs in the
 * answer (render/also.c). The verdict stays the report's own test's.
 */
#include <stdlib.h>
#include <string.h>

#include "perfbot/act/followup.h"
#include "perfbot/act/kind.h"
#include "perfbot/render/report.h"
#include "perfbot/util/log.h"

#include "retest_internal.h"

void retest_also_release(struct retest_also *a)
{
	size_t i;

	for (i = 0; a->in && i < a->loaded; i++)
		report_inputs_release(&a->in[i]);
	free(a->in);
	followup_also_release(a->m, a->n);
	memset(a, 0, sizeof(*a));
}

void retest_also_ask(struct state *st, const struct config *cfg,
		     const char *report_id, const char *request_id, int runs,
		     const char *thread, struct retest_also *a,
		     struct kind_asking *q)
{
	struct pb_err e = { 0, "" };
	size_t i;

	memset(a, 0, sizeof(*a));
	if (q->refused)
		return;
	if (followup_also(st, cfg, report_id, &a->m, &a->n, &e)) {
		log_warn("retest of '%s': its other tests are not rerun: %s",
			 report_id, e.msg);
		return;
	}
	if (a->n && !(a->in = calloc(a->n, sizeof(*a->in))))
		return;
	for (i = 0; i < a->n && q->nfarm + 2 <= KIND_MAX_FARM; i++) {
		struct report_inputs *in = &a->in[a->loaded];

		if (report_inputs_load(in, &a->m[i], cfg, &e)) {
			log_warn("retest of '%s': a test is not rerun: %s",
				 report_id, e.msg);
			pb_err_clear(&e);
			continue;
		}
		a->loaded++;
		retest_side_request(&q->farm[q->nfarm++], request_id, in,
			     &a->m[i].base, BASE, runs, thread);
		retest_side_request(&q->farm[q->nfarm++], request_id, in,
			     &a->m[i].head, HEAD, runs, thread);
	}
}

/*
 * A grouped report's other comparisons over all their runs now, for the
 * answer (render/also.c); one that cannot be read is left out.
 */
void retest_also_ctx(struct ctx *c, const struct kind_fu *f,
		     const struct config *cfg)
{
	struct report_also_list l = REPORT_ALSO_LIST_INIT;
	size_t i;

	for (i = 0; i < f->nalso && l.n < GROUP_MAX_MEMBERS; i++) {
		struct pb_err e = { 0, "" };
		struct report_inputs in;

		if (report_inputs_load(&in, &f->also[i], cfg, &e)) {
			log_warn("retest of '%s': a test is left out: %s",
				 f->row->report_id, e.msg);
			continue;
		}
		report_also_add(&l, &in, &f->also[i], &e);
		report_inputs_release(&in);
	}
	report_also_list_ctx(c, &l);
	report_also_list_release(&l);
}
