/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_COMMANDS_H
#define PERFBOT_COMMANDS_H

#include <stddef.h>

/*
 * The syntax of the commands a developer can write in a reply
 * (doc/design.md, "Mail commands"): which lines are commands and how their arguments
 * read. What each command is (its arguments, its check, its act step)
 * is the one command table of act/dispatch.c (perfbot/dispatch.h).
 */

#define CMD_LINE_MAX 160	/* bytes kept of a command line, NUL included */
#define CMD_PARSE_MAX 512	/* a longer line is never a valid command */
#define CMD_RUNS_SATURATE 1000000	/* larger N are stored as this */
#define CMD_ARG_MAX (CMD_PARSE_MAX + 1)	/* a command's text argument */
#define CMD_LINE_REF_MAX 10000	/* "<N>": the lines of a reminder */

/*
 * What a command is the grammar never says: mail_command.kind is the
 * kind the lookup handed over (act/dispatch.h's enum cmd_kind, next to
 * the command table), or CMD_UNKNOWN for a line that is no valid
 * command.
 */
#define CMD_UNKNOWN 0

/*
 * The forms of "test" (command_parse_test()): the patch of the mail on
 * the reported commit, a tree as it is, a commit of the reported tree;
 * TEST_MALFORMED is a line that asks for a test in none of them (answered
 * with the forms).
 */
enum test_form { TEST_PATCH, TEST_TREE, TEST_COMMIT, TEST_MALFORMED };

#define CMD_REPO_MAX 400	/* bytes of a test's repository URL, NUL incl. */
#define CMD_REF_MAX 256		/* of its branch or commit */

#define CMD_NEAR_BARE 1
#define CMD_NEAR_TYPO 2

struct mail_command {
	int kind;		/* the lookup's, or CMD_UNKNOWN */
	int runs;		/* retest, test: N, 0 = not given (use the
				 * default) */
	enum test_form form;	/* test */
	char repo[CMD_REPO_MAX];	/* test URL REF: the URL as written */
	char ref[CMD_REF_MAX];	/* test URL REF: REF; test COMMIT: COMMIT */
	int remind_line;	/* "<N>": line N of a reminder, 0 none */
	int prefixed;		/* the line had the prefix ("#perfbot") */
	int colon;		/* the word was written with a ':' after it */
	int near;		/* CMD_UNKNOWN that nearly is a command:
				 * CMD_NEAR_BARE ("fix:" with nothing after
				 * it; arg the command's name) or
				 * CMD_NEAR_TYPO ("retset 3x"; arg the line
				 * meant, "retest 3x"); 0 otherwise */
	char arg[CMD_ARG_MAX];	/* a text argument (a title, a Message-ID,
				 * a reason), trimmed, control characters
				 * replaced by '?'; "" when none */
	char line[CMD_LINE_MAX];	/* as written, trimmed, control
					 * characters replaced by '?',
					 * truncated on a UTF-8 boundary */
};

/*
 * What the syntax step needs of a command the grammar knows: its kind
 * (never CMD_UNKNOWN), the reader of its arguments (0 when 'args',
 * trimmed and NUL-terminated, are valid, else -1) and whether "WORD:"
 * with nothing after it nearly is the command (its text follows the
 * ':', as "fix: TITLE" and "dup: REPORT": CMD_NEAR_BARE). The words come
 * from the one command table of act/dispatch.c, whose command_lookup()
 * the caller hands over.
 */
struct command_word {
	int kind;
	int (*parse)(const char *args, struct mail_command *c);
	int near_bare;
};

/* 0 with 'w' filled when 'word' ('len' bytes, any case) is a command. */
typedef int (*command_lookup_fn)(const char *word, size_t len,
				 struct command_word *w);

/*
 * Decide whether one line of a reply (not NUL-terminated, 'len' bytes,
 * no newline) is a command, and fill 'c' when it is. The line is trimmed
 * and matched case-insensitively. 'prefix' ("#perfbot", may be NULL) is
 * optional before the command, followed by whitespace or ':'; the words
 * are looked up with 'lookup' (NULL: none is a command). The word ends
 * at white space or after a ':' ("fix:TITLE"); a word that ends in ':'
 * and is no command itself is looked up without it, with 'c->colon' set
 * for its parse entry to accept or refuse. Without the prefix a line is
 * a command only when it is exactly a valid one, so prose such as
 * "retest the patch please" is not; with the prefix, a line that is not
 * a valid command is CMD_UNKNOWN. A line that nearly is one, "fix:" or
 * "dup:" with nothing after it or one mistyped word of five letters or
 * more ("retset 3x"), is CMD_UNKNOWN with 'near' set, so that its sender
 * is told the form meant. Returns 1 for a command, else 0.
 */
int command_parse_line(const char *line, size_t len, const char *prefix,
		       command_lookup_fn lookup, struct mail_command *c);

/*
 * A count argument as people and mail clients write it: "" (not given:
 * '*runs' 0), "N", "Nx", "N x", "NX"; N past CMD_RUNS_SATURATE is stored
 * as that. 0, or -1 for anything else (N = 0 included).
 */
int command_parse_count(const char *args, int *runs);

/*
 * The arguments of "test", each form with an optional count (N, Nx) at
 * the end: "" (the patch in the mail), "COMMIT" (7 to 40 hex digits),
 * "REPO REF" where REPO is written as a repository (a URL "scheme://...",
 * an scp-like "host:path", a path starting with '/', '~' or '.', a
 * "file:" one: which of them may be used is the act step's to say, so
 * a hostile one is answered, not passed over). Fills c->form, c->repo,
 * c->ref and c->runs. A first word that is no repository, commit or
 * count is prose: -1. A repository without a REF, a word too many, a
 * count that does not read, or a value too long for c->repo and c->ref
 * is TEST_MALFORMED (0): the line asks for a test, and is answered with
 * the forms.
 */
int command_parse_test(const char *args, struct mail_command *c);

/*
 * A line of a reminder at the start of 'args': "<N>" (N from 1 to
 * CMD_LINE_REF_MAX) and the white space after it: '*ref' N and '*args' moved
 * past it; '*ref' 0 when 'args' does not start with one. -1 for a "<N>"
 * out of range.
 */
int command_parse_ref(const char **args, int *ref);

/* Keep 'args' (trimmed, at most CMD_ARG_MAX - 1 bytes) as c->arg. */
void command_keep_arg(struct mail_command *c, const char *args);

#endif
