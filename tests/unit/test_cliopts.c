// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/cli/cliopts.c: one option table per command drives
 * both the parser and --help; values, flags, "--", argument counts,
 * unknown options, the global options before the command.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "perfbot/cliopts.h"
#include "perfbot/log.h"

static const struct cli_opt opts[] = {
	{ "all", NULL, "show everything" },
	{ "metrics", "FILE", "the metric table, a help text long enough to "
	  "need a second line when it is printed by --help" },
	CLI_OPT_CONFIG,
	CLI_OPT_QUIET,
	{ NULL, NULL, NULL },
};

static const struct cli_spec spec = {
	"demo", "A [B]", 1, 2, "a demo command", "More about it.", opts,
};

static const struct cli_opt no_opts[] = { { NULL, NULL, NULL } };
static const struct cli_spec bare = {
	"bare", "", 0, 0, "no options", NULL, no_opts,
};

/* Parse a NULL-terminated list of words (the command name first). */
static int parse(const struct cli_spec *s, struct cli_args *a, ...)
{
	char *argv[16];
	va_list ap;
	int argc = 0;

	va_start(ap, a);
	while (argc < 15 && (argv[argc] = va_arg(ap, char *)))
		argc++;
	va_end(ap);
	return cli_parse(s, argc, argv, a);
}

static void t_values(void **state)
{
	struct cli_args a;

	(void)state;
	assert_int_equal(parse(&spec, &a, "demo", "--all", "x", "--metrics",
			       "m.yaml", "y", NULL), 0);
	assert_true(cli_flag(&a, "all"));
	assert_string_equal(cli_value(&a, "metrics"), "m.yaml");
	assert_false(cli_flag(&a, "quiet"));
	assert_null(cli_value(&a, "config"));
	assert_int_equal(a.nargs, 2);
	assert_string_equal(a.arg[0], "x");
	assert_string_equal(a.arg[1], "y");
	/* --name=value, and a value that looks like an option */
	assert_int_equal(parse(&spec, &a, "demo", "--config=c.yaml",
			       "--metrics", "--all", "x", NULL), 0);
	assert_string_equal(cli_value(&a, "config"), "c.yaml");
	assert_string_equal(cli_value(&a, "metrics"), "--all");
	assert_false(cli_flag(&a, "all"));
	/* an option not in the table is never reported given */
	assert_false(cli_flag(&a, "nonesuch"));
}

static void t_dashdash(void **state)
{
	struct cli_args a;

	(void)state;
	assert_int_equal(parse(&spec, &a, "demo", "--", "--all", "-", NULL),
			 0);
	assert_false(cli_flag(&a, "all"));
	assert_int_equal(a.nargs, 2);
	assert_string_equal(a.arg[0], "--all");
	assert_string_equal(a.arg[1], "-");
	/* "-" alone is an argument (stdin) */
	assert_int_equal(parse(&spec, &a, "demo", "-", NULL), 0);
	assert_string_equal(a.arg[0], "-");
}

static void t_errors(void **state)
{
	struct cli_args a;

	(void)state;
	log_set_level(LOG_QUIET);
	assert_int_equal(parse(&spec, &a, "demo", NULL), -1);	/* too few */
	assert_int_equal(parse(&spec, &a, "demo", "a", "b", "c", NULL), -1);
	assert_int_equal(parse(&spec, &a, "demo", "--bogus", "a", NULL), -1);
	assert_int_equal(parse(&spec, &a, "demo", "-x", "a", NULL), -1);
	assert_int_equal(parse(&spec, &a, "demo", "a", "--metrics", NULL),
			 -1);	/* no value */
	assert_int_equal(parse(&spec, &a, "demo", "--all=1", "a", NULL), -1);
	assert_int_equal(parse(&bare, &a, "bare", "x", NULL), -1);
	assert_int_equal(parse(&bare, &a, "bare", NULL), 0);
}

static void t_help(void **state)
{
	char buf[4096], line[256] = "", *p, *nl;
	struct cli_args a;
	int fd;
	FILE *f;

	(void)state;
	f = fmemopen(buf, sizeof(buf), "w");
	assert_non_null(f);
	cli_help(&spec, f);
	fclose(f);
	buf[sizeof(buf) - 1] = '\0';
	assert_non_null(strstr(buf, "usage: perfbot demo A [B] [--all] "
			       "[--metrics FILE] [--config FILE] [--quiet]\n"));
	/* and the one-line form, for the usage error */
	f = fmemopen(line, sizeof(line), "w");
	assert_non_null(f);
	cli_synopsis(&spec, f);
	fclose(f);
	assert_string_equal(line, "perfbot demo A [B] [--all] [--metrics FILE] "
			    "[--config FILE] [--quiet]\n");
	assert_non_null(strstr(buf, "\n  --all               show everything\n"));
	assert_non_null(strstr(buf, "\n  --metrics FILE      the metric table"));
	/* a long help wraps, indented under the first line */
	assert_non_null(strstr(buf, "\n                      "));
	for (p = buf; *p; p = *nl ? nl + 1 : nl) {
		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p);
		assert_true(nl - p <= 79);
	}
	assert_non_null(strstr(buf, "More about it."));
	assert_non_null(strstr(buf, "-h, --help"));
	/* help wins over anything else, even a bad option */
	fflush(stdout);
	fd = dup(1);
	assert_true(fd >= 0);
	assert_non_null(freopen("/dev/null", "w", stdout));
	assert_int_equal(parse(&spec, &a, "demo", "--bogus", "--help", NULL),
			 1);
	assert_int_equal(parse(&spec, &a, "demo", "-h", NULL), 1);
	/* but not after "--" */
	assert_int_equal(parse(&spec, &a, "demo", "--", "--help", NULL), 0);
	fflush(stdout);
	assert_int_equal(dup2(fd, 1), 1);
	close(fd);
}

static void t_globals(void **state)
{
	char *argv[] = { "perfbot", "--config", "g.yaml", "--quiet", "demo",
			 "x", NULL };
	char *bad[] = { "perfbot", "--frob", "demo", NULL };
	char *quiet_val[] = { "perfbot", "--quiet=1", "demo", NULL };
	char *none[] = { "perfbot", "demo", "x", NULL };
	struct cli_args a;

	(void)state;
	log_set_level(LOG_QUIET);
	assert_int_equal(cli_set_globals(6, argv), 4);
	assert_int_equal(cli_parse(&spec, 2, argv + 4, &a), 0);
	assert_string_equal(cli_value(&a, "config"), "g.yaml");
	assert_true(cli_flag(&a, "quiet"));
	/* the command's own option wins */
	assert_int_equal(parse(&spec, &a, "demo", "--config", "own.yaml", "x",
			       NULL), 0);
	assert_string_equal(cli_value(&a, "config"), "own.yaml");
	/* a global the command has no use for is refused */
	assert_int_equal(parse(&bare, &a, "bare", NULL), -1);
	assert_int_equal(cli_set_globals(3, bad), -1);
	assert_int_equal(cli_set_globals(3, quiet_val), -1);
	/* and none given: nothing applies */
	assert_int_equal(cli_set_globals(3, none), 1);
	assert_int_equal(parse(&bare, &a, "bare", NULL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_values),
		cmocka_unit_test(t_dashdash),
		cmocka_unit_test(t_errors),
		cmocka_unit_test(t_help),
		cmocka_unit_test(t_globals),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
