/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_CLI_H
#define PERFBOT_CLI_H

#include "perfbot/err.h"

/*
 * Subcommands. Each takes its own argv (argv[0] is the subcommand name),
 * prints its errors as one line "perfbot: <what>: <why>" and returns a
 * sysexits exit code.
 */

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *usage;	/* the synopsis line */
	const char *help;	/* one line */
};

int cmd_compare(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_render(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_send(int argc, char **argv);
int cmd_poll(int argc, char **argv);
int cmd_retest(int argc, char **argv);

/* Print 'err' as the one error line and return its exit code. */
int cli_fail(const struct pb_err *err);
/* Print "perfbot: usage: <usage>" and return EX_USAGE. */
int cli_usage(const char *cmd);
/* 1 when argv[i] asks for help (-h/--help): prints the usage to stdout. */
int cli_wants_help(int argc, char **argv, const char *cmd);

#endif
