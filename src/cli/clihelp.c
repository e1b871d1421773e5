// SPDX-License-Identifier: GPL-2.0-only
/*
 * The help printed from a command's option table (cliopts.h): the
 * synopsis (folded for --help, one line for a usage error), the summary,
 * the details and every option with its description.
 */
#include <string.h>

#include "perfbot/cli/cliopts.h"

#define WIDTH 79
#define FOLD_INDENT 14

/*
 * The synopsis' k-th unit after "perfbot NAME" into 'buf': a command's
 * arguments come first, the global options' ("COMMAND [ARGS]") last.
 * 0, or -1 past the end.
 */
static int unit(const struct cli_spec *spec, int k, char *buf, size_t size)
{
	int has_args = spec->args && *spec->args, nopts = 0, first;

	while (spec->opts[nopts].name)
		nopts++;
	first = has_args && spec->name ? 1 : 0;	/* options from here */
	if (k >= nopts + has_args)
		return -1;
	if (has_args && k == (spec->name ? 0 : nopts)) {
		snprintf(buf, size, "%s", spec->args);
		return 0;
	}
	k -= first;
	snprintf(buf, size, "[--%s%s%s]", spec->opts[k].name,
		 spec->opts[k].arg ? " " : "",
		 spec->opts[k].arg ? spec->opts[k].arg : "");
	return 0;
}

/* "perfbot NAME ..." from column 'col'; folded at WIDTH when 'fold'. */
static void synopsis(const struct cli_spec *spec, FILE *f, int col,
		     int fold)
{
	char u[128];
	int k, n;

	col += fprintf(f, "perfbot%s%s", spec->name ? " " : "",
		       spec->name ? spec->name : "");
	for (k = 0; !unit(spec, k, u, sizeof(u)); k++) {
		n = (int)strlen(u);
		if (fold && col + 1 + n > WIDTH) {
			fprintf(f, "\n%*s", FOLD_INDENT, "");
			col = FOLD_INDENT;
		} else {
			fputc(' ', f);
			col++;
		}
		fputs(u, f);
		col += n;
	}
	fputc('\n', f);
}

void cli_synopsis(const struct cli_spec *spec, FILE *f)
{
	synopsis(spec, f, 0, 0);
}

void cli_usage_line(const struct cli_spec *spec, FILE *f)
{
	synopsis(spec, f, fprintf(f, "usage: "), 1);
}

/*
 * 'text' as lines of at most WIDTH columns, the first starting at column
 * 'col' (already printed), the others indented by 'indent'; a newline in
 * the text starts a new line.
 */
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

void cli_help_options(const struct cli_spec *spec, FILE *f)
{
	char left[64];
	int i;

	fprintf(f, "options:\n");
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

void cli_help(const struct cli_spec *spec, FILE *f)
{
	cli_usage_line(spec, f);
	fprintf(f, "\n%s\n", spec->summary);
	if (spec->details) {
		fputc('\n', f);
		wrap(f, spec->details, 0, 0);
	}
	fputc('\n', f);
	cli_help_options(spec, f);
}
