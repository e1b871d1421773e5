// SPDX-License-Identifier: GPL-2.0-only
/*
 * The command table of perfbot-full and the table of the global options
 * (those before the command name), with the top-level help printed from
 * both.
 */
#include <string.h>

#include "perfbot/cli/cli.h"
#include "perfbot/util/log.h"
#include "perfbot/util/suggest.h"

const struct command cli_commands[] = {
	{ &compare_spec, cmd_compare },
	{ &report_spec, cmd_report },
	{ &run_spec, cmd_run },
	{ &send_spec, cmd_send },
	{ &poll_spec, cmd_poll },
	{ &retest_spec, cmd_retest },
	{ &check_spec, cmd_check },
	{ &status_spec, cmd_status },
	{ &show_spec, cmd_show },
	{ &requeue_spec, cmd_requeue },
	{ &drop_spec, cmd_drop },
	{ &state_spec, cmd_state },
	{ &render_spec, cmd_render },
	{ &web_spec, cmd_web },
	{ NULL, NULL },
};

static const struct cli_opt global_opts[] = {
	CLI_OPT_CONFIG(struct cli_global_opts),
	CLI_OPT_QUIET(struct cli_global_opts),
	CLI_OPT_VERBOSE(struct cli_global_opts),
	CLI_OPT_FLAG("version", struct cli_global_opts, version,
		     "print the version"),
	CLI_OPT_END,
};

const struct cli_spec global_spec = {
	NULL, "COMMAND [ARGS]", 0, 0,
	"mail bot for kernel performance reports", NULL, global_opts,
	sizeof(struct cli_global_opts),
};

void cli_usage(FILE *f)
{
	const struct command *c;

	cli_usage_line(&global_spec, f);
	fprintf(f, "\ncommands:\n");
	for (c = cli_commands; c->spec; c++)
		fprintf(f, "  %-9s %s\n", c->spec->name, c->spec->summary);
	fputc('\n', f);
	cli_help_options(&global_spec, f);
	fprintf(f, "\n'perfbot COMMAND --help' shows a command's options; "
		"'perfbot --version' the version.\n");
	/* where a new operator starts: README "A first report" */
	fprintf(f, "\nTo start: copy the example configuration\n"
		"  %s/config/perfbot.yaml\n"
		"to ~/.config/perfbot/perfbot.yaml and the sample manifest "
		"with its result roots\n"
		"  %s/examples/sample/\n"
		"beside it; set the servers and 'sources: [{dir: sample}]', "
		"then run\n'perfbot check --connect' and 'perfbot run "
		"--dry-run' (README, \"A first report\").\n"
		"Manuals: perfbot(1), perfbot.yaml(5), "
		"perfbot-manifest(5).\n", PERFBOT_DATADIR, PERFBOT_DOCDIR);
}

const struct command *cli_find_command(const char *name)
{
	const struct command *c;

	for (c = cli_commands; c->spec; c++)
		if (!strcmp(c->spec->name, name))
			return c;
	return NULL;
}

int cli_unknown_command(const char *name)
{
	const struct command *c;

	for (c = cli_commands; c->spec; c++)
		if (suggest_close(name, c->spec->name)) {
			log_error("'%s': unknown command (did you mean '%s'?); "
				  "see 'perfbot --help'", name, c->spec->name);
			return EX_USAGE;
		}
	log_error("'%s': unknown command (see 'perfbot --help')", name);
	return EX_USAGE;
}
