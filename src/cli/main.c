// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfbot-full: the global options, then the command (commands.c) with
 * the rest of the command line.
 */
#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "perfbot/ingest/http.h"
#include "perfbot/cli/cli.h"
#include "perfbot/util/version.h"

int main(int argc, char **argv)
{
	const struct command *c = NULL;
	struct cli_global_opts go;
	struct cli_args g;
	int i;

	setlocale(LC_NUMERIC, "C");
	fetch_use(http_get);	/* this binary fetches URLs itself */
	i = cli_parse_globals(&global_spec, argc, argv, &go, &g);
	if (i < 0)
		return EX_USAGE;
	if (go.version) {
		printf("perfbot %s\n", PERFBOT_VERSION);
		return 0;
	}
	/* 'perfbot help run' is 'perfbot run --help' */
	if (!g.help && i < argc && !strcmp(argv[i], "help")) {
		g.help = 1;
		i++;
	}
	if (!g.help && i >= argc) {
		cli_usage(stderr);
		return EX_USAGE;
	}
	if (i < argc && !(c = cli_find_command(argv[i])))
		return cli_unknown_command(argv[i]);
	if (g.help && c)
		cli_help(c->spec, stdout);
	else if (g.help)
		cli_usage(stdout);
	else
		return c->run(argc - i, argv + i);
	return 0;
}
