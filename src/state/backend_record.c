// SPDX-License-Identifier: GPL-2.0-only
/*
 * record: the rest of the state's front (backend.h; backend.c has the
 * choice of the backend, the handle and the mail's tables): the calls of
 * the record side's operations, the records, the farm's requests and
 * bisections, the web archive, pruning and status, through the open
 * state's backend.
 */
#include "internal.h"

/* ---- bisections.h ---- */

int state_bisection_add(struct state *st, const char *bisect_id,
			const char *report_id, const char *phase,
			const char *state_json, const char *job,
			const char *manifest, time_t deadline, time_t now,
			struct pb_err *err)
{
	return st->be->bisections->bisection_add(st, bisect_id, report_id,
						 phase, state_json, job,
						 manifest, deadline, now, err);
}

int state_bisection_set(struct state *st, const char *bisect_id,
			const char *phase, const char *state_json, time_t now,
			struct pb_err *err)
{
	return st->be->bisections->bisection_set(st, bisect_id, phase,
						 state_json, now, err);
}

int state_bisection_get(struct state *st, const char *bisect_id,
			struct bisection_row **out, struct pb_err *err)
{
	return st->be->bisections->bisection_get(st, bisect_id, out, err);
}

int state_bisections(struct state *st, const char *report_id, int open,
		     struct bisection_row **out, size_t *n, struct pb_err *err)
{
	return st->be->bisections->bisections(st, report_id, open, out, n, err);
}

/* ---- noise.h ---- */

int state_noise_add(struct state *st, const char *testcase, const char *machine,
		    const char *metric, double cv, long df, time_t now,
		    struct pb_err *err)
{
	return st->be->noise->noise_add(st, testcase, machine, metric, cv, df,
					now, err);
}

int state_noise_all(struct state *st, const char *testcase, const char *machine,
		    const char *metric, struct state_noise **out, size_t *n,
		    size_t *at, struct pb_err *err)
{
	return st->be->noise->noise_all(st, testcase, machine, metric, out, n,
					at, err);
}

/* ---- archive.h ---- */

int state_archive_reports(struct state *st, struct archive_report **out,
			  size_t *n, struct pb_err *err)
{
	return st->be->archive->archive_reports(st, out, n, err);
}

int state_archive_thread(struct state *st, const char *report_id,
			 struct archive_thread *t, int *found,
			 struct pb_err *err)
{
	return st->be->archive->archive_thread(st, report_id, t, found, err);
}

/* ---- prune.h ---- */

int state_done_roots(struct state *st, time_t before, struct done_root **out,
		     size_t *n, struct pb_err *err)
{
	return st->be->prune->done_roots(st, before, out, n, err);
}

/* ---- records.h ---- */

int state_record_open(struct state *st, const char *report_id,
		      const char *metric, double change, int regression,
		      time_t now, struct pb_err *err)
{
	return st->be->records->record_open(st, report_id, metric, change,
					    regression, now, err);
}

int state_record_get(struct state *st, const char *report_id, struct record *r,
		     int *found, struct pb_err *err)
{
	return st->be->records->record_get(st, report_id, r, found, err);
}

int state_record_find(struct state *st, const char *key, char **report_id,
		      struct pb_err *err)
{
	return st->be->records->record_find(st, key, report_id, err);
}

int state_record_by_subject(struct state *st, const char *subject, char **ids,
			    size_t max, size_t *n, struct pb_err *err)
{
	return st->be->records->record_by_subject(st, subject, ids, max, n,
						  err);
}

int state_records(struct state *st, const char *statuses, int regressions_only,
		  struct record **out, size_t *n, struct pb_err *err)
{
	return st->be->records->records(st, statuses, regressions_only, out, n,
					err);
}

int state_record_put(struct state *st, const struct record *r,
		     const struct record_event *ev, time_t now,
		     struct pb_err *err)
{
	return st->be->records->record_put(st, r, ev, now, err);
}

int state_record_events(struct state *st, const char *report_id,
			struct record_event **out, size_t *n,
			struct pb_err *err)
{
	return st->be->records->record_events(st, report_id, out, n, err);
}

int state_track_tip(struct state *st, const char *branch, char **tip,
		    struct pb_err *err)
{
	return st->be->records->track_tip(st, branch, tip, err);
}

int state_track_set(struct state *st, const char *branch, const char *tip,
		    time_t now, struct pb_err *err)
{
	return st->be->records->track_set(st, branch, tip, now, err);
}

int state_reminder_last(struct state *st, time_t *when, long *count,
			struct pb_err *err)
{
	return st->be->records->reminder_last(st, when, count, err);
}

int state_reminder_add(struct state *st, const char *id, const char *lines,
		       time_t now, struct pb_err *err)
{
	return st->be->records->reminder_add(st, id, lines, now, err);
}

int state_route_reminder(struct state *st, const char *const *ids, size_t n,
			 char **reminder_id, struct pb_err *err)
{
	return st->be->records->route_reminder(st, ids, n, reminder_id, err);
}

int state_reminder_line(struct state *st, const char *id, long line,
			char **report_id, struct pb_err *err)
{
	return st->be->records->reminder_line(st, id, line, report_id, err);
}

/* ---- requests.h ---- */

int state_request_add(struct state *st, const struct request_new *rq,
		      time_t now, struct pb_err *err)
{
	return st->be->requests->request_add(st, rq, now, err);
}

int state_requests_open(struct state *st, const char *kind,
			struct request **out, size_t *n, struct pb_err *err)
{
	return st->be->requests->requests_open(st, kind, out, n, err);
}

int state_requests_of(struct state *st, const char *report_id, const char *kind,
		      struct request **out, size_t *n, struct pb_err *err)
{
	return st->be->requests->requests_of(st, report_id, kind, out, n, err);
}

int state_request_get(struct state *st, const char *request_id,
		      struct request **out, struct pb_err *err)
{
	return st->be->requests->request_get(st, request_id, out, err);
}

int state_request_set(struct state *st, const char *request_id,
		      const char *status, const char *verdict,
		      const char *detail, time_t now, struct pb_err *err)
{
	return st->be->requests->request_set(st, request_id, status, verdict,
					     detail, now, err);
}

int state_request_tally(struct state *st, const char *kind,
			const char *report_id, const char *sender, time_t since,
			struct request_tally *t, struct pb_err *err)
{
	return st->be->requests->request_tally(st, kind, report_id, sender,
					       since, t, err);
}

int state_confirm_hold(struct state *st, const struct request_new *c,
		       const char *manifest, const char *text, const char *dir,
		       time_t now, struct pb_err *err)
{
	return st->be->requests->confirm_hold(st, c, manifest, text, dir, now,
					      err);
}

int state_confirm_set(struct state *st, const struct request *c,
		      const char *status, const char *verdict,
		      const char *detail, time_t now, struct pb_err *err)
{
	return st->be->requests->confirm_set(st, c, status, verdict, detail,
					     now, err);
}

int state_confirm_more(struct state *st, const char *report_id,
		       const char *request_id, long runs, struct pb_err *err)
{
	return st->be->requests->confirm_more(st, report_id, request_id, runs,
					      err);
}

int state_request_look(struct state *st, const char *request_id,
		       const char *new_id, long runs, time_t deadline,
		       struct pb_err *err)
{
	return st->be->requests->request_look(st, request_id, new_id, runs,
					      deadline, err);
}

/* ---- status.h ---- */

int state_status(struct state *st, time_t now, struct status *out, struct pb_err *err)
{
	return st->be->status->status(st, now, out, err);
}

int state_next_attempt(struct state *st, struct status_next *nx,
		       struct pb_err *err)
{
	return st->be->status->next_attempt(st, nx, err);
}

int state_retry_now(struct state *st, time_t now, long *n, struct pb_err *err)
{
	return st->be->status->retry_now(st, now, n, err);
}

int state_request_claim(struct state *st, const char *request_id, time_t now,
			long ttl, int *claimed, struct pb_err *err)
{
	return st->be->requests->request_claim(st, request_id, now, ttl,
					       claimed, err);
}

int state_request_release(struct state *st, const char *request_id,
			  struct pb_err *err)
{
	return st->be->requests->request_release(st, request_id, err);
}

int state_bisection_claim(struct state *st, const char *bisect_id, time_t now,
			  long ttl, int *claimed, struct pb_err *err)
{
	return st->be->bisections->bisection_claim(st, bisect_id, now, ttl,
						   claimed, err);
}

int state_bisection_release(struct state *st, const char *bisect_id,
			    struct pb_err *err)
{
	return st->be->bisections->bisection_release(st, bisect_id, err);
}
