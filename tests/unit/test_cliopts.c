// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/cli/cliopts.c and clihelp.c: one option table per
 * command drives both the parser and --help; values, flags, "--",
 * argument counts, unknown options, the global options before the
 * command; and every table of perfbot (commands.c): an unknown option,
 * a near miss (did you mean), a missing value, a value for a flag, and
 * --help describing each option.
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

#include "perfbot/cli/cli.h"
#include "perfbot/cli/cliopts.h"
#include "perfbot/util/log.h"

#include "testutil.h"

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

static const struct cli_opt gopts[] = {
	CLI_OPT_CONFIG,
	CLI_OPT_QUIET,
	{ "version", NULL, "print the version" },
	{ NULL, NULL, NULL },
};

static const struct cli_spec gspec = {
	NULL, "COMMAND [ARGS]", 0, 0, "the globals", NULL, gopts,
};

static void t_globals(void **state)
{
	char *argv[] = { "perfbot", "--config", "g.yaml", "--quiet", "demo",
			 "x", NULL };
	char *bad[] = { "perfbot", "--frob", "demo", NULL };
	char *quiet_val[] = { "perfbot", "--quiet=1", "demo", NULL };
	char *none[] = { "perfbot", "demo", "x", NULL };
	char *help[] = { "perfbot", "--quiet", "--help", "demo", NULL };
	char *single[] = { "perfbot", "-x", "demo", NULL };
	char *version[] = { "perfbot", "--version", "demo", NULL };
	char *noval[] = { "perfbot", "--config", NULL };
	struct cli_args a, g;

	(void)state;
	log_set_level(LOG_QUIET);
	assert_int_equal(cli_parse_globals(&gspec, 6, argv, &g), 4);
	assert_string_equal(cli_value(&g, "config"), "g.yaml");
	assert_false(g.help);
	assert_int_equal(cli_parse(&spec, 2, argv + 4, &a), 0);
	assert_string_equal(cli_value(&a, "config"), "g.yaml");
	assert_true(cli_flag(&a, "quiet"));
	/* the command's own option wins */
	assert_int_equal(parse(&spec, &a, "demo", "--config", "own.yaml", "x",
			       NULL), 0);
	assert_string_equal(cli_value(&a, "config"), "own.yaml");
	/* a global the command has no use for is refused */
	assert_int_equal(parse(&bare, &a, "bare", NULL), -1);
	assert_int_equal(cli_parse_globals(&gspec, 3, bad, &g), -1);
	assert_int_equal(cli_parse_globals(&gspec, 3, quiet_val, &g), -1);
	assert_int_equal(cli_parse_globals(&gspec, 2, noval, &g), -1);
	/* help ends them; a single dash is no option here */
	assert_int_equal(cli_parse_globals(&gspec, 4, help, &g), 3);
	assert_true(g.help);
	assert_true(cli_flag(&g, "quiet"));
	assert_int_equal(cli_parse_globals(&gspec, 3, single, &g), 1);
	assert_int_equal(cli_parse_globals(&gspec, 3, version, &g), 2);
	assert_true(cli_flag(&g, "version"));
	/* and none given: nothing applies */
	assert_int_equal(cli_parse_globals(&gspec, 3, none, &g), 1);
	assert_int_equal(parse(&bare, &a, "bare", NULL), 0);
}

/* The same as cli_parse(), silently: help asked is 1, not printed. */
static void t_check(void **state)
{
	char err[PATH_MAX], dir[64];
	struct strbuf sb;
	struct cli_args a;
	int saved = -1;

	(void)state;
	assert_non_null(tu_tmpdir(dir, sizeof(dir), "test_cliopts"));
	tu_path(err, sizeof(err), dir, "err");
	tu_stderr_capture(err, &saved);
	assert_int_equal(cli_check(&spec, 3, (char *[]){ "demo", "--bogus",
			 "a", NULL }, &a), -1);
	assert_int_equal(cli_check(&spec, 1, (char *[]){ "demo", NULL },
			 &a), -1);
	assert_int_equal(cli_check(&spec, 3, (char *[]){ "demo", "a",
			 "--help", NULL }, &a), 1);
	assert_true(a.help);
	assert_int_equal(cli_check(&spec, 4, (char *[]){ "demo", "a",
			 "--metrics", "m", NULL }, &a), 0);
	assert_string_equal(cli_value(&a, "metrics"), "m");
	tu_stderr_restore(&saved);
	tu_read_text(err, &sb);
	assert_int_equal(sb.len, 0);
	sb_release(&sb);
	tu_rmtree(dir);
}

/* What parsing 'argv' of command 'c' printed on stderr, and its result. */
static int parse_err(const struct cli_spec *c, char **argv, int argc,
		     struct strbuf *out)
{
	char err[PATH_MAX], dir[64];
	struct cli_args a;
	int saved = -1, rc;

	assert_non_null(tu_tmpdir(dir, sizeof(dir), "test_cliopts"));
	tu_path(err, sizeof(err), dir, "err");
	tu_stderr_capture(err, &saved);
	rc = cli_parse(c, argc, argv, &a);
	tu_stderr_restore(&saved);
	tu_read_text(err, out);
	tu_rmtree(dir);
	return rc;
}

/* "--name" misspelt by one letter more: 'name' then its last letter. */
static void near_miss(const char *name, char *buf, size_t size)
{
	snprintf(buf, size, "--%s%c", name, name[strlen(name) - 1]);
}

static void one_table(const struct cli_spec *c)
{
	char word[64], want[160], *argv[4] = { (char *)c->name };
	const struct cli_opt *o;
	struct strbuf sb;

	argv[1] = "--nonesuch-at-all";
	assert_int_equal(parse_err(c, argv, 2, &sb), -1);
	snprintf(want, sizeof(want), "%s: unknown option '--nonesuch-at-all'; "
		 "see 'perfbot %s --help'", c->name, c->name);
	assert_non_null(strstr(sb_str(&sb), want));
	sb_release(&sb);
	for (o = c->opts; o->name; o++) {
		near_miss(o->name, word, sizeof(word));
		argv[1] = word;
		assert_int_equal(parse_err(c, argv, 2, &sb), -1);
		snprintf(want, sizeof(want), "(did you mean '--%s'?)", o->name);
		if (!strstr(sb_str(&sb), want))
			fail_msg("%s %s: %s", c->name, word, sb_str(&sb));
		sb_release(&sb);
		/* a value missing at the end, or given to a flag */
		snprintf(word, sizeof(word), "--%s%s", o->name,
			 o->arg ? "" : "=1");
		assert_int_equal(parse_err(c, argv, 2, &sb), -1);
		if (o->arg)
			snprintf(want, sizeof(want), "%s: '--%s' needs a value "
				 "(%s)", c->name, o->name, o->arg);
		else
			snprintf(want, sizeof(want), "%s: '--%s' takes no "
				 "value", c->name, o->name);
		if (!strstr(sb_str(&sb), want))
			fail_msg("%s %s: %s", c->name, word, sb_str(&sb));
		sb_release(&sb);
	}
}

/* --help: every option, with the first words of its description. */
static void one_help(const struct cli_spec *c)
{
	char buf[8192], want[128];
	const struct cli_opt *o;
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	assert_non_null(f);
	cli_help(c, f);
	fclose(f);
	buf[sizeof(buf) - 1] = '\0';
	assert_non_null(strstr(buf, c->summary));
	for (o = c->opts; o->name; o++) {
		assert_true(o->help && strlen(o->help) > 8);
		snprintf(want, sizeof(want), "\n  --%s%s%s ", o->name,
			 o->arg ? " " : "", o->arg ? o->arg : "");
		if (!strstr(buf, want))
			fail_msg("%s --help: no '%s'", c->name, want + 1);
		snprintf(want, sizeof(want), "%.12s", o->help);
		if (!strstr(buf, want))
			fail_msg("%s --help: '--%s' not described", c->name,
				 o->name);
		snprintf(want, sizeof(want), "[--%s", o->name);
		assert_non_null(strstr(buf, want));
	}
	assert_non_null(strstr(buf, "\n  -h, --help "));
}

static void t_every_command(void **state)
{
	const struct command *c;
	int n = 0;

	(void)state;
	for (c = cli_commands; c->spec; c++, n++) {
		one_table(c->spec);
		one_help(c->spec);
		assert_ptr_equal(cli_find_command(c->spec->name), c);
	}
	assert_int_equal(n, 11);
	assert_null(cli_find_command("nonesuch"));
	one_help(&global_spec);
}

/* The globals of perfbot apply to the commands that have them. */
static void t_global_table(void **state)
{
	char *argv[] = { "perfbot", "--config", "g.yaml", "--verbose", "x",
			 NULL };
	const struct command *c;
	struct cli_args g, a;
	char *cmd[2] = { NULL, NULL };
	struct strbuf sb;
	int rc;

	(void)state;
	assert_int_equal(cli_parse_globals(&global_spec, 5, argv, &g), 4);
	for (c = cli_commands; c->spec; c++) {
		cmd[0] = (char *)c->spec->name;
		rc = parse_err(c->spec, cmd, 1, &sb);
		if (c->spec->min_args) {
			assert_int_equal(rc, -1);
		} else if (cli_check(c->spec, 1, cmd, &a) == 0 &&
			   cli_value(&a, "config")) {
			assert_int_equal(rc, 0);
			assert_string_equal(cli_value(&a, "config"), "g.yaml");
			assert_true(cli_flag(&a, "verbose"));
		} else {
			assert_int_equal(rc, -1);
			assert_non_null(strstr(sb_str(&sb), "'--config' does "
					       "not apply to this command"));
		}
		sb_release(&sb);
	}
	/* the usage: commands, then the global options */
	{
		char buf[8192];
		FILE *f = fmemopen(buf, sizeof(buf), "w");

		assert_non_null(f);
		cli_usage(f);
		fclose(f);
		buf[sizeof(buf) - 1] = '\0';
		assert_non_null(strstr(buf, "usage: perfbot [--config FILE] "
				       "[--quiet] [--verbose] [--version] "
				       "COMMAND [ARGS]\n"));
		assert_non_null(strstr(buf, "\ncommands:\n  compare "));
		assert_non_null(strstr(buf, "\n  --version "));
	}
	assert_int_equal(cli_parse_globals(&global_spec, 1, argv, &g), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_values),
		cmocka_unit_test(t_dashdash),
		cmocka_unit_test(t_errors),
		cmocka_unit_test(t_help),
		cmocka_unit_test(t_globals),
		cmocka_unit_test(t_check),
		cmocka_unit_test(t_every_command),
		cmocka_unit_test(t_global_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
