/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_FILEIO_H
#define PERFBOT_FILEIO_H

#include <stddef.h>

#include "perfbot/util/err.h"
#include "perfbot/util/strbuf.h"

/*
 * Read a whole regular file (or "-" for stdin) into 'out', refusing files
 * larger than 'max' bytes. The file is opened without blocking and must
 * be a regular file: a FIFO or a device is refused at once (EX_DATAERR),
 * never waited on. A missing file is EX_NOINPUT; a file too large, a
 * directory or one holding a NUL byte (when 'text' is set) is
 * EX_DATAERR. The message names the path.
 */
int file_read(const char *path, size_t max, int text, struct strbuf *out,
	      struct pb_err *err);

/*
 * The pieces of file_read() for a caller that opens the file itself
 * (ingest/manifest_files.c checks what it opened): file_check_fd() fills 'st' and
 * refuses what is no regular file or is larger than 'max';
 * file_read_fd() reads the descriptor ('hint': its size, or 0) into
 * 'out'. 'path' names it in messages.
 */
struct stat;
int file_check_fd(int fd, const char *path, size_t max, struct stat *st,
		  struct pb_err *err);
int file_read_fd(int fd, const char *path, size_t max, size_t hint, int text,
		 struct strbuf *out, struct pb_err *err);

/*
 * Map a whole regular file read-only (pre-faulted), refusing files larger
 * than 'max' and anything but a regular file; for big inputs this saves a copy and thousands of page
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
 * Write 'len' bytes to 'path' atomically: an unnamed file (O_TMPFILE)
 * in its directory, fsync, then linked to its name, so a process killed
 * while writing leaves no file behind; where the file system cannot, or
 * the name exists, a temporary file beside it renamed. 'mode' is the new
 * file's permission bits.
 */
int file_write_atomic(const char *path, const void *data, size_t len,
		      unsigned mode, struct pb_err *err);

/*
 * Why this user may be refused 'path': "; it is owned by root (mode 0600)
 * and perfbot runs as nobody" when the file (or, when it does not exist,
 * the directory it would be made in) belongs to another user; else "".
 * For the message of an EACCES: a state or config made by another user
 * (a first run as root) is the usual cause. Returns 'buf'.
 */
const char *path_whose(const char *path, char *buf, size_t n);

/* Join a directory and a relative name ('name' absolute: just 'name'). */
char *path_join(const char *dir, const char *name);

/* The directory part of 'path' ("." when none), newly allocated. */
char *path_dirname(const char *path);



/*
 * Where a shipped data file ('config/metrics.yaml', 'templates/x.txt')
 * is: 'rel' itself when absolute; else the first that exists of
 * $PERFBOT_DATADIR/rel (when set), <the binary's directory>/rel
 * (a build tree), <bindir>/../share/perfbot/rel (an installed tree), the
 * build's PERFBOT_DATADIR/rel and ./rel. Not found is EX_NOINPUT naming
 * every place looked in and, when 'hint' is set, how else to point at it
 * ("data.metrics in the config"). Newly allocated.
 */
int data_find(const char *rel, const char *hint, char **out,
	      struct pb_err *err);
/*
 * data_find() without the error: when not found, where it would be under
 * $PERFBOT_DATADIR, else under the build's data directory.
 */
char *data_path(const char *rel);
#endif
