// SPDX-License-Identifier: GPL-2.0-only
/*
 * util: diagnostics on stderr (log.h): "perfbot: " lines at the level the
 * command line set, timestamped for cron when asked, with control
 * characters scrubbed and URL passwords masked; used by every stage.
 * A thread may capture its lines instead (log_capture()), for its caller
 * to print them later, in order (log_replay()).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "perfbot/util/err.h"
#include "perfbot/util/log.h"
#include "perfbot/util/strbuf.h"
#include "perfbot/util/text.h"

static enum log_level level = LOG_WARN;
static int timestamps;
static _Thread_local struct strbuf *capture;

void log_set_timestamps(int on)
{
	timestamps = on;
}

void log_set_level(enum log_level l)
{
	level = l;
}

enum log_level log_get_level(void)
{
	return level;
}

/* One finished line (scrubbed, masked) on stderr, stamped when asked. */
static void print_line(const char *line)
{
	if (timestamps) {
		char stamp[32];
		time_t t = time(NULL);
		struct tm tm;

		gmtime_r(&t, &tm);
		strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", &tm);
		fprintf(stderr, "%s perfbot: %s\n", stamp, line);
		return;
	}
	fprintf(stderr, "perfbot: %s\n", line);
}

static void emit(const char *fmt, va_list ap)
{
	char line[1024];

	vsnprintf(line, sizeof(line), fmt, ap);
	text_scrub(line, TEXT_CTRL_QMARK);
	pb_mask_credentials(line);
	/* a line that does not fit the capture is printed now, not lost */
	if (capture && !sb_add(capture, line, strlen(line) + 1))
		return;
	print_line(line);
}

struct strbuf *log_capture(struct strbuf *sb)
{
	struct strbuf *old = capture;

	capture = sb;
	return old;
}

void log_replay(const struct strbuf *sb)
{
	const char *p = sb->buf, *end = sb->buf + sb->len;

	for (; p && p < end; p += strlen(p) + 1)
		print_line(p);
}

#define LOG_AT(name, lvl)                              \
	void name(const char *fmt, ...)                \
	{                                              \
		va_list ap;                            \
		if (level < (lvl))                     \
			return;                        \
		va_start(ap, fmt);                     \
		emit(fmt, ap);                         \
		va_end(ap);                            \
	}

LOG_AT(log_warn, LOG_WARN)
LOG_AT(log_info, LOG_INFO)
LOG_AT(log_debug, LOG_DEBUG)
LOG_AT(log_error, LOG_QUIET)
