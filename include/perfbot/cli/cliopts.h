/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_CLIOPTS_H
#define PERFBOT_CLIOPTS_H

#include <stddef.h>
#include <stdio.h>

#include "perfbot/util/err.h"

/*
 * The command line of every subcommand comes from one table, struct
 * cli_spec: the parser reads it and 'perfbot CMD --help' prints it, so the
 * two cannot drift apart. Options are long ("--name", "--name VALUE",
 * "--name=VALUE"); "--" ends them; -h/--help asks for help anywhere before
 * "--". The global options (--config, --quiet, --verbose, --version) are
 * a table too, whose name is NULL: main() parses them, before the command
 * name, with cli_parse_globals(), and cli_parse() then applies them to a
 * command whose table has them (and refuses them for one that has not).
 *
 * Each option names the variable it fills, as git's parse-options does,
 * so nothing is ever looked up by its name after parsing. The tables stay
 * static and const (main() prints 'perfbot help CMD' and the tests read
 * every table without running the command), so an entry cannot hold the
 * address of a command's local variable; it holds where the variable is
 * in the command's options struct instead, and the command passes that
 * struct to cli_parse():
 *
 *	struct cli_status_opts { int json; const char *config; ... };
 *	static const struct cli_opt status_opts[] = {
 *		CLI_OPT_FLAG("json", struct cli_status_opts, json, "..."),
 *		CLI_OPT_CONFIG(struct cli_status_opts),
 *		...
 *		CLI_OPT_END,
 *	};
 *	...
 *	struct cli_status_opts o;
 *	rc = cli_parse(&status_spec, argc, argv, &o, &a);
 *	... o.json ...
 *
 * The macros take the field's offset and refuse to compile unless the
 * field has the kind's C type (an int for a flag, a const char * for a
 * value), so a table cannot put a string into an int; cli_spec_check()
 * finds what a compiler cannot (an entry bound to nothing, a name or a
 * field twice).
 */

#define CLI_MAX_OPTS 16
#define CLI_MAX_ARGS 8

/* What an option fills; 0 is no kind, so an entry left unbound is seen. */
enum cli_kind {
	CLI_UNBOUND = 0,
	CLI_FLAG,	/* an int: 1 when given, else 0 */
	CLI_STRING,	/* a const char *: the value (a word of argv), else NULL */
};

struct cli_opt {
	const char *name;	/* without the dashes: "dry-run" */
	const char *arg;	/* the value's name ("FILE"), NULL for a flag */
	const char *help;	/* one line */
	enum cli_kind kind;
	size_t at;		/* the variable's offset in the options struct */
};

/* offsetof(type, field), and a compile error unless the field is a 'ctype' */
#define CLI_FIELD(type, field, ctype) \
	_Generic(((type *)0)->field, ctype: offsetof(type, field))

/* "--name": sets the int 'field' of 'type' to 1. */
#define CLI_OPT_FLAG(name, type, field, help) \
	{ name, NULL, help, CLI_FLAG, CLI_FIELD(type, field, int) }
/* "--name ARG": points the const char * 'field' of 'type' at the value. */
#define CLI_OPT_STRING(name, arg, type, field, help) \
	{ name, arg, help, CLI_STRING, CLI_FIELD(type, field, const char *) }
/* The end of a table. */
#define CLI_OPT_END { NULL, NULL, NULL, CLI_UNBOUND, 0 }

/* The global options, for a command's table: fields config, quiet, verbose. */
#define CLI_OPT_CONFIG(type) CLI_OPT_STRING("config", "FILE", type, config, \
	"the configuration (else $PERFBOT_CONFIG, " \
	"$XDG_CONFIG_HOME/perfbot/perfbot.yaml, /etc/perfbot/perfbot.yaml)")
#define CLI_OPT_QUIET(type) CLI_OPT_FLAG("quiet", type, quiet, \
	"print nothing unless something went wrong")
#define CLI_OPT_VERBOSE(type) CLI_OPT_FLAG("verbose", type, verbose, \
	"say more: each step and the files used")

struct cli_spec {
	const char *name;	/* "compare"; NULL: the global options */
	const char *args;	/* "BASE_ROOT HEAD_ROOT", "" for none */
	int min_args, max_args;
	const char *summary;	/* one line, for 'perfbot --help' */
	const char *details;	/* more lines for --help, or NULL */
	const struct cli_opt *opts;	/* ends with CLI_OPT_END */
	size_t size;		/* sizeof the options struct 'opts' fill */
};

/* What is not an option: the arguments, and whether help was asked. */
struct cli_args {
	const struct cli_spec *spec;
	const char *arg[CLI_MAX_ARGS];
	int nargs;
	int help;			/* -h/--help was given */
};

/*
 * Parse argv (argv[0] is the command name) into 'opts', the options
 * struct of spec's table, and 'a'. Every variable of the table is set
 * first (a flag to 0, a value to NULL: not given), and filled only when
 * the whole command line parsed; an option given twice keeps the last
 * value; the global options come first, so the command's own win.
 * Returns 0: parsed; 1: help was asked for and printed on stdout; -1: a
 * usage error was printed (the caller returns EX_USAGE). An unknown
 * option is named, with a suggestion. The values point into argv.
 */
int cli_parse(const struct cli_spec *spec, int argc, char **argv,
	      void *opts, struct cli_args *a);

/*
 * cli_parse() that prints nothing, neither help nor errors, for a caller
 * that only wants to know (src/cli/front.c): 0, 1 (help asked) or -1.
 */
int cli_check(const struct cli_spec *spec, int argc, char **argv,
	      void *opts, struct cli_args *a);

/*
 * The global options before the command name (main), parsed with their
 * table 'spec' into 'opts' and kept for the command's cli_parse(). Stops
 * at the first word that is not an option, and after -h/--help
 * ('a->help'). Returns the index of the command name (argc: none), or -1
 * after printing a usage error.
 */
int cli_parse_globals(const struct cli_spec *spec, int argc, char **argv,
		      void *opts, struct cli_args *a);

/*
 * The value the i-th option of spec's table left in 'opts' when it is a
 * CLI_STRING (NULL when not given), NULL for any other kind: for a caller
 * that looks at every value given (front.c). 'i' must be in the table.
 */
const char *cli_opt_string(const struct cli_spec *spec, const void *opts,
			   int i);

/*
 * Whether spec's table is one the parser can use: every option named
 * (not "help", which the parser keeps), described, bound to a variable
 * of its kind inside the options struct (spec->size), a value name for
 * a value and none for a flag, no name twice, no variable filled twice,
 * at most CLI_MAX_OPTS. 0, or -1 with the first problem in 'err'
 * (EX_SOFTWARE). The unit tests run it over every table.
 */
int cli_spec_check(const struct cli_spec *spec, struct pb_err *err);

/* Print the synopsis, description and every option. */
void cli_help(const struct cli_spec *spec, FILE *f);
/* Its parts: the folded "usage: perfbot ..." and the options. */
void cli_usage_line(const struct cli_spec *spec, FILE *f);
void cli_help_options(const struct cli_spec *spec, FILE *f);
/* The synopsis line: "perfbot run [--dry-run] [--config FILE] ...". */
void cli_synopsis(const struct cli_spec *spec, FILE *f);

/*
 * Set the log level from --quiet / --verbose (the command's variables).
 * A 'cycle' command (run, send, poll, retest: what cron runs) logs its
 * steps by default and stamps each line with the time when stderr is not
 * a terminal; the others print only warnings and errors unless --verbose.
 */
void cli_apply_log(int quiet, int verbose, int cycle);

#endif
