/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_REPORT_H
#define PERFBOT_REPORT_H

#include <time.h>
#include <jansson.h>

#include "perfbot/util/addr.h"
#include "perfbot/compare/compare.h"
#include "perfbot/config/config.h"
#include "perfbot/util/err.h"
#include "perfbot/judge/bisect.h"
#include "perfbot/render/context.h"
#include "perfbot/judge/inputs.h"
#include "perfbot/ingest/group.h"
#include "perfbot/ingest/job.h"
#include "perfbot/judge/judge.h"
#include "perfbot/ingest/manifest.h"
#include "perfbot/compare/stats.h"
#include "perfbot/util/strbuf.h"

/*
 * One report (render): the model a report's mail is made from, and its
 * text. The driver (cycle/report.c, report_make()) loads its inputs
 * (inputs.h), fills its ids, recipients and thread (compose), and has
 * report_render() build the template context and render the body and
 * subject through the templates (templates/<name>.txt for the body,
 * templates/subject.txt for the subject). The template context is kept
 * so that the JSON a template author previews with is exactly the one
 * used ('perfbot report MANIFEST --context').
 */

struct report_opts {
	const char *template;	/* NULL: templates.report, else "report" */
	time_t now;		/* the report's date */
	const char *confirmation;	/* a line under the evidence, or NULL */
	const char *force_metric;	/* headline when the filter hides all */
	int draw;		/* > 0: another Message-ID (identity.h) */
	const struct inputs_opts *inputs;	/* NULL, or how the inputs
						 * are read (inputs.h) */
	/*
	 * A bisection that is done (bisect_verdict_of()), or NULL. With a
	 * culprit the manifest is its parent (base) against it (head), the
	 * context's 'bisect' says how it was found and with what caveats,
	 * and the chart of its metric plots its bisect-good and bisect-bad
	 * samples; inconclusive, the manifest is the range and 'bisect'
	 * says where the change is.
	 */
	const struct bisect *bisect;
	const struct bisect_verdict *bisect_v;
	/*
	 * The comparisons of the same commits that follow this one in its
	 * mail ("In addition to that ...", ingest/group.h): the template
	 * contexts of their own reports, in the robot's order, or none.
	 */
	json_t *const *also;
	size_t nalso;
};

struct report {
	int worth;		/* 0: no benchmark change worth a mail */
	int regression;		/* 1, 0 improvement, -1 a change (no direction) */
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
	char *kconfig;		/* the kconfig_file's text, or NULL */
	size_t kconfig_len;
	json_t *ctx;		/* the template context */
	/* what the confirmation needs (trigger.h) */
	char *metric;		/* the headline, or the candidate key metric */
	double change;		/* its %change */
	struct evidence evidence;	/* its tests */
	size_t runs[2];		/* runs of base and head */
	int candidate;		/* !worth, but the key metric looks changed */
	char *testcase, *machine;	/* whose learned noise sizes the
					 * confirmation (job.yaml's
					 * testcase, tbox_group), or NULL */
};

/* The links the driver made for the text (NULL when there is none). */
struct report_links {
	const char *closes_url;	/* identity.archive_url of the report */
	const char *patch_link;	/* the posted patch the report answers */
};

/*
 * The context, body and subject of 'r' (whose id, message_id, to and,
 * for a report on a posted patch, subject the driver set) from its
 * inputs 'in' and manifest 'm'. 0, or -1 with 'err' (a missing value of
 * the context is named); report_release() after in both cases.
 */
int report_render(struct report *r, const struct report_inputs *in,
		  const struct manifest *m, const struct config *cfg,
		  const struct report_opts *o, const struct report_links *l,
		  struct pb_err *err);

/* Free what 'r' holds; safe on a zeroed report, and twice. */
void report_release(struct report *r);

/*
 * 'bisect' of 'parent': null without 'b', else how the bisection ended
 * (templates/bisect.txt reads it): the culprit's line and what makes it
 * less certain, or "inconclusive" with the range. For the report and
 * the answer to a 'bisect' command alike.
 */
void report_bisect_ctx(struct ctx *parent, const struct bisect *b,
		       const struct bisect_verdict *v);

/*
 * 'also' of context 'c': the comparisons that follow the report's own,
 * from their reports' contexts (each one's testcase, headline, machine,
 * parameters and table); and 'also_box', the robot's box of them (its
 * changes as the modern robot prints them, the sign a space), and
 * 'also_box_signed' (as the classic robot: signed), or null when there
 * are none (render/also.c).
 */
void report_also_ctx(struct ctx *c, json_t *const *also, size_t n);

/*
 * A grouped report's other comparisons gathered for an answer that
 * lists them: report_also_add() adds one as report_also_ctx() reads it
 * (testcase, headline's metric, change and kind, machine, tbox_group,
 * parameters, table; its headline's words empty when it has none), 0 or
 * -1 with 'err'; report_also_list_ctx() is report_also_ctx() of them;
 * report_also_list_release() after (safe on REPORT_ALSO_LIST_INIT).
 */
struct report_also_list {
	json_t *v[GROUP_MAX_MEMBERS];
	size_t n;
};
#define REPORT_ALSO_LIST_INIT { { NULL }, 0 }
int report_also_add(struct report_also_list *l,
		    const struct report_inputs *in, const struct manifest *m,
		    struct pb_err *err);
void report_also_list_ctx(struct ctx *c, const struct report_also_list *l);
void report_also_list_release(struct report_also_list *l);

/* "regression", "improvement" or, of no known direction, "change". */
const char *report_kind_word(const struct report_inputs *in);

/* The job's parameters as the templates list them ({key, value}). */
json_t *report_params_json(const struct job_axes *ji);

/* The comparison table of 'in' with its LKP header. */
int report_table_text(const struct report_inputs *in,
		      const struct manifest *m, struct strbuf *out);

#endif
