// SPDX-License-Identifier: GPL-2.0-only
/*
 * 'perfbot compare': result roots compared (ingest, compare), each after
 * the first with the first, and the table printed as LKP's ncompare
 * prints it, or every number as JSON.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/cli/cmpjson.h"
#include "perfbot/cli/cli.h"
#include "perfbot/compare/compare.h"
#include "perfbot/compare/ncompare.h"
#include "perfbot/config/config.h"
#include "perfbot/util/fileio.h"
#include "perfbot/compare/axes.h"
#include "perfbot/util/log.h"
#include "perfbot/compare/table.h"
#include "perfbot/util/workers.h"


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
	"compare", "BASE_ROOT HEAD_ROOT [ROOT...]", 2, NCMP_MAX_ROOTS,
	"print the comparison table of result roots",
	"A result root is an LKP result directory or an http(s):// URL "
	"holding matrix.json and job.yaml. The table is the one LKP's "
	"ncompare prints; with more than two roots, one column per root "
	"after the first, each compared with the first (at most 8 roots).",
	compare_opts, sizeof(struct cli_compare_opts),
};

/* The header of the table: the head's job, every root's commit. */
static int print_table(const struct ncomparison *nc,
		       const struct result_root *rr, size_t n,
		       const struct rules *rules, int all, struct pb_err *err)
{
	struct strbuf out = STRBUF_INIT;
	struct table_head h = { 0 };
	struct job_axes ax;
	size_t s;
	int rc;

	if (job_axes_of(&ax, &rr[HEAD].job, rules, err))
		return -1;
	h.axes_keys = ax.keys;
	h.axes_values = ax.values;
	h.n = n;
	for (s = 0; s < n; s++) {
		h.commit[s] = result_root_job_str(&rr[s], "commit");
		h.subject[s] = result_root_job_str(&rr[s], "subject");
		if (!h.commit[s])
			h.commit[s] = rr[s].dir;
		if (!h.subject[s])
			h.subject[s] = "";
	}
	rc = table_render_n(nc, &h, rules_format(rules), all, &out);
	if (!rc)
		fwrite(sb_str(&out), 1, out.len, stdout);
	sb_release(&out);
	job_axes_release(&ax);
	return rc ? pb_fail(err, EX_SOFTWARE, "table: out of memory") : 0;
}

/*
 * Two roots: the comparison's JSON; more: {"roots": [dir...],
 * "columns": [the JSON of root 0 against root k, for k = 1..]}.
 */
static json_t *ncomparison_json(const struct ncomparison *nc,
				const struct result_root *rr, int all)
{
	json_t *o, *roots, *cols;
	size_t k;

	if (nc->nroots == 2)
		return comparison_to_json(&nc->pair[0], all);
	o = json_object();
	roots = json_array();
	cols = json_array();
	if (!o || !roots || !cols || json_object_set_new(o, "roots", roots) ||
	    json_object_set_new(o, "columns", cols)) {
		json_decref(o);
		return NULL;
	}
	for (k = 0; k < nc->nroots; k++)
		if (json_array_append_new(roots, json_string(rr[k].dir)))
			goto fail;
	for (k = 0; k + 1 < nc->nroots; k++)
		if (json_array_append_new(cols,
					  comparison_to_json(&nc->pair[k],
							     all)))
			goto fail;
	return o;
fail:
	json_decref(o);
	return NULL;
}

static int print_json(const struct ncomparison *nc,
		      const struct result_root *rr, int all,
		      struct pb_err *err)
{
	json_t *j = ncomparison_json(nc, rr, all);
	int rc;

	if (!j)
		return pb_fail(err, EX_OSERR, "json: out of memory");
	rc = json_dumpf(j, stdout, JSON_INDENT(1) | JSON_REAL_PRECISION(17));
	fputc('\n', stdout);
	json_decref(j);
	return rc ? pb_fail(err, EX_IOERR, "stdout: write failed") : 0;
}

/* The metric table: --metrics, else the default one (data.metrics). */
static char *metric_table(const char *opt, struct pb_err *err)
{
	struct config defaults;
	char *path = NULL;

	if (opt) {
		path = strdup(opt);
		if (!path)
			pb_fail(err, EX_OSERR, "out of memory");
		return path;
	}
	if (!config_load(&defaults, NULL, err)) {
		data_find(defaults.data.metrics, "--metrics FILE", &path, err);
		config_release(&defaults);
	}
	return path;
}

/* The metric table, read beside the roots. */
struct rules_job {
	const char *path;
	struct rules *rules;
	struct pb_err err;
	int rc;
};

static void load_rules(void *p)
{
	struct rules_job *j = p;

	j->rc = rules_load(&j->rules, j->path, &j->err);
}

int cmd_compare(int argc, char **argv)
{
	struct cli_compare_opts o;
	struct cli_args a;
	struct result_root rr[NCMP_MAX_ROOTS];
	const struct result_root *roots[NCMP_MAX_ROOTS];
	struct ncomparison nc = { 0 };
	struct rules *rules = NULL;
	struct pb_err err = { 0, "" };
	struct rules_job rj = { NULL, NULL, { 0, "" }, 0 };
	struct workers_aside aside;
	char *metrics = NULL;
	int i, rc = -1;

	rc = cli_parse(&compare_spec, argc, argv, &o, &a);
	if (rc)
		return rc > 0 ? 0 : EX_USAGE;
	rc = -1;
	cli_apply_log(o.quiet, o.verbose, 0);
	memset(rr, 0, sizeof(rr));
	metrics = metric_table(o.metrics, &err);
	if (!metrics)
		goto out;
	log_debug("metric table '%s'", metrics);
	for (i = 0; i < a.nargs; i++)
		roots[i] = &rr[i];
	/* the table and each root in a thread of their own: reading them
	 * is most of a compare; a bad table is told first */
	rj.path = metrics;
	workers_aside_start(&aside, load_rules, &rj);
	rc = result_root_load_all(rr, (const char *const *)a.arg,
				  (size_t)a.nargs, &err);
	workers_aside_wait(&aside);
	rules = rj.rules;
	if (rj.rc)
		err = rj.err;
	if (rj.rc || rc) {
		rc = -1;
		goto out;
	}
	rc = -1;
	/* the filtered view keeps only the rows it shows */
	if ((o.all ? ncompare_roots : ncompare_roots_shown)(&nc, roots,
							     (size_t)a.nargs,
							     rules, &err))
		goto out;
	rc = o.json ? print_json(&nc, rr, o.all, &err) :
		print_table(&nc, rr, (size_t)a.nargs, rules, o.all, &err);
out:
	ncomparison_release(&nc);
	for (i = 0; i < NCMP_MAX_ROOTS; i++)
		result_root_release(&rr[i]);
	rules_free(rules);
	free(metrics);
	return rc ? cli_fail(&err) : 0;
}
