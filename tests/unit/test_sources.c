// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/ingest/sources.c and src/ingest/http.c: dir sources
 * (only *.yaml, name order, errors counted and skipped), url sources
 * against build/tools/httpd (a JSON list split into URL#N texts, not a
 * list, HTTP errors, ETag remembered in the state and a 304 giving
 * nothing), and http_get / http_post_json themselves (status, the body
 * cap, validators, refused connections, non-HTTP schemes). Run from the
 * repository root after 'make build/tools/httpd'.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "perfbot/config/config.h"
#include "perfbot/util/fileio.h"
#include "perfbot/ingest/http.h"
#include "perfbot/ingest/sources.h"
#include "perfbot/state/state.h"
#include "perfbot/state/seen.h"

#include "testutil.h"

static const char list2[] =
	"[{\"id\": \"m-0\", \"base\": {\"commit\": \"aaaaaaa\"}},\n"
	" {\"id\": \"m-1\", \"notes\": [\"caf\\u00e9\"]}]\n";

struct fx {
	char dir[64];
	char www[96];		/* httpd's directory */
	char mdir[96];		/* a dir source */
	char cfg_path[128];
	char url[160];		/* http://127.0.0.1:PORT */
	struct config cfg;
	int loaded;
	struct state *st;
	int open;
	struct source_batch b;
	struct pb_err err;
	pid_t httpd;
	int saved_stderr;
	struct strbuf log;
};

static int setup(void **state)
{
	struct fx *f = TU_NEW_FX(struct fx, "test_sources");

	fetch_use(http_get);	/* as perfbot-full chooses */
	if (!f)
		return -1;
	tu_path(f->www, sizeof(f->www), f->dir, "www");
	tu_path(f->mdir, sizeof(f->mdir), f->dir, "manifests");
	tu_path(f->cfg_path, sizeof(f->cfg_path), f->dir, "perfbot.yaml");
	f->saved_stderr = -1;
	sb_init(&f->log, 1 << 20);
	*state = f;
	return mkdir(f->www, 0700) || mkdir(f->mdir, 0700) ? -1 : 0;
}

/* The same, with build/tools/httpd serving <dir>/www. */
static int setup_http(void **state)
{
	struct fx *f;
	long port;

	if (setup(state))
		return -1;
	f = *state;
	if (tu_httpd_start(f->www, &f->httpd))
		return -1;
	port = tu_httpd_port(f->www);
	if (!port)
		return -1;
	snprintf(f->url, sizeof(f->url), "http://127.0.0.1:%ld", port);
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	tu_stderr_restore(&f->saved_stderr);
	tu_httpd_stop(&f->httpd);
	sources_release(&f->b);
	if (f->open)
		state_close(f->st);
	if (f->loaded)
		config_release(&f->cfg);
	sb_release(&f->log);
	tu_rmtree(f->dir);
	free(f);
	return 0;
}

static void load(struct fx *f, const char *yaml)
{
	tu_load_config(&f->cfg, &f->loaded, f->cfg_path, yaml, &f->err);
}

/* sources: one url, http://127.0.0.1:PORT/<name>. */
static void load_url(struct fx *f, const char *name)
{
	char yaml[512];

	snprintf(yaml, sizeof(yaml), "sources:\n  - url: \"%s/%s\"\n", f->url,
		 name);
	load(f, yaml);
}

static void open_state(struct fx *f)
{
	char path[128];

	tu_path(path, sizeof(path), f->dir, "perfbot.db");
	if (state_open(&f->st, path, STATE_WRITE, &f->err))
		fail_msg("%s", f->err.msg);
	f->open = 1;
}

/* sources_collect with stderr (log_error) captured into f->log. */
static int collect(struct fx *f, struct state *st, int remember)
{
	char path[128];
	struct pb_err err;
	int rc;

	sources_release(&f->b);
	tu_path(path, sizeof(path), f->dir, "stderr");
	tu_stderr_capture(path, &f->saved_stderr);
	rc = sources_collect(&f->cfg, st, &f->b, &f->err);
	if (!rc && st && remember)
		rc = sources_remember(st, &f->b, NULL, 1000, &f->err);
	tu_stderr_restore(&f->saved_stderr);
	sb_reset(&f->log);
	if (file_read(path, 1 << 20, 0, &f->log, &err))
		fail_msg("%s", err.msg);
	return rc;
}

static void assert_logged(const struct fx *f, const char *what)
{
	if (!strstr(sb_str(&f->log), what))
		fail_msg("'%s' not in the log: '%s'", what, sb_str(&f->log));
}

/* ------------------------------------------------------------------ */
/* dir sources                                                         */

static void t_dir(void **state)
{
	struct fx *f = *state;
	char yaml[256], want[160];

	tu_put(f->mdir, "b.yaml", "id: b\n", 0644);
	tu_put(f->mdir, "a.yaml", "id: a\n", 0644);
	tu_put(f->mdir, "Z.yaml", "id: Z\n", 0644);
	tu_put(f->mdir, ".hidden.yaml", "id: hidden\n", 0644);
	tu_put(f->mdir, ".yaml", "id: dot\n", 0644);
	tu_put(f->mdir, "c.yml", "id: yml\n", 0644);
	tu_put(f->mdir, ".d.yml", "id: hidden\n", 0644);
	tu_put(f->mdir, ".yml", "id: dot\n", 0644);
	tu_put(f->mdir, "d.yaml.bak", "id: bak\n", 0644);
	tu_put(f->mdir, "yaml", "id: bare\n", 0644);
	tu_put(f->mdir, "README", "not a manifest\n", 0644);
	snprintf(yaml, sizeof(yaml), "sources:\n  - dir: \"%s\"\n", f->mdir);
	load(f, yaml);
	assert_int_equal(collect(f, NULL, 0), 0);
	assert_int_equal(f->b.errors, 0);
	/* *.yml too (issue 21 item 9) */
	assert_int_equal(f->b.n, 4);
	snprintf(want, sizeof(want), "%s/Z.yaml", f->mdir);
	assert_string_equal(f->b.m[0].name, want);
	snprintf(want, sizeof(want), "%s/a.yaml", f->mdir);
	assert_string_equal(f->b.m[1].name, want);
	snprintf(want, sizeof(want), "%s/b.yaml", f->mdir);
	assert_string_equal(f->b.m[2].name, want);
	snprintf(want, sizeof(want), "%s/c.yml", f->mdir);
	assert_string_equal(f->b.m[3].name, want);
	assert_string_equal(f->b.m[0].text, "id: Z\n");
	assert_string_equal(f->b.m[1].text, "id: a\n");
	assert_string_equal(f->b.m[2].text, "id: b\n");
	assert_int_equal(f->b.m[1].len, 6);
	assert_string_equal(f->b.m[1].dir, f->mdir);
	assert_string_equal(sb_str(&f->log), "");
}

/* The demo manifests, named by a dir source of a config file. */
static void t_dir_shipped(void **state)
{
	struct fx *f = *state;
	char yaml[PATH_MAX + 64], cwd[PATH_MAX], want[PATH_MAX + 64];
	size_t i;
	static const char *const names[] = { "aim7-range.yaml",
		"aim7-xfs-iversion.yaml", "fsmark-btrfs.yaml",
		"hackbench-pipe.yaml" };

	assert_non_null(getcwd(cwd, sizeof(cwd)));
	snprintf(yaml, sizeof(yaml), "sources:\n  - dir: %s/fixtures/manifests\n",
		 cwd);
	tu_load_config(&f->cfg, &f->loaded, f->cfg_path, yaml, &f->err);
	assert_int_equal(collect(f, NULL, 0), 0);
	assert_int_equal(f->b.n, 4);
	for (i = 0; i < 4; i++) {
		snprintf(want, sizeof(want), "%s/fixtures/manifests/%s", cwd,
			 names[i]);
		assert_string_equal(f->b.m[i].name, want);
	}
	assert_non_null(strstr(f->b.m[3].text, "id: demo-004\n"));
	snprintf(want, sizeof(want), "%s/fixtures/manifests", cwd);
	assert_string_equal(f->b.m[3].dir, want);
}

/* A dir that cannot be read is counted; the other sources still come. */
static void t_dir_missing(void **state)
{
	struct fx *f = *state;
	char yaml[512];

	tu_put(f->mdir, "a.yaml", "id: a\n", 0644);
	snprintf(yaml, sizeof(yaml), "sources:\n  - dir: \"%s/nope\"\n"
		 "  - dir: \"%s\"\n  - dir: \"%s/perfbot.yaml\"\n", f->dir,
		 f->mdir, f->dir);
	load(f, yaml);
	assert_int_equal(collect(f, NULL, 0), 0);
	assert_int_equal(f->b.errors, 2);
	assert_int_equal(f->b.n, 1);
	assert_string_equal(f->b.m[0].text, "id: a\n");
	assert_logged(f, "/nope: cannot read the source directory");
}

/* One unreadable manifest is counted, its neighbours still read. */
static void t_dir_bad_file(void **state)
{
	struct fx *f = *state;
	char yaml[256], path[160];

	tu_put(f->mdir, "a.yaml", "id: a\n", 0644);
	tu_put(f->mdir, "c.yaml", "id: c\n", 0644);
	snprintf(path, sizeof(path), "%s/b.yaml", f->mdir);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(yaml, sizeof(yaml), "sources:\n  - dir: \"%s\"\n", f->mdir);
	load(f, yaml);
	assert_int_equal(collect(f, NULL, 0), 0);
	assert_int_equal(f->b.errors, 1);
	assert_int_equal(f->b.n, 2);
	assert_string_equal(f->b.m[0].text, "id: a\n");
	assert_string_equal(f->b.m[1].text, "id: c\n");
	assert_logged(f, "b.yaml");
}

/*
 * A manifest taken for a run (issue 21 items 2 and 9): a YAML file that is
 * no manifest is left alone, a second manifest of an id is refused naming
 * both, a result root it names must be there.
 */
static void t_take(void **state)
{
	struct fx *f = *state;
	struct source_ids ids;
	struct manifest m;
	char yaml[256], roots[160];
	const char *good;
	int taken = -1;
	size_t i;
	struct {
		const char *name, *text;
		int rc, taken;
		const char *msg;
	} c[] = {
		{ "metrics.yaml", "report_allowlist_add: [a.b]\n", 0, 0,
		  "metrics.yaml: not a manifest (no 'base' nor 'head', and "
		  "keys no manifest has)" },
		{ "list.yaml", "- a\n- b\n", 0, 0,
		  "list.yaml: not a manifest (not a mapping)" },
		{ "empty.yaml", "", 0, 0, "empty.yaml: not a manifest (empty)" },
		{ "a.yaml", NULL, 0, 1, NULL },
		{ "b.yaml", NULL, -1, 0,
		  "b.yaml:1: id 'same' is the id of " },
		/* a manifest's keys only: a broken manifest, not ignored */
		{ "c.yaml", "id: other\n", -1, 0,
		  "c.yaml: 'base' must be a mapping" },
		{ "d.yaml", "id: d\nbase: {commit: aaaaaaa, result_root: r}\n"
		  "head: {commit: bbbbbbb, result_root: haed}\n", -1, 0,
		  "d.yaml:3: 'head.result_root': " },
	};

	snprintf(roots, sizeof(roots), "%s/r", f->mdir);
	assert_int_equal(mkdir(roots, 0700), 0);
	tu_put(roots, "matrix.json", "{}\n", 0644);
	good = "id: same\nbase: {commit: aaaaaaa, result_root: r}\n"
		"head: {commit: bbbbbbb, result_root: r}\n";
	snprintf(yaml, sizeof(yaml), "sources:\n  - dir: \"%s\"\n", f->mdir);
	load(f, yaml);
	source_ids_init(&ids);
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct manifest_text mt = { (char *)c[i].name, f->mdir,
					    (char *)(c[i].text ? c[i].text :
						     good), 0, 0 };

		mt.len = strlen(mt.text);
		f->err.msg[0] = '\0';
		assert_int_equal(source_take(&f->cfg, &ids, &mt, &m, &taken,
					     &f->err), c[i].rc);
		assert_int_equal(taken, c[i].taken);
		if (c[i].msg && !strstr(f->err.msg, c[i].msg))
			fail_msg("%s: '%s' does not say '%s'", c[i].name,
				 f->err.msg, c[i].msg);
		if (taken)
			manifest_release(&m);
	}
	assert_non_null(strstr(f->err.msg, "no such directory") ?
			f->err.msg : NULL);
	/* an id claimed outside a manifest (a derived one) is refused too */
	assert_int_equal(source_ids_claim(&ids, "same", "z.yaml", &f->err),
			 -1);
	assert_string_equal(f->err.msg, "z.yaml: id 'same' is the id of a.yaml:1 "
			    "already: skipped (each manifest needs an id of "
			    "its own)");
	assert_int_equal(source_ids_claim(&ids, "new", "z.yaml", &f->err), 0);
	source_ids_release(&ids);
}

static void t_no_sources(void **state)
{
	struct fx *f = *state;

	load(f, "state: x.db\n");
	assert_int_equal(collect(f, NULL, 0), 0);
	assert_int_equal(f->b.n, 0);
	assert_int_equal(f->b.errors, 0);
	assert_null(f->b.m);
	sources_release(&f->b);	/* twice is fine */
}

/* ------------------------------------------------------------------ */
/* url sources                                                         */

static void t_url_list(void **state)
{
	struct fx *f = *state;
	char want[256];

	tu_put(f->www, "list.json", list2, 0644);
	load_url(f, "list.json");
	assert_int_equal(collect(f, NULL, 0), 0);
	assert_int_equal(f->b.errors, 0);
	assert_int_equal(f->b.n, 2);
	snprintf(want, sizeof(want), "%s/list.json#0", f->url);
	assert_string_equal(f->b.m[0].name, want);
	snprintf(want, sizeof(want), "%s/list.json#1", f->url);
	assert_string_equal(f->b.m[1].name, want);
	assert_string_equal(f->b.m[0].dir, ".");
	assert_string_equal(f->b.m[0].text, "{\"id\":\"m-0\",\"base\":"
			    "{\"commit\":\"aaaaaaa\"}}");
	assert_string_equal(f->b.m[1].text, "{\"id\":\"m-1\",\"notes\":"
			    "[\"caf\xc3\xa9\"]}");
	assert_int_equal(f->b.m[1].len, strlen(f->b.m[1].text));
}

static void t_url_and_dir(void **state)
{
	struct fx *f = *state;
	char yaml[512];

	tu_put(f->www, "list.json", list2, 0644);
	tu_put(f->mdir, "a.yaml", "id: a\n", 0644);
	snprintf(yaml, sizeof(yaml), "sources:\n  - url: \"%s/missing.json\"\n"
		 "  - dir: \"%s\"\n  - url: \"%s/list.json\"\n", f->url,
		 f->mdir, f->url);
	load(f, yaml);
	assert_int_equal(collect(f, NULL, 0), 0);
	assert_int_equal(f->b.errors, 1);
	assert_int_equal(f->b.n, 3);
	assert_string_equal(f->b.m[0].text, "id: a\n");
	assert_logged(f, "/missing.json: HTTP status 404");
}

static void t_url_not_a_list(void **state)
{
	struct fx *f = *state;

	tu_put(f->www, "obj.json", "{\"id\": \"m-0\"}", 0644);
	tu_put(f->www, "broken.json", "[{\"id\": ", 0644);
	tu_put(f->www, "dup.json", "[{\"id\": \"a\", \"id\": \"b\"}]", 0644);
	load_url(f, "obj.json");
	assert_int_equal(collect(f, NULL, 0), 0);
	assert_int_equal(f->b.errors, 1);
	assert_int_equal(f->b.n, 0);
	assert_logged(f, "not a JSON list of manifests");
	load_url(f, "broken.json");
	assert_int_equal(collect(f, NULL, 0), 0);
	assert_int_equal(f->b.errors, 1);
	assert_int_equal(f->b.n, 0);
	load_url(f, "dup.json");
	assert_int_equal(collect(f, NULL, 0), 0);
	assert_int_equal(f->b.errors, 1);
	assert_int_equal(f->b.n, 0);
}

static void t_url_empty_list(void **state)
{
	struct fx *f = *state;

	tu_put(f->www, "empty.json", "[]", 0644);
	load_url(f, "empty.json");
	assert_int_equal(collect(f, NULL, 0), 0);
	assert_int_equal(f->b.errors, 0);
	assert_int_equal(f->b.n, 0);
}

static void t_url_refused(void **state)
{
	struct fx *f = *state;

	/* Port 1 on the loopback: nobody listens there. */
	load(f, "sources:\n  - url: \"http://127.0.0.1:1/list.json\"\n");
	assert_int_equal(collect(f, NULL, 0), 0);
	assert_int_equal(f->b.errors, 1);
	assert_int_equal(f->b.n, 0);
	assert_logged(f, "http://127.0.0.1:1/list.json: ");
}

/* A url source of list2 (its url into 'url') and the state opened. */
static void url_source(struct fx *f, char *url, size_t n)
{
	tu_put(f->www, "list.json", list2, 0644);
	load_url(f, "list.json");
	open_state(f);
	snprintf(url, n, "%s/list.json", f->url);
}

/* The ETag is remembered; the next fetch is a 304 giving nothing. */
static void t_url_etag(void **state)
{
	struct fx *f = *state;
	char url[256];
	char *etag = NULL, *etag2 = NULL, *lm = NULL;

	url_source(f, url, sizeof(url));
	/* Without 'remember' nothing is kept. */
	assert_int_equal(collect(f, f->st, 0), 0);
	assert_int_equal(f->b.n, 2);
	assert_int_equal(state_source_get(f->st, url, &etag, &lm, &f->err), 0);
	assert_null(etag);
	assert_int_equal(collect(f, f->st, 1), 0);
	assert_int_equal(f->b.n, 2);
	assert_int_equal(state_source_get(f->st, url, &etag, &lm, &f->err), 0);
	assert_non_null(etag);
	assert_int_equal(etag[0], '"');
	assert_int_equal(strlen(etag), 18);
	assert_null(lm);
	/* Not modified: nothing, and no error. */
	assert_int_equal(collect(f, f->st, 1), 0);
	assert_int_equal(f->b.n, 0);
	assert_int_equal(f->b.errors, 0);
	/* Without the state a plain GET gives everything again. */
	assert_int_equal(collect(f, NULL, 1), 0);
	assert_int_equal(f->b.n, 2);
	/* New content: a new ETag, the manifests again. */
	tu_put(f->www, "list.json", "[{\"id\": \"m-2\"}]", 0644);
	assert_int_equal(collect(f, f->st, 1), 0);
	assert_int_equal(f->b.n, 1);
	assert_string_equal(f->b.m[0].text, "{\"id\":\"m-2\"}");
	assert_int_equal(state_source_get(f->st, url, &etag2, &lm, &f->err),
			 0);
	assert_non_null(etag2);
	assert_string_not_equal(etag2, etag);
	free(etag);
	free(etag2);
}

/*
 * A list with a manifest not settled (another instance holds it, or its
 * bisection runs) keeps no validators: the next fetch is the whole list
 * again, not a 304. Once all are settled they are kept. A dir source
 * beside it has nothing to keep.
 */
static void t_url_left(void **state)
{
	struct fx *f = *state;
	unsigned char left[2] = { 0, 1 };
	char url[256];
	char *etag = NULL, *lm = NULL;

	url_source(f, url, sizeof(url));
	assert_int_equal(collect(f, f->st, 0), 0);
	assert_int_equal(f->b.n, 2);
	assert_int_equal(f->b.nfetched, 1);
	assert_int_equal(f->b.fetched[0].first, 0);
	assert_int_equal(f->b.fetched[0].n, 2);
	assert_int_equal(sources_remember(f->st, &f->b, left, 1000, &f->err),
			 0);
	assert_int_equal(state_source_get(f->st, url, &etag, &lm, &f->err), 0);
	assert_null(etag);
	assert_int_equal(collect(f, f->st, 0), 0);
	assert_int_equal(f->b.n, 2);
	left[1] = 0;
	assert_int_equal(sources_remember(f->st, &f->b, left, 1000, &f->err),
			 0);
	assert_int_equal(state_source_get(f->st, url, &etag, &lm, &f->err), 0);
	assert_non_null(etag);
	free(etag);
	assert_int_equal(collect(f, f->st, 0), 0);
	assert_int_equal(f->b.n, 0);
	assert_int_equal(f->b.nfetched, 0);
}

/* ------------------------------------------------------------------ */
/* http.c                                                              */

static int get(struct fx *f, const char *name, const char *etag,
	       struct strbuf *body, struct http_answer *a)
{
	char url[256];

	snprintf(url, sizeof(url), "%s/%s", f->url, name);
	memset(&f->err, 0, sizeof(f->err));
	return http_get(url, etag, NULL, NULL, body, a, &f->err);
}

static void t_http_get(void **state)
{
	struct fx *f = *state;
	struct strbuf body;
	struct http_answer a;
	char etag[64];

	tu_put(f->www, "x.json", "[1, 2, 3]\n", 0644);
	sb_init(&body, 1024);
	assert_int_equal(get(f, "x.json", NULL, &body, &a), 0);
	assert_int_equal(a.status, 200);
	assert_string_equal(sb_str(&body), "[1, 2, 3]\n");
	assert_non_null(a.etag);
	assert_null(a.last_modified);
	snprintf(etag, sizeof(etag), "%s", a.etag);
	http_answer_release(&a);
	assert_null(a.etag);
	/* With the validator: 304 and no body. */
	sb_reset(&body);
	assert_int_equal(get(f, "x.json", etag, &body, &a), 0);
	assert_int_equal(a.status, 304);
	assert_int_equal(body.len, 0);
	http_answer_release(&a);
	/* Another validator: the content again. */
	assert_int_equal(get(f, "x.json", "\"0000000000000000\"", &body, &a),
			 0);
	assert_int_equal(a.status, 200);
	assert_string_equal(sb_str(&body), "[1, 2, 3]\n");
	http_answer_release(&a);
	sb_release(&body);
}

/* A 404 is an answer, for the caller to judge. */
static void t_http_404(void **state)
{
	struct fx *f = *state;
	struct strbuf body = STRBUF_INIT;
	struct http_answer a;

	assert_int_equal(get(f, "missing.json", NULL, &body, &a), 0);
	assert_int_equal(a.status, 404);
	assert_string_equal(sb_str(&body), "{}");
	assert_null(a.etag);
	http_answer_release(&a);
	sb_release(&body);
}

static void t_http_too_large(void **state)
{
	struct fx *f = *state;
	struct strbuf body;
	struct http_answer a;
	char big[100001];

	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	tu_put(f->www, "big.json", big, 0644);
	sb_init(&body, 1000);
	assert_int_equal(get(f, "big.json", NULL, &body, &a), -1);
	assert_int_equal(f->err.code, EX_DATAERR);
	assert_non_null(strstr(f->err.msg, "/big.json: answer larger than "
			       "1000 bytes"));
	assert_true(body.len <= 1000);
	http_answer_release(&a);
	/* Exactly at the cap is fine. */
	big[1000] = '\0';
	tu_put(f->www, "cap.json", big, 0644);
	sb_release(&body);
	sb_init(&body, 1000);
	assert_int_equal(get(f, "cap.json", NULL, &body, &a), 0);
	assert_int_equal(body.len, 1000);
	http_answer_release(&a);
	sb_release(&body);
}

static void t_http_refused(void **state)
{
	struct fx *f = *state;
	struct strbuf body = STRBUF_INIT;
	struct http_answer a;

	assert_int_equal(http_get("http://127.0.0.1:1/x", NULL, NULL, NULL,
				  &body, &a, &f->err), -1);
	assert_int_equal(f->err.code, EX_UNAVAILABLE);
	assert_memory_equal(f->err.msg, "http://127.0.0.1:1/x: ", 22);
	http_answer_release(&a);
	sb_release(&body);
}

/* Only http and https: no file://, no gopher:// ... */
static void t_http_schemes(void **state)
{
	struct fx *f = *state;
	struct strbuf body = STRBUF_INIT;
	struct http_answer a;

	assert_int_equal(http_get("file:///etc/hostname", NULL, NULL, NULL,
				  &body, &a, &f->err), -1);
	assert_int_equal(f->err.code, EX_UNAVAILABLE);
	assert_int_equal(body.len, 0);
	http_answer_release(&a);
	assert_int_equal(http_post_json("file:///tmp/x", "{}", NULL, 5,
					&body, &a, &f->err), -1);
	http_answer_release(&a);
	sb_release(&body);
}

static void t_http_post_json(void **state)
{
	struct fx *f = *state;
	struct strbuf body = STRBUF_INIT, posts = STRBUF_INIT;
	struct http_answer a;
	char url[256], path[160];

	snprintf(url, sizeof(url), "%s/sched", f->url);
	assert_int_equal(http_post_json(url, "{\"runs\": 4}", NULL, 10, &body,
					&a, &f->err), 0);
	assert_int_equal(a.status, 202);
	assert_string_equal(sb_str(&body), "{}");
	http_answer_release(&a);
	snprintf(path, sizeof(path), "%s/sched.posts", f->www);
	assert_int_equal(file_read(path, 4096, 1, &posts, &f->err), 0);
	assert_string_equal(sb_str(&posts), "{\"runs\": 4}\n");
	/* The status the server chose, whatever it is. */
	tu_put(f->www, "sched.status", "409\n", 0644);
	sb_reset(&body);
	assert_int_equal(http_post_json(url, "{}", NULL, 10, &body, &a,
					&f->err), 0);
	assert_int_equal(a.status, 409);
	http_answer_release(&a);
	sb_release(&body);
	sb_release(&posts);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
#define H(fn) cmocka_unit_test_setup_teardown(fn, setup_http, teardown)
	const struct CMUnitTest tests[] = {
		T(t_dir),
		T(t_dir_shipped),
		T(t_dir_missing),
		T(t_dir_bad_file),
		T(t_take),
		T(t_no_sources),
		H(t_url_list),
		H(t_url_and_dir),
		H(t_url_not_a_list),
		H(t_url_empty_list),
		T(t_url_refused),
		H(t_url_etag),
		H(t_url_left),
		H(t_http_get),
		H(t_http_404),
		H(t_http_too_large),
		T(t_http_refused),
		T(t_http_schemes),
		H(t_http_post_json),
	};
#undef T
#undef H

	return cmocka_run_group_tests(tests, NULL, NULL);
}
