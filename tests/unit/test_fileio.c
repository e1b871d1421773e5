// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/util/fileio.c: bounded whole-file reads and their
 * errors (each naming the path), atomic writes, path helpers, data_path.
 * Run from the repository root.
 */
#include <dirent.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "perfbot/util/fileio.h"

#include "testutil.h"

/* A temporary directory, removed with everything in it on teardown. */
struct fx {
	char dir[64];
	struct strbuf out;
	struct pb_err err;
	char *paths[8];		/* path_join results to free */
	int n;
};

static int setup(void **state)
{
	struct fx *f = TU_NEW_FX(struct fx, "test_fileio");

	if (!f)
		return -1;
	sb_init(&f->out, 0);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	tu_rmtree_force(f->dir);
	while (f->n > 0)
		free(f->paths[--f->n]);
	sb_release(&f->out);
	free(f);
	return 0;
}

/* '<dir>/<name>', freed on teardown. */
static const char *in_dir(struct fx *f, const char *name)
{
	char *p = path_join(f->dir, name);

	assert_non_null(p);
	assert_true(f->n < 8);
	f->paths[f->n++] = p;
	return p;
}

static const char *put(struct fx *f, const char *name, const void *data,
		       size_t len)
{
	const char *path = in_dir(f, name);
	FILE *fp = fopen(path, "wb");

	assert_non_null(fp);
	assert_int_equal(fwrite(data, 1, len, fp), len);
	assert_int_equal(fclose(fp), 0);
	return path;
}

/* The message is '<path>: <rest...>' with 'rest' somewhere after. */
static void assert_msg(const struct pb_err *err, const char *path,
		       const char *rest)
{
	size_t n = strlen(path);

	if (strncmp(err->msg, path, n) || err->msg[n] != ':' ||
	    !strstr(err->msg + n, rest))
		fail_msg("message '%s' is not '%s: ...%s...'", err->msg, path,
			 rest);
}

static void t_read_ok(void **state)
{
	struct fx *f = *state;
	const char *p = put(f, "a.txt", "line 1\nline 2\n", 14);

	assert_int_equal(file_read(p, 1024, 1, &f->out, &f->err), 0);
	assert_int_equal(f->out.len, 14);
	assert_string_equal(sb_str(&f->out), "line 1\nline 2\n");
}

static void t_read_replaces_content(void **state)
{
	struct fx *f = *state;
	const char *p = put(f, "a.txt", "new", 3);

	assert_int_equal(sb_adds(&f->out, "old content"), 0);
	assert_int_equal(file_read(p, 1024, 1, &f->out, &f->err), 0);
	assert_string_equal(sb_str(&f->out), "new");
}

static void t_read_empty(void **state)
{
	struct fx *f = *state;
	const char *p = put(f, "empty", "", 0);

	assert_int_equal(file_read(p, 1024, 1, &f->out, &f->err), 0);
	assert_int_equal(f->out.len, 0);
	assert_string_equal(sb_str(&f->out), "");
}

static void t_read_big(void **state)
{
	struct fx *f = *state;
	size_t n = 200000, i;
	char *data = malloc(n);
	const char *p;

	assert_non_null(data);
	for (i = 0; i < n; i++)
		data[i] = (char)('a' + i % 23);
	p = put(f, "big", data, n);
	/* Several read() chunks, exactly at the limit. */
	assert_int_equal(file_read(p, n, 1, &f->out, &f->err), 0);
	assert_int_equal(f->out.len, n);
	assert_memory_equal(f->out.buf, data, n);
	free(data);
}

static void t_read_missing(void **state)
{
	struct fx *f = *state;
	const char *p = in_dir(f, "no-such-file");

	assert_int_equal(file_read(p, 1024, 1, &f->out, &f->err), -1);
	assert_int_equal(f->err.code, EX_NOINPUT);
	assert_msg(&f->err, p, "No such file");
}

static void t_read_missing_dir(void **state)
{
	struct fx *f = *state;
	const char *p = in_dir(f, "nodir/matrix.json");

	assert_int_equal(file_read(p, 1024, 0, &f->out, &f->err), -1);
	assert_int_equal(f->err.code, EX_NOINPUT);
	assert_msg(&f->err, p, "No such file");
}

static void t_read_directory(void **state)
{
	struct fx *f = *state;

	assert_int_equal(file_read(f->dir, 1024, 1, &f->out, &f->err), -1);
	assert_int_equal(f->err.code, EX_DATAERR);
	assert_msg(&f->err, f->dir, "is a directory");
}

static void t_read_too_large(void **state)
{
	struct fx *f = *state;
	const char *p = put(f, "hundred", "0123456789012345678901234567890123"
			    "4567890123456789012345678901234567890123456789"
			    "01234567890123456789", 100);

	assert_int_equal(file_read(p, 99, 1, &f->out, &f->err), -1);
	assert_int_equal(f->err.code, EX_DATAERR);
	assert_msg(&f->err, p, "larger than the limit of 99 bytes");
	assert_int_equal(file_read(p, 100, 1, &f->out, &f->err), 0);
	assert_int_equal(f->out.len, 100);
}

/* A device is no regular file: refused at once, nothing read. */
static void t_read_device(void **state)
{
	struct fx *f = *state;
	struct file_map m;

	assert_int_equal(file_read("/dev/zero", 1000, 0, &f->out, &f->err), -1);
	assert_int_equal(f->err.code, EX_DATAERR);
	assert_msg(&f->err, "/dev/zero", "not a regular file (a device)");
	assert_int_equal(f->out.len, 0);
	assert_int_equal(file_map("/dev/zero", 1000, &m, &f->err), -1);
	assert_msg(&f->err, "/dev/zero", "not a regular file (a device)");
}

/*
 * A FIFO nobody writes to: opening it to read would wait for a writer
 * forever (a run holding its lock); it is refused at once instead. The
 * alarm turns a hang into a failure.
 */
static void t_read_fifo(void **state)
{
	struct fx *f = *state;
	const char *p = in_dir(f, "fifo");
	struct file_map m;

	assert_int_equal(mkfifo(p, 0600), 0);
	alarm(10);
	assert_int_equal(file_read(p, 1000, 1, &f->out, &f->err), -1);
	assert_int_equal(f->err.code, EX_DATAERR);
	assert_msg(&f->err, p, "not a regular file (a FIFO)");
	assert_int_equal(file_map(p, 1000, &m, &f->err), -1);
	assert_msg(&f->err, p, "not a regular file (a FIFO)");
	alarm(0);
}

/*
 * Issue 21 item 11: a file another user owns is named as theirs, so that
 * "Permission denied" says why (a state made by a first run as root).
 */
static void t_whose(void **state)
{
	struct fx *f = *state;
	const char *p = put(f, "mine", "x", 1);
	char buf[256], want[128];

	assert_string_equal(path_whose(p, buf, sizeof(buf)), "");
	if (geteuid() != 0)
		skip();
	assert_int_equal(chown(p, 65534, 65534), 0);
	assert_int_equal(chmod(p, 0600), 0);
	path_whose(p, buf, sizeof(buf));
	assert_non_null(strstr(buf, "; it is owned by "));
	assert_non_null(strstr(buf, " (mode 0600) and perfbot runs as root"));
	/* a file not there yet: the directory it would be made in */
	assert_int_equal(chown(f->dir, 65534, 65534), 0);
	path_whose(in_dir(f, "not-yet/state.db"), buf, sizeof(buf));
	snprintf(want, sizeof(want), "; %s is owned by ", f->dir);
	assert_non_null(strstr(buf, want));
	assert_int_equal(chown(f->dir, 0, 0), 0);
}

/* Standard input is read as a stream, whatever it is. */
static void t_read_stdin(void **state)
{
	struct fx *f = *state;
	const char *p = put(f, "in", "from stdin", 10);
	int saved = dup(STDIN_FILENO), fd = open(p, O_RDONLY);

	assert_true(saved >= 0 && fd >= 0);
	assert_int_equal(dup2(fd, STDIN_FILENO), STDIN_FILENO);
	close(fd);
	assert_int_equal(file_read("-", 100, 1, &f->out, &f->err), 0);
	assert_string_equal(sb_str(&f->out), "from stdin");
	assert_int_equal(dup2(saved, STDIN_FILENO), STDIN_FILENO);
	close(saved);
}

static void t_read_nul_text(void **state)
{
	struct fx *f = *state;
	const char *p = put(f, "nul", "ab\0cd", 5);

	assert_int_equal(file_read(p, 1024, 1, &f->out, &f->err), -1);
	assert_int_equal(f->err.code, EX_DATAERR);
	assert_msg(&f->err, p, "NUL byte");
	/* Binary reads keep it. */
	assert_int_equal(file_read(p, 1024, 0, &f->out, &f->err), 0);
	assert_int_equal(f->out.len, 5);
	assert_memory_equal(f->out.buf, "ab\0cd", 5);
}

static void t_read_other_error(void **state)
{
	struct fx *f = *state;
	const char *p;

	/* A path through a plain file (ENOTDIR) is an I/O error, not a
	 * missing input. */
	put(f, "plain", "x", 1);
	p = in_dir(f, "plain/matrix.json");
	assert_int_equal(file_read(p, 1024, 1, &f->out, &f->err), -1);
	assert_int_equal(f->err.code, EX_IOERR);
	assert_msg(&f->err, p, "Not a directory");
}

static int count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

static void t_write_atomic(void **state)
{
	struct fx *f = *state;
	const char *p = in_dir(f, "state.json");
	struct stat st;
	mode_t old = umask(022);

	assert_int_equal(file_write_atomic(p, "{\"a\":1}\n", 8, 0640, &f->err),
			 0);
	umask(old);
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0640);
	assert_int_equal(file_read(p, 1024, 1, &f->out, &f->err), 0);
	assert_string_equal(sb_str(&f->out), "{\"a\":1}\n");
	assert_int_equal(count_entries(f->dir), 1);
}

static void t_write_replaces(void **state)
{
	struct fx *f = *state;
	const char *p = in_dir(f, "file");

	assert_int_equal(file_write_atomic(p, "a much longer first version",
					   27, 0600, &f->err), 0);
	assert_int_equal(file_write_atomic(p, "short", 5, 0600, &f->err), 0);
	assert_int_equal(file_read(p, 1024, 1, &f->out, &f->err), 0);
	assert_string_equal(sb_str(&f->out), "short");
	/* No temporary file left beside it. */
	assert_int_equal(count_entries(f->dir), 1);
}

static void t_write_empty(void **state)
{
	struct fx *f = *state;
	const char *p = in_dir(f, "empty");
	struct stat st;

	assert_int_equal(file_write_atomic(p, "", 0, 0600, &f->err), 0);
	assert_int_equal(stat(p, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(st.st_size, 0);
}

static void t_write_binary(void **state)
{
	struct fx *f = *state;
	const char *p = in_dir(f, "bin");

	assert_int_equal(file_write_atomic(p, "a\0b", 3, 0600, &f->err), 0);
	assert_int_equal(file_read(p, 1024, 0, &f->out, &f->err), 0);
	assert_int_equal(f->out.len, 3);
	assert_memory_equal(f->out.buf, "a\0b", 3);
}

static void t_write_no_dir(void **state)
{
	struct fx *f = *state;
	const char *p = in_dir(f, "missing/out.txt");

	assert_int_equal(file_write_atomic(p, "x", 1, 0600, &f->err), -1);
	assert_int_equal(f->err.code, EX_CANTCREAT);
	/* The message names the (temporary) file beside the target. */
	assert_non_null(strstr(f->err.msg, p));
	assert_int_equal(count_entries(f->dir), 0);
}

static void t_write_over_directory(void **state)
{
	struct fx *f = *state;
	const char *p = in_dir(f, "sub");

	assert_int_equal(mkdir(p, 0700), 0);
	assert_int_equal(mkdir(in_dir(f, "sub/x"), 0700), 0);
	/* rename() onto a non-empty directory fails: nothing is left. */
	assert_int_equal(file_write_atomic(p, "x", 1, 0600, &f->err), -1);
	assert_int_equal(f->err.code, EX_CANTCREAT);
	assert_msg(&f->err, p, "");
	assert_int_equal(count_entries(f->dir), 1);
}

static void check_join(const char *dir, const char *name, const char *want)
{
	char *p = path_join(dir, name);

	assert_non_null(p);
	assert_string_equal(p, want);
	free(p);
}

static void t_path_join(void **state)
{
	(void)state;
	check_join("a", "b", "a/b");
	check_join("a/", "b", "a/b");
	check_join("/srv/roots", "x/matrix.json", "/srv/roots/x/matrix.json");
	check_join("/", "etc", "/etc");
	check_join(".", "m.yaml", "./m.yaml");
	check_join("a", "/abs/path", "/abs/path");
	check_join(NULL, "rel", "rel");
	check_join("", "rel", "rel");
}

static void check_dirname(const char *path, const char *want)
{
	char *p = path_dirname(path);

	assert_non_null(p);
	assert_string_equal(p, want);
	free(p);
}

static void t_path_dirname(void **state)
{
	(void)state;
	check_dirname("a/b/c", "a/b");
	check_dirname("a/b", "a");
	check_dirname("file", ".");
	check_dirname("", ".");
	check_dirname("/file", "/");
	check_dirname("/", "/");
	check_dirname("/srv/m.yaml", "/srv");
	check_dirname("./m.yaml", ".");
}

/* Found in $PERFBOT_DATADIR first; not found: every place and a hint. */
static void t_data_find(void **state)
{
	char *old = getenv("PERFBOT_DATADIR");
	char *saved = old ? strdup(old) : NULL;
	struct pb_err err = { 0, "" };
	char *p = NULL;

	(void)state;
	assert_int_equal(setenv("PERFBOT_DATADIR", "fixtures", 1), 0);
	assert_int_equal(data_find("manifests/hackbench-pipe.yaml", NULL, &p,
				   &err), 0);
	assert_string_equal(p, "fixtures/manifests/hackbench-pipe.yaml");
	free(p);
	/* a file only the working directory has is still found */
	assert_int_equal(data_find("config/metrics.yaml", NULL, &p, &err), 0);
	assert_string_equal(p, "config/metrics.yaml");
	free(p);
	assert_int_equal(data_find("templates/no-such.txt", "templates.dir in "
				   "the configuration", &p, &err), -1);
	assert_null(p);
	assert_int_equal(err.code, EX_NOINPUT);
	assert_non_null(strstr(err.msg, "templates/no-such.txt: not found in "
			       "fixtures, "));
	assert_non_null(strstr(err.msg, "/share/perfbot, "));
	assert_non_null(strstr(err.msg, "; set PERFBOT_DATADIR or "
			       "templates.dir in the configuration"));
	unsetenv("PERFBOT_DATADIR");
	assert_int_equal(data_find("/abs/missing", NULL, &p, &err), 0);
	assert_string_equal(p, "/abs/missing");
	free(p);
	if (saved)
		setenv("PERFBOT_DATADIR", saved, 1);
	free(saved);
}

static void t_data_path(void **state)
{
	char *old = getenv("PERFBOT_DATADIR");
	char *saved = old ? strdup(old) : NULL;
	char *p;

	(void)state;
	/* Present relative to the working directory: itself. */
	p = data_path("config/perfbot.yaml");
	assert_string_equal(p, "config/perfbot.yaml");
	free(p);
	/* Absolute: itself, even when missing. */
	p = data_path("/nonexistent/perfbot/x.yaml");
	assert_string_equal(p, "/nonexistent/perfbot/x.yaml");
	free(p);
	/* Missing: under $PERFBOT_DATADIR. */
	assert_int_equal(setenv("PERFBOT_DATADIR", "/opt/pb", 1), 0);
	p = data_path("templates/no-such.txt");
	assert_string_equal(p, "/opt/pb/templates/no-such.txt");
	free(p);
	/* Empty or unset: the built-in data directory. */
	assert_int_equal(setenv("PERFBOT_DATADIR", "", 1), 0);
	p = data_path("templates/no-such.txt");
	assert_true(p[0] == '/');
	assert_non_null(strstr(p, "/templates/no-such.txt"));
	assert_string_not_equal(p, "/templates/no-such.txt");
	free(p);
	unsetenv("PERFBOT_DATADIR");
	p = data_path("templates/no-such.txt");
	assert_true(p[0] == '/');
	assert_non_null(strstr(p, "/templates/no-such.txt"));
	free(p);
	if (saved)
		setenv("PERFBOT_DATADIR", saved, 1);
	free(saved);
}

/*
 * A writer killed in the middle of the write (SIGXFSZ past a file size
 * limit, as sure as a kill -9 at that moment) leaves no file behind: no
 * half file under the name, no '*.tmp.PID' beside it (issue 25 item 16).
 */
static void t_write_killed(void **state)
{
	struct fx *f = *state;
	char path[128];
	struct rlimit rl = { 4096, 4096 };
	struct dirent *de;
	int status = 0, left = 0;
	pid_t pid;
	DIR *d;

	snprintf(path, sizeof(path), "%s/request.yaml", f->dir);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		static char big[1 << 20];
		struct pb_err err;

		signal(SIGXFSZ, SIG_DFL);
		setrlimit(RLIMIT_FSIZE, &rl);
		file_write_atomic(path, big, sizeof(big), 0644, &err);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status));
	d = opendir(f->dir);
	assert_non_null(d);
	while ((de = readdir(d)))
		left += de->d_name[0] != '.';
	closedir(d);
	assert_int_equal(left, 0);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(t_read_ok),
		T(t_read_replaces_content),
		T(t_read_empty),
		T(t_read_big),
		T(t_read_missing),
		T(t_read_missing_dir),
		T(t_read_directory),
		T(t_read_too_large),
		T(t_read_device),
		T(t_read_fifo),
		T(t_read_stdin),
		T(t_whose),
		T(t_read_nul_text),
		T(t_read_other_error),
		T(t_write_atomic),
		T(t_write_replaces),
		T(t_write_empty),
		T(t_write_binary),
		T(t_write_no_dir),
		T(t_write_over_directory),
		T(t_write_killed),
		cmocka_unit_test(t_path_join),
		cmocka_unit_test(t_path_dirname),
		cmocka_unit_test(t_data_path),
		cmocka_unit_test(t_data_find),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
