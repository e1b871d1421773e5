/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the unit tests of src/web/ share, header-only (testutil.h's
 * rules): a fixture with a temporary directory, a configuration whose
 * templates and data are the tree's, a state, and reports queued in it
 * as 'perfbot run' queues them (report_make, report_compose,
 * outbox_queue) from seed 004's result roots. Run from the repository
 * root.
 */
#ifndef PERFBOT_TESTWEB_H
#define PERFBOT_TESTWEB_H

#include "perfbot/compose/reportmail.h"
#include "perfbot/cycle/report.h"
#include "perfbot/send/outbox.h"
#include "perfbot/state/state.h"
#include "perfbot/util/log.h"

#include "testutil.h"

#define TW_T0 1739548080	/* 2025-02-14 15:48:00 UTC */
#define TW_SEED4 "fixtures/seeds/004"

struct tw {
	char dir[64];
	char state[PATH_MAX];
	char cwd[PATH_MAX];
	struct config cfg;
	int loaded;
	struct state *st;
	struct pb_err err;
	enum log_level level;
};

/*
 * A configuration of the tree's data, the templates of 'templates' (NULL:
 * the tree's) and 'extra' (other sections than identity, state,
 * recipients, templates, data).
 */
static inline void tw_config_in(struct tw *w, const char *templates,
				const char *extra)
{
	char yaml[8 * PATH_MAX + 1024], path[PATH_MAX], tdir[PATH_MAX + 16];

	snprintf(tdir, sizeof(tdir), "%s/templates", w->cwd);
	snprintf(yaml, sizeof(yaml),
		 "identity:\n"
		 "  from: \"perfbot <perfbot@example.test>\"\n"
		 "  message_id_domain: example.test\n"
		 "  archive_url: \"https://perf.example.test/r/"
		 "{report_id}.html\"\n"
		 "state: %s\n"
		 "recipients:\n"
		 "  cc: [perf-reports@example.test]\n"
		 "templates:\n  dir: %s\n"
		 "data:\n  metrics: %s/config/metrics.yaml\n"
		 "  testcases: %s/config/testcases.yaml\n"
		 "  hosts: %s/config/hosts\n%s",
		 w->state, templates ? templates : tdir, w->cwd, w->cwd, w->cwd,
		 extra ? extra : "");
	tu_load_config(&w->cfg, &w->loaded, tu_path(path, sizeof(path), w->dir,
						    "perfbot.yaml"), yaml,
		       &w->err);
}

static inline void tw_config(struct tw *w, const char *extra)
{
	tw_config_in(w, NULL, extra);
}

/* A new fixture of 'type' (its first member a struct tw named 'w'). */
static inline struct tw *tw_setup(struct tw *w)
{
	if (!w || !getcwd(w->cwd, sizeof(w->cwd)))
		return NULL;
	w->level = log_get_level();
	log_set_level(LOG_QUIET);
	tu_path(w->state, sizeof(w->state), w->dir, "state.db");
	tw_config(w, NULL);
	if (state_open(&w->st, w->state, STATE_WRITE, &w->err))
		return NULL;
	return w;
}

static inline void tw_teardown(struct tw *w)
{
	state_close(w->st);
	if (w->loaded)
		config_release(&w->cfg);
	log_set_level(w->level);
	tu_rmtree(w->dir);
}

/* The text of a manifest 'id' comparing seed 004's 'base' and 'head'. */
static inline void tw_manifest(const struct tw *w, struct strbuf *sb,
			       const char *id, const char *roots,
			       const char *extra)
{
	sb_reset(sb);
	if (sb_addf(sb, "id: %s\n"
		    "base: { commit: 262b2fa99cbe02a715ce23981c2c30685ccf3a93, "
		    "subject: \"pipe: introduce struct file_operations "
		    "pipeanon_fops\", result_root: %s/base }\n"
		    "head: { commit: f017b0a4951fac8f150232661b2cc0b67e0c57f0, "
		    "subject: \"pipe: don't update {a,c,m}time for anonymous "
		    "pipes\", author: \"Dev <dev@example.test>\", "
		    "result_root: %s/head }\n%s", id, roots, roots,
		    extra ? extra : ""))
		fail_msg("out of memory");
	(void)w;
}

/*
 * Queue report 'id' of the roots 'roots' (absolute; seed 004's when
 * NULL) at 'now', as 'perfbot run' would.
 */
static inline void tw_report(struct tw *w, const char *id, const char *roots,
			     const char *extra, time_t now)
{
	struct report_opts o = { .now = now };
	struct strbuf text = STRBUF_INIT;
	char seed[PATH_MAX + 32];
	struct manifest m;
	struct composed c;
	struct report r;

	snprintf(seed, sizeof(seed), "%s/%s", w->cwd, TW_SEED4);
	tw_manifest(w, &text, id, roots ? roots : seed, extra);
	memset(&m, 0, sizeof(m));
	if (manifest_parse(&m, "m.yaml", w->dir, text.buf, text.len, &w->err) ||
	    report_make(&r, &m, &w->cfg, &o, &w->err) || !r.worth ||
	    report_compose(&r, &w->cfg, &c, &w->err))
		fail_msg("report '%s': %s", id, w->err.msg);
	c.manifest = "m.yaml";
	c.manifest_text = text.buf;
	c.manifest_dir = w->dir;
	if (outbox_queue(w->st, &c, now, &w->err))
		fail_msg("queue '%s': %s", id, w->err.msg);
	composed_release(&c);
	report_release(&r);
	manifest_release(&m);
	sb_release(&text);
}

/* The whole file 'rel' of directory 'dir' (the test fails without it). */
static inline void tw_read(const char *dir, const char *rel, struct strbuf *sb)
{
	char path[PATH_MAX];

	tu_read_text(tu_path(path, sizeof(path), dir, rel), sb);
}

/* How often 'needle' is in 'hay'. */
static inline size_t tw_count(const char *hay, const char *needle)
{
	size_t n = 0;

	while ((hay = strstr(hay, needle))) {
		n++;
		hay += strlen(needle);
	}
	return n;
}

#endif
