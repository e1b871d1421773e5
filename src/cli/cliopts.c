// SPDX-License-Identifier: GPL-2.0-only
/*
 * The command line (cliopts.h): every command's options, and the global
 * ones before the command name, parsed from one table that also prints
 * the --help, into the variables the table names.
 */
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

#include "perfbot/cli/cliopts.h"
#include "perfbot/util/log.h"
#include "perfbot/util/suggest.h"

/*
 * The parser keeps each option's value as given, 'val' ("" for a flag,
 * NULL when not given), at the option's index in the table until bind()
 * stores them all in their variables. The global options given before
 * the command name (cli_parse_globals) are kept so, for the command.
 */
static struct {
	const struct cli_spec *spec;
	const char *val[CLI_MAX_OPTS];
} globals;

struct parser {
	const struct cli_spec *spec;
	void *opts;		/* the options struct the table fills */
	struct cli_args *a;
	int quiet;		/* cli_check(): find, say nothing */
	const char *val[CLI_MAX_OPTS];
};

/* A usage error: printed unless quiet; -1. */
static int bad(const struct parser *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int bad(const struct parser *p, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (p->quiet)
		return -1;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	log_error("%s", msg);
	return -1;
}

/* "run: " before a command's messages; nothing before the globals'. */
static const char *who(const struct cli_spec *spec)
{
	return spec->name ? spec->name : "";
}

static const char *colon(const struct cli_spec *spec)
{
	return spec->name ? ": " : "";
}

static int find_opt(const struct cli_spec *spec, const char *name,
		    size_t len)
{
	int i;

	for (i = 0; spec->opts[i].name && i < CLI_MAX_OPTS; i++)
		if (strlen(spec->opts[i].name) == len &&
		    !strncmp(spec->opts[i].name, name, len))
			return i;
	return -1;
}

/* Where option 'o' keeps its value in the options struct 'opts'. */
static void *var(const struct cli_opt *o, void *opts)
{
	return (char *)opts + o->at;
}

/* Every variable of spec's table from 'val': where values are stored. */
static void bind(const struct cli_spec *spec, void *opts,
		 const char *const *val)
{
	const struct cli_opt *o;
	int i;

	for (i = 0; spec->opts[i].name && i < CLI_MAX_OPTS; i++) {
		o = &spec->opts[i];
		if (o->kind == CLI_FLAG)
			*(int *)var(o, opts) = val[i] != NULL;
		else if (o->kind == CLI_STRING)
			*(const char **)var(o, opts) = val[i];
	}
}

/* "--config FILE, --quiet and --verbose": the options of 'spec'. */
static void list_opts(const struct cli_spec *spec, char *buf, size_t size)
{
	size_t used = 0;
	int i, n;

	buf[0] = '\0';
	for (i = 0; spec->opts[i].name && used < size; i++) {
		n = snprintf(buf + used, size - used, "%s--%s%s%s",
			     !i ? "" : spec->opts[i + 1].name ? ", " : " and ",
			     spec->opts[i].name, spec->opts[i].arg ? " " : "",
			     spec->opts[i].arg ? spec->opts[i].arg : "");
		used += n > 0 ? (size_t)n : 0;
	}
}

static int unknown_option(const struct parser *p, const char *word,
			  size_t len)
{
	const struct cli_spec *spec = p->spec;
	char name[SUGGEST_MAX_LEN + 1], mean[SUGGEST_MAX_LEN + 32] = "";
	char all[256];
	int i;

	if (len > SUGGEST_MAX_LEN)
		len = SUGGEST_MAX_LEN;
	memcpy(name, word, len);
	name[len] = '\0';
	for (i = 0; spec->opts[i].name && !mean[0]; i++)
		if (suggest_close(name, spec->opts[i].name))
			snprintf(mean, sizeof(mean), " (did you mean '--%s'?)",
				 spec->opts[i].name);
	if (spec->name)
		return bad(p, "%s: unknown option '--%s'%s; see 'perfbot %s "
			   "--help'", spec->name, name, mean, spec->name);
	list_opts(spec, all, sizeof(all));
	return bad(p, "unknown global option '--%s'%s; the global options "
		   "are %s", name, mean, all);
}

static int usage_error(const struct parser *p)
{
	char line[512];
	FILE *f;

	if (p->quiet)
		return -1;
	f = fmemopen(line, sizeof(line), "w");
	if (!f)
		return bad(p, "usage: perfbot %s", who(p->spec));
	cli_synopsis(p->spec, f);
	fclose(f);
	line[sizeof(line) - 1] = '\0';
	line[strcspn(line, "\n")] = '\0';
	return bad(p, "usage: %s", line);
}

/* The globals given before the command go to the command's options. */
static int apply_globals(struct parser *p)
{
	const struct cli_spec *g = globals.spec;
	int i, k;

	for (i = 0; g && g->opts[i].name && i < CLI_MAX_OPTS; i++) {
		if (!globals.val[i])
			continue;
		k = find_opt(p->spec, g->opts[i].name, strlen(g->opts[i].name));
		if (k < 0 || p->spec->opts[k].kind != g->opts[i].kind)
			return bad(p, "%s: '--%s' does not apply to this "
				   "command", who(p->spec), g->opts[i].name);
		p->val[k] = globals.val[i];
	}
	return 0;
}

/* One "--name[=value]" at argv[*i]; 0 or -1 (reported). */
static int one_option(struct parser *p, int argc, char **argv, int *i)
{
	const struct cli_spec *spec = p->spec;
	const char *word = argv[*i] + 2, *eq = strchr(word, '=');
	size_t len = eq ? (size_t)(eq - word) : strlen(word);
	int k = find_opt(spec, word, len);

	if (k < 0)
		return unknown_option(p, word, len);
	if (!spec->opts[k].arg) {
		if (eq)
			return bad(p, "%s%s'--%s' takes no value", who(spec),
				   colon(spec), spec->opts[k].name);
		p->val[k] = "";
		return 0;
	}
	if (eq)
		p->val[k] = eq + 1;
	else if (*i + 1 < argc)
		p->val[k] = argv[++*i];
	else
		return bad(p, "%s%s'--%s' needs a value (%s)", who(spec),
			   colon(spec), spec->opts[k].name, spec->opts[k].arg);
	return 0;
}

static int is_help(const char *word)
{
	return !strcmp(word, "-h") || !strcmp(word, "--help");
}

static int wants_help(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (is_help(argv[i]))
			return 1;
	return 0;
}

static int parse(struct parser *p, int argc, char **argv)
{
	const struct cli_spec *spec = p->spec;
	struct cli_args *a = p->a;
	int i, dashdash = 0;

	memset(a, 0, sizeof(*a));
	a->spec = spec;
	bind(spec, p->opts, p->val);	/* nothing given yet */
	if (wants_help(argc, argv)) {
		a->help = 1;
		return 1;
	}
	if (apply_globals(p))
		return -1;
	for (i = 1; i < argc; i++) {
		if (!dashdash && !strcmp(argv[i], "--")) {
			dashdash = 1;
		} else if (!dashdash && !strncmp(argv[i], "--", 2)) {
			if (one_option(p, argc, argv, &i))
				return -1;
		} else if (!dashdash && argv[i][0] == '-' && argv[i][1]) {
			return bad(p, "%s: unknown option '%s'; see 'perfbot "
				   "%s --help'", spec->name, argv[i],
				   spec->name);
		} else if (a->nargs < spec->max_args &&
			   a->nargs < CLI_MAX_ARGS) {
			a->arg[a->nargs++] = argv[i];
		} else {
			return usage_error(p);
		}
	}
	if (a->nargs < spec->min_args)
		return usage_error(p);
	bind(spec, p->opts, p->val);
	return 0;
}

int cli_parse(const struct cli_spec *spec, int argc, char **argv,
	      void *opts, struct cli_args *a)
{
	struct parser p = { .spec = spec, .opts = opts, .a = a };
	int rc = parse(&p, argc, argv);

	if (rc > 0)
		cli_help(spec, stdout);
	return rc;
}

int cli_check(const struct cli_spec *spec, int argc, char **argv,
	      void *opts, struct cli_args *a)
{
	struct parser p = { .spec = spec, .opts = opts, .a = a, .quiet = 1 };

	return parse(&p, argc, argv);
}

int cli_parse_globals(const struct cli_spec *spec, int argc, char **argv,
		      void *opts, struct cli_args *a)
{
	struct parser p = { .spec = spec, .opts = opts, .a = a };
	int i;

	memset(a, 0, sizeof(*a));
	memset(&globals, 0, sizeof(globals));
	a->spec = spec;
	bind(spec, opts, p.val);	/* nothing given yet */
	for (i = 1; i < argc && !strncmp(argv[i], "-", 1); i++) {
		if (is_help(argv[i])) {
			a->help = 1;
			i++;
			break;
		}
		if (strncmp(argv[i], "--", 2))
			break;	/* "-x": not an option here, nor a command */
		if (one_option(&p, argc, argv, &i))
			return -1;
	}
	globals.spec = spec;
	memcpy(globals.val, p.val, sizeof(globals.val));
	bind(spec, opts, p.val);
	return i;
}

const char *cli_opt_string(const struct cli_spec *spec, const void *opts,
			   int i)
{
	const struct cli_opt *o = &spec->opts[i];

	return o->kind == CLI_STRING ?
		*(const char *const *)((const char *)opts + o->at) : NULL;
}

/* The size and alignment of the variable of each kind; 0: no kind. */
static const struct {
	size_t size, align;
} kinds[] = {
	[CLI_FLAG] = { sizeof(int), _Alignof(int) },
	[CLI_STRING] = { sizeof(const char *), _Alignof(const char *) },
};

static const char *table_name(const struct cli_spec *spec)
{
	return spec->name ? spec->name : "the global options";
}

/* One option of spec's table on its own: 0, or -1 with 'err'. */
static int check_opt(const struct cli_spec *spec, const struct cli_opt *o,
		     struct pb_err *err)
{
	const char *t = table_name(spec), *n = o->name;
	size_t size = 0, align = 1;

	if (o->kind > 0 && (size_t)o->kind < sizeof(kinds) / sizeof(*kinds)) {
		size = kinds[o->kind].size;
		align = kinds[o->kind].align;
	}
	if (!*n || *n == '-' || strchr(n, '=') || !strcmp(n, "help"))
		return pb_fail(err, EX_SOFTWARE, "%s: '--%s' cannot be the "
			       "name of an option", t, n);
	if (!size)
		return pb_fail(err, EX_SOFTWARE, "%s: '--%s' fills no "
			       "variable", t, n);
	if (o->at > spec->size || spec->size - o->at < size ||
	    o->at % align)
		return pb_fail(err, EX_SOFTWARE, "%s: '--%s' fills no "
			       "variable of its options struct", t, n);
	if ((o->kind == CLI_STRING) != (o->arg != NULL))
		return pb_fail(err, EX_SOFTWARE, "%s: '--%s' %s", t, n,
			       o->arg ? "is a flag with a value's name" :
			       "takes a value but does not name it");
	if (!o->help || !*o->help)
		return pb_fail(err, EX_SOFTWARE, "%s: '--%s' has no "
			       "description", t, n);
	return 0;
}

/* Two options of table 't', each fine on its own: 0, or -1 with 'err'. */
static int check_pair(const char *t, const struct cli_opt *x,
		      const struct cli_opt *y, struct pb_err *err)
{
	if (!strcmp(x->name, y->name))
		return pb_fail(err, EX_SOFTWARE, "%s: '--%s' is in the table "
			       "twice", t, x->name);
	if (x->at < y->at + kinds[y->kind].size &&
	    y->at < x->at + kinds[x->kind].size)
		return pb_fail(err, EX_SOFTWARE, "%s: '--%s' and '--%s' fill "
			       "the same variable", t, x->name, y->name);
	return 0;
}

int cli_spec_check(const struct cli_spec *spec, struct pb_err *err)
{
	const struct cli_opt *o = spec->opts;
	const char *t = table_name(spec);
	int i, j;

	for (i = 0; o[i].name; i++)
		if (i == CLI_MAX_OPTS)
			return pb_fail(err, EX_SOFTWARE, "%s: more than %d "
				       "options", t, CLI_MAX_OPTS);
	for (i = 0; o[i].name; i++) {
		if (check_opt(spec, &o[i], err))
			return -1;
		for (j = 0; j < i; j++)
			if (check_pair(t, &o[j], &o[i], err))
				return -1;
	}
	return 0;
}

void cli_apply_log(int quiet, int verbose, int cycle)
{
	log_set_level(verbose ? LOG_DEBUG : quiet ? LOG_WARN :
		      cycle ? LOG_INFO : LOG_WARN);
	log_set_timestamps(cycle && !isatty(2));
}
