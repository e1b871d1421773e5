// SPDX-License-Identifier: GPL-2.0-only
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perfbot/cli.h"
#include "perfbot/clicommon.h"
#include "perfbot/fileio.h"
#include "perfbot/imap.h"
#include "perfbot/log.h"
#include "perfbot/mustache.h"
#include "perfbot/rules.h"
#include "perfbot/secret.h"
#include "perfbot/smtp.h"
#include "perfbot/state.h"

#define DATA_MAX_BYTES (1 << 20)

static const struct cli_opt check_opts[] = {
	{ "connect", NULL, "also log in to the SMTP and IMAP servers and say "
	  "what they offer (TLS, AUTH, capabilities); nothing is sent" },
	CLI_OPT_CONFIG,
	CLI_OPT_QUIET,
	CLI_OPT_VERBOSE,
	{ NULL, NULL, NULL },
};

const struct cli_spec check_spec = {
	"check", "", 0, 0,
	"validate the configuration (and log in to the servers)",
	"Checks every value of the configuration, then every path it names "
	"(state, sources, CA files, password files, data files, templates) "
	"and the scheduler's command, and prints each problem on its own "
	"line; exits 78 when there is one. Secrets are fetched to see that "
	"they can be, and never printed.",
	check_opts,
};

struct checker {
	const struct config *cfg;
	int problems;
	int quiet;
};

static void problem(struct checker *ck, const struct pb_err *err)
{
	log_error("%s", err->msg);
	ck->problems++;
}

static void okay(struct checker *ck, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void okay(struct checker *ck, const char *fmt, ...)
{
	va_list ap;

	if (ck->quiet)
		return;
	va_start(ap, fmt);
	fputs("ok: ", stdout);
	vprintf(fmt, ap);
	fputc('\n', stdout);
	va_end(ap);
}

/* A file that must be readable (CA, password file). */
static void readable(struct checker *ck, const char *key)
{
	const char *p = cfg_str(ck->cfg, key, NULL);
	struct pb_err err = { 0, "" };

	if (!p)
		return;
	if (access(p, R_OK)) {
		pb_fail(&err, EX_CONFIG, "%s: '%s': %s", key, p,
			strerror(errno));
		problem(ck, &err);
	} else {
		okay(ck, "%s '%s'", key, p);
	}
}

/* The secret of 'sec' can be had (never printed). */
static void secret(struct checker *ck, const char *sec)
{
	struct pb_err err = { 0, "" };
	struct strbuf user = STRBUF_INIT;
	char *pw = NULL;

	if (sb_addf(&user, "%s.user", sec) ||
	    !cfg_str(ck->cfg, sb_str(&user), NULL)) {
		sb_release(&user);
		return;
	}
	if (secret_get(ck->cfg, sec, &pw, &err))
		problem(ck, &err);
	else
		okay(ck, "%s password: %s", sec, pw ? "found" : "none set");
	secret_free(pw);
	sb_release(&user);
}

static void check_smtp(struct checker *ck)
{
	struct pb_err err = { 0, "" };
	struct smtp *s = NULL;

	if (!cfg_str(ck->cfg, "smtp.url", NULL)) {
		pb_fail(&err, EX_CONFIG, "smtp.url: not set: nothing can be "
			"mailed");
		problem(ck, &err);
		return;
	}
	readable(ck, "smtp.ca_file");
	readable(ck, "smtp.password_file");
	/* the URL, the TLS mode with it and the secret, as 'send' does */
	if (smtp_new(&s, ck->cfg, 1, &err))
		problem(ck, &err);
	else
		okay(ck, "smtp.url '%s'%s", cfg_str(ck->cfg, "smtp.url", ""),
		     cfg_str(ck->cfg, "smtp.user", NULL) ?
		     ", its password found" : ", no AUTH (no smtp.user)");
	smtp_free(s);
}

static void check_imap(struct checker *ck)
{
	const char *url = cfg_str(ck->cfg, "imap.url", NULL);
	const char *tls = cfg_str(ck->cfg, "imap.tls", "starttls");
	struct pb_err err = { 0, "" };
	int imaps;

	if (!url) {
		okay(ck, "imap.url not set: replies are not read");
		return;
	}
	imaps = !strncmp(url, "imaps://", 8);
	if (imaps != !strcmp(tls, "implicit")) {
		pb_fail(&err, EX_CONFIG, "imap.tls '%s' does not go with the "
			"%s URL", tls, imaps ? "imaps://" : "imap://");
		problem(ck, &err);
	} else {
		okay(ck, "imap.url '%s'", url);
	}
	if (!cfg_str(ck->cfg, "imap.user", NULL)) {
		pb_fail(&err, EX_CONFIG, "imap.user: not set");
		problem(ck, &err);
	}
	readable(ck, "imap.ca_file");
	readable(ck, "imap.password_file");
	secret(ck, "imap");
}

/* The nearest existing ancestor of 'path' must be a writable directory. */
static void check_state(struct checker *ck)
{
	char *path = cli_state_path(ck->cfg), *dir = NULL, *up;
	struct pb_err err = { 0, "" };
	struct stat st;

	if (!path) {
		pb_fail(&err, EX_CONFIG, "state: not set, and no $HOME for "
			"the default place");
		problem(ck, &err);
		return;
	}
	dir = path_dirname(path);
	while (dir && stat(dir, &st) && strcmp(dir, "/") && strcmp(dir, ".")) {
		up = path_dirname(dir);
		free(dir);
		dir = up;
	}
	if (!dir)
		pb_fail(&err, EX_OSERR, "out of memory");
	else if (!S_ISDIR(st.st_mode) || access(dir, W_OK | X_OK))
		pb_fail(&err, EX_CONFIG, "state: '%s': '%s' is not a writable "
			"directory", path, dir);
	else if (access(path, F_OK) == 0 && access(path, R_OK | W_OK))
		pb_fail(&err, EX_CONFIG, "state: '%s': %s", path,
			strerror(errno));
	if (err.code)
		problem(ck, &err);
	else
		okay(ck, "state '%s'%s", path, access(path, F_OK) ?
		     " (created on the first run)" : "");
	free(dir);
	free(path);
}

static void check_sources(struct checker *ck)
{
	json_t *list = cfg_list(ck->cfg, "sources"), *src;
	struct pb_err err = { 0, "" };
	const char *dir;
	struct stat st;
	size_t i;

	if (!json_array_size(list))
		okay(ck, "sources: none (run only reads replies and sends)");
	json_array_foreach(list, i, src) {
		dir = json_string_value(json_object_get(src, "dir"));
		if (!dir && !json_object_get(src, "url")) {
			pb_fail(&err, EX_CONFIG, "sources[%zu]: give 'dir' or "
				"'url'", i + 1);
			problem(ck, &err);
		} else if (dir && (stat(dir, &st) || !S_ISDIR(st.st_mode))) {
			pb_fail(&err, EX_CONFIG, "sources[%zu].dir: '%s': not "
				"a directory", i + 1, dir);
			problem(ck, &err);
		} else {
			okay(ck, "source '%s'", dir ? dir : json_string_value(
				     json_object_get(src, "url")));
		}
	}
}

/* A data file of the config or the default, found and loaded. */
static void check_data(struct checker *ck)
{
	struct pb_err err = { 0, "" };
	struct rules *rules = NULL;
	struct ydoc doc;
	char *p = NULL;

	if (data_find(cfg_str(ck->cfg, "data.metrics", "config/metrics.yaml"),
		      "data.metrics in the configuration", &p, &err) ||
	    rules_load(&rules, p, &err) || rules_check(rules, 1, &err))
		problem(ck, &err);
	else
		okay(ck, "metric table '%s'", p);
	rules_free(rules);
	free(p);
	p = NULL;
	memset(&doc, 0, sizeof(doc));
	if (data_find(cfg_str(ck->cfg, "data.testcases",
			      "config/testcases.yaml"),
		      "data.testcases in the configuration", &p, &err) ||
	    yaml_load_file(p, DATA_MAX_BYTES, &doc, &err))
		problem(ck, &err);
	else
		okay(ck, "testcases '%s'", p);
	ydoc_release(&doc);
	free(p);
	p = NULL;
	if (data_find(cfg_str(ck->cfg, "data.hosts", "config/hosts"),
		      "data.hosts in the configuration", &p, &err))
		problem(ck, &err);
	else
		okay(ck, "hosts '%s'", p);
	free(p);
}

/* Every template parses and its partials exist (rendered with {}). */
static int check_template(struct checker *ck, const char *dir,
			  const char *name)
{
	struct strbuf out = STRBUF_INIT, rel = STRBUF_INIT;
	struct pb_err err = { 0, "" };
	json_t *ctx = json_object();
	char *path = NULL;
	int rc = -1;

	if (!ctx || sb_addf(&rel, "%s.txt", name) ||
	    !(path = path_join(dir, sb_str(&rel))))
		pb_fail(&err, EX_OSERR, "out of memory");
	else
		rc = mustache_render_file(path, ctx, NULL, &out, &err);
	if (rc)
		problem(ck, &err);
	json_decref(ctx);
	free(path);
	sb_release(&rel);
	sb_release(&out);
	return rc;
}

static void check_templates(struct checker *ck)
{
	static const char *const needed[] = { "subject", "answer",
		"reproduce", NULL };
	struct pb_err err = { 0, "" };
	struct dirent *de;
	char *dir = NULL, name[256];
	size_t i, n;
	int bad = 0, count = 0;
	DIR *d;

	if (data_find(cfg_str(ck->cfg, "templates.dir", "templates"),
		      "templates.dir in the configuration", &dir, &err)) {
		problem(ck, &err);
		return;
	}
	bad |= check_template(ck, dir, cfg_str(ck->cfg, "templates.report",
					       "report"));
	for (i = 0; needed[i]; i++)
		bad |= check_template(ck, dir, needed[i]);
	d = opendir(dir);
	while (d && (de = readdir(d))) {
		n = strlen(de->d_name);
		if (n < 5 || n >= sizeof(name) || de->d_name[0] == '.' ||
		    strcmp(de->d_name + n - 4, ".txt"))
			continue;
		memcpy(name, de->d_name, n - 4);
		name[n - 4] = '\0';
		bad |= check_template(ck, dir, name);
		count++;
	}
	if (d)
		closedir(d);
	if (!bad)
		okay(ck, "templates '%s' (%d parse)", dir, count);
	free(dir);
}

/* {name} placeholders that scheduler.argv may use. */
static int known_placeholders(const char *arg, char *bad, size_t len)
{
	static const char *const names[] = { "result_root", "commit", "runs",
		"job", "request_id", NULL };
	const char *p = arg, *open, *close;
	size_t i, n;

	while ((open = strchr(p, '{')) && (close = strchr(open, '}'))) {
		n = (size_t)(close - open - 1);
		for (i = 0; names[i]; i++)
			if (strlen(names[i]) == n &&
			    !strncmp(open + 1, names[i], n))
				break;
		if (!names[i]) {
			snprintf(bad, len, "%.*s", (int)(n < 64 ? n : 64),
				 open + 1);
			return -1;
		}
		p = close + 1;
	}
	return 0;
}

/* The program: a path, or a name found in PATH, that can be run. */
static int runnable(const char *prog)
{
	const char *path = getenv("PATH"), *p, *colon;
	struct strbuf sb = STRBUF_INIT;
	int ok = 0;

	if (strchr(prog, '/'))
		return access(prog, X_OK) == 0;
	for (p = path ? path : "/usr/bin:/bin"; p && !ok;
	     p = colon ? colon + 1 : NULL) {
		colon = strchr(p, ':');
		sb_reset(&sb);
		/* a path too long to build is not one to run */
		ok = !sb_addf(&sb, "%.*s/%s",
			      (int)(colon ? colon - p : (long)strlen(p)), p,
			      prog) && access(sb_str(&sb), X_OK) == 0;
	}
	sb_release(&sb);
	return ok;
}

static void check_exec(struct checker *ck, struct pb_err *err)
{
	json_t *argv = cfg_list(ck->cfg, "scheduler.argv"), *v;
	char bad[80];
	size_t i;

	if (!json_array_size(argv)) {
		pb_fail(err, EX_CONFIG, "scheduler.argv: not set (backend "
			"exec runs it)");
		return;
	}
	if (!runnable(json_string_value(json_array_get(argv, 0)))) {
		pb_fail(err, EX_CONFIG, "scheduler.argv: '%s' cannot be run",
			json_string_value(json_array_get(argv, 0)));
		return;
	}
	json_array_foreach(argv, i, v)
		if (known_placeholders(json_string_value(v), bad,
				       sizeof(bad))) {
			pb_fail(err, EX_CONFIG, "scheduler.argv: argument "
				"%zu: unknown placeholder '{%s}' (known: "
				"{result_root}, {commit}, {runs}, {job}, "
				"{request_id})", i + 1, bad);
			return;
		}
}

static void check_scheduler(struct checker *ck)
{
	const char *backend = cfg_str(ck->cfg, "scheduler.backend", NULL);
	const char *dir = cfg_str(ck->cfg, "scheduler.spool_dir", NULL);
	struct pb_err err = { 0, "" };
	struct stat st;

	if (!backend) {
		okay(ck, "scheduler: not configured (retest requests fail "
		     "until scheduler.backend is set)");
		return;
	}
	if (!strcmp(backend, "exec"))
		check_exec(ck, &err);
	else if (!strcmp(backend, "spool") &&
		 (!dir || stat(dir, &st) || !S_ISDIR(st.st_mode) ||
		  access(dir, W_OK)))
		pb_fail(&err, EX_CONFIG, "scheduler.spool_dir: %s%s%s",
			dir ? "'" : "not set (backend spool writes there)",
			dir ? dir : "", dir ? "' is not a writable directory" :
			"");
	else if (!strcmp(backend, "http") &&
		 !cfg_str(ck->cfg, "scheduler.url", NULL))
		pb_fail(&err, EX_CONFIG, "scheduler.url: not set (backend "
			"http posts there)");
	if (err.code)
		problem(ck, &err);
	else
		okay(ck, "scheduler '%s'", backend);
}

/* --connect: log in to each server, say what it offers. */
static int connect_all(struct checker *ck)
{
	struct strbuf out = STRBUF_INIT;
	struct pb_err err = { 0, "" };
	struct smtp *s = NULL;
	struct imap *im = NULL;
	int code = 0;

	if (cfg_str(ck->cfg, "smtp.url", NULL)) {
		if (smtp_new(&s, ck->cfg, 1, &err) ||
		    smtp_probe(s, &out, &err)) {
			log_error("%s", err.msg);
			code = err.code;
		} else if (!ck->quiet) {
			printf("%s\n", sb_str(&out));
		}
		smtp_free(s);
	}
	sb_reset(&out);
	pb_err_clear(&err);
	if (cfg_str(ck->cfg, "imap.url", NULL)) {
		if (imap_open(&im, ck->cfg, &err) ||
		    imap_probe(im, ck->cfg, &out, &err)) {
			log_error("%s", err.msg);
			if (!code)
				code = err.code;
		} else if (!ck->quiet) {
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
	struct checker ck = { NULL, 0, 0 };
	struct cli_args a;
	struct config cfg;
	int rc = cli_parse(&check_spec, argc, argv, &a);
	const char *staging;

	if (rc)
		return rc > 0 ? 0 : EX_USAGE;
	cli_apply_log(&a, 0);
	ck.quiet = cli_flag(&a, "quiet");
	if (cli_load_config_all(&cfg, cli_value(&a, "config"), &err))
		return cli_fail(&err);
	ck.cfg = &cfg;
	okay(&ck, "config '%s'", cfg.path);
	check_smtp(&ck);
	check_imap(&ck);
	check_state(&ck);
	check_sources(&ck);
	check_data(&ck);
	check_templates(&ck);
	check_scheduler(&ck);
	staging = cfg_str(&cfg, "staging.redirect_to", NULL);
	if (staging)
		okay(&ck, "staging: every mail goes to '%s' only", staging);
	if (ck.problems) {
		pb_fail(&err, EX_CONFIG, "check: %d problem%s in '%s'",
			ck.problems, ck.problems == 1 ? "" : "s", cfg.path);
		rc = cli_fail(&err);
	} else {
		rc = cli_flag(&a, "connect") ? connect_all(&ck) : 0;
	}
	config_release(&cfg);
	return rc;
}
