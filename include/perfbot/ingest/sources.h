/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_SOURCES_H
#define PERFBOT_SOURCES_H

#include <stddef.h>

#include "perfbot/config/config.h"
#include "perfbot/ingest/manifest.h"
#include "perfbot/state/state.h"
#include "perfbot/util/strmap.h"

/*
 * Where new comparisons come from (the 'sources' list): a 'dir' gives
 * every *.yaml and *.yml file in it, in name order (each a manifest,
 * unless it is no manifest at all: source_take()); a 'url' is fetched with
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
/* The manifests of one directory, added to 'b' (b zeroed to start). */
int sources_collect_dir(const char *dir, struct source_batch *b,
			struct pb_err *err);

/*
 * The ids of one run's manifests: a second manifest of an id is refused
 * (in the cycle, --dry-run and 'perfbot check' alike), naming where the
 * id was first taken.
 */
struct source_ids {
	struct strmap map;	/* id -> its index in 'id' and 'where' */
	char **id;
	char **where;		/* "file:line" that took it */
	size_t n;
};
void source_ids_init(struct source_ids *ids);
void source_ids_release(struct source_ids *ids);
/* Take 'id' for 'where': EX_DATAERR naming both when it is taken. */
int source_ids_claim(struct source_ids *ids, const char *id,
		     const char *where, struct pb_err *err);

/*
 * One manifest of a batch taken for a run: parsed, a YAML file that is
 * no manifest left alone (0 with *taken 0, 'err' saying why, for
 * --verbose), a url source's held to manifest_check_remote(), its 'id'
 * claimed in 'ids', what it names checked (manifest_check_files()).
 * 0 with *taken 1 and 'm' to release; -1 with 'err' for a bad manifest.
 */
int source_take(const struct config *cfg, struct source_ids *ids,
		const struct manifest_text *mt, struct manifest *m,
		int *taken, struct pb_err *err);

#endif
