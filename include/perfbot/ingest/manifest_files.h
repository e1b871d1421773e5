/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_MANIFEST_FILES_H
#define PERFBOT_MANIFEST_FILES_H

#include "perfbot/config/config.h"
#include "perfbot/ingest/manifest.h"
#include "perfbot/util/strbuf.h"

/*
 * ingest: the files a manifest names on this machine, for the cycle's
 * ingest (ingest/sources.h source_take()), the report driver
 * (cycle/report.c) and 'perfbot check'.
 */

#define ATTACH_MAX ((size_t)4 << 20)

/*
 * What a manifest names, checked without comparing anything: each local
 * result_root a directory holding a regular matrix.json (a URL is fetched
 * later), the kconfig_file one it may attach (manifest_attach()).
 * EX_DATAERR or EX_NOINPUT naming the manifest, the key's line and the
 * path: "m/a.yaml:3: 'head.result_root': '/x/haed': no such directory".
 */
int manifest_check_files(const struct manifest *m, const struct config *cfg,
			 struct pb_err *err);

/*
 * Read the file 'path' that the manifest's key 'key' names (its
 * kconfig_file) into 'out', to attach it to the mail.
 *
 * A manifest is not trusted with the machine's files: what it names is
 * read only when, with every symbolic link resolved, it lies under one of
 * the directories its source allows (sources[].attach_dirs; unset: the
 * manifest's own directory and its local result roots; a manifest read
 * outside any source, as 'perfbot report' does, has the default too), is
 * a regular file (opened without blocking: a FIFO or a device is refused
 * at once) of at most ATTACH_MAX bytes of text, and is none of the files
 * the configuration keeps secrets in (smtp/imap.password_file, the
 * configuration itself, the state). Anything else is EX_DATAERR (or
 * EX_NOINPUT for a missing file), one line naming the manifest, the key's
 * line and the file.
 */
int manifest_attach(const struct config *cfg, const struct manifest *m,
		    const char *key, const char *path, struct strbuf *out,
		    struct pb_err *err);

#endif
