/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_CLIOPTS_H
#define PERFBOT_CLIOPTS_H

#include <stdio.h>

/*
 * The command line of every subcommand comes from one table, struct
 * cli_spec: the parser reads it and 'perfbot CMD --help' prints it, so the
 * two cannot drift apart. Options are long ("--name", "--name VALUE",
 * "--name=VALUE"); "--" ends them; -h/--help asks for help anywhere before
 * "--". The global options (--config, --quiet, --verbose, --version) are
 * a table too, whose name is NULL: main() parses them, before the command
 * name, with cli_parse_globals(), and cli_parse() then applies them to a
 * command whose table has them (and refuses them for one that has not).
 */

#define CLI_MAX_OPTS 16
#define CLI_MAX_ARGS 8

struct cli_opt {
	const char *name;	/* without the dashes: "dry-run" */
	const char *arg;	/* the value's name ("FILE"), NULL for a flag */
	const char *help;	/* one line */
};

/* The global options, for a command's table. */
#define CLI_OPT_CONFIG { "config", "FILE", \
	"the configuration (else $PERFBOT_CONFIG, " \
	"$XDG_CONFIG_HOME/perfbot/perfbot.yaml, /etc/perfbot/perfbot.yaml)" }
#define CLI_OPT_QUIET { "quiet", NULL, \
	"print nothing unless something went wrong" }
#define CLI_OPT_VERBOSE { "verbose", NULL, \
	"say more: each step and the files used" }

struct cli_spec {
	const char *name;	/* "compare"; NULL: the global options */
	const char *args;	/* "BASE_ROOT HEAD_ROOT", "" for none */
	int min_args, max_args;
	const char *summary;	/* one line, for 'perfbot --help' */
	const char *details;	/* more lines for --help, or NULL */
	const struct cli_opt *opts;	/* ends with { NULL } */
};

struct cli_args {
	const struct cli_spec *spec;
	const char *val[CLI_MAX_OPTS];	/* NULL: not given; a flag: "" */
	const char *arg[CLI_MAX_ARGS];
	int nargs;
	int help;			/* -h/--help was given */
};

/*
 * Parse argv (argv[0] is the command name). 0: parsed; 1: help was asked
 * for and printed on stdout; -1: a usage error was printed (the caller
 * returns EX_USAGE). An unknown option is named, with a suggestion.
 */
int cli_parse(const struct cli_spec *spec, int argc, char **argv,
	      struct cli_args *a);

/* The value of option 'name' (NULL when not given), or whether a flag is. */
const char *cli_value(const struct cli_args *a, const char *name);
int cli_flag(const struct cli_args *a, const char *name);

/*
 * cli_parse() that prints nothing, neither help nor errors, for a caller
 * that only wants to know (src/cli/front.c): 0, 1 (help asked) or -1.
 */
int cli_check(const struct cli_spec *spec, int argc, char **argv,
	      struct cli_args *a);

/*
 * The global options before the command name (main), parsed with their
 * table 'spec' and kept for the command's cli_parse(). Stops at the first
 * word that is not an option, and after -h/--help ('a->help'). Returns
 * the index of the command name (argc: none), or -1 after printing a
 * usage error.
 */
int cli_parse_globals(const struct cli_spec *spec, int argc, char **argv,
		      struct cli_args *a);

/* Print the synopsis, description and every option. */
void cli_help(const struct cli_spec *spec, FILE *f);
/* Its parts: the folded "usage: perfbot ..." and the options. */
void cli_usage_line(const struct cli_spec *spec, FILE *f);
void cli_help_options(const struct cli_spec *spec, FILE *f);
/* The synopsis line: "perfbot run [--dry-run] [--config FILE] ...". */
void cli_synopsis(const struct cli_spec *spec, FILE *f);

/*
 * Set the log level from --quiet / --verbose. A 'cycle' command (run,
 * send, poll, retest: what cron runs) logs its steps by default and
 * stamps each line with the time when stderr is not a terminal; the
 * others print only warnings and errors unless --verbose.
 */
void cli_apply_log(const struct cli_args *a, int cycle);

#endif
