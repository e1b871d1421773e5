/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_MANIFEST_H
#define PERFBOT_MANIFEST_H


#include "perfbot/util/err.h"
#include "perfbot/util/strv.h"
#include "perfbot/util/yaml.h"

/*
 * A comparison manifest (doc/design.md): which two commits, where their result
 * roots are, who wrote the change and who gets the report. Unknown keys,
 * a commit that is neither 7-40 hex digits nor a ref name (a tag such as
 * v6.13, a branch), or a missing result root are
 * EX_DATAERR naming the key and line. Relative result_root, metrics and
 * kconfig_file paths are resolved against the manifest's directory.
 * 'patch' is checked strictly: Message-IDs of the form left@right, http(s)
 * URLs, one-line texts without control characters, lists of strings.
 */

#define MANIFEST_MAX_BYTES (256 << 10)

struct manifest_side {
	/*
	 * As the report prints it: a sha (7 to 40 hex digits) or a ref
	 * name ('v6.13', 'v5.19-rc6', 'linus/master'), as the robot
	 * prints a release tag in the commit list and the table head.
	 */
	const char *commit;
	const char *ref;	/* 'commit' when it is a ref name, else NULL */
	/*
	 * The sha the farm is asked to run: 'commit' when it is one, the
	 * side's 'sha' key, or the ref resolved in the tracked tree
	 * (manifest_resolve()); NULL while a ref is unresolved.
	 */
	const char *sha;
	char *resolved;		/* owned: the ref resolved */
	const char *subject;	/* "" when absent */
	const char *author;	/* "Name <addr>"; NULL when absent */
	const char *repo;
	const char *branch;
	const char *tree;	/* [tree:branch] in subjects */
	char *result_root;
};

/*
 * The posted patch a report answers (manifest key 'patch'): the report
 * is then a reply to that mail. Ids are kept without angle brackets.
 */
struct manifest_patch {
	char *message_id;	/* NULL: the manifest has no 'patch' */
	const char *subject;
	const char *link;	/* the patch in an archive, or NULL */
	const char *url;	/* the branch it was applied on, or NULL */
	const char *base;	/* "URL BRANCH" it was applied to, or NULL */
	char **references;	/* its References ids, without brackets */
	size_t nreferences;
	struct strv to;		/* its To and Cc */
	struct strv cc;
};

struct manifest {
	struct ydoc doc;
	char *dir;		/* relative paths in it are relative to this */
	const char *id;		/* NULL: derived from commits and job */
	struct manifest_side base, head;
	struct strv to;		/* addresses */
	struct strv cc;
	struct strv notes;	/* extra lines for the report */
	const char *materials_url;
	const char *headline;	/* the headline metric (a POSIX ERE for the
				 * whole name, '{param}' the job's), or NULL */
	char *metrics;		/* a metric rules file of its own, or NULL */
	char *kconfig_file;	/* attached to the mail, or NULL */
	struct manifest_patch patch;
	/*
	 * 'group': the report it joins by name, "none" to stay apart, or
	 * NULL: the report of the cycle's manifests with the same commits
	 * (ingest/group.h)
	 */
	const char *group;
	int bisect;		/* 'bisect: true': blame one commit of
				 * base..head (doc/bisect.md) */
};

int manifest_load(struct manifest *m, const char *path, struct pb_err *err);
/* Parse a manifest held in memory ('name' for messages, 'dir' for paths). */
int manifest_parse(struct manifest *m, const char *name, const char *dir,
		   const char *text, size_t len, struct pb_err *err);
/*
 * The same for a file of a source directory, which may hold YAML files
 * that are no manifests (a metrics.yaml beside them): a document that is
 * no mapping, or names neither 'base' nor 'head' and has keys no manifest
 * has, is 0 with *is_manifest 0 and 'err' saying why (for --verbose), 'm'
 * released; else as manifest_parse() with *is_manifest 1.
 */
int manifest_parse_any(struct manifest *m, const char *name,
		       const char *dir, const char *text, size_t len,
		       int *is_manifest, struct pb_err *err);
void manifest_release(struct manifest *m);

struct config;
/*
 * A side whose commit is a ref name and has no 'sha' key gets the ref
 * resolved in the tracked tree (tracking.repo, libgit2): its 'sha' set.
 * EX_DATAERR naming the key when the ref is not there; EX_CONFIG when
 * there is no tracked tree to resolve it in (give 'base.sha').
 */
int manifest_resolve(struct manifest *m, const struct config *cfg,
		     struct pb_err *err);
/* The sha of a side for the farm: 'sha', else 'commit'. */
const char *manifest_side_sha(const struct manifest_side *s);

/*
 * The 'bisect' key of a loaded manifest into m->bisect (the loaders call
 * it): true or false; with true, EX_DATAERR naming the line when the
 * manifest has a 'patch' (one commit on its base, no range) or when base
 * and head are one commit.
 */
int manifest_bisect(struct manifest *m, struct pb_err *err);

/*
 * A manifest fetched from a url source is not trusted with local files:
 * its result roots must be http(s) URLs (a local job.yaml would be
 * attached to a mail), and it may not name a kconfig_file nor a metrics
 * table of its own. EX_DATAERR naming the key.
 */
int manifest_check_remote(const struct manifest *m, struct pb_err *err);

#endif
