// SPDX-License-Identifier: GPL-2.0-only
/*
 * act: the answer service (answers.h): the pieces of an answer rendered
 * and the answer composed and queued in its thread, with a Message-ID
 * the state does not hold, for every command, follow-up, record and
 * reminder.
 */
#include <stdio.h>
#include <stdlib.h>

#include "perfbot/act/answers.h"
#include "perfbot/send/outbox.h"
#include "perfbot/state/outbox.h"

/* 'tmpl' with 'c' (released) and the bot's name, added to 'pieces'. */
static int render_into(struct answer_pieces *pieces,
		       const struct config *cfg, const char *tmpl,
		       struct ctx *c, struct pb_err *err)
{
	char *text = NULL;
	int rc;

	ctx_str(c, "bot_name", cfg->identity.name);
	rc = answer_piece_of(cfg, tmpl, c, &text, err);
	if (!rc && answer_pieces_add(pieces, text))
		rc = pb_fail(err, EX_OSERR, "answer '%s': out of memory",
			     tmpl);
	free(text);
	return rc;
}

int answers_piece_of(struct act_ctx *a, const char *tmpl, struct ctx *c,
		     struct pb_err *err)
{
	return render_into(&a->pieces, a->cfg, tmpl, c, err);
}

int answers_not_here(struct act_ctx *a, const struct mail_command *c,
		     const char *word, struct pb_err *err)
{
	char why[64];
	struct ctx x;

	snprintf(why, sizeof(why), "%s: answer the report itself", word);
	ctx_init(&x, "answer");
	ctx_str(&x, "line", c->line);
	ctx_str(&x, "why", why);
	return answers_piece_of(a, "invalid", &x, err) ? -1 : 1;
}

static int compose(const struct config *cfg, const struct answer_mail *m,
		   time_t now, int draw, struct composed *c,
		   struct pb_err *err)
{
	if (m->t)
		return answer_compose(cfg, m->t, m->tag, m->pieces, now, draw,
				      c, err);
	return reminder_compose(cfg, m->reminder_id, m->reminder, now, draw,
				c, err);
}

int answers_queue(struct state *st, const struct config *cfg,
		  const struct answer_mail *m, time_t now, struct pb_err *err)
{
	struct composed c;
	int rc, draw = 0, used = 1;

	/* a Message-ID the state holds already is drawn again */
	do {
		rc = compose(cfg, m, now, draw, &c, err) ||
		     state_message_id_used(st, c.message_id, &used, err);
		if (!rc && !used)
			rc = outbox_queue(st, &c, now, err);
		composed_release(&c);
	} while (!rc && used && ++draw < ID_DRAWS);
	return rc || !used ? rc : pb_fail(err, EX_SOFTWARE, "%s: no free "
					  "Message-ID in %d draws", m->t ?
					  "answer" : "reminder", ID_DRAWS);
}

int answers_one(struct state *st, const struct config *cfg,
		const struct answer_thread *t, const char *tag,
		const char *tmpl, struct ctx *c, time_t now,
		struct pb_err *err)
{
	struct answer_pieces pieces = ANSWER_PIECES_INIT;
	struct answer_mail m = { .t = t, .tag = tag, .pieces = &pieces };
	int rc;

	rc = render_into(&pieces, cfg, tmpl, c, err) ||
	     answers_queue(st, cfg, &m, now, err) ? -1 : 0;
	answer_pieces_release(&pieces);
	return rc;
}
