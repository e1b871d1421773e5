/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_ARCHIVE_H
#define PERFBOT_ARCHIVE_H

#include <stddef.h>
#include <time.h>

#include "perfbot/state/state.h"

/*
 * The state read back for the web archive (record stage, read only):
 * every report the outbox holds with what its index line needs, and for
 * one report everything its page shows: the mail as queued, the manifest
 * it was made from, the replies read in its thread, the answers sent,
 * its retests, its tests and its confirmation. Every string is malloc'd (NULL where
 * the state has none); each list is oldest first unless said otherwise.
 */

struct archive_report {
	char *id, *message_id, *subject;
	char *status;		/* "queued", "sent", "failed" */
	time_t created, sent_at;	/* sent_at 0: not sent */
	long replies;		/* mails read in its thread */
	long retests, retests_open;
	char *verdict;		/* the newest finished retest's, or NULL */
	char *retest_status;	/* the newest retest's status, or NULL */
	char *confirm;		/* the confirmation's status, or NULL */
	char *record;		/* its record's status (records.h), "open"
				 * when it has no row */
	char *record_verdict;	/* what the run on its landed fix said
				 * (tracking.verify), or NULL */
	/*
	 * Changes whenever anything the report's page shows changes in the
	 * state (the mail's status, a reply, an answer, a retest, a test,
	 * the confirmation, its record): the web archive rebuilds the page
	 * then only.
	 */
	char *stamp;
};

/* Every report, newest first. Free with archive_reports_free(). */
int state_archive_reports(struct state *st, struct archive_report **out,
			  size_t *n, struct pb_err *err);
void archive_reports_free(struct archive_report *r, size_t n);

struct archive_mail {
	char *id, *message_id, *status;
	char *recipients;	/* JSON list of the envelope's addresses */
	char *message;		/* the bytes as queued */
	size_t len;
	time_t created, sent_at;
};

struct archive_reply {
	char *message_id, *sender, *outcome;
	char *commands;		/* JSON list of the command lines, or NULL */
	time_t received;
};

struct archive_retest {
	char *request_id, *requested_by, *reply_message_id, *status;
	char *detail;		/* the verdict, or why it ended */
	long runs, base_runs, head_runs;	/* asked; runs when asked */
	time_t created;
};

struct archive_test {
	char *request_id, *requested_by, *reply_message_id, *status;
	char *form;		/* "patch", "tree", "commit" */
	char *repo, *ref;	/* a tree's or a commit's, or NULL */
	char *detail;		/* the verdict, or why it ended */
	long runs;
	time_t created;
};

struct archive_thread {
	struct archive_mail report;
	char *manifest, *text, *dir;	/* what it was made from, or NULL */
	struct archive_reply *replies;
	size_t nreplies;
	struct archive_mail *answers;
	size_t nanswers;
	struct archive_retest *retests;
	size_t nretests;
	struct archive_test *tests;
	size_t ntests;
	char *confirm_status, *confirm_detail;	/* NULL: never held */
	long confirm_runs;
	time_t confirm_decided;
};

/*
 * Everything of report 'report_id'; '*found' 0 (and 't' empty) when the
 * outbox has no such report. Release 't' with archive_thread_release(),
 * whatever happened.
 */
int state_archive_thread(struct state *st, const char *report_id,
			 struct archive_thread *t, int *found,
			 struct pb_err *err);
void archive_thread_release(struct archive_thread *t);

#endif
