// SPDX-License-Identifier: GPL-2.0-only
#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "perfbot/cli.h"
#include "perfbot/log.h"
#include "perfbot/suggest.h"
#include "perfbot/version.h"

static const struct command commands[] = {
	{ &compare_spec, cmd_compare },
	{ &report_spec, cmd_report },
	{ &run_spec, cmd_run },
	{ &send_spec, cmd_send },
	{ &poll_spec, cmd_poll },
	{ &retest_spec, cmd_retest },
	{ &check_spec, cmd_check },
	{ &status_spec, cmd_status },
	{ &render_spec, cmd_render },
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: perfbot [--config FILE] [--quiet] [--verbose] "
		"COMMAND [ARGS]\n\ncommands:\n");
	for (i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-9s %s\n", commands[i].spec->name,
			commands[i].spec->summary);
	fprintf(f, "\n'perfbot COMMAND --help' shows a command's options; "
		"'perfbot --version' the version.\n");
}

int cli_fail(const struct pb_err *err)
{
	log_error("%s", err->msg);
	return err->code ? err->code : EX_SOFTWARE;
}

static const struct command *find(const char *name)
{
	size_t i;

	for (i = 0; i < NCOMMANDS; i++)
		if (!strcmp(commands[i].spec->name, name))
			return &commands[i];
	return NULL;
}

static int unknown_command(const char *name)
{
	size_t i;

	for (i = 0; i < NCOMMANDS; i++)
		if (suggest_close(name, commands[i].spec->name)) {
			log_error("'%s': unknown command (did you mean '%s'?); "
				  "see 'perfbot --help'", name,
				  commands[i].spec->name);
			return EX_USAGE;
		}
	log_error("'%s': unknown command (see 'perfbot --help')", name);
	return EX_USAGE;
}

int main(int argc, char **argv)
{
	const struct command *c;
	int i;

	setlocale(LC_NUMERIC, "C");
	i = cli_set_globals(argc, argv);
	if (i < 0)
		return EX_USAGE;
	if (i >= argc) {
		usage(stderr);
		return EX_USAGE;
	}
	if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h") ||
	    !strcmp(argv[i], "help")) {
		/* 'perfbot help run' is 'perfbot run --help' */
		c = i + 1 < argc ? find(argv[i + 1]) : NULL;
		if (i + 1 < argc && !c)
			return unknown_command(argv[i + 1]);
		if (c)
			cli_help(c->spec, stdout);
		else
			usage(stdout);
		return 0;
	}
	if (!strcmp(argv[i], "--version")) {
		printf("perfbot %s\n", PERFBOT_VERSION);
		return 0;
	}
	c = find(argv[i]);
	if (!c)
		return unknown_command(argv[i]);
	return c->run(argc - i, argv + i);
}
