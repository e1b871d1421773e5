/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_WEB_TREE_H
#define PERFBOT_WEB_TREE_H

#include <stddef.h>

#include <jansson.h>

#include "perfbot/util/err.h"

/*
 * The directory of the web archive, replaced whole and at once. DIR (the
 * --out of 'perfbot web') is a symbolic link to the tree it shows,
 * DIR.<n> beside it. A build makes DIR.<n+1> next to it, writes every
 * page there (one that did not change is a hard link to the previous
 * tree's file, so it is not written again), syncs it, points a new link
 * at it and renames that link over DIR: a reader (a web server, a
 * browser on file://) sees the old tree or the new one, never half of
 * one. Then the old tree is removed. A build that fails or is killed
 * leaves DIR as it was (the next one removes what it left). DIR.lock
 * keeps two builds apart.
 *
 * Each tree holds .perfbot-web.json: the key of each page (a hash of
 * what it was made from, or of its bytes) and the summary of each
 * report, so that the next build knows what it may keep.
 */

struct site_tree {
	char *out;		/* DIR */
	char *old_dir;		/* the tree DIR shows now, or NULL */
	char *new_dir;		/* the one being built */
	unsigned long gen;	/* its <n> */
	int lock_fd;
	json_t *old;		/* the old tree's .perfbot-web.json, or {} */
	json_t *pages, *reports;	/* the new one's */
	long written, kept;
	int committed;
};

/*
 * Lock DIR.lock, find the tree DIR shows and read its manifest (none,
 * or one that does not read, is an empty one: every page is made
 * again), and make the new tree (with its r/ and t/). DIR may be
 * missing, a link made by a build, or an empty directory; anything else
 * is refused (EX_CANTCREAT), so that no file of someone else's is ever
 * replaced. Release with site_release() whatever happened.
 */
int site_open(struct site_tree *t, const char *out, struct pb_err *err);

/*
 * The old tree's page 'path' when its key was 'key': hard-linked (or
 * copied) into the new tree with that key, '*kept' 1; else '*kept' 0 and
 * nothing done.
 */
int site_keep(struct site_tree *t, const char *path, const char *key,
	      int *kept, struct pb_err *err);

/*
 * Page 'path' of the new tree, 'len' bytes: kept when the old tree's has
 * the same bytes, else written; its key is 'key', or the hash of its
 * bytes when 'key' is NULL.
 */
int site_page(struct site_tree *t, const char *path, const char *key,
	      const char *data, size_t len, struct pb_err *err);

/*
 * The two halves of site_page() for a page known to be new, so that a
 * worker process may write it (site_write: a new file of the new tree,
 * not counted in 'written') and the builder note its key
 * (site_note_page).
 */
int site_write(struct site_tree *t, const char *path, const char *data,
	       size_t len, struct pb_err *err);
int site_note_page(struct site_tree *t, const char *path, const char *key,
		   struct pb_err *err);

/* The summary the old manifest kept for report 'id' (borrowed), or NULL. */
const json_t *site_old_report(const struct site_tree *t, const char *id);
/* Keep 'summary' (taken) for report 'id' in the new manifest. */
int site_note_report(struct site_tree *t, const char *id, json_t *summary,
		     struct pb_err *err);

/*
 * Write the manifest, sync the new tree, swap DIR over to it and remove
 * the old tree (and any a killed build left).
 */
int site_commit(struct site_tree *t, struct pb_err *err);

/* Unlock; a tree not committed is removed. Safe on a zeroed struct. */
void site_release(struct site_tree *t);

/* The key of 'len' bytes: 16 hex digits into 'buf' (at least 17). */
void site_hash(const void *data, size_t len, char *buf);

#endif
