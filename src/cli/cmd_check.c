// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli: 'perfbot check'. Loads the configuration, then checks every path
 * and secret it names, the state, the sources and their manifests, the
 * data files, every template and the scheduler's command, one line a
 * problem (exit 78; 65 when only manifests are bad);
 * --connect also logs in to the SMTP and IMAP servers and says what they
 * offer, sending nothing.
 */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "checker.h"
#include "checkunit.h"
#include "perfbot/cli/cli.h"
#include "perfbot/cli/clicommon.h"
#include "perfbot/util/fileio.h"
#include "perfbot/ingest/sources.h"
#include "perfbot/poll/imap.h"
#include "perfbot/util/log.h"
#include "perfbot/util/strmap.h"
#include "perfbot/render/mustache.h"
#include "perfbot/render/template.h"
#include "perfbot/compare/rules.h"
#include "perfbot/act/scheduler.h"
#include "perfbot/act/track.h"
#include "perfbot/config/secret.h"
#include "perfbot/send/smtp.h"
#include "perfbot/state/state.h"
#include "perfbot/web/page.h"

#define DATA_MAX_BYTES (1 << 20)

struct cli_check_opts {
	int connect;
	const char *unit;
	const char *config;
	int quiet, verbose;
};

static const struct cli_opt check_opts[] = {
	CLI_OPT_FLAG("connect", struct cli_check_opts, connect,
		     "also log in to the SMTP and IMAP servers and say what "
		     "they offer (TLS, AUTH, capabilities); nothing is sent"),
	CLI_OPT_STRING("unit", "FILE", struct cli_check_opts, unit,
		       "check the paths perfbot writes against this systemd "
		       "unit (else against the installed units that run this "
		       "configuration)"),
	CLI_OPT_CONFIG(struct cli_check_opts),
	CLI_OPT_QUIET(struct cli_check_opts),
	CLI_OPT_VERBOSE(struct cli_check_opts),
	CLI_OPT_END,
};

const struct cli_spec check_spec = {
	"check", "", 0, 0,
	"validate the configuration (and log in to the servers)",
	"Checks every value of the configuration, then every path it names "
	"(state, sources, CA files, password files, data files, templates) "
	"and the scheduler's command, and every manifest of the source "
	"directories as a run takes it (its result roots, the files it "
	"attaches, ids unique), and whether the systemd unit that runs "
	"perfbot lets it write where it writes, and prints each problem on "
	"its own line; "
	"exits 78 when the configuration has one, else 65 when a manifest "
	"is bad. Secrets are fetched to see that they can be, and never "
	"printed.",
	check_opts, sizeof(struct cli_check_opts),
};

/* A file that must be readable (CA, password file): setting 'key'. */
static void readable(struct checker *ck, const char *key, const char *p)
{
	struct pb_err err = { 0, "" };

	if (!p)
		return;
	if (access(p, R_OK)) {
		pb_fail(&err, EX_CONFIG, "%s: '%s': %s", key, p,
			strerror(errno));
		check_problem(ck, &err);
	} else {
		check_okay(ck, "%s '%s'", key, p);
	}
}

/* The secret of 'sec' can be had (never printed) when it has a user. */
static void secret(struct checker *ck, const char *sec, const char *user)
{
	struct pb_err err = { 0, "" };
	char *pw = NULL;

	if (!user)
		return;
	if (secret_get(ck->cfg, sec, &pw, &err))
		check_problem(ck, &err);
	else
		check_okay(ck, "%s password: %s", sec, pw ? "found" : "none set");
	secret_free(pw);
}

static void check_smtp(struct checker *ck)
{
	struct pb_err err = { 0, "" };
	struct smtp *s = NULL;

	if (!ck->cfg->smtp.url) {
		pb_fail(&err, EX_CONFIG, "smtp.url: not set: nothing can be "
			"mailed");
		check_problem(ck, &err);
		return;
	}
	readable(ck, "smtp.ca_file", ck->cfg->smtp.ca_file);
	readable(ck, "smtp.password_file", ck->cfg->smtp.secret.password_file);
	/* the URL, the TLS mode with it and the secret, as 'send' does */
	if (smtp_new(&s, ck->cfg, 1, &err))
		check_problem(ck, &err);
	else
		check_okay(ck, "smtp.url '%s'%s", ck->cfg->smtp.url,
		     ck->cfg->smtp.user ?
		     ", its password found" : ", no AUTH (no smtp.user)");
	smtp_free(s);
}

static void check_imap(struct checker *ck)
{
	const struct cfg_imap *im = &ck->cfg->imap;
	struct pb_err err = { 0, "" };

	if (!im->url) {
		check_okay(ck, "imap.url not set: replies are not read");
		return;
	}
	/* its TLS mode was checked with it when the file loaded */
	check_okay(ck, "imap.url '%s'", im->url);
	if (!im->user) {
		pb_fail(&err, EX_CONFIG, "imap.user: not set");
		check_problem(ck, &err);
	}
	readable(ck, "imap.ca_file", im->ca_file);
	readable(ck, "imap.password_file", im->secret.password_file);
	secret(ck, "imap", im->user);
}

/*
 * A state on a server, reached: its name, the server's version and the
 * schema's (state_describe()), or that the first run makes it.
 */
static void check_server_state(struct checker *ck, const char *path, int made)
{
	struct pb_err err = { 0, "" };
	struct state *st = NULL;
	char about[512];

	if (!made) {
		snprintf(about, sizeof(about), "%s", path);
		pb_mask_credentials(about);
		check_okay(ck, "state '%s' (created on the first run)", about);
	} else if (state_open(&st, path, STATE_READ, &err) ||
		   state_describe(st, about, sizeof(about), &err)) {
		check_problem(ck, &err);
	} else {
		check_okay(ck, "state %s", about);
	}
	state_close(st);
}

/* The state's place: usable by a run (state_usable()). */
static void check_state(struct checker *ck)
{
	char *path = cli_state_path(ck->cfg);
	struct pb_err err = { 0, "" };
	int made = 1;

	if (!path)
		pb_fail(&err, EX_CONFIG, "state: not set, and no $HOME for "
			"the default place");
	if (err.code || cli_state_secret(ck->cfg, &err) ||
	    state_usable(path, &made, &err))
		check_problem(ck, &err);
	else if (!state_is_file(path))
		check_server_state(ck, path, made);
	else
		check_okay(ck, "state '%s'%s", path, made ? "" :
			   " (created on the first run)");
	free(path);
}

/*
 * The manifests of the directory sources, taken as a run takes them
 * (ingest/sources.h): parsed, ids unique, result roots and attached
 * files there and allowed. A url source's are checked when a run
 * fetches them.
 */
static void check_manifests(struct checker *ck, const char *dir,
			    struct source_ids *ids)
{
	struct pb_err err = { 0, "" };
	struct source_batch b;
	struct manifest m;
	size_t i, n = 0;
	int taken;

	memset(&b, 0, sizeof(b));
	if (sources_collect_dir(dir, &b, &err)) {
		check_problem(ck, &err);
		sources_release(&b);
		return;
	}
	ck->bad_manifests += b.errors;
	for (i = 0; i < b.n; i++) {
		if (source_take(ck->cfg, ids, &b.m[i], &m, &taken, &err)) {
			log_error("%s", err.msg);
			ck->bad_manifests++;
		} else if (!taken) {
			log_debug("%s: skipped", err.msg);
		} else {
			n++;
			manifest_release(&m);
		}
	}
	check_okay(ck, "source '%s': %zu manifest%s", dir, n, n == 1 ? "" : "s");
	sources_release(&b);
}

static void check_sources(struct checker *ck)
{
	struct pb_err err = { 0, "" };
	struct source_ids ids;
	const char *dir, *url;
	struct stat st;
	size_t i;

	if (!ck->cfg->nsources)
		check_okay(ck, "sources: none (run only reads replies and sends)");
	source_ids_init(&ids);
	for (i = 0; i < ck->cfg->nsources; i++) {
		dir = ck->cfg->sources[i].dir;
		url = ck->cfg->sources[i].url;
		/* one of the two: the file was checked so when it loaded */
		if (dir && (stat(dir, &st) || !S_ISDIR(st.st_mode))) {
			pb_fail(&err, EX_CONFIG, "sources[%zu].dir: '%s': not "
				"a directory", i + 1, dir);
			check_problem(ck, &err);
		} else if (dir) {
			check_manifests(ck, dir, &ids);
		} else {
			check_okay(ck, "source '%s' (its manifests are checked "
			     "when a run fetches them)", url);
		}
	}
	source_ids_release(&ids);
}

/* A data file of the config or the default, found and loaded. */
static void check_data(struct checker *ck)
{
	struct pb_err err = { 0, "" };
	struct rules *rules = NULL;
	struct ydoc doc;
	char *p = NULL;

	if (data_find(ck->cfg->data.metrics,
		      "data.metrics in the configuration", &p, &err) ||
	    rules_load(&rules, p, &err) || rules_check(rules, 1, &err))
		check_problem(ck, &err);
	else
		check_okay(ck, "metric table '%s'", p);
	rules_free(rules);
	free(p);
	p = NULL;
	memset(&doc, 0, sizeof(doc));
	if (data_find(ck->cfg->data.testcases,
		      "data.testcases in the configuration", &p, &err) ||
	    yaml_load_file(p, DATA_MAX_BYTES, &doc, &err))
		check_problem(ck, &err);
	else
		check_okay(ck, "testcases '%s'", p);
	ydoc_release(&doc);
	free(p);
	p = NULL;
	if (data_find(ck->cfg->data.hosts,
		      "data.hosts in the configuration", &p, &err))
		check_problem(ck, &err);
	else
		check_okay(ck, "hosts '%s'", p);
	free(p);
}

/* A template parses and its partials exist (rendered with {}). */
static int check_template(struct checker *ck, const char *name)
{
	struct strbuf out = STRBUF_INIT;
	struct pb_err err = { 0, "" };
	json_t *ctx = json_object();
	int rc = -1;

	if (!ctx)
		pb_fail(&err, EX_OSERR, "out of memory");
	else
		rc = template_render(ck->cfg, name, ctx, &out, &err);
	if (rc)
		check_problem(ck, &err);
	json_decref(ctx);
	sb_release(&out);
	return rc;
}

/* Each template of 'dir' (its *.txt) checked; how many, in '*count'. */
static int check_dir_templates(struct checker *ck, const char *dir,
			       int *count)
{
	struct dirent *de;
	char name[256];
	size_t n;
	int bad = 0;
	DIR *d = opendir(dir);

	while (d && (de = readdir(d))) {
		n = strlen(de->d_name);
		if (n < 5 || n >= sizeof(name) || de->d_name[0] == '.' ||
		    strcmp(de->d_name + n - 4, ".txt"))
			continue;
		memcpy(name, de->d_name, n - 4);
		name[n - 4] = '\0';
		bad |= check_template(ck, name);
		(*count)++;
	}
	if (d)
		closedir(d);
	return bad;
}

/*
 * The templates: templates.report, every one perfbot ships (a directory
 * of the operator's own must have each: a newer perfbot may need one an
 * older copy lacks), and every other one of the directory.
 */
static void check_templates(struct checker *ck)
{
	struct pb_err err = { 0, "" };
	char *dir = NULL, *shipped = NULL;
	int bad = 0, count = 0, ours = 0;

	if (data_find(ck->cfg->templates.dir,
		      "templates.dir in the configuration", &dir, &err)) {
		check_problem(ck, &err);
		return;
	}
	bad |= check_template(ck, ck->cfg->templates.report);
	if (!data_find("templates", NULL, &shipped, NULL) &&
	    strcmp(shipped, dir))
		bad |= check_dir_templates(ck, shipped, &ours);
	bad |= check_dir_templates(ck, dir, &count);
	if (!bad)
		check_okay(ck, "templates '%s' (%d parse)", dir, count);
	free(shipped);
	free(dir);
}

/* The web archive's templates, which 'perfbot web' renders. */
static void check_web(struct checker *ck)
{
	struct pb_err err = { 0, "" };
	char *dir = NULL;
	int n;

	if (web_check_templates(ck->cfg, &dir, &n, &err))
		check_problem(ck, &err);
	else
		check_okay(ck, "web templates '%s' (%d parse)", dir, n);
	free(dir);
}

/* Where the result roots of tests are made: a directory perfbot writes. */
static void check_results_dir(struct checker *ck)
{
	const char *dir = ck->cfg->scheduler.results_dir;
	struct pb_err err = { 0, "" };
	struct stat st;

	if (!dir)
		check_okay(ck, "scheduler.results_dir: not set (test requests are "
		     "refused until it is)");
	else if (stat(dir, &st) || !S_ISDIR(st.st_mode) ||
		 access(dir, W_OK | X_OK)) {
		pb_fail(&err, EX_CONFIG, "scheduler.results_dir: '%s' is no "
			"directory perfbot can write", dir);
		check_problem(ck, &err);
	} else
		check_okay(ck, "scheduler.results_dir '%s'", dir);
}

static void check_scheduler(struct checker *ck)
{
	struct pb_err err = { 0, "" };

	if (!ck->cfg->scheduler.backend)
		check_okay(ck, "scheduler: not configured (retest requests fail "
		     "until scheduler.backend is set)");
	else if (scheduler_check(ck->cfg, &err))
		check_problem(ck, &err);
	else
		check_okay(ck, "scheduler '%s'", ck->cfg->scheduler.backend);
	check_results_dir(ck);
}

/* imap.processed_mailbox exists, or is made: said either way. */
/* The tracked tree and its branches; the reminders. */
static void check_life(struct checker *ck)
{
	const struct cfg_reminders *rm = &ck->cfg->reminders;
	struct pb_err err = { 0, "" };
	char line[1024];

	if (!ck->cfg->tracking.repo)
		check_okay(ck, "tracking: off (no tracking.repo: fixes are not "
		     "looked for)");
	else if (track_check(ck->cfg, line, sizeof(line), &err))
		check_problem(ck, &err);
	else
		check_okay(ck, "%s%s", line, ck->cfg->tracking.verify ?
		     "; each fix is run (tracking.verify)" : "");
	if (!rm->to.n)
		check_okay(ck, "reminders: off (reminders.to is empty)");
	else
		check_okay(ck, "reminders: every %ld s to %zu address%s, of "
		     "regressions %ld s old or more", rm->every, rm->to.n,
		     rm->to.n == 1 ? "" : "es", rm->min_age);
}

static int processed_box(struct checker *ck, struct imap *im,
			 struct strbuf *out, struct pb_err *err)
{
	const char *box = ck->cfg->imap.processed_mailbox;
	int created = 0;

	if (!box)
		return 0;
	if (imap_ensure(im, box, &created, err))
		return -1;
	return sb_addf(out, "\nok: imap.processed_mailbox '%s': %s", box,
		       created ? "created" : "exists") ?
		pb_fail(err, EX_OSERR, "out of memory") : 0;
}

/* --connect: log in to each server, say what it offers. */
static int connect_all(struct checker *ck)
{
	struct strbuf out = STRBUF_INIT;
	struct pb_err err = { 0, "" };
	struct smtp *s = NULL;
	struct imap *im = NULL;
	int code = 0;

	if (ck->cfg->smtp.url) {
		if (smtp_new(&s, ck->cfg, 1, &err) ||
		    smtp_probe(s, &out, &err)) {
			log_error("%s", err.msg);
			code = err.code;
		} else if (!ck->quiet) {
			if (out.buf)
				pb_mask_credentials(out.buf);
			printf("%s\n", sb_str(&out));
		}
		smtp_free(s);
	}
	sb_reset(&out);
	pb_err_clear(&err);
	if (ck->cfg->imap.url) {
		if (imap_open(&im, ck->cfg, &err) ||
		    imap_probe(im, ck->cfg, &out, &err) ||
		    processed_box(ck, im, &out, &err)) {
			log_error("%s", err.msg);
			if (!code)
				code = err.code;
		} else if (!ck->quiet) {
			if (out.buf)
				pb_mask_credentials(out.buf);
			printf("%s\n", sb_str(&out));
		}
		imap_close(im);
	}
	sb_release(&out);
	return code;
}

int cmd_check(int argc, char **argv)
{
	struct pb_err err = { 0, "" };
	struct checker ck;
	struct cli_check_opts o;
	struct cli_args a;
	struct config cfg;
	int rc = cli_parse(&check_spec, argc, argv, &o, &a);
	const char *staging;

	if (rc)
		return rc > 0 ? 0 : EX_USAGE;
	cli_apply_log(o.quiet, o.verbose, 0);
	memset(&ck, 0, sizeof(ck));
	ck.quiet = o.quiet;
	if (cli_load_config_all(&cfg, o.config, &err))
		return cli_fail(&err);
	ck.cfg = &cfg;
	check_okay(&ck, "config '%s'", cfg.path);
	check_smtp(&ck);
	check_imap(&ck);
	check_state(&ck);
	check_sources(&ck);
	check_data(&ck);
	check_templates(&ck);
	check_web(&ck);
	check_scheduler(&ck);
	check_life(&ck);
	ck.problems += check_units(&cfg, o.unit, ck.quiet);
	staging = cfg.staging.redirect_to;
	if (staging)
		check_okay(&ck, "staging: every mail goes to '%s' only", staging);
	if (ck.problems) {
		pb_fail(&err, EX_CONFIG, "check: %d problem%s in '%s'",
			ck.problems, ck.problems == 1 ? "" : "s", cfg.path);
		rc = cli_fail(&err);
	} else if (ck.bad_manifests) {
		pb_fail(&err, EX_DATAERR, "check: %d bad manifest%s",
			ck.bad_manifests, ck.bad_manifests == 1 ? "" : "s");
		rc = cli_fail(&err);
	} else {
		rc = o.connect ? connect_all(&ck) : 0;
	}
	config_release(&cfg);
	return rc;
}
