/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_CONFIG_H
#define PERFBOT_CONFIG_H

#include <stddef.h>

#include "perfbot/util/err.h"
#include "perfbot/util/strv.h"
#include "perfbot/util/yaml.h"

/*
 * config/perfbot.yaml, read once. The file is checked against one schema
 * (src/config/schema.c) when loaded: an unknown key, or a value of the
 * wrong kind, is EX_CONFIG naming the key and its line. A file that holds
 * a password directly must be mode 0600. Paths (state, sources[].dir,
 * ca_file, password_file, spool_dir, templates.dir, data.*, and the
 * program of an argv when it names a path) are made absolute against the
 * directory of the config file. Words (tls, scheduler.backend,
 * confirm.on_deadline), URL schemes and mail addresses are checked then
 * too.
 *
 * Then every setting is filled into the typed structs below, the schema's
 * default where the file says nothing: the schema is the one place a
 * default is written, and modules read their struct (cfg->smtp.timeout),
 * never a key by name. Strings point into the loaded document and live as
 * long as the config.
 */

#define CONFIG_MAX_BYTES (1 << 20)

enum cfg_tls { CFG_TLS_STARTTLS, CFG_TLS_IMPLICIT, CFG_TLS_NONE };
enum cfg_on_deadline { CFG_DEADLINE_MAIL, CFG_DEADLINE_DROP };
/*
 * report.attachments: none (the body alone, as the modern robot sends
 * it), job (job.yaml and reproduce), all (those and the kconfig_file);
 * unset, none when the manifest gives a materials_url, else all.
 */
enum cfg_attachments {
	CFG_ATTACH_NONE, CFG_ATTACH_JOB, CFG_ATTACH_ALL, CFG_ATTACH_AUTO,
};

/* Where a password comes from (secret.h): at most one is set (config.c refuses two). */
struct cfg_secret {
	const char *password;		/* in the file itself (mode 0600) */
	const char *password_env;
	const char *password_file;
	struct strv password_command;
};

struct cfg_identity {
	const char *from;		/* "perfbot <perfbot@localhost>" */
	const char *name;		/* "perfbot" */
	const char *message_id_domain;	/* NULL: the domain of 'from' */
	const char *archive_url;
	const char *patch_archive_url;
	const char *reported_by;	/* NULL: 'from' */
};

struct cfg_smtp {
	const char *url;		/* NULL: reports are not sent */
	enum cfg_tls tls;
	const char *user;
	struct cfg_secret secret;
	const char *ca_file;
	long connect_timeout;		/* s */
	long timeout;			/* s, one session */
	long batch;			/* mails per connection; 0: all */
};

struct cfg_imap {
	const char *url;		/* NULL: replies are not read */
	enum cfg_tls tls;
	const char *user;
	struct cfg_secret secret;
	const char *ca_file;
	const char *mailbox;
	const char *processed_mailbox;	/* NULL: messages stay */
	long max_message_bytes;
	long timeout;			/* s */
};

struct cfg_source {
	const char *dir;		/* one of the two */
	const char *url;
	/*
	 * Where a manifest of this source may attach files from (its
	 * kconfig_file); unset (has_attach_dirs 0): the manifest's own
	 * directory and its result roots (ingest/manifest_files.h).
	 */
	struct strv attach_dirs;
	int has_attach_dirs;
};

struct cfg_recipients {
	int to_author;
	struct strv to;
	struct strv cc;
	long max_cc;
};

struct cfg_commands {
	struct strv allow;		/* addresses and @domains */
	const char *authserv_id;	/* NULL: no DKIM/DMARC/ARC needed */
	struct strv test_repos;		/* URL patterns a tree test may name;
					 * none: tree tests refused */
};

struct cfg_limits {
	long mails_per_hour;
	long commands_per_mail;
	long retests_per_report;
	long max_runs;
	long default_runs;
	long per_sender_per_day;
	long refusals_per_day;
	long tests_per_report;
	long tests_per_sender_per_day;
	long bisects_per_sender_per_day;
	long max_patch_bytes;
};

struct cfg_scheduler {
	const char *backend;		/* "exec", "spool", "http"; NULL */
	struct strv argv;
	const char *spool_dir;
	const char *url;
	const char *results_dir;	/* new result roots of tests */
	long results_keep;		/* s they are kept when over; 0 ever */
	long timeout;			/* s, one call */
	long deadline;			/* s, a retest's results */
};

struct cfg_confirm {
	int enabled;
	long total_runs;
	long min_runs;
	long deadline;			/* s; scheduler.deadline unless set */
	enum cfg_on_deadline on_deadline;
};

struct cfg_report {
	enum cfg_attachments attachments;
};

struct cfg_templates {
	const char *report;		/* a name: templates/<report>.txt */
	const char *dir;		/* found as a data file when relative */
};

struct cfg_data {
	const char *metrics;
	const char *testcases;
	const char *hosts;
};

struct cfg_staging {
	const char *redirect_to;	/* NULL: mail goes where it is sent */
};

struct cfg_web {
	int show_addresses;		/* the report's own recipients shown */
	const char *base_url;		/* where the site is served, or NULL */
	long feed_entries;		/* reports in feed.atom */
	long per_page;			/* lines of a list page, at most 200 */
	long jobs;			/* processes making pages; 0: a core each */
};

struct cfg_run {
	long jobs;			/* reports made at once; 0: a core each */
};

struct cfg_tracking {
	const char *repo;		/* a local git clone; NULL: no tracking */
	struct strv branches;		/* the branches walked */
	int verify;			/* ask the farm to run the fix */
};

/* The bisection of a range (doc/bisect.md). */
struct cfg_bisect {
	int confirmed;			/* bisect every confirmed range */
	double confidence;		/* P a culprit must hold */
	long max_runs;			/* runs one bisection may ask */
	long max_rounds;		/* its farm round trips */
};

struct cfg_reminders {
	long every;			/* s between two reminders */
	struct strv to;			/* empty: no reminders */
	long min_age;			/* s a report is open before listed */
};

struct config {
	struct cfg_identity identity;
	struct cfg_smtp smtp;
	struct cfg_imap imap;
	const char *state;		/* NULL: $XDG_STATE_HOME/perfbot */
	/* a state on a server's password: state_password_env/_file */
	struct cfg_secret state_secret;
	struct cfg_source *sources;
	size_t nsources;
	struct cfg_recipients recipients;
	struct cfg_commands commands;
	struct cfg_limits limits;
	struct cfg_scheduler scheduler;
	struct cfg_confirm confirm;
	struct cfg_report report;
	struct cfg_templates templates;
	struct cfg_data data;
	struct cfg_staging staging;
	struct cfg_web web;
	struct cfg_run run;
	struct cfg_tracking tracking;
	struct cfg_reminders reminders;
	struct cfg_bisect bisect;

	/* the file */
	struct ydoc doc;	/* doc.root is a mapping, or NULL (an empty
				 * file, the defaults) */
	char *path;
	char *dir;		/* absolute directory of 'path', or NULL */
	unsigned flags;
	int problems;		/* counted with CONFIG_ALL_PROBLEMS */
	char first[PB_ERR_MAX];	/* the first of them */
};

/*
 * Find every problem, not only the first: one is the error as usual;
 * more are each printed (log_error) and the error counts them.
 */
#define CONFIG_ALL_PROBLEMS 1u

/* Load 'path'; NULL loads an empty configuration (all defaults). */
int config_load(struct config *cfg, const char *path, struct pb_err *err);

/*
 * What a report's mail attaches (report.attachments) for a report that
 * links its materials ('materials' 1) or not: unset, none when it does,
 * else all.
 */
enum cfg_attachments config_attachments(const struct config *cfg,
					int materials);
int config_load_flags(struct config *cfg, const char *path, unsigned flags,
		      struct pb_err *err);
/*
 * The same from memory ('name' for messages; relative paths against
 * 'dir', or left as they are when NULL): for tests and the fuzzer. A
 * password in it is refused, as there is no file mode to check.
 */
int config_parse(struct config *cfg, const char *name, const char *dir,
		 const char *text, size_t len, struct pb_err *err);
void config_release(struct config *cfg);

#endif
