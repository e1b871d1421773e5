/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_FILEIO_H
#define PERFBOT_FILEIO_H

#include <stddef.h>

#include "perfbot/err.h"
#include "perfbot/strbuf.h"

/*
 * Read a whole regular file (or "-" for stdin) into 'out', refusing files
 * larger than 'max' bytes. A missing file is EX_NOINPUT; a file too large,
 * a directory or one holding a NUL byte (when 'text' is set) is
 * EX_DATAERR. The message names the path.
 */
int file_read(const char *path, size_t max, int text, struct strbuf *out,
	      struct pb_err *err);

/*
 * Map a whole regular file read-only (pre-faulted), refusing files larger
 * than 'max'; for big inputs this saves a copy and thousands of page
 * faults. Errors as file_read(). Release with file_unmap().
 */
struct file_map {
	const char *data;
	size_t len;
};
int file_map(const char *path, size_t max, struct file_map *m,
	     struct pb_err *err);
void file_unmap(struct file_map *m);

/*
 * Write 'len' bytes to 'path' atomically: a temporary file beside it,
 * fsync, rename. 'mode' is the new file's permission bits.
 */
int file_write_atomic(const char *path, const void *data, size_t len,
		      unsigned mode, struct pb_err *err);

/* Join a directory and a relative name ('name' absolute: just 'name'). */
char *path_join(const char *dir, const char *name);

/* The directory part of 'path' ("." when none), newly allocated. */
char *path_dirname(const char *path);



/*
 * Where a shipped data file ('config/metrics.yaml', 'templates/x.txt')
 * is: 'rel' itself when it exists (relative to the working directory),
 * else the installed copy under PERFBOT_DATADIR. Newly allocated.
 */
char *data_path(const char *rel);
#endif
