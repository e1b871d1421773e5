/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_COMMANDS_H
#define PERFBOT_COMMANDS_H

#include <stddef.h>

/*
 * The commands a developer can write in a reply (DESIGN.md "Mail
 * commands"), as a table: each entry parses its arguments and checks them
 * against the limits in force. Doing a command (the act step) belongs to
 * the module that answers; it extends 'struct command_def' with its
 * function pointer, so parsing and checking never touch state.
 */

#define CMD_LINE_MAX 160	/* bytes kept of a command line, NUL included */
#define CMD_PARSE_MAX 512	/* a longer line is never a valid command */
#define CMD_RUNS_SATURATE 1000000	/* larger N are stored as this */

enum cmd_kind { CMD_RETEST, CMD_HELP, CMD_UNKNOWN };

struct mail_command {
	enum cmd_kind kind;
	int runs;		/* retest: N, 0 = not given (use the default) */
	char line[CMD_LINE_MAX];	/* as written, trimmed, control
					 * characters replaced by '?',
					 * truncated on a UTF-8 boundary */
};

struct command_limits {
	int max_runs;		/* retest N must be 1..max_runs */
};

struct command_def {
	const char *name;	/* first word, matched case-insensitively */
	enum cmd_kind kind;
	const char *usage;	/* "retest [N]x", for the help answer */
	const char *summary;	/* one line, for the help answer */
	/* 0 when 'args' (trimmed, NUL-terminated) are valid, else -1. */
	int (*parse)(const char *args, struct mail_command *c);
	/* 0 when 'c' is within 'l', else -1 and a reason in 'why'. */
	int (*check)(const struct mail_command *c,
		     const struct command_limits *l, char *why, size_t whylen);
};

extern const struct command_def command_table[];
extern const size_t command_count;

/* The table entry of 'kind', NULL for CMD_UNKNOWN. */
const struct command_def *command_by_kind(enum cmd_kind kind);

/*
 * Decide whether one line of a reply (not NUL-terminated, 'len' bytes,
 * no newline) is a command, and fill 'c' when it is. The line is trimmed
 * and matched case-insensitively. 'prefix' ("#perfbot", may be NULL) is
 * optional before the command, followed by whitespace or ':'. Without the
 * prefix a line is a command only when it is exactly a valid one, so prose
 * such as "retest the patch please" is not; with the prefix, a line that
 * is not a valid command is CMD_UNKNOWN. Returns 1 for a command, else 0.
 */
int command_parse_line(const char *line, size_t len, const char *prefix,
		       struct mail_command *c);

/*
 * The check step: 0 when 'c' may be done under 'l', else -1 with a short
 * reason in 'why' ("retest: N must be between 1 and 20"). CMD_UNKNOWN
 * always fails ("unknown command '...'").
 */
int command_check(const struct mail_command *c, const struct command_limits *l,
		  char *why, size_t whylen);

#endif
