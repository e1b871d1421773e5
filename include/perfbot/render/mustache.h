/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_MUSTACHE_H
#define PERFBOT_MUSTACHE_H

/*
 * A Mustache template engine (the spec minus lambdas) rendering a jansson
 * value. Templates are parsed once into a token list, then rendered; every
 * input is bounded: template and partial files (MUSTACHE_FILE_MAX), section
 * plus partial nesting (max_depth) and output size (max_output). Errors
 * read "<template name>:<line>: <what is wrong>".
 */

#include <stddef.h>

#include <jansson.h>

#include "perfbot/util/err.h"
#include "perfbot/util/strbuf.h"

#define MUSTACHE_FILE_MAX ((size_t)1 << 20)
#define MUSTACHE_DEFAULT_DEPTH 64u
#define MUSTACHE_DEPTH_LIMIT 1024u	/* max_depth is clamped to this */
#define MUSTACHE_DEFAULT_OUTPUT ((size_t)16 << 20)

struct mustache_opts {
	int html_escape;	  /* 0: {{x}} verbatim; 1: escape & " < > */
	const char *partials_dir; /* where {{> name}} is looked up; NULL: error */
	const char *partials_ext; /* appended to the partial name, e.g. ".txt" */
	unsigned max_depth;	  /* section + partial nesting (0: 64) */
	size_t max_output;	  /* output bytes (0: 16 MiB) */
	int spec;		  /* as the Mustache spec: a missing partial
				     renders as nothing (else an error) */
};

/*
 * Render the template text 'tmpl' ('len' bytes, need not be NUL-terminated)
 * with the context 'ctx' (any JSON value, or NULL for none) and append the
 * result to 'out'. 'name' labels error messages ("name:line: ...").
 * 'opts' may be NULL for the defaults (no escaping, no partials). A
 * partial {{> p}} is read on first use from "<partials_dir>/p<partials_ext>",
 * falling back to "<partials_dir>/p"; a missing one is EX_NOINPUT (with
 * 'spec' set it renders as nothing, as the Mustache spec says, also when
 * there is no partials_dir), and its own errors are named after its path. Interpolating an object or a list
 * is an error; a missing name renders as nothing. Returns 0, or -1 with
 * 'err' set (EX_DATAERR for a bad template or a limit) and 'out' left as
 * it was.
 */
int mustache_render(const char *tmpl, size_t len, const char *name,
		    json_t *ctx, const struct mustache_opts *opts,
		    struct strbuf *out, struct pb_err *err);

/*
 * Read the template file 'path' (at most MUSTACHE_FILE_MAX bytes, no NUL
 * bytes) and render it as mustache_render() does, naming it 'path' in
 * error messages. When 'opts' leaves them NULL, partials are looked up in
 * the directory of 'path' with the extension of 'path' (".txt" for
 * "templates/report.txt"). A missing template file is EX_NOINPUT.
 */
int mustache_render_file(const char *path, json_t *ctx,
			 const struct mustache_opts *opts, struct strbuf *out,
			 struct pb_err *err);

#endif
