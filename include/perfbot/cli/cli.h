/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_CLI_H
#define PERFBOT_CLI_H

#include "perfbot/cli/cliopts.h"
#include "perfbot/util/err.h"

/*
 * Subcommands. Each takes its own argv (argv[0] is the subcommand name),
 * parses it with its option table (cliopts.h), prints its errors as one
 * line "perfbot: <what>: <why>" and returns a sysexits exit code.
 */

struct command {
	const struct cli_spec *spec;
	int (*run)(int argc, char **argv);
};

/*
 * The options struct of the tables used outside their command's file
 * (cliopts.h): compare's and report's, which front.c parses too, and the
 * global options (commands.c), which main() parses.
 */
struct cli_compare_opts {
	int all, json;
	const char *metrics;
	int quiet, verbose;
};

struct cli_report_opts {
	int dry_run, context;
	const char *template;
	const char *bisect;
	const char *config;
	int quiet, verbose;
};

struct cli_global_opts {
	const char *config;
	int quiet, verbose, version;
};

extern const struct cli_spec compare_spec, report_spec, render_spec,
	run_spec, send_spec, poll_spec, retest_spec, check_spec, status_spec,
	web_spec, requeue_spec, drop_spec, show_spec;
extern const struct cli_spec state_spec;

int cmd_compare(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_render(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_send(int argc, char **argv);
int cmd_poll(int argc, char **argv);
int cmd_retest(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_status(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_web(int argc, char **argv);
int cmd_requeue(int argc, char **argv);
int cmd_drop(int argc, char **argv);
int cmd_state(int argc, char **argv);

/* The commands of perfbot-full (commands.c), ending with { NULL }. */
extern const struct command cli_commands[];
/* The options before the command name: --config, --quiet, ... */
extern const struct cli_spec global_spec;

/* 'perfbot --help': the global synopsis, the commands, the options. */
void cli_usage(FILE *f);
const struct command *cli_find_command(const char *name);
/* Say that 'name' is no command (maybe which is meant): EX_USAGE. */
int cli_unknown_command(const char *name);

/* Print 'err' as the one error line and return its exit code. */
int cli_fail(const struct pb_err *err);

#endif
