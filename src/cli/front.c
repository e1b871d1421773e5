// SPDX-License-Identifier: GPL-2.0-only
/*
 * The 'perfbot' binary: a front end that runs 'compare' and 'report'
 * (which only prints) itself and hands every other command line to
 * 'perfbot-full' (the binary of src/cli/main.c) with execv() and the same
 * arguments, so that their output, errors and exit codes are that
 * binary's.
 *
 * Why: perfbot-full links libcurl, libetpan, GnuTLS, GMime and SQLite, 51
 * shared libraries in all (built with BIND_NOW), and the dynamic loader
 * spends about 8 ms and 9 MiB on them before main() on the 2-core test
 * machine: most of a 10-metric compare. This front end needs only libc,
 * libm, libyaml, jansson and GMime (linked --as-needed, 22 libraries).
 * Usage errors and --help also go to perfbot-full, so that it alone words
 * them, and so do http(s):// roots (see fetch_by_full() below); which is which
 * the commands' option tables say (runs_here()).
 */
#include <errno.h>
#include <limits.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "perfbot/cli/cli.h"
#include "perfbot/ingest/fetch.h"
#include "perfbot/util/log.h"

#ifndef PERFBOT_BINDIR
#define PERFBOT_BINDIR "/usr/local/bin"
#endif
#define FULL_NAME "perfbot-full"

static char **saved_argv;

/*
 * perfbot-full beside this binary (the build tree, and an installed tree
 * wherever it was copied to: perfbot-full finds its data from its own
 * place, as perfbot does), else in the configured bindir.
 */
static const char *full_path(char *buf, size_t size)
{
	ssize_t n = readlink("/proc/self/exe", buf, size - 1);
	char *slash;

	if (n > 0) {
		buf[n] = '\0';
		slash = strrchr(buf, '/');
		if (slash && (size_t)(slash + 1 - buf) + sizeof(FULL_NAME) <=
		    size) {
			memcpy(slash + 1, FULL_NAME, sizeof(FULL_NAME));
			if (access(buf, X_OK) == 0)
				return buf;
		}
	}
	return PERFBOT_BINDIR "/" FULL_NAME;
}

/*
 * Run the same command line in perfbot-full; returns only on failure,
 * with the error printed, or put into 'err' when there is one.
 */
static int exec_full(struct pb_err *err)
{
	char buf[PATH_MAX];
	const char *path = full_path(buf, sizeof(buf));

	fflush(NULL);
	execv(path, saved_argv);
	if (err)
		return pb_fail(err, EX_OSFILE, "'%s': %s", path,
			       strerror(errno));
	log_error("'%s': %s", path, strerror(errno));
	return EX_OSFILE;
}

/*
 * compare and report (which only prints: --dry-run, --context) on local
 * roots, the command line as their option tables take it: this binary's
 * own work. Help, a usage error and a URL among the values go to
 * perfbot-full.
 */
static int runs_here(int argc, char **argv)
{
	const struct cli_spec *spec = NULL;
	union {
		struct cli_compare_opts compare;
		struct cli_report_opts report;
	} o;
	struct cli_args a;
	const char *v;
	int i;

	if (argc >= 2 && !strcmp(argv[1], "compare"))
		spec = &compare_spec;
	else if (argc >= 2 && !strcmp(argv[1], "report"))
		spec = &report_spec;
	if (!spec || cli_check(spec, argc - 1, argv + 1, &o, &a))
		return 0;
	for (i = 0; i < a.nargs; i++)
		if (strstr(a.arg[i], "://"))
			return 0;
	for (i = 0; spec->opts[i].name; i++)
		if ((v = cli_opt_string(spec, &o, i)) && strstr(v, "://"))
			return 0;
	return 1;
}

/*
 * HTTP is perfbot-full's: this binary's fetch function (fetch.h) keeps
 * libcurl out of it. A compare of http(s):// roots is handed over at the
 * start; a report whose manifest names such roots restarts there when
 * the first is fetched, before anything is printed.
 */
static int fetch_by_full(const char *url, const char *etag,
			 const char *last_modified, const char *ca_file,
			 struct strbuf *body, struct http_answer *a,
			 struct pb_err *err)
{
	(void)url;
	(void)etag;
	(void)last_modified;
	(void)ca_file;
	(void)body;
	(void)a;
	return exec_full(err);
}

int main(int argc, char **argv)
{
	saved_argv = argv;
	if (!runs_here(argc, argv))
		return exec_full(NULL);
	setlocale(LC_NUMERIC, "C");
	fetch_use(fetch_by_full);
	if (!strcmp(argv[1], "report"))
		return cmd_report(argc - 1, argv + 1);
	return cmd_compare(argc - 1, argv + 1);
}
