/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_LOG_H
#define PERFBOT_LOG_H

/*
 * Diagnostics on stderr, one line each, prefixed "perfbot: ". Messages are
 * lowercase without a full stop; names are quoted '%s'. Control characters
 * are replaced so hostile input cannot forge lines. Secrets are never
 * passed here.
 */

enum log_level { LOG_QUIET, LOG_WARN, LOG_INFO, LOG_DEBUG };

void log_set_level(enum log_level level);
enum log_level log_get_level(void);
/*
 * With 'on', every line starts with the time it was written, in UTC
 * ("2026-12-01T08:33:11Z perfbot: ..."): for cron mail and log files,
 * where stderr is not a terminal.
 */
void log_set_timestamps(int on);
void log_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Always printed (errors): "perfbot: <msg>". */
void log_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

struct strbuf;

/*
 * The calling thread's lines go into 'sb' (NUL-separated, scrubbed and
 * masked, levels already applied) instead of stderr, until it is called
 * again with NULL; returns the capture it replaces. For work done on
 * another thread whose lines must come out where the work's results are
 * used (util/workers.h). A line that does not fit 'sb' is printed at
 * once.
 */
struct strbuf *log_capture(struct strbuf *sb);

/* Print the lines captured in 'sb', in order, stamped as they go out. */
void log_replay(const struct strbuf *sb);

#endif
