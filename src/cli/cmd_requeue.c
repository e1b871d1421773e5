// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli: 'perfbot requeue ID|--failed', for the operator after fixing what
 * made mail fail (msmtp-queue -r, postsuper -r): the mail queued again,
 * due now, the action recorded in the state for 'perfbot status'.
 */
#include <stdio.h>
#include <stdlib.h>

#include "perfbot/cli/cli.h"
#include "perfbot/cli/clicommon.h"
#include "perfbot/util/log.h"
#include "perfbot/state/state.h"
#include "perfbot/state/outbox.h"

struct cli_requeue_opts {
	int failed;
	const char *config;
	int quiet, verbose;
};

static const struct cli_opt requeue_opts[] = {
	CLI_OPT_FLAG("failed", struct cli_requeue_opts, failed,
		     "every failed mail"),
	CLI_OPT_CONFIG(struct cli_requeue_opts),
	CLI_OPT_QUIET(struct cli_requeue_opts),
	CLI_OPT_VERBOSE(struct cli_requeue_opts),
	CLI_OPT_END,
};

const struct cli_spec requeue_spec = {
	"requeue", "[ID]", 0, 1,
	"queue failed or dropped mail again (ID, or --failed for all)",
	"ID is a mail's id (a report's, an answer's) or its Message-ID, as "
	"'perfbot status' shows them. A failed or dropped mail is queued "
	"again, due now, its refused recipients tried again and its backoff "
	"started afresh; a queued one is made due now; a sent one is refused. "
	"The next 'perfbot run' or 'send' sends it. Takes the run lock; the "
	"action is recorded in the state ('perfbot status' shows it).",
	requeue_opts, sizeof(struct cli_requeue_opts),
};

int cmd_requeue(int argc, char **argv)
{
	struct pb_err err = { 0, "" };
	struct state *st = NULL;
	struct cli_requeue_opts o;
	struct cli_args a;
	struct config cfg;
	long n = 0;
	int rc = cli_parse(&requeue_spec, argc, argv, &o, &a);

	if (rc)
		return rc > 0 ? 0 : EX_USAGE;
	cli_apply_log(o.quiet, o.verbose, 0);
	if (!a.nargs == !o.failed) {
		log_error("requeue: give one mail's ID, or --failed");
		return EX_USAGE;
	}
	if (cli_load_config(&cfg, o.config, 1, &err) ||
	    cli_open_state(&cfg, &st, &err) ||
	    state_requeue(st, a.nargs ? a.arg[0] : NULL, cli_now(),
			  cli_who(), &n, &err))
		rc = cli_fail(&err);
	else if (!o.quiet)
		printf("requeued %ld mail%s; 'perfbot send' sends %s\n", n,
		       n == 1 ? "" : "s", n == 1 ? "it" : "them");
	state_close(st);
	config_release(&cfg);
	return rc;
}
