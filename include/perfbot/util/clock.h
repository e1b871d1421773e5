/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_CLOCK_H
#define PERFBOT_CLOCK_H

/*
 * The monotonic clock across runs (util): seconds since boot
 * (CLOCK_BOOTTIME, which counts suspend too) and the boot's id, so that
 * an interval measured by two runs of one boot is right whatever the wall
 * clock did (it may jump back an hour or a year). Across boots, or with
 * SOURCE_DATE_EPOCH set (a fixed "now" the monotonic clock knows nothing
 * of), there is none, and callers cap what the wall clock says instead.
 */

struct clock_mono {
	int ok;			/* 0: none (see above) */
	char boot[40];		/* /proc/sys/kernel/random/boot_id */
	long long secs;		/* since that boot */
};

/* Now, on the monotonic clock; m->ok 0 when there is none. */
void clock_mono_now(struct clock_mono *m);

#endif
