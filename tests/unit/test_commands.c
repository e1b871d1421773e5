// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for the command syntax (src/parse/commands.c, with the
 * table's parse and check entries of src/act/dispatch.c): which lines
 * are commands with and without the "#perfbot" prefix, the lenient
 * argument forms of retest, the kept line (escaped, bounded), and the
 * check step against the limits.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <cmocka.h>

#include "perfbot/parse/commands.h"
#include "perfbot/act/dispatch.h"

#define PREFIX "#perfbot"

static const struct command_limits limits = { 20 };

/* Parse a NUL-terminated line; the return of command_parse_line(). */
static int parse(const char *line, const char *prefix, struct mail_command *c)
{
	return command_parse_line(line, strlen(line), prefix, command_lookup, c);
}

static void assert_cmd(const char *line, enum cmd_kind kind, int runs)
{
	struct mail_command c;

	if (parse(line, PREFIX, &c) != 1)
		fail_msg("'%s' is not a command", line);
	assert_int_equal(c.kind, kind);
	assert_int_equal(c.runs, runs);
}

static void assert_not_cmd(const char *line, const char *prefix)
{
	struct mail_command c;

	if (parse(line, prefix, &c) != 0)
		fail_msg("'%s' read as a command of kind %d", line, c.kind);
}

static void t_retest_forms(void **state)
{
	(void)state;
	assert_cmd("retest", CMD_RETEST, 0);
	assert_cmd("retest 4x", CMD_RETEST, 4);
	assert_cmd("retest 4", CMD_RETEST, 4);
	assert_cmd("retest 4 x", CMD_RETEST, 4);
	assert_cmd("retest 4X", CMD_RETEST, 4);
	assert_cmd("retest\t12x", CMD_RETEST, 12);
	assert_cmd("  retest   7x  ", CMD_RETEST, 7);
	assert_cmd("Retest 3x\r", CMD_RETEST, 3);
	assert_cmd("RETEST 2X", CMD_RETEST, 2);
	assert_cmd("retest 020x", CMD_RETEST, 20);
}

static void t_help(void **state)
{
	(void)state;
	assert_cmd("help", CMD_HELP, 0);
	assert_cmd("HELP", CMD_HELP, 0);
	assert_cmd("\thelp ", CMD_HELP, 0);
}

/*
 * Item 8 of issue 22: what clients write around a command that is no
 * character of it: a byte order mark, the ideographic space, zero-width
 * spaces and joiners, a soft hyphen, the other Unicode spaces.
 */
static void t_invisible_characters(void **state)
{
	struct mail_command c;

	(void)state;
	assert_cmd("\xef\xbb\xbfretest 4x", CMD_RETEST, 4);	/* BOM */
	assert_cmd("\xe3\x80\x80retest\xe3\x80\x80" "4x", CMD_RETEST, 4);
	assert_cmd("retest 4x\xe2\x80\x8b", CMD_RETEST, 4);	/* ZWSP */
	assert_cmd("help\xe2\x80\x8b\xe2\x80\x8c\xe2\x80\x8d\xe2\x81"
		   "\xa0", CMD_HELP, 0);
	assert_cmd("re\xc2\xadtest 2x", CMD_RETEST, 2);	/* soft hyphen */
	assert_cmd("retest\xe2\x80\x82" "3x\xe1\x9a\x80", CMD_RETEST, 3);
	assert_cmd("#perfbot\xe3\x80\x80help", CMD_HELP, 0);
	/* the line echoed back is the plain one */
	assert_int_equal(parse("\xef\xbb\xbfretest 4x\xe2\x80\x8b", PREFIX,
			       &c), 1);
	assert_string_equal(c.line, "retest 4x");
	/* other characters still make it prose */
	assert_not_cmd("retest\xe2\x80\x94" "4x", PREFIX);	/* em dash */
	assert_not_cmd("\xe2\x80\x8bretest 4x please", PREFIX);
}

static void t_prose_is_not_a_command(void **state)
{
	static const char *const prose[] = {
		"help me understand this", "retest the patch please",
		"retest 4x.", "retest 4x please", "retest x4", "retest 4xx",
		"retest 4 5", "retest -1", "retest 0", "retest 0x",
		"retests", "helpful", "Can you retest 4x?", "> retest 4x",
		"retest: 4x", "", "   ", "#perfbot help",
	};
	size_t i;

	(void)state;
	/* With no prefix configured, "#perfbot help" is prose too. */
	for (i = 0; i < sizeof(prose) / sizeof(prose[0]); i++)
		assert_not_cmd(prose[i], NULL);
	assert_not_cmd("#perfbot help", "");
	assert_not_cmd("retest the patch please", PREFIX);
	assert_not_cmd("#perfbotretest 2x", PREFIX);
}

static void t_prefix(void **state)
{
	(void)state;
	assert_cmd("#perfbot retest 3", CMD_RETEST, 3);
	assert_cmd("#perfbot: help", CMD_HELP, 0);
	assert_cmd("#perfbot:help", CMD_HELP, 0);
	assert_cmd("#perfbot :  retest 2x", CMD_RETEST, 2);
	assert_cmd("#PERFBOT RETEST 5X", CMD_RETEST, 5);
	assert_cmd("  #perfbot\thelp", CMD_HELP, 0);
}

static void t_prefix_unknown(void **state)
{
	(void)state;
	/* With the prefix a line is meant for the bot: it gets an answer. */
	assert_cmd("#perfbot frobnicate", CMD_UNKNOWN, 0);
	assert_cmd("#perfbot", CMD_UNKNOWN, 0);
	assert_cmd("#perfbot:", CMD_UNKNOWN, 0);
	assert_cmd("#perfbot retest please", CMD_UNKNOWN, 0);
	assert_cmd("#perfbot retest 0", CMD_UNKNOWN, 0);
	assert_cmd("#perfbot help me", CMD_UNKNOWN, 0);
}

static void t_line_kept(void **state)
{
	struct mail_command c;

	(void)state;
	assert_int_equal(parse("  #perfbot retest 4x  ", PREFIX, &c), 1);
	assert_string_equal(c.line, "#perfbot retest 4x");
	assert_int_equal(parse("#perfbot \x1b[31mred\x7f", PREFIX, &c), 1);
	assert_string_equal(c.line, "#perfbot ?[31mred?");
}

static void t_line_truncated_on_utf8(void **state)
{
	char line[400];
	struct mail_command c;
	size_t i, n;

	(void)state;
	n = (size_t)snprintf(line, sizeof(line), "#perfbot ");
	for (i = 0; i < 150; i++, n += 2)
		memcpy(line + n, "\xc3\xa9", 2);	/* é */
	line[n] = '\0';
	assert_int_equal(parse(line, PREFIX, &c), 1);
	assert_int_equal(c.kind, CMD_UNKNOWN);
	n = strlen(c.line);
	assert_true(n <= CMD_LINE_MAX - 1);
	assert_true(n >= CMD_LINE_MAX - 2);
	/* No half character at the end: 9 ASCII bytes, then pairs. */
	assert_int_equal((n - 9) % 2, 0);
}

static void t_long_line(void **state)
{
	char line[CMD_PARSE_MAX + 64];
	struct mail_command c;

	(void)state;
	memset(line, ' ', sizeof(line));
	memcpy(line, "retest 4x", 9);
	line[sizeof(line) - 2] = 'y';
	line[sizeof(line) - 1] = '\0';
	assert_int_equal(parse(line, PREFIX, &c), 0);
	memcpy(line, "#perfbot ", 9);
	assert_int_equal(parse(line, PREFIX, &c), 1);
	assert_int_equal(c.kind, CMD_UNKNOWN);
	/* Not NUL-terminated input is read by length only. */
	assert_int_equal(command_parse_line("helpXXXX", 4, PREFIX, command_lookup, &c), 1);
	assert_int_equal(c.kind, CMD_HELP);
	assert_string_equal(c.line, "help");
}

static void t_runs_saturate(void **state)
{
	struct mail_command c;
	char why[128];

	(void)state;
	assert_int_equal(parse("retest 99999999999999999999999x", PREFIX, &c), 1);
	assert_int_equal(c.runs, CMD_RUNS_SATURATE);
	assert_int_equal(command_check(&c, &limits, why, sizeof(why)), -1);
}

static void t_check_bounds(void **state)
{
	struct mail_command c;
	char why[128];
	int n;

	(void)state;
	memset(&c, 0, sizeof(c));
	c.kind = CMD_RETEST;
	for (n = 0; n <= 20; n++) {
		if (n == 1)
			continue;
		c.runs = n;
		why[0] = '\0';
		assert_int_equal(command_check(&c, &limits, why, sizeof(why)), 0);
		assert_string_equal(why, "");
	}
	c.runs = 21;
	assert_int_equal(command_check(&c, &limits, why, sizeof(why)), -1);
	assert_string_equal(why, "retest: N must be between 2 and 20");
	c.runs = 1;
	assert_int_equal(command_check(&c, &limits, why, sizeof(why)), -1);
	assert_string_equal(why, "retest: N must be between 2 and 20 (one "
			    "more run a side cannot be tested)");
	c.runs = -3;
	assert_int_equal(command_check(&c, &limits, why, sizeof(why)), -1);
	c.runs = 5;
	assert_int_equal(command_check(&c, &(struct command_limits){ 4 }, why,
				       sizeof(why)), -1);
	assert_string_equal(why, "retest: N must be between 2 and 4");
}

static void t_check_help_and_unknown(void **state)
{
	struct mail_command c;
	char why[128] = "";

	(void)state;
	assert_int_equal(parse("help", PREFIX, &c), 1);
	assert_int_equal(command_check(&c, &limits, why, sizeof(why)), 0);
	assert_int_equal(parse("#perfbot frobnicate", PREFIX, &c), 1);
	assert_int_equal(command_check(&c, &limits, why, sizeof(why)), -1);
	assert_string_equal(why, "unknown command '#perfbot frobnicate'");
}

static void t_check_small_why(void **state)
{
	struct mail_command c;
	char why[8];

	(void)state;
	memset(&c, 0, sizeof(c));
	c.kind = CMD_RETEST;
	c.runs = 99;
	assert_int_equal(command_check(&c, &limits, why, sizeof(why)), -1);
	assert_string_equal(why, "retest:");
}

/* 'line' is a test of 'form' with 'runs', 'repo' and 'ref' (NULL: ""). */
static void assert_test(const char *line, enum test_form form, int runs,
			const char *repo, const char *ref)
{
	struct mail_command c;

	if (parse(line, PREFIX, &c) != 1)
		fail_msg("'%s' is not a command", line);
	assert_int_equal(c.kind, CMD_TEST);
	if (c.form != form)
		fail_msg("'%s': form %d, want %d", line, c.form, form);
	assert_int_equal(c.runs, runs);
	assert_string_equal(c.repo, repo ? repo : "");
	assert_string_equal(c.ref, ref ? ref : "");
}

#define SHA40 "3da90b159b146672f830bcd2489dd3a1f4e9e089"
#define REPO "https://git.kernel.org/pub/scm/linux/kernel/git/next/linux.git"

/* Issue 18, item 2: the forms of "test", each with a count or not. */
static void t_test_forms(void **state)
{
	(void)state;
	/* the patch of the mail */
	assert_test("test", TEST_PATCH, 0, NULL, NULL);
	assert_test("Test", TEST_PATCH, 0, NULL, NULL);
	assert_test("test 8x", TEST_PATCH, 8, NULL, NULL);
	/* a count alone needs its 'x' (issue 29: "Test 30" is a heading) */
	assert_test("#perfbot test 8", TEST_PATCH, 8, NULL, NULL);
	assert_test("test 8 x", TEST_PATCH, 8, NULL, NULL);
	assert_test("TEST 12X", TEST_PATCH, 12, NULL, NULL);
	assert_test("#perfbot test", TEST_PATCH, 0, NULL, NULL);
	assert_test("#perfbot: test 4x", TEST_PATCH, 4, NULL, NULL);
	/* a commit of the reported tree: 7 to 40 hex digits */
	assert_test("test 3da90b1", TEST_COMMIT, 0, NULL, "3da90b1");
	assert_test("test 1234567", TEST_COMMIT, 0, NULL, "1234567");
	assert_test("test " SHA40 " 6x", TEST_COMMIT, 6, NULL, SHA40);
	assert_test("test " SHA40 " 6", TEST_COMMIT, 6, NULL, SHA40);
	/* a tree as it is */
	assert_test("test " REPO " perf-fix", TEST_TREE, 0, REPO, "perf-fix");
	assert_test("test git://git.example.org/linux.git for-next 4x",
		    TEST_TREE, 4, "git://git.example.org/linux.git",
		    "for-next");
	assert_test("test\t" REPO "\t" SHA40, TEST_TREE, 0, REPO, SHA40);
	/* written as repositories, refused by the act step, not prose */
	assert_test("test git@github.com:dev/linux.git fix", TEST_TREE, 0,
		    "git@github.com:dev/linux.git", "fix");
	assert_test("test /home/dev/linux fix", TEST_TREE, 0,
		    "/home/dev/linux", "fix");
	assert_test("test file:///srv/linux master", TEST_TREE, 0,
		    "file:///srv/linux", "master");
	assert_test("test ssh://git.example.org/linux.git master", TEST_TREE,
		    0, "ssh://git.example.org/linux.git", "master");
	assert_test("test ../linux master", TEST_TREE, 0, "../linux",
		    "master");
	assert_test("test -uhttps://evil.example/x y", TEST_TREE, 0,
		    "-uhttps://evil.example/x", "y");
}

/* Grammar errors: a line that asks for a test in none of the forms. */
static void t_test_malformed(void **state)
{
	char line[CMD_PARSE_MAX];

	(void)state;
	assert_test("test " REPO, TEST_MALFORMED, 0, NULL, NULL);
	assert_test("test " REPO " a b", TEST_MALFORMED, 0, REPO, "a");
	assert_test("test " REPO " fix 4x more", TEST_MALFORMED, 4, REPO,
		    "fix");
	assert_test("test " REPO " fix please", TEST_MALFORMED, 0, REPO,
		    "fix");
	/* a URL too long to keep */
	memset(line, 'a', sizeof(line));
	memcpy(line, "test https://", 13);
	memcpy(line + 450, " fix", 5);
	assert_test(line, TEST_MALFORMED, 0, NULL, NULL);
	/* with the prefix, what is no form at all is unknown */
	assert_cmd("#perfbot test this please", CMD_UNKNOWN, 0);
	assert_cmd("#perfbot test 0x", CMD_UNKNOWN, 0);
}

/* A line that nearly is a command: 'near', and the form meant. */
static void assert_near(const char *line, int near, const char *arg)
{
	struct mail_command c;

	if (parse(line, PREFIX, &c) != 1)
		fail_msg("'%s' is not read", line);
	assert_int_equal(c.kind, CMD_UNKNOWN);
	assert_int_equal(c.near, near);
	assert_string_equal(c.arg, arg);
}

/* Issue 29: near-misses are answered (to the sender alone) with the form. */
static void t_near(void **state)
{
	static const char *const prose[] = {
		"Thanks", "tests", "Testing", "reopened", "Retested it",
		"detest the weather", "Fix: the list walk", "Fix the race",
		"retest the patch", "Invalid argument", "unset", "help me",
	};
	struct mail_command c;
	size_t i;

	(void)state;
	assert_near("retset 3x", CMD_NEAR_TYPO, "retest 3x");
	assert_near("Rtest 4", CMD_NEAR_TYPO, "retest 4");
	assert_near("reopne", CMD_NEAR_TYPO, "reopen");
	assert_near("invlid", CMD_NEAR_TYPO, "invalid");
	assert_near("fix:", CMD_NEAR_BARE, "fix");
	assert_near("Dup:", CMD_NEAR_BARE, "Dup");
	assert_near("#perfbot retset 3x", CMD_NEAR_TYPO, "retest 3x");
	for (i = 0; i < sizeof(prose) / sizeof(prose[0]); i++)
		if (parse(prose[i], PREFIX, &c) == 1 && c.near)
			fail_msg("'%s' read as a near-miss", prose[i]);
	/* a command is no near-miss */
	assert_cmd("retest 3x", CMD_RETEST, 3);
	assert_int_equal(parse("retest 3x", PREFIX, &c), 1);
	assert_int_equal(c.near, 0);
}

/* A table of the test's own for the grammar: "note: TEXT", "ping". */
static int parse_text(const char *args, struct mail_command *c)
{
	if (!c->colon || !*args)
		return -1;
	command_keep_arg(c, args);
	return 0;
}

static int parse_none(const char *args, struct mail_command *c)
{
	return *args || c->colon ? -1 : 0;
}

static int own_lookup(const char *word, size_t len, struct command_word *w)
{
	if (len == 4 && !strncasecmp(word, "note", 4)) {
		w->kind = 7;
		w->parse = parse_text;
		w->near_bare = 1;
	} else if (len == 4 && !strncasecmp(word, "ping", 4)) {
		w->kind = 8;
		w->parse = parse_none;
		w->near_bare = 0;
	} else {
		return -1;
	}
	return 0;
}

/*
 * Issue 30 item 3: the grammar knows no command; what each is (its kind,
 * its arguments, whether "NAME:" alone nearly is it) is the lookup's.
 */
static void t_grammar_only(void **state)
{
	struct mail_command c;

	(void)state;
	assert_int_equal(command_parse_line("note: a b", 9, PREFIX,
					    own_lookup, &c), 1);
	assert_int_equal(c.kind, 7);
	assert_string_equal(c.arg, "a b");
	assert_int_equal(command_parse_line("note:", 5, PREFIX, own_lookup,
					    &c), 1);
	assert_int_equal(c.kind, CMD_UNKNOWN);
	assert_int_equal(c.near, CMD_NEAR_BARE);
	assert_string_equal(c.arg, "note");
	assert_int_equal(command_parse_line("ping:", 5, PREFIX, own_lookup,
					    &c), 0);
	assert_int_equal(command_parse_line("fix:", 4, PREFIX, own_lookup,
					    &c), 0);
	assert_int_equal(command_parse_line("ping", 4, NULL, own_lookup, &c),
			 1);
	assert_int_equal(c.kind, 8);
	/* and the table's own: the usage "fix: TITLE or SHA" says it */
	assert_near("fix:", CMD_NEAR_BARE, "fix");
	assert_int_equal(parse("invalid:", PREFIX, &c), 1);
	assert_int_equal(c.kind, CMD_INVALID);
}

/* What reads as prose stays prose: no answer. */
static void t_test_prose(void **state)
{
	static const char *const prose[] = {
		"test this please", "test it", "test it again", "test 2 patches",
		"test 3da90b1 is the culprit", "test 0x", "test -1",
		"test 8x please", "test the patch below", "tests", "testing",
		"test: 4x", "> test", "test 1234567x", "test 4 5",
		/* issue 29: a heading, and shell */
		"Test 30", "test 8", "test /sys/kernel/debug/x || {",
		"test -d /sys/x || {", "test $FOO = y", "test /tmp/a && b",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(prose) / sizeof(prose[0]); i++)
		assert_not_cmd(prose[i], PREFIX);
}

/* The check step: N from 2 to max_runs, as for a retest. */
static void t_test_check(void **state)
{
	struct mail_command c;
	char why[128] = "";

	(void)state;
	assert_int_equal(parse("test 20x", PREFIX, &c), 1);
	assert_int_equal(command_check(&c, &limits, why, sizeof(why)), 0);
	assert_int_equal(parse("test 21x", PREFIX, &c), 1);
	assert_int_equal(command_check(&c, &limits, why, sizeof(why)), -1);
	assert_string_equal(why, "test: N must be between 2 and 20");
	assert_int_equal(parse("test " REPO " fix 1x", PREFIX, &c), 1);
	assert_int_equal(command_check(&c, &limits, why, sizeof(why)), -1);
	assert_string_equal(why, "test: N must be between 2 and 20 (one run "
			    "cannot be tested)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_retest_forms),
		cmocka_unit_test(t_help),
		cmocka_unit_test(t_invisible_characters),
		cmocka_unit_test(t_prose_is_not_a_command),
		cmocka_unit_test(t_prefix),
		cmocka_unit_test(t_prefix_unknown),
		cmocka_unit_test(t_line_kept),
		cmocka_unit_test(t_line_truncated_on_utf8),
		cmocka_unit_test(t_long_line),
		cmocka_unit_test(t_runs_saturate),
		cmocka_unit_test(t_check_bounds),
		cmocka_unit_test(t_check_help_and_unknown),
		cmocka_unit_test(t_check_small_why),
		cmocka_unit_test(t_test_forms),
		cmocka_unit_test(t_test_malformed),
		cmocka_unit_test(t_test_prose),
		cmocka_unit_test(t_near),
		cmocka_unit_test(t_grammar_only),
		cmocka_unit_test(t_test_check),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
