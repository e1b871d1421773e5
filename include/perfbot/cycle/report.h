/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_CYCLE_REPORT_H
#define PERFBOT_CYCLE_REPORT_H

#include "perfbot/config/config.h"
#include "perfbot/ingest/manifest.h"
#include "perfbot/render/report.h"

/*
 * Where a report is made: the one driver of the report flow. A manifest's
 * inputs are loaded, compared and judged (judge/inputs.c); when a
 * benchmark metric is worth a mail the report gets its id, Message-ID,
 * recipients and thread (compose) and its text (render). The cycle's
 * ingest and its confirmations, and 'perfbot report', all come here; the
 * mail is then composed with report_compose() (compose/reportmail.c).
 *
 * A manifest with 'patch' makes the report a reply to that patch mail:
 * Subject "Re: " + its subject, In-Reply-To its Message-ID, References its
 * thread, its To and Cc copied (recipients.max_cc of them at most), and
 * 'patch' in the context (link built from identity.patch_archive_url when
 * the manifest gives none).
 *
 * 0 with r->worth set when the comparison is worth a mail (r->candidate
 * when it is not, but its key metric may be: confirmation decides);
 * -1 with 'err' for bad input. 'r' needs no initialisation and is always
 * to be released with report_release().
 */
int report_make(struct report *r, const struct manifest *m,
		const struct config *cfg, const struct report_opts *o,
		struct pb_err *err);

#endif
