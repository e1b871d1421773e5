/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_WEB_SITE_H
#define PERFBOT_WEB_SITE_H

#include <time.h>

#include "perfbot/config/config.h"
#include "perfbot/util/err.h"

/*
 * 'perfbot web': the static site of every report, built from the state
 * (read only) and the reports' result roots into a new tree that then
 * replaces the old one at once (tree.h): a page per report (reportpage.h),
 * the lists (lists.h), feed.atom (feed.h), status.html (statuspage.h)
 * and style.css. A report's page is made again only when its key changed:
 * the key of everything every page depends on (page.h) and the stamp of
 * its thread in the state (archive.h); else the old tree's file is kept.
 * The lists are made each time and kept when their bytes are the same.
 */

struct web_opts {
	const char *out;	/* DIR: the link to the site */
	const char *state;	/* the state's file */
	int full;		/* make every page again */
	time_t now;
};

struct web_stats {
	long reports;		/* in the site */
	long made, reused;	/* report pages made again, kept */
	long written, kept;	/* files written, linked from the old tree */
	int skipped;		/* another instance holds the web build */
};

int web_build(const struct config *cfg, const struct web_opts *o,
	      struct web_stats *ws, struct pb_err *err);

#endif
