/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_WEB_LISTS_H
#define PERFBOT_WEB_LISTS_H

#include <stddef.h>

#include "perfbot/state/archive.h"
#include "perfbot/state/state.h"
#include "perfbot/web/page.h"
#include "perfbot/web/reportpage.h"
#include "perfbot/web/tree.h"

/*
 * The pages that list reports, one line each (date, subject, testcase,
 * headline and change, evidence, status), newest first, in pages of
 * web.per_page lines (templates/web/list.html): index.html (every
 * report; then index-2.html, ...), open.html (those still open, life.h)
 * and one list per testcase, t/<name>.html (then t/<name>~p2.html: "~p"
 * is in no testcase's file name). Every address in them is hidden.
 */

/* A report as the lists know it. */
struct web_entry {
	const struct archive_report *row;
	const struct web_summary *sum;
	const char *path;	/* "r/<name>.html" */
};

/* Every list page of the 'n' entries (newest first) into the new tree. */
int web_lists(const struct web_site *s, struct site_tree *t,
	      const struct web_entry *e, size_t n, struct pb_err *err);

#endif
