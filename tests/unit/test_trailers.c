// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/ingest/trailers.c: a commit message read as git
 * interpret-trailers reads it (the last paragraph, folded lines, the
 * quarter rule), what a revert names, the names of a text, and whether
 * a commit names a report: exactly the trailers perfbot asks for, Link:,
 * several Closes:, links with and without angle brackets, folded,
 * another archive's link holding the Message-ID, Reported-by: the bot
 * with the Message-ID in the body (and not without), the title or sha a
 * 'fix:' named, a revert of the fix.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "perfbot/ingest/trailers.h"

#define MSGID "202502141548.4b086ddf7c8c8447-perfbot@example.test"
#define URL "https://lore.example.test/perf/" MSGID
#define SHA "f017b0a4951fac8f150232661b2cc0b67e0c57f0"

static const char *const bots[] = { "perfbot@example.test",
	"robot@example.test" };
static const struct report_key key = { URL, MSGID, NULL, NULL };

static enum commit_match match(const char *msg, const struct report_key *k)
{
	struct commit_msg m;
	enum commit_match r;

	assert_int_equal(commit_msg_parse(&m, msg, strlen(msg)), 0);
	r = commit_match(&m, SHA, k, bots, 2);
	commit_msg_release(&m);
	return r;
}

/* The trailers perfbot's report asks for, exactly as written there. */
static void t_as_perfbot_writes(void **state)
{
	(void)state;
	assert_int_equal(match("pipe: fix the race\n\nLonger words.\n\n"
			       "Reported-by: perfbot <perfbot@example.test>\n"
			       "Closes: " URL "\n"
			       "Signed-off-by: Dev <dev@example.test>\n", &key),
			 MATCH_CLOSES);
	assert_string_equal(commit_match_name(MATCH_CLOSES), "Closes:");
}

static void t_parse(void **state)
{
	static const char msg[] =
		"mm: fix the\r\n  thing\n\nBody line one.\nKey: not a trailer "
		"(not the last paragraph)\n\nLink: https://x.test/a\n"
		"Closes: https://lore.example.test/perf/\n"
		"  " MSGID "\n"
		"# a comment line\n"
		"Signed-off-by: A <a@example.test>\n\n\n";
	struct commit_msg m;

	(void)state;
	assert_int_equal(commit_msg_parse(&m, msg, sizeof(msg) - 1), 0);
	assert_string_equal(m.summary, "mm: fix the thing");
	assert_int_equal(m.ntrailers, 3);
	assert_string_equal(m.trailers[0].key, "Link");
	assert_string_equal(m.trailers[0].value, "https://x.test/a");
	assert_string_equal(m.trailers[1].key, "Closes");
	/* folded: the lines joined by one blank */
	assert_string_equal(m.trailers[1].value,
			    "https://lore.example.test/perf/ " MSGID);
	assert_string_equal(m.trailers[2].key, "Signed-off-by");
	assert_null(m.reverts);
	assert_null(m.revert_title);
	commit_msg_release(&m);
	commit_msg_release(&m);
}

/* git's rule: all trailers, or a quarter with a Signed-off-by. */
static void t_block_rule(void **state)
{
	(void)state;
	/* one prose line among trailers, a Signed-off-by: a block */
	assert_int_equal(match("x: y\n\nbody\n\n[ dev: reworded ]\n"
			       "Closes: " URL "\n"
			       "Signed-off-by: A <a@example.test>\n", &key),
			 MATCH_CLOSES);
	/* prose with a "Closes:" line in it: no block */
	assert_int_equal(match("x: y\n\nThis was wrong, and so\n"
			       "Closes: " URL "\nis not a trailer here\n"
			       "of a block at all\n", &key), MATCH_NONE);
	/* the title alone is never a block */
	assert_int_equal(match("Closes: " URL "\n", &key), MATCH_NONE);
	/* not in the last paragraph */
	assert_int_equal(match("x: y\n\nCloses: " URL "\n\nSome words "
			       "after it.\n", &key), MATCH_NONE);
}

static void t_forms(void **state)
{
	(void)state;
	/* angle brackets around the link, and around the Message-ID */
	assert_int_equal(match("x\n\nCloses: <" URL ">\n", &key),
			 MATCH_CLOSES);
	assert_int_equal(match("x\n\nCloses: <" MSGID ">\n", &key),
			 MATCH_CLOSES);
	assert_int_equal(match("x\n\nCloses: " MSGID "\n", &key),
			 MATCH_CLOSES);
	/* a trailing slash, a case other than perfbot's */
	assert_int_equal(match("x\n\ncloses: " URL "/\n", &key),
			 MATCH_CLOSES);
	/* Link:, another archive's link with the Message-ID in its path */
	assert_int_equal(match("x\n\nLink: https://lore.kernel.org/r/" MSGID
			       "\n", &key), MATCH_LINK);
	assert_int_equal(match("x\n\nLink: https://lore.kernel.org/oe-lkp/"
			       "202502141548.4b086ddf7c8c8447-perfbot%40"
			       "example.test/T/#u\n", &key), MATCH_LINK);
	/* a comment after the link ("[1]") */
	assert_int_equal(match("x\n\nLink: " URL " [1]\n", &key), MATCH_LINK);
	/* folded over two lines, the break inside the link */
	assert_int_equal(match("x\n\nCloses: https://lore.example.test/\n"
			       " perf/" MSGID "\n", &key), MATCH_CLOSES);
	/* several Closes:, ours the second */
	assert_int_equal(match("x\n\nCloses: https://bugzilla.test/1\n"
			       "Closes: " URL "\nSigned-off-by: A <a@b.test>\n",
			       &key), MATCH_CLOSES);
	/* another report's: nothing */
	assert_int_equal(match("x\n\nCloses: https://lore.example.test/perf/"
			       "202502141548.0000-perfbot@example.test\n",
			       &key), MATCH_NONE);
	/* a longer Message-ID that contains ours is not ours */
	assert_int_equal(match("x\n\nCloses: <x" MSGID ">\n", &key),
			 MATCH_NONE);
	/* the link in a Fixes: trailer does not close it */
	assert_int_equal(match("x\n\nFixes: " URL "\n", &key), MATCH_NONE);
}

/* Reported-by: the bot needs the link or the Message-ID somewhere. */
static void t_reported_by(void **state)
{
	(void)state;
	assert_int_equal(match("x\n\nThe regression was reported in\n<" MSGID
			       ">.\n\nReported-by: perfbot <perfbot@example.test>"
			       "\n", &key), MATCH_REPORTED_BY);
	assert_int_equal(match("x\n\nSee " URL ".\n\nReported-by: Robot "
			       "<ROBOT@example.test>\n", &key),
			 MATCH_REPORTED_BY);
	/* the bot alone names none of its many reports */
	assert_int_equal(match("x\n\nReported-by: perfbot "
			       "<perfbot@example.test>\n", &key), MATCH_NONE);
	/* somebody else reported it, the Message-ID in the body */
	assert_int_equal(match("x\n\nSee <" MSGID ">.\n\nReported-by: A "
			       "<a@example.test>\n", &key), MATCH_NONE);
}

static void t_named(void **state)
{
	struct report_key k = { NULL, NULL, "pipe: fix the race", NULL };

	(void)state;
	assert_int_equal(match("pipe: fix the race\n\nbody\n", &k),
			 MATCH_TITLE);
	assert_int_equal(match("pipe: fix the race again\n\nbody\n", &k),
			 MATCH_NONE);
	k.title = NULL;
	k.sha = "f017b0a495";
	assert_int_equal(match("anything\n", &k), MATCH_SHA);
	k.sha = "F017B0A4951FAC8F150232661B2CC0B67E0C57F0";
	assert_int_equal(match("anything\n", &k), MATCH_SHA);
	k.sha = "f017b0a496";
	assert_int_equal(match("anything\n", &k), MATCH_NONE);
	assert_true(commit_is_sha("f017b0a", 7));
	assert_false(commit_is_sha("f017b0", 6));
	assert_false(commit_is_sha("f017b0g", 7));
	assert_false(commit_is_sha(SHA "0", 41));
}

/* git's reference form: the sha, and the title as a second key. */
static void t_ref(void **state)
{
	const char *title;
	size_t n, tn;

	(void)state;
	assert_true(commit_ref("f017b0a495 (\"pipe: skip it\")", &n, &title,
			       &tn));
	assert_int_equal(n, 10);
	assert_int_equal(tn, 13);
	assert_memory_equal(title, "pipe: skip it", 13);
	assert_true(commit_ref("f017b0a495", &n, &title, &tn));
	assert_null(title);
	/* a title cut short is left out, the sha kept */
	assert_true(commit_ref("f017b0a495 (\"pipe: sk", &n, &title, &tn));
	assert_null(title);
	assert_false(commit_ref("f017b0a495 is the one", &n, &title, &tn));
	assert_false(commit_ref("pipe: skip it", &n, &title, &tn));
	assert_false(commit_ref("f017b0 (\"short\")", &n, &title, &tn));
}

static void t_revert(void **state)
{
	static const char msg[] = "Revert \"mm: fix it\"\n\nThis reverts "
		"commit " SHA ".\n\nIt broke the build.\n\nSigned-off-by: A "
		"<a@example.test>\n";
	struct commit_msg m;

	(void)state;
	assert_int_equal(commit_msg_parse(&m, msg, sizeof(msg) - 1), 0);
	assert_string_equal(m.reverts, SHA);
	assert_string_equal(m.revert_title, "mm: fix it");
	assert_true(commit_reverts(m.reverts, m.revert_title, SHA, "other"));
	assert_false(commit_reverts(m.reverts, m.revert_title,
				    "0000000000000000000000000000000000000000",
				    "mm: fix it"));
	commit_msg_release(&m);
	/* a revert that names no sha: by its title */
	assert_true(commit_reverts(NULL, "mm: fix it", SHA, "mm: fix it"));
	assert_false(commit_reverts(NULL, "mm: fix it", SHA, NULL));
	assert_false(commit_reverts(NULL, NULL, SHA, "mm: fix it"));
	/* a short sha in "This reverts commit" names a prefix */
	assert_true(commit_reverts("f017b0a4951f", NULL, SHA, NULL));
}

struct seen {
	char names[16][128];
	size_t n;
};

static int collect(const char *name, size_t n, void *arg)
{
	struct seen *s = arg;

	if (s->n < 16 && n < 128) {
		memcpy(s->names[s->n], name, n);
		s->names[s->n++][n] = '\0';
	}
	return 0;
}

static void t_names(void **state)
{
	static const char text[] = "(see <https://a.test/r/x%40y.test/T/#u>, "
		"and <m@id.test>.)";
	struct seen s = { .n = 0 };

	(void)state;
	assert_int_equal(commit_names(text, sizeof(text) - 1, collect, &s), 0);
	assert_string_equal(s.names[0], "see");
	assert_string_equal(s.names[1], "https://a.test/r/x%40y.test/T/#u");
	assert_string_equal(s.names[2], "r");
	assert_string_equal(s.names[3], "x@y.test");
	assert_string_equal(s.names[4], "T");
	assert_string_equal(s.names[5], "and");
	assert_string_equal(s.names[6], "m@id.test");
	/* and the whole without its blanks, for a folded link */
	assert_true(s.n >= 8);
	assert_non_null(strstr(s.names[7], "https://a.test/"));
}

/* A message of any bytes: no crash, bounded. */
static void t_hostile(void **state)
{
	static char big[COMMIT_MSG_MAX + 100];
	struct commit_msg m;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(big); i++)
		big[i] = i % 50 == 49 ? '\n' : i % 7 == 0 ? ':' : 'a' +
			(char)(i % 26);
	assert_int_equal(commit_msg_parse(&m, big, sizeof(big)), 0);
	assert_true(m.len <= COMMIT_MSG_MAX);
	commit_msg_release(&m);
	assert_int_equal(commit_msg_parse(&m, "", 0), 0);
	assert_string_equal(m.summary, "");
	assert_int_equal(m.ntrailers, 0);
	commit_msg_release(&m);
	assert_int_equal(commit_msg_parse(&m, "\0\n\nA: b", 6), 0);
	commit_msg_release(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_as_perfbot_writes),
		cmocka_unit_test(t_parse),
		cmocka_unit_test(t_block_rule),
		cmocka_unit_test(t_forms),
		cmocka_unit_test(t_reported_by),
		cmocka_unit_test(t_named),
		cmocka_unit_test(t_revert),
		cmocka_unit_test(t_ref),
		cmocka_unit_test(t_names),
		cmocka_unit_test(t_hostile),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
