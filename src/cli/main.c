// SPDX-License-Identifier: GPL-2.0-only
#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "perfbot/cli.h"
#include "perfbot/log.h"
#include "perfbot/version.h"

static const struct command commands[] = {
	{ "compare", cmd_compare,
	  "perfbot compare BASE_ROOT HEAD_ROOT [--all] [--json] "
	  "[--metrics FILE]",
	  "print the comparison table of two result roots" },
	{ "report", cmd_report,
	  "perfbot report MANIFEST [--dry-run] [--template NAME] "
	  "[--config FILE]",
	  "render one report; --dry-run prints the mail as mbox" },
	{ "run", cmd_run, "perfbot run [--dry-run] [--quiet] [--config FILE]",
	  "one cron cycle: ingest new manifests, queue and send reports" },
	{ "send", cmd_send, "perfbot send [--quiet] [--config FILE]",
	  "send what is queued" },
	{ "poll", cmd_poll, "perfbot poll [--quiet] [--config FILE]",
	  "read replies by IMAP, answer commands, send the answers" },
	{ "retest", cmd_retest, "perfbot retest [--quiet] [--config FILE]",
	  "answer the retests whose runs have landed, send the answers" },
	{ "render", cmd_render,
	  "perfbot render TEMPLATE [CONTEXT.json|-] [--html]",
	  "render any template with a JSON context" },
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: perfbot COMMAND [ARGS]\n\ncommands:\n");
	for (i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-9s %s\n", commands[i].name, commands[i].help);
	fprintf(f, "\n'perfbot COMMAND --help' shows a command's options.\n");
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
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

int cli_usage(const char *cmd)
{
	const struct command *c = find(cmd);

	log_error("usage: %s", c ? c->usage : "perfbot COMMAND [ARGS]");
	return EX_USAGE;
}

int cli_wants_help(int argc, char **argv, const char *cmd)
{
	const struct command *c = find(cmd);
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			return 0;
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			printf("usage: %s\n%s\n", c->usage, c->help);
			return 1;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	const struct command *c;

	setlocale(LC_NUMERIC, "C");
	if (argc < 2) {
		usage(stderr);
		return EX_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("perfbot %s\n", PERFBOT_VERSION);
		return 0;
	}
	c = find(argv[1]);
	if (!c) {
		log_error("'%s': unknown command (see 'perfbot --help')",
			  argv[1]);
		return EX_USAGE;
	}
	return c->run(argc - 1, argv + 1);
}
