// SPDX-License-Identifier: GPL-2.0-only
/*
 * compose: the recipients policy, who a report and an answer go to
 * (recipients.* settings, the manifest's lists, the patch's To and Cc).
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <jansson.h>

#include "perfbot/compose/recipients.h"
#include "perfbot/util/log.h"
#include "perfbot/util/strbuf.h"

static size_t max_cc(const struct config *cfg)
{
	return cfg->recipients.max_cc > 0 ? (size_t)cfg->recipients.max_cc :
		0;
}

/* Each address of a list (the manifest's, the configuration's) once. */
static int add_all(struct addrlist *l, const struct strv *from,
		   const struct addrlist *other)
{
	size_t i;

	for (i = 0; i < from->n; i++)
		if (addrlist_add_unique(l, from->v[i], other))
			return -1;
	return 0;
}

int recipients_is_list(const struct config *cfg, const char *mailbox)
{
	char *spec = strchr(mailbox, '<') ? addr_spec(mailbox) :
		strdup(mailbox);
	size_t i;
	int list;

	if (!spec)
		return 0;
	list = addr_is_list(spec);
	for (i = 0; !list && i < cfg->recipients.cc.n; i++) {
		char *c = addr_spec(cfg->recipients.cc.v[i]);

		list = c && !strcasecmp(c, spec);
		free(c);
	}
	free(spec);
	return list;
}

/* Who a cap left out, for the log: the first few, then how many more. */
struct left_out {
	struct strbuf names;
	size_t n;
};

static void left_out_add(struct left_out *lo, const char *mailbox)
{
	if (lo->n++ < 5 && (sb_adds(&lo->names, lo->n > 1 ? ", " : "") ||
			    sb_adds(&lo->names, mailbox)))
		sb_reset(&lo->names);
}

static void left_out_log(struct left_out *lo, const char *what, size_t max,
			 const char *whose)
{
	if (lo->n)
		log_warn("%s: recipients.max_cc (%zu) leaves out %zu of %s: "
			 "%s%s", what, max, lo->n, whose, sb_str(&lo->names),
			 lo->n > 5 ? ", ..." : "");
	sb_release(&lo->names);
}

/*
 * The patch's own To and Cc into the Cc, whole: the people its author
 * chose (issue 31); recipients.max_cc caps only what perfbot adds on its
 * own (an answer's copies). Each address once, none already in To.
 */
static int patch_copies(struct addrlist *cc, const struct manifest *m,
			const struct addrlist *to)
{
	const struct strv *lists[2] = { &m->patch.to, &m->patch.cc };
	size_t i;
	int l, rc = 0;

	for (l = 0; l < 2 && !rc; l++)
		for (i = 0; i < lists[l]->n && !rc; i++)
			rc = addrlist_add_unique(cc, lists[l]->v[i], to);
	return rc;
}

int recipients_report(const struct manifest *m, const struct config *cfg,
		      struct addrlist *to, struct addrlist *cc,
		      struct pb_err *err)
{
	int rc = 0;

	if (cfg->recipients.to_author && m->head.author)
		rc = addrlist_add_unique(to, m->head.author, NULL);
	if (rc || add_all(to, &m->to, NULL) ||
	    add_all(to, &cfg->recipients.to, NULL) ||
	    patch_copies(cc, m, to) ||
	    add_all(cc, &m->cc, to) ||
	    add_all(cc, &cfg->recipients.cc, to))
		return to->n >= ADDRLIST_MAX || cc->n >= ADDRLIST_MAX ?
			pb_fail(err, EX_DATAERR, "%s: more than %d recipients",
				m->doc.name, ADDRLIST_MAX) :
			pb_fail(err, EX_OSERR, "out of memory");
	if (!to->n && !cc->n)
		return pb_fail(err, EX_DATAERR, "%s: no recipients (no "
			       "author, to or cc)", m->doc.name);
	return 0;
}

/* "Name" <addr>, the name's quotes and backslashes made apostrophes. */
static int addressee(struct addrlist *to, const char *name, const char *addr)
{
	struct strbuf sb = STRBUF_INIT;
	const char *c;
	int rc = 0;

	if (name && *name) {
		rc = sb_addc(&sb, '"');
		for (c = name; *c && !rc; c++)	/* no quoting games */
			rc = sb_addc(&sb, *c == '"' || *c == '\\' ? '\'' : *c);
		rc = rc || sb_addf(&sb, "\" <%s>", addr);
	} else {
		rc = sb_adds(&sb, addr);
	}
	rc = rc || addrlist_add(to, sb_str(&sb));
	sb_release(&sb);
	return rc ? -1 : 0;
}

int recipients_answer(const struct config *cfg, const char *name,
		      const char *addr, const char *thread, const char *own,
		      struct addrlist *to, struct addrlist *cc)
{
	struct addrlist all = ADDRLIST_INIT;
	struct left_out lo = { STRBUF_INIT, 0 };
	const char *why;
	size_t i, before = cc->n, max = max_cc(cfg);
	int rc = addressee(to, name, addr);

	sb_init(&lo.names, 1024);
	/* a state column that is not a list of addresses: no copies */
	if (!rc && thread && addrlist_from_json(&all, thread, &why))
		addrlist_release(&all);
	for (i = 0; !rc && i < all.n; i++) {
		if (!strcasecmp(all.v[i], addr) ||
		    (own && !strcasecmp(all.v[i], own)))
			continue;
		if (cc->n - before >= max)
			left_out_add(&lo, all.v[i]);
		else
			rc = addrlist_add(cc, all.v[i]);
	}
	left_out_log(&lo, "answer", max, "the report's recipients");
	addrlist_release(&all);
	return rc;
}
