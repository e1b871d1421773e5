// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli: 'perfbot drop ID', for the operator: a queued or failed mail that
 * is never to be sent, kept in the state as dropped, the action recorded
 * for 'perfbot status'.
 */
#include <stdio.h>
#include <stdlib.h>

#include "perfbot/cli/cli.h"
#include "perfbot/cli/clicommon.h"
#include "perfbot/util/log.h"
#include "perfbot/state/state.h"
#include "perfbot/state/outbox.h"

struct cli_drop_opts {
	const char *config;
	int quiet, verbose;
};

static const struct cli_opt drop_opts[] = {
	CLI_OPT_CONFIG(struct cli_drop_opts),
	CLI_OPT_QUIET(struct cli_drop_opts),
	CLI_OPT_VERBOSE(struct cli_drop_opts),
	CLI_OPT_END,
};

const struct cli_spec drop_spec = {
	"drop", "ID", 1, 1,
	"never send a queued or failed mail",
	"ID is a mail's id or its Message-ID, as 'perfbot status' shows "
	"them. The mail stays in the state as dropped ('perfbot requeue ID' "
	"queues it again); a sent one is refused. Takes the run lock; the "
	"action is recorded in the state ('perfbot status' shows it).",
	drop_opts, sizeof(struct cli_drop_opts),
};

int cmd_drop(int argc, char **argv)
{
	struct pb_err err = { 0, "" };
	struct state *st = NULL;
	struct cli_drop_opts o;
	struct cli_args a;
	struct config cfg;
	int rc = cli_parse(&drop_spec, argc, argv, &o, &a);

	if (rc)
		return rc > 0 ? 0 : EX_USAGE;
	cli_apply_log(o.quiet, o.verbose, 0);
	if (cli_load_config(&cfg, o.config, 1, &err) ||
	    cli_open_state(&cfg, &st, &err) ||
	    state_drop(st, a.arg[0], cli_now(), cli_who(), &err))
		rc = cli_fail(&err);
	else if (!o.quiet)
		printf("dropped '%s'\n", a.arg[0]);
	state_close(st);
	config_release(&cfg);
	return rc;
}
