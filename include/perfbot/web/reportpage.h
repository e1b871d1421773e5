/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_WEB_REPORTPAGE_H
#define PERFBOT_WEB_REPORTPAGE_H

#include <jansson.h>

#include "perfbot/judge/inputs.h"
#include "perfbot/state/archive.h"
#include "perfbot/util/strbuf.h"
#include "perfbot/web/page.h"

/*
 * The page of one report, r/<id>.html (templates/web/report.html): its
 * facts and status, the commits, the links (archive, materials, the
 * patch, the testcase), the comparison (cmpview.h) on the runs the report
 * was made from (the runs a first retest found; every run when it had
 * none), the mail as it was queued, the thread (thread.h). Its result
 * roots are read through the manifest the state kept; when they cannot be
 * read any more the page says so and shows the rest.
 *
 * The summary is what the lists of reports show of it besides the state's
 * columns (index.html, open.html, the testcase pages, the feed); the site
 * keeps it, so that a page that did not change is not made again.
 */

struct web_summary {
	int ok;			/* its comparison could be read */
	char *testcase;		/* NULL when not known */
	char *metric;		/* the headline, as pages show it */
	char *change;		/* "10.5%" */
	int regression;
	long base_n, head_n;	/* the headline's runs */
	char *welch_p;		/* NULL: no test possible */
};

void web_summary_release(struct web_summary *s);
/* For the site's manifest; NULL when out of memory. */
json_t *web_summary_json(const struct web_summary *s);
/* From it: 0, or -1 (and 's' released) when 'j' is not one. */
int web_summary_from_json(struct web_summary *s, const json_t *j);

/*
 * Make the page of report 'row' into 'out' and its summary into 'sum'
 * (released first). The tables are read through 'cache'.
 */
int web_report_page(const struct web_site *s, struct state *st,
		    struct inputs_cache *cache,
		    const struct archive_report *row, struct strbuf *out,
		    struct web_summary *sum, struct pb_err *err);

/* "r/<name>.html" of report 'id', "t/<name>.html" of a testcase. */
char *web_report_path(const char *id);
char *web_testcase_path(const char *testcase, size_t page);

#endif
