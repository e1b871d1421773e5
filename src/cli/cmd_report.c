// SPDX-License-Identifier: GPL-2.0-only
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/cli.h"
#include "perfbot/clicommon.h"
#include "perfbot/log.h"
#include "perfbot/mail.h"
#include "perfbot/report.h"
#include "perfbot/reportmail.h"

struct report_cli {
	int dry_run;
	int context;
	const char *template;
	const char *config;
};

static int parse(int argc, char **argv, struct report_cli *o)
{
	static const struct option longopts[] = {
		{ "dry-run", no_argument, NULL, 'n' },
		{ "context", no_argument, NULL, 'x' },
		{ "template", required_argument, NULL, 't' },
		{ "config", required_argument, NULL, 'c' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		if (c == 'n')
			o->dry_run = 1;
		else if (c == 'x')
			o->context = 1;
		else if (c == 't')
			o->template = optarg;
		else if (c == 'c')
			o->config = optarg;
		else
			return -1;
	}
	return argc - optind == 1 ? 0 : -1;
}

static int print_mbox(const struct report *r, const struct config *cfg,
		      struct pb_err *err)
{
	struct strbuf msg = STRBUF_INIT, mbox = STRBUF_INIT;
	char *sender = NULL, *rcpts = NULL;
	int rc = report_mail(r, cfg, &msg, &sender, &rcpts, err);

	if (!rc && mbox_append(&mbox, sender, r->date, sb_str(&msg), msg.len))
		rc = pb_fail(err, EX_OSERR, "out of memory");
	if (!rc && fwrite(sb_str(&mbox), 1, mbox.len, stdout) != mbox.len)
		rc = pb_fail(err, EX_IOERR, "stdout: write failed");
	free(sender);
	free(rcpts);
	sb_release(&msg);
	sb_release(&mbox);
	return rc;
}

static int print_context(const struct report *r, struct pb_err *err)
{
	if (json_dumpf(r->ctx, stdout, JSON_INDENT(2)))
		return pb_fail(err, EX_IOERR, "stdout: write failed");
	fputc('\n', stdout);
	return 0;
}

int cmd_report(int argc, char **argv)
{
	struct report_cli o = { 0, 0, NULL, NULL };
	struct report_opts ro = { NULL, 0, NULL, NULL };
	struct pb_err err = { 0, "" };
	struct manifest m;
	struct config cfg;
	struct report r;
	int rc = -1;

	if (cli_wants_help(argc, argv, "report"))
		return 0;
	if (parse(argc, argv, &o))
		return cli_usage("report");
	if (!o.dry_run && !o.context) {
		log_error("report: sending one report is 'perfbot run'; "
			  "use --dry-run to print the mail");
		return EX_USAGE;
	}
	ro.template = o.template;
	ro.now = cli_now();
	memset(&r, 0, sizeof(r));
	memset(&m, 0, sizeof(m));
	if (cli_load_config(&cfg, o.config, &err))
		return cli_fail(&err);
	if (manifest_load(&m, argv[optind], &err) ||
	    report_build(&r, &m, &cfg, &ro, &err))
		goto out;
	if (!r.worth) {
		pb_fail(&err, EX_DATAERR, "%s: no change of the %s metrics "
			"passes the noise filter; nothing to report",
			argv[optind], "benchmark");
		goto out;
	}
	rc = o.context ? print_context(&r, &err) : print_mbox(&r, &cfg, &err);
out:
	report_release(&r);
	manifest_release(&m);
	config_release(&cfg);
	return rc ? cli_fail(&err) : 0;
}
