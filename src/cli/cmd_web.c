// SPDX-License-Identifier: GPL-2.0-only
/*
 * 'perfbot web --out DIR': the web archive (src/web/site.c) built from
 * the state, read only, and the reports' result roots, as a static site
 * that replaces the one DIR shows at once.
 */
#include <stdlib.h>

#include "perfbot/cli/cli.h"
#include "perfbot/cli/clicommon.h"
#include "perfbot/util/log.h"
#include "perfbot/web/site.h"

struct cli_web_opts {
	const char *out;
	int full;
	const char *config;
	int quiet, verbose;
};

static const struct cli_opt web_opts[] = {
	CLI_OPT_STRING("out", "DIR", struct cli_web_opts, out,
		       "the site: a link to the tree DIR.N beside it, "
		       "replaced at once (required)"),
	CLI_OPT_FLAG("full", struct cli_web_opts, full,
		     "make every page again, not only those whose report "
		     "changed"),
	CLI_OPT_CONFIG(struct cli_web_opts),
	CLI_OPT_QUIET(struct cli_web_opts),
	CLI_OPT_VERBOSE(struct cli_web_opts),
	CLI_OPT_END,
};

const struct cli_spec web_spec = {
	"web", "", 0, 0,
	"write the web archive: every report, its thread and runs",
	"Reads the state (never writes it) and each report's result roots and "
	"writes a static site into a new tree beside DIR, then points DIR at "
	"it: index.html, open.html, a page per testcase and per report "
	"(r/ID.html: the mail, the comparison, a strip plot of every run, "
	"the thread, retests), feed.atom and status.html. Only the pages "
	"whose report changed are made again. No JavaScript; any web "
	"server, or file://, shows it.",
	web_opts, sizeof(struct cli_web_opts),
};

int cmd_web(int argc, char **argv)
{
	struct pb_err err = { 0, "" };
	struct cli_web_opts o;
	struct web_opts wo = { 0 };
	struct web_stats ws;
	struct cli_args a;
	struct config cfg;
	char *state = NULL;
	int rc = cli_parse(&web_spec, argc, argv, &o, &a);

	if (rc)
		return rc > 0 ? 0 : EX_USAGE;
	if (!o.out)
		return cli_fail(&(struct pb_err){ EX_USAGE, "web: --out DIR is "
				"required (see 'perfbot web --help')" });
	cli_apply_log(o.quiet, o.verbose, 0);
	if (cli_load_config(&cfg, o.config, 1, &err) ||
	    cli_state_secret(&cfg, &err))
		return cli_fail(&err);
	state = cli_state_path(&cfg);
	wo.out = o.out;
	wo.state = state;
	wo.full = o.full;
	wo.now = cli_now();
	if (!state)
		rc = pb_fail(&err, EX_CONFIG, "state: not set, and no $HOME "
			     "for the default place");
	else
		rc = web_build(&cfg, &wo, &ws, &err);
	if (!rc && ws.skipped)
		log_info("web: another instance holds this duty; skipped");
	else if (!rc)
		log_info("web: %ld reports (%ld pages made, %ld kept), %ld "
			 "files written, %ld kept: %s", ws.reports, ws.made,
			 ws.reused, ws.written, ws.kept, o.out);
	free(state);
	config_release(&cfg);
	return rc ? cli_fail(&err) : 0;
}
