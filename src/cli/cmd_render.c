// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli: 'perfbot render', the render stage on its own: any template (a
 * file, or templates/NAME.txt of the data directory) with a JSON context
 * from a file or stdin, printed; --html and --spec render as the Mustache
 * spec says rather than as reports do.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perfbot/cli/cli.h"
#include "perfbot/util/fileio.h"
#include "perfbot/render/mustache.h"

#define CONTEXT_MAX_BYTES ((size_t)16 << 20)

struct cli_render_opts {
	int html, spec;
	int quiet, verbose;
};

static const struct cli_opt render_opts[] = {
	CLI_OPT_FLAG("html", struct cli_render_opts, html,
		     "escape & \" < > in {{name}} as the Mustache spec says "
		     "(reports are text: no escaping)"),
	CLI_OPT_FLAG("spec", struct cli_render_opts, spec,
		     "follow the Mustache spec exactly: escape as --html, any "
		     "JSON value as the context, a missing partial renders "
		     "empty (reports: a missing partial is an error)"),
	CLI_OPT_QUIET(struct cli_render_opts),
	CLI_OPT_VERBOSE(struct cli_render_opts),
	CLI_OPT_END,
};

const struct cli_spec render_spec = {
	"render", "TEMPLATE [CONTEXT.json|-]", 1, 2,
	"render any template with a JSON context",
	"TEMPLATE is a file, or a name looked up as templates/NAME.txt in the "
	"data directory; partials are looked up beside it. Without CONTEXT "
	"the context is {}; '-' reads it from stdin.",
	render_opts, sizeof(struct cli_render_opts),
};

/* A path as given when it names a file, else templates/<name>.txt. */
static char *template_path(const char *arg, struct pb_err *err)
{
	struct strbuf rel = STRBUF_INIT;
	char *p = NULL;

	if (strchr(arg, '/') || access(arg, F_OK) == 0)
		p = strdup(arg);
	else if (!sb_addf(&rel, "templates/%s.txt", arg))
		data_find(sb_str(&rel), "a template file's path", &p, err);
	if (!p && !err->code)
		pb_fail(err, EX_OSERR, "out of memory");
	sb_release(&rel);
	return p;
}

/* With 'any' (spec mode) the top-level value need not be an object. */
static int load_context(const char *path, int any, json_t **ctx,
			struct pb_err *err)
{
	struct strbuf text = STRBUF_INIT;
	json_error_t jerr;

	if (!path) {
		*ctx = json_object();
		return *ctx ? 0 : pb_fail(err, EX_OSERR, "out of memory");
	}
	if (file_read(path, CONTEXT_MAX_BYTES, 1, &text, err)) {
		sb_release(&text);
		return -1;
	}
	*ctx = json_loadb(sb_str(&text), text.len, JSON_REJECT_DUPLICATES |
			  (any ? JSON_DECODE_ANY : 0), &jerr);
	sb_release(&text);
	if (!*ctx)
		return pb_fail(err, EX_DATAERR, "%s:%d: %s",
			       strcmp(path, "-") ? path : "(stdin)", jerr.line,
			       jerr.text);
	return 0;
}

int cmd_render(int argc, char **argv)
{
	struct mustache_opts mo = { 0 };
	struct strbuf out = STRBUF_INIT;
	struct pb_err err = { 0, "" };
	struct cli_render_opts o;
	struct cli_args a;
	json_t *ctx = NULL;
	char *path = NULL;
	int rc = cli_parse(&render_spec, argc, argv, &o, &a);

	if (rc)
		return rc > 0 ? 0 : EX_USAGE;
	rc = -1;
	cli_apply_log(o.quiet, o.verbose, 0);
	mo.html_escape = o.html || o.spec;
	mo.spec = o.spec;
	path = template_path(a.arg[0], &err);
	if (path && !load_context(a.arg[1], mo.spec, &ctx, &err) &&
		 !mustache_render_file(path, ctx, &mo, &out, &err))
		rc = fwrite(sb_str(&out), 1, out.len, stdout) == out.len ? 0 :
			pb_fail(&err, EX_IOERR, "stdout: write failed");
	json_decref(ctx);
	free(path);
	sb_release(&out);
	return rc ? cli_fail(&err) : 0;
}
