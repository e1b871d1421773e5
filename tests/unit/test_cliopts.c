// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/cli/cliopts.c and clihelp.c: one option table per
 * command drives both the parser and --help, and fills the variables it
 * names; values, flags, an option given twice, "--", argument counts,
 * unknown options, the global options before the command; the checks of
 * a table (an option without a variable, a name or a variable twice);
 * and every table of perfbot (commands.c): checked, an unknown option, a
 * near miss (did you mean), a missing value, a value for a flag, and
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

struct demo_opts {
	int all;
	const char *metrics;
	const char *config;
	int quiet;
};

static const struct cli_opt opts[] = {
	CLI_OPT_FLAG("all", struct demo_opts, all, "show everything"),
	CLI_OPT_STRING("metrics", "FILE", struct demo_opts, metrics,
		       "the metric table, a help text long enough to need a "
		       "second line when it is printed by --help"),
	CLI_OPT_CONFIG(struct demo_opts),
	CLI_OPT_QUIET(struct demo_opts),
	CLI_OPT_END,
};

static const struct cli_spec spec = {
	"demo", "A [B]", 1, 2, "a demo command", "More about it.", opts,
	sizeof(struct demo_opts),
};

struct no_opts { int unused; };
static const struct cli_opt no_opts[] = { CLI_OPT_END };
static const struct cli_spec bare = {
	"bare", "", 0, 0, "no options", NULL, no_opts, sizeof(struct no_opts),
};

/*
 * Parse a NULL-terminated list of words (the command name first) into
 * 'o', an options struct of spec's table.
 */
static int parse(const struct cli_spec *s, void *o, struct cli_args *a, ...)
{
	char *argv[16];
	va_list ap;
	int argc = 0;

	va_start(ap, a);
	while (argc < 15 && (argv[argc] = va_arg(ap, char *)))
		argc++;
	va_end(ap);
	return cli_parse(s, argc, argv, o, a);
}

/* A flag sets its int, a value points its string at the word of argv. */
static void t_values(void **state)
{
	struct demo_opts o;
	struct cli_args a;

	(void)state;
	memset(&o, 0x55, sizeof(o));	/* not given: 0 and NULL whatever was */
	assert_int_equal(parse(&spec, &o, &a, "demo", "--all", "x", "--metrics",
			       "m.yaml", "y", NULL), 0);
	assert_int_equal(o.all, 1);
	assert_string_equal(o.metrics, "m.yaml");
	assert_int_equal(o.quiet, 0);
	assert_null(o.config);
	assert_int_equal(a.nargs, 2);
	assert_string_equal(a.arg[0], "x");
	assert_string_equal(a.arg[1], "y");
	/* --name=value, and a value that looks like an option */
	assert_int_equal(parse(&spec, &o, &a, "demo", "--config=c.yaml",
			       "--metrics", "--all", "x", NULL), 0);
	assert_string_equal(o.config, "c.yaml");
	assert_string_equal(o.metrics, "--all");
	assert_int_equal(o.all, 0);
	/* "--name=" is an empty value, given */
	assert_int_equal(parse(&spec, &o, &a, "demo", "--config=", "x", NULL),
			 0);
	assert_string_equal(o.config, "");
}

/* Given twice: a value is the last one, a flag stays set. */
static void t_twice(void **state)
{
	char *argv[] = { "demo", "--metrics", "one", "--all", "x",
			 "--metrics=two", "--all", NULL };
	struct demo_opts o;
	struct cli_args a;

	(void)state;
	assert_int_equal(cli_parse(&spec, 7, argv, &o, &a), 0);
	assert_ptr_equal(o.metrics, argv[5] + strlen("--metrics="));
	assert_string_equal(o.metrics, "two");
	assert_int_equal(o.all, 1);
	assert_int_equal(a.nargs, 1);
}

static void t_dashdash(void **state)
{
	struct demo_opts o;
	struct cli_args a;

	(void)state;
	assert_int_equal(parse(&spec, &o, &a, "demo", "--quiet", "--", "--all",
			       "-", NULL), 0);
	assert_int_equal(o.all, 0);
	assert_int_equal(o.quiet, 1);
	assert_int_equal(a.nargs, 2);
	assert_string_equal(a.arg[0], "--all");
	assert_string_equal(a.arg[1], "-");
	/* "-" alone is an argument (stdin); a second "--" is one too */
	assert_int_equal(parse(&spec, &o, &a, "demo", "-", NULL), 0);
	assert_string_equal(a.arg[0], "-");
	assert_int_equal(parse(&spec, &o, &a, "demo", "--", "--", NULL), 0);
	assert_string_equal(a.arg[0], "--");
	/* a value of "--" is taken as the value */
	assert_int_equal(parse(&spec, &o, &a, "demo", "--metrics", "--", "x",
			       NULL), 0);
	assert_string_equal(o.metrics, "--");
	assert_string_equal(a.arg[0], "x");
}

static void t_errors(void **state)
{
	struct demo_opts o;
	struct no_opts no;
	struct cli_args a;

	(void)state;
	log_set_level(LOG_QUIET);
	assert_int_equal(parse(&spec, &o, &a, "demo", NULL), -1); /* too few */
	assert_int_equal(parse(&spec, &o, &a, "demo", "a", "b", "c", NULL),
			 -1);
	assert_int_equal(parse(&spec, &o, &a, "demo", "--bogus", "a", NULL),
			 -1);
	assert_int_equal(parse(&spec, &o, &a, "demo", "-x", "a", NULL), -1);
	assert_int_equal(parse(&spec, &o, &a, "demo", "a", "--metrics", NULL),
			 -1);	/* no value */
	assert_int_equal(parse(&spec, &o, &a, "demo", "--all=1", "a", NULL),
			 -1);
	assert_int_equal(parse(&bare, &no, &a, "bare", "x", NULL), -1);
	assert_int_equal(parse(&bare, &no, &a, "bare", NULL), 0);
	/* a usage error fills no variable */
	assert_int_equal(parse(&spec, &o, &a, "demo", "--all", "--metrics",
			       "m", NULL), -1);
	assert_int_equal(o.all, 0);
	assert_null(o.metrics);
}

static void t_help(void **state)
{
	char buf[4096], line[256] = "", *p, *nl;
	struct demo_opts o;
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
	assert_int_equal(parse(&spec, &o, &a, "demo", "--all", "--bogus",
			       "--help", NULL), 1);
	assert_int_equal(o.all, 0);	/* and fills no variable */
	assert_int_equal(parse(&spec, &o, &a, "demo", "-h", NULL), 1);
	/* but not after "--" */
	assert_int_equal(parse(&spec, &o, &a, "demo", "--", "--help", NULL),
			 0);
	fflush(stdout);
	assert_int_equal(dup2(fd, 1), 1);
	close(fd);
}

struct g_opts {
	const char *config;
	int quiet, version;
};

static const struct cli_opt gopts[] = {
	CLI_OPT_CONFIG(struct g_opts),
	CLI_OPT_QUIET(struct g_opts),
	CLI_OPT_FLAG("version", struct g_opts, version, "print the version"),
	CLI_OPT_END,
};

static const struct cli_spec gspec = {
	NULL, "COMMAND [ARGS]", 0, 0, "the globals", NULL, gopts,
	sizeof(struct g_opts),
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
	struct demo_opts o;
	struct no_opts no;
	struct g_opts go;
	struct cli_args a, g;

	(void)state;
	log_set_level(LOG_QUIET);
	assert_int_equal(cli_parse_globals(&gspec, 6, argv, &go, &g), 4);
	assert_string_equal(go.config, "g.yaml");
	assert_int_equal(go.quiet, 1);
	assert_int_equal(go.version, 0);
	assert_false(g.help);
	/* before the command name or after it: the same variables */
	assert_int_equal(cli_parse(&spec, 2, argv + 4, &o, &a), 0);
	assert_string_equal(o.config, "g.yaml");
	assert_int_equal(o.quiet, 1);
	/* the command's own option wins */
	assert_int_equal(parse(&spec, &o, &a, "demo", "--config", "own.yaml",
			       "x", NULL), 0);
	assert_string_equal(o.config, "own.yaml");
	/* a global the command has no use for is refused */
	assert_int_equal(parse(&bare, &no, &a, "bare", NULL), -1);
	assert_int_equal(cli_parse_globals(&gspec, 3, bad, &go, &g), -1);
	assert_int_equal(cli_parse_globals(&gspec, 3, quiet_val, &go, &g), -1);
	assert_int_equal(go.quiet, 0);
	assert_int_equal(cli_parse_globals(&gspec, 2, noval, &go, &g), -1);
	/* help ends them; a single dash is no option here */
	assert_int_equal(cli_parse_globals(&gspec, 4, help, &go, &g), 3);
	assert_true(g.help);
	assert_int_equal(go.quiet, 1);
	assert_int_equal(cli_parse_globals(&gspec, 3, single, &go, &g), 1);
	assert_int_equal(go.quiet, 0);
	assert_int_equal(cli_parse_globals(&gspec, 3, version, &go, &g), 2);
	assert_int_equal(go.version, 1);
	/* and none given: nothing applies */
	assert_int_equal(cli_parse_globals(&gspec, 3, none, &go, &g), 1);
	assert_null(go.config);
	assert_int_equal(parse(&bare, &no, &a, "bare", NULL), 0);
}

/* The same as cli_parse(), silently: help asked is 1, not printed. */
static void t_check(void **state)
{
	char err[PATH_MAX], dir[64];
	struct demo_opts o;
	struct strbuf sb;
	struct cli_args a;
	int saved = -1;

	(void)state;
	assert_non_null(tu_tmpdir(dir, sizeof(dir), "test_cliopts"));
	tu_path(err, sizeof(err), dir, "err");
	tu_stderr_capture(err, &saved);
	assert_int_equal(cli_check(&spec, 3, (char *[]){ "demo", "--bogus",
			 "a", NULL }, &o, &a), -1);
	assert_int_equal(cli_check(&spec, 1, (char *[]){ "demo", NULL },
			 &o, &a), -1);
	assert_int_equal(cli_check(&spec, 3, (char *[]){ "demo", "a",
			 "--help", NULL }, &o, &a), 1);
	assert_true(a.help);
	assert_int_equal(cli_check(&spec, 4, (char *[]){ "demo", "a",
			 "--metrics", "m", NULL }, &o, &a), 0);
	assert_string_equal(o.metrics, "m");
	tu_stderr_restore(&saved);
	tu_read_text(err, &sb);
	assert_int_equal(sb.len, 0);
	sb_release(&sb);
	tu_rmtree(dir);
}

/* Every string value of a table, by its index (front.c's look). */
static void t_opt_string(void **state)
{
	struct demo_opts o;
	struct cli_args a;

	(void)state;
	assert_int_equal(parse(&spec, &o, &a, "demo", "--all", "--config",
			       "c.yaml", "x", NULL), 0);
	assert_null(cli_opt_string(&spec, &o, 0));	/* a flag */
	assert_null(cli_opt_string(&spec, &o, 1));	/* not given */
	assert_string_equal(cli_opt_string(&spec, &o, 2), "c.yaml");
	assert_null(cli_opt_string(&spec, &o, 3));
}

typedef int parse_fn(const struct cli_spec *, int, char **, void *,
		     struct cli_args *);

/* What 'fn' parsing 'argv' with table 'c' printed on stderr; its result. */
static int parse_err_with(parse_fn *fn, const struct cli_spec *c,
			  char **argv, int argc, struct strbuf *out)
{
	char err[PATH_MAX], dir[64];
	void *o = calloc(1, c->size);
	struct cli_args a;
	int saved = -1, rc;

	assert_non_null(o);
	assert_non_null(tu_tmpdir(dir, sizeof(dir), "test_cliopts"));
	tu_path(err, sizeof(err), dir, "err");
	tu_stderr_capture(err, &saved);
	rc = fn(c, argc, argv, o, &a);
	free(o);
	tu_stderr_restore(&saved);
	tu_read_text(err, out);
	tu_rmtree(dir);
	return rc;
}

/* What parsing 'argv' of command 'c' printed on stderr, and its result. */
static int parse_err(const struct cli_spec *c, char **argv, int argc,
		     struct strbuf *out)
{
	return parse_err_with(cli_parse, c, argv, argc, out);
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
	assert_int_equal(n, 14);	/* with state (backup, prune) */
	assert_null(cli_find_command("nonesuch"));
	one_help(&global_spec);
}

/* The index of option 'name' in spec's table, -1 when it is not there. */
static int opt_index(const struct cli_spec *c, const char *name)
{
	int i;

	for (i = 0; c->opts[i].name; i++)
		if (!strcmp(c->opts[i].name, name))
			return i;
	return -1;
}

/* The global options land in the variables of the command's table. */
static void globals_in(const struct cli_spec *c, char **cmd)
{
	int k = opt_index(c, "config"), v = opt_index(c, "verbose");
	char *o = calloc(1, c->size);
	struct cli_args a;

	assert_non_null(o);
	assert_true(v >= 0);
	assert_int_equal(cli_check(c, 1, cmd, o, &a), 0);
	assert_string_equal(cli_opt_string(c, o, k), "g.yaml");
	assert_int_equal(*(int *)(o + c->opts[v].at), 1);
	free(o);
}

/* The globals of perfbot apply to the commands that have them. */
static void t_global_table(void **state)
{
	char *argv[] = { "perfbot", "--config", "g.yaml", "--verbose", "x",
			 NULL };
	const struct command *c;
	struct cli_global_opts go;
	struct cli_args g;
	char *cmd[2] = { NULL, NULL };
	struct strbuf sb;
	int rc;

	(void)state;
	assert_int_equal(cli_parse_globals(&global_spec, 5, argv, &go, &g), 4);
	assert_string_equal(go.config, "g.yaml");
	assert_int_equal(go.verbose, 1);
	assert_int_equal(go.quiet + go.version, 0);
	for (c = cli_commands; c->spec; c++) {
		cmd[0] = (char *)c->spec->name;
		rc = parse_err(c->spec, cmd, 1, &sb);
		if (c->spec->min_args) {
			assert_int_equal(rc, -1);
		} else if (opt_index(c->spec, "config") >= 0) {
			assert_int_equal(rc, 0);
			globals_in(c->spec, cmd);
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
	assert_int_equal(cli_parse_globals(&global_spec, 1, argv, &go, &g), 1);
}

/* An unknown option is named, with the one meant when it is close. */
static void t_unknown(void **state)
{
	char *near[] = { "demo", "--metric", "x", NULL };
	char *far[] = { "demo", "--frobnicate", "x", NULL };
	char *global[] = { "perfbot", "--confg", "x", "demo", NULL };
	struct strbuf sb;

	(void)state;
	assert_int_equal(parse_err(&spec, near, 3, &sb), -1);
	assert_non_null(strstr(sb_str(&sb), "perfbot: demo: unknown option "
			       "'--metric' (did you mean '--metrics'?); see "
			       "'perfbot demo --help'\n"));
	sb_release(&sb);
	assert_int_equal(parse_err(&spec, far, 3, &sb), -1);
	assert_non_null(strstr(sb_str(&sb), "perfbot: demo: unknown option "
			       "'--frobnicate'; see 'perfbot demo --help'\n"));
	sb_release(&sb);
	assert_int_equal(parse_err_with(cli_parse_globals, &gspec, global, 4,
					&sb), -1);
	assert_non_null(strstr(sb_str(&sb), "perfbot: unknown global option "
			       "'--confg' (did you mean '--config'?); the global "
			       "options are --config FILE, --quiet and "
			       "--version\n"));
	sb_release(&sb);
}

/* Every table of perfbot is one the parser can use. */
static void t_spec_check(void **state)
{
	struct pb_err err = { 0, "" };
	const struct command *c;
	const struct cli_opt *o;
	int k;

	(void)state;
	for (c = cli_commands; c->spec; c++) {
		if (cli_spec_check(c->spec, &err))
			fail_msg("%s", err.msg);
		/* a global option has the same kind in a command */
		for (o = global_spec.opts; o->name; o++) {
			k = opt_index(c->spec, o->name);
			if (k >= 0)
				assert_int_equal(c->spec->opts[k].kind,
						 o->kind);
		}
	}
	assert_int_equal(cli_spec_check(&global_spec, &err), 0);
	assert_int_equal(cli_spec_check(&spec, &err), 0);
	assert_int_equal(cli_spec_check(&gspec, &err), 0);
	assert_int_equal(cli_spec_check(&bare, &err), 0);
}

/* Where a field of struct demo_opts is, for the tables written by hand. */
#define AT(field) offsetof(struct demo_opts, field)

/* cli_spec_check() of 'table' (into demo_opts): its message, or "". */
static const char *spec_problem(const struct cli_opt *table,
				struct pb_err *err)
{
	const struct cli_spec s = { "bad", "", 0, 0, "a bad table", NULL,
		table, sizeof(struct demo_opts) };

	pb_err_clear(err);
	if (!cli_spec_check(&s, err))
		return "";
	assert_int_equal(err->code, EX_SOFTWARE);
	return err->msg;
}

/* No option without a variable, nor a name or a variable twice. */
static void t_spec_check_refuses(void **state)
{
	const struct cli_opt unbound[] = {
		CLI_OPT_FLAG("all", struct demo_opts, all, "show everything"),
		{ "lost", NULL, "fills nothing", CLI_UNBOUND, 0 },
		CLI_OPT_END,
	}, twice[] = {
		CLI_OPT_FLAG("all", struct demo_opts, all, "show everything"),
		CLI_OPT_FLAG("all", struct demo_opts, quiet, "say less"),
		CLI_OPT_END,
	}, shared[] = {
		CLI_OPT_FLAG("all", struct demo_opts, all, "show everything"),
		CLI_OPT_FLAG("every", struct demo_opts, all, "the same"),
		CLI_OPT_END,
	}, inside[] = {
		CLI_OPT_STRING("metrics", "FILE", struct demo_opts, metrics,
			       "the table"),
		{ "half", NULL, "into the string", CLI_FLAG,
		  AT(metrics) + sizeof(int) },
		CLI_OPT_END,
	}, outside[] = {
		{ "far", NULL, "past the end", CLI_FLAG,
		  sizeof(struct demo_opts) },
		CLI_OPT_END,
	}, askew[] = {
		{ "askew", NULL, "not where an int can be", CLI_FLAG,
		  AT(all) + 1 },
		CLI_OPT_END,
	}, flag_arg[] = {
		{ "all", "FILE", "a flag with a value name", CLI_FLAG, AT(all) },
		CLI_OPT_END,
	}, string_noarg[] = {
		{ "metrics", NULL, "no value name", CLI_STRING, AT(metrics) },
		CLI_OPT_END,
	}, help[] = {
		CLI_OPT_FLAG("help", struct demo_opts, all, "the parser's own"),
		CLI_OPT_END,
	}, nohelp[] = {
		CLI_OPT_FLAG("all", struct demo_opts, all, ""),
		CLI_OPT_END,
	};
	struct cli_opt many[CLI_MAX_OPTS + 2];
	char names[CLI_MAX_OPTS + 1][8];
	struct pb_err err;
	int i;

	(void)state;
	assert_string_equal(spec_problem(unbound, &err),
			    "bad: '--lost' fills no variable");
	assert_string_equal(spec_problem(twice, &err),
			    "bad: '--all' is in the table twice");
	assert_string_equal(spec_problem(shared, &err),
			    "bad: '--all' and '--every' fill the same variable");
	assert_string_equal(spec_problem(inside, &err),
			    "bad: '--metrics' and '--half' fill the same "
			    "variable");
	assert_string_equal(spec_problem(outside, &err),
			    "bad: '--far' fills no variable of its options "
			    "struct");
	assert_string_equal(spec_problem(askew, &err),
			    "bad: '--askew' fills no variable of its options "
			    "struct");
	assert_string_equal(spec_problem(flag_arg, &err),
			    "bad: '--all' is a flag with a value's name");
	assert_string_equal(spec_problem(string_noarg, &err),
			    "bad: '--metrics' takes a value but does not name "
			    "it");
	assert_string_equal(spec_problem(help, &err),
			    "bad: '--help' cannot be the name of an option");
	assert_string_equal(spec_problem(nohelp, &err),
			    "bad: '--all' has no description");
	/* more options than the parser keeps */
	for (i = 0; i <= CLI_MAX_OPTS; i++) {
		snprintf(names[i], sizeof(names[i]), "o%d", i);
		many[i] = (struct cli_opt){ names[i], NULL, "one of many",
			CLI_FLAG, 0 };
	}
	many[CLI_MAX_OPTS + 1] = (struct cli_opt)CLI_OPT_END;
	assert_string_equal(spec_problem(many, &err),
			    "bad: more than 16 options");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_values),
		cmocka_unit_test(t_twice),
		cmocka_unit_test(t_dashdash),
		cmocka_unit_test(t_errors),
		cmocka_unit_test(t_help),
		cmocka_unit_test(t_globals),
		cmocka_unit_test(t_check),
		cmocka_unit_test(t_opt_string),
		cmocka_unit_test(t_every_command),
		cmocka_unit_test(t_global_table),
		cmocka_unit_test(t_unknown),
		cmocka_unit_test(t_spec_check),
		cmocka_unit_test(t_spec_check_refuses),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
