// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/config/schema.c: defaults, the shipped example, the
 * schema check (unknown keys and wrong kinds are EX_CONFIG naming the
 * dotted key and its line), the password-file mode rule and the getters.
 * Run from the repository root.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "perfbot/config/config.h"
#include "perfbot/util/fileio.h"

#include "testutil.h"

#define SHIPPED "config/perfbot.yaml"

struct fx {
	char dir[64];
	char path[128];		/* <dir>/perfbot.yaml */
	struct config cfg;
	struct pb_err err;
};

static int setup(void **state)
{
	struct fx *f = TU_NEW_FX(struct fx, "test_config");

	if (!f)
		return -1;
	tu_path(f->path, sizeof(f->path), f->dir, "perfbot.yaml");
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	config_release(&f->cfg);
	tu_rmtree(f->dir);
	free(f);
	return 0;
}

static void write_cfg(struct fx *f, const char *text, unsigned mode)
{
	tu_write(f->path, text, mode);
	/* Whatever the umask: exactly 'mode'. */
	assert_int_equal(chmod(f->path, mode), 0);
}

static void load_ok(struct fx *f, const char *text)
{
	write_cfg(f, text, 0600);
	if (config_load(&f->cfg, f->path, &f->err))
		fail_msg("config_load: %s", f->err.msg);
}

/* Loading 'text' fails with EX_CONFIG and "<path>:<rest>". */
static void load_fails(struct fx *f, const char *text, const char *rest)
{
	char want[PB_ERR_MAX];

	write_cfg(f, text, 0600);
	assert_int_equal(config_load(&f->cfg, f->path, &f->err), -1);
	snprintf(want, sizeof(want), "%s:%s", f->path, rest);
	assert_string_equal(f->err.msg, want);
	assert_int_equal(f->err.code, EX_CONFIG);
	assert_null(f->cfg.doc.root);
	assert_null(f->cfg.path);
}

/* ---- loading ---- */

static void t_defaults(void **state)
{
	struct fx *f = *state;
	const struct config *c = &f->cfg;

	assert_int_equal(config_load(&f->cfg, NULL, &f->err), 0);
	assert_null(c->doc.root);
	assert_string_equal(c->doc.name, "(defaults)");
	/* every default, from the schema */
	assert_string_equal(c->identity.from, "perfbot <perfbot@localhost>");
	assert_string_equal(c->identity.name, "perfbot");
	assert_ptr_equal(c->identity.reported_by, c->identity.from);
	assert_null(c->identity.message_id_domain);
	assert_null(c->smtp.url);
	assert_int_equal(c->smtp.tls, CFG_TLS_STARTTLS);
	assert_int_equal(c->smtp.connect_timeout, 30);
	assert_int_equal(c->smtp.timeout, 300);
	assert_int_equal(c->smtp.batch, 0);
	assert_int_equal(c->smtp.secret.password_command.n, 0);
	assert_null(c->imap.url);
	assert_string_equal(c->imap.mailbox, "INBOX");
	assert_null(c->imap.processed_mailbox);
	assert_int_equal(c->imap.max_message_bytes, 10L << 20);
	assert_int_equal(c->imap.timeout, 60);
	assert_null(c->state);
	assert_int_equal(c->nsources, 0);
	assert_int_equal(c->recipients.to_author, 1);
	assert_int_equal(c->recipients.max_cc, 10);
	assert_int_equal(c->recipients.cc.n, 0);
	assert_int_equal(c->limits.mails_per_hour, 60);
	assert_int_equal(c->limits.commands_per_mail, 3);
	assert_int_equal(c->limits.retests_per_report, 3);
	assert_int_equal(c->limits.max_runs, 20);
	assert_int_equal(c->limits.default_runs, 4);
	assert_int_equal(c->limits.per_sender_per_day, 20);
	assert_int_equal(c->limits.refusals_per_day, 50);
	assert_int_equal(c->limits.tests_per_report, 5);
	assert_int_equal(c->limits.tests_per_sender_per_day, 10);
	assert_int_equal(c->limits.max_patch_bytes, 1L << 20);
	assert_int_equal(c->commands.test_repos.n, 0);
	assert_null(c->scheduler.backend);
	assert_int_equal(c->scheduler.timeout, 600);
	assert_int_equal(c->scheduler.deadline, 24 * 3600);
	assert_int_equal(c->confirm.enabled, 0);
	assert_int_equal(c->confirm.deadline, 24 * 3600);
	assert_int_equal(c->confirm.on_deadline, CFG_DEADLINE_MAIL);
	assert_string_equal(c->templates.report, "report");
	assert_string_equal(c->templates.dir, "templates");
	assert_string_equal(c->data.metrics, "config/metrics.yaml");
	assert_string_equal(c->data.testcases, "config/testcases.yaml");
	assert_string_equal(c->data.hosts, "config/hosts");
	assert_null(c->staging.redirect_to);
}

/* The defaults that are other settings, and the TLS a URL implies. */
static void t_derived_defaults(void **state)
{
	struct fx *f = *state;
	const struct config *c = &f->cfg;

	load_ok(f, "identity:\n  from: Bot <bot@example.test>\n"
		"scheduler:\n  deadline: 7200\n"
		"smtp:\n  url: smtps://h:465\nimap:\n  url: imap://h\n");
	assert_string_equal(c->identity.reported_by, "Bot <bot@example.test>");
	assert_int_equal(c->confirm.deadline, 7200);
	assert_int_equal(c->smtp.tls, CFG_TLS_IMPLICIT);
	assert_int_equal(c->imap.tls, CFG_TLS_STARTTLS);
	config_release(&f->cfg);
	load_ok(f, "identity:\n  reported_by: Someone <s@x>\n"
		"scheduler:\n  deadline: 7200\nconfirm:\n  deadline: 600\n"
		"imap:\n  url: imaps://h\n  tls: implicit\n");
	assert_string_equal(c->identity.reported_by, "Someone <s@x>");
	assert_int_equal(c->confirm.deadline, 600);
	assert_int_equal(c->imap.tls, CFG_TLS_IMPLICIT);
	config_release(&f->cfg);
	/* a tls that contradicts the URL fails at load, not at send */
	load_fails(f, "smtp:\n  url: smtp://h\n  tls: implicit\n",
		   "2: 'smtp.tls' implicit does not go with the plain URL");
	config_release(&f->cfg);
	load_fails(f, "imap:\n  url: imaps://h\n  tls: none\n",
		   "2: 'imap.tls' none does not go with the implicit TLS URL");
}

static void t_shipped_config(void **state)
{
	struct fx *f = *state;
	const struct config *c = &f->cfg;

	assert_int_equal(config_load(&f->cfg, SHIPPED, &f->err), 0);
	assert_string_equal(c->identity.from,
			    "perfbot <perfbot@example.test>");
	assert_string_equal(c->smtp.url, "smtp://127.0.0.1:10587");
	assert_string_equal(c->smtp.secret.password_env,
			    "PERFBOT_SMTP_PASSWORD");
	/* "" there: messages stay where they are */
	assert_null(c->imap.processed_mailbox);
	/* it names no file of the source tree: no state, no sources */
	assert_null(c->state);
	assert_int_equal(c->limits.max_runs, 20);
	assert_int_equal(c->limits.mails_per_hour, 60);
	assert_int_equal(c->recipients.to_author, 1);
	assert_int_equal(c->scheduler.argv.n, 0);
	assert_null(c->scheduler.argv.v);
	assert_int_equal(c->nsources, 0);
	assert_string_equal(c->templates.report, "report");
}

static void t_empty_file(void **state)
{
	struct fx *f = *state;

	load_ok(f, "# nothing set\n");
	assert_null(f->cfg.doc.root);
	assert_int_equal(f->cfg.smtp.timeout, 300);
}

static void t_missing_file(void **state)
{
	struct fx *f = *state;

	/* a configuration that is not there is bad configuration too */
	assert_int_equal(config_load(&f->cfg, f->path, &f->err), -1);
	assert_int_equal(f->err.code, EX_CONFIG);
	assert_memory_equal(f->err.msg, f->path, strlen(f->path));
}

static void t_bad_yaml(void **state)
{
	struct fx *f = *state;

	write_cfg(f, "smtp:\n  url: [x\n", 0600);
	assert_int_equal(config_load(&f->cfg, f->path, &f->err), -1);
	/* Bad configuration (78), not bad data (65). */
	assert_int_equal(f->err.code, EX_CONFIG);
	assert_memory_equal(f->err.msg, f->path, strlen(f->path));
	assert_int_equal(f->err.msg[strlen(f->path)], ':');
	config_release(&f->cfg);
	load_fails(f, "smtp:\n  url: a\n  url: b\n",
		   "3: duplicate key 'url'");
}

static void t_not_a_mapping(void **state)
{
	struct fx *f = *state;

	write_cfg(f, "- smtp\n- imap\n", 0600);
	assert_int_equal(config_load(&f->cfg, f->path, &f->err), -1);
	assert_int_equal(f->err.code, EX_CONFIG);
	assert_memory_equal(f->err.msg, f->path, strlen(f->path));
	assert_non_null(strstr(f->err.msg, "mapping"));
}

/* ---- the schema ---- */

static void t_unknown_key_top(void **state)
{
	struct fx *f = *state;

	load_fails(f, "identity:\n  from: x@y\nbogus: 1\n",
		   "3: unknown key 'bogus'");
}

static void t_unknown_key_nested(void **state)
{
	struct fx *f = *state;

	load_fails(f, "smtp:\n  url: smtp://x\n  prot: 25\n",
		   "3: unknown key 'smtp.prot'");
	config_release(&f->cfg);
	load_fails(f, "limits:\n  max_runs: 3\n  max_rnus: 4\n",
		   "3: unknown key 'limits.max_rnus' (did you mean "
		   "'limits.max_runs'?)");
}

static void t_unknown_key_is_section(void **state)
{
	struct fx *f = *state;

	/* The line is the key's own, not that of its first child. */
	load_fails(f, "smtp:\n  url: smtp://x\nsmpt:\n  url: y\n",
		   "3: unknown key 'smpt' (did you mean 'smtp'?)");
}

static void t_unknown_key_without_value(void **state)
{
	struct fx *f = *state;

	/* Two empty values: each error names its own line. */
	load_fails(f, "identity:\n  nmae:\n  from: x\nstate:\n",
		   "2: unknown key 'identity.nmae' (did you mean "
		   "'identity.name'?)");
}

static void t_string_where_list(void **state)
{
	struct fx *f = *state;

	load_fails(f, "commands:\n  allow: alice@example.org\n",
		   "2: 'commands.allow' must be a list");
	config_release(&f->cfg);
	load_fails(f, "scheduler:\n  backend: exec\n  argv: run-lkp\n",
		   "3: 'scheduler.argv' must be a list");
}

static void t_list_of_non_strings(void **state)
{
	struct fx *f = *state;

	load_fails(f, "recipients:\n  cc:\n    - a@x\n    - [b@x]\n",
		   "4: 'recipients.cc' must be a list of strings");
}

static void t_list_where_string(void **state)
{
	struct fx *f = *state;

	load_fails(f, "smtp:\n  url: [a, b]\n", "2: 'smtp.url' must be a string");
	config_release(&f->cfg);
	load_fails(f, "state:\n  - a\n", "1: 'state' must be a string");
}

static void t_string_where_mapping(void **state)
{
	struct fx *f = *state;

	load_fails(f, "smtp: smtp://x\n", "1: 'smtp' must be a mapping");
}

static void t_int_range(void **state)
{
	struct fx *f = *state;

	load_fails(f, "limits:\n  max_runs: 0\n",
		   "2: 'limits.max_runs' must be a whole number from 1 to "
		   "1000");
	config_release(&f->cfg);
	load_fails(f, "limits:\n  max_runs: 1001\n",
		   "2: 'limits.max_runs' must be a whole number from 1 to "
		   "1000");
	config_release(&f->cfg);
	load_fails(f, "smtp:\n  timeout: 30s\n",
		   "2: 'smtp.timeout' must be a whole number from 1 to 86400");
	config_release(&f->cfg);
	load_fails(f, "smtp:\n  batch: [1]\n",
		   "2: 'smtp.batch' must be a whole number from 1 to 100000");
	config_release(&f->cfg);
	load_ok(f, "limits:\n  max_runs: 1000\n  mails_per_hour: 0\n");
	assert_int_equal(f->cfg.limits.max_runs, 1000);
	assert_int_equal(f->cfg.limits.mails_per_hour, 0);
}

/* The load fails with 'part' in its one error line (EX_CONFIG). */
static void load_fails_with(struct fx *f, const char *text, const char *part)
{
	write_cfg(f, text, 0600);
	assert_int_equal(config_load(&f->cfg, f->path, &f->err), -1);
	if (!strstr(f->err.msg, part))
		fail_msg("'%s' lacks '%s'", f->err.msg, part);
	assert_int_equal(f->err.code, EX_CONFIG);
}

/* A duration: seconds, or a number and a unit. */
static void t_durations(void **state)
{
	struct fx *f = *state;
	const struct config *c = &f->cfg;

	load_ok(f, "");
	assert_int_equal(c->reminders.every, 30L * 86400);
	assert_int_equal(c->reminders.min_age, 14L * 86400);
	assert_int_equal(c->reminders.to.n, 0);
	assert_null(c->tracking.repo);
	assert_int_equal(c->tracking.verify, 0);
	config_release(&f->cfg);
	load_ok(f, "reminders:\n  every: 2w\n  min_age: 36h\n"
		"  to: [\"Perf <perf@example.test>\"]\n");
	assert_int_equal(c->reminders.every, 14L * 86400);
	assert_int_equal(c->reminders.min_age, 36L * 3600);
	assert_string_equal(c->reminders.to.v[0], "Perf <perf@example.test>");
	config_release(&f->cfg);
	load_ok(f, "reminders:\n  every: 7200\n  min_age: 0\n");
	assert_int_equal(c->reminders.every, 7200);
	assert_int_equal(c->reminders.min_age, 0);
	config_release(&f->cfg);
	load_ok(f, "reminders:\n  every: 90m\n  min_age: 10s\n");
	assert_int_equal(c->reminders.every, 5400);
	assert_int_equal(c->reminders.min_age, 10);
	config_release(&f->cfg);
	load_fails_with(f, "reminders:\n  every: 30 days\n",
		   "2: 'reminders.every' must be a duration (seconds, or with "
		   "a unit: 12h, 30d, 2w) from 3600s to 366d");
	config_release(&f->cfg);
	load_fails_with(f, "reminders:\n  every: 59m\n", "'reminders.every' must "
		   "be a duration");
	config_release(&f->cfg);
	load_fails_with(f, "reminders:\n  every: 400d\n", "'reminders.every' must "
		   "be a duration");
	config_release(&f->cfg);
	load_fails_with(f, "reminders:\n  every: 99999999999999999999d\n",
		   "'reminders.every' must be a duration");
	config_release(&f->cfg);
	load_fails_with(f, "reminders:\n  min_age: -1d\n", "'reminders.min_age' "
		   "must be a duration");
	config_release(&f->cfg);
	load_fails_with(f, "reminders:\n  to: [not an address]\n",
		   "'reminders.to' must be a list of mail addresses");
	config_release(&f->cfg);
	load_fails_with(f, "tracking:\n  branch: [master]\n",
		   "unknown key 'tracking.branch' (did you mean "
		   "'tracking.branches'?)");
}

static void t_bad_bool(void **state)
{
	struct fx *f = *state;

	load_fails(f, "recipients:\n  to_author: maybe\n",
		   "2: 'recipients.to_author' must be true or false");
	config_release(&f->cfg);
	load_fails(f, "recipients:\n  to_author: 1\n",
		   "2: 'recipients.to_author' must be true or false");
	config_release(&f->cfg);
	load_ok(f, "recipients:\n  to_author: no\n");
	assert_int_equal(f->cfg.recipients.to_author, 0);
}

static void t_sources(void **state)
{
	struct fx *f = *state;
	char want[256];

	load_ok(f, "sources:\n  - dir: fixtures/manifests\n"
		"  - url: https://results.example/api\n");
	assert_int_equal(f->cfg.nsources, 2);
	/* relative to the config file's directory */
	snprintf(want, sizeof(want), "%s/fixtures/manifests", f->dir);
	assert_string_equal(f->cfg.sources[0].dir, want);
	assert_null(f->cfg.sources[0].url);
	assert_null(f->cfg.sources[1].dir);
	assert_string_equal(f->cfg.sources[1].url,
			    "https://results.example/api");
	assert_false(f->cfg.sources[0].has_attach_dirs);
	config_release(&f->cfg);
	/* attach_dirs: paths, each relative to the config file's directory */
	load_ok(f, "sources:\n  - dir: m\n    attach_dirs: [k, /srv/k]\n"
		"  - dir: n\n    attach_dirs: []\n");
	assert_true(f->cfg.sources[0].has_attach_dirs);
	assert_int_equal(f->cfg.sources[0].attach_dirs.n, 2);
	snprintf(want, sizeof(want), "%s/k", f->dir);
	assert_string_equal(f->cfg.sources[0].attach_dirs.v[0], want);
	assert_string_equal(f->cfg.sources[0].attach_dirs.v[1], "/srv/k");
	assert_true(f->cfg.sources[1].has_attach_dirs);
	assert_int_equal(f->cfg.sources[1].attach_dirs.n, 0);
	config_release(&f->cfg);
	load_fails(f, "sources:\n  - dir: m\n    attach_dirs: k\n",
		   "3: 'sources[].attach_dirs' must be a list");
	config_release(&f->cfg);
	/* one of the two, refused when the file loads */
	load_fails(f, "sources:\n  - dir: a\n  - {}\n",
		   "3: 'sources[2]': give 'dir' or 'url', one of the two");
	config_release(&f->cfg);
	load_fails(f, "sources:\n  - dir: a\n    url: http://h/x\n",
		   "2: 'sources[1]': give 'dir' or 'url', one of the two");
}

static void t_sources_unknown_key(void **state)
{
	struct fx *f = *state;

	load_fails(f, "sources:\n  - dir: a\n  - path: b\n",
		   "3: unknown key 'sources[].path'");
}

static void t_sources_wrong_kinds(void **state)
{
	struct fx *f = *state;

	load_fails(f, "sources:\n  - dir: [a]\n",
		   "2: 'sources[].dir' must be a string");
	config_release(&f->cfg);
	load_fails(f, "sources:\n  - fixtures/manifests\n",
		   "2: 'sources[]' must be a mapping");
	config_release(&f->cfg);
	load_fails(f, "sources:\n  dir: a\n", "1: 'sources' must be a list");
}

/* ---- secrets ---- */

static void t_password_needs_0600(void **state)
{
	struct fx *f = *state;
	const char *text = "smtp:\n  user: bot\n  password: s3cr3t-pw\n";

	write_cfg(f, text, 0644);
	assert_int_equal(config_load(&f->cfg, f->path, &f->err), -1);
	assert_int_equal(f->err.code, EX_CONFIG);
	assert_memory_equal(f->err.msg, f->path, strlen(f->path));
	assert_non_null(strstr(f->err.msg, "0644"));
	assert_non_null(strstr(f->err.msg, "0600"));
	/* The secret itself is never echoed. */
	assert_null(strstr(f->err.msg, "s3cr3t"));
	assert_null(f->cfg.doc.root);

	write_cfg(f, text, 0640);
	assert_int_equal(config_load(&f->cfg, f->path, &f->err), -1);
	assert_non_null(strstr(f->err.msg, "0640"));

	write_cfg(f, text, 0600);
	assert_int_equal(config_load(&f->cfg, f->path, &f->err), 0);
	assert_string_equal(f->cfg.smtp.secret.password, "s3cr3t-pw");
	config_release(&f->cfg);

	/* Stricter than 0600 is fine too. */
	write_cfg(f, text, 0400);
	assert_int_equal(config_load(&f->cfg, f->path, &f->err), 0);
}

static void t_imap_password_needs_0600(void **state)
{
	struct fx *f = *state;

	write_cfg(f, "imap:\n  password: pw\n", 0604);
	assert_int_equal(config_load(&f->cfg, f->path, &f->err), -1);
	assert_int_equal(f->err.code, EX_CONFIG);
	assert_non_null(strstr(f->err.msg, "0604"));
}

static void t_password_indirect_any_mode(void **state)
{
	struct fx *f = *state;

	write_cfg(f, "smtp:\n  password_command: [pass, show, smtp]\n"
		  "imap:\n  password_file: /run/pw\n", 0644);
	assert_int_equal(config_load(&f->cfg, f->path, &f->err), 0);
	assert_int_equal(f->cfg.smtp.secret.password_command.n, 3);
	assert_string_equal(f->cfg.imap.secret.password_file, "/run/pw");
}

/* ---- getters ---- */

static void t_settings(void **state)
{
	struct fx *f = *state;
	const struct config *c = &f->cfg;

	load_ok(f, "smtp:\n  url: smtp://h\n  timeout: 45\n  batch: 7\n"
		"recipients:\n  to_author: off\n  cc: [a@x, b@x]\n"
		"imap:\n  mailbox: Reports\n  processed_mailbox: Done\n"
		"commands:\n  allow: [\"@example.test\"]\n"
		"confirm:\n  on_deadline: drop\n  enabled: yes\n"
		"scheduler:\n  backend: spool\n");
	assert_string_equal(c->smtp.url, "smtp://h");
	assert_null(c->smtp.user);
	assert_int_equal(c->smtp.timeout, 45);
	assert_int_equal(c->smtp.batch, 7);
	assert_int_equal(c->smtp.connect_timeout, 30);
	assert_int_equal(c->recipients.to_author, 0);
	assert_int_equal(c->recipients.cc.n, 2);
	assert_string_equal(c->recipients.cc.v[1], "b@x");
	assert_null(c->recipients.cc.v[2]);
	assert_int_equal(c->recipients.to.n, 0);
	assert_string_equal(c->imap.mailbox, "Reports");
	assert_string_equal(c->imap.processed_mailbox, "Done");
	assert_int_equal(c->commands.allow.n, 1);
	assert_string_equal(c->commands.allow.v[0], "@example.test");
	assert_int_equal(c->confirm.on_deadline, CFG_DEADLINE_DROP);
	assert_int_equal(c->confirm.enabled, 1);
	assert_string_equal(c->scheduler.backend, "spool");
}

/* report.attachments: one of three words; unset, decided per report. */
static void t_report_attachments(void **state)
{
	struct fx *f = *state;
	const struct config *c = &f->cfg;

	load_ok(f, "smtp:\n  url: smtp://h\n");
	assert_int_equal(c->report.attachments, CFG_ATTACH_AUTO);
	assert_int_equal(config_attachments(c, 1), CFG_ATTACH_NONE);
	assert_int_equal(config_attachments(c, 0), CFG_ATTACH_ALL);
	config_release(&f->cfg);
	load_ok(f, "report:\n  attachments: job\n");
	assert_int_equal(c->report.attachments, CFG_ATTACH_JOB);
	assert_int_equal(config_attachments(c, 1), CFG_ATTACH_JOB);
	config_release(&f->cfg);
	load_fails(f, "report:\n  attachments: some\n", "2: "
		   "'report.attachments': 'some' is not one of none, job, all "
		   "(did you mean 'none'?)");
}

/* ---- values checked at load ---- */

static void t_bad_words(void **state)
{
	struct fx *f = *state;

	load_fails(f, "smtp:\n  tls: startls\n",
		   "2: 'smtp.tls': 'startls' is not one of starttls, implicit, "
		   "none (did you mean 'starttls'?)");
	config_release(&f->cfg);
	load_fails(f, "imap:\n  tls: ssl\n",
		   "2: 'imap.tls': 'ssl' is not one of starttls, implicit, "
		   "none");
	config_release(&f->cfg);
	load_fails(f, "scheduler:\n  backend: lkp\n",
		   "2: 'scheduler.backend': 'lkp' is not one of exec, spool, "
		   "http");
	config_release(&f->cfg);
	load_ok(f, "smtp:\n  tls: implicit\nscheduler:\n  backend: spool\n");
	assert_int_equal(f->cfg.smtp.tls, CFG_TLS_IMPLICIT);
}

static void t_bad_urls(void **state)
{
	struct fx *f = *state;

	load_fails(f, "smtp:\n  url: smtpx://h:25\n",
		   "2: 'smtp.url': 'smtpx://h:25' is not a URL of "
		   "smtp://HOST, smtps://HOST (did you mean 'smtp://'?)");
	config_release(&f->cfg);
	load_fails(f, "imap:\n  url: imap://\n",
		   "2: 'imap.url': 'imap://' has no host "
		   "(imap://HOST[:PORT])");
	config_release(&f->cfg);
	load_fails(f, "sources:\n  - url: ftp://x/y\n",
		   "2: 'sources[].url': 'ftp://x/y' is not a URL of "
		   "http://HOST, https://HOST");
	config_release(&f->cfg);
	load_fails(f, "identity:\n  from: perfbot\n",
		   "2: 'identity.from' must be a mail address (\"Name "
		   "<user@domain>\" or user@domain): not one address");
	config_release(&f->cfg);
	load_fails(f, "recipients:\n  cc: [a@x, nobody]\n",
		   "2: 'recipients.cc' must be a list of mail addresses: not "
		   "one address");
	config_release(&f->cfg);
	load_fails(f, "commands:\n  allow: [\"@\"]\n",
		   "2: 'commands.allow' must be a list of mail addresses and "
		   "@domains: not a domain");
	config_release(&f->cfg);
	load_fails(f, "identity:\n  message_id_domain: a b\n",
		   "2: 'identity.message_id_domain' must be a domain name");
	config_release(&f->cfg);
	load_fails(f, "templates:\n  report: ../evil\n",
		   "2: 'templates.report' must be a template name (not a "
		   "path: templates.dir says where)");
	config_release(&f->cfg);
	load_ok(f, "commands:\n  allow: [\"@example.test\", \"A <a@x>\"]\n"
		"identity:\n  message_id_domain: mail.example.test\n");
	config_release(&f->cfg);
	load_ok(f, "smtp:\n  url: smtps://h:465\nimap:\n  url: imaps://h\n"
		"scheduler:\n  url: https://farm/api\n");
	config_release(&f->cfg);
	/* commands.test_repos: https:// or git:// URL patterns of a host */
	load_ok(f, "commands:\n  test_repos: [\"https://git.kernel.org/*\", "
		"\"git://git.example.test/linux.git\"]\n");
	assert_int_equal(f->cfg.commands.test_repos.n, 2);
	assert_string_equal(f->cfg.commands.test_repos.v[1],
			    "git://git.example.test/linux.git");
	config_release(&f->cfg);
	load_fails(f, "commands:\n  test_repos: [\"ssh://git.example.test/*"
		   "\"]\n", "2: 'commands.test_repos' must be a list of "
		   "repository URL patterns (https://HOST/... or git://HOST/"
		   "..., '*' for any text): not https:// or git://");
	config_release(&f->cfg);
	load_fails(f, "commands:\n  test_repos: [\"https://*\"]\n",
		   "2: 'commands.test_repos' must be a list of repository URL "
		   "patterns (https://HOST/... or git://HOST/..., '*' for any "
		   "text): no host");
	config_release(&f->cfg);
	load_fails(f, "commands:\n  test_repos: [\"https://u@h/x\"]\n",
		   "2: 'commands.test_repos' must be a list of repository URL "
		   "patterns (https://HOST/... or git://HOST/..., '*' for any "
		   "text): a user in it");
	config_release(&f->cfg);
	load_fails(f, "limits:\n  max_patch_bytes: 0\n",
		   "2: 'limits.max_patch_bytes' must be a whole number from 1 "
		   "to 10485760");
}

/*
 * What 'check' let through and 'run' then tripped on, or put into a
 * header or a page (issue 29 item 22): a port past 65535, a line feed in
 * identity.name, two addresses in reported_by, CR LF in authserv_id, a
 * URL that breaks out of an HTML attribute.
 */
static void t_values_that_break_out(void **state)
{
	struct fx *f = *state;

	load_fails(f, "smtp:\n  url: smtp://h:99999\n",
		   "2: 'smtp.url': 'smtp://h:99999': a port out of 1 to "
		   "65535");
	config_release(&f->cfg);
	load_fails(f, "imap:\n  url: imap://h:0/\n",
		   "2: 'imap.url': 'imap://h:0/': a port out of 1 to 65535");
	config_release(&f->cfg);
	load_fails(f, "smtp:\n  url: smtp://h:2x5\n",
		   "2: 'smtp.url': 'smtp://h:2x5': a port that is not a "
		   "number");
	config_release(&f->cfg);
	load_fails(f, "identity:\n  name: \"perfbot\\nBcc: x@evil.test\"\n",
		   "2: 'identity.name' must be one line of text, without "
		   "control characters");
	config_release(&f->cfg);
	load_fails(f, "identity:\n  reported_by: \"a@x, b@x\"\n",
		   "2: 'identity.reported_by' must be a mail address (\"Name "
		   "<user@domain>\" or user@domain): not one address");
	config_release(&f->cfg);
	load_fails(f, "commands:\n  authserv_id: \"mx.example.test\\r\\n\"\n",
		   "2: 'commands.authserv_id' must be one line of text, "
		   "without control characters");
	config_release(&f->cfg);
	load_fails(f, "web:\n  base_url: 'https://x/\"><script>'\n",
		   "2: 'web.base_url': 'https://x/\"><script>': a blank, a "
		   "control character or one of \" < > \\ ^ ` | in it");
	config_release(&f->cfg);
	load_ok(f, "sources:\n  - url: \"http://u:p@h:8080/list\"\n");
	config_release(&f->cfg);
	load_fails(f, "sources:\n  - url: \"http://u:p@h:80800/list\"\n",
		   "2: 'sources[].url': 'http://u:*@h:80800/list': a port out "
		   "of 1 to 65535");
	config_release(&f->cfg);
	load_ok(f, "smtp:\n  url: smtp://h:65535\nidentity:\n  name: "
		"\"perf bot\"\n  reported_by: \"Bot <bot@x>\"\n"
		"  archive_url: \"https://x/r/{report_id}.html\"\n"
		"commands:\n  authserv_id: mx.example.test\n"
		"imap:\n  url: \"imaps://[::1]:993\"\n");
	assert_string_equal(f->cfg.identity.reported_by, "Bot <bot@x>");
}

static void t_relative_paths(void **state)
{
	struct fx *f = *state;
	char want[256];
	const struct strv *argv;

	load_ok(f, "state: var/p.db\nsmtp:\n  ca_file: ../ca.pem\n"
		"imap:\n  ca_file: /abs/ca.pem\n"
		"scheduler:\n  argv: [bin/queue, \"{runs}\", x/y]\n"
		"data:\n  metrics: m.yaml\n");
	snprintf(want, sizeof(want), "%s/var/p.db", f->dir);
	assert_string_equal(f->cfg.state, want);
	snprintf(want, sizeof(want), "%s/../ca.pem", f->dir);
	assert_string_equal(f->cfg.smtp.ca_file, want);
	assert_string_equal(f->cfg.imap.ca_file, "/abs/ca.pem");
	snprintf(want, sizeof(want), "%s/m.yaml", f->dir);
	assert_string_equal(f->cfg.data.metrics, want);
	/* the program only: the arguments are the farm's business */
	argv = &f->cfg.scheduler.argv;
	snprintf(want, sizeof(want), "%s/bin/queue", f->dir);
	assert_int_equal(argv->n, 3);
	assert_string_equal(argv->v[0], want);
	assert_string_equal(argv->v[2], "x/y");
	assert_null(argv->v[3]);
	config_release(&f->cfg);
	/* a bare name is looked up in PATH, as before */
	load_ok(f, "scheduler:\n  argv: [lkp-queue]\n");
	assert_string_equal(f->cfg.scheduler.argv.v[0], "lkp-queue");
	assert_non_null(f->cfg.dir);
	config_release(&f->cfg);
	/* a state's URI is no path: kept as it is for its backend */
	load_ok(f, "state: postgresql://pb@db.example.test:5432/perfbot\n");
	assert_string_equal(f->cfg.state,
			    "postgresql://pb@db.example.test:5432/perfbot");
}

static void t_all_problems(void **state)
{
	struct fx *f = *state;

	write_cfg(f, "smtp:\n  tls: startls\n  url: smtpx://h\nbogus: 1\n",
		  0600);
	/* the first only */
	assert_int_equal(config_load(&f->cfg, f->path, &f->err), -1);
	assert_non_null(strstr(f->err.msg, "startls"));
	/* every one, then a count */
	assert_int_equal(config_load_flags(&f->cfg, f->path,
					   CONFIG_ALL_PROBLEMS, &f->err), -1);
	assert_int_equal(f->err.code, EX_CONFIG);
	assert_non_null(strstr(f->err.msg, ": 3 problems"));
}

static void t_parse_from_memory(void **state)
{
	struct fx *f = *state;
	static const char text[] = "state: s.db\nsmtp:\n  tls: none\n";

	assert_int_equal(config_parse(&f->cfg, "mem.yaml", "/srv/pb", text,
				      sizeof(text) - 1, &f->err), 0);
	assert_string_equal(f->cfg.state, "/srv/pb/s.db");
	assert_int_equal(f->cfg.smtp.tls, CFG_TLS_NONE);
	config_release(&f->cfg);
	assert_int_equal(config_parse(&f->cfg, "mem.yaml", NULL, "smtp: [",
				      7, &f->err), -1);
	assert_int_equal(f->err.code, EX_CONFIG);
	assert_int_equal(config_parse(&f->cfg, "mem.yaml", NULL,
				      "smtp:\n  tls: nope\n", 17, &f->err), -1);
	assert_non_null(strstr(f->err.msg, "mem.yaml:2: 'smtp.tls'"));
}

/* bisect (issue 33): off by default, its budget and confidence checked. */
static void t_bisect(void **state)
{
	struct fx *f = *state;
	const struct config *c = &f->cfg;

	load_ok(f, "");
	assert_int_equal(c->bisect.confirmed, 0);
	assert_true(c->bisect.confidence == 0.999);
	assert_int_equal(c->bisect.max_runs, 80);
	assert_int_equal(c->bisect.max_rounds, 12);
	config_release(&f->cfg);
	load_ok(f, "bisect:\n  confirmed: true\n  confidence: 0.99\n"
		"  max_runs: 120\n  max_rounds: 20\n");
	assert_int_equal(c->bisect.confirmed, 1);
	assert_true(c->bisect.confidence == 0.99);
	assert_int_equal(c->bisect.max_runs, 120);
	assert_int_equal(c->bisect.max_rounds, 20);
	config_release(&f->cfg);
	load_fails_with(f, "bisect:\n  confidence: 1\n",
			"2: 'bisect.confidence' must be a number above 0.5 "
			"and below 1");
	load_fails_with(f, "bisect:\n  confidence: 0.5\n",
			"'bisect.confidence' must be a number above 0.5");
	load_fails_with(f, "bisect:\n  confidence: nan\n",
			"'bisect.confidence' must be a number above 0.5");
	load_fails_with(f, "bisect:\n  max_runs: 0\n",
			"'bisect.max_runs' must be a whole number from 1 to "
			"100000");
	load_fails_with(f, "bisect:\n  confirmed: sometimes\n",
			"'bisect.confirmed' must be true or false");
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(t_defaults),
		T(t_derived_defaults),
		T(t_shipped_config),
		T(t_empty_file),
		T(t_missing_file),
		T(t_bad_yaml),
		T(t_not_a_mapping),
		T(t_unknown_key_top),
		T(t_unknown_key_nested),
		T(t_unknown_key_is_section),
		T(t_unknown_key_without_value),
		T(t_string_where_list),
		T(t_list_of_non_strings),
		T(t_list_where_string),
		T(t_string_where_mapping),
		T(t_int_range),
	T(t_durations),
		T(t_bisect),
	T(t_bad_bool),
		T(t_sources),
		T(t_sources_unknown_key),
		T(t_sources_wrong_kinds),
		T(t_password_needs_0600),
		T(t_imap_password_needs_0600),
		T(t_password_indirect_any_mode),
		T(t_settings),
		T(t_report_attachments),
		T(t_bad_words),
		T(t_bad_urls),
		T(t_values_that_break_out),
		T(t_relative_paths),
		T(t_all_problems),
		T(t_parse_from_memory),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
