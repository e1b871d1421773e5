// SPDX-License-Identifier: GPL-2.0-only
/*
 * 'perfbot compare': two result roots compared (ingest, compare) and the
 * table printed as LKP's ncompare prints it, or every number as JSON.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/cli/cli.h"
#include "perfbot/compare/compare.h"
#include "perfbot/config/config.h"
#include "perfbot/util/fileio.h"
#include "perfbot/ingest/job.h"
#include "perfbot/util/log.h"
#include "perfbot/compare/table.h"


static const struct cli_opt compare_opts[] = {
	CLI_OPT_FLAG("all", struct cli_compare_opts, all,
		     "also show the metrics the noise filter drops"),
	CLI_OPT_FLAG("json", struct cli_compare_opts, json,
		     "every number as JSON: means, stddevs, changes, the "
		     "per-run samples (with --all, the rule that dropped each "
		     "metric)"),
	CLI_OPT_STRING("metrics", "FILE", struct cli_compare_opts, metrics,
		       "the metric table (else config/metrics.yaml from the "
		       "data directory)"),
	CLI_OPT_QUIET(struct cli_compare_opts),
	CLI_OPT_VERBOSE(struct cli_compare_opts),
	CLI_OPT_END,
};

const struct cli_spec compare_spec = {
	"compare", "BASE_ROOT HEAD_ROOT", 2, 2,
	"print the comparison table of two result roots",
	"A result root is an LKP result directory or an http(s):// URL "
	"holding matrix.json and job.yaml. The table is the one LKP's "
	"ncompare prints.",
	compare_opts, sizeof(struct cli_compare_opts),
};

static int print_table(const struct comparison *c,
		       const struct result_root *rr[2],
		       const struct table_format *f, int all,
		       struct pb_err *err)
{
	struct strbuf out = STRBUF_INIT;
	struct table_head h;
	struct job_info ji;
	int s, rc;

	if (job_info_init(&ji, rr[HEAD], err))
		return -1;
	h.axes_keys = ji.axes_keys;
	h.axes_values = ji.axes_values;
	for (s = BASE; s <= HEAD; s++) {
		h.commit[s] = result_root_job_str(rr[s], "commit");
		h.subject[s] = result_root_job_str(rr[s], "subject");
		if (!h.commit[s])
			h.commit[s] = rr[s]->dir;
		if (!h.subject[s])
			h.subject[s] = "";
	}
	rc = table_render(c, &h, f, all, &out);
	if (!rc)
		fwrite(sb_str(&out), 1, out.len, stdout);
	sb_release(&out);
	job_info_release(&ji);
	return rc ? pb_fail(err, EX_SOFTWARE, "table: out of memory") : 0;
}

static int print_json(const struct comparison *c, int all,
		      struct pb_err *err)
{
	json_t *j = comparison_to_json(c, all);
	int rc;

	if (!j)
		return pb_fail(err, EX_OSERR, "json: out of memory");
	rc = json_dumpf(j, stdout, JSON_INDENT(1) | JSON_REAL_PRECISION(17));
	fputc('\n', stdout);
	json_decref(j);
	return rc ? pb_fail(err, EX_IOERR, "stdout: write failed") : 0;
}

int cmd_compare(int argc, char **argv)
{
	struct cli_compare_opts o;
	struct cli_args a;
	struct result_root base, head;
	const struct result_root *rr[2] = { &base, &head };
	struct comparison c = { 0 };
	struct rules *rules = NULL;
	struct pb_err err = { 0, "" };
	struct config defaults;
	char *metrics = NULL;
	int rc = -1;

	rc = cli_parse(&compare_spec, argc, argv, &o, &a);
	if (rc)
		return rc > 0 ? 0 : EX_USAGE;
	rc = -1;
	cli_apply_log(o.quiet, o.verbose, 0);
	memset(&base, 0, sizeof(base));
	memset(&head, 0, sizeof(head));
	if (o.metrics) {
		metrics = strdup(o.metrics);
	} else if (!config_load(&defaults, NULL, &err)) {
		/* no configuration: the default table (data.metrics) */
		data_find(defaults.data.metrics, "--metrics FILE", &metrics,
			  &err);
		config_release(&defaults);
	}
	if (!metrics) {
		if (o.metrics)
			pb_fail(&err, EX_OSERR, "out of memory");
		goto out;
	}
	log_debug("metric table '%s'", metrics);
	if (rules_load(&rules, metrics, &err) ||
	    result_root_load(&base, a.arg[0], &err) ||
	    result_root_load(&head, a.arg[1], &err) ||
	    compare_roots(&c, &base, &head, rules, &err))
		goto out;
	rc = o.json ? print_json(&c, o.all, &err) :
		print_table(&c, rr, rules_format(rules), o.all, &err);
out:
	comparison_release(&c);
	result_root_release(&base);
	result_root_release(&head);
	rules_free(rules);
	free(metrics);
	return rc ? cli_fail(&err) : 0;
}
