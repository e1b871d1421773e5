// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli: 'perfbot report MANIFEST', one report taken through ingest,
 * compare, judge, render and compose but never sent: --dry-run prints
 * the mail as an mbox, --context the template context as JSON. Sending
 * is 'perfbot run'.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/cycle/report.h"
#include "perfbot/cli/cli.h"
#include "perfbot/cli/clicommon.h"
#include "perfbot/util/log.h"
#include "perfbot/compose/mail.h"
#include "perfbot/render/report.h"
#include "perfbot/compose/reportmail.h"
#include "perfbot/judge/bisect.h"
#include "perfbot/util/fileio.h"

#define BISECT_FILE_MAX ((size_t)64 << 20)

static const struct cli_opt report_opts[] = {
	CLI_OPT_FLAG("dry-run", struct cli_report_opts, dry_run,
		     "print the mail as an mbox (mutt -f reads it); nothing is "
		     "sent"),
	CLI_OPT_FLAG("context", struct cli_report_opts, context,
		     "print the template context as JSON instead: every field "
		     "a report template can use"),
	CLI_OPT_STRING("template", "NAME", struct cli_report_opts, template,
		       "the report template (templates/NAME.txt; else "
		       "templates.report of the config, else 'report')"),
	CLI_OPT_STRING("bisect", "FILE", struct cli_report_opts, bisect,
		       "the report of a bisection that is done (its JSON "
		       "form, doc/bisect.md): MANIFEST is then the culprit's "
		       "parent against the culprit, or the range when it was "
		       "inconclusive"),
	CLI_OPT_CONFIG(struct cli_report_opts),
	CLI_OPT_QUIET(struct cli_report_opts),
	CLI_OPT_VERBOSE(struct cli_report_opts),
	CLI_OPT_END,
};

const struct cli_spec report_spec = {
	"report", "MANIFEST", 1, 1,
	"render one report; --dry-run prints the mail as mbox",
	"Sending a report is 'perfbot run'; 'report' only shows it. Without a "
	"configuration file the built-in defaults are used.",
	report_opts, sizeof(struct cli_report_opts),
};

static int print_mbox(const struct report *r, const struct config *cfg,
		      struct pb_err *err)
{
	struct strbuf mbox = STRBUF_INIT;
	struct composed c;
	int rc = report_compose(r, cfg, &c, err);

	if (!rc && mbox_append(&mbox, c.sender, c.date, sb_str(&c.msg),
			       c.msg.len))
		rc = pb_fail(err, EX_OSERR, "out of memory");
	if (!rc && fwrite(sb_str(&mbox), 1, mbox.len, stdout) != mbox.len)
		rc = pb_fail(err, EX_IOERR, "stdout: write failed");
	composed_release(&c);
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

/* --bisect FILE: a bisection that is done, and its verdict. */
static int load_bisect(const char *path, struct bisect *b,
		       struct bisect_verdict *v, struct pb_err *err)
{
	struct strbuf text = STRBUF_INIT;
	int rc = -1;

	if (file_read(path, BISECT_FILE_MAX, 1, &text, err))
		goto out;
	if (bisect_from_json(b, sb_str(&text), err) ||
	    bisect_verdict_of(b, v, err)) {
		pb_wrap(err, "%s", path);
		goto out;
	}
	rc = 0;
out:
	sb_release(&text);
	return rc;
}

int cmd_report(int argc, char **argv)
{
	struct cli_report_opts o;
	struct cli_args a;
	struct report_opts ro = { NULL, 0, NULL, NULL, 0, NULL, NULL, NULL,
				  NULL, 0 };
	struct pb_err err = { 0, "" };
	struct manifest m;
	struct config cfg;
	struct report r;
	struct bisect b = { 0 };
	struct bisect_verdict bv;
	int rc = cli_parse(&report_spec, argc, argv, &o, &a);

	if (rc)
		return rc > 0 ? 0 : EX_USAGE;
	rc = -1;
	cli_apply_log(o.quiet, o.verbose, 0);
	if (!o.dry_run && !o.context) {
		log_error("report: sending one report is 'perfbot run'; "
			  "use --dry-run to print the mail");
		return EX_USAGE;
	}
	ro.template = o.template;
	ro.now = cli_now();
	memset(&r, 0, sizeof(r));
	memset(&m, 0, sizeof(m));
	if (cli_load_config(&cfg, o.config, 0, &err))
		return cli_fail(&err);
	if (o.bisect) {
		if (load_bisect(o.bisect, &b, &bv, &err))
			goto out;
		ro.bisect = &b;
		ro.bisect_v = &bv;
	}
	if (manifest_load(&m, a.arg[0], &err) ||
	    manifest_resolve(&m, &cfg, &err) ||
	    report_make(&r, &m, &cfg, &ro, &err))
		goto out;
	if (!r.worth) {
		pb_fail(&err, EX_DATAERR, "%s: no change of the %s metrics "
			"passes the noise filter; nothing to report",
			a.arg[0], "benchmark");
		goto out;
	}
	rc = o.context ? print_context(&r, &err) : print_mbox(&r, &cfg, &err);
out:
	report_release(&r);
	bisect_release(&b);
	manifest_release(&m);
	config_release(&cfg);
	return rc ? cli_fail(&err) : 0;
}
