// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/compose/recipients.c, the recipients policy: a
 * report To the author (unless recipients.to_author is false), the
 * manifest's to and recipients.to, Cc the patch's own To and Cc (at most
 * recipients.max_cc), the manifest's cc and recipients.cc, each address
 * once by its bare address in any case and never in both; no recipient
 * at all an error. An answer To the sender (its name quoted safely), Cc
 * the report's envelope but the sender and the bot, at most max_cc, and
 * a state column that is no list of addresses copying nobody.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "perfbot/compose/recipients.h"

#include "testutil.h"

#define SIDES \
	"base: { commit: 262b2fa99cbe02a715ce23981c2c30685ccf3a93, " \
	"subject: \"pipe: a\", result_root: base }\n" \
	"head: { commit: f017b0a4951fac8f150232661b2cc0b67e0c57f0, " \
	"subject: \"pipe: b\", author: \"Mirela Sandu " \
	"<mirela.sandu@example.test>\", result_root: head }\n"
#define SIDES_NO_AUTHOR \
	"base: { commit: 262b2fa99cbe02a715ce23981c2c30685ccf3a93, " \
	"subject: \"pipe: a\", result_root: base }\n" \
	"head: { commit: f017b0a4951fac8f150232661b2cc0b67e0c57f0, " \
	"subject: \"pipe: b\", result_root: head }\n"
#define PATCH(lists) \
	"patch:\n  message_id: <p@x>\n  subject: \"[PATCH] pipe: b\"\n" lists

struct fx {
	char dir[64];
	struct config cfg;
	int loaded;
	struct manifest m;
	int have_m;
	struct addrlist to, cc;
	struct pb_err err;
};

static int setup(void **state)
{
	struct fx *f = TU_NEW_FX(struct fx, "test_recipients");

	if (!f || config_load(&f->cfg, NULL, &f->err))
		return -1;
	f->loaded = 1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	addrlist_release(&f->to);
	addrlist_release(&f->cc);
	if (f->have_m)
		manifest_release(&f->m);
	if (f->loaded)
		config_release(&f->cfg);
	tu_rmtree(f->dir);
	free(f);
	return 0;
}

static void config(struct fx *f, const char *yaml)
{
	char path[128];

	tu_load_config(&f->cfg, &f->loaded, tu_path(path, sizeof(path), f->dir,
						    "perfbot.yaml"),
		       yaml, &f->err);
}

/* The recipients of a report on manifest 'text': recipients_report()'s. */
static int report(struct fx *f, const char *text)
{
	if (f->have_m)
		manifest_release(&f->m);
	f->have_m = 0;
	if (manifest_parse(&f->m, "m.yaml", f->dir, text, strlen(text),
			   &f->err))
		fail_msg("%s", f->err.msg);
	f->have_m = 1;
	addrlist_release(&f->to);
	addrlist_release(&f->cc);
	memset(&f->err, 0, sizeof(f->err));
	return recipients_report(&f->m, &f->cfg, &f->to, &f->cc, &f->err);
}

/* 'l' holds exactly the strings up to NULL, in order. */
static void list_is(const struct addrlist *l, ...)
{
	const char *s;
	size_t i = 0;
	va_list ap;

	va_start(ap, l);
	while ((s = va_arg(ap, const char *))) {
		if (i >= l->n)
			fail_msg("entry %zu '%s' missing", i, s);
		assert_string_equal(l->v[i], s);
		i++;
	}
	va_end(ap);
	assert_int_equal(l->n, i);
}

static void t_to_author(void **state)
{
	struct fx *f = *state;

	assert_int_equal(report(f, SIDES), 0);
	list_is(&f->to, "Mirela Sandu <mirela.sandu@example.test>", NULL);
	list_is(&f->cc, NULL);
	config(f, "recipients:\n  to_author: false\n  cc: [l@example.test]\n");
	assert_int_equal(report(f, SIDES), 0);
	list_is(&f->to, NULL);
	list_is(&f->cc, "l@example.test", NULL);
}

static void t_order(void **state)
{
	struct fx *f = *state;

	config(f, "recipients:\n  to: [t1@example.test]\n"
	       "  cc: [c1@example.test]\n");
	assert_int_equal(report(f, SIDES "to: [m1@example.test]\n"
				"cc: [mc@example.test]\n"), 0);
	list_is(&f->to, "Mirela Sandu <mirela.sandu@example.test>",
		"m1@example.test", "t1@example.test", NULL);
	list_is(&f->cc, "mc@example.test", "c1@example.test", NULL);
}

/* Each address once, by its bare address in any case; To wins. */
static void t_dedup(void **state)
{
	struct fx *f = *state;

	config(f, "recipients:\n  to: [\"M <MIRELA.SANDU@example.test>\", "
	       "x@example.test]\n  cc: [X@EXAMPLE.test, "
	       "\"Cee <c@example.test>\"]\n");
	assert_int_equal(report(f, SIDES "to: [mirela.sandu@Example.Test]\n"
				"cc: [c@example.test, \"Again <C@example."
				"test>\"]\n"), 0);
	list_is(&f->to, "Mirela Sandu <mirela.sandu@example.test>",
		"x@example.test", NULL);
	list_is(&f->cc, "c@example.test", NULL);
}

static void t_none(void **state)
{
	struct fx *f = *state;

	assert_int_equal(report(f, SIDES_NO_AUTHOR), -1);
	assert_int_equal(f->err.code, EX_DATAERR);
	assert_string_equal(f->err.msg, "m.yaml: no recipients (no author, "
			    "to or cc)");
}

/* The patch's To and Cc copied into Cc first, whole, whatever max_cc. */
static void t_patch(void **state)
{
	struct fx *f = *state;

	assert_int_equal(report(f, SIDES PATCH("  to: [\"Mirela <mirela."
		"sandu@example.test>\", a@example.test]\n  cc: [b@example."
		"test, A@example.test, c@example.test]\n") "cc: [d@example."
		"test]\n"), 0);
	list_is(&f->to, "Mirela Sandu <mirela.sandu@example.test>", NULL);
	list_is(&f->cc, "a@example.test", "b@example.test", "c@example.test",
		"d@example.test", NULL);
	/* max_cc caps none of them: the author chose them; once each */
	config(f, "recipients:\n  max_cc: 2\n  cc: [e@example.test]\n");
	assert_int_equal(report(f, SIDES PATCH("  to: [a@example.test, "
		"A@example.test]\n  cc: [b@example.test, c@example.test]\n")
		"cc: [d@example.test]\n"), 0);
	list_is(&f->cc, "a@example.test", "b@example.test", "c@example.test",
		"d@example.test", "e@example.test", NULL);
	config(f, "recipients:\n  max_cc: 0\n");
	assert_int_equal(report(f, SIDES PATCH("  to: [a@example.test]\n")),
			 0);
	list_is(&f->cc, "a@example.test", NULL);
}

/*
 * recipients.max_cc drops nobody the patch was sent to, list or person
 * (the robot's patch reports keep them all), and logs nothing.
 */
static void t_patch_keeps_lists(void **state)
{
	struct fx *f = *state;
	struct strbuf log;
	char path[128];
	int saved = -1;

	config(f, "recipients:\n  max_cc: 2\n  cc: [perf@example.test]\n");
	tu_path(path, sizeof(path), f->dir, "stderr");
	tu_stderr_capture(path, &saved);
	assert_int_equal(report(f, SIDES PATCH("  to: [\"Chris <chris@example."
		"test>\", linux-fsdevel@vger.kernel.org]\n  cc: [linux-kernel"
		"@vger.kernel.org, \"Jan <jan@example.test>\", linux-mm@kvack."
		"org, \"Perf <perf@example.test>\", linux-xfs@vger.kernel.org,"
		" oe-lkp@lists.linux.dev, Ann <ann@example.test>, bob@example."
		"test]\n")), 0);
	tu_stderr_restore(&saved);
	list_is(&f->cc, "Chris <chris@example.test>",
		"linux-fsdevel@vger.kernel.org", "linux-kernel@vger.kernel.org",
		"Jan <jan@example.test>", "linux-mm@kvack.org",
		"Perf <perf@example.test>", "linux-xfs@vger.kernel.org",
		"oe-lkp@lists.linux.dev", "Ann <ann@example.test>",
		"bob@example.test", NULL);
	tu_read_text(path, &log);
	assert_string_equal(sb_str(&log), "");
	sb_release(&log);
	/* nobody left out: nothing logged */
	config(f, "recipients:\n  max_cc: 5\n");
	tu_stderr_capture(path, &saved);
	assert_int_equal(report(f, SIDES PATCH("  cc: [a@example.test, "
		"linux-mm@kvack.org]\n")), 0);
	tu_stderr_restore(&saved);
	tu_read_text(path, &log);
	assert_string_equal(sb_str(&log), "");
	sb_release(&log);
}

static void t_answer(void **state)
{
	struct fx *f = *state;

	assert_int_equal(recipients_answer(&f->cfg, "Jane \"J\" D\\oe",
					   "Jane@Example.test",
					   "[\"a@example.test\","
					   "\"jane@example.test\","
					   "\"PERFBOT@example.test\","
					   "\"b@example.test\"]",
					   "perfbot@example.test", &f->to,
					   &f->cc), 0);
	list_is(&f->to, "\"Jane 'J' D'oe\" <Jane@Example.test>", NULL);
	list_is(&f->cc, "a@example.test", "b@example.test", NULL);
	addrlist_release(&f->to);
	addrlist_release(&f->cc);
	/* no name, no report, no bot address */
	assert_int_equal(recipients_answer(&f->cfg, "", "j@example.test",
					   NULL, NULL, &f->to, &f->cc), 0);
	list_is(&f->to, "j@example.test", NULL);
	list_is(&f->cc, NULL);
}

static void t_answer_cap_and_hostile(void **state)
{
	struct fx *f = *state;

	config(f, "recipients:\n  max_cc: 2\n");
	assert_int_equal(recipients_answer(&f->cfg, NULL, "j@example.test",
					   "[\"j@example.test\",\"a@x.test\","
					   "\"b@x.test\",\"c@x.test\"]", NULL,
					   &f->to, &f->cc), 0);
	list_is(&f->cc, "a@x.test", "b@x.test", NULL);
	addrlist_release(&f->to);
	addrlist_release(&f->cc);
	/* a state column that is not a list of addresses: no copies */
	assert_int_equal(recipients_answer(&f->cfg, NULL, "j@example.test",
					   "[\"a@x.test\", 7]", NULL, &f->to,
					   &f->cc), 0);
	list_is(&f->cc, NULL);
	assert_int_equal(recipients_answer(&f->cfg, NULL, "j@example.test",
					   "[\"a@x.test\\r\\nDATA\"]", NULL,
					   &f->to, &f->cc), 0);
	list_is(&f->cc, NULL);
	assert_int_equal(recipients_answer(&f->cfg, NULL, "j@example.test",
					   "{", NULL, &f->to, &f->cc), 0);
	list_is(&f->cc, NULL);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(t_to_author),
		T(t_order),
		T(t_dedup),
		T(t_none),
		T(t_patch),
		T(t_patch_keeps_lists),
		T(t_answer),
		T(t_answer_cap_and_hostile),
	};
#undef T

	return cmocka_run_group_tests(tests, NULL, NULL);
}
