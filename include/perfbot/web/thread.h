/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_WEB_THREAD_H
#define PERFBOT_WEB_THREAD_H

#include "perfbot/render/context.h"
#include "perfbot/state/archive.h"
#include "perfbot/web/mask.h"

/*
 * A report's thread as its page shows it: each mail read in it (when,
 * who sent it, the commands it held, what the bot did, the answer's
 * text), each retest (when, who asked, how many runs, how it ended, the
 * verdict and its answer's text), each test (the same, and what was
 * tested) and the confirmation. The farm's own
 * words about a refused request (paths, exit statuses) are the log's
 * and the state's, never the page's.
 *
 *   replies [{ date, sender, commands [..], outcome, answer { date, text }
 *              or null }],
 *   retests [{ request_id, date, runs, requested_by, queued, done,
 *              rejected, expired, verdict, answer }],
 *   has_tests, tests [{ request_id, date, runs, requested_by, form_patch, form_tree,
 *            form_commit, repo, ref, queued, done, failed, rejected,
 *            expired, verdict, answer }],
 *   confirmation { confirmed, unconfirmed, other, status, detail } or null
 */
void ctx_thread(struct ctx *c, const struct archive_thread *t,
		const struct web_mask *m);

#endif
