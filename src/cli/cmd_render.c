// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perfbot/cli.h"
#include "perfbot/fileio.h"
#include "perfbot/mustache.h"

#define CONTEXT_MAX_BYTES ((size_t)16 << 20)

/* A path as given when it names a file, else templates/<name>.txt. */
static char *template_path(const char *arg)
{
	struct strbuf rel = STRBUF_INIT;
	char *p;

	if (strchr(arg, '/') || access(arg, F_OK) == 0)
		return strdup(arg);
	if (sb_addf(&rel, "templates/%s.txt", arg)) {
		sb_release(&rel);
		return NULL;
	}
	p = data_path(sb_str(&rel));
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
	const char *args[2] = { NULL, NULL };
	json_t *ctx = NULL;
	char *path = NULL;
	int i, n = 0, rc = -1;

	if (cli_wants_help(argc, argv, "render"))
		return 0;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--html"))
			mo.html_escape = 1;
		else if (!strcmp(argv[i], "--spec"))
			mo.html_escape = mo.spec = 1;
		else if (argv[i][0] == '-' && argv[i][1] == '-')
			return cli_usage("render");
		else if (n < 2)
			args[n++] = argv[i];
		else
			return cli_usage("render");
	}
	if (!n)
		return cli_usage("render");
	path = template_path(args[0]);
	if (!path)
		pb_fail(&err, EX_OSERR, "out of memory");
	else if (!load_context(args[1], mo.spec, &ctx, &err) &&
		 !mustache_render_file(path, ctx, &mo, &out, &err))
		rc = fwrite(sb_str(&out), 1, out.len, stdout) == out.len ? 0 :
			pb_fail(&err, EX_IOERR, "stdout: write failed");
	json_decref(ctx);
	free(path);
	sb_release(&out);
	return rc ? cli_fail(&err) : 0;
}
