// SPDX-License-Identifier: GPL-2.0-only
/*
 * Tests of scripts/fake-lkp-run (tests/tools/fake-lkp-run.c), the fake
 * farm: runs appended to every metric with the right kind of values,
 * stats_source extended, key order and old text kept, perfbot still reads
 * the result root, deterministic, idempotent by request id, and the
 * refusals (exit 64/65, nothing changed); a test's new result root
 * (kind test: runs drawn around the job's root, scaled by the patch's
 * directive, the commit built and its subject in job.yaml) and the
 * farm's reasons in its error file; a bisect's planted truth over a git
 * repository the test makes with libgit2 (the culprit's factor in every
 * commit that contains it, a build failure in its commit alone). Run from the repository root
 * after 'make build/tools/fake-lkp-run'.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>
#include <git2.h>

#include "perfbot/util/fileio.h"
#include "perfbot/ingest/gittree.h"
#include "perfbot/ingest/result.h"

#include "testutil.h"

#define TOOL "scripts/fake-lkp-run"
#define BUILT "build/tools/fake-lkp-run"
#define SHA "96f8ba3dd632aff684cc7c67d9f4af435be0341c"
#define OTHER "0123456789abcdef0123456789abcdef01234567"

/* Six runs, as perfbot's fixtures write them (Python's json, indent 2). */
static const char matrix[] =
	"{\n"
	"  \"hackbench.throughput\": [\n    4795.41,\n    4860.7,\n"
	"    4791.36,\n    5016.25,\n    5397.54,\n    5206.89\n  ],\n"
	"  \"perf-stat.ps.instructions\": [\n    1284170,\n    1240941,\n"
	"    1381757,\n    1236292,\n    1221387,\n    1332963\n  ],\n"
	"  \"latency_100ms%\": [\n    0.01,\n    0.01,\n    0.01,\n    0.01,\n"
	"    0.01,\n    0.01\n  ],\n"
	"  \"sched_debug.cfs_rq:/.spread0.avg\": [\n    -12.5,\n    3.25,\n"
	"    -7.75,\n    1.0,\n    -2.5,\n    4.0\n  ],\n"
	"  \"softirqs.CPU1.SCHED\": [\n    17,\n    4\n  ],\n"
	"  \"proc-vmstat.never\": [],\n"
	"  \"kmsg.timestamp:last\": [\n    \"a\",\n    \"b\"\n  ],\n"
	"  \"stats_source\": [\n"
	"    \"/result/hackbench/" SHA "/0/stats.json\",\n"
	"    \"/result/hackbench/" SHA "/1/stats.json\",\n"
	"    \"/result/hackbench/" SHA "/2/stats.json\",\n"
	"    \"/result/hackbench/" SHA "/3/stats.json\",\n"
	"    \"/result/hackbench/" SHA "/4/stats.json\",\n"
	"    \"/result/hackbench/" SHA "/5/stats.json\"\n"
	"  ]\n"
	"}\n";

struct fx {
	char dir[64];
	char root[96];		/* <dir>/r: matrix.json, job.yaml */
	char mpath[128];	/* <root>/matrix.json */
	struct strbuf err;	/* stderr of the last run */
};

/* A result root 'name' in the fixture directory, 'sha' in its job. */
static void make_root(const struct fx *f, const char *name, const char *sha)
{
	char dir[128], job[160];

	tu_path(dir, sizeof(dir), f->dir, name);
	assert_int_equal(mkdir(dir, 0755), 0);
	tu_put(dir, "matrix.json", matrix, 0644);
	snprintf(job, sizeof(job), "testcase: hackbench\ncommit: %s\n", sha);
	tu_put(dir, "job.yaml", job, 0644);
}

static int setup(void **state)
{
	struct fx *f = TU_NEW_FX(struct fx, "test_fake_lkp_run");

	if (!f)
		return -1;
	if (access(BUILT, X_OK))
		fprintf(stderr, "%s: not built; run 'make %s'\n", BUILT, BUILT);
	tu_path(f->root, sizeof(f->root), f->dir, "r");
	tu_path(f->mpath, sizeof(f->mpath), f->root, "matrix.json");
	sb_init(&f->err, 1 << 16);
	*state = f;
	make_root(f, "r", SHA);
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	tu_rmtree(f->dir);
	sb_release(&f->err);
	free(f);
	return 0;
}

static int run_argv(struct fx *f, const char *const *argv);

/* Run the tool with up to four arguments (NULL ends); its exit code. */
static int run(struct fx *f, const char *a1, const char *a2, const char *a3,
	       const char *a4)
{
	const char *argv[] = { TOOL, a1, a2, a3, a4, NULL };

	return run_argv(f, argv);
}

/* Run the tool with 'argv' (argv[0] TOOL, NULL-terminated). */
static int run_argv(struct fx *f, const char *const *argv)
{
	char errpath[128];
	struct pb_err err;
	pid_t pid;
	int st, fd;

	tu_path(errpath, sizeof(errpath), f->dir, "stderr");
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		fd = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		dup2(fd, STDERR_FILENO);
		fd = open("/dev/null", O_WRONLY);
		dup2(fd, STDOUT_FILENO);
		execv(TOOL, (char **)argv);
		_exit(127);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	if (file_read(errpath, 1 << 16, 1, &f->err, &err))
		sb_reset(&f->err);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static void assert_run(struct fx *f, int want, const char *a1,
		       const char *a2, const char *a3, const char *a4)
{
	int rc = run(f, a1, a2, a3, a4);

	if (rc != want)
		fail_msg("exit %d, want %d; stderr: %s", rc, want,
			 sb_str(&f->err));
}

static json_t *load_json(const char *path)
{
	json_error_t je;
	json_t *j = json_load_file(path, JSON_REJECT_DUPLICATES, &je);

	if (!j)
		fail_msg("%s:%d: %s", path, je.line, je.text);
	return j;
}

static json_t *metric(json_t *m, const char *name)
{
	json_t *l = json_object_get(m, name);

	assert_true(json_is_array(l));
	return l;
}

/* Same keys in the same order; every old list a prefix of the new one. */
static void assert_kept(json_t *old, json_t *new, size_t added)
{
	const char *k;
	json_t *l, *nl;
	void *it = json_object_iter(new);
	size_t i;

	json_object_foreach(old, k, l) {
		assert_non_null(it);
		assert_string_equal(json_object_iter_key(it), k);
		nl = json_object_iter_value(it);
		for (i = 0; i < json_array_size(l); i++)
			assert_true(json_equal(json_array_get(l, i),
					       json_array_get(nl, i)));
		if (json_is_string(json_array_get(l, 0)) &&
		    strcmp(k, "stats_source"))
			assert_int_equal(json_array_size(nl),
					 json_array_size(l));
		else
			assert_int_equal(json_array_size(nl), 6 + added);
		it = json_object_iter_next(new, it);
	}
	assert_null(it);
}

static void t_appends(void **state)
{
	struct fx *f = *state;
	json_t *old = load_json(f->mpath), *new, *l, *v;
	struct strbuf text;
	struct result_root rr;
	struct pb_err err;
	size_t i;

	assert_run(f, 0, f->root, SHA, "3", "rt-1");
	new = load_json(f->mpath);
	assert_kept(old, new, 3);
	l = metric(new, "perf-stat.ps.instructions");
	for (i = 6; i < 9; i++) {
		v = json_array_get(l, i);
		assert_true(json_is_integer(v));
		/* mean 1282918, sd about 61000: within 3 sd */
		assert_true(json_integer_value(v) > 1282918 - 190000 &&
			    json_integer_value(v) < 1282918 + 190000);
	}
	l = metric(new, "hackbench.throughput");
	for (i = 6; i < 9; i++)
		assert_true(json_is_real(json_array_get(l, i)) &&
			    json_real_value(json_array_get(l, i)) > 0);
	l = metric(new, "latency_100ms%");
	for (i = 6; i < 9; i++)
		assert_true(json_real_value(json_array_get(l, i)) == 0.01);
	l = metric(new, "softirqs.CPU1.SCHED");
	for (i = 2; i < 6; i++)
		assert_int_equal(json_integer_value(json_array_get(l, i)), 0);
	for (i = 6; i < 9; i++)
		assert_true(json_integer_value(json_array_get(l, i)) >= 0);
	l = metric(new, "stats_source");
	assert_string_equal(json_string_value(json_array_get(l, 8)),
			    "/result/hackbench/" SHA "/8/stats.json");
	tu_read_text(f->mpath, &text);
	memset(&rr, 0, sizeof(rr));
	if (result_root_parse_matrix(&rr, f->mpath, text.buf, text.len, &err))
		fail_msg("perfbot cannot read it: %s", err.msg);
	assert_int_equal(rr.runs, 9);
	result_root_release(&rr);
	sb_release(&text);
	json_decref(old);
	json_decref(new);
}

/* The old text stays as it was: only the tails of the lists grow. */
static void t_text_kept(void **state)
{
	struct fx *f = *state;
	static const char head[] = "{\n  \"hackbench.throughput\": [\n"
		"    4795.41,\n    4860.7,\n    4791.36,\n    5016.25,\n"
		"    5397.54,\n    5206.89,\n    ";
	struct strbuf sb;
	const char *p;

	assert_run(f, 0, f->root, SHA, "2", "rt-1");
	tu_read_text(f->mpath, &sb);
	p = sb_str(&sb);
	assert_memory_equal(p, head, sizeof(head) - 1);
	assert_non_null(strstr(p, "\n    -12.5,\n    3.25,\n    -7.75,\n"
			       "    1.0,\n"));
	assert_non_null(strstr(p, "\"kmsg.timestamp:last\": [\n    \"a\",\n"
			       "    \"b\"\n  ],\n"));
	assert_int_equal(p[sb.len - 1], '\n');
	sb_release(&sb);
}

static void t_deterministic(void **state)
{
	struct fx *f = *state;
	char r2[128], r3[128];
	struct strbuf a, b, c;

	make_root(f, "r2", SHA);
	make_root(f, "r3", SHA);
	snprintf(r2, sizeof(r2), "%s/r2", f->dir);
	snprintf(r3, sizeof(r3), "%s/r3", f->dir);
	assert_run(f, 0, f->root, SHA, "4", "rt-1");
	assert_run(f, 0, r2, SHA, "4", "rt-1");
	assert_run(f, 0, r3, SHA, "4", "rt-2");
	tu_read_text(f->mpath, &a);
	snprintf(r2, sizeof(r2), "%s/r2/matrix.json", f->dir);
	snprintf(r3, sizeof(r3), "%s/r3/matrix.json", f->dir);
	tu_read_text(r2, &b);
	tu_read_text(r3, &c);
	assert_string_equal(sb_str(&a), sb_str(&b));
	assert_string_not_equal(sb_str(&a), sb_str(&c));
	sb_release(&a);
	sb_release(&b);
	sb_release(&c);
}

static void t_idempotent(void **state)
{
	struct fx *f = *state;
	char log[128];
	struct strbuf once, twice, ids;
	json_t *m;

	assert_run(f, 0, f->root, SHA, "3", "rt-1");
	tu_read_text(f->mpath, &once);
	assert_run(f, 0, f->root, SHA, "3", "rt-1");
	tu_read_text(f->mpath, &twice);
	assert_string_equal(sb_str(&once), sb_str(&twice));
	assert_run(f, 0, f->root, SHA, "2", "rt-2");
	m = load_json(f->mpath);
	assert_int_equal(json_array_size(metric(m, "stats_source")), 11);
	assert_int_equal(json_array_size(metric(m, "proc-vmstat.never")), 11);
	snprintf(log, sizeof(log), "%s/.fake-lkp-requests", f->root);
	tu_read_text(log, &ids);
	assert_string_equal(sb_str(&ids), "rt-1\nrt-2\n");
	json_decref(m);
	sb_release(&once);
	sb_release(&twice);
	sb_release(&ids);
}

/* Without a request id every call adds runs, and new values. */
static void t_without_id(void **state)
{
	struct fx *f = *state;
	json_t *m, *l;

	assert_run(f, 0, f->root, SHA, "2", NULL);
	assert_run(f, 0, f->root, SHA, "2", NULL);
	m = load_json(f->mpath);
	l = metric(m, "hackbench.throughput");
	assert_int_equal(json_array_size(l), 10);
	assert_false(json_equal(json_array_get(l, 6), json_array_get(l, 8)) &&
		     json_equal(json_array_get(l, 7), json_array_get(l, 9)));
	json_decref(m);
}

/* A root without job.yaml or stats_source: no commit check, no names. */
static void t_bare_root(void **state)
{
	struct fx *f = *state;
	char job[128];
	json_t *m;

	snprintf(job, sizeof(job), "%s/job.yaml", f->root);
	assert_int_equal(unlink(job), 0);
	tu_put(f->root, "matrix.json", "{\"a\": [1, 2, 3], \"b\": [0.5]}",
	       0644);
	assert_run(f, 0, f->root, OTHER, "2", "rt-1");
	m = load_json(f->mpath);
	assert_int_equal(json_object_size(m), 2);
	assert_int_equal(json_array_size(metric(m, "a")), 5);
	assert_int_equal(json_array_size(metric(m, "b")), 5);
	json_decref(m);
}

static void assert_refused(struct fx *f, int want, const char *commit,
			   const char *runs, const char *msg)
{
	assert_run(f, want, f->root, commit, runs, "rt-9");
	if (!strstr(sb_str(&f->err), msg))
		fail_msg("stderr '%s' does not say '%s'", sb_str(&f->err), msg);
}

static void t_refusals(void **state)
{
	struct fx *f = *state;
	struct strbuf sb, files;

	assert_run(f, 64, f->root, SHA, NULL, NULL);
	assert_refused(f, 65, SHA, "0", "RUNS '0'");
	assert_refused(f, 65, SHA, "1001", "RUNS '1001'");
	assert_refused(f, 65, SHA, "3x", "RUNS '3x'");
	assert_refused(f, 65, "HEAD~1", "3", "not a sha");
	assert_refused(f, 65, OTHER, "3", "commit " OTHER " is not the "
		       "commit of this result root");
	tu_read_text(f->mpath, &sb);
	assert_string_equal(sb_str(&sb), matrix);
	sb_release(&sb);
	tu_put(f->root, "matrix.json", "{\"a\": [1, 2", 0644);
	assert_refused(f, 65, SHA, "3", "matrix.json");
	tu_put(f->root, "matrix.json", "{\"a\": [1, \"x\"]}", 0644);
	assert_refused(f, 65, SHA, "3", "matrix.json");
	tu_put(f->root, "matrix.json", "{\"a\": [1], \"a\": [2]}", 0644);
	assert_refused(f, 65, SHA, "3", "matrix.json");
	tu_put(f->root, "matrix.json", "[1, 2]", 0644);
	assert_refused(f, 65, SHA, "3", "matrix.json");
	tu_read_text(f->mpath, &sb);
	assert_string_equal(sb_str(&sb), "[1, 2]");
	sb_release(&sb);
	tu_names(f->root, NULL, &files);
	assert_string_equal(sb_str(&files), ".fake-lkp-requests|job.yaml|"
			    "matrix.json");
	sb_release(&files);
	unlink(f->mpath);
	assert_refused(f, 65, SHA, "3", "No such file or directory");
}

/* A refused call is not recorded: once fixed, the same id runs. */
static void t_refused_not_recorded(void **state)
{
	struct fx *f = *state;
	json_t *m;

	tu_put(f->root, "matrix.json", "{\"a\": [1, 2", 0644);
	assert_run(f, 65, f->root, SHA, "3", "rt-1");
	tu_put(f->root, "matrix.json", matrix, 0644);
	assert_run(f, 0, f->root, SHA, "3", "rt-1");
	m = load_json(f->mpath);
	assert_int_equal(json_array_size(metric(m, "stats_source")), 9);
	json_decref(m);
}

/* ------------------------------------------------------------------ */
/* A test (kind test): a new result root                               */

/* The tool as the exec scheduler runs it for a test into 'out'. */
static int farm_test(struct fx *f, const char *out, const char *id,
		    const char *ref, const char *patch)
{
	char job[160];
	const char *argv[] = { TOOL, out, SHA, "3", id, "test",
			       tu_path(job, sizeof(job), f->root, "job.yaml"),
			       *ref ? "https://git.example.test/linux.git" : "",
			       ref, patch, NULL };

	return run_argv(f, argv);
}

static void t_test_root(void **state)
{
	struct fx *f = *state;
	char out[128], patch[128], path[160];
	struct result_root rr;
	struct pb_err err;
	struct strbuf job = STRBUF_INIT;
	const struct metric *m;
	size_t i;

	tu_put(f->root, "job.yaml", "testcase: hackbench\ntbox_group: lkp-x\n"
	       "commit: " SHA "\nsubject: \"pipe: the reported one\"\n",
	       0644);
	tu_path(out, sizeof(out), f->dir, "t1");
	assert_int_equal(mkdir(out, 0755), 0);
	tu_put(f->dir, "p.patch", "Subject: [PATCH v2] pipe: fix it\n\n"
	       "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n"
	       "+b /* fake-lkp-run: hackbench.throughput *2 */\n", 0644);
	tu_path(patch, sizeof(patch), f->dir, "p.patch");
	assert_int_equal(farm_test(f, out, "test-1", "", patch), 0);
	/* perfbot reads it: 3 runs of every number metric */
	if (result_root_load(&rr, out, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(rr.runs, 3);
	m = result_root_find(&rr, "hackbench.throughput");
	assert_non_null(m);
	for (i = 0; i < 3; i++)
		assert_true(metric_values(&rr, m)[i] > 8000 &&
			    metric_values(&rr, m)[i] < 12000);
	m = result_root_find(&rr, "perf-stat.ps.instructions");
	for (i = 0; i < 3; i++)
		assert_true(metric_values(&rr, m)[i] > 1100000 &&
			    metric_values(&rr, m)[i] < 1450000);
	assert_null(result_root_find(&rr, "kmsg.timestamp:last"));
	/* the commit built (not the one asked) and the patch's subject */
	assert_string_not_equal(result_root_job_str(&rr, "commit"), SHA);
	assert_string_equal(result_root_job_str(&rr, "subject"),
			    "pipe: fix it");
	assert_string_equal(result_root_job_str(&rr, "testcase"), "hackbench");
	result_root_release(&rr);
	/* done once: the same request id again changes nothing */
	tu_read_text(tu_path(path, sizeof(path), out, "matrix.json"), &job);
	assert_int_equal(farm_test(f, out, "test-1", "", patch), 0);
	{
		struct strbuf again = STRBUF_INIT;

		tu_read_text(path, &again);
		assert_string_equal(sb_str(&again), sb_str(&job));
		sb_release(&again);
	}
	sb_release(&job);
}

/* The farm's reasons: a patch that does not apply, a build that fails. */
static void t_test_fails(void **state)
{
	struct fx *f = *state;
	char out[128], patch[128], path[160];
	struct strbuf sb = STRBUF_INIT;

	tu_path(out, sizeof(out), f->dir, "t2");
	assert_int_equal(mkdir(out, 0755), 0);
	tu_put(f->dir, "p.patch", "--- a/mm/x.c\n+++ b/mm/x.c\n@@ -12,2 "
	       "+12,2 @@\n-a\n+b fake-lkp-run: does not apply\n", 0644);
	tu_path(patch, sizeof(patch), f->dir, "p.patch");
	assert_int_equal(farm_test(f, out, "test-2", "", patch), 65);
	tu_read_text(tu_path(path, sizeof(path), out, "error"), &sb);
	assert_string_equal(sb_str(&sb), "error: patch failed: mm/x.c:12\n"
			    "error: mm/x.c: patch does not apply\n");
	sb_release(&sb);
	assert_int_not_equal(access(tu_path(path, sizeof(path), out,
					    "matrix.json"), F_OK), 0);
	/* a tree's directive from fake-lkp-trees beside the result root */
	tu_path(out, sizeof(out), f->dir, "t3");
	assert_int_equal(mkdir(out, 0755), 0);
	tu_put(f->dir, "fake-lkp-trees", "other aim7 *2\nbroken build fails\n",
	       0644);
	assert_int_equal(farm_test(f, out, "test-3", "broken", ""), 65);
	tu_read_text(tu_path(path, sizeof(path), out, "error"), &sb);
	assert_non_null(strstr(sb_str(&sb), "error: expected ';'"));
	sb_release(&sb);
	tu_path(out, sizeof(out), f->dir, "t4");
	assert_int_equal(mkdir(out, 0755), 0);
	assert_int_equal(farm_test(f, out, "test-4", "other", ""), 0);
	/* not a directory: refused */
	tu_path(out, sizeof(out), f->dir, "t5");
	assert_int_equal(farm_test(f, out, "test-5", "other", ""), 65);
}

/* ------------------------------------------------------------------ */
/* A bisect (kind bisect): a planted truth over a real repository      */

/* 'n' commits in a line in a new bare repository <dir>/git. */
static void git_line(struct fx *f, char sha[][GIT_SHA_HEX], size_t n)
{
	git_repository *repo = NULL;
	git_treebuilder *tb = NULL;
	git_signature *sig = NULL;
	git_commit *parent = NULL;
	git_tree *tree = NULL;
	git_oid tid, id;
	char path[128], msg[32];
	size_t i;

	git_libgit2_init();
	tu_path(path, sizeof(path), f->dir, "git");
	assert_int_equal(git_repository_init(&repo, path, 1), 0);
	assert_int_equal(git_treebuilder_new(&tb, repo, NULL), 0);
	assert_int_equal(git_treebuilder_write(&tid, tb), 0);
	assert_int_equal(git_tree_lookup(&tree, repo, &tid), 0);
	assert_int_equal(git_signature_new(&sig, "Dev", "dev@example.test",
					   1739548080, 0), 0);
	for (i = 0; i < n; i++) {
		const git_commit *parents[1] = { parent };

		snprintf(msg, sizeof(msg), "commit %zu\n", i);
		assert_int_equal(git_commit_create(&id, repo, NULL, sig, sig,
						   NULL, msg, tree, parent ? 1 : 0,
						   parents), 0);
		git_oid_tostr(sha[i], GIT_SHA_HEX, &id);
		git_commit_free(parent);
		assert_int_equal(git_commit_lookup(&parent, repo, &id), 0);
	}
	git_commit_free(parent);
	git_signature_free(sig);
	git_tree_free(tree);
	git_treebuilder_free(tb);
	git_repository_free(repo);
	git_libgit2_shutdown();
}

/* The tool as a bisect of 'sha' into a new <dir>/<name>; its exit. */
static int farm_bisect(struct fx *f, const char *name, const char *sha,
		       char *out, size_t n)
{
	char job[160], repo[128];
	const char *argv[] = { TOOL, out, sha, "4", name, "bisect",
			       tu_path(job, sizeof(job), f->root, "job.yaml"),
			       tu_path(repo, sizeof(repo), f->dir, "git"), "",
			       "", NULL };

	tu_path(out, n, f->dir, name);
	assert_int_equal(mkdir(out, 0755), 0);
	return run_argv(f, argv);
}

/* The mean of hackbench.throughput in result root 'dir'. */
static double throughput(const char *dir, const char *sha)
{
	struct result_root rr;
	struct pb_err err;
	const struct metric *m;
	double s = 0;
	size_t i;

	if (result_root_load(&rr, dir, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(rr.runs, 4);
	assert_string_equal(result_root_job_str(&rr, "commit"), sha);
	m = result_root_find(&rr, "hackbench.throughput");
	assert_non_null(m);
	for (i = 0; i < 4; i++)
		s += metric_values(&rr, m)[i] / 4;
	result_root_release(&rr);
	return s;
}

static void t_bisect(void **state)
{
	struct fx *f = *state;
	char sha[5][GIT_SHA_HEX], trees[256], out[128], path[160];
	struct strbuf sb = STRBUF_INIT;

	git_line(f, sha, 5);
	tu_put(f->root, "job.yaml", "testcase: hackbench\ntbox_group: lkp-x\n"
	       "commit: " SHA "\n", 0644);
	/* the culprit is sha[2] (given short); sha[3] does not build */
	snprintf(trees, sizeof(trees), "%.12s hackbench.throughput *0.5\n"
		 "%s build fails\n", sha[2], sha[3]);
	tu_put(f->dir, "fake-lkp-trees", trees, 0644);
	assert_int_equal(farm_bisect(f, "b1", sha[1], out, sizeof(out)), 0);
	assert_true(throughput(out, sha[1]) > 4000);
	assert_int_equal(farm_bisect(f, "b2", sha[2], out, sizeof(out)), 0);
	assert_true(throughput(out, sha[2]) < 3000);
	/* inherited past the commit that did not build */
	assert_int_equal(farm_bisect(f, "b4", sha[4], out, sizeof(out)), 0);
	assert_true(throughput(out, sha[4]) < 3000);
	assert_int_equal(farm_bisect(f, "b3", sha[3], out, sizeof(out)), 65);
	tu_read_text(tu_path(path, sizeof(path), out, "error"), &sb);
	assert_non_null(strstr(sb_str(&sb), "error: expected ';'"));
	sb_release(&sb);
	/* a commit the repository does not have */
	assert_int_equal(farm_bisect(f, "b5", OTHER, out, sizeof(out)), 65);
	assert_non_null(strstr(sb_str(&f->err), "COMMIT " OTHER));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(t_appends, setup, teardown),
		cmocka_unit_test_setup_teardown(t_text_kept, setup, teardown),
		cmocka_unit_test_setup_teardown(t_deterministic, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_idempotent, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_without_id, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_bare_root, setup, teardown),
		cmocka_unit_test_setup_teardown(t_refusals, setup, teardown),
		cmocka_unit_test_setup_teardown(t_refused_not_recorded, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_test_root, setup, teardown),
		cmocka_unit_test_setup_teardown(t_test_fails, setup, teardown),
		cmocka_unit_test_setup_teardown(t_bisect, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
