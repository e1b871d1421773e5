/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Helpers of the unit tests that run child processes (test_proc.c,
 * test_scheduler.c), header-only like testutil.h (include that first).
 */
#ifndef PERFBOT_TESTPROC_H
#define PERFBOT_TESTPROC_H

#include <time.h>

#include "perfbot/util/yaml.h"

/* Seconds on the monotonic clock. */
static inline double tp_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Dead: no such process, or a zombie that its new parent will reap. */
static inline int tp_gone(pid_t pid)
{
	char path[64], buf[256], *p;
	FILE *fp;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	fp = fopen(path, "r");
	if (!fp)
		return 1;
	n = fread(buf, 1, sizeof(buf) - 1, fp);
	fclose(fp);
	buf[n] = '\0';
	p = strrchr(buf, ')');
	return p && (p[2] == 'Z' || p[2] == 'X');
}

/* tp_gone() within two seconds. */
static inline int tp_wait_gone(pid_t pid)
{
	int i;

	for (i = 0; i < 100 && !tp_gone(pid); i++)
		usleep(20000);
	return tp_gone(pid);
}

/* The number on the first line of the file 'path' (a pid, a port). */
static inline pid_t tp_read_pid(const char *path)
{
	struct strbuf sb;
	long pid;

	tu_read_text(path, &sb);
	sb_setlen(&sb, strcspn(sb_str(&sb), "\n"));
	assert_int_equal(parse_long(sb_str(&sb), 2, 1L << 30, &pid), 0);
	sb_release(&sb);
	return (pid_t)pid;
}

#endif
