// SPDX-License-Identifier: GPL-2.0-only
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/cli.h"
#include "perfbot/compare.h"
#include "perfbot/fileio.h"
#include "perfbot/job.h"
#include "perfbot/table.h"

#define DEFAULT_METRICS "config/metrics.yaml"

struct compare_opts {
	int all;
	int json;
	const char *metrics;
};

static int parse(int argc, char **argv, struct compare_opts *o)
{
	static const struct option longopts[] = {
		{ "all", no_argument, NULL, 'a' },
		{ "json", no_argument, NULL, 'j' },
		{ "metrics", required_argument, NULL, 'm' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		if (c == 'a')
			o->all = 1;
		else if (c == 'j')
			o->json = 1;
		else if (c == 'm')
			o->metrics = optarg;
		else
			return -1;
	}
	return argc - optind == 2 ? 0 : -1;
}

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
	struct compare_opts o = { 0, 0, NULL };
	struct result_root base, head;
	const struct result_root *rr[2] = { &base, &head };
	struct comparison c = { 0 };
	struct rules *rules = NULL;
	struct pb_err err = { 0, "" };
	char *metrics = NULL;
	int rc = -1;

	if (cli_wants_help(argc, argv, "compare"))
		return 0;
	if (parse(argc, argv, &o))
		return cli_usage("compare");
	metrics = data_path(o.metrics ? o.metrics : DEFAULT_METRICS);
	memset(&base, 0, sizeof(base));
	memset(&head, 0, sizeof(head));
	if (!metrics || rules_load(&rules, metrics, &err) ||
	    result_root_load(&base, argv[optind], &err) ||
	    result_root_load(&head, argv[optind + 1], &err) ||
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
