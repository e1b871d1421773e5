// SPDX-License-Identifier: GPL-2.0-only
/*
 * judge: the inputs of a report. The metric rules, both result roots and
 * the job are loaded (ingest), compared (compare) and judged (judge); the
 * testcase and host tables give what the report says about them.
 */
#include <ctype.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/util/fileio.h"
#include "perfbot/judge/inputs.h"
#include "perfbot/util/log.h"

#define DATA_MAX_BYTES (1 << 20)

/* A data file: setting 'key' (resolved at load, or its default) found. */
static char *cfg_path(const char *key, const char *value,
		      struct pb_err *err)
{
	struct strbuf hint = STRBUF_INIT;
	char *p = NULL;

	if (sb_addf(&hint, "%s in the configuration", key))
		pb_fail(err, EX_OSERR, "out of memory");
	else
		data_find(value, sb_str(&hint), &p, err);
	sb_release(&hint);
	return p;
}

void inputs_cache_init(struct inputs_cache *c)
{
	memset(c, 0, sizeof(*c));
}

void inputs_cache_release(struct inputs_cache *c)
{
	size_t i;

	for (i = 0; i < c->nrules; i++) {
		free(c->rules[i].path);
		rules_free(c->rules[i].rules);
	}
	ydoc_release(&c->testcases);
	memset(c, 0, sizeof(*c));
}

struct inputs_opts *inputs_opts_new(size_t n, struct root_cache *roots)
{
	struct inputs_opts *io = calloc(n + 1, sizeof(*io));
	struct inputs_cache *c = calloc(n + 1, sizeof(*c));
	size_t i;

	if (!io || !c) {
		free(io);
		free(c);
		return NULL;
	}
	for (i = 0; i < n; i++) {
		inputs_cache_init(&c[i]);
		io[i].cache = &c[i];
		io[i].roots = roots;
	}
	io[n].cache = c;	/* the one past the last: the array to free */
	return io;
}

void inputs_opts_free(struct inputs_opts *io, size_t n)
{
	size_t i;

	if (!io)
		return;
	for (i = 0; i < n; i++)
		inputs_cache_release(io[i].cache);
	free(io[n].cache);
	free(io);
}

/* The rules of 'path' from the cache, loaded into it the first time. */
static int cached_rules(struct inputs_cache *c, char *path,
			struct rules **out, struct pb_err *err)
{
	size_t i;

	for (i = 0; i < c->nrules; i++)
		if (!strcmp(c->rules[i].path, path)) {
			free(path);
			*out = c->rules[i].rules;
			return 0;
		}
	if (rules_load(out, path, err)) {
		free(path);
		return -1;
	}
	c->rules[c->nrules].path = path;
	c->rules[c->nrules++].rules = *out;
	return 0;
}

static int load_rules(struct report_inputs *in, const struct manifest *m,
		      const struct config *cfg, struct inputs_cache *cache,
		      struct pb_err *err)
{
	char *path = m->metrics ? strdup(m->metrics) :
		cfg_path("data.metrics", cfg->data.metrics, err);
	int rc;

	if (!path)
		return m->metrics ? pb_fail(err, EX_OSERR, "out of memory") :
			-1;
	if (cache && cache->nrules < INPUTS_CACHE_RULES) {
		in->rules_borrowed = 1;
		return cached_rules(cache, path, &in->rules, err);
	}
	rc = rules_load(&in->rules, path, err);
	free(path);
	return rc;
}

static int read_testcases(struct ydoc *doc, const struct config *cfg,
			  struct pb_err *err)
{
	char *path = cfg_path("data.testcases", cfg->data.testcases,
			      err);
	int rc;

	if (!path)
		return -1;
	rc = yaml_load_file(path, DATA_MAX_BYTES, doc, err);
	free(path);
	if (!rc && doc->root && !ynode_is(doc->root, Y_MAP))
		rc = pb_fail(err, EX_CONFIG, "%s: not a mapping", doc->name);
	return rc;
}

static int load_testcase(struct report_inputs *in, const struct config *cfg,
			 struct inputs_cache *cache, struct pb_err *err)
{
	if (!cache)
		return read_testcases(&in->testcases, cfg, err);
	if (!cache->have_testcases) {
		if (read_testcases(&cache->testcases, cfg, err))
			return -1;
		cache->have_testcases = 1;
	}
	in->testcases = cache->testcases;
	in->testcases_borrowed = 1;
	return 0;
}

const char *report_inputs_testcase(const struct report_inputs *in,
				   const char *key)
{
	const struct ynode *tc = ymap_get(in->testcases.root, in->testcase);

	return ynode_str(ymap_get(tc, key));
}

/* Host names come from job.yaml: keep them to a safe file name. */
static int safe_name(const char *s)
{
	if (!*s || *s == '.')
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("._-", *s))
			return 0;
	return 1;
}

static const char *machine(struct report_inputs *in, const struct config *cfg)
{
	const char *tbox = in->job.tbox_group;
	struct strbuf rel = STRBUF_INIT;
	char *dir = cfg_path("data.hosts", cfg->data.hosts, NULL);
	char *path = NULL;
	const char *desc = NULL;

	if (dir && safe_name(tbox) && !sb_addf(&rel, "%s.yaml", tbox))
		path = path_join(dir, sb_str(&rel));
	if (path && !yaml_load_file(path, DATA_MAX_BYTES, &in->host, NULL))
		desc = ynode_str(ymap_get(in->host.root, "description"));
	if (!desc)
		log_warn("no description of test machine '%s'", tbox);
	free(dir);
	free(path);
	sb_release(&rel);
	return desc ? desc : tbox;
}

/* Both roots, each cut to the runs asked for. */
static int load_roots(struct report_inputs *in, const struct manifest *m,
		      const struct inputs_opts *o, struct pb_err *err)
{
	const char *dirs[2] = { m->base.result_root, m->head.result_root };

	if (o && o->roots) {
		if (root_cache_load(o->roots, &in->root[BASE], dirs[BASE],
				    err) ||
		    root_cache_load(o->roots, &in->root[HEAD], dirs[HEAD], err))
			return -1;
	} else if (result_root_load_all(in->root, dirs, 2, err)) {
		return -1;
	}
	if (o) {
		result_root_keep_runs(&in->root[BASE], o->runs[BASE]);
		result_root_keep_runs(&in->root[HEAD], o->runs[HEAD]);
	}
	return 0;
}

int report_inputs_load(struct report_inputs *in, const struct manifest *m,
		       const struct config *cfg, struct pb_err *err)
{
	return report_inputs_load_opts(in, m, cfg, NULL, err);
}

/* The value of the job's parameter 'key' (n bytes), or NULL. */
static const char *param(const struct job_axes *ax, const char *key,
			 size_t n)
{
	size_t i;

	for (i = 0; i < ax->nparams; i++)
		if (strlen(ax->params[i].key) == n &&
		    !strncmp(ax->params[i].key, key, n))
			return ax->params[i].value;
	return NULL;
}

/*
 * 'pat' with each '{key}' replaced by the job's parameter, its ERE
 * characters escaped, anchored to the whole name; NULL when the job has
 * no such parameter (or memory ran out).
 */
static char *expand(const struct job_axes *ax, const char *pat)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p, *end, *v;
	int bad = sb_addc(&sb, '^') || sb_addc(&sb, '(');

	for (p = pat; *p && !bad; p++) {
		if (*p != '{' || !(end = strchr(p, '}')) || end == p + 1) {
			bad = sb_addc(&sb, *p);
			continue;
		}
		if (!(v = param(ax, p + 1, (size_t)(end - p - 1))))
			bad = 1;
		for (; v && *v && !bad; v++)
			bad = (strchr("\\.[]()*+?{}|^$", *v) &&
			       sb_addc(&sb, '\\')) || sb_addc(&sb, *v);
		p = end;
	}
	if (bad || sb_adds(&sb, ")$")) {
		sb_release(&sb);
		return NULL;
	}
	return sb_detach(&sb, NULL);
}

/* Add 'pat' expanded; a pattern that is no valid ERE is an error. */
static int add_candidate(struct report_inputs *in, const char *pat,
			 const char *where, struct pb_err *err)
{
	char *e = expand(&in->axes, pat);
	regex_t re;

	if (!e)
		return 0;	/* a parameter this job does not have */
	if (regcomp(&re, e, REG_EXTENDED | REG_NOSUB)) {
		free(e);
		return pb_fail(err, EX_CONFIG, "%s: headline '%.200s' is no "
			       "valid regular expression", where, pat);
	}
	regfree(&re);
	if (in->ncands == INPUTS_MAX_CANDIDATES) {
		free(e);
		return 0;
	}
	in->cands[in->ncands++] = e;
	return 0;
}

/*
 * The operator's headline candidates: the manifest's 'headline', then
 * the testcase's in config/testcases.yaml (a string or a list).
 */
static int candidates(struct report_inputs *in, const struct manifest *m,
		      struct pb_err *err)
{
	const struct ynode *tc = ymap_get(in->testcases.root, in->testcase);
	const struct ynode *h = ymap_get(tc, "headline");
	size_t i;

	if (m->headline && add_candidate(in, m->headline, m->doc.name, err))
		return -1;
	if (ynode_is(h, Y_STR))
		return add_candidate(in, h->str, in->testcases.name, err);
	for (i = 0; ynode_is(h, Y_SEQ) && i < h->n; i++)
		if (ynode_is(h->items[i], Y_STR) &&
		    add_candidate(in, h->items[i]->str, in->testcases.name,
				  err))
			return -1;
	return 0;
}

int report_inputs_load_opts(struct report_inputs *in,
			    const struct manifest *m, const struct config *cfg,
			    const struct inputs_opts *o, struct pb_err *err)
{
	struct inputs_cache *cache = o ? o->cache : NULL;
	struct judge_opts jo = { 0 };
	const char *dirs;
	long dir = 0;

	memset(in, 0, sizeof(*in));
	if (load_rules(in, m, cfg, cache, err) || load_roots(in, m, o, err) ||
	    job_info_init(&in->job, &in->root[HEAD], err) ||
	    job_axes_of(&in->axes, &in->root[HEAD].job, in->rules, err) ||
	    load_testcase(in, cfg, cache, err))
		return -1;
	in->testcase = in->job.testcase;
	in->machine = machine(in, cfg);
	if (compare_roots(&in->cmp, &in->root[BASE], &in->root[HEAD],
			  in->rules, err) || candidates(in, m, err))
		return -1;
	dirs = report_inputs_testcase(in, "direction");
	if (dirs)
		parse_long(dirs, -1, 1, &dir);
	jo.candidates = (const char *const *)in->cands;
	jo.ncandidates = in->ncands;
	jo.direction = (int)dir;
	if (judge(&in->cmp, in->rules, &jo, &in->verdict))
		return -1;
	in->key_metric = in->verdict.key ? in->verdict.key->name : NULL;
	return 0;
}

void report_inputs_release(struct report_inputs *in)
{
	if (!in->rules_borrowed)
		rules_free(in->rules);
	result_root_release(&in->root[BASE]);
	result_root_release(&in->root[HEAD]);
	comparison_release(&in->cmp);
	job_info_release(&in->job);
	job_axes_release(&in->axes);
	if (!in->testcases_borrowed)
		ydoc_release(&in->testcases);
	ydoc_release(&in->host);
	while (in->ncands)
		free(in->cands[--in->ncands]);
	memset(in, 0, sizeof(*in));
}
