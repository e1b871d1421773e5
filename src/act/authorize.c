// SPDX-License-Identifier: GPL-2.0-only
/*
 * authorize: whether the sender of a routed reply may command the bot,
 * and whether the bot may answer them at all. No mailing list commands,
 * the sender's domains agree (envelope and From) and the operator's MTA
 * vouches for From (Authentication-Results), commands.allow or the
 * report's recipients may command, and the budgets of answers (per
 * sender, and to strangers) hold.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "perfbot/util/addr.h"
#include "perfbot/act/authorize.h"
#include "perfbot/compose/recipients.h"
#include "perfbot/state/records.h"
#include "perfbot/state/inbox.h"

#define DAY (24 * 3600)

int authorize_domains_align(const char *a, const char *b)
{
	size_t na, nb;

	if (!a || !b || !*a || !*b)
		return 0;
	na = strlen(a);
	nb = strlen(b);
	if (na < nb) {
		const char *t = a;

		a = b;
		b = t;
		na = nb;
		nb = strlen(b);
	}
	/* 'a' is the longer: equal, or ends in "." + b */
	if (strcasecmp(a + na - nb, b))
		return 0;
	return na == nb || a[na - nb - 1] == '.';
}

int authorize_aligned(const struct reply *r)
{
	return r->from_addr && r->envelope_addr &&
	       authorize_domains_align(addr_domain(r->from_addr),
				    addr_domain(r->envelope_addr));
}

/* Copy 's' without (comments) into buf, lowercased. */
static void strip_comments(const char *s, char *buf, size_t n)
{
	size_t k = 0;
	int depth = 0;

	for (; *s && k + 1 < n; s++) {
		if (*s == '\\' && s[1] && depth) {
			s++;
			continue;
		}
		if (*s == '(')
			depth++;
		else if (*s == ')' && depth)
			depth--;
		else if (!depth)
			buf[k++] = *s >= 'A' && *s <= 'Z' ? (char)(*s + 32) : *s;
	}
	buf[k] = '\0';
}

/* The value of property 'name' ("header.d") in one resinfo, or NULL. */
static const char *prop(char *resinfo, const char *name, size_t *len)
{
	size_t n = strlen(name);
	char *p = resinfo;

	while ((p = strstr(p, name))) {
		if ((p == resinfo || p[-1] == ' ') && p[n] == '=') {
			p += n + 1;
			*len = strcspn(p, " ");
			return p;
		}
		p += n;
	}
	return NULL;
}

static int aligned_n(const char *v, size_t n, const char *dom)
{
	char d[256];

	if (!v || !n || n >= sizeof(d))
		return 0;
	memcpy(d, v, n);
	d[n] = '\0';
	if (strchr(d, '@'))	/* header.i=@example.org or user@... */
		return authorize_domains_align(strrchr(d, '@') + 1, dom);
	return authorize_domains_align(d, dom);
}

/*
 * What one "method=result props" clause says for From's domain 'dom': 1
 * a pass that vouches for From (dkim aligned with it, dmarc for it), -1
 * a dmarc failure, which nothing else in the header outweighs, else 0.
 * arc=pass only says that a chain of forwarders was intact, not who
 * wrote the mail, so it vouches for nobody.
 */
static int clause_says(char *c, const char *dom)
{
	const char *v;
	size_t n = 0;

	while (*c == ' ')
		c++;
	if (!strncmp(c, "dmarc=", 6) && strncmp(c + 6, "pass", 4) &&
	    strncmp(c + 6, "none", 4))
		return -1;
	if (!strncmp(c, "dkim=pass", 9) && (!c[9] || c[9] == ' '))
		return (v = prop(c, "header.d", &n)) ? aligned_n(v, n, dom) :
			(v = prop(c, "header.i", &n)) ? aligned_n(v, n, dom) : 0;
	if (!strncmp(c, "dmarc=pass", 10) && (!c[10] || c[10] == ' '))
		return (v = prop(c, "header.from", &n)) &&
		       aligned_n(v, n, dom);
	return 0;
}

/*
 * One Authentication-Results value: -1 when its authserv-id is not 'id',
 * else 1 when it vouches for From's domain 'dom', 0 when it does not.
 */
static int header_verdict(const char *value, const char *id, const char *dom)
{
	char buf[4096], *c, *save = NULL;
	size_t n = strlen(id);
	const char *p;
	int pass = 0, says;

	strip_comments(value, buf, sizeof(buf));
	for (p = buf; *p == ' '; p++)
		;
	/* authserv-id [version] ; resinfo ; resinfo ... */
	if (strncasecmp(p, id, n) || (p[n] && p[n] != ' ' && p[n] != ';'))
		return -1;
	c = strchr(buf, ';');
	if (!c)
		return 0;
	for (c = strtok_r(c + 1, ";", &save); c; c = strtok_r(NULL, ";", &save)) {
		says = clause_says(c, dom);
		if (says < 0)
			return 0;
		pass |= says;
	}
	return pass;
}

/*
 * Only the topmost header of the operator's authserv-id counts: the MTA
 * writes its own on top, and one further down came with the mail (a
 * forgery the MTA failed to remove, or another hop's).
 */
int authorize_authenticated(const struct reply *r, const char *authserv_id)
{
	const char *dom = r->from_addr ? addr_domain(r->from_addr) : NULL;
	size_t i;
	int v;

	if (!dom || !authserv_id || !*authserv_id)
		return 0;
	for (i = 0; i < r->nauth; i++) {
		v = r->auth_results[i] ? header_verdict(r->auth_results[i],
							 authserv_id, dom) : -1;
		if (v >= 0)
			return v;
	}
	return 0;
}

int authorize_allowed(const struct config *cfg, const char *addr)
{
	const struct strv *allow = &cfg->commands.allow;
	size_t i, n = strlen(addr), k;
	const char *a;

	for (i = 0; i < allow->n; i++) {
		a = allow->v[i];
		k = strlen(a);
		if (!k)
			continue;
		if (a[0] == '@' && n > k && !strcasecmp(addr + n - k, a))
			return 1;
		if (!strcasecmp(addr, a))
			return 1;
	}
	return 0;
}

/* 'addr' is among the report's recipients (the state's JSON column). */
static int among(const char *json_list, const char *addr)
{
	struct addrlist l;
	const char *why;
	int found = 0;

	addrlist_init(&l);
	if (json_list && !addrlist_from_json(&l, json_list, &why))
		found = addrlist_has(&l, addr);
	addrlist_release(&l);
	return found;
}

/*
 * A mailing list never commands: the copy a list relays (List-Id, or its
 * bounces address as the envelope sender), a From that is a list (the
 * configured recipients.cc, or one named like a list), and a From a list
 * rewrote ("Jane via list" <list@...>, as DMARC-minded lists do). Such a
 * mail is not answered either, and is recorded under its mailbox
 * position, so the copy sent straight to the bot is still read. The
 * reason in 'why', or 0 when none of it holds.
 */
static int from_a_list(const struct config *cfg, const struct reply *r,
		       char *why, size_t n)
{
	const char *name = r->from_name;

	if (r->via_list)
		snprintf(why, n, "ignored: came through a mailing list "
			 "(List-Id)");
	else if (r->envelope_addr && addr_is_list_envelope(r->envelope_addr))
		snprintf(why, n, "ignored: the envelope sender '%.64s' is a "
			 "mailing list's", r->envelope_addr);
	else if (recipients_is_list(cfg, r->from_addr))
		snprintf(why, n, "ignored: From '%.64s' is a mailing list",
			 r->from_addr);
	else if (name && strstr(name, " via "))
		snprintf(why, n, "ignored: From rewritten by a mailing list "
			 "('%.64s')", name);
	else
		return 0;
	return 1;
}

/*
 * Before anything is answered: the mail is no list's, the envelope
 * sender and From agree (whoever From is: commands.allow says who may
 * command, not that a mail is theirs), and, when commands.authserv_id is
 * set, the operator's MTA vouches for From. A mail that fails is not
 * answered and is recorded under its mailbox position, so another copy
 * of it (the one sent straight to the bot, when this one came through a
 * list that rewrote the envelope) is still read.
 */
static int sender_ok(const struct config *cfg, const struct reply *r,
		     struct auth *au)
{
	const char *id = cfg->commands.authserv_id;

	if (from_a_list(cfg, r, au->outcome, sizeof(au->outcome))) {
		;
	} else if (!authorize_aligned(r)) {
		snprintf(au->outcome, sizeof(au->outcome), "ignored: From and "
			 "the envelope sender are in different domains");
	} else if (id && *id && !authorize_authenticated(r, id)) {
		snprintf(au->outcome, sizeof(au->outcome), "ignored: no "
			 "passing DKIM or DMARC result from '%.64s'", id);
	} else {
		return 1;
	}
	au->rekey = 1;
	return 0;
}

/*
 * Refusals and "no report" answers go to strangers: at most one a day per
 * sender, and limits.refusals_per_day of them in all. 1 when one may go,
 * 0 with the reason in '*why'.
 */
static int stranger_budget(struct state *st, const struct config *cfg,
			   time_t now, const char *sender, const char *outcome,
			   const char **why, struct pb_err *err)
{
	long mine, a, b, cap = cfg->limits.refusals_per_day;

	if (state_inbox_count_exact(st, sender, now - DAY, outcome, &mine,
				    err) ||
	    state_inbox_count_exact(st, NULL, now - DAY, AUTH_OUT_REFUSED, &a,
				    err) ||
	    state_inbox_count_exact(st, NULL, now - DAY, AUTH_OUT_NOREPORT,
				    &b, err))
		return -1;
	*why = mine ? "already told today" : a + b >= cap ?
		"limits.refusals_per_day reached" : NULL;
	return !*why;
}

/* A stranger's verdict: told (within the budget) or not. */
static int stranger(struct state *st, const struct config *cfg, time_t now,
		    const struct reply *r, struct auth *au,
		    struct pb_err *err)
{
	const char *out = au->verdict == AUTH_REFUSE ? AUTH_OUT_REFUSED :
		AUTH_OUT_NOREPORT, *why;
	int ok = stranger_budget(st, cfg, now, r->from_addr, out, &why, err);

	if (ok < 0)
		return -1;
	au->tell = ok;
	if (ok)
		snprintf(au->outcome, sizeof(au->outcome), "%s", out);
	else if (au->verdict == AUTH_REFUSE)
		snprintf(au->outcome, sizeof(au->outcome), "refused (%s)", why);
	else
		snprintf(au->outcome, sizeof(au->outcome), "ignored: no report "
			 "in this thread (%s)", why);
	if (!ok && au->verdict == AUTH_NOREPORT)
		au->verdict = AUTH_IGNORE;
	return 0;
}

/*
 * What every sender must pass first: no list, the domains, the MTA's
 * word, limits.per_sender_per_day. 1 when the mail may be answered.
 */
static int sender_may(struct state *st, const struct config *cfg,
		      time_t now, const struct reply *r, struct auth *au,
		      struct pb_err *err)
{
	long n, cap = cfg->limits.per_sender_per_day;

	memset(au, 0, sizeof(*au));
	au->verdict = AUTH_IGNORE;
	if (!sender_ok(cfg, r, au))
		return 0;
	if (state_inbox_count(st, r->from_addr, now - DAY, "answered", &n,
			      err))
		return -1;
	if (n >= cap) {
		snprintf(au->outcome, sizeof(au->outcome), "ignored: "
			 "limits.per_sender_per_day reached");
		return 0;
	}
	return 1;
}

/* The sender is among the recipients of the report of line 'line'. */
static int owns_line(struct state *st, const struct reply *r,
		     const char *reminder_id, long line, int *yes, int *end,
		     struct pb_err *err)
{
	struct record rec;
	char *id = NULL;
	int found = 0;

	*yes = *end = 0;
	if (state_reminder_line(st, reminder_id, line, &id, err) ||
	    (id && state_record_get(st, id, &rec, &found, err))) {
		free(id);
		return -1;
	}
	*end = !id;
	if (id && found) {
		*yes = among(rec.recipients, r->from_addr);
		record_release(&rec);
	}
	free(id);
	return 0;
}

/*
 * The sender is among the recipients of a report the reminder lists: of
 * a line a command names, else of any line. Such a sender may give
 * commands in its thread; each command is then held to the line it
 * names (act/lifecmd.c), and one that names none is told how to.
 */
static int owns_a_line(struct state *st, const struct reply *r,
		       const char *reminder_id, int *yes, struct pb_err *err)
{
	size_t i;
	long line;
	int end = 0, rc = 0;

	*yes = 0;
	for (i = 0; i < r->ncmds && !*yes && !rc; i++)
		if (r->cmds[i].remind_line)
			rc = owns_line(st, r, reminder_id,
				       r->cmds[i].remind_line, yes, &end, err);
	for (line = 1; line <= CMD_LINE_REF_MAX && !*yes && !end && !rc;
	     line++)
		rc = owns_line(st, r, reminder_id, line, yes, &end, err);
	return rc ? -1 : 0;
}

int authorize_reminder(struct state *st, const struct config *cfg,
		       time_t now, const struct reply *r,
		       const char *reminder_id, struct auth *au,
		       struct pb_err *err)
{
	int ok = sender_may(st, cfg, now, r, au, err), own = 0;

	if (ok <= 0)
		return ok;
	if (!authorize_allowed(cfg, r->from_addr) &&
	    owns_a_line(st, r, reminder_id, &own, err))
		return -1;
	if (!authorize_allowed(cfg, r->from_addr) && !own) {
		au->verdict = AUTH_REFUSE;
		return stranger(st, cfg, now, r, au, err);
	}
	au->verdict = AUTH_COMMAND;
	au->tell = 1;
	snprintf(au->outcome, sizeof(au->outcome), "answered");
	return 0;
}

int authorize(struct state *st, const struct config *cfg, time_t now,
	      const struct reply *r, const struct thread_report *tr,
	      struct auth *au, struct pb_err *err)
{
	int ok = sender_may(st, cfg, now, r, au, err);

	if (ok <= 0)
		return ok;
	if (!tr) {
		au->verdict = AUTH_NOREPORT;
		return stranger(st, cfg, now, r, au, err);
	}
	au->recipient = among(tr->recipients, r->from_addr);
	if (!authorize_allowed(cfg, r->from_addr) && !au->recipient) {
		au->verdict = AUTH_REFUSE;
		return stranger(st, cfg, now, r, au, err);
	}
	au->verdict = AUTH_COMMAND;
	au->tell = 1;
	snprintf(au->outcome, sizeof(au->outcome), "answered");
	return 0;
}
