/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_SOURCES_H
#define PERFBOT_SOURCES_H

#include <stddef.h>

#include "perfbot/config/config.h"
#include "perfbot/state/state.h"

/*
 * Where new comparisons come from (the 'sources' list): a 'dir' gives
 * every *.yaml manifest in it, in name order; a 'url' is fetched with
 * libcurl and must answer a JSON list of manifests (JSON is YAML, so each
 * is read like a file). A url source sends If-None-Match /
 * If-Modified-Since from the last answer kept in 'st' (NULL: plain GET)
 * and a 304 gives nothing. A source that cannot be read is reported and
 * skipped; the others still count.
 */

#define SOURCE_MAX_BYTES ((size_t)16 << 20)
#define SOURCE_MAX_MANIFESTS 10000

struct manifest_text {
	char *name;	/* the file, or "URL#N" */
	char *dir;	/* relative paths in it are relative to this */
	char *text;
	size_t len;
	int remote;	/* from a url source: not trusted with local files */
};

struct source_batch {
	struct manifest_text *m;
	size_t n;
	int errors;	/* sources that could not be read */
};

/*
 * Collect the manifests of every source. With 'st' and 'remember', the
 * validators of url sources are stored for the next run.
 */
int sources_collect(const struct config *cfg, struct state *st,
		    int remember, struct source_batch *b, struct pb_err *err);
void sources_release(struct source_batch *b);

#endif
