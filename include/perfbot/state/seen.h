/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_STATE_SEEN_H
#define PERFBOT_STATE_SEEN_H

#include <time.h>

#include "perfbot/state/state.h"

/*
 * What ingest has seen (src/state/seen.c): the manifests already reported,
 * held or skipped (their text kept), the ids derived for manifests that
 * name none (manifest_ids.c), the claims of manifests being made
 * (manifest_claim.c), and the HTTP validators of the sources.
 */

/* '*seen' 1 when a manifest with this id was seen before, else 0. */
int state_seen(struct state *st, const char *id, int *seen,
	       struct pb_err *err);

/* Record a manifest that is not worth a mail, so it is not judged again. */
int state_skip(struct state *st, const char *id, const char *manifest,
	       const char *why, time_t now, struct pb_err *err);

/* The manifest text and directory a report came from (NULL: unknown). */
int state_manifest_text(struct state *st, const char *report_id,
			char **name, char **text, char **dir,
			struct pb_err *err);

/* HTTP validators of a url source (NULL when unknown). */
int state_source_get(struct state *st, const char *url, char **etag,
		     char **last_modified, struct pb_err *err);
int state_source_set(struct state *st, const char *url, const char *etag,
		     const char *last_modified, time_t now,
		     struct pb_err *err);

/*
 * The id derived for a manifest that names none (from its commits and
 * job: its result roots loaded), kept under 'digest', a digest of the
 * manifest's text and folder (manifest_ids.c): '*id' NULL when unknown,
 * else malloc'ed. Keeping a digest known already changes nothing.
 */
int state_manifest_id_get(struct state *st, const char *digest, char **id,
			  struct pb_err *err);
int state_manifest_id_keep(struct state *st, const char *digest,
			   const char *id, time_t now, struct pb_err *err);
/*
 * Manifests claimed at ingest, so that instances side by side on one
 * state never both make a manifest's report (manifest_claim.c): the
 * manifests 'keys[0..n)' (their ids; a NULL is skipped), the members of
 * one group, are all taken with a lease of 'ttl' seconds ('*claimed' 1)
 * or none ('*claimed' 0: another instance holds one, its lease not over
 * and its owner alive). The taker then asks state_seen() again. On a
 * backend that runs one run at a time (SQLite) every claim is taken and
 * nothing is written.
 */
int state_manifests_claim(struct state *st, const char *const *keys,
			  size_t n, time_t now, long ttl, int *claimed,
			  struct pb_err *err);
/* Let one's own claims of 'keys' go: the manifests are done with. */
int state_manifests_release(struct state *st, const char *const *keys,
			    size_t n, struct pb_err *err);
/*
 * Forget the claims of manifests the state knows (seen: nobody makes
 * their reports again), whoever holds them: what a run killed between
 * recording a manifest and letting its claim go leaves, since a seen
 * manifest is not claimed again. Once a cycle; nothing on SQLite.
 */
int state_manifests_forget_seen(struct state *st, struct pb_err *err);

#endif
