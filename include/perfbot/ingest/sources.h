/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_SOURCES_H
#define PERFBOT_SOURCES_H

#include <stddef.h>
#include <time.h>

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

/* A url source's full answer (200): its validators and its manifests. */
struct source_fetch {
	char *url;
	char *etag, *last_modified;	/* NULL when it sent none */
	size_t first, n;		/* its manifests: m[first ..] */
};

struct source_batch {
	struct manifest_text *m;
	size_t n;
	int errors;	/* sources that could not be read */
	struct source_fetch *fetched;	/* the url sources answered 200 */
	size_t nfetched;
};

/*
 * Collect the manifests of every source; with 'st', a url source is
 * asked with the validators of its last answer whose manifests were all
 * settled (sources_remember()).
 */
int sources_collect(const struct config *cfg, struct state *st,
		    struct source_batch *b, struct pb_err *err);
/*
 * Store the validators of each url source of 'b' whose manifests are all
 * settled: 'left' (NULL: none) holds one byte per manifest of 'b', not 0
 * for one a later run must see again (another instance holds it, it
 * waits for its bisection). Called once the run has recorded what it
 * made of them: a run killed before, or a manifest left, has the next
 * run ask for the whole list again, and lose nothing.
 */
int sources_remember(struct state *st, const struct source_batch *b,
		     const unsigned char *left, time_t now,
		     struct pb_err *err);
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
