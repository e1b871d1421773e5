// SPDX-License-Identifier: GPL-2.0-only
/*
 * act: the state machine of a regression's record (regression.h): which
 * event is possible in which status, and what it leaves; nothing here
 * touches the state.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/act/regression.h"

static const char *const status_names[REG_NSTATUS] = {
	"open", "fix named", "fix landed", "fixed", "not fixed", "invalid",
	"duplicate",
};

static const char *const event_names[REG_NEVENTS] = {
	"fix:", "unfix", "dup:", "undup", "invalid", "reopen",
	"set no-reminders", "unset no-reminders", "landed", "reverted",
	"left the branch", "verified",
};

const char regression_open_json[] =
	"[\"open\", \"fix named\", \"fix landed\", \"not fixed\"]";

const char *regression_status_name(enum reg_status s)
{
	return s < REG_NSTATUS ? status_names[s] : "open";
}

int regression_status_of(const char *name)
{
	int i;

	for (i = 0; name && i < REG_NSTATUS; i++)
		if (!strcmp(status_names[i], name))
			return i;
	return -1;
}

const char *regression_event_name(enum reg_event ev)
{
	return ev < REG_NEVENTS ? event_names[ev] : "?";
}

int regression_closed(enum reg_status s)
{
	return s == REG_FIXED || s == REG_INVALID || s == REG_DUPLICATE;
}

/*
 * What an event leaves: the new status and each field that changes. A
 * field to keep is KEEP; NULL clears it.
 */
static const char KEEP[] = "";

enum field {
	F_NAMED, F_COMMIT, F_SUMMARY, F_BRANCH, F_DUP, F_REASON, F_VERIFY,
	F_VERDICT, NFIELDS
};

struct next {
	int status;
	const char *f[NFIELDS];	/* KEEP, NULL or the new value */
	time_t fix_date;	/* -1: keep */
	int no_reminders;	/* -1: keep */
	int searched;		/* -1: keep */
};

static void keep_all(struct next *n, int status)
{
	size_t i;

	n->status = status;
	for (i = 0; i < NFIELDS; i++)
		n->f[i] = KEEP;
	n->fix_date = -1;
	n->no_reminders = n->searched = -1;
}

/* The fix's landing and its run: what leaves with the fix. */
static void no_landing(struct next *n)
{
	n->f[F_COMMIT] = n->f[F_SUMMARY] = n->f[F_BRANCH] = NULL;
	n->f[F_VERIFY] = n->f[F_VERDICT] = NULL;
	n->fix_date = 0;
	/* a named fix re-applied later is found by its title again */
	n->searched = 0;
}

/* No fix at all: what 'unfix', a reopening, a new 'fix:' start from. */
static void no_fix(struct next *n)
{
	no_landing(n);
	n->f[F_NAMED] = NULL;
}

static int same(const char *a, const char *b)
{
	return a && b && !strcmp(a, b);
}

static int refuse(char *why, size_t n, const char *fmt, const char *arg)
{
	snprintf(why, n, fmt, arg);
	return -1;
}

static int on_fix(const struct record *r, int s, const struct reg_change *ch,
		  struct next *n, char *why, size_t wl)
{
	if (s == REG_FIX_LANDED || s == REG_FIXED)
		return refuse(why, wl, "its fix %.40s has landed already "
			      "('unfix' first)", r->fix_commit ?
			      r->fix_commit : "");
	if (regression_closed(s))
		return refuse(why, wl, "it is %s ('reopen' first)",
			      status_names[s]);
	if (s == REG_FIX_NAMED && same(r->fix_named, ch->arg))
		return 1;
	no_fix(n);
	n->status = REG_FIX_NAMED;
	n->f[F_NAMED] = ch->arg;
	return 0;
}

/*
 * A fix found in a tracked branch. Invalid and duplicate reports are not
 * followed, a fixed one was verified already; the same commit again (a
 * second branch, a walk done twice) changes nothing, a rewritten one (a
 * force-push) replaces it.
 */
static int on_landed(const struct record *r, int s,
		     const struct reg_change *ch, struct next *n)
{
	if (regression_closed(s) ||
	    (s == REG_FIX_LANDED && same(r->fix_commit, ch->commit)))
		return 1;
	n->status = REG_FIX_LANDED;
	n->f[F_COMMIT] = ch->commit;
	n->f[F_SUMMARY] = ch->summary;
	n->f[F_BRANCH] = ch->branch;
	n->fix_date = ch->date;
	n->f[F_VERIFY] = n->f[F_VERDICT] = NULL;
	return 0;
}

/* The event on the record's fix: fix:, unfix, landed, reverted, left. */
static int fix_event(const struct record *r, int s,
		     const struct reg_change *ch, struct next *n, char *why,
		     size_t wl)
{
	switch (ch->ev) {
	case REG_EV_FIX:
		return on_fix(r, s, ch, n, why, wl);
	case REG_EV_UNFIX:
		if (!r->fix_named && !r->fix_commit)
			return refuse(why, wl, "no fix is named%s", "");
		no_fix(n);
		n->status = REG_OPEN;
		return 0;
	case REG_EV_LANDED:
		return on_landed(r, s, ch, n);
	default:	/* reverted, left the branch */
		if (!r->fix_commit || (s != REG_FIX_LANDED && s != REG_FIXED &&
				       s != REG_NOT_FIXED))
			return 1;
		no_landing(n);
		n->status = r->fix_named ? REG_FIX_NAMED : REG_OPEN;
		return 0;
	}
}

/* dup:, undup, invalid, reopen. */
static int close_event(const struct record *r, int s,
		       const struct reg_change *ch, struct next *n, char *why,
		       size_t wl)
{
	switch (ch->ev) {
	case REG_EV_DUP:
		if (!ch->arg || same(ch->arg, r->report_id))
			return refuse(why, wl, "a report cannot duplicate "
				      "itself%s", "");
		if (s == REG_DUPLICATE && same(r->dup_of, ch->arg))
			return 1;
		no_fix(n);	/* the other report's fix is this one's */
		n->status = REG_DUPLICATE;
		n->f[F_DUP] = ch->arg;
		n->f[F_REASON] = NULL;
		return 0;
	case REG_EV_UNDUP:
		if (s != REG_DUPLICATE)
			return refuse(why, wl, "it is no duplicate (it is %s)",
				      status_names[s]);
		no_fix(n);
		n->status = REG_OPEN;
		n->f[F_DUP] = NULL;
		return 0;
	case REG_EV_INVALID:
		if (s == REG_INVALID && (!ch->arg || same(r->reason, ch->arg)))
			return 1;
		n->status = REG_INVALID;
		n->f[F_REASON] = ch->arg;
		n->f[F_DUP] = NULL;
		return 0;
	default:	/* reopen */
		if (!regression_closed(s))
			return 1;
		no_fix(n);
		n->status = REG_OPEN;
		n->f[F_DUP] = n->f[F_REASON] = NULL;
		return 0;
	}
}

static int on_verified(int s, const struct reg_change *ch, struct next *n)
{
	if (s != REG_FIX_LANDED)
		return 1;	/* the fix went, or was verified already */
	n->f[F_VERDICT] = ch->arg;
	n->status = same(ch->arg, "fixed") ? REG_FIXED :
		!ch->arg || same(ch->arg, "inconclusive") ? REG_FIX_LANDED :
		REG_NOT_FIXED;
	return 0;
}

/* The decision; 'n' starts as "keep everything". */
static int decide(const struct record *r, const struct reg_change *ch,
		  struct next *n, char *why, size_t wl)
{
	int s = regression_status_of(r->status);

	if (s < 0)
		s = REG_OPEN;	/* a word of a newer perfbot: as open */
	keep_all(n, s);
	switch (ch->ev) {
	case REG_EV_FIX:
	case REG_EV_UNFIX:
	case REG_EV_LANDED:
	case REG_EV_REVERTED:
	case REG_EV_LEFT:
		return fix_event(r, s, ch, n, why, wl);
	case REG_EV_DUP:
	case REG_EV_UNDUP:
	case REG_EV_INVALID:
	case REG_EV_REOPEN:
		return close_event(r, s, ch, n, why, wl);
	case REG_EV_NO_REMINDERS:
	case REG_EV_REMINDERS:
		if (!r->no_reminders == (ch->ev == REG_EV_REMINDERS))
			return 1;
		n->no_reminders = ch->ev == REG_EV_NO_REMINDERS;
		return 0;
	case REG_EV_VERIFIED:
		return on_verified(s, ch, n);
	default:
		return refuse(why, wl, "unknown event%s", "");
	}
}

/* One field: 'v' KEEP, NULL or a new value (copied into '*tmp'). */
static int copy(const char *v, char **tmp)
{
	*tmp = NULL;
	if (v == KEEP || !v)
		return 0;
	*tmp = strdup(v);
	return *tmp ? 0 : -1;
}

int regression_next(struct record *r, const struct reg_change *ch,
		    char *why, size_t whylen)
{
	char **fields[NFIELDS] = { &r->fix_named, &r->fix_commit,
		&r->fix_summary, &r->fix_branch, &r->dup_of, &r->reason,
		&r->verify_request, &r->verdict };
	char *tmp[NFIELDS], *status;
	struct next n;
	int rc, oom;
	size_t i;

	rc = decide(r, ch, &n, why, whylen);
	if (rc)
		return rc;
	status = strdup(status_names[n.status]);
	oom = !status;
	for (i = 0; i < NFIELDS; i++)
		oom |= copy(n.f[i], &tmp[i]);
	if (oom) {
		for (i = 0; i < NFIELDS; i++)
			free(tmp[i]);
		free(status);
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	free(r->status);
	r->status = status;
	for (i = 0; i < NFIELDS; i++) {
		if (n.f[i] == KEEP)
			continue;
		free(*fields[i]);
		*fields[i] = tmp[i];
	}
	if (n.fix_date >= 0)
		r->fix_date = n.fix_date;
	if (n.no_reminders >= 0)
		r->no_reminders = n.no_reminders;
	if (n.searched >= 0)
		r->searched = n.searched;
	return 0;
}
