// SPDX-License-Identifier: GPL-2.0-only
/*
 * The cycle's last steps: delivering the outbox (with the summary line,
 * and why queued mail waits), or, for --dry-run, printing what was queued
 * already after the new reports (which ingest printed as it made them):
 * every mail that would go out, as an mbox.
 */
#include <stdio.h>

#include "perfbot/util/log.h"
#include "perfbot/compose/mail.h"
#include "perfbot/state/status.h"
#include "perfbot/state/outbox.h"

#include "steps.h"

int cycle_print_mail(const char *sender, time_t date, const char *msg,
		     size_t len, struct pb_err *err)
{
	struct strbuf one = STRBUF_INIT;
	int rc = mbox_append(&one, sender, date, msg, len) ?
		pb_fail(err, EX_OSERR, "out of memory") : 0;

	if (!rc && fwrite(one.buf, 1, one.len, stdout) != one.len)
		rc = pb_fail(err, EX_IOERR, "stdout: write failed");
	sb_release(&one);
	return rc;
}

/* --dry-run: what is already queued would go out too (after the new). */
int cycle_print(struct cycle *cy, struct pb_err *err)
{
	struct outbox_mail m;
	long long *q = NULL;
	size_t i, n = 0;
	int rc = 0, found;

	/* one mail's bytes at a time, however long the queue */
	if (cy->have_state && state_queued_rows(cy->st, &q, &n, err))
		return -1;
	for (i = 0; i < n && !rc; i++) {
		rc = state_mail(cy->st, q[i], &m, &found, err);
		if (!rc && found)
			rc = cycle_print_mail(m.sender, cy->now, m.message,
					      m.len, err);
		outbox_mail_release(&m);
	}
	free(q);
	if (!rc && fflush(stdout))
		rc = pb_fail(err, EX_IOERR, "stdout: write failed");
	/* what a preview cannot show without acting: said, not implied */
	if (!rc)
		log_info("run --dry-run: printed the new reports and the "
			 "queued mail; replies were not read, so their "
			 "answers and the retests' follow-ups are not shown "
			 "('perfbot poll' and 'perfbot retest' act on them)");
	return rc;
}

/* Why queued mail did not go: the next attempt and the last error. */
static void tell_waiting(struct cycle *cy, long queued)
{
	struct status_next nx;
	char when[64];

	if (!queued || state_next_attempt(cy->st, &nx, NULL))
		return;
	if (nx.when > cy->now) {
		status_when(nx.when, cy->now, when, sizeof(when));
		log_info("%s: %ld mail%s waiting; next attempt %s%s%s "
			 "('perfbot send --now' tries at once)", cy->cmd,
			 queued, queued == 1 ? "" : "s", when,
			 nx.last_error ? " after: " : "",
			 nx.last_error ? nx.last_error : "");
	}
	status_next_release(&nx);
}

int cycle_deliver(struct cycle *cy, struct pb_err *err)
{
	struct send_stats *ss = &cy->ss;
	long queued = 0, failed = 0, reset = 0;
	int rc = 0;

	if (cy->retry_now) {
		/* every queued mail, the due ones and those made due */
		rc = state_retry_now(cy->st, cy->now, &reset, err) ||
		     state_counts(cy->st, &queued, &failed, err);
		if (!rc)
			log_info("%s: %ld queued mail%s tried now (%ld of "
				 "them held back by their backoff)", cy->cmd,
				 queued, queued == 1 ? "" : "s", reset);
	}
	if (!rc)
		rc = outbox_deliver(cy->st, cy->cfg, cy->now, 1, ss, err);
	if (state_counts(cy->st, &queued, &failed, NULL) == 0) {
		/* --quiet: silent unless a mail failed or is held back */
		if (ss->failed || ss->deferred)
			log_warn("%s: %ld sent, %ld queued, %ld failed",
				 cy->cmd, ss->sent, queued, ss->failed);
		else
			log_info("%s: %ld sent, %ld queued, %ld failed",
				 cy->cmd, ss->sent, queued, ss->failed);
		if (!rc && !ss->deferred)
			tell_waiting(cy, queued);
	}
	return rc;
}
