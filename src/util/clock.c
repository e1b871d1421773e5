// SPDX-License-Identifier: GPL-2.0-only
/*
 * util: the monotonic clock across runs (clock.h), for send's hourly
 * limit: seconds since boot and the boot's id.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "perfbot/util/clock.h"

void clock_mono_now(struct clock_mono *m)
{
	const char *sde = getenv("SOURCE_DATE_EPOCH");
	struct timespec ts;
	ssize_t n = -1;
	int fd;

	memset(m, 0, sizeof(*m));
	if ((sde && *sde) || clock_gettime(CLOCK_BOOTTIME, &ts))
		return;
	fd = open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, m->boot, sizeof(m->boot) - 1);
		close(fd);
	}
	if (n < 32)
		return;
	m->boot[strcspn(m->boot, "\n")] = '\0';
	m->secs = (long long)ts.tv_sec;
	m->ok = 1;
}
