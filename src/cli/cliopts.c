// SPDX-License-Identifier: GPL-2.0-only
#include <string.h>
#include <unistd.h>

#include "perfbot/cliopts.h"
#include "perfbot/log.h"
#include "perfbot/suggest.h"

/* Globals given before the command name: "config", "quiet", "verbose". */
static const char *global_names[] = { "config", "quiet", "verbose" };
#define NGLOBALS (sizeof(global_names) / sizeof(global_names[0]))
static const char *global_val[NGLOBALS];

static int find_opt(const struct cli_spec *spec, const char *name,
		    size_t len)
{
	int i;

	for (i = 0; spec->opts[i].name; i++)
		if (strlen(spec->opts[i].name) == len &&
		    !strncmp(spec->opts[i].name, name, len))
			return i;
	return -1;
}

static void unknown_option(const struct cli_spec *spec, const char *word,
			   size_t len)
{
	char name[SUGGEST_MAX_LEN + 1];
	const char *best = NULL;
	int i;

	if (len > SUGGEST_MAX_LEN)
		len = SUGGEST_MAX_LEN;
	memcpy(name, word, len);
	name[len] = '\0';
	for (i = 0; spec->opts[i].name && !best; i++)
		if (suggest_close(name, spec->opts[i].name))
			best = spec->opts[i].name;
	if (best)
		log_error("%s: unknown option '--%s' (did you mean '--%s'?); "
			  "see 'perfbot %s --help'", spec->name, name, best,
			  spec->name);
	else
		log_error("%s: unknown option '--%s'; see 'perfbot %s --help'",
			  spec->name, name, spec->name);
}

static int usage_error(const struct cli_spec *spec)
{
	char line[512];
	FILE *f = fmemopen(line, sizeof(line), "w");

	if (!f) {
		log_error("usage: perfbot %s", spec->name);
		return -1;
	}
	cli_synopsis(spec, f);
	fclose(f);
	line[sizeof(line) - 1] = '\0';
	line[strcspn(line, "\n")] = '\0';
	log_error("usage: %s", line);
	return -1;
}

static int apply_globals(const struct cli_spec *spec, struct cli_args *a)
{
	size_t g;
	int i;

	for (g = 0; g < NGLOBALS; g++) {
		if (!global_val[g])
			continue;
		i = find_opt(spec, global_names[g], strlen(global_names[g]));
		if (i < 0) {
			log_error("%s: '--%s' does not apply to this command",
				  spec->name, global_names[g]);
			return -1;
		}
		a->val[i] = global_val[g];
	}
	return 0;
}

/* One "--name[=value]" at argv[*i]; 0 or -1 (reported). */
static int one_option(const struct cli_spec *spec, int argc, char **argv,
		      int *i, struct cli_args *a)
{
	const char *word = argv[*i] + 2, *eq = strchr(word, '=');
	size_t len = eq ? (size_t)(eq - word) : strlen(word);
	int k = find_opt(spec, word, len);

	if (k < 0) {
		unknown_option(spec, word, len);
		return -1;
	}
	if (!spec->opts[k].arg) {
		if (eq) {
			log_error("%s: '--%s' takes no value", spec->name,
				  spec->opts[k].name);
			return -1;
		}
		a->val[k] = "";
		return 0;
	}
	if (eq) {
		a->val[k] = eq + 1;
	} else if (*i + 1 < argc) {
		a->val[k] = argv[++*i];
	} else {
		log_error("%s: '--%s' needs a value (%s)", spec->name,
			  spec->opts[k].name, spec->opts[k].arg);
		return -1;
	}
	return 0;
}

static int wants_help(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return 1;
	return 0;
}

int cli_parse(const struct cli_spec *spec, int argc, char **argv,
	      struct cli_args *a)
{
	int i, dashdash = 0;

	memset(a, 0, sizeof(*a));
	a->spec = spec;
	if (wants_help(argc, argv)) {
		cli_help(spec, stdout);
		return 1;
	}
	if (apply_globals(spec, a))
		return -1;
	for (i = 1; i < argc; i++) {
		if (!dashdash && !strcmp(argv[i], "--")) {
			dashdash = 1;
		} else if (!dashdash && !strncmp(argv[i], "--", 2)) {
			if (one_option(spec, argc, argv, &i, a))
				return -1;
		} else if (!dashdash && argv[i][0] == '-' && argv[i][1]) {
			log_error("%s: unknown option '%s'; see 'perfbot %s "
				  "--help'", spec->name, argv[i], spec->name);
			return -1;
		} else if (a->nargs < spec->max_args &&
			   a->nargs < CLI_MAX_ARGS) {
			a->arg[a->nargs++] = argv[i];
		} else {
			return usage_error(spec);
		}
	}
	return a->nargs < spec->min_args ? usage_error(spec) : 0;
}

const char *cli_value(const struct cli_args *a, const char *name)
{
	int i = find_opt(a->spec, name, strlen(name));

	return i < 0 ? NULL : a->val[i];
}

int cli_flag(const struct cli_args *a, const char *name)
{
	return cli_value(a, name) != NULL;
}

void cli_synopsis(const struct cli_spec *spec, FILE *f)
{
	int i;

	fprintf(f, "perfbot %s", spec->name);
	if (spec->args && *spec->args)
		fprintf(f, " %s", spec->args);
	for (i = 0; spec->opts[i].name; i++) {
		if (spec->opts[i].arg)
			fprintf(f, " [--%s %s]", spec->opts[i].name,
				spec->opts[i].arg);
		else
			fprintf(f, " [--%s]", spec->opts[i].name);
	}
	fputc('\n', f);
}

/*
 * 'text' as lines of at most WIDTH columns, the first starting at column
 * 'col' (already printed), the others indented by 'indent'; a newline in
 * the text starts a new line.
 */
#define WIDTH 79
static void wrap(FILE *f, const char *text, size_t col, size_t indent)
{
	const char *p = text, *end;
	size_t n;

	while (*p) {
		n = strcspn(p, " \n");
		end = p + n;
		if (col > indent && col + 1 + n > WIDTH) {
			fprintf(f, "\n%*s", (int)indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', f);
			col++;
		}
		fwrite(p, 1, n, f);
		col += n;
		p = end;
		if (*p == '\n') {
			fprintf(f, "\n%*s", (int)indent, "");
			col = indent;
		}
		while (*p == ' ' || *p == '\n')
			p++;
	}
	fputc('\n', f);
}

/* The synopsis, folded between options. */
static void help_synopsis(const struct cli_spec *spec, FILE *f)
{
	char unit[96];
	int i, col, n;

	col = fprintf(f, "usage: perfbot %s%s%s", spec->name,
		      spec->args && *spec->args ? " " : "",
		      spec->args ? spec->args : "");
	for (i = 0; spec->opts[i].name; i++) {
		n = snprintf(unit, sizeof(unit), "[--%s%s%s]",
			     spec->opts[i].name, spec->opts[i].arg ? " " : "",
			     spec->opts[i].arg ? spec->opts[i].arg : "");
		if (col + 1 + n > WIDTH) {
			fprintf(f, "\n%*s", 14, "");
			col = 14;
		} else {
			fputc(' ', f);
			col++;
		}
		fputs(unit, f);
		col += n;
	}
	fputc('\n', f);
}

void cli_help(const struct cli_spec *spec, FILE *f)
{
	char left[64];
	int i;

	help_synopsis(spec, f);
	fprintf(f, "\n%s\n", spec->summary);
	if (spec->details) {
		fputc('\n', f);
		wrap(f, spec->details, 0, 0);
	}
	fprintf(f, "\noptions:\n");
	for (i = 0; spec->opts[i].name; i++) {
		snprintf(left, sizeof(left), "--%s%s%s", spec->opts[i].name,
			 spec->opts[i].arg ? " " : "",
			 spec->opts[i].arg ? spec->opts[i].arg : "");
		if (strlen(left) > 18)
			fprintf(f, "  %s\n%22s", left, "");
		else
			fprintf(f, "  %-18s  ", left);
		wrap(f, spec->opts[i].help, 22, 22);
	}
	fprintf(f, "  %-18s  %s\n", "-h, --help", "print this help");
}

int cli_set_globals(int argc, char **argv)
{
	size_t g;
	int i;

	memset(global_val, 0, sizeof(global_val));
	for (i = 1; i < argc && !strncmp(argv[i], "--", 2) &&
	     strcmp(argv[i], "--help") && strcmp(argv[i], "--version"); i++) {
		const char *w = argv[i] + 2, *eq = strchr(w, '=');
		size_t len = eq ? (size_t)(eq - w) : strlen(w);

		for (g = 0; g < NGLOBALS; g++)
			if (strlen(global_names[g]) == len &&
			    !strncmp(global_names[g], w, len))
				break;
		if (g == NGLOBALS) {
			log_error("unknown global option '%s'; the global "
				  "options are --config FILE, --quiet and "
				  "--verbose", argv[i]);
			return -1;
		}
		if (g > 0 && eq) {
			log_error("'--%s' takes no value", global_names[g]);
			return -1;
		}
		if (g > 0) {
			global_val[g] = "";
		} else if (eq) {
			global_val[g] = eq + 1;
		} else if (i + 1 < argc) {
			global_val[g] = argv[++i];
		} else {
			log_error("'--config' needs a value (FILE)");
			return -1;
		}
	}
	return i;
}

void cli_apply_log(const struct cli_args *a, int cycle)
{
	int quiet = cli_flag(a, "quiet"), verbose = cli_flag(a, "verbose");

	log_set_level(verbose ? LOG_DEBUG : quiet ? LOG_WARN :
		      cycle ? LOG_INFO : LOG_WARN);
	log_set_timestamps(cycle && !isatty(2));
}
