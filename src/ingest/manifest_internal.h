/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_MANIFEST_INTERNAL_H
#define PERFBOT_MANIFEST_INTERNAL_H
/*
 * ingest: what manifest.c and manifest_ref.c share; no other folder
 * includes it.
 */
#include "perfbot/ingest/manifest.h"

/* 1 when 's' is 7 to 40 hex digits. */
int manifest_is_sha(const char *s);
/*
 * The 'commit' (a sha or a ref name) and the optional 'sha' of the side
 * 'which' of 'map' into 's'; EX_DATAERR naming the key and line.
 */
int manifest_load_commit(const struct ydoc *doc, const struct ynode *map,
			 const char *which, struct manifest_side *s,
			 struct pb_err *err);
/* The 'group' key into m->group, checked (group.c). */
int manifest_load_group(struct manifest *m, struct pb_err *err);

#endif
