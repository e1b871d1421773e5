// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/send/outbox.c: outbox_queue(), the one way into the
 * outbox, storing a composed report (with its manifest) and a composed
 * answer (with the report it is about) byte for byte, the envelope as the
 * state's JSON list; a composed mail lacking a part refused; and delivery
 * refusing, without a word to the server, a stored recipient list that is
 * no list of addresses.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "perfbot/util/log.h"
#include "perfbot/send/outbox.h"
#include "perfbot/state/outbox.h"
#include "perfbot/state/seen.h"

#include "testutil.h"
#include "teststate.h"
#include "perfbot/state/status.h"
#include "perfbot/state/inbox.h"

#define T0 1739548080	/* 2025-02-14 15:48:00 UTC */
#define MSG "From: perfbot <perfbot@example.test>\nSubject: s\n\nbody\n"

struct fx {
	char dir[64];
	char db[128];
	struct config cfg;
	int loaded;
	struct state *st;
	int open;
	struct composed c;
	struct outbox_mail *out;
	size_t nout;
	struct pb_err err;
	enum log_level level;
};

static int setup(void **state)
{
	struct fx *f = TU_NEW_FX(struct fx, "test_outbox");

	if (!f)
		return -1;
	f->level = log_get_level();
	tu_path(f->db, sizeof(f->db), f->dir, "perfbot.db");
	if (config_load(&f->cfg, NULL, &f->err) ||
	    tu_state_open(&f->st, f->db, STATE_WRITE, &f->err)) {
		fprintf(stderr, "setup: %s\n", f->err.msg);
		return -1;
	}
	f->loaded = f->open = 1;
	composed_init(&f->c);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	log_set_level(f->level);
	outbox_free(f->out, f->nout);
	composed_release(&f->c);
	if (f->open)
		state_close(f->st);
	if (f->loaded)
		config_release(&f->cfg);
	tu_rmtree(f->dir);
	free(f);
	return 0;
}

/* A composed report 'id' to 'n' recipients a@, b@, ... */
static void report(struct composed *c, const char *id, int n)
{
	char a[32];
	int i;

	composed_release(c);
	c->kind = "report";
	c->id = strdup(id);
	c->message_id = strdup("202502141548.7c8c8447-perfbot@example.test");
	c->subject = strdup("[tree] the subject");
	c->sender = strdup("perfbot@example.test");
	c->date = T0;
	assert_non_null(c->id);
	for (i = 0; i < n; i++) {
		snprintf(a, sizeof(a), "%c@example.test", 'a' + i);
		assert_int_equal(addrlist_add(&c->rcpts, a), 0);
	}
	assert_int_equal(sb_adds(&c->msg, MSG), 0);
}

static void queued(struct fx *f, size_t want)
{
	outbox_free(f->out, f->nout);
	f->out = NULL;
	if (state_queued(f->st, &f->out, &f->nout, &f->err))
		fail_msg("state_queued: %s", f->err.msg);
	assert_int_equal(f->nout, want);
}

/*
 * One text of the outbox mail 'id' as the state reports it (status.h):
 * "status" (the part it is listed in), or a column of its row there.
 */
static char *column(struct fx *f, const char *col, const char *id)
{
	static const char *const parts[] = { "queued", "failed", "dropped" };
	const struct status_value *v;
	const struct status_part *p;
	struct status so;
	char *got = NULL;
	size_t i, r;

	if (state_status(f->st, T0, &so, &f->err))
		fail_msg("state_status: %s", f->err.msg);
	for (i = 0; i < 3; i++) {
		p = status_part(&so, parts[i]);
		for (r = 0; p && r < p->nrows; r++) {
			v = status_cell(p, r, "id");
			if (!v || v->type != STATUS_TEXT || strcmp(v->s, id))
				continue;
			v = status_cell(p, r, col);
			if (!strcmp(col, "status"))
				got = strdup(parts[i]);
			else if (v && v->type == STATUS_TEXT)
				got = strdup(v->s);
		}
	}
	status_release(&so);
	return got;
}

/* A reply to 'message_id' is routed to report 'report_id' (its column). */
static void routed_to(struct fx *f, const char *message_id,
		      const char *report_id)
{
	const char *ids[] = { message_id };
	struct thread_report tr;
	int found = 0;

	assert_int_equal(state_route(f->st, ids, 1, &tr, &found, &f->err), 0);
	assert_int_equal(found, 1);
	assert_string_equal(tr.report_id, report_id);
	thread_report_release(&tr);
}

static void column_is(struct fx *f, const char *col, const char *id,
		      const char *want)
{
	char *v = column(f, col, id);

	if (!want) {
		assert_null(v);
		return;
	}
	assert_non_null(v);
	assert_string_equal(v, want);
	free(v);
}

static void t_queue_report(void **state)
{
	struct fx *f = *state;
	char *name = NULL, *text = NULL, *dir = NULL;

	report(&f->c, "demo-004", 2);
	f->c.manifest = "src/demo.yaml";
	f->c.manifest_text = "id: demo-004\n";
	f->c.manifest_dir = "src";
	assert_int_equal(outbox_queue(f->st, &f->c, T0, &f->err), 0);
	queued(f, 1);
	assert_string_equal(f->out[0].id, "demo-004");
	assert_string_equal(f->out[0].kind, "report");
	assert_string_equal(f->out[0].message_id,
			    "202502141548.7c8c8447-perfbot@example.test");
	assert_string_equal(f->out[0].sender, "perfbot@example.test");
	assert_string_equal(f->out[0].recipients,
			    "[\"a@example.test\",\"b@example.test\"]");
	assert_int_equal(f->out[0].len, strlen(MSG));
	assert_memory_equal(f->out[0].message, MSG, strlen(MSG));
	column_is(f, "subject", "demo-004", "[tree] the subject");
	routed_to(f, f->out[0].message_id, "demo-004");
	/* the manifest kept for retests and confirmations */
	assert_int_equal(state_manifest_text(f->st, "demo-004", &name, &text,
					     &dir, &f->err), 0);
	assert_string_equal(name, "src/demo.yaml");
	assert_string_equal(text, "id: demo-004\n");
	assert_string_equal(dir, "src");
	free(name);
	free(text);
	free(dir);
}

static void t_queue_answer(void **state)
{
	struct fx *f = *state;
	char *name, *text, *dir;

	report(&f->c, "a-0123456789abcdef", 1);
	f->c.kind = "answer";
	f->c.report_id = strdup("demo-004");
	assert_int_equal(outbox_queue(f->st, &f->c, T0, &f->err), 0);
	queued(f, 1);
	assert_string_equal(f->out[0].kind, "answer");
	assert_string_equal(f->out[0].recipients, "[\"a@example.test\"]");
	/* an answer keeps no manifest of its own (its report: test_state.c
	 * t_route, a reply routed through an answer) */
	assert_int_equal(state_manifest_text(f->st, "a-0123456789abcdef",
					     &name, &text, &dir, &f->err), 0);
	assert_null(name);
	assert_null(text);
	assert_null(dir);
}

static void refused(struct fx *f)
{
	memset(&f->err, 0, sizeof(f->err));
	assert_int_equal(outbox_queue(f->st, &f->c, T0, &f->err), -1);
	assert_int_equal(f->err.code, EX_SOFTWARE);
	assert_non_null(strstr(f->err.msg, "lacks"));
}

static void t_queue_incomplete(void **state)
{
	struct fx *f = *state;

	report(&f->c, "r", 0);
	refused(f);
	report(&f->c, "r", 1);
	free(f->c.sender);
	f->c.sender = NULL;
	refused(f);
	report(&f->c, "r", 1);
	free(f->c.message_id);
	f->c.message_id = NULL;
	refused(f);
	report(&f->c, "r", 1);
	sb_reset(&f->c.msg);
	refused(f);
	report(&f->c, "r", 1);
	f->c.kind = NULL;
	refused(f);
	queued(f, 0);
}

/* A stored list that is no list of addresses fails that one mail. */
static void t_deliver_bad_rcpts(void **state)
{
	struct fx *f = *state;
	struct outbox_mail m = {
		.id = "bad", .kind = "report", .message_id = "x@y",
		.sender = "perfbot@example.test",
		.recipients = "[\"a@example.test\\r\\nDATA\"]",
		.message = MSG, .len = strlen(MSG),
	};
	struct send_stats ss;
	char path[128];

	log_set_level(LOG_QUIET);
	tu_load_config(&f->cfg, &f->loaded, tu_path(path, sizeof(path), f->dir,
						    "perfbot.yaml"),
		       "smtp:\n  url: smtp://127.0.0.1:9\n  tls: none\n",
		       &f->err);
	assert_int_equal(state_queue(f->st, &m, NULL, NULL, NULL, "s", T0, &f->err), 0);
	assert_int_equal(outbox_deliver(f->st, &f->cfg, T0, 1, &ss, &f->err),
			 0);
	assert_int_equal(ss.failed, 1);
	assert_int_equal(ss.sent, 0);
	column_is(f, "status", "bad", "failed");
	column_is(f, "last_error", "bad", "no recipients: an address with a "
		  "control character");
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(t_queue_report),
		T(t_queue_answer),
		T(t_queue_incomplete),
		T(t_deliver_bad_rcpts),
	};
#undef T

	return cmocka_run_group_tests(tests, NULL, NULL);
}
