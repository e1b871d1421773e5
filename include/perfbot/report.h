/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_REPORT_H
#define PERFBOT_REPORT_H

#include <time.h>
#include <jansson.h>

#include "perfbot/addr.h"
#include "perfbot/compare.h"
#include "perfbot/config.h"
#include "perfbot/err.h"
#include "perfbot/inputs.h"
#include "perfbot/job.h"
#include "perfbot/judge.h"
#include "perfbot/manifest.h"
#include "perfbot/stats.h"
#include "perfbot/strbuf.h"

/*
 * One report (render): a manifest's inputs (inputs.h) rendered through
 * the templates (templates/<name>.txt for the body, templates/subject.txt
 * for the subject), with its recipients and identity (compose). The
 * template context is kept so that the JSON a template author previews
 * with is exactly the one used ('perfbot report MANIFEST --context').
 *
 * A manifest with 'patch' makes the report a reply to that patch mail:
 * Subject "Re: " + its subject, In-Reply-To its Message-ID, References its
 * thread, its To and Cc copied (recipients.max_cc of them at most), and
 * 'patch' in the context (link built from identity.patch_archive_url when
 * the manifest gives none).
 */

struct report_opts {
	const char *template;	/* NULL: templates.report, else "report" */
	time_t now;		/* the report's date */
	const char *confirmation;	/* a line under the evidence, or NULL */
	const char *force_metric;	/* headline when the filter hides all */
};

struct report {
	int worth;		/* 0: no benchmark change worth a mail */
	int regression;
	char *id;		/* the manifest id or the derived one */
	char *message_id;	/* without the angle brackets */
	time_t date;
	char *from;
	struct addrlist to;	/* "Name <addr>" as given */
	struct addrlist cc;
	char *subject;		/* one line, no control characters */
	char *in_reply_to;	/* "<id>" of the patch it answers, or NULL */
	char *references;	/* the patch's thread, or NULL */
	char *body;
	char *job_yaml;		/* the head's job.yaml text, for attaching */
	char *kconfig_file;	/* or NULL */
	json_t *ctx;		/* the template context */
	/* what the confirmation needs (trigger.h) */
	char *metric;		/* the headline, or the candidate key metric */
	double change;		/* its %change */
	struct evidence evidence;	/* its tests */
	size_t runs[2];		/* runs of base and head */
	int candidate;		/* !worth, but the key metric looks changed */
};

int report_build(struct report *r, const struct manifest *m,
		 const struct config *cfg, const struct report_opts *o,
		 struct pb_err *err);
void report_release(struct report *r);

/* The comparison table of 'in' with its LKP header. */
int report_table_text(const struct report_inputs *in,
		      const struct manifest *m, struct strbuf *out);

#endif
